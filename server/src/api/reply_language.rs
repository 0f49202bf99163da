//! The language of the texts the server writes into a reply (service names, ...): the one
//! the client asks for (the page's), else the caller's account language. Admins without a
//! choice read English.

use sqlx::PgPool;

use super::convert::language_from_proto;
use crate::{
    auth::Caller,
    domain::{Language, Role},
    error::ApiResult,
    store::accounts::{self as account_store, AccountKind},
};

/// `asked` is the request's `repairs.type.v1.Language` (unspecified: the account's).
pub async fn reply_language(db: &PgPool, caller: &Caller, asked: i32) -> ApiResult<Language> {
    if let Some(language) = language_from_proto(asked) {
        return Ok(language);
    }
    let kind = match caller.role {
        Role::Customer => AccountKind::Customer,
        Role::Professional => AccountKind::Professional,
        Role::Admin => return Ok(Language::English),
    };
    let contact = account_store::contact(db, kind, caller.account_id).await?;
    Ok(contact.map(|c| c.language).unwrap_or_default())
}
