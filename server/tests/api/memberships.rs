//! Memberships and coupons through BillingService on the running server, against a real
//! Postgres and Redis, paying on the offline test gateway: the price, purchases that
//! extend by a calendar month, idempotent and concurrent purchases, coupon edges and
//! limits, the admins' coupon calls with their audit rows, the membership gate, and the
//! sales taxes charged on a month (the reply, the ledger's record, the receipt).

use crate::helpers::{
    self, TestServer, emails_to, outbox, reason, wait_for_message, wait_until_outbox_idle,
    with_token,
};
use chrono::{DateTime, Duration, Months, Utc};
use repairs_proto::billing::{self as pb, billing_service_client::BillingServiceClient};
use repairs_server::{
    billing::membership,
    domain::{GstHstNumber, QstNumber, Role},
};
use sqlx::PgPool;
use tonic::{Code, transport::Channel};
use uuid::Uuid;

struct Setup {
    server: TestServer,
    client: BillingServiceClient<Channel>,
    admin: String,
}

impl Setup {
    async fn start() -> Self {
        Self::start_with(|_| {}).await
    }

    /// A server whose settings `adjust` changes first (the platform's tax numbers).
    async fn start_with(adjust: impl FnOnce(&mut repairs_server::config::Config)) -> Self {
        let server = TestServer::start_with(adjust).await;
        let client = BillingServiceClient::new(server.channel().await);
        let admin = server.account_token(Role::Admin).await.1;
        Self {
            server,
            client,
            admin,
        }
    }

    fn db(&self) -> PgPool {
        self.server.server.state.db.clone()
    }

    /// A professional with a verified phone, approved when `approved`.
    async fn professional(&self, approved: bool) -> (Uuid, String) {
        let (id, token) = self.server.account_token(Role::Professional).await;
        sqlx::query("update professionals set phone = '+14035550100', phone_verified = true, state = $2 where id = $1")
            .bind(id)
            .bind(if approved { "approved" } else { "waiting_for_approval" })
            .execute(&self.db())
            .await
            .unwrap();
        (id, token)
    }

    async fn purchase(
        &self,
        token: &str,
        card: &str,
        coupon: &str,
        request_id: Uuid,
    ) -> Result<pb::PurchaseMembershipResponse, tonic::Status> {
        self.client
            .clone()
            .purchase_membership(with_token(
                pb::PurchaseMembershipRequest {
                    payment_method: card.into(),
                    coupon_code: coupon.into(),
                    request_id: request_id.to_string(),
                },
                token,
            ))
            .await
            .map(tonic::Response::into_inner)
    }

    /// One month on a good card, with a new request_id.
    async fn buy(&self, token: &str) -> pb::PurchaseMembershipResponse {
        self.purchase(token, "tok_visa", "", Uuid::new_v4())
            .await
            .unwrap()
    }

    async fn create_coupon(
        &self,
        code: &str,
        percent: i32,
        max_redemptions: i32,
    ) -> Result<pb::Coupon, tonic::Status> {
        self.client
            .clone()
            .create_coupon(with_token(
                pb::CreateCouponRequest {
                    code: code.into(),
                    discount_percent: percent,
                    expire_time: None,
                    max_redemptions,
                },
                &self.admin,
            ))
            .await
            .map(|r| r.into_inner().coupon.unwrap())
    }

    async fn quote(&self, token: &str, code: &str) -> Result<i64, tonic::Status> {
        self.client
            .clone()
            .quote_membership(with_token(
                pb::QuoteMembershipRequest {
                    coupon_code: code.into(),
                },
                token,
            ))
            .await
            .map(|r| r.into_inner().amount_payable.unwrap().amount_cents)
    }

    async fn expires_at(&self, id: Uuid) -> Option<DateTime<Utc>> {
        sqlx::query_scalar("select membership_expires_at from professionals where id = $1")
            .bind(id)
            .fetch_one(&self.db())
            .await
            .unwrap()
    }

    async fn set_expires_at(&self, id: Uuid, at: Option<DateTime<Utc>>) {
        sqlx::query("update professionals set membership_expires_at = $2 where id = $1")
            .bind(id)
            .bind(at)
            .execute(&self.db())
            .await
            .unwrap();
    }

    async fn count(&self, sql: &'static str, id: Uuid) -> i64 {
        sqlx::query_scalar(sql)
            .bind(id)
            .fetch_one(&self.db())
            .await
            .unwrap()
    }

    async fn payments_of(&self, id: Uuid) -> i64 {
        self.count("select count(*) from payments where payer_id = $1", id)
            .await
    }

    async fn redemptions(&self, coupon_id: &str) -> i32 {
        sqlx::query_scalar("select redemption_count from coupons where id = $1::uuid")
            .bind(coupon_id)
            .fetch_one(&self.db())
            .await
            .unwrap()
    }
}

fn one_month_after(time: DateTime<Utc>) -> DateTime<Utc> {
    time.checked_add_months(Months::new(1)).unwrap()
}

fn close(a: DateTime<Utc>, b: DateTime<Utc>) -> bool {
    (a - b).num_seconds().abs() < 60
}

#[tokio::test]
async fn the_price_is_public_and_in_one_place() {
    let setup = Setup::start().await;
    let price = setup
        .client
        .clone()
        .get_membership_price(pb::GetMembershipPriceRequest {})
        .await
        .unwrap()
        .into_inner()
        .monthly_price
        .unwrap();
    assert_eq!((price.amount_cents, price.currency.as_str()), (2999, "CAD"));
    let (_, token) = setup.professional(true).await;
    assert_eq!(setup.quote(&token, "").await.unwrap(), 2999);
    setup.server.stop().await;
}

