//! Hiring against the real server, Postgres and Redis, on the offline test gateway: the
//! quote's fee authorised, the request hired and the other quotes not selected; replays;
//! two hires racing on one request; declined cards; 3-D Secure both ways; capture on
//! completion; releasing the hold on a cancel; the hold-expiry sweeper with its clock; and
//! privacy for another customer and another professional.

use crate::helpers::{
    TestServer,
    market::{
        self, Billing, CALGARY_PRO, DECLINED, Market, Pro, THREE_D_SECURE, VISA, billing, customer,
        db, hire, in_calgary, place, professional,
    },
    reason, send_quote, wait_for_message, with_token,
};
use repairs_proto::{
    accounts::{self as apb, accounts_service_client::AccountsServiceClient},
    billing as bpb, marketplace as pb,
    types::Language,
};
use std::sync::Arc;

use repairs_server::{
    billing::{
        Ledger, Step,
        admin::{self, Target},
    },
    domain::Role,
    hiring,
    providers::payments::{
        GatewayKind, GatewayPayment, IdempotencyKey, NewCharge, PaymentError, PaymentGateway,
    },
    store::orders,
};
use tonic::Code;
use uuid::Uuid;

/// A customer's open request with two plumbers' quotes (9,000 and 12,000 cents).
struct Job {
    server: TestServer,
    market: Market,
    billing: Billing,
    customer_token: String,
    request: pb::RepairRequest,
    quote: pb::Quote,
    other_quote: pb::Quote,
    pro_token: String,
    other_pro_token: String,
    pro_email: String,
    other_pro_email: String,
}

async fn job() -> Job {
    let server = TestServer::start().await;
    let mut market = market::market(&server).await;
    let billing = billing(&server).await;
    let (_, customer_token) = customer(&server).await;
    let request = place(&mut market, &customer_token, Uuid::now_v7(), in_calgary())
        .await
        .unwrap();
    // The professional hired asked for texts; the other did not.
    let texted = Pro {
        sms: true,
        ..CALGARY_PRO
    };
    let (_, pro_token, pro_email) = professional(&server, texted).await;
    let (_, other_token, other_pro_email) = professional(&server, CALGARY_PRO).await;
    let quote = send_quote(&server, &pro_token, &request.id, 9_000).await;
    let other_quote = send_quote(&server, &other_token, &request.id, 12_000).await;
    Job {
        server,
        market,
        billing,
        customer_token,
        request,
        quote,
        other_quote,
        pro_token,
        other_pro_token: other_token,
        pro_email,
        other_pro_email,
    }
}

/// The customer hires the `quote` of the job with `card` under a new key.
async fn hire_new(
    job: &mut Job,
    quote: fn(&Job) -> &pb::Quote,
    card: &str,
) -> Result<bpb::Order, tonic::Status> {
    let token = job.customer_token.clone();
    let quote_id = quote(job).id.clone();
    hire(&job.billing, &token, &quote_id, card, Uuid::now_v7()).await
}

/// Hiring the second quote while the first is being hired or hired is refused.
async fn other_quote_is_refused(job: &mut Job) {
    let other = hire_new(job, |j| &j.other_quote, VISA).await.unwrap_err();
    assert_eq!(reason(&other), "REPAIR_REQUEST_NOT_OPEN");
}

/// The customer hires the first quote with a card that is authorised at once.
async fn hired(job: &mut Job) -> bpb::Order {
    hire_new(job, |j| &j.quote, VISA).await.unwrap()
}

async fn preview(
    billing: &mut Billing,
    token: &str,
    quote: &str,
    language: Language,
) -> Result<bpb::PreviewHireResponse, tonic::Status> {
    billing
        .preview_hire(with_token(
            bpb::PreviewHireRequest {
                quote_id: quote.into(),
                language: language as i32,
            },
            token,
        ))
        .await
        .map(tonic::Response::into_inner)
}

async fn list_orders(
    billing: &mut Billing,
    token: &str,
    party: bpb::list_orders_request::Party,
) -> Result<bpb::ListOrdersResponse, tonic::Status> {
    billing
        .list_orders(with_token(
            bpb::ListOrdersRequest {
                party: Some(party),
                page_size: 0,
                page_token: String::new(),
            },
            token,
        ))
        .await
        .map(tonic::Response::into_inner)
}

async fn request_of(job: &mut Job) -> pb::RepairRequest {
    job.market
        .get_repair_request(with_token(
            pb::GetRepairRequestRequest {
                id: job.request.id.clone(),
            },
            &job.customer_token,
        ))
        .await
        .unwrap()
        .into_inner()
        .repair_request
        .unwrap()
}

async fn quote_state(job: &Job, id: &str) -> String {
    sqlx::query_scalar("select state from quotes where id = $1")
        .bind(Uuid::parse_str(id).unwrap())
        .fetch_one(db(&job.server))
        .await
        .unwrap()
}

