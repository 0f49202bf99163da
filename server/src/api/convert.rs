//! Conversions between proto messages and domain or store values, shared by the services.

use chrono::{DateTime, Utc};
use prost_types::Timestamp;
use repairs_proto::{accounts as pb, types};

use crate::{
    accounts::renewal::NewSession,
    domain::{AddressForm, Language, Role, SmsUpdates},
    error::{ApiError, ApiResult, ErrorReason},
};

pub fn timestamp(time: DateTime<Utc>) -> Timestamp {
    Timestamp {
        seconds: time.timestamp(),
        nanos: i32::try_from(time.timestamp_subsec_nanos()).unwrap_or(0),
    }
}

pub fn system_timestamp(time: std::time::SystemTime) -> Timestamp {
    timestamp(DateTime::<Utc>::from(time))
}

/// An address as typed, for the rules to check.
pub fn address_form(address: types::Address) -> AddressForm {
    AddressForm {
        line1: address.line1,
        line2: address.line2,
        city: address.city,
        province: address.province,
        postal_code: address.postal_code,
    }
}

pub fn role_from_proto(field: &str, value: i32) -> ApiResult<Role> {
    match pb::Role::try_from(value) {
        Ok(pb::Role::Customer) => Ok(Role::Customer),
        Ok(pb::Role::Professional) => Ok(Role::Professional),
        Ok(pb::Role::Admin) => Ok(Role::Admin),
        _ => Err(ApiError::invalid(
            field,
            "choose a customer, professional or admin account",
        )),
    }
}

pub fn role_to_proto(role: Role) -> pb::Role {
    match role {
        Role::Customer => pb::Role::Customer,
        Role::Professional => pb::Role::Professional,
        Role::Admin => pb::Role::Admin,
    }
}

/// An unspecified language means English, as for the old app's accounts.
pub fn language_from_proto(value: i32) -> Option<Language> {
    match types::Language::try_from(value) {
        Ok(types::Language::Fr) => Some(Language::French),
        Ok(types::Language::En) => Some(Language::English),
        _ => None,
    }
}

pub fn language_to_proto(language: Language) -> types::Language {
    match language {
        Language::English => types::Language::En,
        Language::French => types::Language::Fr,
    }
}

/// `None` for SMS_UPDATES_UNSPECIFIED ("leave unchanged").
pub fn sms_from_proto(value: i32) -> Option<SmsUpdates> {
    match pb::SmsUpdates::try_from(value) {
        Ok(pb::SmsUpdates::Yes) => Some(SmsUpdates::Yes),
        Ok(pb::SmsUpdates::No) => Some(SmsUpdates::No),
        Ok(pb::SmsUpdates::NotAsked) => Some(SmsUpdates::NotAsked),
        _ => None,
    }
}

pub fn sms_to_proto(choice: SmsUpdates) -> pb::SmsUpdates {
    match choice {
        SmsUpdates::NotAsked => pb::SmsUpdates::NotAsked,
        SmsUpdates::Yes => pb::SmsUpdates::Yes,
        SmsUpdates::No => pb::SmsUpdates::No,
    }
}

pub fn session(session: &NewSession) -> pb::Session {
    pb::Session {
        access_token: session.access.token.clone(),
        expire_time: Some(system_timestamp(session.access.expires_at)),
        role: role_to_proto(session.role) as i32,
        account_id: session.account_id.to_string(),
        refresh_token: session.refresh.as_str().to_owned(),
        refresh_expires_at: Some(timestamp(session.refresh_expires_at)),
    }
}

/// The caller the auth layer identified; RPCs that need one are listed for roles in the
/// access table, so a missing caller here is a table mistake, refused all the same.
pub fn caller<T>(request: &tonic::Request<T>) -> ApiResult<crate::auth::Caller> {
    request
        .extensions()
        .get::<crate::auth::Caller>()
        .copied()
        .ok_or_else(sign_in_required)
}

/// Who calls an RPC that the scope table opens to service accounts too.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Who {
    Person(crate::auth::Caller),
    Service(crate::auth::service::ServiceCaller),
}

/// The person or the service account the auth layer identified.
pub fn who<T>(request: &tonic::Request<T>) -> ApiResult<Who> {
    let extensions = request.extensions();
    if let Some(caller) = extensions.get::<crate::auth::Caller>() {
        return Ok(Who::Person(*caller));
    }
    extensions
        .get::<crate::auth::service::ServiceCaller>()
        .map(|service| Who::Service(*service))
        .ok_or_else(sign_in_required)
}

/// Who edits content, for its audit entry: the admin the access table let in, or a service
/// account with `content.write`.
pub fn editor<T>(request: &tonic::Request<T>) -> ApiResult<crate::store::audit::Actor> {
    use crate::{
        auth::{access, service::Scope},
        store::audit::Actor,
    };
    match who(request)? {
        Who::Person(admin) => Ok(Actor::Admin(admin.account_id)),
        Who::Service(service) => {
            access::service_may(&service, Scope::ContentWrite)?;
            Ok(Actor::Service(service.account_id))
        }
    }
}

fn sign_in_required() -> ApiError {
    ApiError::Unauthenticated {
        reason: ErrorReason::SignInRequired,
        message: "sign in to do this".to_owned(),
    }
}

/// The session the auth layer found current, for a live stream that must end with it.
pub fn caller_session<T>(
    request: &tonic::Request<T>,
) -> ApiResult<crate::auth::token::VerifiedToken> {
    request
        .extensions()
        .get::<crate::auth::token::VerifiedToken>()
        .copied()
        .ok_or_else(sign_in_required)
}

/// A time from a request field.
pub fn time_from_proto(field: &str, time: &Timestamp) -> ApiResult<DateTime<Utc>> {
    u32::try_from(time.nanos)
        .ok()
        .and_then(|nanos| DateTime::from_timestamp(time.seconds, nanos))
        .ok_or_else(|| ApiError::invalid(field, "this time is not valid"))
}

/// What every handler answers.
pub type Reply<T> = Result<tonic::Response<T>, tonic::Status>;

/// A handler's answer with `message`.
pub fn ok<T>(message: T) -> Reply<T> {
    Ok(tonic::Response::new(message))
}

/// A create call's client key (its `request_id`: a UUID made once per `what` and resent
/// unchanged on retry).
pub fn client_key(raw: &str, what: &str) -> crate::error::ApiResult<uuid::Uuid> {
    uuid::Uuid::parse_str(raw.trim()).map_err(|_| {
        crate::error::ApiError::invalid(
            "request_id",
            format!("send a request id (a UUID made once per {what} and resent on retry)"),
        )
    })
}

/// The ids of a repeated field, each parsed (INVALID_ARGUMENT on `field` otherwise).
pub fn ids(field: &str, raw: &[String]) -> crate::error::ApiResult<Vec<uuid::Uuid>> {
    raw.iter()
        .map(|id| crate::error::parse_id(field, id))
        .collect()
}
