//! Who may call each RPC. One row per method of every service; an RPC without a row is
//! refused (default deny). This table only knows roles; who may see or change the records an
//! RPC names (own account, own request) is ruled by [`super::access`].
//!
//! Each row also says whether the RPC writes anything. Every call by an admin to one that
//! does leaves one entry in the audit log: `tests/api/audit_trail.rs` calls each of them and
//! checks, so an admin RPC marked `WRITES` without an audit entry fails it, and one that
//! only reads must be marked `READS` here.

use crate::domain::Role;

mod scopes;
mod table;
pub use scopes::{SCOPED_RULES, scopes_for};
pub use table::SERVICES;

#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Access {
    /// No token needed (sign-up, public pages). A token, if sent and valid, still identifies
    /// the caller.
    Anyone,
    /// Only these roles.
    Roles(&'static [Role]),
}

use Role::{Admin, Customer, Professional};

const ANYONE: Access = Access::Anyone;
const CUSTOMER: Access = Access::Roles(&[Customer]);
const PROFESSIONAL: Access = Access::Roles(&[Professional]);
const ADMIN: Access = Access::Roles(&[Admin]);
const CUSTOMER_OR_PROFESSIONAL: Access = Access::Roles(&[Customer, Professional]);
const CUSTOMER_OR_ADMIN: Access = Access::Roles(&[Customer, Admin]);
const PROFESSIONAL_OR_ADMIN: Access = Access::Roles(&[Professional, Admin]);
const SIGNED_IN: Access = Access::Roles(&[Customer, Professional, Admin]);

/// Whether an RPC writes records (limit counters aside).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Effect {
    Reads,
    Writes,
}

const READS: Effect = Effect::Reads;
const WRITES: Effect = Effect::Writes;

/// One service's rules: its full name (`repairs.accounts.v1.AccountsService`) and
/// `(method, access, effect)` for each of its RPCs.
pub struct ServiceRules {
    pub service: &'static str,
    pub methods: &'static [(&'static str, Access, Effect)],
}

/// `(full method path, access, effect)` for every RPC the server offers.
pub fn rules() -> impl Iterator<Item = (String, Access, Effect)> {
    SERVICES.iter().flat_map(|rules| {
        rules.methods.iter().map(move |(method, access, effect)| {
            (format!("/{}/{method}", rules.service), *access, *effect)
        })
    })
}

/// The RPCs that admins call to change something: each call writes one audit entry.
pub fn audited_admin_rpcs() -> impl Iterator<Item = String> {
    rules()
        .filter(|(_, access, effect)| {
            *effect == Effect::Writes
                && matches!(access, Access::Roles(roles) if roles.contains(&Admin))
        })
        .map(|(path, ..)| path)
}

/// The rule for a request path (`/package.Service/Method`), if there is one.
pub fn access_for(path: &str) -> Option<Access> {
    let (service, method) = path.strip_prefix('/')?.split_once('/')?;
    SERVICES
        .iter()
        .find(|rules| rules.service == service)?
        .methods
        .iter()
        .find(|(m, ..)| *m == method)
        .map(|(_, access, _)| *access)
}

#[cfg(test)]
mod tests;
