//! The one translation from a gRPC status (or a BFF-side refusal) to the legacy reply:
//! an HTTP status and `{ "msg": ..., "code"?: ..., "errors"?: [...] }`.

use std::error::Error as _;

use axum::Json;
use axum::response::{IntoResponse, Response};
use http::StatusCode;
use repairs_proto::errors::ErrorReason;
use serde::Serialize;
use tonic::{Code, Status};
use tonic_types::StatusExt;

/// A translated call's reply: legacy JSON, or a legacy error. A reply of one legacy record
/// names its type, so it is written straight from it rather than through a `Value`.
pub type Reply<T = serde_json::Value> = Result<Json<T>, ApiError>;

/// Shown for every failure whose details must stay on the server (the legacy UI's own wording).
const GENERIC_MSG: &str = "Something went wrong";

/// A legacy `/api` error reply.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct ApiError {
    status: StatusCode,
    body: ErrorBody,
}

#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
struct ErrorBody {
    /// `false` on calls whose legacy clients judge success by an `ok` flag (licence upload).
    #[serde(skip_serializing_if = "Option::is_none")]
    ok: Option<bool>,
    msg: String,
    /// The stable `google.rpc.ErrorInfo` reason, for clients that translate errors themselves.
    #[serde(skip_serializing_if = "Option::is_none")]
    code: Option<String>,
    /// `google.rpc.BadRequest` field violations of an invalid input.
    #[serde(skip_serializing_if = "Vec::is_empty")]
    errors: Vec<FieldError>,
}

/// One invalid field of a request.
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
pub struct FieldError {
    pub field: String,
    pub description: String,
}

impl ApiError {
    /// An error the BFF itself decides (unknown path, unreadable body, ...).
    pub fn new(status: StatusCode, msg: impl Into<String>) -> Self {
        let body = ErrorBody {
            ok: None,
            msg: msg.into(),
            code: None,
            errors: Vec::new(),
        };
        Self { status, body }
    }

    /// Names the reply's reason, as a server reason would.
    pub fn with_code(mut self, reason: ErrorReason) -> Self {
        self.body.code = Some(reason.code().to_owned());
        self
    }

    pub fn not_found() -> Self {
        Self::new(StatusCode::NOT_FOUND, "Not found")
    }

    pub fn status(&self) -> StatusCode {
        self.status
    }

    pub fn msg(&self) -> &str {
        &self.body.msg
    }

    pub fn code(&self) -> Option<&str> {
        self.body.code.as_deref()
    }

    pub fn errors(&self) -> &[FieldError] {
        &self.body.errors
    }

    /// Adds `"ok": false` to the reply, for the calls whose legacy clients read that flag.
    pub fn not_ok(mut self) -> Self {
        self.body.ok = Some(false);
        self
    }

    /// The same reply under another HTTP status (the phone-code overrides below).
    fn with_status(mut self, status: StatusCode) -> Self {
        self.status = status;
        self
    }
}

/// Legacy phone-code replies: the old clients switch on the HTTP status of these two calls
/// rather than reading an error, so their refusals keep the numbers the specs name instead of
/// the general mapping above. Sign-in problems (401/403), failures on the server (500) and a
/// server the BFF cannot reach keep their usual status: those are not refusals of the code.
pub mod phone_code {
    use super::{ApiError, Code, Status, StatusCode};
    use std::error::Error as _;

    /// `POST /api/sms/send-otp` and `resend-otp`: 200 means "code sent, go to the code step";
    /// the old screen shows the `msg` of a 202 and stays on the phone step. So every refusal
    /// (number not valid, 30 s cooldown, hourly limit, already verified, SMS not sent) is 202.
    pub fn send_refused(status: Status) -> ApiError {
        let refusal = status.source().is_none()
            && matches!(
                status.code(),
                Code::InvalidArgument
                    | Code::NotFound
                    | Code::AlreadyExists
                    | Code::FailedPrecondition
                    | Code::Aborted
                    | Code::OutOfRange
                    | Code::ResourceExhausted
                    | Code::Unavailable
            );
        let error = ApiError::from(status);
        if refusal {
            error.with_status(StatusCode::ACCEPTED)
        } else {
            error
        }
    }

