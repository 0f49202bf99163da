//! The one place where failures become gRPC statuses. Every status carries a
//! `google.rpc.ErrorInfo` whose `reason` is a stable code the clients translate (English and
//! French), and invalid input carries `BadRequest` field violations; a refusal that ends by
//! itself after a known wait carries `RetryInfo` with that wait. Internal causes are logged
//! with their whole chain and never sent to the caller.
//!
//! Reasons are values of the contract's enum `repairs.errors.v1.ErrorReason`
//! (`proto/repairs/errors/v1/errors.proto`), so the server can send no other; their string on
//! the wire is made by the contract's crate (`ErrorReason::code`).

use tonic::{Code, Status};
use tonic_types::{ErrorDetails, StatusExt};

pub use repairs_proto::errors::ErrorReason;

/// `ErrorInfo.domain` of every error this server makes.
pub const ERROR_DOMAIN: &str = "repairs";

/// One field that failed validation.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct FieldViolation {
    /// The request field, in proto (snake_case) path form: `profile.radius_km`.
    pub field: String,
    /// What is wrong, for a person.
    pub description: String,
}

impl FieldViolation {
    pub fn new(field: impl Into<String>, description: impl Into<String>) -> Self {
        Self {
            field: field.into(),
            description: description.into(),
        }
    }
}

/// Collects every field's problem, so a form can show them all at once.
#[derive(Debug, Default)]
pub struct Violations(pub Vec<FieldViolation>);

impl Violations {
    /// The value, or `None` with the error recorded against `field`.
    pub fn check<T>(&mut self, field: &str, result: Result<T, String>) -> Option<T> {
        result
            .map_err(|e| self.0.push(FieldViolation::new(field, e)))
            .ok()
    }

    /// The value, or `None` with each part's error recorded against `{prefix}.{part}`
    /// (an address's `line1` under `draft.address`).
    pub fn check_parts<T>(
        &mut self,
        prefix: &str,
        result: Result<T, Vec<(&'static str, String)>>,
    ) -> Option<T> {
        result
            .map_err(|parts| {
                self.0.extend(
                    parts
                        .into_iter()
                        .map(|(part, e)| FieldViolation::new(format!("{prefix}.{part}"), e)),
                )
            })
            .ok()
    }
}

/// A failure a handler reports. `reason` is a value of the contract's [`ErrorReason`], stable
/// across versions.
#[derive(Debug, thiserror::Error)]
pub enum ApiError {
    #[error("{}", describe_violations(violations))]
    InvalidArgument {
        reason: ErrorReason,
        violations: Vec<FieldViolation>,
    },
    #[error("{message}")]
    Unauthenticated {
        reason: ErrorReason,
        message: String,
    },
    #[error("{message}")]
    PermissionDenied {
        reason: ErrorReason,
        message: String,
    },
    #[error("{message}")]
    NotFound {
        reason: ErrorReason,
        message: String,
    },
    #[error("{message}")]
    AlreadyExists {
        reason: ErrorReason,
        message: String,
    },
    #[error("{message}")]
    FailedPrecondition {
        reason: ErrorReason,
        message: String,
    },
    #[error("{message}")]
    ResourceExhausted {
        reason: ErrorReason,
        message: String,
    },
    /// RESOURCE_EXHAUSTED for a known while: asking again after `retry_after` succeeds (a
    /// resend wait). The wait travels as `google.rpc.RetryInfo`, so a client can count it down.
    #[error("{message}")]
    RetryLater {
        reason: ErrorReason,
        message: String,
        retry_after: std::time::Duration,
    },
    #[error("{message}")]
    Unavailable {
        reason: ErrorReason,
        message: String,
    },
    /// The call ran out of time on the server (its own limit or the client's deadline).
    #[error("{message}")]
    DeadlineExceeded {
        reason: ErrorReason,
        message: String,
    },
    /// Anything unexpected. Logged; the caller reads a generic message.
    #[error(transparent)]
    Internal(#[from] anyhow::Error),
}

pub type ApiResult<T> = Result<T, ApiError>;

fn describe_violations(violations: &[FieldViolation]) -> String {
    match violations {
        [only] => only.description.clone(),
        _ => "some fields are not valid".to_owned(),
    }
}

impl ApiError {
    pub fn invalid(field: impl Into<String>, description: impl Into<String>) -> Self {
        Self::invalid_fields(vec![FieldViolation::new(field, description)])
    }

