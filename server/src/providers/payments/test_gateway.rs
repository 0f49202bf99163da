//! The offline test gateway of the default run: PaymentIntents kept in Postgres (so a
//! restart loses nothing), Stripe's test cards ([`TestCard`]), holds that lapse seven days
//! after authorisation by an injectable [`Clock`]. No money moves; the contract labels its
//! payments test mode. A card that needs 3-D Secure waits until
//! [`TestGateway::authenticate`] (the test-mode authentication page) answers for the
//! cardholder. Stripe's dispute test card is disputed once charged ([`disputes`]).

use std::sync::Arc;

use anyhow::Context;
use async_trait::async_trait;
use chrono::{DateTime, Duration, Utc};
use sqlx::PgPool;

use super::{
    Clock, Decline, DisputeSubmission, GatewayDispute, GatewayKind, GatewayPayment, GatewayRefund,
    GatewayStatus, IdempotencyKey, MINIMUM_CHARGE_CENTS, NewCharge, PaymentError, PaymentGateway,
    as_created, test_cards::TestCard,
};
use crate::domain::Money;

mod disputes;

/// How long an authorisation can be captured (Stripe's default for card holds).
pub const HOLD_DAYS: i64 = 7;

pub struct TestGateway {
    db: PgPool,
    clock: Arc<dyn Clock>,
}

#[derive(Debug, sqlx::FromRow)]
struct IntentRow {
    id: String,
    amount_cents: i64,
    currency: String,
    status: String,
    cancellation_reason: Option<String>,
    decline_code: Option<String>,
    client_secret: String,
    hold_expires_at: Option<DateTime<Utc>>,
}

const INTENT_COLUMNS: &str = "id, amount_cents, currency, status, cancellation_reason, \
     decline_code, client_secret, hold_expires_at";

#[derive(Clone, Copy)]
enum CaptureMethod {
    Automatic,
    Manual,
}

/// A step on an existing intent: the statuses it starts from and the one it leads to.
struct Step {
    name: &'static str,
    from: &'static [&'static str],
    to: &'static str,
}

const CAPTURE: Step = Step {
    name: "capture",
    from: &["requires_capture"],
    to: "succeeded",
};
const VOID: Step = Step {
    name: "void",
    from: &["requires_capture", "requires_action"],
    to: "canceled",
};

fn unavailable(error: sqlx::Error) -> PaymentError {
    PaymentError::test_gateway_database(error, "test gateway database")
}

impl TestGateway {
    pub fn new(db: PgPool, clock: Arc<dyn Clock>) -> Self {
        Self { db, clock }
    }

    /// The cardholder's answer on the test-mode authentication page: approved, the intent
    /// goes on as an authorised card would; refused, it fails.
    pub async fn authenticate(
        &self,
        id: &str,
        approved: bool,
    ) -> Result<GatewayPayment, PaymentError> {
        let now = self.clock.now();
        let updated: Option<IntentRow> = sqlx::query_as(sqlx::AssertSqlSafe(format!(
            "update test_gateway_intents set
                 status = case when not $2 then 'failed'
                               when capture_method = 'manual' then 'requires_capture'
                               else 'succeeded' end,
                 decline_code = case when $2 then null else 'authentication_failed' end,
                 hold_expires_at = case when $2 and capture_method = 'manual' then $3 end,
                 updated_at = $4
             where id = $1 and status = 'requires_action'
             returning {INTENT_COLUMNS}"
        )))
        .bind(id)
        .bind(approved)
        .bind(now + Duration::days(HOLD_DAYS))
        .bind(now)
        .fetch_optional(&self.db)
        .await
        .map_err(unavailable)?;
        match updated {
            Some(row) => row.into_payment(),
            None => {
                self.find(id).await?;
                Err(PaymentError::State {
                    step: "authenticated",
                })
            }
        }
    }

