//! What a hire's payment came to, told through the outbox to its customer and professional
//! in each one's language, on the offline test gateway: the hold placed at the hire, the
//! receipt and the professional's share when the card is charged (at completion, or by an
//! admin first), the refund, the hold released by a cancel or lapsed. Each is written once
//! whatever is replayed: the hire under its key, the completion, an admin's step under its
//! key, the settling a replayed Stripe event or ConfirmPayment ends in, the housekeeping's
//! pass; and the housekeeping tells what the call that moved a payment did not.

use chrono::{DateTime, Duration, Utc};
use repairs_proto::{billing as bpb, marketplace as pb};
use repairs_server::{
    billing::ledger::{RefundAsk, RefundBasis},
    domain::{Language, Role},
    hiring,
    providers::payments::IdempotencyKey,
    words::{self, Moment},
};
use uuid::Uuid;

use crate::helpers::{
    TestServer, emails_to,
    market::{self, CALGARY_PRO, Pro, Stage, VISA, billing, db, hire, in_calgary, job_at, place},
    with_token,
};

/// The platform's share in these tests: 12% of a 90.00 quote is 10.80, 79.20 left.
const FEE_PERCENT: u8 = 12;

async fn server() -> TestServer {
    TestServer::start_with(|config| config.platform_fee_percent = FEE_PERCENT).await
}

/// A customer "Bo Tremblay" and a plumber "Élise Roy", each reading their language.
struct Parties {
    customer_token: String,
    customer_email: String,
    pro_token: String,
    pro_email: String,
}

async fn parties(
    server: &TestServer,
    customer_language: &str,
    pro_language: &'static str,
) -> Parties {
    let (customer_id, customer_token) = market::customer(server).await;
    let customer_email: String = sqlx::query_scalar(
        "update customers set name = 'Bo Tremblay', language = $2 where id = $1
         returning email::text",
    )
    .bind(customer_id)
    .bind(customer_language)
    .fetch_one(db(server))
    .await
    .unwrap();
    let pro = Pro {
        language: pro_language,
        ..CALGARY_PRO
    };
    let (pro_id, pro_token, pro_email) = market::professional(server, pro).await;
    sqlx::query("update professionals set name = 'Élise Roy' where id = $1")
        .bind(pro_id)
        .execute(db(server))
        .await
        .unwrap();
    Parties {
        customer_token,
        customer_email,
        pro_token,
        pro_email,
    }
}

impl Parties {
    /// Their job, taken to `stage` ([`job_at`]): the request as placed, and the order.
    async fn job(&self, server: &TestServer, stage: Stage) -> (pb::RepairRequest, bpb::Order) {
        job_at(server, &self.customer_token, &self.pro_token, stage).await
    }
}

fn language(code: &str) -> Language {
    match code {
        "fr" => Language::French,
        _ => Language::English,
    }
}

fn payment_id(order: &bpb::Order) -> Uuid {
    Uuid::parse_str(&order.payment.as_ref().unwrap().id).unwrap()
}

/// The payment's (authorisation end, capture time, last move).
async fn payment_times(
    server: &TestServer,
    order: &bpb::Order,
) -> (Option<DateTime<Utc>>, Option<DateTime<Utc>>, DateTime<Utc>) {
    sqlx::query_as(
        "select authorization_expires_at, captured_at, updated_at from payments where id = $1",
    )
    .bind(payment_id(order))
    .fetch_one(db(server))
    .await
    .unwrap()
}

/// `at` as a reader of `code` reads it in Calgary, where the requests are placed.
fn in_calgary_time(code: &str, at: DateTime<Utc>) -> String {
    words::of(language(code)).date_time(Moment::new(at, "America/Edmonton"))
}

/// What a replayed Stripe event or ConfirmPayment ends in (the order's payment settled
/// again), twice, then the housekeeping's pass an hour later.
async fn replay(server: &TestServer, order: &bpb::Order) {
    let state = &server.server.state;
    let payment = hiring::ledger(state).find(payment_id(order)).await.unwrap();
    for _ in 0..2 {
        hiring::settle(state, &payment).await.unwrap();
    }
    hiring::reconcile::reconcile(state, Utc::now() + Duration::hours(1))
        .await
        .unwrap();
}

