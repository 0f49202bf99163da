//! Stripe's PaymentIntents over its REST API: `POST /v1/payment_intents` (confirmed at
//! once; `capture_method=manual` for holds), `/capture`, `/cancel`, `POST /v1/refunds`,
//! `GET /v1/payment_intents/{id}`, and `POST /v1/disputes/{id}` (a dispute's evidence,
//! submitted). Every write carries an `Idempotency-Key` made from the
//! call's `request_id`.
//!
//! Plain reqwest (already in the build) with lenient reply structs rather than async-stripe:
//! no extra crates to compile, and replies that leave out fields (as the local Stripe fake
//! of the tests does) still decode.

use std::{sync::Arc, time::Duration};

use anyhow::anyhow;
use async_trait::async_trait;
use chrono::{DateTime, Utc};
use serde::{Deserialize, de::DeserializeOwned};
use tokio::sync::{Semaphore, SemaphorePermit};

use super::{
    Decline, DisputeSubmission, GatewayDispute, GatewayKind, GatewayPayment, GatewayRefund,
    GatewayStatus, IdempotencyKey, MINIMUM_CHARGE_CENTS, NewCharge, PaymentError, PaymentGateway,
    as_created, test_gateway::HOLD_DAYS,
};
use crate::{
    domain::Money,
    providers::{
        SecretString,
        http_client::{self, DEFAULT_TIMEOUT},
    },
};

pub mod connect;
pub mod dispute;

/// Stripe's API origin (the default base URL).
pub const STRIPE_API_URL: &str = "https://api.stripe.com";

/// The Stripe API version every call asks for (`Stripe-Version`), so that the replies this
/// adapter reads keep their shape when the account's default version changes. Moving to a
/// newer version is a change of this line, after reading Stripe's changelog for the
/// PaymentIntent, Refund, Account and Transfer fields read here (docs/integrators.md).
pub const STRIPE_API_VERSION: &str = "2024-06-20";

#[derive(Debug, Clone)]
pub struct StripeConfig {
    pub secret_key: SecretString,
    /// Without a trailing path: `https://api.stripe.com`, or a local Stripe fake.
    pub api_base: String,
    pub timeout: Duration,
    /// Calls to Stripe under way at once; more wait up to `timeout` for a turn, then fail as
    /// unavailable, so a burst cannot pile up connections and memory.
    pub max_in_flight: usize,
}

impl StripeConfig {
    pub fn new(secret_key: impl Into<SecretString>) -> Self {
        Self {
            secret_key: secret_key.into(),
            api_base: STRIPE_API_URL.to_owned(),
            timeout: DEFAULT_TIMEOUT,
            max_in_flight: 16,
        }
    }
}

#[derive(Debug)]
pub struct StripeGateway {
    config: StripeConfig,
    http: reqwest::Client,
    in_flight: Arc<Semaphore>,
}

/// A PaymentIntent, reading only what we use; every field Stripe might leave out is
/// optional.
#[derive(Debug, Deserialize)]
struct Intent {
    id: String,
    amount: i64,
    currency: String,
    status: String,
    client_secret: Option<String>,
    cancellation_reason: Option<String>,
    last_payment_error: Option<ErrorBody>,
    created: Option<i64>,
}

#[derive(Debug, Default, Deserialize)]
struct ErrorBody {
    #[serde(rename = "type")]
    kind: Option<String>,
    code: Option<String>,
    decline_code: Option<String>,
    message: Option<String>,
    payment_intent: Option<Box<Intent>>,
}

/// A Refund: its id, kept with the ledger's refund (the webhook's key).
#[derive(Debug, Deserialize)]
struct Refund {
    id: String,
}

#[derive(Deserialize)]
struct ErrorEnvelope {
    error: ErrorBody,
}

/// Which call failed, to read its 400s right.
#[derive(Clone, Copy)]
enum Call {
    Create,
    Step(&'static str),
    Read,
}

impl StripeGateway {
    pub fn new(config: StripeConfig) -> Result<Self, reqwest::Error> {
        let http = http_client::client(config.timeout)?;
        let in_flight = Arc::new(Semaphore::new(config.max_in_flight.max(1)));
        Ok(Self {
            config,
            http,
            in_flight,
        })
    }

