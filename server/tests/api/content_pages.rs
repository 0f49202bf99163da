//! The landing pages' texts through ContentService on the running server, against a real
//! Postgres and Redis: defaults for fields never set, per-language updates that leave the
//! other language and the unnamed fields alone, stale etags refused with nothing changed,
//! the cached read following a change, admin-only updates and their audit rows.

use crate::helpers::{
    content::{Setup, mask, setup},
    reason, with_token,
};
use repairs_proto::{
    accounts::ListAuditEventsRequest,
    content::{self as pb, content_service_client::ContentServiceClient},
    types::Language,
};
use repairs_server::domain::Role;
use tonic::{Code, transport::Channel};

async fn home(
    content: &mut ContentServiceClient<Channel>,
    language: Language,
) -> pb::GetHomePageResponse {
    content
        .get_home_page(pb::GetHomePageRequest {
            language: language as i32,
        })
        .await
        .unwrap()
        .into_inner()
}

#[tokio::test]
async fn a_french_banner_change_leaves_english_and_the_other_fields_alone() {
    let Setup {
        server,
        mut content,
        mut accounts,
        admin,
    } = setup().await;
    let english_before = home(&mut content, Language::En).await;
    let french_before = home(&mut content, Language::Fr).await;
    // The defaults are the web's catalogue, in each language.
    assert_eq!(
        english_before.page.as_ref().unwrap().banner_h1,
        "Emergency repairs, handled fast"
    );
    assert_eq!(
        french_before.page.as_ref().unwrap().banner_h1,
        "Réparations d’urgence, réglées rapidement"
    );
    assert!(french_before.update_time.is_none());

    let updated = content
        .update_home_page(with_token(
            pb::UpdateHomePageRequest {
                language: Language::Fr as i32,
                page: Some(pb::HomePage {
                    banner_h1: "Dépannage jour et nuit".to_owned(),
                    banner_h2: "not in the mask, not applied".to_owned(),
                    how_2: Some(pb::GuideStep {
                        heading: "Comparez".to_owned(),
                        description: String::new(),
                    }),
                    ..Default::default()
                }),
                etag: french_before.etag.clone(),
                update_mask: mask(&["banner_h1", "how_2.heading"]),
            },
            &admin,
        ))
        .await
        .unwrap()
        .into_inner();
    assert_ne!(updated.etag, french_before.etag);

    let french = home(&mut content, Language::Fr).await;
    let page = french.page.unwrap();
    let before = french_before.page.unwrap();
    assert_eq!(page.banner_h1, "Dépannage jour et nuit");
    assert_eq!(page.banner_h2, before.banner_h2);
    assert_eq!(page.how_2.as_ref().unwrap().heading, "Comparez");
    assert_eq!(
        page.how_2.unwrap().description,
        before.how_2.unwrap().description
    );
    assert_eq!(french.etag, updated.etag);
    assert!(french.update_time.is_some());
    // English is as it was, etag included.
    assert_eq!(home(&mut content, Language::En).await, english_before);

    // The change is in the audit log with before and after.
    let events = accounts
        .list_audit_events(with_token(ListAuditEventsRequest::default(), &admin))
        .await
        .unwrap()
        .into_inner()
        .events;
    let event = events
        .iter()
        .find(|e| e.action == "home_page.update")
        .unwrap();
    assert_eq!(event.target_id, "fr");
    let after: serde_json::Value = serde_json::from_str(&event.after_json).unwrap();
    assert_eq!(after["banner_h1"], "Dépannage jour et nuit");
    let before: serde_json::Value = serde_json::from_str(&event.before_json).unwrap();
    assert_eq!(before["banner_h1"], serde_json::Value::Null);
    assert_eq!(event.admin_email, "admin@example.ca");
    server.stop().await;
}

