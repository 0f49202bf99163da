//! AccountsService's closing of one's own account and the link that keeps it
//! (`crate::accounts::closure`).

use repairs_proto::accounts as pb;
use tonic::Request;

use super::convert::{Reply, caller, language_to_proto, ok, role_to_proto, timestamp};
use crate::{
    accounts::closure::{self, Proof},
    state::AppState,
};

pub(super) async fn request(
    state: &AppState,
    request: Request<pb::RequestAccountDeletionRequest>,
) -> Reply<pb::RequestAccountDeletionResponse> {
    let who = caller(&request)?;
    let req = request.get_ref();
    let proof = Proof {
        password: &req.password,
        confirm_email: &req.confirm_email,
    };
    let closed = closure::close(state, &who, proof).await?;
    ok(pb::RequestAccountDeletionResponse {
        erase_after: Some(timestamp(closed.erase_after)),
        held_by_repair_request_ids: closed.held_by.iter().map(ToString::to_string).collect(),
    })
}

pub(super) async fn cancel(
    state: &AppState,
    request: Request<pb::CancelAccountDeletionRequest>,
) -> Reply<pb::CancelAccountDeletionResponse> {
    let (role, language) = closure::keep(state, &request.get_ref().token).await?;
    ok(pb::CancelAccountDeletionResponse {
        role: role_to_proto(role) as i32,
        language: language_to_proto(language) as i32,
    })
}
