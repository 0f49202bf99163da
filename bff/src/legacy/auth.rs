//! The caller's token on a legacy call, forwarded to the server as `authorization: Bearer <jwt>`.
//!
//! Legacy clients send it as `Authorization: Bearer <jwt>` or as `x-auth-token: <jwt>`. The BFF does
//! not verify it: the server checks every token and every ownership rule.

use axum::extract::FromRequestParts;
use base64::Engine;
use base64::engine::general_purpose::URL_SAFE_NO_PAD;
use http::request::Parts;
use http::{HeaderMap, StatusCode, header};
use tonic::metadata::{AsciiMetadataValue, MetadataValue};

use super::error::ApiError;

const X_AUTH_TOKEN: &str = "x-auth-token";

/// What the old web app stored when nobody was signed in; treated as no token at all.
const NO_TOKEN_PLACEHOLDERS: [&str; 2] = ["null", "undefined"];

/// The token of a legacy request, if any, already in the form gRPC metadata needs.
#[derive(Debug, Clone, Default)]
pub struct LegacyToken(Option<AsciiMetadataValue>);

impl LegacyToken {
    /// Reads `Authorization: Bearer` first, then `x-auth-token`.
    pub fn from_headers(headers: &HeaderMap) -> Result<Self, ApiError> {
        let from_authorization =
            match headers.get(header::AUTHORIZATION) {
                Some(value) => Some(strip_bearer(header_text(value)?).ok_or_else(|| {
                    unauthenticated("Unsupported Authorization scheme: use Bearer")
                })?),
                None => None,
            };
        let token = match from_authorization {
            Some(token) => Some(token),
            None => match headers.get(X_AUTH_TOKEN) {
                Some(value) => {
                    let text = header_text(value)?;
                    // Some old callers put the whole "Bearer <jwt>" in x-auth-token.
                    Some(strip_bearer(text).unwrap_or(text))
                }
                None => None,
            },
        };
        Self::from_text(token)
    }

    /// A token the legacy call carries in its path (`/get-professional/{token}`).
    pub fn from_path(token: &str) -> Result<Self, ApiError> {
        Self::from_text(Some(token))
    }

    fn from_text(token: Option<&str>) -> Result<Self, ApiError> {
        let token = token
            .map(str::trim)
            .filter(|t| !t.is_empty() && !NO_TOKEN_PLACEHOLDERS.contains(t));
        match token {
            None => Ok(Self(None)),
            Some(token) if token.bytes().all(|b| b.is_ascii_graphic()) => {
                MetadataValue::try_from(format!("Bearer {token}"))
                    .map(|value| Self(Some(value)))
                    .map_err(|_| unauthenticated("Malformed token"))
            }
            Some(_) => Err(unauthenticated("Malformed token")),
        }
    }

    pub fn is_present(&self) -> bool {
        self.0.is_some()
    }

    /// The account id (`sub`) the token's payload names, read WITHOUT checking the signature:
    /// only to fill in an id the legacy call leaves out. The server verifies the token itself
    /// on the call that follows, and refuses it if it is forged or expired.
    pub fn unverified_subject(&self) -> Option<String> {
        let value = self.0.as_ref()?.to_str().ok()?;
        let jwt = strip_bearer(value)?;
        let payload = jwt.split('.').nth(1)?;
        // Some encoders pad base64url; JWTs should not, but accept both.
        let bytes = URL_SAFE_NO_PAD.decode(payload.trim_end_matches('=')).ok()?;
        let claims: serde_json::Value = serde_json::from_slice(&bytes).ok()?;
        claims
            .get("sub")?
            .as_str()
            .map(str::to_owned)
            .filter(|sub| !sub.is_empty())
    }

    /// Wraps a gRPC message, with `authorization: Bearer <jwt>` when the caller sent a token.
    pub fn request<T>(&self, message: T) -> tonic::Request<T> {
        let mut request = tonic::Request::new(message);
        if let Some(value) = &self.0 {
            request
                .metadata_mut()
                .insert(header::AUTHORIZATION.as_str(), value.clone());
        }
        request
    }
}