#[tokio::test]
async fn a_purchase_adds_a_calendar_month_from_now_then_from_the_current_end() {
    let setup = Setup::start().await;
    let (id, token) = setup.professional(true).await;

    let before = Utc::now();
    let bought = setup.buy(&token).await;
    let payment = bought.payment.unwrap();
    assert_eq!(payment.state(), pb::PaymentState::Captured);
    assert_eq!(payment.amount.unwrap().amount_cents, 2999);
    assert!(payment.test_mode);
    let membership = bought.membership.unwrap();
    assert!(membership.active);
    let first_end = setup.expires_at(id).await.unwrap();
    assert!(close(first_end, one_month_after(before)), "{first_end}");

    // A second month starts where the first ends.
    setup
        .purchase(&token, "4242 4242 4242 4242", "", Uuid::new_v4())
        .await
        .unwrap();
    assert_eq!(
        setup.expires_at(id).await.unwrap(),
        one_month_after(first_end)
    );

    // A lapsed membership starts again from now, not from its old end.
    setup
        .set_expires_at(id, Some(Utc::now() - Duration::days(40)))
        .await;
    let before = Utc::now();
    setup
        .purchase(&token, "pm_card_visa", "", Uuid::new_v4())
        .await
        .unwrap();
    assert!(close(
        setup.expires_at(id).await.unwrap(),
        one_month_after(before)
    ));

    // From a future end on the 31st, the month stops at the shorter month's last day.
    let jan_31: DateTime<Utc> = "2099-01-31T10:00:00Z".parse().unwrap();
    setup.set_expires_at(id, Some(jan_31)).await;
    setup.buy(&token).await;
    assert_eq!(
        setup.expires_at(id).await.unwrap(),
        "2099-02-28T10:00:00Z".parse::<DateTime<Utc>>().unwrap()
    );
    assert_eq!(
        setup
            .count(
                "select count(*) from membership_periods where professional_id = $1",
                id
            )
            .await,
        4
    );
    // One receipt per month, in English.
    let email = format!("{}@example.ca", id.simple());
    wait_for_message(setup.server.data_dir(), "email.jsonl", &email, "$29.99", 4).await;
    setup.server.stop().await;
}

#[tokio::test]
async fn the_same_request_id_charges_and_extends_once_even_concurrently() {
    let setup = Setup::start().await;
    let (id, token) = setup.professional(true).await;

    let key = Uuid::new_v4();
    let first = setup.purchase(&token, "tok_visa", "", key).await.unwrap();
    let again = setup.purchase(&token, "tok_visa", "", key).await.unwrap();
    assert_eq!(first.payment.unwrap().id, again.payment.unwrap().id);
    let end = setup.expires_at(id).await.unwrap();
    assert!(end < one_month_after(Utc::now()) + Duration::days(1));
    assert_eq!(setup.payments_of(id).await, 1);

    // The same key with another card is refused, not charged.
    let reused = setup
        .purchase(&token, "pm_card_mastercard", "", key)
        .await
        .unwrap_err();
    assert_eq!(reused.code(), Code::FailedPrecondition);
    assert_eq!(reason(&reused), "REQUEST_ID_REUSED");

    // Eight calls at once with one new key: one charge, one month.
    let key = Uuid::new_v4();
    let calls = (0..8).map(|_| setup.purchase(&token, "tok_visa", "", key));
    let answers = futures::future::join_all(calls).await;
    for answer in &answers {
        if let Err(status) = answer {
            assert_eq!(reason(status), "REQUEST_IN_PROGRESS", "{status:?}");
        }
    }
    assert!(answers.iter().any(Result::is_ok));
    assert_eq!(setup.payments_of(id).await, 2);
    assert_eq!(setup.expires_at(id).await.unwrap(), one_month_after(end));
    setup.server.stop().await;
}

#[tokio::test]
async fn a_declined_card_leaves_the_membership_and_gives_the_coupon_back() {
    let setup = Setup::start().await;
    let (id, token) = setup.professional(true).await;
    let coupon = setup.create_coupon("once", 20, 1).await.unwrap();

    let declined = setup
        .purchase(&token, "4000 0000 0000 0002", "ONCE", Uuid::new_v4())
        .await
        .unwrap_err();
    assert_eq!(declined.code(), Code::FailedPrecondition);
    assert_eq!(reason(&declined), "PAYMENT_DECLINED");
    assert_eq!(declined.message(), "Your card was declined.");
    assert_eq!(setup.expires_at(id).await, None);
    assert_eq!(setup.redemptions(&coupon.id).await, 0);

    // The use given back is there for the next card.
    let bought = setup
        .purchase(&token, "tok_visa", "once", Uuid::new_v4())
        .await
        .unwrap();
    assert_eq!(bought.payment.unwrap().amount.unwrap().amount_cents, 2399);
    assert_eq!(setup.redemptions(&coupon.id).await, 1);
    setup.server.stop().await;
}

#[tokio::test]
async fn buying_needs_a_verified_phone() {
    let setup = Setup::start().await;
    let (id, token) = setup.server.account_token(Role::Professional).await;
    let refused = setup
        .purchase(&token, "tok_visa", "", Uuid::new_v4())
        .await
        .unwrap_err();
    assert_eq!(refused.code(), Code::FailedPrecondition);
    assert_eq!(reason(&refused), "PHONE_NOT_VERIFIED");
    assert_eq!(setup.payments_of(id).await, 0);

    let bad_key = setup
        .purchase(&token, "tok_visa", "", Uuid::nil())
        .await
        .map(|_| ());
    assert!(bad_key.is_err());
    setup.server.stop().await;
}