    pub fn invalid_fields(violations: Vec<FieldViolation>) -> Self {
        Self::InvalidArgument {
            reason: ErrorReason::InvalidArgument,
            violations,
        }
    }

    fn code_and_reason(&self) -> (Code, ErrorReason) {
        match *self {
            Self::InvalidArgument { reason, .. } => (Code::InvalidArgument, reason),
            Self::Unauthenticated { reason, .. } => (Code::Unauthenticated, reason),
            Self::PermissionDenied { reason, .. } => (Code::PermissionDenied, reason),
            Self::NotFound { reason, .. } => (Code::NotFound, reason),
            Self::AlreadyExists { reason, .. } => (Code::AlreadyExists, reason),
            Self::FailedPrecondition { reason, .. } => (Code::FailedPrecondition, reason),
            Self::ResourceExhausted { reason, .. } | Self::RetryLater { reason, .. } => {
                (Code::ResourceExhausted, reason)
            }
            Self::Unavailable { reason, .. } => (Code::Unavailable, reason),
            Self::DeadlineExceeded { reason, .. } => (Code::DeadlineExceeded, reason),
            Self::Internal(_) => (Code::Internal, ErrorReason::Internal),
        }
    }

    /// The reason this error is sent with.
    pub fn reason(&self) -> ErrorReason {
        self.code_and_reason().1
    }

    /// What a person may read of this error: its message, or a generic one for an internal
    /// failure (whose cause goes to the logs only).
    fn public_message(&self) -> String {
        match self {
            Self::Internal(_) => "something went wrong on our side; please try again".to_owned(),
            other => other.to_string(),
        }
    }

