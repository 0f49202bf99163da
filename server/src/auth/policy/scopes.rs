//! Which scopes of a service account each RPC accepts, beside the role table (which only
//! knows people). An RPC without a row here refuses every service account
//! (PERMISSION_DENIED `SERVICE_SCOPE_MISSING`), public RPCs aside: default deny, as for roles.
//!
//! Each row opens to a scope what the RPC shows or does for an admin, and only that: a scope
//! reaches another account's private data only through the rows below. A service account
//! passes the rules of `auth::access` only where they name its scope too.

use crate::auth::service::Scope::{self, AuditRead, ContentWrite, OrdersRead, RequestsRead};

/// `(full method path, scopes any one of which lets a service account call it)`.
pub const SCOPED_RULES: &[(&str, &[Scope])] = &[
    // Reporting.
    (
        "/repairs.billing.v1.BillingService/ListOrders",
        &[OrdersRead],
    ),
    (
        "/repairs.marketplace.v1.MarketplaceService/ListRepairRequests",
        &[RequestsRead],
    ),
    // The content service's edits.
    (
        "/repairs.content.v1.ContentService/CreateService",
        &[ContentWrite],
    ),
    (
        "/repairs.content.v1.ContentService/UpdateService",
        &[ContentWrite],
    ),
    (
        "/repairs.content.v1.ContentService/DeleteService",
        &[ContentWrite],
    ),
    (
        "/repairs.content.v1.ContentService/ReorderServices",
        &[ContentWrite],
    ),
    (
        "/repairs.content.v1.ContentService/UpdateHomePage",
        &[ContentWrite],
    ),
    (
        "/repairs.content.v1.ContentService/UpdateProfessionalPage",
        &[ContentWrite],
    ),
    (
        "/repairs.content.v1.ContentService/UpdateLegalPage",
        &[ContentWrite],
    ),
    // The audit log.
    (
        "/repairs.accounts.v1.AccountsService/ListAuditEvents",
        &[AuditRead],
    ),
];

/// The scopes a service account needs one of to call `path`; empty when none may.
pub fn scopes_for(path: &str) -> &'static [Scope] {
    SCOPED_RULES
        .iter()
        .find(|(p, _)| *p == path)
        .map_or(&[], |(_, scopes)| scopes)
}