#[tokio::test]
async fn coupon_discounts_round_to_the_cent_and_their_edges_hold() {
    let setup = Setup::start().await;
    let (id, token) = setup.professional(true).await;

    setup.create_coupon("Save-20", 20, 0).await.unwrap();
    assert_eq!(setup.quote(&token, "save-20").await.unwrap(), 2399);
    setup.create_coupon("half", 50, 0).await.unwrap();
    assert_eq!(setup.quote(&token, "HALF").await.unwrap(), 1500);

    // Codes are unique ignoring case.
    let taken = setup.create_coupon("SAVE-20", 10, 0).await.unwrap_err();
    assert_eq!(taken.code(), Code::AlreadyExists);
    assert_eq!(reason(&taken), "COUPON_CODE_TAKEN");

    // Percent 1 to 100, and never a price under the gateway's minimum charge.
    for percent in [0, 101, -5] {
        let refused = setup.create_coupon("bad", percent, 0).await.unwrap_err();
        assert_eq!(refused.code(), Code::InvalidArgument, "{percent}");
    }
    let too_small = setup.create_coupon("almost", 99, 0).await.unwrap_err();
    assert_eq!(too_small.code(), Code::InvalidArgument);
    assert!(
        too_small.message().contains("30 cents"),
        "{}",
        too_small.message()
    );
    let refused = setup.create_coupon("x", 10, 0).await.unwrap_err();
    assert_eq!(refused.code(), Code::InvalidArgument);

    // 100 %: a free month, nothing charged, granted once per request_id.
    setup.create_coupon("FREE", 100, 0).await.unwrap();
    assert_eq!(setup.quote(&token, "free").await.unwrap(), 0);
    let key = Uuid::new_v4();
    sqlx::query("update professionals set language = 'fr' where id = $1")
        .bind(id)
        .execute(&setup.db())
        .await
        .unwrap();
    let free = setup
        .purchase(&token, "tok_visa", "free", key)
        .await
        .unwrap();
    assert!(free.payment.is_none());
    assert!(free.membership.unwrap().active);
    let end = setup.expires_at(id).await.unwrap();
    setup
        .purchase(&token, "tok_visa", "free", key)
        .await
        .unwrap();
    assert_eq!(setup.expires_at(id).await.unwrap(), end);
    assert_eq!(setup.payments_of(id).await, 0);
    // One receipt, in French, for the free month.
    let email = format!("{}@example.ca", id.simple());
    let receipt =
        wait_for_message(setup.server.data_dir(), "email.jsonl", &email, "offert", 1).await;
    assert_eq!(receipt["subject"], "Reçu de votre abonnement");
    wait_until_outbox_idle(&setup.db()).await;
    assert_eq!(
        outbox(setup.server.data_dir(), "email.jsonl")
            .iter()
            .filter(|m| m["to"] == email.as_str())
            .count(),
        1,
        "the replayed purchase sends no second receipt"
    );
    // The same key without the coupon is another purchase: refused, not charged.
    let reused = setup
        .purchase(&token, "tok_visa", "", key)
        .await
        .unwrap_err();
    assert_eq!(reason(&reused), "REQUEST_ID_REUSED");
    assert_eq!(setup.payments_of(id).await, 0);

    // Unknown and expired coupons read as the purchase screen always said.
    let unknown = setup.quote(&token, "NOPE").await.unwrap_err();
    assert_eq!(unknown.code(), Code::NotFound);
    assert_eq!(reason(&unknown), "COUPON_INVALID");
    assert_eq!(unknown.message(), "Invalid or expired coupon");
    sqlx::query("update coupons set expires_at = now() - interval '1 minute' where code = 'HALF'")
        .execute(&setup.db())
        .await
        .unwrap();
    assert_eq!(
        reason(&setup.quote(&token, "half").await.unwrap_err()),
        "COUPON_INVALID"
    );
    let expired = setup
        .purchase(&token, "tok_visa", "half", Uuid::new_v4())
        .await
        .unwrap_err();
    assert_eq!(expired.message(), "Invalid or expired coupon");
    setup.server.stop().await;
}

#[tokio::test]
async fn a_free_month_needs_no_card_and_a_charged_one_does() {
    let setup = Setup::start().await;
    let (id, token) = setup.professional(true).await;
    let free = setup.create_coupon("NOCARD", 100, 0).await.unwrap();
    let half = setup.create_coupon("HALFNOCARD", 50, 0).await.unwrap();

    let granted = setup
        .purchase(&token, "", "nocard", Uuid::new_v4())
        .await
        .unwrap();
    assert!(granted.payment.is_none());
    assert!(granted.membership.unwrap().active);
    assert_eq!(setup.redemptions(&free.id).await, 1);

    // Something to charge: the card is required, and the coupon's use is given back.
    let end = setup.expires_at(id).await;
    let refused = setup
        .purchase(&token, "", "halfnocard", Uuid::new_v4())
        .await
        .unwrap_err();
    assert_eq!(refused.code(), Code::InvalidArgument);
    assert_eq!(helpers::violated_fields(&refused), ["payment_method"]);
    assert_eq!(setup.redemptions(&half.id).await, 0);
    assert_eq!(setup.expires_at(id).await, end);
    setup.server.stop().await;
}

#[tokio::test]
async fn the_last_use_of_a_coupon_goes_to_one_purchase() {
    let setup = Setup::start().await;
    let coupon = setup.create_coupon("LAST", 20, 1).await.unwrap();
    let mut buyers = Vec::new();
    for _ in 0..4 {
        buyers.push(setup.professional(true).await);
    }
    let calls = buyers
        .iter()
        .map(|(_, token)| setup.purchase(token, "tok_visa", "last", Uuid::new_v4()));
    let answers = futures::future::join_all(calls).await;
    let bought = answers.iter().filter(|a| a.is_ok()).count();
    assert_eq!(bought, 1, "{answers:?}");
    for refused in answers.iter().filter_map(|a| a.as_ref().err()) {
        assert_eq!(reason(refused), "COUPON_INVALID");
        assert_eq!(refused.message(), "Invalid or expired coupon");
    }
    assert_eq!(setup.redemptions(&coupon.id).await, 1);
    setup.server.stop().await;
}