/// The one email to `to` whose subject starts with `subject`: its body.
async fn the_one_email(server: &TestServer, to: &str, subject: &str) -> String {
    let sent = emails_to(db(server), to, subject).await;
    assert_eq!(
        sent.len(),
        1,
        "emails to {to} starting {subject:?}: {sent:#?}"
    );
    let (_, body) = sent.into_iter().next().unwrap();
    body
}

fn assert_says(body: &str, parts: &[&str]) {
    for part in parts {
        assert!(body.contains(part), "{part:?} is not in:\n{body}");
    }
}

/// Admin `admin`'s capture or refund of the order's payment under the key `key`.
async fn admin_step(
    server: &TestServer,
    admin: &str,
    order: &bpb::Order,
    step: &str,
    key: Uuid,
) -> Result<bpb::Payment, tonic::Status> {
    let mut billing = billing(server).await;
    let target = Some(bpb::PaymentTarget {
        target: Some(bpb::payment_target::Target::OrderId(order.id.clone())),
    });
    let request_id = key.to_string();
    let answer = match step {
        "capture" => billing
            .capture_payment(with_token(
                bpb::CapturePaymentRequest { target, request_id },
                admin,
            ))
            .await
            .map(|r| r.into_inner().payment),
        _ => billing
            .refund_payment(with_token(
                bpb::RefundPaymentRequest {
                    target,
                    request_id,
                    reason: "the job was not done".into(),
                    amount: None,
                },
                admin,
            ))
            .await
            .map(|r| r.into_inner().payment),
    };
    answer.map(Option::unwrap)
}

#[tokio::test]
async fn the_customer_is_told_of_the_hold_once_in_their_language() {
    let server = server().await;
    for (code, subject, parts) in [
        (
            "en",
            "Card hold placed: Plumbing Services",
            [
                "Hello Bo Tremblay,",
                "You hired Élise Roy for your request (Plumbing Services).",
                "A hold of $90.00 is placed on your card",
                "/user-active-requests",
            ],
        ),
        (
            "fr",
            "Préautorisation sur votre carte\u{a0}: Services de plomberie",
            [
                "Bonjour Bo Tremblay,",
                "Vous avez engagé Élise Roy pour votre demande (Services de plomberie).",
                "Une préautorisation de 90,00\u{a0}$ est placée sur votre carte",
                "/user-active-requests",
            ],
        ),
    ] {
        // The professional reads the other language: the customer's email is in theirs.
        let other = if code == "en" { "fr" } else { "en" };
        let parties = parties(&server, code, other).await;
        let mut market = market::market(&server).await;
        let request = place(
            &mut market,
            &parties.customer_token,
            Uuid::now_v7(),
            in_calgary(),
        )
        .await
        .unwrap();
        let quote = market::quote(&mut market, &parties.pro_token, &request.id).await;
        let billing = billing(&server).await;
        let key = Uuid::now_v7();
        let order = hire(&billing, &parties.customer_token, &quote.id, VISA, key)
            .await
            .unwrap();
        // The hire replayed under its key answers the same order.
        let again = hire(&billing, &parties.customer_token, &quote.id, VISA, key)
            .await
            .unwrap();
        assert_eq!(again.id, order.id);
        replay(&server, &order).await;

        let body = the_one_email(&server, &parties.customer_email, subject).await;
        assert_says(&body, &parts);
        let (lapses, _, _) = payment_times(&server, &order).await;
        assert_says(&body, &[&in_calgary_time(code, lapses.unwrap())]);
    }
    server.stop().await;
}