    /// The reason code and the message the caller read, for records such as the audit log.
    pub fn summary(&self) -> String {
        format!("{}: {}", self.reason().code(), self.public_message())
    }
}

/// The answer when a record the caller named does not exist (or is not theirs to know of).
pub fn not_found(what: &str) -> ApiError {
    ApiError::NotFound {
        reason: ErrorReason::NotFound,
        message: format!("this {what} does not exist"),
    }
}

/// Parses an id from a request field.
pub fn parse_id(field: &str, raw: &str) -> ApiResult<uuid::Uuid> {
    uuid::Uuid::parse_str(raw.trim()).map_err(|_| ApiError::invalid(field, "this id is not valid"))
}

/// An internal failure caused, somewhere down its chain, by a database that could not serve
/// (a pool time-out inside a provider's or a task's `anyhow` error, say) is UNAVAILABLE,
/// retryable, as the database mapping says; anything else stays as it is.
fn unavailable_database_inside(error: ApiError) -> ApiError {
    match error {
        ApiError::Internal(cause)
            if cause
                .chain()
                .filter_map(|e| e.downcast_ref::<sqlx::Error>())
                .any(database_unavailable) =>
        {
            tracing::warn!(error = ?cause, "database unavailable");
            database_unavailable_error()
        }
        other => other,
    }
}

fn database_unavailable_error() -> ApiError {
    ApiError::Unavailable {
        reason: ErrorReason::DatabaseUnavailable,
        message: "the service is briefly unavailable; please try again in a moment".to_owned(),
    }
}

impl From<ApiError> for Status {
    fn from(error: ApiError) -> Self {
        let error = unavailable_database_inside(error);
        let (code, reason) = error.code_and_reason();
        debug_assert_ne!(reason, ErrorReason::Unspecified, "{error:?}");
        let mut details = ErrorDetails::with_error_info(reason.code(), ERROR_DOMAIN, []);
        if let ApiError::InvalidArgument { violations, .. } = &error {
            for v in violations {
                details.add_bad_request_violation(v.field.clone(), v.description.clone());
            }
        }
        if let ApiError::RetryLater { retry_after, .. } = &error {
            details.set_retry_info(Some(*retry_after));
        }
        if let ApiError::Internal(cause) = &error {
            tracing::error!(error = ?cause, "internal error");
        }
        let message = error.public_message();
        Status::with_error_details(code, message, details)
    }
}

/// Constraints a caller's request can break, by name (see `migrations/`), and what the
/// caller reads then. A violation of any other constraint is a mistake of ours: INTERNAL.
pub const CALLER_CONSTRAINTS: &[(&str, Code, ErrorReason, &str)] = &[
    (
        "customers_email_key",
        Code::AlreadyExists,
        ErrorReason::EmailTaken,
        "an account with this email already exists",
    ),
    (
        "professionals_email_key",
        Code::AlreadyExists,
        ErrorReason::EmailTaken,
        "an account with this email already exists",
    ),
    (
        "admins_email_key",
        Code::AlreadyExists,
        ErrorReason::EmailTaken,
        "an account with this email already exists",
    ),
    (
        "professional_services_service_id_fkey",
        Code::NotFound,
        ErrorReason::ServiceNotFound,
        "one of the chosen services does not exist",
    ),
    (
        "professional_services_professional_id_fkey",
        Code::NotFound,
        ErrorReason::NotFound,
        "this professional does not exist",
    ),
    (
        "licences_professional_id_fkey",
        Code::NotFound,
        ErrorReason::NotFound,
        "this professional does not exist",
    ),
    (
        "repair_requests_service_id_fkey",
        Code::NotFound,
        ErrorReason::ServiceNotFound,
        "the chosen service does not exist",
    ),
    (
        "coupons_code_key",
        Code::AlreadyExists,
        ErrorReason::CouponCodeTaken,
        "a coupon with this code already exists",
    ),
    (
        "professionals_denial_has_reason",
        Code::FailedPrecondition,
        ErrorReason::DenialNeedsReason,
        "give a reason when denying a professional",
    ),
    (
        "quotes_one_live_idx",
        Code::AlreadyExists,
        ErrorReason::QuoteExists,
        "you already have a quote on this request; withdraw it to send another",
    ),
    (
        "services_active_name_en_idx",
        Code::AlreadyExists,
        ErrorReason::ServiceNameTaken,
        "another service in the catalogue already has this English name",
    ),
    (
        "services_active_name_fr_idx",
        Code::AlreadyExists,
        ErrorReason::ServiceNameTaken,
        "another service in the catalogue already has this French name",
    ),
    (
        "reviews_one_per_request",
        Code::AlreadyExists,
        ErrorReason::ReviewExists,
        "this job was reviewed already",
    ),
];

/// SQLSTATEs that say the database cannot serve now (not that the query is wrong): class 08
/// (connection exception), shutting down or starting up, too many connections.
pub(crate) fn database_unavailable(error: &sqlx::Error) -> bool {
    match error {
        sqlx::Error::PoolTimedOut
        | sqlx::Error::PoolClosed
        | sqlx::Error::Io(_)
        | sqlx::Error::Tls(_)
        | sqlx::Error::WorkerCrashed => true,
        sqlx::Error::Database(db) => db.code().is_some_and(|code| {
            code.starts_with("08") || matches!(&*code, "57P01" | "57P02" | "57P03" | "53300")
        }),
        _ => false,
    }
}

/// Postgres refuses a NUL character in text (SQLSTATE 22021). Only a caller's input carries
/// one, through a field no check read as text first: the caller's mistake, told as such, and
/// logged for us to add the check.
fn nul_in_text(error: &sqlx::Error) -> bool {
    matches!(error, sqlx::Error::Database(db) if db.code().as_deref() == Some("22021"))
}

/// The one mapping of database errors: an unreachable or saturated database is UNAVAILABLE
/// (retryable), a caller's broken constraint is its own status, text the database cannot
/// hold INVALID_ARGUMENT, anything else INTERNAL.
impl From<sqlx::Error> for ApiError {
    fn from(error: sqlx::Error) -> Self {
        if database_unavailable(&error) {
            if matches!(error, sqlx::Error::PoolTimedOut) {
                crate::metrics::count_pool_timeout();
            }
            tracing::error!(%error, "database unavailable");
            return database_unavailable_error();
        }
        if nul_in_text(&error) {
            tracing::warn!(%error, "a NUL character reached the database: a field lacks its text check");
            return Self::invalid("request", "text may not contain NUL characters");
        }
        let constraint = match &error {
            sqlx::Error::Database(db) => db.constraint(),
            _ => None,
        };
        match CALLER_CONSTRAINTS
            .iter()
            .find(|(name, ..)| Some(*name) == constraint)
        {
            Some(&(_, code, reason, message)) => {
                let message = message.to_owned();
                match code {
                    Code::AlreadyExists => Self::AlreadyExists { reason, message },
                    Code::NotFound => Self::NotFound { reason, message },
                    _ => Self::FailedPrecondition { reason, message },
                }
            }
            None => Self::Internal(anyhow::Error::new(error).context("database query")),
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn field_violations_travel_in_the_status_details() {
        let status: Status = ApiError::invalid_fields(vec![
            FieldViolation::new("email", "enter a valid email address"),
            FieldViolation::new("password", "use at least 8 characters"),
        ])
        .into();
        assert_eq!(status.code(), Code::InvalidArgument);
        let bad = status.get_details_bad_request().unwrap();
        assert_eq!(bad.field_violations.len(), 2);
        assert_eq!(bad.field_violations[1].field, "password");
        let info = status.get_details_error_info().unwrap();
        assert_eq!(info.reason, "INVALID_ARGUMENT");
        assert_eq!(info.domain, ERROR_DOMAIN);
    }

    #[test]
    fn internal_errors_do_not_leak_their_cause() {
        let status: Status =
            ApiError::Internal(anyhow::anyhow!("relation \"admins\" does not exist")).into();
        assert_eq!(status.code(), Code::Internal);
        assert!(!status.message().contains("admins"));
    }

    #[test]
    fn an_unreachable_database_is_unavailable_not_internal() {
        for error in [sqlx::Error::PoolTimedOut, sqlx::Error::PoolClosed] {
            let status: Status = ApiError::from(error).into();
            assert_eq!(status.code(), Code::Unavailable);
            assert_eq!(
                status.get_details_error_info().unwrap().reason,
                "DATABASE_UNAVAILABLE"
            );
        }
        let status: Status = ApiError::from(sqlx::Error::RowNotFound).into();
        assert_eq!(status.code(), Code::Internal);
    }

    #[test]
    fn a_pool_time_out_deep_inside_an_internal_error_is_unavailable_too() {
        let inside = anyhow::Error::new(sqlx::Error::PoolTimedOut).context("sending payouts");
        let status: Status = ApiError::Internal(inside).into();
        assert_eq!(status.code(), Code::Unavailable);
        let other = anyhow::Error::new(sqlx::Error::RowNotFound).context("reading");
        let status: Status = ApiError::Internal(other).into();
        assert_eq!(status.code(), Code::Internal);
    }

    #[test]
    fn the_reason_code_is_kept() {
        let status: Status = ApiError::ResourceExhausted {
            reason: ErrorReason::PhoneCodeCooldown,
            message: "wait 30 seconds".into(),
        }
        .into();
        assert_eq!(status.code(), Code::ResourceExhausted);
        assert_eq!(
            status.get_details_error_info().unwrap().reason,
            "PHONE_CODE_COOLDOWN"
        );
        assert_eq!(status.message(), "wait 30 seconds");
        assert!(status.get_details_retry_info().is_none());
    }

    #[test]
    fn a_wait_travels_as_retry_info() {
        let status: Status = ApiError::RetryLater {
            reason: ErrorReason::PhoneCodeCooldown,
            message: "wait 24 seconds".into(),
            retry_after: std::time::Duration::from_secs(24),
        }
        .into();
        assert_eq!(status.code(), Code::ResourceExhausted);
        assert_eq!(
            status.get_details_error_info().unwrap().reason,
            "PHONE_CODE_COOLDOWN"
        );
        let retry = status.get_details_retry_info().unwrap();
        assert_eq!(retry.retry_delay, Some(std::time::Duration::from_secs(24)));
    }
}