    /// `POST /api/sms/verify-otp`: the old screen treats 400 as "wrong code" and 201 as "this
    /// code can no longer work" (expired, or too many tries: ask for a new one).
    pub fn verify_refused(status: Status) -> ApiError {
        let code = status.code();
        let error = ApiError::from(status);
        match code {
            Code::FailedPrecondition | Code::ResourceExhausted => {
                error.with_status(StatusCode::CREATED)
            }
            _ => error,
        }
    }
}

/// The HTTP status a legacy caller gets for a gRPC code.
///
/// FAILED_PRECONDITION is 409: the call was well-formed but the resource is in the wrong state
/// (a wrong transition, e.g. completing a request that was never hired), which is a conflict
/// with the current state rather than a malformed request.
pub fn http_status(code: Code) -> StatusCode {
    match code {
        Code::InvalidArgument => StatusCode::BAD_REQUEST,
        Code::Unauthenticated => StatusCode::UNAUTHORIZED,
        Code::PermissionDenied => StatusCode::FORBIDDEN,
        Code::NotFound => StatusCode::NOT_FOUND,
        Code::AlreadyExists | Code::FailedPrecondition | Code::Aborted => StatusCode::CONFLICT,
        Code::ResourceExhausted => StatusCode::TOO_MANY_REQUESTS,
        Code::Unimplemented => StatusCode::NOT_IMPLEMENTED,
        Code::Unavailable => StatusCode::SERVICE_UNAVAILABLE,
        Code::DeadlineExceeded => StatusCode::GATEWAY_TIMEOUT,
        Code::Ok
        | Code::Cancelled
        | Code::Unknown
        | Code::OutOfRange
        | Code::Internal
        | Code::DataLoss => StatusCode::INTERNAL_SERVER_ERROR,
    }
}

/// Wording for a status that came without a message a person should read.
fn default_msg(status: StatusCode) -> &'static str {
    match status {
        StatusCode::BAD_REQUEST => "Invalid request",
        StatusCode::UNAUTHORIZED => "Please sign in",
        StatusCode::FORBIDDEN => "Not allowed",
        StatusCode::NOT_FOUND => "Not found",
        StatusCode::CONFLICT => "Not possible in the current state",
        StatusCode::TOO_MANY_REQUESTS => "Too many attempts, please try again later",
        StatusCode::NOT_IMPLEMENTED => "Not available yet",
        StatusCode::SERVICE_UNAVAILABLE => "Service unavailable, please try again",
        StatusCode::GATEWAY_TIMEOUT => "The request took too long, please try again",
        _ => GENERIC_MSG,
    }
}

/// The HTTP status of a status the BFF's own connection made (it has a source): a server
/// that went away mid-call (stopping, or dying) leaves Unknown, Cancelled or Internal from
/// the broken connection, which is the server being unavailable, not a failure in it.
fn status_of(status: &Status) -> StatusCode {
    match status.code() {
        Code::Unknown | Code::Cancelled | Code::Internal if status.source().is_some() => {
            StatusCode::SERVICE_UNAVAILABLE
        }
        code => http_status(code),
    }
}

impl From<Status> for ApiError {
    fn from(status: Status) -> Self {
        let http = status_of(&status);
        if http == StatusCode::INTERNAL_SERVER_ERROR {
            tracing::error!(code = ?status.code(), message = status.message(), "gRPC call failed");
            return Self::new(http, GENERIC_MSG);
        }
        // A status with a source was made on this side (connection refused, timeout...): its
        // text is transport detail, not a message for a person. The server writes the others.
        let msg = if status.source().is_some() || status.message().is_empty() {
            tracing::warn!(code = ?status.code(), message = status.message(), "gRPC call failed");
            default_msg(http).to_owned()
        } else {
            status.message().to_owned()
        };
        let code = status
            .get_details_error_info()
            .map(|info| info.reason)
            .filter(|reason| !reason.is_empty());
        let http = match code.as_deref().and_then(ErrorReason::from_code) {
            // A refused card is the payer's to fix with another card, not a state conflict.
            Some(ErrorReason::PaymentDeclined) => StatusCode::PAYMENT_REQUIRED,
            // Too large a file is the upload's size, not a rate to wait out.
            Some(ErrorReason::FileTooLarge | ErrorReason::RequestTooLarge) => {
                StatusCode::PAYLOAD_TOO_LARGE
            }
            _ => http,
        };
        let errors = match status.code() {
            Code::InvalidArgument => status
                .get_details_bad_request()
                .map(|bad| bad.field_violations)
                .unwrap_or_default()
                .into_iter()
                .map(|violation| FieldError {
                    field: violation.field,
                    description: violation.description,
                })
                .collect(),
            _ => Vec::new(),
        };
        Self {
            status: http,
            body: ErrorBody {
                ok: None,
                msg,
                code,
                errors,
            },
        }
    }
}

