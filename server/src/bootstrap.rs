//! The first administrator: from ADMIN_EMAIL and ADMIN_PASSWORD at start, or from the
//! `create-admin` subcommand. Created once; an existing admin is left as it is.

use anyhow::{Context, bail};
use sqlx::PgPool;

use crate::{
    auth::password,
    domain::{Email, Language},
    store,
};

const MIN_PASSWORD_CHARS: usize = 8;

/// Creates an English-reading admin (see [`create_admin_in`]).
pub async fn create_admin(
    db: &PgPool,
    email: &str,
    name: &str,
    password: &str,
) -> anyhow::Result<bool> {
    create_admin_in(db, email, name, password, Language::English).await
}

/// Creates an admin who reads the product's emails in `language`; tells whether it was
/// created.
pub async fn create_admin_in(
    db: &PgPool,
    email: &str,
    name: &str,
    password: &str,
    language: Language,
) -> anyhow::Result<bool> {
    let email = Email::parse(email).context("admin email")?;
    if password.chars().count() < MIN_PASSWORD_CHARS {
        bail!("the admin password must have at least {MIN_PASSWORD_CHARS} characters");
    }
    let name = name.trim();
    if name.is_empty() || name.chars().count() > 100 {
        bail!("the admin name must have 1 to 100 characters");
    }
    let hash = password::PasswordHasher::single()
        .hash(password.to_owned())
        .await?;
    let created = store::admins::insert_if_missing(db, &email, name, &hash, language).await?;
    if created {
        tracing::info!(email = %email, "created admin");
    }
    Ok(created)
}

/// Creates the admin of ADMIN_EMAIL/ADMIN_PASSWORD if both are set.
pub async fn admin_from_config(db: &PgPool, config: &crate::config::Config) -> anyhow::Result<()> {
    match (&config.admin_email, &config.admin_password) {
        (Some(email), Some(password)) => {
            create_admin_in(db, email, "Administrator", password, config.admin_language).await?;
        }
        (Some(_), None) | (None, Some(_)) => {
            tracing::warn!("ADMIN_EMAIL and ADMIN_PASSWORD must both be set to create an admin")
        }
        (None, None) => {}
    }
    Ok(())
}
