//! Edits by what they change: a professional's own business (days and hours here) takes
//! effect at once and never costs live work. What an admin vetted (a licence, the services
//! offered) waits beside the approved profile as their pending change: they stay approved,
//! their live quote stays hireable, and an admin approves or refuses the change itself. Only a
//! refusal that revokes their last approved licence ends their quotes, customers told.

use repairs_proto::accounts as acc;
use tonic::Code;
use uuid::Uuid;

use crate::helpers::{
    AccountsClient, TestServer, admin_token, licence_upload,
    market::{
        CALGARY_PRO, ELECTRICIAN, Market, PLUMBING, VISA, billing, customer, db, hire, in_calgary,
        market, place, professional, quote,
    },
    reason, save_profile, valid_profile, violated_fields, wait_for_message, with_token,
};

/// The server, clients, an admin's token, a customer (id, token) and an approved plumber in
/// Calgary (id, token, email).
type Story = (
    TestServer,
    Market,
    AccountsClient,
    String,
    (Uuid, String),
    (Uuid, String, String),
);

async fn start() -> Story {
    let server = TestServer::start().await;
    let market = market(&server).await;
    let mut accounts = AccountsClient::new(server.channel().await);
    let admin = admin_token(&server, &mut accounts).await;
    let customer = customer(&server).await;
    let pro = professional(&server, CALGARY_PRO).await;
    (server, market, accounts, admin, customer, pro)
}

/// The professional uploads a licence.
async fn upload(accounts: &mut AccountsClient, pro: Uuid, token: &str) -> acc::Licence {
    let added = accounts
        .add_licence(licence_upload(&pro.to_string(), token))
        .await;
    added.unwrap().into_inner().licence.unwrap()
}

/// The customer hires quote `id` with a card that is accepted.
async fn hire_by_card(
    server: &TestServer,
    customer_token: &str,
    id: &str,
) -> Result<repairs_proto::billing::Order, tonic::Status> {
    hire(
        &billing(server).await,
        customer_token,
        id,
        VISA,
        Uuid::now_v7(),
    )
    .await
}

/// The state of the quote `id`.
async fn quote_state(server: &TestServer, id: &str) -> String {
    sqlx::query_scalar("select state from quotes where id = $1")
        .bind(Uuid::parse_str(id).unwrap())
        .fetch_one(db(server))
        .await
        .unwrap()
}

async fn email_of_customer(server: &TestServer, id: Uuid) -> String {
    sqlx::query_scalar("select email::text from customers where id = $1")
        .bind(id)
        .fetch_one(db(server))
        .await
        .unwrap()
}

async fn read(accounts: &mut AccountsClient, id: Uuid, admin: &str) -> acc::Professional {
    let request = acc::GetProfessionalRequest { id: id.to_string() };
    let read = accounts.get_professional(with_token(request, admin)).await;
    read.unwrap().into_inner().professional.unwrap()
}

/// The admin approves whichever change of `pro` waits.
async fn approve_change(
    accounts: &mut AccountsClient,
    admin: &str,
    pro: Uuid,
) -> acc::Professional {
    let approve = acc::ApprovePendingChangeRequest {
        id: pro.to_string(),
        revision: 0,
    };
    let approved = accounts
        .approve_pending_change(with_token(approve, admin))
        .await;
    approved.unwrap().into_inner().professional.unwrap()
}

async fn refuse(
    accounts: &mut AccountsClient,
    admin: &str,
    request: acc::RefusePendingChangeRequest,
) -> Result<acc::Professional, tonic::Status> {
    let refused = accounts
        .refuse_pending_change(with_token(request, admin))
        .await?;
    Ok(refused.into_inner().professional.unwrap())
}

