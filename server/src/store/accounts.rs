//! What customers and professionals have in common: sign-in credentials, phone, SMS
//! choice and language. Their tables share these columns, so these queries serve both.

use chrono::{DateTime, Utc};
use sqlx::{AssertSqlSafe, PgExecutor, PgPool};
use uuid::Uuid;

use crate::domain::{Email, Language, Phone, Role, SmsUpdates};

/// A table of accounts that sign in with email and password.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum AccountKind {
    Customer,
    Professional,
}

impl AccountKind {
    fn table(self) -> &'static str {
        match self {
            AccountKind::Customer => "customers",
            AccountKind::Professional => "professionals",
        }
    }

    /// The role that signs in to this kind of account.
    pub fn role(self) -> Role {
        match self {
            AccountKind::Customer => Role::Customer,
            AccountKind::Professional => Role::Professional,
        }
    }

    /// The role's name in the tables that refer to either kind: `customer`, `professional`.
    pub fn as_str(self) -> &'static str {
        self.role().as_str()
    }
}

#[derive(Debug, sqlx::FromRow)]
pub struct Credentials {
    pub id: Uuid,
    pub password_hash: Option<String>,
}

/// Who to write to, and how.
#[derive(Debug, Clone, sqlx::FromRow)]
pub struct Contact {
    pub name: String,
    pub email: String,
    pub phone: Option<String>,
    pub phone_verified: bool,
    pub sms_updates: String,
    pub language: Language,
}

impl Contact {
    pub fn sms_updates(&self) -> SmsUpdates {
        SmsUpdates::from_code(&self.sms_updates).unwrap_or_default()
    }

    /// The phone to text updates to: verified, and the person asked for texts.
    pub fn texts_to(&self) -> Option<&str> {
        self.sms_updates()
            .texts_to(self.phone.as_deref(), self.phone_verified)
    }
}

/// Table names come from [`AccountKind`] only, never from input.
fn sql(kind: AccountKind, template: &str) -> AssertSqlSafe<String> {
    AssertSqlSafe(template.replace("{table}", kind.table()))
}

pub async fn insert(
    db: impl PgExecutor<'_>,
    kind: AccountKind,
    id: Uuid,
    name: &str,
    email: &Email,
    password_hash: Option<&str>,
    language: Language,
) -> sqlx::Result<()> {
    sqlx::query(sql(
        kind,
        "insert into {table} (id, name, email, password_hash, language) values ($1, $2, $3, $4, $5)",
    ))
    .bind(id)
    .bind(name)
    .bind(email.as_str())
    .bind(password_hash)
    .bind(language)
    .execute(db)
    .await?;
    Ok(())
}

pub async fn find_credentials(
    db: &PgPool,
    kind: AccountKind,
    email: &str,
) -> sqlx::Result<Option<Credentials>> {
    sqlx::query_as(sql(
        kind,
        "select id, password_hash from {table} where email = $1::citext",
    ))
    .bind(email.trim())
    .fetch_optional(db)
    .await
}

/// Whether the account's email was proven (link, provider or password reset).
pub async fn email_verified(db: &PgPool, kind: AccountKind, id: Uuid) -> sqlx::Result<bool> {
    let row: Option<(bool,)> = sqlx::query_as(sql(
        kind,
        "select email_verified_at is not null from {table} where id = $1",
    ))
    .bind(id)
    .fetch_optional(db)
    .await?;
    Ok(row.is_some_and(|(verified,)| verified))
}

/// Records that the account's email is proven, when it is still `email`.
pub async fn mark_email_verified(
    db: impl PgExecutor<'_>,
    kind: AccountKind,
    id: Uuid,
    email: &str,
) -> sqlx::Result<bool> {
    let done = sqlx::query(sql(
        kind,
        "update {table} set email_verified_at = coalesce(email_verified_at, now())
         where id = $1 and email = $2::citext",
    ))
    .bind(id)
    .bind(email)
    .execute(db)
    .await?;
    Ok(done.rows_affected() == 1)
}