#[tokio::test]
async fn admins_list_turn_off_and_delete_coupons_with_an_audit_row_each() {
    let setup = Setup::start().await;
    let (_, token) = setup.professional(true).await;
    let coupon = setup.create_coupon("spring", 15, 10).await.unwrap();
    assert_eq!(coupon.code, "SPRING");
    assert!(coupon.active);
    let mut client = setup.client.clone();

    let off = client
        .set_coupon_active(with_token(
            pb::SetCouponActiveRequest {
                id: coupon.id.clone(),
                active: false,
            },
            &setup.admin,
        ))
        .await
        .unwrap()
        .into_inner()
        .coupon
        .unwrap();
    assert!(!off.active);
    assert_eq!(
        reason(&setup.quote(&token, "spring").await.unwrap_err()),
        "COUPON_INVALID"
    );

    let listed = client
        .list_coupons(with_token(pb::ListCouponsRequest::default(), &setup.admin))
        .await
        .unwrap()
        .into_inner()
        .coupons;
    assert_eq!(listed.len(), 1);
    assert_eq!(listed[0].max_redemptions, 10);

    client
        .delete_coupon(with_token(
            pb::DeleteCouponRequest {
                id: coupon.id.clone(),
            },
            &setup.admin,
        ))
        .await
        .unwrap();
    let listed = client
        .list_coupons(with_token(pb::ListCouponsRequest::default(), &setup.admin))
        .await
        .unwrap()
        .into_inner()
        .coupons;
    assert!(listed.is_empty());
    let gone = client
        .delete_coupon(with_token(
            pb::DeleteCouponRequest { id: coupon.id },
            &setup.admin,
        ))
        .await
        .unwrap_err();
    assert_eq!(gone.code(), Code::NotFound);
    // A deleted coupon's code can be used again.
    setup.create_coupon("SPRING", 5, 0).await.unwrap();

    let actions: Vec<String> = sqlx::query_scalar(
        "select action from audit_events where target_type = 'coupon' order by created_at, id",
    )
    .fetch_all(&setup.db())
    .await
    .unwrap();
    assert_eq!(
        actions,
        [
            "coupon.create",
            "coupon.deactivate",
            "coupon.delete",
            "coupon.create"
        ]
    );
    setup.server.stop().await;
}

#[tokio::test]
async fn a_membership_is_read_by_its_professional_or_an_admin() {
    let setup = Setup::start().await;
    let (id, token) = setup.professional(true).await;
    let (_, other) = setup.professional(true).await;
    let get = |token: String| {
        let mut client = setup.client.clone();
        async move {
            client
                .get_membership(with_token(
                    pb::GetMembershipRequest {
                        professional_id: id.to_string(),
                    },
                    &token,
                ))
                .await
                .map(|r| r.into_inner().membership.unwrap())
        }
    };
    let own = get(token.clone()).await.unwrap();
    assert!(!own.active);
    assert!(own.expire_time.is_none());
    assert_eq!(own.monthly_price.unwrap().amount_cents, 2999);
    assert!(get(setup.admin.clone()).await.is_ok());
    let refused = get(other).await.unwrap_err();
    assert_eq!(reason(&refused), "NOT_OWNER");
    setup.server.stop().await;
}

#[tokio::test]
async fn the_gate_names_what_is_missing() {
    let setup = Setup::start().await;
    let db = setup.db();
    let gate = |id| {
        let db = db.clone();
        async move {
            membership::require_active(&db, id)
                .await
                .map_err(tonic::Status::from)
        }
    };
    let (fresh, _) = setup.server.account_token(Role::Professional).await;
    assert_eq!(
        reason(&gate(fresh).await.unwrap_err()),
        "PHONE_NOT_VERIFIED"
    );

    let (waiting, _) = setup.professional(false).await;
    let refused = gate(waiting).await.unwrap_err();
    assert_eq!(refused.code(), Code::FailedPrecondition);
    assert_eq!(reason(&refused), "PROFESSIONAL_NOT_APPROVED");

    let (approved, token) = setup.professional(true).await;
    assert_eq!(
        reason(&gate(approved).await.unwrap_err()),
        "MEMBERSHIP_INACTIVE"
    );
    setup
        .set_expires_at(approved, Some(Utc::now() - Duration::seconds(1)))
        .await;
    assert_eq!(
        reason(&gate(approved).await.unwrap_err()),
        "MEMBERSHIP_INACTIVE"
    );

    setup.buy(&token).await;
    assert!(gate(approved).await.is_ok());
    assert_eq!(
        reason(&gate(Uuid::now_v7()).await.unwrap_err()),
        "NOT_FOUND"
    );
    setup.server.stop().await;
}