async fn payment_state(job: &Job, order: &bpb::Order) -> String {
    sqlx::query_scalar("select state from payments where id = $1")
        .bind(Uuid::parse_str(&order.payment.as_ref().unwrap().id).unwrap())
        .fetch_one(db(&job.server))
        .await
        .unwrap()
}

async fn captures(job: &Job) -> i64 {
    sqlx::query_scalar("select count(*) from payment_attempts where operation = 'capture'")
        .fetch_one(db(&job.server))
        .await
        .unwrap()
}

async fn hire_payments(job: &Job) -> i64 {
    sqlx::query_scalar(
        "select count(*) from orders where repair_request_id = $1 and payment_id is not null",
    )
    .bind(Uuid::parse_str(&job.request.id).unwrap())
    .fetch_one(db(&job.server))
    .await
    .unwrap()
}

#[tokio::test]
async fn a_hire_authorises_the_quote_fee_and_hires_its_professional() {
    let mut job = job().await;
    let token = job.customer_token.clone();
    let preview = preview(
        &mut job.billing,
        &token,
        &job.quote.id,
        Language::Unspecified,
    )
    .await
    .unwrap();
    assert_eq!(preview.amount_payable.unwrap().amount_cents, 9_000);

    let order = hired(&mut job).await;
    assert_eq!(order.state, bpb::OrderState::Authorized as i32);
    let payment = order.payment.clone().unwrap();
    assert_eq!(payment.amount.unwrap().amount_cents, 9_000);
    assert_eq!(
        order.repair_request_state,
        pb::RepairRequestState::Hired as i32
    );
    let contacts = order.contacts.clone().unwrap();
    assert_eq!(contacts.address.unwrap().line1, market::STREET);

    let request = request_of(&mut job).await;
    assert_eq!(request.state, pb::RepairRequestState::Hired as i32);
    assert_eq!(request.hired_quote_id, job.quote.id);
    assert!(request.hire_time.is_some());
    let contacts = request.contacts.unwrap();
    assert_eq!(contacts.professional.unwrap().email, job.pro_email);
    // The hired professional sees the customer's phone and the street; the other does not.
    let seen_by = |token: String| {
        let mut market = job.market.clone();
        let id = job.request.id.clone();
        async move {
            market
                .get_repair_request(with_token(pb::GetRepairRequestRequest { id }, &token))
                .await
                .unwrap()
                .into_inner()
                .repair_request
                .unwrap()
        }
    };
    let theirs = seen_by(job.pro_token.clone()).await;
    assert_eq!(
        theirs.contacts.unwrap().customer.unwrap().phone,
        "+14035550100"
    );
    assert!(
        seen_by(job.other_pro_token.clone())
            .await
            .contacts
            .is_none()
    );
    assert_eq!(quote_state(&job, &job.quote.id).await, "hired");
    assert_eq!(quote_state(&job, &job.other_quote.id).await, "not_selected");
    wait_for_message(
        job.server.data_dir(),
        "email.jsonl",
        &job.other_pro_email,
        "chose another professional",
        1,
    )
    .await;
    wait_for_message(
        job.server.data_dir(),
        "email.jsonl",
        &job.pro_email,
        market::STREET,
        1,
    )
    .await;
    // A text too, for the professional who asked for texts: who hired them, and the link.
    let phones: Vec<(String, bool)> =
        sqlx::query_as("select phone, email = $1 from professionals where email in ($1, $2)")
            .bind(&job.pro_email)
            .bind(&job.other_pro_email)
            .fetch_all(db(&job.server))
            .await
            .unwrap();
    let hired_phone = &phones.iter().find(|(_, hired)| *hired).unwrap().0;
    let text = wait_for_message(
        job.server.data_dir(),
        "sms.jsonl",
        hired_phone,
        "hired you",
        1,
    )
    .await["body"]
        .as_str()
        .unwrap()
        .to_owned();
    assert!(text.contains("/professional-active-requests"), "{text}");
    assert!(!text.contains(market::STREET), "{text}");
    let other_phone = &phones.iter().find(|(_, hired)| !*hired).unwrap().0;
    let texts = repairs_server::testing::outbox(job.server.data_dir(), "sms.jsonl");
    assert!(texts.iter().all(|sms| sms["to"] != other_phone.as_str()));
    job.server.stop().await;
}

#[tokio::test]
async fn replayed_hires_answer_the_same_order_and_hold_once() {
    let mut job = job().await;
    let token = job.customer_token.clone();
    let key = Uuid::now_v7();
    let first = hire(&job.billing, &token, &job.quote.id, VISA, key)
        .await
        .unwrap();
    let again = hire(&job.billing, &token, &job.quote.id, VISA, key)
        .await
        .unwrap();
    assert_eq!(again.id, first.id);
    // A new key on the quote whose hold is live: the same order, no second hold.
    let new_key = hired(&mut job).await;
    assert_eq!(new_key.id, first.id);
    // The same key on another quote is refused.
    let reused = hire(&job.billing, &token, &job.other_quote.id, VISA, key)
        .await
        .unwrap_err();
    assert_eq!(reason(&reused), "REQUEST_ID_REUSED");
    // A new key on another quote of the hired request: not open.
    other_quote_is_refused(&mut job).await;
    assert_eq!(hire_payments(&job).await, 1);
    job.server.stop().await;
}

