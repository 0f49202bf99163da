//! Sign-up and sign-in with email and password, and the sessions they open
//! (`super::renewal`).

use std::time::Duration;

use uuid::Uuid;

use super::{
    account_kind,
    consents::{self, Arrival},
    email_counter_key,
    email_verification::{self, EmailProof, NewAccount},
    renewal::{self, NewSession},
};
use crate::{
    budgets::Budget,
    domain::{Email, NewPassword, PersonName, Role},
    error::{ApiError, ApiResult, ErrorReason, FieldViolation},
    state::AppState,
    store::{self, accounts},
};

/// A new account and its first session.
pub struct SignedUp {
    pub account_id: Uuid,
    pub session: NewSession,
}

pub async fn sign_up(
    state: &AppState,
    role: Role,
    name: &str,
    email: &str,
    password_text: &str,
    arrival: Arrival,
) -> ApiResult<SignedUp> {
    // Refuse a sign-up as admin before spending time on the hash.
    account_kind(role)?;
    let mut violations = Vec::new();
    let name = PersonName::parse(name)
        .map_err(|e| violations.push(FieldViolation::new("name", e)))
        .ok();
    let email = Email::parse(email)
        .map_err(|e| violations.push(FieldViolation::new("email", e.to_string())))
        .ok();
    let new_password = NewPassword::parse(password_text)
        .map_err(|e| violations.push(FieldViolation::new("password", e)))
        .ok();
    let (Some(name), Some(email), Some(new_password)) = (name, email, new_password) else {
        return Err(ApiError::invalid_fields(violations));
    };
    let hash = state.passwords.hash(new_password.into_inner()).await?;
    let (account_id, session) = create_account(
        state,
        role,
        &name,
        &email,
        Some(&hash),
        arrival,
        &EmailProof::Unproven,
    )
    .await?;
    Ok(SignedUp {
        account_id,
        session,
    })
}

/// Creates a customer or professional account and its first session; in the same
/// transaction, the email's proof or its verification link (see `email_verification`) and
/// the record of the terms it agreed to (`super::consents`).
pub(super) async fn create_account(
    state: &AppState,
    role: Role,
    name: &PersonName,
    email: &Email,
    password_hash: Option<&str>,
    arrival: Arrival,
    proof: &EmailProof<'_>,
) -> ApiResult<(Uuid, NewSession)> {
    let kind = account_kind(role)?;
    let language = arrival.language;
    let terms = consents::terms_version(state, language).await?;
    let account_id = Uuid::now_v7();
    let mut tx = crate::store::transaction::begin(&state.db).await?;
    accounts::insert(
        &mut *tx,
        kind,
        account_id,
        name.as_str(),
        email,
        password_hash,
        language,
    )
    .await?;
    let account = NewAccount {
        kind,
        id: account_id,
        name,
        email,
        language,
    };
    email_verification::on_new_account(&mut tx, state, &account, proof).await?;
    let source = match proof {
        EmailProof::Unproven => consents::Source::SignUp,
        EmailProof::Provider { .. } => consents::Source::SocialSignUp,
    };
    consents::record_terms(
        &mut tx,
        (kind, account_id),
        &terms,
        source,
        arrival.client.ip(),
    )
    .await?;
    tx.commit().await?;
    state.outbox.wake();
    Ok((account_id, renewal::open(state, account_id, role).await?))
}

/// A successful sign-in.
pub struct LoggedIn {
    pub account_id: Uuid,
    pub session: NewSession,
    /// Set for admins.
    pub admin: Option<AdminIdentity>,
}

pub struct AdminIdentity {
    pub name: String,
    pub email: String,
}

/// Sign-in tries allowed per role and email in a window, before further tries are refused.
pub const MAX_FAILED_LOG_INS: i64 = 10;
const FAILED_LOG_IN_WINDOW: Duration = Duration::from_secs(15 * 60);

/// Checks email and password, then opens a session.
pub async fn log_in(
    state: &AppState,
    role: Role,
    email: &str,
    password_text: &str,
) -> ApiResult<LoggedIn> {
    let (id, admin) = check_log_in(state, role, email, password_text).await?;
    Ok(LoggedIn {
        account_id: id,
        session: renewal::open(state, id, role).await?,
        admin,
    })
}

/// Checks email and password: the account (and, for an admin, who they are). Unknown email
/// and wrong password are the same failure, and take the same time (a dummy hash is verified
/// for unknown emails). Guessing is slowed by a limit of tries per email, counted for unknown
/// emails too so it tells nothing, and counted in Postgres (`crate::budgets`) so it holds
/// across replicas and while Redis is down.
pub async fn check_log_in(
    state: &AppState,
    role: Role,
    email: &str,
    password_text: &str,
) -> ApiResult<(Uuid, Option<AdminIdentity>)> {
    let email = Email::parse(email).map_err(|e| ApiError::invalid("email", e.to_string()))?;
    let tries = Budget {
        key: email_counter_key(&state.counter_key, "login-tries", role, &email),
        limit: MAX_FAILED_LOG_INS,
        window: FAILED_LOG_IN_WINDOW,
        reason: ErrorReason::LogInThrottled,
        message: "too many failed sign-ins with this email; try again in 15 minutes".to_owned(),
        says_renewal: false,
    };
    // Count this try before checking anything: concurrent guesses each take their own
    // number, and those past the limit are refused without a hash. A try whose password was
    // checked stays counted; one cut short by a failure of ours (the database, a full
    // hashing queue) is given back, as it tells the caller nothing.
    let spent = state.budgets.spend(std::slice::from_ref(&tries), 1).await?;
    let checked = spent
        .settle(check_password(state, role, &email, password_text).await)
        .await?;
    let Some((id, admin)) = checked else {
        return Err(ApiError::Unauthenticated {
            reason: ErrorReason::InvalidCredentials,
            message: "the email or the password is not right".to_owned(),
        });
    };
    // A failure to clear leaves the tries to run out with their window: no reason to refuse
    // a sign-in that was right.
    if let Err(error) = state.budgets.clear(&tries.key).await {
        tracing::warn!(%error, "sign-in tries not cleared");
    }
    Ok((id, admin))
}

/// The account whose password this is (and, for an admin, their name and email); `None` for
/// a wrong password or an unknown email.
async fn check_password(
    state: &AppState,
    role: Role,
    email: &Email,
    password_text: &str,
) -> ApiResult<Option<(Uuid, Option<AdminIdentity>)>> {
    // An admin's name and email come with the credentials: nothing else to load for them.
    let mut admin = None;
    let found = match role {
        Role::Admin => store::admins::find_by_email(&state.db, email.as_str())
            .await?
            .map(|row| {
                admin = Some(AdminIdentity {
                    name: row.name,
                    email: row.email,
                });
                (row.id, Some(row.password_hash))
            }),
        Role::Customer | Role::Professional => {
            accounts::find_credentials(&state.db, account_kind(role)?, email.as_str())
                .await?
                .map(|c| (c.id, c.password_hash))
        }
    };
    let (id, stored) = match found {
        Some((id, hash)) => (Some(id), hash),
        None => (None, None),
    };
    let matches = state
        .passwords
        .verify(password_text.to_owned(), stored)
        .await?;
    Ok(id.filter(|_| matches).map(|id| (id, admin)))
}