#[tokio::test]
async fn an_approved_professional_s_licence_and_services_wait_while_their_hours_apply_at_once() {
    let (server, mut market, mut accounts, admin, customer, pro) = start().await;
    let (customer_id, customer_token) = customer;
    let (pro, pro_token, _) = pro;
    // Their profile as an admin vetted it.
    accounts
        .update_professional_profile(save_profile(pro, &pro_token, valid_profile(PLUMBING)))
        .await
        .unwrap();
    approve_change(&mut accounts, &admin, pro).await;
    let request = place(&mut market, &customer_token, Uuid::now_v7(), in_calgary())
        .await
        .unwrap();
    let live = quote(&mut market, &pro_token, &request.id).await;

    // A renewed licence, and electrical work beside plumbing, on weekdays 8 to 5 only.
    let uploaded = upload(&mut accounts, pro, &pro_token).await;
    assert!(uploaded.awaiting_review);
    let edit = acc::ProfessionalProfile {
        service_ids: vec![PLUMBING.into(), ELECTRICIAN.into()],
        available_days: vec![1, 2, 3, 4, 5],
        available_from: "08:00".into(),
        available_to: "17:00".into(),
        ..valid_profile(PLUMBING)
    };
    let edited = accounts
        .update_professional_profile(save_profile(pro, &pro_token, edit))
        .await
        .unwrap()
        .into_inner()
        .professional
        .unwrap();
    // Still approved; the hours took effect at once, the services wait for an admin.
    assert_eq!(edited.state, acc::ProfessionalState::Approved as i32);
    let profile = edited.profile.unwrap();
    assert_eq!(
        (
            profile.available_from.as_str(),
            profile.available_to.as_str()
        ),
        ("08:00", "17:00")
    );
    assert_eq!(profile.service_ids, [PLUMBING]);
    let pending = edited.pending_change.unwrap();
    let mut proposed = pending.proposed.unwrap().service_ids;
    proposed.sort();
    assert_eq!(proposed, [PLUMBING, ELECTRICIAN]);
    assert_eq!(pending.licences_awaiting_review, 1);
    // Matching reads the approved services: no electrical work until an admin says so.
    let services: Vec<Uuid> = sqlx::query_scalar(
        "select service_id from professional_services where professional_id = $1",
    )
    .bind(pro)
    .fetch_all(db(&server))
    .await
    .unwrap();
    assert_eq!(services, [Uuid::parse_str(PLUMBING).unwrap()]);

    // Saving the approved services again takes that part back; the licence still waits.
    let kept = accounts
        .update_professional_profile(save_profile(pro, &pro_token, valid_profile(PLUMBING)))
        .await
        .unwrap()
        .into_inner()
        .professional
        .unwrap();
    let pending = kept.pending_change.unwrap();
    assert!(pending.proposed.is_none());
    assert_eq!(pending.licences_awaiting_review, 1);

    // The admins find who has a change waiting, read it beside the approved profile and
    // refuse the licence.
    let waiting = acc::ListProfessionalsRequest {
        with_pending_change: true,
        ..Default::default()
    };
    let listed = accounts
        .list_professionals(with_token(waiting, &admin))
        .await
        .unwrap()
        .into_inner()
        .professionals;
    let listed: Vec<&str> = listed.iter().map(|p| p.id.as_str()).collect();
    assert_eq!(listed, [pro.to_string()]);
    let seen = read(&mut accounts, pro, &admin).await;
    let revision = seen.pending_change.unwrap().revision;
    assert!(seen.licences.iter().all(|licence| licence.awaiting_review));
    let no_reason = acc::RefusePendingChangeRequest {
        id: pro.to_string(),
        reason: " ".into(),
        revision,
        ..Default::default()
    };
    let refused = refuse(&mut accounts, &admin, no_reason).await.unwrap_err();
    assert_eq!(violated_fields(&refused), ["reason"]);
    let refusal = acc::RefusePendingChangeRequest {
        id: pro.to_string(),
        reason: "The licence is unreadable.".into(),
        revision,
        ..Default::default()
    };
    let after = refuse(&mut accounts, &admin, refusal.clone())
        .await
        .unwrap();
    assert_eq!(after.state, acc::ProfessionalState::Approved as i32);
    assert!(after.pending_change.is_none() && after.licences.is_empty());
    // Saved with the profile, their email is now the one `save` sends.
    let pro_email = format!("{pro}@example.ca");
    wait_for_message(
        server.data_dir(),
        "email.jsonl",
        &pro_email,
        "The licence is unreadable.",
        1,
    )
    .await;
    let again = refuse(&mut accounts, &admin, refusal).await.unwrap_err();
    assert_eq!(
        (again.code(), reason(&again)),
        (Code::FailedPrecondition, "NO_PENDING_CHANGE".into())
    );

    // The quote sent before all this was never withdrawn, and the customer hires it.
    assert_eq!(quote_state(&server, &live.id).await, "submitted");
    let order = hire_by_card(&server, &customer_token, &live.id)
        .await
        .unwrap();
    assert_eq!(order.quote_id, live.id);
    let customer_email = email_of_customer(&server, customer_id).await;
    let withdrawn = crate::helpers::outbox(server.data_dir(), "email.jsonl")
        .into_iter()
        .filter(|m| m["to"] == customer_email.as_str())
        .filter(|m| m["subject"].as_str().unwrap_or("").contains("withdrawn"))
        .count();
    assert_eq!(withdrawn, 0);
    server.stop().await;
}