#[tokio::test]
async fn of_two_hires_racing_on_one_request_exactly_one_wins() {
    let job = job().await;
    let mut tasks = Vec::new();
    for quote in [job.quote.id.clone(), job.other_quote.id.clone()] {
        for _ in 0..3 {
            let hire = hire(
                &job.billing,
                &job.customer_token,
                &quote,
                VISA,
                Uuid::now_v7(),
            );
            tasks.push(tokio::spawn(hire));
        }
    }
    let mut won = Vec::new();
    let mut busy = Vec::new();
    for task in tasks {
        match task.await.unwrap() {
            Ok(order) => won.push(order.quote_id),
            // A new key on the quote being authorised that moment: retry later (documented).
            Err(status) if reason(&status) == "REQUEST_IN_PROGRESS" => busy.push(status),
            Err(status) => {
                assert_eq!(status.code(), Code::FailedPrecondition, "{status:?}");
                assert_eq!(reason(&status), "REPAIR_REQUEST_NOT_OPEN");
            }
        }
    }
    // Several calls may answer the winner's order (one hold per quote), all on one quote.
    assert!(!won.is_empty());
    assert!(won.iter().all(|q| *q == won[0]));
    assert!(busy.len() <= 2, "only calls on the winning quote wait");
    assert_eq!(hire_payments(&job).await, 1);
    let authorised: i64 =
        sqlx::query_scalar("select count(*) from payments where purpose = 'hire'")
            .fetch_one(db(&job.server))
            .await
            .unwrap();
    assert_eq!(authorised, 1, "nothing is authorised for the loser");
    job.server.stop().await;
}

#[tokio::test]
async fn a_declined_card_leaves_the_request_open() {
    let mut job = job().await;
    let declined = hire_new(&mut job, |j| &j.quote, DECLINED)
        .await
        .unwrap_err();
    assert_eq!(reason(&declined), "PAYMENT_DECLINED");
    let request = request_of(&mut job).await;
    assert_eq!(request.state, pb::RepairRequestState::Open as i32);
    assert_eq!(quote_state(&job, &job.quote.id).await, "submitted");
    // Another card then works.
    let order = hired(&mut job).await;
    assert_eq!(order.state, bpb::OrderState::Authorized as i32);
    job.server.stop().await;
}

async fn confirm(job: &mut Job, order: &bpb::Order, answer: bpb::TestAuthentication) {
    let token = job.customer_token.clone();
    job.billing
        .confirm_payment(with_token(
            bpb::ConfirmPaymentRequest {
                payment_id: order.payment.as_ref().unwrap().id.clone(),
                test_authentication: answer as i32,
            },
            &token,
        ))
        .await
        .unwrap();
}

#[tokio::test]
async fn a_card_needing_authentication_waits_then_hires_or_reopens() {
    let mut job = job().await;
    let order = hire_new(&mut job, |j| &j.quote, THREE_D_SECURE)
        .await
        .unwrap();
    assert_eq!(order.state, bpb::OrderState::RequiresAction as i32);
    assert!(order.payment.as_ref().unwrap().next_action.is_some());
    let request = request_of(&mut job).await;
    assert_eq!(request.state, pb::RepairRequestState::PendingPayment as i32);
    assert_eq!(
        request.pending_payment_id,
        order.payment.as_ref().unwrap().id
    );
    // Meanwhile no other hire.
    other_quote_is_refused(&mut job).await;

    confirm(&mut job, &order, bpb::TestAuthentication::Refuse).await;
    let request = request_of(&mut job).await;
    assert_eq!(request.state, pb::RepairRequestState::Open as i32);
    assert_eq!(quote_state(&job, &job.quote.id).await, "submitted");
    assert_eq!(quote_state(&job, &job.other_quote.id).await, "submitted");

    let order = hire_new(&mut job, |j| &j.quote, THREE_D_SECURE)
        .await
        .unwrap();
    confirm(&mut job, &order, bpb::TestAuthentication::Approve).await;
    let request = request_of(&mut job).await;
    assert_eq!(request.state, pb::RepairRequestState::Hired as i32);
    assert_eq!(payment_state(&job, &order).await, "authorized");
    job.server.stop().await;
}

async fn complete(job: &mut Job) -> Result<pb::RepairRequest, tonic::Status> {
    market::complete(&mut job.market, &job.customer_token, &job.request.id).await
}

