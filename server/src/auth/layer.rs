//! The tower layer in front of every service: finds the RPC's access rule, checks the bearer
//! token and that its session was not ended (see [`super::revocation`]), and puts the
//! [`Caller`](super::Caller) (and its whole session, a [`VerifiedToken`], for live streams) into the
//! request's extensions for handlers to read. Refusals never reach a handler.
//!
//! A bearer token that is a service account's key (`rsk_...`, [`super::service`]) is checked
//! as one instead: the RPC's scope rule ([`super::policy::scopes_for`]) must name one of its
//! scopes, the call is counted against the account's limit before it goes on, and a
//! [`ServiceCaller`] (never a [`Caller`](super::Caller)) goes into the extensions. Each such
//! call is counted in the metrics under its account.

use std::{
    sync::Arc,
    task::{Context, Poll},
};

use futures::future::BoxFuture;
use tonic::Status;
use tower::{Layer, Service};

use super::{
    TokenKeys,
    policy::{Access, access_for, scopes_for},
    revocation::SessionVersions,
    service::{ServiceCaller, ServiceKeys, is_service_key},
    token::VerifiedToken,
};
use crate::{
    error::{ApiError, ErrorReason},
    metrics::Metrics,
};

/// What checks service accounts' calls.
#[derive(Clone)]
pub struct ServiceAuth {
    pub keys: ServiceKeys,
    pub metrics: Metrics,
}

#[derive(Clone)]
pub struct AuthLayer {
    keys: Arc<TokenKeys>,
    versions: SessionVersions,
    services: ServiceAuth,
}

impl AuthLayer {
    pub fn new(keys: Arc<TokenKeys>, versions: SessionVersions, services: ServiceAuth) -> Self {
        Self {
            keys,
            versions,
            services,
        }
    }
}

impl<S> Layer<S> for AuthLayer {
    type Service = AuthService<S>;
    fn layer(&self, inner: S) -> Self::Service {
        AuthService {
            inner,
            keys: self.keys.clone(),
            versions: self.versions.clone(),
            services: self.services.clone(),
        }
    }
}

#[derive(Clone)]
pub struct AuthService<S> {
    inner: S,
    keys: Arc<TokenKeys>,
    versions: SessionVersions,
    services: ServiceAuth,
}

/// A call the access table lets through with a good token, before the token's version is
/// compared with its account's.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Admitted {
    pub token: VerifiedToken,
    /// The RPC is open to anyone: an ended session makes it anonymous instead of refused.
    pub public: bool,
}

/// The token of an `authorization: Bearer <token>` header.
fn bearer(authorization: Option<&str>) -> Option<&str> {
    authorization.and_then(|value| {
        value
            .strip_prefix("Bearer ")
            .or_else(|| value.strip_prefix("bearer "))
            .map(str::trim)
    })
}

/// Decides from the access table and the token alone whether a call may go on, and as whom.
pub fn authorize(
    keys: &TokenKeys,
    path: &str,
    authorization: Option<&str>,
) -> Result<Option<Admitted>, ApiError> {
    let access = access_for(path).ok_or_else(|| ApiError::PermissionDenied {
        reason: ErrorReason::NoAccessRule,
        message: format!("{path} is not open to any caller"),
    })?;
    let token = bearer(authorization);
    let verified = token.map(|t| keys.verify(t));
    match access {
        // A public call with a stale token is still a public call.
        Access::Anyone => Ok(verified.and_then(Result::ok).map(|token| Admitted {
            token,
            public: true,
        })),
        Access::Roles(roles) => match verified {
            None => Err(ApiError::Unauthenticated {
                reason: ErrorReason::SignInRequired,
                message: "sign in to do this".to_owned(),
            }),
            Some(Err(error)) => Err(error.into()),
            Some(Ok(token)) if roles.contains(&token.caller.role) => Ok(Some(Admitted {
                token,
                public: false,
            })),
            Some(Ok(token)) => Err(ApiError::PermissionDenied {
                reason: ErrorReason::RoleNotAllowed,
                message: format!("{} cannot do this", token.caller.role.account_phrase()),
            }),
        },
    }
}