#[tokio::test]
async fn a_stale_etag_is_refused_and_changes_nothing() {
    let Setup {
        server,
        mut content,
        admin,
        ..
    } = setup().await;
    let first = home(&mut content, Language::En).await;
    let update = |text: &str, etag: &str| {
        with_token(
            pb::UpdateProfessionalPageRequest {
                language: Language::En as i32,
                page: Some(pb::ProfessionalPage {
                    banner_h1: text.to_owned(),
                    ..Default::default()
                }),
                etag: etag.to_owned(),
                update_mask: mask(&["banner_h1"]),
            },
            &admin,
        )
    };
    let opened = content
        .get_professional_page(pb::GetProfessionalPageRequest {
            language: Language::En as i32,
        })
        .await
        .unwrap()
        .into_inner();
    content
        .update_professional_page(update("First editor", &opened.etag))
        .await
        .unwrap();
    let status = content
        .update_professional_page(update("Second editor", &opened.etag))
        .await
        .unwrap_err();
    assert_eq!(status.code(), Code::FailedPrecondition);
    assert_eq!(reason(&status), "ETAG_MISMATCH");
    let now = content
        .get_professional_page(pb::GetProfessionalPageRequest {
            language: Language::En as i32,
        })
        .await
        .unwrap()
        .into_inner();
    assert_eq!(now.page.unwrap().banner_h1, "First editor");
    // The home page's etag is its own.
    assert_eq!(home(&mut content, Language::En).await.etag, first.etag);

    // An empty text goes back to the default; legacy callers send no etag.
    content
        .update_professional_page(update("", ""))
        .await
        .unwrap();
    let reset = content
        .get_professional_page(pb::GetProfessionalPageRequest {
            language: Language::En as i32,
        })
        .await
        .unwrap()
        .into_inner();
    assert_eq!(
        reset.page.unwrap().banner_h1,
        opened.page.unwrap().banner_h1
    );
    server.stop().await;
}

#[tokio::test]
async fn updates_need_an_admin_a_language_and_known_fields() {
    let Setup {
        server,
        mut content,
        admin,
        ..
    } = setup().await;
    let request = |language: Language, paths: &[&str]| pb::UpdateHomePageRequest {
        language: language as i32,
        page: Some(pb::HomePage::default()),
        etag: String::new(),
        update_mask: mask(paths),
    };
    let (_, customer) = server.account_token(Role::Customer).await;
    let status = content
        .update_home_page(with_token(request(Language::En, &["banner_h1"]), &customer))
        .await
        .unwrap_err();
    assert_eq!(status.code(), Code::PermissionDenied);
    for (language, paths) in [
        (Language::Unspecified, &["banner_h1"][..]),
        (Language::En, &["banner_h9"][..]),
        (Language::En, &[][..]),
    ] {
        let status = content
            .update_home_page(with_token(request(language, paths), &admin))
            .await
            .unwrap_err();
        assert_eq!(status.code(), Code::InvalidArgument, "{paths:?}");
    }
    server.stop().await;
}

#[tokio::test]
async fn the_terms_are_edited_per_language_and_start_from_the_built_in_text() {
    let Setup {
        server,
        mut content,
        admin,
        ..
    } = setup().await;
    let read = |language: Language| pb::GetLegalPageRequest {
        kind: pb::LegalPageKind::Terms as i32,
        language: language as i32,
    };
    let built_in = content
        .get_legal_page(read(Language::Fr))
        .await
        .unwrap()
        .into_inner();
    let page = built_in.page.unwrap();
    assert!(
        !page.title.is_empty() && page.body.contains("\n\n"),
        "{page:?}"
    );
    assert!(built_in.update_time.is_none());

    let update = |title: &str, etag: &str| {
        with_token(
            pb::UpdateLegalPageRequest {
                language: Language::Fr as i32,
                page: Some(pb::LegalPage {
                    kind: pb::LegalPageKind::Terms as i32,
                    title: title.to_owned(),
                    body: "Premier paragraphe.\n\nSecond.".to_owned(),
                    person_in_charge: String::new(),
                }),
                etag: etag.to_owned(),
            },
            &admin,
        )
    };
    content
        .update_legal_page(update("Conditions", &built_in.etag))
        .await
        .unwrap();
    let status = content
        .update_legal_page(update("Trop tard", &built_in.etag))
        .await
        .unwrap_err();
    assert_eq!(reason(&status), "ETAG_MISMATCH");
    let status = content
        .update_legal_page(update(" ", ""))
        .await
        .unwrap_err();
    assert_eq!(status.code(), Code::InvalidArgument);

    let french = content
        .get_legal_page(read(Language::Fr))
        .await
        .unwrap()
        .into_inner();
    assert_eq!(french.page.unwrap().title, "Conditions");
    let english = content
        .get_legal_page(read(Language::En))
        .await
        .unwrap()
        .into_inner();
    assert_ne!(english.page.unwrap().title, "Conditions");
    // The privacy policy is a page of its own.
    let privacy = content
        .get_legal_page(pb::GetLegalPageRequest {
            kind: pb::LegalPageKind::Privacy as i32,
            language: Language::Fr as i32,
        })
        .await
        .unwrap()
        .into_inner();
    assert_ne!(privacy.page.unwrap().title, "Conditions");
    server.stop().await;
}