#[tokio::test]
async fn a_purchase_that_needs_authentication_extends_once_confirmed() {
    use repairs_server::providers::payments::{SystemClock, test_gateway::TestGateway};
    let setup = Setup::start().await;
    let (id, token) = setup.professional(true).await;
    let (_, other) = setup.professional(true).await;

    let key = Uuid::new_v4();
    let pending = setup
        .purchase(&token, "4000 0025 0000 3155", "", key)
        .await
        .unwrap();
    let payment = pending.payment.unwrap();
    assert_eq!(payment.state(), pb::PaymentState::RequiresAction);
    assert!(!payment.next_action.unwrap().client_secret.is_empty());
    assert!(!pending.membership.unwrap().active);
    assert_eq!(setup.expires_at(id).await, None);

    // The cardholder approves on the test-mode page, then the app confirms.
    TestGateway::new(setup.db(), std::sync::Arc::new(SystemClock))
        .authenticate(&payment.charge_id, true)
        .await
        .unwrap();
    let confirm = |token: String| {
        let mut client = setup.client.clone();
        let payment_id = payment.id.clone();
        async move {
            client
                .confirm_payment(with_token(
                    pb::ConfirmPaymentRequest {
                        payment_id,
                        ..Default::default()
                    },
                    &token,
                ))
                .await
                .map(|r| r.into_inner().payment.unwrap())
        }
    };
    let refused = confirm(other).await.unwrap_err();
    assert_eq!(reason(&refused), "NOT_OWNER");
    let before = Utc::now();
    let confirmed = confirm(token.clone()).await.unwrap();
    assert_eq!(confirmed.state(), pb::PaymentState::Captured);
    let end = setup.expires_at(id).await.unwrap();
    assert!(close(end, one_month_after(before)));

    // Confirmed again, or the purchase retried: still one month.
    confirm(token.clone()).await.unwrap();
    let retried = setup
        .purchase(&token, "4000 0025 0000 3155", "", key)
        .await
        .unwrap();
    assert_eq!(retried.payment.unwrap().state(), pb::PaymentState::Captured);
    assert_eq!(setup.expires_at(id).await.unwrap(), end);
    setup.server.stop().await;
}

impl Setup {
    /// ConfirmPayment by `token` with the cardholder's test-mode answer.
    async fn answer(
        &self,
        token: &str,
        payment_id: &str,
        answer: pb::TestAuthentication,
    ) -> Result<pb::Payment, tonic::Status> {
        self.client
            .clone()
            .confirm_payment(with_token(
                pb::ConfirmPaymentRequest {
                    payment_id: payment_id.into(),
                    test_authentication: answer as i32,
                },
                token,
            ))
            .await
            .map(|r| r.into_inner().payment.unwrap())
    }

    async fn payment_state(&self, token: &str, payment_id: &str) -> pb::PaymentState {
        self.client
            .clone()
            .get_payment(with_token(
                pb::GetPaymentRequest {
                    payment_id: payment_id.into(),
                },
                token,
            ))
            .await
            .unwrap()
            .into_inner()
            .payment
            .unwrap()
            .state()
    }

    /// A purchase on the card that needs authentication: its waiting payment.
    async fn pending_purchase(&self, token: &str) -> pb::Payment {
        let payment = self
            .purchase(token, "4000 0025 0000 3155", "", Uuid::new_v4())
            .await
            .unwrap()
            .payment
            .unwrap();
        assert_eq!(payment.state(), pb::PaymentState::RequiresAction);
        payment
    }
}

#[tokio::test]
async fn the_test_mode_authentication_answer_captures_or_fails_the_purchase() {
    use pb::TestAuthentication::{Approve, Refuse};
    let setup = Setup::start().await;
    let (id, token) = setup.professional(true).await;
    let (_, other) = setup.professional(true).await;

    // Another professional cannot answer for this payment, and their try changes nothing.
    let approved = setup.pending_purchase(&token).await;
    let refused = setup
        .answer(&other, &approved.id, Approve)
        .await
        .unwrap_err();
    assert_eq!(reason(&refused), "NOT_OWNER");
    assert_eq!(
        setup.payment_state(&token, &approved.id).await,
        pb::PaymentState::RequiresAction
    );

    // Approved: captured, and the month is granted.
    let before = Utc::now();
    let captured = setup.answer(&token, &approved.id, Approve).await.unwrap();
    assert_eq!(captured.state(), pb::PaymentState::Captured);
    let end = setup.expires_at(id).await.unwrap();
    assert!(close(end, one_month_after(before)));
    // Answered again (a retry, or a change of mind): nothing moves.
    let again = setup.answer(&token, &approved.id, Refuse).await.unwrap();
    assert_eq!(again.state(), pb::PaymentState::Captured);
    assert_eq!(setup.expires_at(id).await.unwrap(), end);

    // Refused: failed with its reason, and the membership keeps its end.
    let declined = setup.pending_purchase(&token).await;
    let failed = setup.answer(&token, &declined.id, Refuse).await.unwrap();
    assert_eq!(failed.state(), pb::PaymentState::Failed);
    assert_eq!(
        failed.failure_message,
        "The card could not be authenticated."
    );
    assert_eq!(setup.expires_at(id).await.unwrap(), end);
    setup.server.stop().await;
}

#[tokio::test]
async fn a_test_mode_authentication_answer_is_refused_with_stripe() {
    let server = TestServer::start_with(|config| {
        config.stripe_secret_key = Some("sk_test_unused".to_owned());
        config.stripe_publishable_key = Some("pk_test_unused".to_owned());
        // Never called: the answer is refused before any gateway call.
        config.stripe_api_base = "http://127.0.0.1:9".to_owned();
    })
    .await;
    let (professional, token) = server.account_token(Role::Professional).await;
    let pending = server.pending_membership_payment(professional).await;

    let refused = BillingServiceClient::new(server.channel().await)
        .confirm_payment(with_token(
            pb::ConfirmPaymentRequest {
                payment_id: pending.id.to_string(),
                test_authentication: pb::TestAuthentication::Approve as i32,
            },
            &token,
        ))
        .await
        .unwrap_err();
    assert_eq!(refused.code(), Code::InvalidArgument);
    assert_eq!(reason(&refused), "TEST_MODE_ONLY");
    assert!(
        refused.message().contains("test mode"),
        "{}",
        refused.message()
    );
    server.stop().await;
}