/// The service account a call with a service key goes on as: `None` for a public RPC whose
/// key is refused (it goes on anonymously, as with a stale session token).
async fn admit_service(
    services: &ServiceAuth,
    path: &str,
    key: &str,
) -> Result<Option<ServiceCaller>, ApiError> {
    let access = access_for(path).ok_or_else(|| ApiError::PermissionDenied {
        reason: ErrorReason::NoAccessRule,
        message: format!("{path} is not open to any caller"),
    })?;
    let caller = match (services.keys.check(key).await, access) {
        (Ok(caller), _) => caller,
        (Err(_), Access::Anyone) => return Ok(None),
        (Err(error), Access::Roles(_)) => return Err(error),
    };
    let metrics = &services.metrics;
    let scopes = scopes_for(path);
    if access != Access::Anyone && !caller.scopes.any_of(scopes) {
        metrics.count_service_call(caller.account_id, path, "scope_missing");
        let names: Vec<&str> = scopes.iter().map(|s| s.as_str()).collect();
        return Err(ApiError::PermissionDenied {
            reason: ErrorReason::ServiceScopeMissing,
            message: if names.is_empty() {
                "no service account may call this".to_owned()
            } else {
                format!(
                    "this service account needs the scope {}",
                    names.join(" or ")
                )
            },
        });
    }
    if let Err(error) = services.keys.count_call(&caller).await {
        metrics.count_service_call(caller.account_id, path, "rate_limited");
        return Err(error);
    }
    metrics.count_service_call(caller.account_id, path, "admitted");
    tracing::info!(service_account = %caller.account_id, key = %caller.key_id, "service call");
    Ok(Some(caller))
}

/// The session an admitted token opens, once it is known to be current.
async fn current_session(
    versions: &SessionVersions,
    admitted: Option<Admitted>,
) -> Result<Option<VerifiedToken>, ApiError> {
    let Some(admitted) = admitted else {
        return Ok(None);
    };
    match versions.check(&admitted.token).await {
        Ok(()) => Ok(Some(admitted.token)),
        // A public call with an ended session, or one that cannot be checked just now, goes
        // on as an anonymous call.
        Err(_) if admitted.public => Ok(None),
        Err(error) => Err(error),
    }
}

impl<S, ReqBody, ResBody> Service<http::Request<ReqBody>> for AuthService<S>
where
    S: Service<http::Request<ReqBody>, Response = http::Response<ResBody>> + Clone + Send + 'static,
    S::Future: Send + 'static,
    ReqBody: Send + 'static,
    ResBody: Default,
{
    type Response = S::Response;
    type Error = S::Error;
    type Future = BoxFuture<'static, Result<Self::Response, Self::Error>>;

    fn poll_ready(&mut self, cx: &mut Context<'_>) -> Poll<Result<(), Self::Error>> {
        self.inner.poll_ready(cx)
    }

    fn call(&mut self, mut request: http::Request<ReqBody>) -> Self::Future {
        let authorization = request
            .headers()
            .get(http::header::AUTHORIZATION)
            .and_then(|v| v.to_str().ok());
        // The service that was polled ready goes with this call; its clone stays for the next.
        let clone = self.inner.clone();
        let mut inner = std::mem::replace(&mut self.inner, clone);
        if let Some(key) = bearer(authorization).filter(|t| is_service_key(t)) {
            let key = key.to_owned();
            let services = self.services.clone();
            return Box::pin(async move {
                let path = request.uri().path().to_owned();
                match admit_service(&services, &path, &key).await {
                    Ok(caller) => {
                        if let Some(caller) = caller {
                            request.extensions_mut().insert(caller);
                        }
                        inner.call(request).await
                    }
                    Err(error) => {
                        let status: Status = error.into();
                        Ok(status.into_http())
                    }
                }
            });
        }
        let admitted = authorize(&self.keys, request.uri().path(), authorization);
        let versions = self.versions.clone();
        Box::pin(async move {
            let session = match admitted {
                Ok(admitted) => current_session(&versions, admitted).await,
                Err(error) => Err(error),
            };
            match session {
                Ok(session) => {
                    if let Some(session) = session {
                        // The whole session too, for live streams that must end with it.
                        request.extensions_mut().insert(session.caller);
                        request.extensions_mut().insert(session);
                    }
                    inner.call(request).await
                }
                Err(error) => {
                    let status: Status = error.into();
                    Ok(status.into_http())
                }
            }
        })
    }
}

