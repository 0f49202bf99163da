//! BillingService. No RPC is built yet: every method answers UNIMPLEMENTED.

use repairs_proto::billing::billing_service_server::BillingService;

use crate::state::AppState;

pub struct BillingApi {
    #[allow(dead_code, reason = "used by the handlers as they are built")]
    state: AppState,
}

impl BillingApi {
    pub fn new(state: AppState) -> Self {
        Self { state }
    }
}

#[tonic::async_trait]
impl BillingService for BillingApi {}