    async fn create(
        &self,
        charge: &NewCharge,
        method: CaptureMethod,
    ) -> Result<GatewayPayment, PaymentError> {
        if charge.amount.cents().get() < MINIMUM_CHARGE_CENTS {
            return Err(PaymentError::AmountTooSmall);
        }
        let card = TestCard::of(charge.payment_method.as_str())
            .ok_or(PaymentError::InvalidPaymentMethod)?;
        let (status, decline, hold) = match (card, method) {
            (TestCard::Succeeds | TestCard::Disputed, CaptureMethod::Manual) => {
                ("requires_capture", None, true)
            }
            (TestCard::Succeeds | TestCard::Disputed, CaptureMethod::Automatic) => {
                ("succeeded", None, false)
            }
            (TestCard::Declines(decline), _) => ("failed", Some(decline.code()), false),
            (TestCard::RequiresAuthentication, _) => ("requires_action", None, false),
        };
        let now = self.clock.now();
        let id = format!("pi_test_{}", uuid::Uuid::now_v7().simple());
        let client_secret = format!("{id}_secret_{}", uuid::Uuid::new_v4().simple());
        // A replayed key finds the first intent instead of making a second (Stripe's rule).
        sqlx::query(
            "insert into test_gateway_intents
                 (id, idempotency_key, amount_cents, currency, capture_method, payment_method,
                  status, decline_code, client_secret, hold_expires_at, created_at, updated_at,
                  disputes_on_capture)
             values ($1, $2, $3, $4, $5, $6, $7, $8, $9, $10, $11, $11, $12)
             on conflict (idempotency_key) do nothing",
        )
        .bind(&id)
        .bind(charge.key.uuid().to_string())
        .bind(charge.amount.cents().get())
        .bind(charge.amount.currency().code())
        .bind(match method {
            CaptureMethod::Automatic => "automatic",
            CaptureMethod::Manual => "manual",
        })
        .bind(stored_method(charge.payment_method.as_str()))
        .bind(status)
        .bind(decline)
        .bind(&client_secret)
        .bind(hold.then(|| now + Duration::days(HOLD_DAYS)))
        .bind(now)
        .bind(card == TestCard::Disputed)
        .execute(&self.db)
        .await
        .map_err(unavailable)?;
        disputes::open_if_charged(&self.db, &id, now)
            .await
            .map_err(unavailable)?;
        let row: IntentRow = sqlx::query_as(sqlx::AssertSqlSafe(format!(
            "select {INTENT_COLUMNS} from test_gateway_intents where idempotency_key = $1"
        )))
        .bind(charge.key.uuid().to_string())
        .fetch_one(&self.db)
        .await
        .map_err(unavailable)?;
        as_created(row.into_payment()?)
    }

    /// Reads an intent, first letting its hold lapse if its time has passed.
    async fn find(&self, id: &str) -> Result<IntentRow, PaymentError> {
        sqlx::query(
            "update test_gateway_intents
             set status = 'canceled', cancellation_reason = 'expired', updated_at = $2
             where id = $1 and status = 'requires_capture' and hold_expires_at <= $2",
        )
        .bind(id)
        .bind(self.clock.now())
        .execute(&self.db)
        .await
        .map_err(unavailable)?;
        sqlx::query_as(sqlx::AssertSqlSafe(format!(
            "select {INTENT_COLUMNS} from test_gateway_intents where id = $1"
        )))
        .bind(id)
        .fetch_optional(&self.db)
        .await
        .map_err(unavailable)?
        .ok_or(PaymentError::NotFound)
    }

    async fn begin(&self) -> Result<crate::store::transaction::Tx, PaymentError> {
        crate::store::transaction::begin(&self.db)
            .await
            .map_err(unavailable)
    }

