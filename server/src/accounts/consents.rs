//! Consents as records: what a person agreed to or withdrew, the version of the words they
//! were shown, when, and from where. Two subjects: the terms (agreed by signing up, whose
//! form says so) and text alerts (given or withdrawn each time the person turns their texts
//! on or off). Shown to the person beside what reaches them, and in their data export.

use std::net::IpAddr;

use sqlx::PgConnection;
use uuid::Uuid;

use crate::{
    domain::{ClientAddr, Language},
    error::ApiResult,
    state::AppState,
    store::{
        accounts::AccountKind,
        consents::{self as store, ConsentRow, NewConsent},
        page_texts,
    },
};

/// The version of the words beside the text-alert choices (web and apps): changed with them.
pub const SMS_ALERTS_VERSION: &str = "sms-alerts-2026-12";

/// How a new account arrives: its language and the client's address, for the record of the
/// terms it agreed to.
#[derive(Debug, Clone, Copy)]
pub struct Arrival {
    pub language: Language,
    pub client: ClientAddr,
}

/// Which form a consent was given on.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Source {
    SignUp,
    SocialSignUp,
    NotificationPreferences,
    SmsReply,
}

impl Source {
    fn as_str(self) -> &'static str {
        match self {
            Source::SignUp => "sign_up",
            Source::SocialSignUp => "social_sign_up",
            Source::NotificationPreferences => "notification_preferences",
            Source::SmsReply => "sms_reply",
        }
    }
}

/// The version of the terms a sign-up in `language` is shown now: the language and the
/// page's version (`0` for the built-in text), as admins edit it (`crate::content::pages`).
/// Read before the sign-up's transaction begins.
pub async fn terms_version(state: &AppState, language: Language) -> ApiResult<String> {
    let page = page_texts::read(&state.db, "terms", language).await?;
    Ok(format!("terms-{}-{}", language.as_str(), page.version))
}

/// Records the terms agreed to by the new account, in its sign-up's transaction.
pub async fn record_terms(
    tx: &mut PgConnection,
    (kind, id): (AccountKind, Uuid),
    version: &str,
    source: Source,
    client: Option<IpAddr>,
) -> ApiResult<()> {
    let consent = NewConsent {
        subject: "terms",
        version,
        given: true,
        source: source.as_str(),
        client_address: client,
    };
    Ok(store::insert(tx, kind, id, &consent).await?)
}

/// Records text alerts given (`on`) or withdrawn, in the transaction that changed them.
pub async fn record_sms_alerts(
    tx: &mut PgConnection,
    (kind, id): (AccountKind, Uuid),
    (on, source): (bool, Source),
    client: Option<IpAddr>,
) -> ApiResult<()> {
    let consent = NewConsent {
        subject: "sms_alerts",
        version: SMS_ALERTS_VERSION,
        given: on,
        source: source.as_str(),
        client_address: client,
    };
    Ok(store::insert(tx, kind, id, &consent).await?)
}

/// The person's consents, oldest first.
pub async fn of_account(
    state: &AppState,
    kind: AccountKind,
    id: Uuid,
) -> ApiResult<Vec<ConsentRow>> {
    Ok(store::of_account(&state.db, kind, id).await?)
}