    /// A turn to call Stripe (see [`StripeConfig::max_in_flight`]).
    async fn turn(&self) -> Result<SemaphorePermit<'_>, PaymentError> {
        match tokio::time::timeout(self.config.timeout, self.in_flight.acquire()).await {
            Ok(Ok(permit)) => Ok(permit),
            _ => Err(unavailable(anyhow!(
                "too many payment calls under way; try again shortly"
            ))),
        }
    }

    async fn create(
        &self,
        charge: &NewCharge,
        capture_method: &str,
    ) -> Result<GatewayPayment, PaymentError> {
        if charge.amount.cents().get() < MINIMUM_CHARGE_CENTS {
            return Err(PaymentError::AmountTooSmall);
        }
        let amount = charge.amount.cents().get().to_string();
        let currency = charge.amount.currency().code().to_ascii_lowercase();
        let method = charge.payment_method.as_str();
        let mut form = vec![
            ("amount", amount.as_str()),
            ("currency", currency.as_str()),
            ("capture_method", capture_method),
            ("confirm", "true"),
            ("payment_method_types[]", "card"),
        ];
        // Legacy single-use tokens become a card payment method on the fly.
        if charge.payment_method.is_token() {
            form.push(("payment_method_data[type]", "card"));
            form.push(("payment_method_data[card][token]", method));
        } else {
            form.push(("payment_method", method));
        }
        let intent: Intent = self
            .post(
                "v1/payment_intents",
                &form,
                &charge.key.uuid().to_string(),
                Call::Create,
            )
            .await?;
        as_created(intent.into_payment()?)
    }

    async fn post<T: DeserializeOwned>(
        &self,
        path: &str,
        form: &[(&str, &str)],
        key: &str,
        call: Call,
    ) -> Result<T, PaymentError> {
        let _turn = self.turn().await?;
        let response = self
            .http
            .post(http_client::endpoint(&self.config.api_base, path))
            .bearer_auth(self.config.secret_key.expose())
            .header("Stripe-Version", STRIPE_API_VERSION)
            .header("Idempotency-Key", key)
            .form(form)
            .send()
            .await;
        read(response, call).await
    }

    async fn get<T: DeserializeOwned>(&self, path: &str) -> Result<T, PaymentError> {
        let _turn = self.turn().await?;
        let response = self
            .http
            .get(http_client::endpoint(&self.config.api_base, path))
            .bearer_auth(self.config.secret_key.expose())
            .header("Stripe-Version", STRIPE_API_VERSION)
            .send()
            .await;
        read(response, Call::Read).await
    }

    async fn step(
        &self,
        id: &str,
        key: &IdempotencyKey,
        step: &'static str,
    ) -> Result<GatewayPayment, PaymentError> {
        let path = format!("v1/payment_intents/{}/{step}", path_segment(id)?);
        let intent: Intent = self
            .post(&path, &[], &key.for_step(step), Call::Step(step))
            .await?;
        intent.into_payment()
    }
}

/// Ids go into paths: only Stripe's id characters pass.
fn path_segment(id: &str) -> Result<&str, PaymentError> {
    let valid = !id.is_empty()
        && id.len() <= 255
        && id.chars().all(|c| c.is_ascii_alphanumeric() || c == '_');
    if valid {
        Ok(id)
    } else {
        Err(PaymentError::NotFound)
    }
}

async fn read<T: DeserializeOwned>(
    response: Result<reqwest::Response, reqwest::Error>,
    call: Call,
) -> Result<T, PaymentError> {
    let response =
        response.map_err(|e| unavailable(anyhow::Error::new(e).context("calling Stripe")))?;
    let status = response.status();
    let body = response
        .bytes()
        .await
        .map_err(|e| unavailable(anyhow::Error::new(e).context("reading Stripe's reply")))?;
    if status.is_success() {
        return serde_json::from_slice(&body)
            .map_err(|e| unavailable(anyhow::Error::new(e).context("decoding Stripe's reply")));
    }
    let error = serde_json::from_slice::<ErrorEnvelope>(&body)
        .map(|envelope| envelope.error)
        .unwrap_or_default();
    Err(error_of(status.as_u16(), error, call))
}

