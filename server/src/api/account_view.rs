//! Customers, audit filters and the account a request names, as the accounts contract
//! carries them.

use repairs_proto::accounts::{self as pb};

use super::convert::{language_to_proto, sms_to_proto, time_from_proto, timestamp};
use crate::{
    accounts::{self as rules, directory},
    auth::{Caller, access},
    state::AppState,
    store::accounts::AccountKind,
};
use crate::{
    domain::SmsUpdates,
    error::{ApiError, ApiResult, FieldViolation},
    store::{audit::AuditFilter, customers::CustomerRow},
};

pub(super) fn customer_to_proto(row: CustomerRow) -> pb::Customer {
    pb::Customer {
        id: row.id.to_string(),
        name: row.name,
        email: row.email,
        phone: row.phone.unwrap_or_default(),
        phone_verified: row.phone_verified,
        sms_updates: sms_to_proto(SmsUpdates::from_code(&row.sms_updates).unwrap_or_default())
            as i32,
        language: language_to_proto(row.language) as i32,
        create_time: Some(timestamp(row.created_at)),
    }
}

/// The audit log's filters, checked: ids are UUIDs, texts bounded, the range not empty.
pub(super) fn audit_filter(req: &pb::ListAuditEventsRequest) -> ApiResult<AuditFilter> {
    let mut violations = Vec::new();
    let mut text = |field: &'static str, value: &str| {
        let value = value.trim();
        if value.chars().count() > 100 {
            violations.push(FieldViolation::new(field, "at most 100 characters"));
        }
        value.to_owned()
    };
    let action = text("action", &req.action);
    let target_type = text("target_type", &req.target_type);
    let target_id = text("target_id", &req.target_id);
    let admin_id = match req.admin_id.trim() {
        "" => None,
        id => match uuid::Uuid::parse_str(id) {
            Ok(id) => Some(id),
            Err(_) => {
                violations.push(FieldViolation::new("admin_id", "this is not an account id"));
                None
            }
        },
    };
    let start = req
        .start_time
        .as_ref()
        .map(|t| time_from_proto("start_time", t))
        .transpose()?;
    let end = req
        .end_time
        .as_ref()
        .map(|t| time_from_proto("end_time", t))
        .transpose()?;
    if let (Some(start), Some(end)) = (start, end)
        && end <= start
    {
        violations.push(FieldViolation::new(
            "end_time",
            "the end must be after the start",
        ));
    }
    if !violations.is_empty() {
        return Err(ApiError::invalid_fields(violations));
    }
    Ok(AuditFilter {
        action,
        target_type,
        target_id,
        admin_id,
        start,
        end,
    })
}

/// A customer as the contract carries them.
pub(super) async fn customer(state: &AppState, id: uuid::Uuid) -> ApiResult<pb::Customer> {
    Ok(customer_to_proto(directory::customer(state, id).await?))
}

/// A professional with their licences and pending change, as the contract carries them.
pub(super) async fn professional(state: &AppState, id: uuid::Uuid) -> ApiResult<pb::Professional> {
    let (row, licences, pending) = directory::professional(state, id).await?;
    let mut professional = super::professional_view::to_proto(state, row, licences);
    professional.pending_change = pending.map(super::professional_view::pending_change_to_proto);
    Ok(professional)
}

/// The account a customer-or-professional RPC is about: the caller's own.
pub(super) fn own_account(
    caller: &Caller,
    account_id: &str,
) -> ApiResult<(AccountKind, uuid::Uuid)> {
    let id = access::own_or_given(caller, "account_id", account_id)?;
    Ok((rules::account_kind(caller.role)?, id))
}