    /// Applies `step` once per key: a repeated key answers the intent as it is now.
    async fn step(
        &self,
        id: &str,
        key: &IdempotencyKey,
        step: &Step,
    ) -> Result<GatewayPayment, PaymentError> {
        let key = key.for_step(step.name);
        let seen: Option<(String,)> =
            sqlx::query_as("select intent_id from test_gateway_steps where idempotency_key = $1")
                .bind(&key)
                .fetch_optional(&self.db)
                .await
                .map_err(unavailable)?;
        if let Some((intent,)) = seen {
            return self.find(&intent).await?.into_payment();
        }
        let current = self.find(id).await?;
        if !step.from.contains(&current.status.as_str()) {
            return Err(PaymentError::State { step: step.name });
        }
        let now = self.clock.now();
        let mut tx = self.begin().await?;
        let updated: Option<IntentRow> = sqlx::query_as(sqlx::AssertSqlSafe(format!(
            "update test_gateway_intents
             set status = $3,
                 cancellation_reason = case when $3 = 'canceled'
                     then 'requested_by_customer' end,
                 updated_at = $4
             where id = $1 and status = any($2)
             returning {INTENT_COLUMNS}"
        )))
        .bind(id)
        .bind(step.from)
        .bind(step.to)
        .bind(now)
        .fetch_optional(&mut *tx)
        .await
        .map_err(unavailable)?;
        // Lost a race with another step on the same intent.
        let Some(row) = updated else {
            return Err(PaymentError::State { step: step.name });
        };
        sqlx::query(
            "insert into test_gateway_steps (idempotency_key, intent_id, step, created_at)
             values ($1, $2, $3, $4)",
        )
        .bind(&key)
        .bind(id)
        .bind(step.name)
        .bind(now)
        .execute(&mut *tx)
        .await
        .map_err(unavailable)?;
        disputes::open_if_charged(&mut *tx, id, now)
            .await
            .map_err(unavailable)?;
        tx.commit().await.map_err(unavailable)?;
        row.into_payment()
    }
}

impl TestGateway {
    /// Refunds `amount` of a captured intent, once per key (a repeated key answers the
    /// first refund): the intent is `refunded` once its refunds add up to its amount. More
    /// than what is left is refused, as Stripe refuses it.
    async fn refund_part(
        &self,
        id: &str,
        amount: Money,
        key: &IdempotencyKey,
    ) -> Result<GatewayRefund, PaymentError> {
        let key = key.for_step("refund");
        let seen: Option<(String, String)> = sqlx::query_as(
            "select id, intent_id from test_gateway_refunds where idempotency_key = $1",
        )
        .bind(&key)
        .fetch_optional(&self.db)
        .await
        .map_err(unavailable)?;
        if let Some((refund, intent)) = seen {
            let payment = self.find(&intent).await?.into_payment()?;
            return Ok(GatewayRefund {
                id: refund,
                payment,
            });
        }
        let current = self.find(id).await?;
        if current.status != "succeeded" || current.currency != amount.currency().code() {
            return Err(PaymentError::State { step: "refund" });
        }
        let now = self.clock.now();
        let mut tx = self.begin().await?;
        // Only within what is left: two refunds racing cannot give back more than the charge.
        // A disputed charge is not refunded (Stripe's `charge_disputed`).
        let open_dispute = disputes::OPEN_ON_INTENT;
        let updated: Option<IntentRow> = sqlx::query_as(sqlx::AssertSqlSafe(format!(
            "update test_gateway_intents
             set amount_refunded_cents = amount_refunded_cents + $2,
                 status = case when amount_refunded_cents + $2 = amount_cents
                               then 'refunded' else status end,
                 updated_at = $3
             where id = $1 and status = 'succeeded'
               and amount_refunded_cents + $2 <= amount_cents
               and not {open_dispute}
             returning {INTENT_COLUMNS}"
        )))
        .bind(id)
        .bind(amount.cents().get())
        .bind(now)
        .fetch_optional(&mut *tx)
        .await
        .map_err(unavailable)?;
        let Some(row) = updated else {
            return Err(PaymentError::State { step: "refund" });
        };
        let refund_id = format!("re_test_{}", uuid::Uuid::now_v7().simple());
        sqlx::query(
            "insert into test_gateway_refunds (id, idempotency_key, intent_id, amount_cents,
                 created_at)
             values ($1, $2, $3, $4, $5)",
        )
        .bind(&refund_id)
        .bind(&key)
        .bind(id)
        .bind(amount.cents().get())
        .bind(now)
        .execute(&mut *tx)
        .await
        .map_err(unavailable)?;
        tx.commit().await.map_err(unavailable)?;
        Ok(GatewayRefund {
            id: refund_id,
            payment: row.into_payment()?,
        })
    }
}