#[cfg(test)]
mod tests {
    use std::time::Duration;

    use uuid::Uuid;

    use super::*;
    use crate::{auth::Caller, domain::Role};

    fn keys() -> TokenKeys {
        TokenKeys::new(
            b"layer-test-secret-layer-test-secret",
            Duration::from_secs(3600),
            Duration::from_secs(3600),
        )
    }

    fn bearer(keys: &TokenKeys, role: Role) -> String {
        let caller = Caller {
            account_id: Uuid::now_v7(),
            role,
        };
        format!("Bearer {}", keys.issue(caller, 0).unwrap().token)
    }

    const ADMIN_ONLY: &str = "/repairs.accounts.v1.AccountsService/ListCustomers";
    const PUBLIC: &str = "/repairs.content.v1.ContentService/ListServices";

    #[test]
    fn a_refusal_names_the_callers_kind_of_account_with_its_article() {
        const CUSTOMER_OR_PROFESSIONAL: &str = "/repairs.accounts.v1.AccountsService/SendPhoneCode";
        let keys = keys();
        for (role, path, message) in [
            (
                Role::Customer,
                ADMIN_ONLY,
                "a customer account cannot do this",
            ),
            (
                Role::Professional,
                ADMIN_ONLY,
                "a professional account cannot do this",
            ),
            (
                Role::Admin,
                CUSTOMER_OR_PROFESSIONAL,
                "an admin account cannot do this",
            ),
        ] {
            let refused = authorize(&keys, path, Some(&bearer(&keys, role))).unwrap_err();
            assert_eq!(Status::from(refused).message(), message, "{role}");
        }
    }

    #[test]
    fn unknown_rpcs_are_refused_whoever_calls() {
        let keys = keys();
        let admin = bearer(&keys, Role::Admin);
        let err = authorize(&keys, "/repairs.x.v1.X/Y", Some(&admin)).unwrap_err();
        assert!(matches!(
            err,
            ApiError::PermissionDenied {
                reason: ErrorReason::NoAccessRule,
                ..
            }
        ));
    }

    #[test]
    fn role_rules_need_a_valid_token_of_an_allowed_role() {
        let keys = keys();
        assert!(matches!(
            authorize(&keys, ADMIN_ONLY, None).unwrap_err(),
            ApiError::Unauthenticated {
                reason: ErrorReason::SignInRequired,
                ..
            }
        ));
        assert!(matches!(
            authorize(&keys, ADMIN_ONLY, Some("Bearer garbage")).unwrap_err(),
            ApiError::Unauthenticated {
                reason: ErrorReason::SessionInvalid,
                ..
            }
        ));
        let customer = bearer(&keys, Role::Customer);
        assert!(matches!(
            authorize(&keys, ADMIN_ONLY, Some(&customer)).unwrap_err(),
            ApiError::PermissionDenied {
                reason: ErrorReason::RoleNotAllowed,
                ..
            }
        ));
        let admin = bearer(&keys, Role::Admin);
        assert_eq!(
            authorize(&keys, ADMIN_ONLY, Some(&admin))
                .unwrap()
                .unwrap()
                .token
                .caller
                .role,
            Role::Admin
        );
    }

    #[test]
    fn public_rpcs_accept_anyone_and_still_identify_a_valid_caller() {
        let keys = keys();
        assert_eq!(authorize(&keys, PUBLIC, None).unwrap(), None);
        assert_eq!(
            authorize(&keys, PUBLIC, Some("Bearer stale")).unwrap(),
            None
        );
        let pro = bearer(&keys, Role::Professional);
        let admitted = authorize(&keys, PUBLIC, Some(&pro)).unwrap().unwrap();
        assert_eq!(admitted.token.caller.role, Role::Professional);
        assert!(admitted.public);
    }
}