fn error_of(http_status: u16, error: ErrorBody, call: Call) -> PaymentError {
    let code = error.code.as_deref().unwrap_or_default();
    match (http_status, error.kind.as_deref(), call) {
        (402, _, _) | (_, Some("card_error"), _) => PaymentError::Declined {
            decline: Decline::from_code(error.decline_code.as_deref().unwrap_or(code)),
            payment: error
                .payment_intent
                .and_then(|intent| intent.into_payment().ok())
                .map(Box::new),
        },
        (_, Some("idempotency_error"), _) => PaymentError::KeyReused,
        (404, _, _) => PaymentError::NotFound,
        (400, _, _) if code == "resource_missing" => match call {
            Call::Create => PaymentError::InvalidPaymentMethod,
            Call::Step(_) | Call::Read => PaymentError::NotFound,
        },
        (400, _, Call::Create) if code == "amount_too_small" => PaymentError::AmountTooSmall,
        // The ledger checks states before it calls: a 400 on a step is the intent having
        // moved on at Stripe (captured, canceled, lapsed).
        (400, _, Call::Step(step)) => PaymentError::State { step },
        _ => unavailable(anyhow!(
            "Stripe answered HTTP {http_status}: {}",
            error.message.as_deref().unwrap_or("no message")
        )),
    }
}

fn unavailable(error: anyhow::Error) -> PaymentError {
    PaymentError::Unavailable(error)
}

impl Intent {
    fn into_payment(self) -> Result<GatewayPayment, PaymentError> {
        let amount = Money::parse(self.amount, &self.currency)
            .map_err(|e| unavailable(anyhow!("Stripe's intent {}: {e}", self.id)))?;
        let decline = self.last_payment_error.as_ref().map(|error| {
            Decline::from_code(
                error
                    .decline_code
                    .as_deref()
                    .or(error.code.as_deref())
                    .unwrap_or_default(),
            )
        });
        let status = match self.status.as_str() {
            "requires_action" => GatewayStatus::RequiresAction,
            "requires_capture" => GatewayStatus::Authorized,
            "succeeded" => GatewayStatus::Captured,
            // Stripe cancels a hold it was never asked to capture with reason "automatic".
            "canceled" => GatewayStatus::Canceled {
                expired: self.cancellation_reason.as_deref() == Some("automatic"),
            },
            "requires_payment_method" | "requires_confirmation" => GatewayStatus::Failed,
            other => {
                return Err(unavailable(anyhow!(
                    "Stripe's intent {} is {other}, which cards do not use",
                    self.id
                )));
            }
        };
        let capture_before = (status == GatewayStatus::Authorized)
            .then(|| {
                self.created
                    .and_then(|t| DateTime::<Utc>::from_timestamp(t, 0))
            })
            .flatten()
            .map(|created| created + chrono::Duration::days(HOLD_DAYS));
        Ok(GatewayPayment {
            id: self.id,
            amount,
            client_secret: (status == GatewayStatus::RequiresAction)
                .then_some(self.client_secret)
                .flatten(),
            capture_before,
            decline: decline.or((status == GatewayStatus::Failed).then_some(Decline::CardDeclined)),
            status,
        })
    }
}

#[async_trait]
impl PaymentGateway for StripeGateway {
    fn kind(&self) -> GatewayKind {
        GatewayKind::Stripe
    }

    async fn authorize(&self, charge: &NewCharge) -> Result<GatewayPayment, PaymentError> {
        self.create(charge, "manual").await
    }

    async fn charge(&self, charge: &NewCharge) -> Result<GatewayPayment, PaymentError> {
        self.create(charge, "automatic").await
    }

    async fn capture(
        &self,
        id: &str,
        key: &IdempotencyKey,
    ) -> Result<GatewayPayment, PaymentError> {
        self.step(id, key, "capture").await
    }

    async fn void(&self, id: &str, key: &IdempotencyKey) -> Result<GatewayPayment, PaymentError> {
        self.step(id, key, "cancel").await
    }

