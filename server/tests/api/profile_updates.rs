//! Changing an account keeps what was not sent, and its files stay in step with its rows:
//! concurrent licence uploads stop at the limit, a replaced photo leaves no file behind, a
//! deleted account leaves none at all. The public profile shows approved professionals only.
//! The file links of the replies open as they are, from the public origin.

use std::path::{Path, PathBuf};

use crate::helpers::{
    AccountsClient, PDF, PNG, TestServer, free_port, licence_upload, market::PLUMBING, reason,
    sign_up, valid_profile, with_token,
};
use repairs_proto::{accounts as pb, types};
use repairs_server::domain::Role;
use tonic::Code;

/// The stored files under `<data dir>/files/<folder>` (their `~type` companions left out).
fn stored_files(data_dir: &Path, folder: &str) -> Vec<PathBuf> {
    let mut found = Vec::new();
    let mut pending = vec![data_dir.join("files").join(folder)];
    while let Some(dir) = pending.pop() {
        let Ok(entries) = std::fs::read_dir(&dir) else {
            continue;
        };
        for entry in entries {
            let path = entry.unwrap().path();
            if path.is_dir() {
                pending.push(path);
            } else if !path.to_string_lossy().ends_with("~type") {
                found.push(path);
            }
        }
    }
    found
}

fn photo(id: &str, token: &str) -> tonic::Request<pb::SetProfessionalPhotoRequest> {
    with_token(
        pb::SetProfessionalPhotoRequest {
            id: id.into(),
            content_type: "image/png".into(),
            content: PNG.to_vec(),
        },
        token,
    )
}

/// The professional's record as they read it.
async fn own_record(client: &mut AccountsClient, id: &str, token: &str) -> pb::Professional {
    client
        .get_professional(with_token(
            pb::GetProfessionalRequest { id: id.into() },
            token,
        ))
        .await
        .unwrap()
        .into_inner()
        .professional
        .unwrap()
}

#[tokio::test]
async fn updates_keep_the_language_and_sms_choice_they_do_not_send() {
    let server = TestServer::start().await;
    let mut client = AccountsClient::new(server.channel().await);

    let customer = sign_up(&mut client, pb::Role::Customer, "cleo@example.ca").await;
    let update_customer = |language: types::Language, sms: pb::SmsUpdates| {
        with_token(
            pb::UpdateCustomerRequest {
                id: customer.id.clone(),
                name: "Cléo Tremblay".into(),
                email: "cleo@example.ca".into(),
                language: language as i32,
                sms_updates: sms as i32,
            },
            &customer.token,
        )
    };
    client
        .update_customer(update_customer(types::Language::Fr, pb::SmsUpdates::Yes))
        .await
        .unwrap();
    let kept = client
        .update_customer(update_customer(
            types::Language::Unspecified,
            pb::SmsUpdates::Unspecified,
        ))
        .await
        .unwrap()
        .into_inner()
        .customer
        .unwrap();
    assert_eq!(kept.language, types::Language::Fr as i32);
    assert_eq!(kept.sms_updates, pb::SmsUpdates::Yes as i32);

    let pro = sign_up(&mut client, pb::Role::Professional, "pat@example.ca").await;
    let save = |language: types::Language, sms: pb::SmsUpdates| {
        with_token(
            pb::UpdateProfessionalProfileRequest {
                id: pro.id.clone(),
                name: "Pat Roy".into(),
                email: "pat@example.ca".into(),
                sms_updates: sms as i32,
                language: language as i32,
                profile: Some(valid_profile(PLUMBING)),
                emergencies_any_hour: None,
            },
            &pro.token,
        )
    };
    client
        .update_professional_profile(save(types::Language::Fr, pb::SmsUpdates::Yes))
        .await
        .unwrap();
    let kept = client
        .update_professional_profile(save(
            types::Language::Unspecified,
            pb::SmsUpdates::Unspecified,
        ))
        .await
        .unwrap()
        .into_inner()
        .professional
        .unwrap();
    assert_eq!(kept.language, types::Language::Fr as i32);
    assert_eq!(kept.sms_updates, pb::SmsUpdates::Yes as i32);
    // What is sent still changes.
    let changed = client
        .update_professional_profile(save(types::Language::En, pb::SmsUpdates::No))
        .await
        .unwrap()
        .into_inner()
        .professional
        .unwrap();
    assert_eq!(changed.language, types::Language::En as i32);
    assert_eq!(changed.sms_updates, pb::SmsUpdates::No as i32);
    server.stop().await;
}