impl<S: Send + Sync> FromRequestParts<S> for LegacyToken {
    type Rejection = ApiError;

    async fn from_request_parts(parts: &mut Parts, _state: &S) -> Result<Self, Self::Rejection> {
        Self::from_headers(&parts.headers)
    }
}

fn header_text(value: &http::HeaderValue) -> Result<&str, ApiError> {
    value
        .to_str()
        .map_err(|_| unauthenticated("Malformed token"))
}

/// `Bearer <token>` with the scheme in any case, as RFC 9110 allows.
fn strip_bearer(value: &str) -> Option<&str> {
    let (scheme, token) = value.trim().split_once(' ')?;
    scheme.eq_ignore_ascii_case("bearer").then_some(token)
}

fn unauthenticated(msg: &str) -> ApiError {
    ApiError::new(StatusCode::UNAUTHORIZED, msg)
}

#[cfg(test)]
mod tests {
    use super::*;
    use http::HeaderValue;

    fn token(headers: &[(&'static str, &'static str)]) -> Result<LegacyToken, ApiError> {
        let mut map = HeaderMap::new();
        for (name, value) in headers {
            map.append(*name, HeaderValue::from_static(value));
        }
        LegacyToken::from_headers(&map)
    }

    fn forwarded(token: &LegacyToken) -> Option<String> {
        let request = token.request(());
        let value = request.metadata().get("authorization")?;
        Some(value.to_str().unwrap().to_owned())
    }

    #[test]
    fn both_headers_become_authorization_bearer() {
        for headers in [
            [("authorization", "Bearer a.b.c")],
            [("authorization", "bearer a.b.c")],
            [("x-auth-token", "a.b.c")],
            [("x-auth-token", "Bearer a.b.c")],
        ] {
            let token = token(&headers).unwrap();
            assert!(token.is_present());
            assert_eq!(
                forwarded(&token).as_deref(),
                Some("Bearer a.b.c"),
                "{headers:?}"
            );
        }
    }

    #[test]
    fn authorization_wins_over_x_auth_token() {
        let token = token(&[("x-auth-token", "old"), ("authorization", "Bearer new")]).unwrap();
        assert_eq!(forwarded(&token).as_deref(), Some("Bearer new"));
    }

    #[test]
    fn no_token_forwards_nothing() {
        for headers in [
            &[][..],
            &[("x-auth-token", "")],
            &[("x-auth-token", "null")],
            &[("authorization", "Bearer undefined")],
        ] {
            let token = token(headers).unwrap();
            assert!(!token.is_present());
            assert_eq!(forwarded(&token), None);
        }
    }

    #[test]
    fn the_subject_is_read_from_the_payload() {
        // {"sub":"0190a6f2-7c1e-7000-8000-000000000001","role":"professional","iat":1}
        let payload = URL_SAFE_NO_PAD.encode(
            br#"{"sub":"0190a6f2-7c1e-7000-8000-000000000001","role":"professional","iat":1}"#,
        );
        let token = LegacyToken::from_path(&format!("eyJhbGciOiJIUzI1NiJ9.{payload}.sig")).unwrap();
        assert_eq!(
            token.unverified_subject().as_deref(),
            Some("0190a6f2-7c1e-7000-8000-000000000001")
        );
        assert_eq!(
            forwarded(&token).as_deref(),
            Some(format!("Bearer eyJhbGciOiJIUzI1NiJ9.{payload}.sig").as_str())
        );
        for junk in ["a.b.c", "nodots", "a.e30.c", "null"] {
            let token = LegacyToken::from_path(junk).unwrap();
            assert_eq!(token.unverified_subject(), None, "{junk}");
        }
        assert!(LegacyToken::from_path("a b").is_err());
    }

    #[test]
    fn malformed_tokens_are_401() {
        for headers in [
            [("authorization", "Basic dXNlcjpwYXNz")],
            [("authorization", "Bearer a b")],
            [("x-auth-token", "a\tb")],
        ] {
            let error = token(&headers).unwrap_err();
            assert_eq!(error.status(), StatusCode::UNAUTHORIZED, "{headers:?}");
        }
    }
}
