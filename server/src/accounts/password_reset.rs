//! Password reset: a random single-use token, valid one hour, sent as a link by email. Only
//! its SHA-256 is stored. Asking answers the same whether or not the email has an account.

use base64::Engine;
use chrono::{Duration, Utc};
use rand::RngCore;
use sha2::{Digest, Sha256};
use uuid::Uuid;

use super::{account_kind, parse_id};
use crate::{
    domain::{Language, NewPassword, Role},
    error::{ApiError, ApiResult},
    providers::EmailMessage,
    state::AppState,
    store::{accounts, password_resets},
};

const VALID_FOR: Duration = Duration::hours(1);

fn token_hash(token: &str) -> Vec<u8> {
    Sha256::digest(token.trim().as_bytes()).to_vec()
}

/// The page of the web app that opens a reset link, by role.
fn link_path(role: Role) -> &'static str {
    match role {
        Role::Professional => "prof-reset-password",
        Role::Customer | Role::Admin => "reset-password",
    }
}

pub async fn request(state: &AppState, role: Role, email: &str) -> ApiResult<()> {
    let kind = account_kind(role)?;
    let Some(account) = accounts::find_credentials(&state.db, kind, email).await? else {
        tracing::info!("password reset asked for an unknown email");
        return Ok(());
    };
    let Some(contact) = accounts::contact(&state.db, kind, account.id).await? else {
        return Ok(());
    };
    let mut raw = [0u8; 32];
    rand::thread_rng().fill_bytes(&mut raw);
    let token = base64::engine::general_purpose::URL_SAFE_NO_PAD.encode(raw);
    password_resets::insert(
        &state.db,
        kind,
        account.id,
        &token_hash(&token),
        Utc::now() + VALID_FOR,
    )
    .await?;

    let link = format!(
        "{}/{}/{}/{token}",
        state.config.public_url.trim_end_matches('/'),
        link_path(role),
        account.id
    );
    let message = match contact.language() {
        Language::French => EmailMessage {
            to: contact.email.clone(),
            subject: "Réinitialiser votre mot de passe".into(),
            body: format!(
                "Bonjour {},\n\nPour choisir un nouveau mot de passe, ouvrez ce lien dans l'heure :\n{link}\n\nSi vous n'avez rien demandé, ignorez ce message.",
                contact.name
            ),
        },
        Language::English => EmailMessage {
            to: contact.email.clone(),
            subject: "Reset your password".into(),
            body: format!(
                "Hello {},\n\nTo choose a new password, open this link within the hour:\n{link}\n\nIf you did not ask for this, ignore this message.",
                contact.name
            ),
        },
    };
    // A failed send is logged, not reported: the reply must not differ for known emails.
    if let Err(error) = state.email.send(&message).await {
        tracing::error!(error = ?error, "could not send a password reset email");
    }
    Ok(())
}

pub async fn check(state: &AppState, role: Role, account_id: &str, token: &str) -> ApiResult<bool> {
    let kind = account_kind(role)?;
    let Ok(account_id) = Uuid::parse_str(account_id.trim()) else {
        return Ok(false);
    };
    Ok(password_resets::is_usable(&state.db, kind, account_id, &token_hash(token)).await?)
}

pub async fn reset(
    state: &AppState,
    role: Role,
    account_id: &str,
    token: &str,
    new_password: &str,
) -> ApiResult<()> {
    let kind = account_kind(role)?;
    let account_id = parse_id("account_id", account_id)?;
    let new_password =
        NewPassword::parse(new_password).map_err(|e| ApiError::invalid("new_password", e))?;
    if token.trim().is_empty() {
        return Err(ApiError::invalid(
            "token",
            "open the link from the email to reset your password",
        ));
    }
    let hash = state.passwords.hash(new_password.into_inner()).await?;
    if password_resets::redeem(&state.db, kind, account_id, &token_hash(token), &hash).await? {
        state.sessions.refresh(role, account_id).await;
        Ok(())
    } else {
        Err(ApiError::FailedPrecondition {
            reason: "RESET_LINK_EXPIRED",
            message: "this reset link has expired or was already used; ask for a new one"
                .to_owned(),
        })
    }
}