#[tokio::test]
async fn the_choice_of_emergencies_at_any_hour_is_kept_by_updates_that_do_not_send_it() {
    let server = TestServer::start().await;
    let mut client = AccountsClient::new(server.channel().await);
    let pro = sign_up(&mut client, pb::Role::Professional, "ema@example.ca").await;
    let saver = client.clone();
    let save = |any_hour: Option<bool>| {
        let mut client = saver.clone();
        let request = with_token(
            pb::UpdateProfessionalProfileRequest {
                id: pro.id.clone(),
                name: "Ema Roy".into(),
                email: "ema@example.ca".into(),
                profile: Some(pb::ProfessionalProfile {
                    // Output only in the profile: what the request says counts.
                    emergencies_any_hour: !any_hour.unwrap_or(true),
                    ..valid_profile(PLUMBING)
                }),
                emergencies_any_hour: any_hour,
                ..Default::default()
            },
            &pro.token,
        );
        async move {
            let saved = client.update_professional_profile(request).await.unwrap();
            saved.into_inner().professional.unwrap().profile.unwrap()
        }
    };
    assert!(!save(None).await.emergencies_any_hour, "off until chosen");
    assert!(save(Some(true)).await.emergencies_any_hour);
    assert!(save(None).await.emergencies_any_hour, "kept when not sent");
    let read = own_record(&mut client, &pro.id, &pro.token).await;
    assert!(read.profile.unwrap().emergencies_any_hour);
    assert!(!save(Some(false)).await.emergencies_any_hour);
    assert!(!save(None).await.emergencies_any_hour);
    server.stop().await;
}

#[tokio::test]
async fn concurrent_licence_uploads_stop_at_eleven() {
    let server = TestServer::start().await;
    let mut client = AccountsClient::new(server.channel().await);
    let pro = sign_up(&mut client, pb::Role::Professional, "lin@example.ca").await;

    let uploads = (0..20).map(|_| {
        let mut client = client.clone();
        let request = licence_upload(&pro.id, &pro.token);
        tokio::spawn(async move { client.add_licence(request).await })
    });
    let mut added = 0;
    for upload in futures::future::join_all(uploads).await {
        match upload.unwrap() {
            Ok(_) => added += 1,
            Err(status) => assert_eq!(
                (status.code(), reason(&status).as_str()),
                (Code::FailedPrecondition, "TOO_MANY_LICENCES")
            ),
        }
    }
    assert_eq!(added, 11);
    let listed = own_record(&mut client, &pro.id, &pro.token).await.licences;
    assert_eq!(listed.len(), 11);
    // The refused uploads' files are gone too.
    let folder = format!("professionals/{}/licences", pro.id);
    assert_eq!(stored_files(server.data_dir(), &folder).len(), 11);
    server.stop().await;
}

/// An app that calls gRPC alone opens the file links of the replies as they are: absolute,
/// under PUBLIC_URL (here the server's own file listener; the BFF in production).
#[tokio::test]
async fn file_links_in_replies_open_as_they_are_from_the_public_origin() {
    let port = free_port();
    let public_url = format!("http://127.0.0.1:{port}");
    let server = TestServer::start_with(|config| {
        config.http_addr = ([127, 0, 0, 1], port).into();
        config.public_url = public_url.clone();
    })
    .await;
    let mut client = AccountsClient::new(server.channel().await);
    let pro = sign_up(&mut client, pb::Role::Professional, "links@example.ca").await;
    let licence_url = client
        .add_licence(licence_upload(&pro.id, &pro.token))
        .await
        .unwrap()
        .into_inner()
        .licence
        .unwrap()
        .file_url;
    let photo_url = client
        .set_professional_photo(photo(&pro.id, &pro.token))
        .await
        .unwrap()
        .into_inner()
        .photo_url;
    let read = own_record(&mut client, &pro.id, &pro.token).await;

    let http = reqwest::Client::new();
    for (url, content_type, bytes) in [
        (licence_url, "application/pdf", PDF),
        (read.licences[0].file_url.clone(), "application/pdf", PDF),
        (photo_url, "image/png", PNG),
        (read.photo_url, "image/png", PNG),
    ] {
        assert!(url.starts_with(&format!("{public_url}/files/")), "{url}");
        let response = http.get(&url).send().await.unwrap();
        assert_eq!(response.status(), 200, "{url}");
        assert_eq!(response.headers()["content-type"], content_type, "{url}");
        assert_eq!(response.bytes().await.unwrap().as_ref(), bytes, "{url}");
    }
    server.stop().await;
}