impl IntoResponse for ApiError {
    fn into_response(self) -> Response {
        (self.status, Json(self.body)).into_response()
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use std::collections::HashMap;
    use tonic_types::{ErrorDetails, FieldViolation};

    #[test]
    fn every_code_has_its_http_status() {
        let expected = [
            (Code::Ok, 500),
            (Code::Cancelled, 500),
            (Code::Unknown, 500),
            (Code::InvalidArgument, 400),
            (Code::DeadlineExceeded, 504),
            (Code::NotFound, 404),
            (Code::AlreadyExists, 409),
            (Code::PermissionDenied, 403),
            (Code::ResourceExhausted, 429),
            (Code::FailedPrecondition, 409),
            (Code::Aborted, 409),
            (Code::OutOfRange, 500),
            (Code::Unimplemented, 501),
            (Code::Internal, 500),
            (Code::Unavailable, 503),
            (Code::DataLoss, 500),
            (Code::Unauthenticated, 401),
        ];
        // All 17 codes, each once.
        assert_eq!(expected.len(), 17);
        for (number, (code, http)) in expected.into_iter().enumerate() {
            assert_eq!(code as usize, number);
            assert_eq!(http_status(code).as_u16(), http, "{code:?}");
            let error = ApiError::from(Status::new(code, "Readable message"));
            assert_eq!(error.status().as_u16(), http, "{code:?}");
        }
    }

    #[test]
    fn a_call_cut_by_a_server_going_away_is_unavailable_not_a_failure() {
        let cut = std::io::Error::new(std::io::ErrorKind::ConnectionReset, "connection reset");
        let status = Status::from_error(Box::new(cut));
        assert_eq!(status.code(), Code::Unknown);
        let error = ApiError::from(status);
        assert_eq!(error.status(), StatusCode::SERVICE_UNAVAILABLE);
        assert_eq!(error.msg(), "Service unavailable, please try again");
        // The server's own failure stays a 500.
        let failed = ApiError::from(Status::internal("database said no"));
        assert_eq!(failed.status(), StatusCode::INTERNAL_SERVER_ERROR);
        assert_eq!(failed.msg(), GENERIC_MSG);
    }

    #[test]
    fn server_messages_pass_through_for_client_errors() {
        let error = ApiError::from(Status::not_found("Request not found"));
        assert_eq!(error.msg(), "Request not found");
        assert_eq!(error.code(), None);
        assert!(error.errors().is_empty());
    }

    #[test]
    fn internal_text_never_reaches_the_caller() {
        for status in [
            Status::internal("db: relation users does not exist"),
            Status::unknown("panic at store.rs:12"),
            Status::data_loss("disk"),
        ] {
            let error = ApiError::from(status);
            assert_eq!(error.status(), StatusCode::INTERNAL_SERVER_ERROR);
            assert_eq!(error.msg(), GENERIC_MSG);
        }
    }

    #[test]
    fn locally_made_statuses_use_the_default_message() {
        let io = std::io::Error::new(std::io::ErrorKind::ConnectionRefused, "tcp connect error");
        let mut status = Status::unavailable("tcp connect error 127.0.0.1:50051");
        status.set_source(std::sync::Arc::new(io));
        let error = ApiError::from(status);
        assert_eq!(error.status(), StatusCode::SERVICE_UNAVAILABLE);
        assert_eq!(error.msg(), default_msg(StatusCode::SERVICE_UNAVAILABLE));
        let empty = ApiError::from(Status::permission_denied(""));
        assert_eq!(empty.msg(), "Not allowed");
    }

    #[test]
    fn invalid_argument_lists_field_violations_and_reason() {
        let mut details = ErrorDetails::with_bad_request(vec![
            FieldViolation::new("email", "Enter a valid email"),
            FieldViolation::new("password", "At least 8 characters"),
        ]);
        details.set_error_info("INVALID_SIGN_UP", "repairs.accounts.v1", HashMap::new());
        let status = Status::with_error_details(Code::InvalidArgument, "Check the form", details);
        let error = ApiError::from(status);
        assert_eq!(error.status(), StatusCode::BAD_REQUEST);
        assert_eq!(error.msg(), "Check the form");
        assert_eq!(error.code(), Some("INVALID_SIGN_UP"));
        let fields: Vec<_> = error.errors().iter().map(|e| e.field.as_str()).collect();
        assert_eq!(fields, ["email", "password"]);
        let json = serde_json::to_value(&error.body).unwrap();
        assert_eq!(json["errors"][0]["description"], "Enter a valid email");
    }

    #[test]
    fn phone_code_refusals_keep_the_legacy_numbers() {
        use phone_code::{send_refused, verify_refused};
        for code in [
            Code::InvalidArgument,
            Code::FailedPrecondition,
            Code::ResourceExhausted,
            Code::Unavailable,
            Code::NotFound,
        ] {
            let error = send_refused(Status::new(code, "wait 30 seconds"));
            assert_eq!(error.status(), StatusCode::ACCEPTED, "{code:?}");
            assert_eq!(error.msg(), "wait 30 seconds");
        }
        for (code, http) in [
            (Code::Unauthenticated, 401),
            (Code::PermissionDenied, 403),
            (Code::Internal, 500),
        ] {
            assert_eq!(send_refused(Status::new(code, "x")).status().as_u16(), http);
        }
        // A server the BFF cannot reach is not a refusal of the number.
        let mut unreachable = Status::unavailable("tcp connect error");
        unreachable.set_source(std::sync::Arc::new(std::io::Error::other("refused")));
        assert_eq!(send_refused(unreachable).status().as_u16(), 503);

        for (code, http) in [
            (Code::InvalidArgument, 400),
            (Code::FailedPrecondition, 201),
            (Code::ResourceExhausted, 201),
            (Code::Unauthenticated, 401),
            (Code::PermissionDenied, 403),
        ] {
            let error = verify_refused(Status::new(code, "the code is not right"));
            assert_eq!(error.status().as_u16(), http, "{code:?}");
            assert_eq!(error.msg(), "the code is not right");
        }
    }

    #[test]
    fn some_reasons_have_their_own_status() {
        for (reason, code, http) in [
            // A declined card is the payer's to fix.
            ("PAYMENT_DECLINED", Code::FailedPrecondition, 402),
            // Too large a file, not too many tries.
            ("FILE_TOO_LARGE", Code::ResourceExhausted, 413),
        ] {
            let details = ErrorDetails::with_error_info(reason, "repairs", HashMap::new());
            let status = Status::with_error_details(code, "Readable message", details);
            let error = ApiError::from(status);
            assert_eq!(error.status().as_u16(), http, "{reason}");
            assert_eq!(error.msg(), "Readable message");
            assert_eq!(error.code(), Some(reason));
        }
    }

    #[test]
    fn not_ok_adds_the_flag() {
        let error = ApiError::from(Status::invalid_argument("not a PDF")).not_ok();
        let json = serde_json::to_value(&error.body).unwrap();
        assert_eq!(json, serde_json::json!({ "ok": false, "msg": "not a PDF" }));
    }

    #[test]
    fn a_reason_of_the_bff_is_written_as_the_server_writes_its_own() {
        let error = ApiError::new(StatusCode::PAYMENT_REQUIRED, "Use the payment page")
            .with_code(ErrorReason::PaymentRequiresAction);
        assert_eq!(error.code(), Some("PAYMENT_REQUIRES_ACTION"));
        assert_eq!(
            ErrorReason::from_code("PAYMENT_DECLINED"),
            Some(ErrorReason::PaymentDeclined)
        );
        assert_eq!(ErrorReason::from_code("SOMETHING_NEW"), None);
    }

    #[test]
    fn error_info_reason_is_the_code_for_other_statuses() {
        let details =
            ErrorDetails::with_error_info("EMAIL_TAKEN", "repairs.accounts.v1", HashMap::new());
        let status =
            Status::with_error_details(Code::AlreadyExists, "Email already registered", details);
        let error = ApiError::from(status);
        assert_eq!(error.status(), StatusCode::CONFLICT);
        assert_eq!(error.code(), Some("EMAIL_TAKEN"));
        let json = serde_json::to_value(&error.body).unwrap();
        assert_eq!(
            json,
            serde_json::json!({ "msg": "Email already registered", "code": "EMAIL_TAKEN" })
        );
    }
}