#[tokio::test]
async fn completing_the_job_captures_the_hold_once() {
    let mut job = job().await;
    let order = hired(&mut job).await;
    let done = complete(&mut job).await.unwrap();
    assert_eq!(done.state, pb::RepairRequestState::Completed as i32);
    assert!(done.complete_time.is_some());
    assert_eq!(payment_state(&job, &order).await, "captured");
    let again = complete(&mut job).await.unwrap();
    assert_eq!(again.state, pb::RepairRequestState::Completed as i32);
    assert_eq!(captures(&job).await, 1, "captured once");
    let paid = orders::paid_job(db(&job.server), Uuid::parse_str(&job.request.id).unwrap())
        .await
        .unwrap()
        .unwrap();
    assert_eq!(paid.order_id.to_string(), order.id);
    job.server.stop().await;
}

#[tokio::test]
async fn cancelling_a_hired_job_releases_the_hold() {
    let mut job = job().await;
    let order = hired(&mut job).await;
    let cancelled = cancel(&mut job).await.unwrap();
    assert_eq!(cancelled.state, pb::RepairRequestState::Cancelled as i32);
    assert_eq!(payment_state(&job, &order).await, "canceled");
    job.server.stop().await;
}

async fn cancel(job: &mut Job) -> Result<pb::RepairRequest, tonic::Status> {
    market::cancel(&mut job.market, &job.customer_token, &job.request.id).await
}

/// Whether the request is cancelled, and whether the hired professional's cancel notice is
/// in the outbox, read in one snapshot.
async fn cancelled_and_told(job: &Job) -> (bool, bool) {
    sqlx::query_as(
        "select (select state = 'cancelled' from repair_requests where id = $1),
                exists (select 1 from outbox_messages
                        where recipient = $2 and subject like 'Request cancelled:%')",
    )
    .bind(Uuid::parse_str(&job.request.id).unwrap())
    .bind(&job.pro_email)
    .fetch_one(db(&job.server))
    .await
    .unwrap()
}

#[tokio::test]
async fn a_cancel_of_the_open_request_never_cancels_it_once_hired() {
    // A hire that lands between the cancel's look at the request and its change: the change
    // of an open request refuses the hired one, whose hold would be left on the card.
    let mut job = job().await;
    let order = hired(&mut job).await;
    let request = Uuid::parse_str(&job.request.id).unwrap();
    let customer = Uuid::parse_str(&job.request.customer_id).unwrap();
    let state = &job.server.server.state;
    let open = repairs_server::domain::RequestChange::CancelOpen;
    let refused = repairs_server::requests::cancel(state, customer, request, open, &[])
        .await
        .unwrap_err();
    assert_eq!(
        tonic::Status::from(refused).code(),
        Code::FailedPrecondition
    );
    assert_eq!(
        request_of(&mut job).await.state,
        pb::RepairRequestState::Hired as i32
    );
    assert_eq!(payment_state(&job, &order).await, "authorized");
    // The customer's cancel takes the hired path: the hold released, then cancelled.
    assert_eq!(
        cancel(&mut job).await.unwrap().state,
        pb::RepairRequestState::Cancelled as i32
    );
    assert_eq!(payment_state(&job, &order).await, "canceled");
    job.server.stop().await;
}

#[tokio::test]
async fn a_hired_job_is_cancelled_with_its_professional_s_notice_or_not_at_all() {
    let mut job = job().await;
    hired(&mut job).await;
    // The notice cannot be written: the cancel must not happen without it.
    let refuse = format!(
        "create function refuse_notice() returns trigger language plpgsql as $$
         begin
             if new.recipient = '{}' and new.subject like 'Request cancelled:%' then
                 raise exception 'outbox unavailable';
             end if;
             return new;
         end $$;
         create trigger refuse_notice before insert on outbox_messages
             for each row execute function refuse_notice();",
        job.pro_email
    );
    sqlx::raw_sql(sqlx::AssertSqlSafe(refuse))
        .execute(db(&job.server))
        .await
        .unwrap();
    assert!(cancel(&mut job).await.is_err());
    assert_eq!(cancelled_and_told(&job).await, (false, false));
    assert_eq!(
        request_of(&mut job).await.state,
        pb::RepairRequestState::Hired as i32
    );

    // Once it can be written, the retried cancel does both.
    sqlx::raw_sql("drop trigger refuse_notice on outbox_messages")
        .execute(db(&job.server))
        .await
        .unwrap();
    let cancelled = cancel(&mut job).await.unwrap();
    assert_eq!(cancelled.state, pb::RepairRequestState::Cancelled as i32);
    assert_eq!(cancelled_and_told(&job).await, (true, true));
    // A repeated cancel tells nobody twice.
    cancel(&mut job).await.unwrap();
    let notices: i64 = sqlx::query_scalar(
        "select count(*) from outbox_messages
         where recipient = $1 and subject like 'Request cancelled:%'",
    )
    .bind(&job.pro_email)
    .fetch_one(db(&job.server))
    .await
    .unwrap();
    assert_eq!(notices, 1);
    job.server.stop().await;
}

