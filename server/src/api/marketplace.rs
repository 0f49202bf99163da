//! MarketplaceService. No RPC is built yet: every method answers UNIMPLEMENTED.

use repairs_proto::marketplace::marketplace_service_server::MarketplaceService;

use crate::state::AppState;

pub struct MarketplaceApi {
    #[allow(dead_code, reason = "used by the handlers as they are built")]
    state: AppState,
}

impl MarketplaceApi {
    pub fn new(state: AppState) -> Self {
        Self { state }
    }
}

#[tonic::async_trait]
impl MarketplaceService for MarketplaceApi {}