#[tokio::test]
async fn photos_saved_at_once_leave_one_file() {
    let server = TestServer::start().await;
    let mut client = AccountsClient::new(server.channel().await);
    let pro = sign_up(&mut client, pb::Role::Professional, "phil@example.ca").await;

    let saves = (0..40).map(|_| {
        let mut client = client.clone();
        let request = photo(&pro.id, &pro.token);
        tokio::spawn(async move { client.set_professional_photo(request).await })
    });
    for save in futures::future::join_all(saves).await {
        save.unwrap().unwrap();
    }
    let photos = stored_files(server.data_dir(), &format!("professionals/{}", pro.id));
    assert_eq!(photos.len(), 1, "{photos:?}");
    server.stop().await;
}

#[tokio::test]
async fn deleting_a_professional_deletes_their_files() {
    let server = TestServer::start().await;
    let mut client = AccountsClient::new(server.channel().await);
    let pro = sign_up(&mut client, pb::Role::Professional, "del@example.ca").await;
    let keep = sign_up(&mut client, pb::Role::Professional, "keep@example.ca").await;
    for who in [&pro, &keep] {
        client
            .set_professional_photo(photo(&who.id, &who.token))
            .await
            .unwrap();
        client
            .add_licence(licence_upload(&who.id, &who.token))
            .await
            .unwrap();
    }
    let folder = format!("professionals/{}", pro.id);
    assert_eq!(stored_files(server.data_dir(), &folder).len(), 2);

    let (_, admin) = server.account_token(Role::Admin).await;
    client
        .delete_professional(with_token(
            pb::DeleteProfessionalRequest { id: pro.id.clone() },
            &admin,
        ))
        .await
        .unwrap();
    assert!(stored_files(server.data_dir(), &folder).is_empty());
    let others = format!("professionals/{}", keep.id);
    assert_eq!(stored_files(server.data_dir(), &others).len(), 2);
    server.stop().await;
}

#[tokio::test]
async fn only_approved_professionals_are_public_but_to_themselves_and_admins() {
    let server = TestServer::start().await;
    let mut client = AccountsClient::new(server.channel().await);
    let pro = sign_up(&mut client, pb::Role::Professional, "pub@example.ca").await;
    let other = sign_up(&mut client, pb::Role::Professional, "other@example.ca").await;
    let customer = sign_up(&mut client, pb::Role::Customer, "cust@example.ca").await;
    let (_, admin) = server.account_token(Role::Admin).await;
    let ask = |token: Option<&str>| {
        let message = pb::GetPublicProfessionalRequest { id: pro.id.clone() };
        match token {
            Some(token) => with_token(message, token),
            None => tonic::Request::new(message),
        }
    };
    let code = |result: Result<tonic::Response<pb::GetPublicProfessionalResponse>, _>| {
        result
            .map(drop)
            .map_err(|status: tonic::Status| status.code())
    };

    for stranger in [
        None,
        Some(other.token.as_str()),
        Some(customer.token.as_str()),
    ] {
        assert_eq!(
            code(client.get_public_professional(ask(stranger)).await),
            Err(Code::NotFound)
        );
    }
    let own = client
        .get_public_professional(ask(Some(&pro.token)))
        .await
        .unwrap()
        .into_inner()
        .professional
        .unwrap();
    assert_eq!(
        (own.id.as_str(), own.name.as_str()),
        (pro.id.as_str(), "Ana Lopez")
    );
    assert_eq!(
        code(client.get_public_professional(ask(Some(&admin))).await),
        Ok(())
    );

    client
        .approve_professional(with_token(
            pb::ApproveProfessionalRequest { id: pro.id.clone() },
            &admin,
        ))
        .await
        .unwrap();
    assert_eq!(
        code(client.get_public_professional(ask(None)).await),
        Ok(())
    );
    server.stop().await;
}