/// The one email sent to admin `admin`: its subject and body.
async fn email_to_admin(job: &Job, admin: Uuid) -> (String, String) {
    sqlx::query_as(
        "select subject, body from outbox_messages
         where recipient = (select email::text from admins where id = $1)",
    )
    .bind(admin)
    .fetch_one(db(&job.server))
    .await
    .unwrap()
}

#[tokio::test]
async fn the_sweeper_warns_once_then_lapses_the_hold_and_the_card_can_be_authorised_again() {
    let mut job = job().await;
    let order = hired(&mut job).await;
    let expires: chrono::DateTime<chrono::Utc> =
        sqlx::query_scalar("select authorization_expires_at from payments where id = $1")
            .bind(Uuid::parse_str(&order.payment.as_ref().unwrap().id).unwrap())
            .fetch_one(db(&job.server))
            .await
            .unwrap();
    let state = &job.server.server.state;
    let early = hiring::sweep::sweep(state, expires - chrono::Duration::hours(30))
        .await
        .unwrap();
    assert_eq!(early, hiring::sweep::Swept::default());
    // Two admins, one reading French.
    let (english_admin, _) = job.server.account_token(Role::Admin).await;
    let (french_admin, _) = job.server.account_token(Role::Admin).await;
    sqlx::query("update admins set language = 'fr' where id = $1")
        .bind(french_admin)
        .execute(db(&job.server))
        .await
        .unwrap();
    let warned = hiring::sweep::sweep(state, expires - chrono::Duration::hours(20))
        .await
        .unwrap();
    assert_eq!(warned.warned, 1);
    for (admin, subject, service) in [
        (english_admin, "Card hold lapses soon", "Plumbing Services"),
        (
            french_admin,
            "Préautorisation bientôt expirée",
            "Services de plomberie",
        ),
    ] {
        let (subject_sent, body) = email_to_admin(&job, admin).await;
        assert!(subject_sent.starts_with(subject), "{subject_sent}");
        assert!(body.contains(service) && body.contains(&order.id), "{body}");
        assert!(body.contains("/admin/order-history"), "{body}");
    }
    let again = hiring::sweep::sweep(state, expires - chrono::Duration::hours(10))
        .await
        .unwrap();
    assert_eq!(again.warned, 0, "warned once");
    let lapsed = hiring::sweep::sweep(state, expires + chrono::Duration::minutes(1))
        .await
        .unwrap();
    assert_eq!(lapsed.lapsed, 1);
    assert_eq!(payment_state(&job, &order).await, "expired");
    let request = request_of(&mut job).await;
    assert_eq!(request.state, pb::RepairRequestState::Hired as i32);
    // Completing now fails clearly and leaves the request hired.
    let refused = complete(&mut job).await.unwrap_err();
    assert_eq!(refused.code(), Code::FailedPrecondition);
    // Authorising the hired quote again: a new order with a live hold.
    let renewed = hired(&mut job).await;
    assert_ne!(renewed.id, order.id);
    assert_eq!(renewed.state, bpb::OrderState::Authorized as i32);
    assert_eq!(
        complete(&mut job).await.unwrap().state,
        pb::RepairRequestState::Completed as i32
    );
    job.server.stop().await;
}

#[tokio::test]
async fn the_hire_page_names_the_service_in_the_language_asked_else_the_account_s() {
    let job = job().await;
    let (token, quote) = (job.customer_token.clone(), job.quote.id.clone());
    // The customer's account is English; the page they read is French.
    let asked = |language| {
        let (mut billing, token, quote) = (job.billing.clone(), token.clone(), quote.clone());
        async move {
            preview(&mut billing, &token, &quote, language)
                .await
                .unwrap()
                .service_name
        }
    };
    assert_eq!(asked(Language::Fr).await, "Services de plomberie");
    assert_eq!(asked(Language::En).await, "Plumbing Services");
    assert_eq!(asked(Language::Unspecified).await, "Plumbing Services");
    sqlx::query("update customers set language = 'fr' where id = $1")
        .bind(Uuid::parse_str(&job.request.customer_id).unwrap())
        .execute(db(&job.server))
        .await
        .unwrap();
    assert_eq!(asked(Language::Unspecified).await, "Services de plomberie");
    assert_eq!(asked(Language::En).await, "Plumbing Services");
    job.server.stop().await;
}