#[tokio::test]
async fn the_charged_card_is_told_once_as_a_receipt_and_the_professional_s_share() {
    let server = server().await;
    // (customer's language, professional's language, an admin captures first).
    for (customer, pro, admin_first) in [("en", "fr", false), ("fr", "en", true)] {
        let parties = parties(&server, customer, pro).await;
        let (request, order) = parties.job(&server, Stage::Hired).await;
        let (_, admin) = server.account_token(Role::Admin).await;
        if admin_first {
            admin_step(&server, &admin, &order, "capture", Uuid::now_v7())
                .await
                .unwrap();
        }
        let mut market = market::market(&server).await;
        for _ in 0..2 {
            market::complete(&mut market, &parties.customer_token, &request.id)
                .await
                .unwrap();
        }
        // A second capture (another key) is refused and tells nothing.
        assert!(
            admin_step(&server, &admin, &order, "capture", Uuid::now_v7())
                .await
                .is_err()
        );
        replay(&server, &order).await;

        let (_, captured, _) = payment_times(&server, &order).await;
        let receipt = match customer {
            "en" => (
                "Your receipt: Plumbing Services",
                vec![
                    "Service: Plumbing Services\n".to_owned(),
                    "Professional: Élise Roy\n".to_owned(),
                    "Amount charged: $90.00\n".to_owned(),
                    format!("Receipt number: {}\n", order.id),
                    format!("Charged on: {}\n", in_calgary_time("en", captured.unwrap())),
                    "/user-order-history".to_owned(),
                ],
            ),
            _ => (
                "Votre reçu\u{a0}: Services de plomberie",
                vec![
                    "Service\u{a0}: Services de plomberie\n".to_owned(),
                    "Travail effectué par\u{a0}: Élise Roy\n".to_owned(),
                    "Montant débité\u{a0}: 90,00\u{a0}$\n".to_owned(),
                    format!("Numéro de reçu\u{a0}: {}\n", order.id),
                    format!(
                        "Débité le\u{a0}: {}\n",
                        in_calgary_time("fr", captured.unwrap())
                    ),
                    "/user-order-history".to_owned(),
                ],
            ),
        };
        let body = the_one_email(&server, &parties.customer_email, receipt.0).await;
        assert_says(
            &body,
            &receipt.1.iter().map(String::as_str).collect::<Vec<_>>(),
        );

        let share = match pro {
            "en" => (
                "Job paid: Plumbing Services",
                [
                    "Hello Élise Roy,",
                    "you did for Bo Tremblay went through",
                    "Job amount: $90.00\n",
                    "Platform fee: $10.80\n",
                    "Your payout: $79.20\n",
                ],
            ),
            _ => (
                "Travail payé\u{a0}: Services de plomberie",
                [
                    "Bonjour Élise Roy,",
                    "que vous avez effectué pour Bo Tremblay",
                    "Montant du travail\u{a0}: 90,00\u{a0}$\n",
                    "Frais de plateforme\u{a0}: 10,80\u{a0}$\n",
                    "Votre versement\u{a0}: 79,20\u{a0}$\n",
                ],
            ),
        };
        let body = the_one_email(&server, &parties.pro_email, share.0).await;
        assert_says(&body, &share.1);
        assert_says(&body, &[&order.id, "/professional-order-history"]);
    }
    server.stop().await;
}

#[tokio::test]
async fn a_refund_is_told_once_in_the_customer_s_language() {
    let server = server().await;
    for (code, subject, amount) in [
        (
            "en",
            "Credit note: Plumbing Services",
            "Amount refunded: $90.00\n",
        ),
        (
            "fr",
            "Note de crédit\u{a0}: Services de plomberie",
            "Montant remboursé\u{a0}: 90,00\u{a0}$\n",
        ),
    ] {
        let parties = parties(&server, code, "en").await;
        let (_, order) = parties.job(&server, Stage::Completed).await;
        // The admin's refund replayed under its key, then everything else.
        let (_, admin) = server.account_token(Role::Admin).await;
        let key = Uuid::now_v7();
        for _ in 0..2 {
            admin_step(&server, &admin, &order, "refund", key)
                .await
                .unwrap();
        }
        replay(&server, &order).await;
        // One credit note, and no other refund email besides.
        let body = the_one_email(&server, &parties.customer_email, subject).await;
        let emails = emails_to(db(&server), &parties.customer_email, "").await;
        assert!(
            !emails
                .iter()
                .any(|(s, _)| s.starts_with("Refund") || s.starts_with("Rembourse")),
            "{emails:#?}"
        );
        let refunded: DateTime<Utc> =
            sqlx::query_scalar("select created_at from refunds where payment_id = $1")
                .bind(payment_id(&order))
                .fetch_one(db(&server))
                .await
                .unwrap();
        assert_says(
            &body,
            &[amount, &order.id, &in_calgary_time(code, refunded)],
        );
    }
    server.stop().await;
}