#[tokio::test]
async fn a_refusal_revoking_the_last_licence_ends_the_quotes_and_their_customers_are_told() {
    let (server, mut market, mut accounts, admin, customer, pro) = start().await;
    let (customer_id, customer_token) = customer;
    let (pro, pro_token, pro_email) = pro;

    // Their licence is approved with a change of its own.
    let first = upload(&mut accounts, pro, &pro_token).await;
    let approved = approve_change(&mut accounts, &admin, pro).await;
    assert!(approved.pending_change.is_none());
    assert!(!approved.licences[0].awaiting_review);
    wait_for_message(server.data_dir(), "email.jsonl", &pro_email, "approved", 1).await;

    let request = place(&mut market, &customer_token, Uuid::now_v7(), in_calgary())
        .await
        .unwrap();
    let live = quote(&mut market, &pro_token, &request.id).await;
    // Its renewal waits; the admin finds it wanting and revokes the expired one.
    upload(&mut accounts, pro, &pro_token).await;
    let revision = read(&mut accounts, pro, &admin)
        .await
        .pending_change
        .unwrap()
        .revision;
    let refusal = |revoke: &str, revision| acc::RefusePendingChangeRequest {
        id: pro.to_string(),
        reason: "The licence expired and its renewal is not valid.".into(),
        revoke_licence_ids: vec![revoke.into()],
        revision,
    };
    let stale = refuse(&mut accounts, &admin, refusal(&first.id, revision + 1)).await;
    let stale = stale.unwrap_err();
    assert_eq!(reason(&stale), "PENDING_CHANGE_REVISED");
    let stranger = refuse(&mut accounts, &admin, refusal(&live.id, revision)).await;
    assert_eq!(
        violated_fields(&stranger.unwrap_err()),
        ["revoke_licence_ids"]
    );
    // Neither refusal did anything: the change still waits, their quote is live.
    assert!(
        read(&mut accounts, pro, &admin)
            .await
            .pending_change
            .is_some()
    );
    assert_eq!(quote_state(&server, &live.id).await, "submitted");

    let unfit = refuse(&mut accounts, &admin, refusal(&first.id, revision))
        .await
        .unwrap();
    assert_eq!(unfit.state, acc::ProfessionalState::Denied as i32);
    assert!(unfit.licences.is_empty() && unfit.pending_change.is_none());
    assert_eq!(quote_state(&server, &live.id).await, "withdrawn");
    // The customer is told the professional cannot take jobs, nothing of why.
    let customer_email = email_of_customer(&server, customer_id).await;
    let told = wait_for_message(
        server.data_dir(),
        "email.jsonl",
        &customer_email,
        "cannot take jobs",
        1,
    )
    .await;
    assert!(!told["body"].as_str().unwrap().contains("expired"));
    wait_for_message(server.data_dir(), "email.jsonl", &pro_email, "revoked", 1).await;
    let refused = hire_by_card(&server, &customer_token, &live.id)
        .await
        .unwrap_err();
    assert_eq!(refused.code(), Code::FailedPrecondition, "{refused:?}");
    let actions: Vec<String> = sqlx::query_scalar(
        "select action from audit_events
         where target_id = $1 and action not like '%.contacts_view' order by created_at",
    )
    .bind(pro.to_string())
    .fetch_all(db(&server))
    .await
    .unwrap();
    assert_eq!(
        actions,
        [
            "professional.pending_change.approve",
            "professional.pending_change.refuse"
        ]
    );
    server.stop().await;
}