#[tokio::test]
async fn a_membership_ending_within_three_days_is_reminded_once_per_end() {
    let setup = Setup::start().await;
    let (id, token) = setup.professional(true).await;
    let (later, _) = setup.professional(true).await;
    let email = format!("{}@example.ca", id.simple());
    // French before the end comes near: a housekeeping pass running in between would
    // otherwise send the one reminder of this end in English.
    sqlx::query("update professionals set language = 'fr' where id = $1")
        .bind(id)
        .execute(&setup.db())
        .await
        .unwrap();
    setup
        .set_expires_at(id, Some(Utc::now() + Duration::days(2)))
        .await;
    setup
        .set_expires_at(later, Some(Utc::now() + Duration::days(5)))
        .await;

    // Housekeeping may have run in between: count what this professional received.
    membership::send_reminders(&setup.db()).await.unwrap();
    membership::send_reminders(&setup.db()).await.unwrap();
    let reminder = wait_for_message(
        setup.server.data_dir(),
        "email.jsonl",
        &email,
        "se termine le",
        1,
    )
    .await;
    assert_eq!(reminder["subject"], "Votre abonnement se termine bientôt");
    wait_until_outbox_idle(&setup.db()).await;
    let reminders = |email: String| {
        let dir = setup.server.data_dir().to_path_buf();
        move || {
            outbox(&dir, "email.jsonl")
                .iter()
                .filter(|m| m["to"] == email.as_str())
                .filter(|m| m["subject"] == "Votre abonnement se termine bientôt")
                .count()
        }
    };
    let count = reminders(email.clone());
    assert_eq!(count(), 1, "one reminder per end");
    let later_email = format!("{}@example.ca", later.simple());
    assert!(
        outbox(setup.server.data_dir(), "email.jsonl")
            .iter()
            .all(|m| m["to"] != later_email.as_str())
    );

    // Renewed, and then near its new end again: a new reminder. The end is moved to two
    // days from now, not a set number of days before the renewed end: a calendar month is
    // 28 to 31 days long.
    setup.buy(&token).await;
    let end = setup.expires_at(id).await.unwrap();
    assert!(end > Utc::now() + Duration::days(28), "renewed for a month");
    assert_eq!(membership::send_reminders(&setup.db()).await.unwrap(), 0);
    setup
        .set_expires_at(id, Some(Utc::now() + Duration::days(2)))
        .await;
    assert_eq!(membership::send_reminders(&setup.db()).await.unwrap(), 1);
    wait_until_outbox_idle(&setup.db()).await;
    assert_eq!(count(), 2);
    setup.server.stop().await;
}

// Sales taxes on the membership.

const GST_HST: &str = "123456789RT0001";
const QST: &str = "1234567890TQ0001";

/// A server registered for GST/HST, and for QST when `qst`.
async fn registered(qst: bool) -> Setup {
    Setup::start_with(|config| {
        config.gst_hst_number = Some(GstHstNumber::parse(GST_HST).unwrap());
        config.qst_number = qst.then(|| QstNumber::parse(QST).unwrap());
        config.platform_legal_name = "Réparations Canada inc.".to_owned();
    })
    .await
}

/// A tax line as compared: (name, rate, cents, registration number).
type Line = (String, String, i64, String);

/// The membership replies' taxes (billing's TaxLine) as [`lines`] reads them.
fn membership_lines(taxes: &[repairs_proto::billing::TaxLine]) -> Vec<Line> {
    let as_common = |t: &repairs_proto::billing::TaxLine| repairs_proto::types::TaxLine {
        name: t.name.clone(),
        rate_percent: t.rate_percent.clone(),
        amount: t.amount.clone(),
        registration_number: t.registration_number.clone(),
    };
    lines(&taxes.iter().map(as_common).collect::<Vec<_>>())
}

fn lines(taxes: &[repairs_proto::types::TaxLine]) -> Vec<Line> {
    taxes
        .iter()
        .map(|t| {
            let amount = t.amount.as_ref().unwrap();
            assert_eq!(amount.currency, "CAD");
            (
                t.name.clone(),
                t.rate_percent.clone(),
                amount.amount_cents,
                t.registration_number.clone(),
            )
        })
        .collect()
}

fn line(name: &str, rate: &str, cents: i64, number: &str) -> Line {
    (name.into(), rate.into(), cents, number.into())
}

fn cents(money: Option<&repairs_proto::types::Money>) -> i64 {
    money.unwrap().amount_cents
}

/// What the ledger holds of a payment: (amount, subtotal, province, taxed today) and its
/// taxes as (name, rate in thousandths, cents, number).
async fn stored(
    db: &PgPool,
    payment_id: &str,
) -> (
    (i64, i64, Option<String>, bool),
    Vec<(String, i32, i64, String)>,
) {
    let (amount, subtotal, province, day): (i64, i64, Option<String>, Option<chrono::NaiveDate>) =
        sqlx::query_as(
            "select amount_cents, subtotal_cents, tax_province, tax_date from payments
             where id = $1::uuid",
        )
        .bind(payment_id)
        .fetch_one(db)
        .await
        .unwrap();
    let taxes = sqlx::query_as(
        "select tax, rate_thousandths_percent, amount_cents, registration_number
         from payment_taxes where payment_id = $1::uuid order by tax",
    )
    .bind(payment_id)
    .fetch_all(db)
    .await
    .unwrap();
    // Taxed on the day of the purchase, in UTC (a test across midnight sees yesterday).
    let today = Utc::now().date_naive();
    let taxed_today = day.is_some_and(|d| d == today || d == today.pred_opt().unwrap());
    ((amount, subtotal, province, taxed_today), taxes)
}

