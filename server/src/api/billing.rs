//! BillingService: decode, authorise the record, call `crate::billing`, encode. Built so
//! far: the payment configuration and Stripe's webhook; the other methods answer
//! UNIMPLEMENTED until their rules land.

use repairs_proto::billing::{self as pb, billing_service_server::BillingService};
use tonic::{Request, Response, Status};

use crate::{
    billing::{Ledger, stripe_events},
    providers::payments::GatewayKind,
    state::AppState,
};

pub struct BillingApi {
    state: AppState,
}

impl BillingApi {
    pub fn new(state: AppState) -> Self {
        Self { state }
    }

    fn ledger(&self) -> Ledger {
        Ledger::new(self.state.db.clone(), self.state.payments.clone())
    }
}

type Reply<T> = Result<Response<T>, Status>;

#[tonic::async_trait]
impl BillingService for BillingApi {
    async fn get_payment_config(
        &self,
        _request: Request<pb::GetPaymentConfigRequest>,
    ) -> Reply<pb::GetPaymentConfigResponse> {
        let (mode, key) = match self.state.payments.kind() {
            GatewayKind::Test => (pb::PaymentMode::TestGateway, String::new()),
            GatewayKind::Stripe => (
                pb::PaymentMode::Stripe,
                self.state
                    .config
                    .stripe_publishable_key
                    .clone()
                    .unwrap_or_default(),
            ),
        };
        Ok(Response::new(pb::GetPaymentConfigResponse {
            mode: mode as i32,
            stripe_publishable_key: key,
        }))
    }

    async fn handle_stripe_event(
        &self,
        request: Request<pb::HandleStripeEventRequest>,
    ) -> Reply<pb::HandleStripeEventResponse> {
        let req = request.into_inner();
        let handled = stripe_events::handle(
            &self.ledger(),
            self.state.config.stripe_webhook_secret.as_deref(),
            &req.payload,
            &req.signature,
            chrono::Utc::now().timestamp(),
        )
        .await
        .map_err(crate::error::ApiError::from)?;
        Ok(Response::new(pb::HandleStripeEventResponse {
            event_id: handled.event_id,
            processed: handled.processed,
        }))
    }
}