/// Never keeps a full card number, even a test one: its last four digits stand for it.
fn stored_method(method: &str) -> String {
    let is_number = method
        .chars()
        .all(|c| c.is_ascii_digit() || matches!(c, ' ' | '-'));
    let digits: String = method.chars().filter(char::is_ascii_digit).collect();
    match digits.len().checked_sub(4) {
        Some(last_four) if is_number => format!("card ending {}", &digits[last_four..]),
        _ => method.to_owned(),
    }
}

impl IntentRow {
    fn into_payment(self) -> Result<GatewayPayment, PaymentError> {
        let amount = Money::parse(self.amount_cents, &self.currency)
            .context("stored test intent amount")
            .map_err(PaymentError::Unavailable)?;
        let status = match self.status.as_str() {
            "requires_action" => GatewayStatus::RequiresAction,
            "requires_capture" => GatewayStatus::Authorized,
            "succeeded" => GatewayStatus::Captured,
            "canceled" => GatewayStatus::Canceled {
                expired: self.cancellation_reason.as_deref() == Some("expired"),
            },
            "failed" => GatewayStatus::Failed,
            "refunded" => GatewayStatus::Refunded,
            other => {
                return Err(PaymentError::Unavailable(anyhow::anyhow!(
                    "unknown test intent status {other}"
                )));
            }
        };
        Ok(GatewayPayment {
            id: self.id,
            amount,
            client_secret: (status == GatewayStatus::RequiresAction).then_some(self.client_secret),
            capture_before: self.hold_expires_at,
            decline: self.decline_code.as_deref().map(Decline::from_code),
            status,
        })
    }
}

#[async_trait]
impl PaymentGateway for TestGateway {
    fn kind(&self) -> GatewayKind {
        GatewayKind::Test
    }

    async fn authorize(&self, charge: &NewCharge) -> Result<GatewayPayment, PaymentError> {
        self.create(charge, CaptureMethod::Manual).await
    }

    async fn charge(&self, charge: &NewCharge) -> Result<GatewayPayment, PaymentError> {
        self.create(charge, CaptureMethod::Automatic).await
    }

    async fn capture(
        &self,
        id: &str,
        key: &IdempotencyKey,
    ) -> Result<GatewayPayment, PaymentError> {
        self.step(id, key, &CAPTURE).await
    }

    async fn void(&self, id: &str, key: &IdempotencyKey) -> Result<GatewayPayment, PaymentError> {
        self.step(id, key, &VOID).await
    }

    async fn refund(
        &self,
        id: &str,
        amount: Money,
        key: &IdempotencyKey,
    ) -> Result<GatewayRefund, PaymentError> {
        self.refund_part(id, amount, key).await
    }

    async fn retrieve(&self, id: &str) -> Result<GatewayPayment, PaymentError> {
        self.find(id).await?.into_payment()
    }

    async fn answer_authentication(
        &self,
        id: &str,
        approved: bool,
    ) -> Result<GatewayPayment, PaymentError> {
        self.authenticate(id, approved).await
    }

    async fn submit_dispute_evidence(
        &self,
        id: &str,
        evidence: &DisputeSubmission,
        key: &IdempotencyKey,
    ) -> Result<GatewayDispute, PaymentError> {
        disputes::submit(&self.db, id, evidence, key).await
    }

    async fn played_disputes(&self, limit: i64) -> Result<Vec<GatewayDispute>, PaymentError> {
        disputes::played(&self.db, limit).await
    }

    async fn dispute_applied(&self, dispute: &GatewayDispute) -> Result<(), PaymentError> {
        disputes::applied(&self.db, dispute).await
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn card_numbers_are_kept_as_their_last_four_digits() {
        assert_eq!(stored_method("4242 4242 4242 4242"), "card ending 4242");
        assert_eq!(stored_method("pm_card_visa"), "pm_card_visa");
        assert_eq!(stored_method("tok_visa"), "tok_visa");
    }
}