impl Setup {
    /// An approved professional with a verified phone whose home base is in `province`
    /// (its code), reading `language`.
    async fn professional_in(&self, province: &str, language: &str) -> (Uuid, String) {
        let (id, token) = self.professional(true).await;
        sqlx::query("update professionals set home_province = $2, language = $3 where id = $1")
            .bind(id)
            .bind(province)
            .bind(language)
            .execute(&self.db())
            .await
            .unwrap();
        (id, token)
    }

    async fn quote_reply(
        &self,
        token: &str,
        code: &str,
    ) -> Result<pb::QuoteMembershipResponse, tonic::Status> {
        self.client
            .clone()
            .quote_membership(with_token(
                pb::QuoteMembershipRequest {
                    coupon_code: code.into(),
                },
                token,
            ))
            .await
            .map(tonic::Response::into_inner)
    }

    /// Fails unless professional `id` has exactly one receipt and it holds each of `parts`.
    async fn assert_receipt(&self, id: Uuid, parts: &[&str]) {
        let receipts = self.receipts(id).await;
        assert_eq!(receipts.len(), 1, "{receipts:?}");
        for part in parts {
            assert!(receipts[0].contains(part), "{part:?} in {}", receipts[0]);
        }
    }

    /// The receipts written for professional `id`, newest last: their bodies.
    async fn receipts(&self, id: Uuid) -> Vec<String> {
        let email = format!("{}@example.ca", id.simple());
        let mut bodies = emails_to(&self.db(), &email, "Your membership receipt").await;
        bodies.extend(emails_to(&self.db(), &email, "Reçu de votre abonnement").await);
        bodies.into_iter().map(|(_, body)| body).collect()
    }
}

#[tokio::test]
async fn a_halifax_membership_is_charged_14_percent_hst_on_top() {
    let setup = registered(true).await;
    let (id, token) = setup.professional_in("NS", "en").await;

    let quote = setup.quote_reply(&token, "").await.unwrap();
    assert_eq!(cents(quote.monthly_price.as_ref()), 2999);
    assert_eq!(cents(quote.subtotal.as_ref()), 2999);
    assert_eq!(
        membership_lines(&quote.taxes),
        [line("HST", "14", 420, GST_HST)]
    );
    assert_eq!(cents(quote.total.as_ref()), 3419);
    assert_eq!(cents(quote.amount_payable.as_ref()), 3419);

    let bought = setup.buy(&token).await;
    assert_eq!(cents(bought.subtotal.as_ref()), 2999);
    assert_eq!(
        membership_lines(&bought.taxes),
        [line("HST", "14", 420, GST_HST)]
    );
    assert_eq!(cents(bought.total.as_ref()), 3419);
    let payment = bought.payment.unwrap();
    assert_eq!(payment.state(), pb::PaymentState::Captured);
    assert_eq!(cents(payment.amount.as_ref()), 3419);
    // The payment itself says what its amount is made of.
    assert_eq!(cents(payment.subtotal.as_ref()), 2999);
    assert_eq!(lines(&payment.taxes), [line("HST", "14", 420, GST_HST)]);
    assert!(bought.membership.unwrap().active);

    // The ledger keeps the total charged, and the subtotal and the tax beside it.
    assert_eq!(
        stored(&setup.db(), &payment.id).await,
        (
            (3419, 2999, Some("NS".to_owned()), true),
            vec![("HST".to_owned(), 14_000, 420, GST_HST.to_owned())]
        )
    );

    // The receipt carries the seller, its numbers, the tax and the total.
    setup
        .assert_receipt(
            id,
            &[
                "Seller: Réparations Canada inc.",
                "GST/HST registration number: 123456789RT0001",
                "QST registration number: 1234567890TQ0001",
                "Buyer: Test account",
                "Subtotal: $29.99\nHST 14%: $4.20\nTotal: $34.19",
            ],
        )
        .await;
    setup.server.stop().await;
}

#[tokio::test]
async fn a_montreal_membership_carries_gst_and_qst_and_a_french_receipt() {
    let setup = registered(true).await;
    let (id, token) = setup.professional_in("QC", "fr").await;
    let both = [
        line("GST", "5", 150, GST_HST),
        line("QST", "9.975", 299, QST),
    ];
    let quote = setup.quote_reply(&token, "").await.unwrap();
    assert_eq!(membership_lines(&quote.taxes), both);
    assert_eq!(cents(quote.total.as_ref()), 2999 + 150 + 299);

    // Bought on a card that asks for authentication: the taxes are kept with the waiting
    // payment, and the receipt, written once it is captured, reads them from the ledger.
    let pending = setup
        .purchase(&token, "4000 0025 0000 3155", "", Uuid::new_v4())
        .await
        .unwrap();
    assert_eq!(membership_lines(&pending.taxes), both);
    let payment = pending.payment.unwrap();
    assert_eq!(cents(payment.amount.as_ref()), 3448);
    assert!(setup.receipts(id).await.is_empty());
    let confirmed = setup
        .answer(&token, &payment.id, pb::TestAuthentication::Approve)
        .await
        .unwrap();
    assert_eq!(confirmed.state(), pb::PaymentState::Captured);
    let ((amount, subtotal, province, today), taxes) = stored(&setup.db(), &payment.id).await;
    assert_eq!(
        (amount, subtotal, province.as_deref(), today),
        (3448, 2999, Some("QC"), true)
    );
    assert_eq!(
        taxes,
        [
            ("GST".to_owned(), 5_000, 150, GST_HST.to_owned()),
            ("QST".to_owned(), 9_975, 299, QST.to_owned()),
        ]
    );
    setup
        .assert_receipt(
            id,
            &[
                "TPS/TVH\u{a0}: 123456789RT0001\nNuméro d’inscription à la TVQ\u{a0}: 1234567890TQ0001",
                "TPS 5\u{a0}%\u{a0}: 1,50\u{a0}$\nTVQ 9,975\u{a0}%\u{a0}: 2,99\u{a0}$\nTotal\u{a0}: 34,48\u{a0}$",
            ],
        )
        .await;
    setup.server.stop().await;
}

