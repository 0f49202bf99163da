//! AccountsService. No RPC is built yet: every method answers UNIMPLEMENTED.

use repairs_proto::accounts::accounts_service_server::AccountsService;

use crate::state::AppState;

pub struct AccountsApi {
    #[allow(dead_code, reason = "used by the handlers as they are built")]
    state: AppState,
}

impl AccountsApi {
    pub fn new(state: AppState) -> Self {
        Self { state }
    }
}

#[tonic::async_trait]
impl AccountsService for AccountsApi {}
