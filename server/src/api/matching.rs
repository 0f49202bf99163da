//! MatchingService. No RPC is built yet: every method answers UNIMPLEMENTED.

use repairs_proto::matching::matching_service_server::MatchingService;

use crate::state::AppState;

pub struct MatchingApi {
    #[allow(dead_code, reason = "used by the handlers as they are built")]
    state: AppState,
}

impl MatchingApi {
    pub fn new(state: AppState) -> Self {
        Self { state }
    }
}

#[tonic::async_trait]
impl MatchingService for MatchingApi {}
