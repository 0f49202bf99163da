//! Any gateway, with its failed calls counted (`repairs_payment_failures_total`, by
//! operation and reason): declines, an unreachable gateway, refused steps.

use std::sync::Arc;

use async_trait::async_trait;

use super::{
    DisputeSubmission, GatewayDispute, GatewayKind, GatewayPayment, GatewayRefund, IdempotencyKey,
    NewCharge, PaymentError, PaymentGateway,
};
use crate::{domain::Money, metrics::Metrics};

pub struct Metered {
    inner: Arc<dyn PaymentGateway>,
    metrics: Metrics,
}

/// `gateway` with its failures counted in `metrics`.
pub fn metered(gateway: Arc<dyn PaymentGateway>, metrics: &Metrics) -> Arc<dyn PaymentGateway> {
    Arc::new(Metered {
        inner: gateway,
        metrics: metrics.clone(),
    })
}

/// A failure's label: why the call failed.
pub fn reason(error: &PaymentError) -> &'static str {
    match error {
        PaymentError::Declined { .. } => "declined",
        PaymentError::InvalidPaymentMethod => "invalid_payment_method",
        PaymentError::AmountTooSmall => "amount_too_small",
        PaymentError::NotFound => "not_found",
        PaymentError::State { .. } => "state",
        PaymentError::TestModeOnly => "test_mode_only",
        PaymentError::KeyReused => "key_reused",
        PaymentError::Unavailable(_) => "unavailable",
    }
}

impl Metered {
    fn counted<T>(
        &self,
        operation: &str,
        result: Result<T, PaymentError>,
    ) -> Result<T, PaymentError> {
        if let Err(error) = &result {
            self.metrics.payment_failed(operation, reason(error));
        }
        result
    }
}

#[async_trait]
impl PaymentGateway for Metered {
    fn kind(&self) -> GatewayKind {
        self.inner.kind()
    }

    async fn authorize(&self, charge: &NewCharge) -> Result<GatewayPayment, PaymentError> {
        self.counted("authorize", self.inner.authorize(charge).await)
    }

    async fn charge(&self, charge: &NewCharge) -> Result<GatewayPayment, PaymentError> {
        self.counted("charge", self.inner.charge(charge).await)
    }

    async fn capture(
        &self,
        id: &str,
        key: &IdempotencyKey,
    ) -> Result<GatewayPayment, PaymentError> {
        self.counted("capture", self.inner.capture(id, key).await)
    }

    async fn void(&self, id: &str, key: &IdempotencyKey) -> Result<GatewayPayment, PaymentError> {
        self.counted("void", self.inner.void(id, key).await)
    }

    async fn refund(
        &self,
        id: &str,
        amount: Money,
        key: &IdempotencyKey,
    ) -> Result<GatewayRefund, PaymentError> {
        self.counted("refund", self.inner.refund(id, amount, key).await)
    }

    async fn retrieve(&self, id: &str) -> Result<GatewayPayment, PaymentError> {
        self.counted("retrieve", self.inner.retrieve(id).await)
    }

    async fn answer_authentication(
        &self,
        id: &str,
        approved: bool,
    ) -> Result<GatewayPayment, PaymentError> {
        self.counted(
            "answer_authentication",
            self.inner.answer_authentication(id, approved).await,
        )
    }

    async fn submit_dispute_evidence(
        &self,
        id: &str,
        evidence: &DisputeSubmission,
        key: &IdempotencyKey,
    ) -> Result<GatewayDispute, PaymentError> {
        self.counted(
            "submit_dispute_evidence",
            self.inner.submit_dispute_evidence(id, evidence, key).await,
        )
    }

    async fn played_disputes(&self, limit: i64) -> Result<Vec<GatewayDispute>, PaymentError> {
        self.counted("played_disputes", self.inner.played_disputes(limit).await)
    }

    async fn dispute_applied(&self, dispute: &GatewayDispute) -> Result<(), PaymentError> {
        self.counted("dispute_applied", self.inner.dispute_applied(dispute).await)
    }
}