#[tokio::test]
async fn qst_is_charged_only_with_a_qst_number_and_nothing_without_numbers() {
    let gst_only = registered(false).await;
    let (id, token) = gst_only.professional_in("QC", "en").await;
    let bought = gst_only.buy(&token).await;
    assert_eq!(
        membership_lines(&bought.taxes),
        [line("GST", "5", 150, GST_HST)]
    );
    assert_eq!(cents(bought.total.as_ref()), 3149);
    assert_eq!(cents(bought.payment.unwrap().amount.as_ref()), 3149);
    gst_only
        .assert_receipt(
            id,
            &["GST/HST registration number: 123456789RT0001\nQST: not registered"],
        )
        .await;
    gst_only.server.stop().await;

    // Unregistered (the default): no tax anywhere, and the receipt says so.
    let unregistered = Setup::start().await;
    let (id, token) = unregistered.professional_in("NS", "en").await;
    let quote = unregistered.quote_reply(&token, "").await.unwrap();
    assert!(quote.taxes.is_empty());
    assert_eq!(cents(quote.total.as_ref()), 2999);
    let bought = unregistered.buy(&token).await;
    assert!(bought.taxes.is_empty());
    let payment = bought.payment.unwrap();
    assert_eq!(cents(payment.amount.as_ref()), 2999);
    assert_eq!(cents(payment.subtotal.as_ref()), 2999);
    assert!(payment.taxes.is_empty());
    assert_eq!(
        stored(&unregistered.db(), &payment.id).await,
        ((2999, 2999, Some("NS".to_owned()), true), vec![])
    );
    unregistered
        .assert_receipt(
            id,
            &[
                "GST/HST: not registered\nQST: not registered",
                "Subtotal: $29.99\nTotal: $29.99",
            ],
        )
        .await;
    unregistered.server.stop().await;
}

#[tokio::test]
async fn a_coupon_comes_off_before_tax_and_a_free_month_charges_nothing() {
    let setup = registered(true).await;
    let (id, token) = setup.professional_in("NS", "en").await;
    setup.create_coupon("SAVE20", 20, 0).await.unwrap();
    setup.create_coupon("FREE", 100, 0).await.unwrap();

    // 20 % off 29.99 is 23.99; 14 % of that is 3.3586, so 3.36.
    let quote = setup.quote_reply(&token, "save20").await.unwrap();
    assert_eq!(quote.discount_percent, 20);
    assert_eq!(cents(quote.subtotal.as_ref()), 2399);
    assert_eq!(
        membership_lines(&quote.taxes),
        [line("HST", "14", 336, GST_HST)]
    );
    assert_eq!(cents(quote.total.as_ref()), 2735);
    let bought = setup
        .purchase(&token, "tok_visa", "save20", Uuid::new_v4())
        .await
        .unwrap();
    let payment = bought.payment.unwrap();
    assert_eq!(cents(payment.amount.as_ref()), 2735);
    assert_eq!(
        stored(&setup.db(), &payment.id).await.0,
        (2735, 2399, Some("NS".to_owned()), true)
    );

    // 100 %: nothing to tax, nothing charged, no card needed.
    let free = setup.quote_reply(&token, "free").await.unwrap();
    assert_eq!(cents(free.subtotal.as_ref()), 0);
    assert!(
        membership_lines(&free.taxes)
            .iter()
            .all(|(_, _, cents, _)| *cents == 0)
    );
    assert_eq!(cents(free.total.as_ref()), 0);
    let granted = setup
        .purchase(&token, "", "free", Uuid::new_v4())
        .await
        .unwrap();
    assert!(granted.payment.is_none());
    assert_eq!(cents(granted.total.as_ref()), 0);
    assert_eq!(setup.payments_of(id).await, 1);
    let receipts = setup.receipts(id).await;
    assert_eq!(receipts.len(), 2, "{receipts:?}");
    assert!(
        receipts[1].contains("This month is free with your coupon.\nTotal: $0.00"),
        "{}",
        receipts[1]
    );
    setup.server.stop().await;
}

#[tokio::test]
async fn a_registered_platform_needs_the_home_base_before_anything_is_counted() {
    let setup = registered(true).await;
    // Approved, phone verified, but no profile saved: no home base.
    let (id, token) = setup.professional(true).await;
    let coupon = setup.create_coupon("ONCE", 20, 1).await.unwrap();

    let refused = setup.quote_reply(&token, "").await.unwrap_err();
    assert_eq!(refused.code(), Code::FailedPrecondition);
    assert_eq!(reason(&refused), "BUSINESS_ADDRESS_REQUIRED");
    let refused = setup
        .purchase(&token, "tok_visa", "once", Uuid::new_v4())
        .await
        .unwrap_err();
    assert_eq!(reason(&refused), "BUSINESS_ADDRESS_REQUIRED");
    assert!(
        refused.message().contains("home base"),
        "{}",
        refused.message()
    );
    assert_eq!(setup.payments_of(id).await, 0);
    assert_eq!(setup.redemptions(&coupon.id).await, 0);
    assert_eq!(setup.expires_at(id).await, None);

    // An admin, who buys none, is quoted the price less the coupon, before tax.
    let admin = setup.quote_reply(&setup.admin, "once").await.unwrap();
    assert_eq!(cents(admin.subtotal.as_ref()), 2399);
    assert!(admin.taxes.is_empty());
    assert_eq!(cents(admin.total.as_ref()), 2399);
    setup.server.stop().await;
}