pub async fn exists(db: &PgPool, kind: AccountKind, id: Uuid) -> sqlx::Result<bool> {
    let row: Option<(i32,)> = sqlx::query_as(sql(kind, "select 1 from {table} where id = $1"))
        .bind(id)
        .fetch_optional(db)
        .await?;
    Ok(row.is_some())
}

pub async fn contact(
    db: impl PgExecutor<'_>,
    kind: AccountKind,
    id: Uuid,
) -> sqlx::Result<Option<Contact>> {
    sqlx::query_as(sql(
        kind,
        "select name, email::text as email, phone, phone_verified, sms_updates, language from {table} where id = $1",
    ))
    .bind(id)
    .fetch_optional(db)
    .await
}

pub async fn set_password(
    db: &PgPool,
    kind: AccountKind,
    id: Uuid,
    password_hash: &str,
) -> sqlx::Result<bool> {
    let done = sqlx::query(sql(
        kind,
        "update {table} set password_hash = $2 where id = $1",
    ))
    .bind(id)
    .bind(password_hash)
    .execute(db)
    .await?;
    Ok(done.rows_affected() == 1)
}

pub async fn set_verified_phone(
    db: &PgPool,
    kind: AccountKind,
    id: Uuid,
    phone: &Phone,
) -> sqlx::Result<bool> {
    let done = sqlx::query(sql(
        kind,
        "update {table} set phone = $2, phone_verified = true where id = $1",
    ))
    .bind(id)
    .bind(phone.as_str())
    .execute(db)
    .await?;
    Ok(done.rows_affected() == 1)
}

pub async fn set_sms_updates(
    db: impl PgExecutor<'_>,
    kind: AccountKind,
    id: Uuid,
    choice: SmsUpdates,
) -> sqlx::Result<bool> {
    let done = sqlx::query(sql(
        kind,
        "update {table} set sms_updates = $2 where id = $1",
    ))
    .bind(id)
    .bind(choice.as_str())
    .execute(db)
    .await?;
    Ok(done.rows_affected() == 1)
}

/// A deleted account: when it was made, and the keys of the files it held, for the caller to
/// remove from storage.
pub struct Deleted {
    pub created_at: DateTime<Utc>,
    pub files: Vec<String>,
}

/// Deletes the account, in the caller's transaction; `None` when there is no such account.
/// The row is locked before the files are listed, so an upload under way (which locks it
/// too) is either listed or refused.
pub async fn delete(
    tx: &mut sqlx::PgConnection,
    kind: AccountKind,
    id: Uuid,
) -> sqlx::Result<Option<Deleted>> {
    let locked: Option<(DateTime<Utc>,)> = sqlx::query_as(sql(
        kind,
        "select created_at from {table} where id = $1 for update",
    ))
    .bind(id)
    .fetch_optional(&mut *tx)
    .await?;
    let Some((created_at,)) = locked else {
        return Ok(None);
    };
    let files: Vec<String> = match kind {
        AccountKind::Customer => Vec::new(),
        AccountKind::Professional => {
            sqlx::query_scalar(
                "select photo_key from professionals where id = $1 and photo_key is not null
                 union all
                 select file_key from licences where professional_id = $1",
            )
            .bind(id)
            .fetch_all(&mut *tx)
            .await?
        }
    };
    sqlx::query(sql(kind, "delete from {table} where id = $1"))
        .bind(id)
        .execute(&mut *tx)
        .await?;
    Ok(Some(Deleted { created_at, files }))
}

/// The accounts (of either kind, not erased) whose phone is `phone`, in E.164.
pub async fn with_phone(
    db: impl PgExecutor<'_>,
    phone: &str,
) -> sqlx::Result<Vec<(AccountKind, Uuid)>> {
    let rows: Vec<(String, Uuid)> = sqlx::query_as(
        "select 'customer', id from customers where phone = $1 and deleted_at is null
         union all
         select 'professional', id from professionals where phone = $1
         limit 20",
    )
    .bind(phone)
    .fetch_all(db)
    .await?;
    Ok(rows
        .into_iter()
        .map(|(kind, id)| {
            let kind = if kind == "customer" {
                AccountKind::Customer
            } else {
                AccountKind::Professional
            };
            (kind, id)
        })
        .collect())
}
