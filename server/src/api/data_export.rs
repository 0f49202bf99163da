//! AccountsService's copies of one person's data (`crate::accounts::export`).

use repairs_proto::accounts as pb;
use tonic::Request;

use super::convert::{Reply, caller, ok, role_from_proto, timestamp};
use crate::{
    accounts::{
        account_kind,
        export::{self, Whose},
    },
    auth::Caller,
    error::{ApiResult, parse_id},
    state::AppState,
    store::data_exports::ExportRow,
};

fn to_proto(row: ExportRow, download_url: Option<String>) -> pb::DataExport {
    let state = match row.state.as_str() {
        "preparing" => pb::DataExportState::Preparing,
        "ready" => pb::DataExportState::Ready,
        "failed" => pb::DataExportState::Failed,
        _ => pb::DataExportState::Expired,
    };
    pb::DataExport {
        id: row.id.to_string(),
        state: state as i32,
        requested_at: Some(timestamp(row.requested_at)),
        ready_at: row.ready_at.map(timestamp),
        expires_at: row.expires_at.map(timestamp),
        size_bytes: row.size_bytes.unwrap_or_default(),
        download_url: download_url.unwrap_or_default(),
        requested_by_admin: row.requested_by_admin.is_some(),
    }
}

/// Whose data a call names: the caller's own (`account_id` empty), or an admin's person.
fn whose(who: &Caller, account_id: &str, role: i32) -> ApiResult<Whose> {
    let id = match account_id {
        "" => None,
        given => Some(parse_id("account_id", given)?),
    };
    let kind = match role {
        0 => None,
        given => Some(account_kind(role_from_proto("role", given)?)?),
    };
    export::whose(who, kind, id)
}

pub(super) async fn request(
    state: &AppState,
    request: Request<pb::RequestDataExportRequest>,
) -> Reply<pb::RequestDataExportResponse> {
    let who = caller(&request)?;
    let req = request.get_ref();
    let whose = whose(&who, &req.account_id, req.role)?;
    let export = export::request(state, whose).await?;
    ok(pb::RequestDataExportResponse {
        export: Some(to_proto(export, None)),
    })
}

pub(super) async fn get(
    state: &AppState,
    request: Request<pb::GetDataExportRequest>,
) -> Reply<pb::GetDataExportResponse> {
    let who = caller(&request)?;
    let req = request.get_ref();
    let whose = whose(&who, &req.account_id, req.role)?;
    let latest = export::latest(state, whose).await?;
    ok(pb::GetDataExportResponse {
        export: latest.map(|(export, link)| to_proto(export, link)),
    })
}