#[tokio::test]
async fn the_privacy_page_always_names_its_person_in_charge_in_both_languages() {
    let Setup {
        server,
        mut content,
        admin,
        ..
    } = setup().await;
    let read = |kind: pb::LegalPageKind, language: Language| pb::GetLegalPageRequest {
        kind: kind as i32,
        language: language as i32,
    };
    async fn page(
        content: &mut ContentServiceClient<Channel>,
        request: pb::GetLegalPageRequest,
    ) -> pb::GetLegalPageResponse {
        content.get_legal_page(request).await.unwrap().into_inner()
    }
    let french = page(&mut content, read(pb::LegalPageKind::Privacy, Language::Fr)).await;
    let english = page(&mut content, read(pb::LegalPageKind::Privacy, Language::En)).await;
    let (french, english) = (french.page.unwrap(), english.page.unwrap());
    assert_eq!(french.title, "Protection des renseignements personnels");
    assert_eq!(english.title, "Protection of personal information");
    assert!(
        french
            .person_in_charge
            .contains("responsable de la protection")
    );
    assert!(english.person_in_charge.contains("Privacy Officer"));
    let terms = page(&mut content, read(pb::LegalPageKind::Terms, Language::En)).await;
    assert_eq!(terms.page.unwrap().person_in_charge, "");

    let update = |kind: pb::LegalPageKind, person: &str| {
        with_token(
            pb::UpdateLegalPageRequest {
                language: Language::Fr as i32,
                page: Some(pb::LegalPage {
                    kind: kind as i32,
                    title: "Vos renseignements".to_owned(),
                    body: "Premier paragraphe.".to_owned(),
                    person_in_charge: person.to_owned(),
                }),
                etag: String::new(),
            },
            &admin,
        )
    };
    let named = "Marie Tremblay, responsable de la vie privée, 514 555-0100";
    let saved = content
        .update_legal_page(update(pb::LegalPageKind::Privacy, named))
        .await
        .unwrap()
        .into_inner();
    assert_eq!(saved.page.unwrap().person_in_charge, named);
    // Empty keeps who is named; the terms name nobody.
    content
        .update_legal_page(update(pb::LegalPageKind::Privacy, ""))
        .await
        .unwrap();
    let now = page(&mut content, read(pb::LegalPageKind::Privacy, Language::Fr)).await;
    assert_eq!(now.page.unwrap().person_in_charge, named);
    let refused = content
        .update_legal_page(update(pb::LegalPageKind::Terms, named))
        .await
        .unwrap_err();
    assert_eq!(refused.code(), Code::InvalidArgument);
    assert!(refused.message().contains("privacy page"), "{refused:?}");
    let refused = content
        .update_legal_page(update(pb::LegalPageKind::Privacy, &"x".repeat(501)))
        .await
        .unwrap_err();
    assert_eq!(refused.code(), Code::InvalidArgument);
    server.stop().await;
}