#[tokio::test]
async fn another_customer_or_professional_finds_nothing() {
    let mut job = job().await;
    let order = hired(&mut job).await;
    let (_, stranger) = customer(&job.server).await;
    let (_, other_pro, _) = professional(&job.server, CALGARY_PRO).await;
    let preview = preview(
        &mut job.billing,
        &stranger,
        &job.quote.id,
        Language::Unspecified,
    )
    .await
    .unwrap_err();
    assert_eq!(preview.code(), Code::NotFound);
    let hired = hire(&job.billing, &stranger, &job.quote.id, VISA, Uuid::now_v7())
        .await
        .unwrap_err();
    assert_eq!(hired.code(), Code::NotFound);
    for (who, party) in [
        (
            &stranger,
            bpb::list_orders_request::Party::CustomerId(order.customer_id.clone()),
        ),
        (
            &other_pro,
            bpb::list_orders_request::Party::CustomerId(order.customer_id.clone()),
        ),
        (
            &other_pro,
            bpb::list_orders_request::Party::ProfessionalId(order.professional_id.clone()),
        ),
    ] {
        let listed = list_orders(&mut job.billing, who, party).await.unwrap_err();
        assert_eq!(listed.code(), Code::NotFound);
    }
    for who in [&stranger, &other_pro] {
        let completed = job
            .market
            .complete_repair_request(with_token(
                pb::CompleteRepairRequestRequest {
                    id: job.request.id.clone(),
                },
                who,
            ))
            .await
            .unwrap_err();
        assert!(matches!(
            completed.code(),
            Code::NotFound | Code::PermissionDenied
        ));
    }
    // The hired professional lists their order, with the contacts.
    let pro_token = job.pro_token.clone();
    let theirs = list_orders(
        &mut job.billing,
        &pro_token,
        bpb::list_orders_request::Party::ProfessionalId(order.professional_id.clone()),
    )
    .await
    .unwrap();
    assert_eq!(theirs.orders.len(), 1);
    assert!(theirs.orders[0].contacts.is_some());
    job.server.stop().await;
}

/// Who was hired and on which quote, as a reply shows it: (professional id, name, quote id).
fn hire_shown(request: &pb::RepairRequest) -> (&str, &str, &str) {
    (
        &request.hired_professional_id,
        &request.hired_professional_name,
        &request.hired_quote_id,
    )
}

/// Every request a reply to `token` carries about the job: GetRepairRequest, GetQuote of
/// `their_quote` and the professional's list `view`.
async fn requests_shown_to(
    job: &mut Job,
    token: &str,
    their_quote: &pb::Quote,
    view: pb::ProfessionalRepairRequestView,
) -> Vec<pb::RepairRequest> {
    let market = &mut job.market;
    let id = job.request.id.clone();
    let got = market::get(market, token, &id).await.unwrap();
    let quoted = market
        .get_quote(with_token(
            pb::GetQuoteRequest {
                id: their_quote.id.clone(),
            },
            token,
        ))
        .await
        .unwrap()
        .into_inner()
        .repair_request
        .unwrap();
    let listed = market
        .list_professional_repair_requests(with_token(
            pb::ListProfessionalRepairRequestsRequest {
                professional_id: their_quote.professional_id.clone(),
                view: view as i32,
                page_size: 0,
                page_token: String::new(),
            },
            token,
        ))
        .await
        .unwrap()
        .into_inner()
        .repair_requests;
    assert_eq!(listed.len(), 1, "the job is in the {view:?} list");
    let listed = listed.into_iter().next().unwrap().repair_request.unwrap();
    vec![got, quoted, listed]
}

/// The request of each message of `stream` until one shows it hired.
async fn until_hired(
    stream: &mut tonic::Streaming<pb::WatchRepairRequestResponse>,
) -> Vec<pb::RepairRequest> {
    use pb::watch_repair_request_response::Event;
    let mut seen = Vec::new();
    loop {
        let message = tokio::time::timeout(std::time::Duration::from_secs(10), stream.message())
            .await
            .expect("a message in time")
            .unwrap()
            .expect("the stream goes on");
        let request = match message.event.unwrap() {
            Event::Snapshot(snapshot) => snapshot.repair_request.unwrap(),
            Event::Change(change) => change.repair_request.unwrap(),
            Event::Reach(_) => continue,
        };
        let hired = request.state() == pb::RepairRequestState::Hired;
        seen.push(request);
        if hired {
            return seen;
        }
    }
}