    async fn refund(
        &self,
        id: &str,
        amount: Money,
        key: &IdempotencyKey,
    ) -> Result<GatewayRefund, PaymentError> {
        let id = path_segment(id)?;
        let cents = amount.cents().get().to_string();
        // A refund answers a Refund object; the intent itself stays "succeeded" at Stripe,
        // partly or wholly refunded: the ledger counts what its refunds add up to.
        let refund: Refund = self
            .post(
                "v1/refunds",
                &[("payment_intent", id), ("amount", &cents)],
                &key.for_step("refund"),
                Call::Step("refund"),
            )
            .await?;
        let payment = self.retrieve(id).await?;
        Ok(GatewayRefund {
            id: refund.id,
            payment,
        })
    }

    async fn retrieve(&self, id: &str) -> Result<GatewayPayment, PaymentError> {
        let path = format!("v1/payment_intents/{}", path_segment(id)?);
        self.get::<Intent>(&path).await?.into_payment()
    }

    async fn submit_dispute_evidence(
        &self,
        id: &str,
        evidence: &DisputeSubmission,
        key: &IdempotencyKey,
    ) -> Result<GatewayDispute, PaymentError> {
        let path = format!("v1/disputes/{}", path_segment(id)?);
        let service_date = evidence
            .service_date
            .map(|day| day.format("%Y-%m-%d").to_string())
            .unwrap_or_default();
        let mut form = vec![
            ("evidence[customer_name]", evidence.customer_name.as_str()),
            (
                "evidence[customer_email_address]",
                evidence.customer_email_address.as_str(),
            ),
            (
                "evidence[product_description]",
                evidence.product_description.as_str(),
            ),
            (
                "evidence[uncategorized_text]",
                evidence.uncategorized_text.as_str(),
            ),
            ("submit", "true"),
        ];
        if !service_date.is_empty() {
            form.push(("evidence[service_date]", service_date.as_str()));
        }
        let dispute: dispute::DisputeObject = self
            .post(
                &path,
                &form,
                &key.for_step("dispute"),
                Call::Step("contested"),
            )
            .await?;
        let id = dispute.id.clone();
        dispute
            .into_dispute()
            .ok_or_else(|| unavailable(anyhow!("Stripe's dispute {id} names no payment")))
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn intent(status: &str) -> Intent {
        Intent {
            id: "pi_1".to_owned(),
            amount: 10_000,
            currency: "cad".to_owned(),
            status: status.to_owned(),
            client_secret: Some("pi_1_secret_x".to_owned()),
            cancellation_reason: None,
            last_payment_error: None,
            created: Some(1_800_000_000),
        }
    }

    #[test]
    fn intent_statuses_fold_into_gateway_statuses() {
        let held = intent("requires_capture").into_payment().unwrap();
        assert_eq!(held.status, GatewayStatus::Authorized);
        assert_eq!(held.amount.to_string(), "100.00 CAD");
        assert!(held.capture_before.is_some());
        assert_eq!(held.client_secret, None);
        let action = intent("requires_action").into_payment().unwrap();
        assert_eq!(action.client_secret.as_deref(), Some("pi_1_secret_x"));
        let mut lapsed = intent("canceled");
        lapsed.cancellation_reason = Some("automatic".to_owned());
        assert_eq!(
            lapsed.into_payment().unwrap().status,
            GatewayStatus::Canceled { expired: true }
        );
        assert!(intent("processing").into_payment().is_err());
    }

    #[test]
    fn card_errors_are_declines_with_their_reason() {
        let error = ErrorBody {
            kind: Some("card_error".to_owned()),
            code: Some("card_declined".to_owned()),
            decline_code: Some("insufficient_funds".to_owned()),
            ..ErrorBody::default()
        };
        assert!(matches!(
            error_of(402, error, Call::Create),
            PaymentError::Declined {
                decline: Decline::InsufficientFunds,
                ..
            }
        ));
    }

    #[test]
    fn ids_with_path_characters_are_refused() {
        assert!(path_segment("pi_123abc").is_ok());
        assert!(path_segment("pi_1/../../v1/charges").is_err());
        assert!(path_segment("").is_err());
    }
}
