//! ContentService. No RPC is built yet: every method answers UNIMPLEMENTED.

use repairs_proto::content::content_service_server::ContentService;

use crate::state::AppState;

pub struct ContentApi {
    #[allow(dead_code, reason = "used by the handlers as they are built")]
    state: AppState,
}

impl ContentApi {
    pub fn new(state: AppState) -> Self {
        Self { state }
    }
}

#[tonic::async_trait]
impl ContentService for ContentApi {}