#[tokio::test]
async fn the_professional_who_lost_never_reads_who_won_nor_the_winning_quote() {
    let mut job = job().await;
    let (winner_token, loser_token) = (job.pro_token.clone(), job.other_pro_token.clone());
    let id = job.request.id.clone();
    let mut losers_stream = market::watch(&mut job.market, &loser_token, &id, 0)
        .await
        .unwrap();
    let mut winners_stream = market::watch(&mut job.market, &winner_token, &id, 0)
        .await
        .unwrap();
    hired(&mut job).await;
    let winner = (job.quote.professional_id.clone(), job.quote.id.clone());

    // Seen live, then read, listed and through their own quote.
    let mut losers = until_hired(&mut losers_stream).await;
    let (quote, lost) = (
        job.other_quote.clone(),
        pb::ProfessionalRepairRequestView::Lost,
    );
    losers.extend(requests_shown_to(&mut job, &loser_token, &quote, lost).await);
    for request in &losers {
        assert_eq!(hire_shown(request), ("", "", ""), "{request:?}");
    }
    assert_eq!(
        losers.last().unwrap().state(),
        pb::RepairRequestState::Hired
    );

    // The hired professional and the customer read who and which quote.
    let hired_seen = |request: &pb::RepairRequest| {
        let (pro, name, quote) = hire_shown(request);
        assert_eq!((pro, quote), (winner.0.as_str(), winner.1.as_str()));
        assert!(!name.is_empty(), "{request:?}");
    };
    let mut winners = vec![until_hired(&mut winners_stream).await.pop().unwrap()];
    let (quote, active) = (job.quote.clone(), pb::ProfessionalRepairRequestView::Active);
    winners.extend(requests_shown_to(&mut job, &winner_token, &quote, active).await);
    winners.push(request_of(&mut job).await);
    winners.iter().for_each(hired_seen);
    job.server.stop().await;
}

async fn admin_step(job: &mut Job, order: &bpb::Order, step: &str) -> bpb::Payment {
    admin_step_result(job, order, step).await.unwrap()
}

async fn admin_step_result(
    job: &mut Job,
    order: &bpb::Order,
    step: &str,
) -> Result<bpb::Payment, tonic::Status> {
    let (_, admin) = job
        .server
        .account_token(repairs_server::domain::Role::Admin)
        .await;
    let target = Some(bpb::PaymentTarget {
        target: Some(bpb::payment_target::Target::OrderId(order.id.clone())),
    });
    let request_id = Uuid::now_v7().to_string();
    let payment = match step {
        "capture" => job
            .billing
            .capture_payment(with_token(
                bpb::CapturePaymentRequest { target, request_id },
                &admin,
            ))
            .await
            .map(|r| r.into_inner().payment),
        _ => job
            .billing
            .void_payment(with_token(
                bpb::VoidPaymentRequest {
                    target,
                    request_id,
                    reason: "the customer asked".into(),
                },
                &admin,
            ))
            .await
            .map(|r| r.into_inner().payment),
    };
    payment.map(Option::unwrap)
}

#[tokio::test]
async fn admins_capture_and_release_by_order_and_the_request_follows() {
    // Captured by an admin first: completing the job takes nothing more.
    let mut job = job().await;
    let order = hired(&mut job).await;
    let captured = admin_step(&mut job, &order, "capture").await;
    assert_eq!(captured.state, bpb::PaymentState::Captured as i32);
    assert_eq!(
        complete(&mut job).await.unwrap().state,
        pb::RepairRequestState::Completed as i32
    );
    assert_eq!(captures(&job).await, 1, "captured once");
    job.server.stop().await;

    // Released by an admin while the cardholder had to authenticate: the request reopens.
    let mut job = self::job().await;
    let order = hire_new(&mut job, |j| &j.quote, THREE_D_SECURE)
        .await
        .unwrap();
    let released = admin_step(&mut job, &order, "void").await;
    assert_eq!(released.state, bpb::PaymentState::Canceled as i32);
    let request = request_of(&mut job).await;
    assert_eq!(request.state, pb::RepairRequestState::Open as i32);
    assert_eq!(quote_state(&job, &job.quote.id).await, "submitted");
    job.server.stop().await;
}

/// The audit entries of admins' payment steps: (action, outcome, before, after, failure).
async fn payment_audit(job: &Job) -> Vec<(String, String, String, Option<String>, String)> {
    sqlx::query_as(
        "select action, outcome, before_json::text, after_json::text, failure
         from audit_events where target_type = 'payment' order by created_at, id",
    )
    .fetch_all(db(&job.server))
    .await
    .unwrap()
}

/// The test gateway with a capture that `stops` (the process crashes mid-call) or, before
/// answering, notes the audit entries it can see from another connection.
struct Observed {
    inner: Arc<dyn PaymentGateway>,
    db: sqlx::PgPool,
    stops: bool,
    seen: std::sync::Mutex<Vec<String>>,
}