#[tokio::test]
async fn a_released_or_lapsed_hold_is_told_once_in_the_customer_s_language() {
    let server = server().await;
    // Released by the customer's cancel, told in English; cancelled again, told nothing.
    let parties_en = parties(&server, "en", "fr").await;
    let (request, order) = parties_en.job(&server, Stage::Hired).await;
    let mut market = market::market(&server).await;
    for _ in 0..2 {
        let cancelled = market::cancel(&mut market, &parties_en.customer_token, &request.id)
            .await
            .unwrap();
        assert_eq!(cancelled.state, pb::RepairRequestState::Cancelled as i32);
    }
    replay(&server, &order).await;
    let body = the_one_email(
        &server,
        &parties_en.customer_email,
        "Card hold released: Plumbing Services",
    )
    .await;
    let (_, _, released) = payment_times(&server, &order).await;
    assert_says(
        &body,
        &[
            "The hold of $90.00 on your card for your request (Plumbing Services) with Élise Roy was released on",
            &in_calgary_time("en", released),
            "Your card was not charged.",
        ],
    );

    // Lapsed at the sweeper's clock, told in French; swept again, told nothing.
    let parties_fr = parties(&server, "fr", "en").await;
    let (_, order) = parties_fr.job(&server, Stage::Hired).await;
    let (lapses, _, _) = payment_times(&server, &order).await;
    let after = lapses.unwrap() + Duration::minutes(1);
    let state = &server.server.state;
    assert_eq!(hiring::sweep::sweep(state, after).await.unwrap().lapsed, 1);
    hiring::sweep::sweep(state, after).await.unwrap();
    replay(&server, &order).await;
    let body = the_one_email(
        &server,
        &parties_fr.customer_email,
        "Préautorisation expirée\u{a0}: Services de plomberie",
    )
    .await;
    assert_says(
        &body,
        &[
            "La préautorisation de 90,00\u{a0}$ sur votre carte",
            &format!("a expiré le {}", in_calgary_time("fr", lapses.unwrap())),
            "Votre carte n’a pas été débitée.",
            "/user-active-requests",
        ],
    );
    server.stop().await;
}

#[tokio::test]
async fn the_housekeeping_tells_what_the_call_that_moved_a_payment_did_not() {
    let server = server().await;
    let parties = parties(&server, "en", "en").await;
    let (_, order) = parties.job(&server, Stage::Completed).await;
    // Refunded through the ledger alone, as by a process that stopped before the order
    // followed: nobody told the customer.
    let state = &server.server.state;
    let (admin, _) = server.account_token(Role::Admin).await;
    let payment = hiring::ledger(state)
        .find(payment_id(&order))
        .await
        .unwrap();
    let ask = RefundAsk {
        amount: None,
        reason: "The leak came back".to_owned(),
        basis: RefundBasis::platform(payment.amount),
    };
    hiring::ledger(state)
        .refund(admin, payment.id, &ask, IdempotencyKey::new(Uuid::now_v7()))
        .await
        .unwrap();
    let subject = "Credit note: Plumbing Services";
    assert!(
        emails_to(db(&server), &parties.customer_email, subject)
            .await
            .is_empty()
    );
    let later = Utc::now() + Duration::hours(1);
    let pass = hiring::reconcile::reconcile(state, later).await.unwrap();
    // The order's refunded outcome (its push) and the refund's credit note.
    assert_eq!(pass.told, 2);
    assert_eq!(
        hiring::reconcile::reconcile(state, later)
            .await
            .unwrap()
            .told,
        0
    );
    let body = the_one_email(&server, &parties.customer_email, subject).await;
    assert_says(
        &body,
        &["Amount refunded: $90.00\n", &order.id, "The leak came back"],
    );
    server.stop().await;
}
