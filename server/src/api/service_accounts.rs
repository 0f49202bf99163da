//! AccountsService's service-account calls (admins only, by the access table): decode, call
//! `crate::accounts::service_accounts`, encode. A key's text leaves the server only in the
//! answers of CreateServiceAccount and RotateServiceAccountKey.

use repairs_proto::accounts as pb;
use tonic::Request;

use super::convert::{Reply, caller, ok, timestamp};
use crate::{
    accounts::service_accounts::{self as rules, Listed},
    auth::service::shown_prefix,
    error::parse_id,
    state::AppState,
    store::page::PageRequest,
};

fn to_proto(listed: Listed) -> pb::ServiceAccount {
    let Listed { account, keys } = listed;
    let last_used = keys.iter().filter_map(|key| key.last_used_at).max();
    pb::ServiceAccount {
        id: account.id.to_string(),
        name: account.name,
        scopes: account.scopes,
        create_time: Some(timestamp(account.created_at)),
        created_by_email: account.created_by_email.unwrap_or_default(),
        last_used_time: last_used.map(timestamp),
        revoke_time: account.revoked_at.map(timestamp),
        keys: keys
            .into_iter()
            .map(|key| pb::ServiceAccountKey {
                key_prefix: shown_prefix(key.id),
                create_time: Some(timestamp(key.created_at)),
                expire_time: key.expires_at.map(timestamp),
                last_used_time: key.last_used_at.map(timestamp),
            })
            .collect(),
    }
}

pub(super) async fn create(
    state: &AppState,
    request: Request<pb::CreateServiceAccountRequest>,
) -> Reply<pb::CreateServiceAccountResponse> {
    let admin = caller(&request)?;
    let req = request.into_inner();
    let made = rules::create(state, &admin, &req.name, &req.scopes).await?;
    ok(pb::CreateServiceAccountResponse {
        service_account: Some(to_proto(made.listed)),
        key: made.key.text,
    })
}

pub(super) async fn list(
    state: &AppState,
    request: Request<pb::ListServiceAccountsRequest>,
) -> Reply<pb::ListServiceAccountsResponse> {
    let req = request.get_ref();
    let page = PageRequest::parse(req.page_size, &req.page_token)?;
    let (rows, next_page_token) = rules::list(state, &page).await?;
    ok(pb::ListServiceAccountsResponse {
        service_accounts: rows.into_iter().map(to_proto).collect(),
        next_page_token,
    })
}

pub(super) async fn rotate(
    state: &AppState,
    request: Request<pb::RotateServiceAccountKeyRequest>,
) -> Reply<pb::RotateServiceAccountKeyResponse> {
    let admin = caller(&request)?;
    let id = parse_id("id", &request.get_ref().id)?;
    let rotated = rules::rotate(state, &admin, id).await?;
    ok(pb::RotateServiceAccountKeyResponse {
        service_account: Some(to_proto(rotated.listed)),
        key: rotated.key.text,
    })
}

pub(super) async fn revoke(
    state: &AppState,
    request: Request<pb::RevokeServiceAccountRequest>,
) -> Reply<pb::RevokeServiceAccountResponse> {
    let admin = caller(&request)?;
    let id = parse_id("id", &request.get_ref().id)?;
    let revoked = rules::revoke(state, &admin, id).await?;
    ok(pb::RevokeServiceAccountResponse {
        service_account: Some(to_proto(revoked)),
    })
}