#[async_trait::async_trait]
impl PaymentGateway for Observed {
    fn kind(&self) -> GatewayKind {
        self.inner.kind()
    }
    async fn authorize(&self, charge: &NewCharge) -> Result<GatewayPayment, PaymentError> {
        self.inner.authorize(charge).await
    }
    async fn charge(&self, charge: &NewCharge) -> Result<GatewayPayment, PaymentError> {
        self.inner.charge(charge).await
    }
    async fn capture(
        &self,
        id: &str,
        key: &IdempotencyKey,
    ) -> Result<GatewayPayment, PaymentError> {
        let outcomes: Vec<String> = sqlx::query_scalar("select outcome from audit_events")
            .fetch_all(&self.db)
            .await
            .unwrap();
        self.seen.lock().unwrap().extend(outcomes);
        assert!(!self.stops, "the process stops mid-call");
        self.inner.capture(id, key).await
    }
    async fn void(&self, id: &str, key: &IdempotencyKey) -> Result<GatewayPayment, PaymentError> {
        self.inner.void(id, key).await
    }
    async fn refund(
        &self,
        id: &str,
        amount: repairs_server::domain::Money,
        key: &IdempotencyKey,
    ) -> Result<repairs_server::providers::payments::GatewayRefund, PaymentError> {
        self.inner.refund(id, amount, key).await
    }
    async fn retrieve(&self, id: &str) -> Result<GatewayPayment, PaymentError> {
        self.inner.retrieve(id).await
    }
    async fn submit_dispute_evidence(
        &self,
        id: &str,
        evidence: &repairs_server::providers::payments::DisputeSubmission,
        key: &IdempotencyKey,
    ) -> Result<repairs_server::providers::payments::GatewayDispute, PaymentError> {
        self.inner.submit_dispute_evidence(id, evidence, key).await
    }
}

/// Admin `admin`'s capture of order `order_id` through a ledger on `gateway`.
async fn capture_through(
    db: sqlx::PgPool,
    gateway: Arc<Observed>,
    order_id: String,
    admin: Uuid,
) -> Result<repairs_server::billing::Payment, repairs_server::error::ApiError> {
    admin::step(
        &Ledger::new(db, gateway),
        admin,
        Some(Target::Order(order_id)),
        Step::Capture,
        &Uuid::now_v7().to_string(),
        "",
    )
    .await
}

#[tokio::test]
async fn an_admin_s_payment_step_is_audited_before_the_gateway_call_and_settled_after() {
    let mut job = job().await;
    let order = hired(&mut job).await;
    let (admin, admin_token) = job.server.account_token(Role::Admin).await;
    let observed = |stops| {
        Arc::new(Observed {
            inner: job.server.server.state.payments.clone(),
            db: db(&job.server).clone(),
            stops,
            seen: std::sync::Mutex::new(Vec::new()),
        })
    };

    // The process stops during the gateway call: the entry shows, pending.
    let stopping = observed(true);
    let pool = db(&job.server).clone();
    let crashed = tokio::spawn(capture_through(
        pool.clone(),
        stopping,
        order.id.clone(),
        admin,
    ))
    .await;
    assert!(crashed.is_err(), "the call stopped mid-way");
    let audit = payment_audit(&job).await;
    assert_eq!(audit.len(), 1);
    let (action, outcome, before, after, _) = &audit[0];
    assert_eq!(
        (action.as_str(), outcome.as_str()),
        ("payment.capture", "pending")
    );
    assert!(before.contains("\"authorized\""), "{before}");
    assert_eq!(after, &None);

    // Done: pending while the gateway works, then succeeded with the payment after.
    let watching = observed(false);
    let captured = capture_through(pool, watching.clone(), order.id.clone(), admin)
        .await
        .unwrap();
    assert_eq!(captured.state.as_str(), "captured");
    assert_eq!(*watching.seen.lock().unwrap(), ["pending", "pending"]);
    let audit = payment_audit(&job).await;
    assert_eq!(audit.len(), 2);
    assert_eq!(audit[0].1, "pending", "the stopped call's entry stays");
    assert_eq!(audit[1].1, "succeeded");
    assert!(audit[1].3.as_deref().unwrap().contains("\"captured\""));

    // Refused by the gateway's rules (a captured hold cannot be released): failed, with why.
    let released = admin_step_result(&mut job, &order, "void")
        .await
        .unwrap_err();
    assert_eq!(reason(&released), "PAYMENT_STATE");
    let audit = payment_audit(&job).await;
    assert_eq!(audit.len(), 3);
    let (action, outcome, _, after, failure) = &audit[2];
    assert_eq!(
        (action.as_str(), outcome.as_str()),
        ("payment.void", "failed")
    );
    assert_eq!(after, &None);
    assert!(failure.starts_with("PAYMENT_STATE: "), "{failure}");

    // The audit log says so, newest first.
    let events = AccountsServiceClient::new(job.server.channel().await)
        .list_audit_events(with_token(
            apb::ListAuditEventsRequest {
                target_type: "payment".into(),
                ..Default::default()
            },
            &admin_token,
        ))
        .await
        .unwrap()
        .into_inner()
        .events;
    let outcomes: Vec<_> = events
        .iter()
        .map(|e| (e.outcome(), e.failure.clone()))
        .collect();
    assert_eq!(
        outcomes[1..],
        [
            (apb::AuditOutcome::Succeeded, String::new()),
            (apb::AuditOutcome::Pending, String::new())
        ]
    );
    assert_eq!(outcomes[0].0, apb::AuditOutcome::Failed);
    assert!(outcomes[0].1.starts_with("PAYMENT_STATE: "));
    job.server.stop().await;
}
