//! Request bodies of legacy calls: the size limit and JSON decoding, with legacy error replies.

use axum::Router;
use axum::body::Bytes;
use axum::extract::rejection::BytesRejection;
use axum::extract::{DefaultBodyLimit, FromRequest, Request};
use axum::middleware::{self, Next};
use axum::response::{IntoResponse, Response};
use http::{HeaderMap, StatusCode, header};
use serde::de::{DeserializeOwned, IgnoredAny};

use super::error::ApiError;

/// The largest body a legacy call may send (multipart photos and licences included).
pub const BODY_LIMIT: usize = 6 * 1024 * 1024;

/// Applies the body limit to every route of `router`: bodies that announce a larger
/// `Content-Length` are refused before they are read, and the extractors stop reading longer
/// streamed bodies at the limit.
pub fn limit<S: Clone + Send + Sync + 'static>(router: Router<S>) -> Router<S> {
    router
        .layer(DefaultBodyLimit::max(BODY_LIMIT))
        .layer(middleware::from_fn(refuse_declared_oversize))
}

async fn refuse_declared_oversize(request: Request, next: Next) -> Response {
    let declared = request
        .headers()
        .get(header::CONTENT_LENGTH)
        .and_then(|value| value.to_str().ok())
        .and_then(|value| value.parse::<u64>().ok());
    if declared.is_some_and(|length| length > BODY_LIMIT as u64) {
        return too_large().into_response();
    }
    next.run(request).await
}

fn too_large() -> ApiError {
    ApiError::new(
        StatusCode::PAYLOAD_TOO_LARGE,
        "Request body too large (the limit is 6 MiB)",
    )
}

impl From<BytesRejection> for ApiError {
    fn from(rejection: BytesRejection) -> Self {
        if rejection.status() == StatusCode::PAYLOAD_TOO_LARGE {
            too_large()
        } else {
            ApiError::new(StatusCode::BAD_REQUEST, "Could not read the request body")
        }
    }
}

/// A JSON body, like `axum::Json`, but every refusal is a legacy `{ "msg" }` reply.
#[derive(Debug, Clone)]
pub struct LegacyJson<T>(pub T);

impl<T: DeserializeOwned, S: Send + Sync> FromRequest<S> for LegacyJson<T> {
    type Rejection = ApiError;

    async fn from_request(request: Request, state: &S) -> Result<Self, Self::Rejection> {
        if !is_json(request.headers()) {
            return Err(ApiError::new(
                StatusCode::UNSUPPORTED_MEDIA_TYPE,
                "Expected a JSON body (Content-Type: application/json)",
            ));
        }
        let bytes = Bytes::from_request(request, state).await?;
        decode(&bytes).map(Self)
    }
}

/// Reads a body within the limit and, when it is declared as JSON, checks that it parses:
/// a call that is not translated yet still tells its caller about a broken body first.
pub async fn check(request: Request) -> Result<(), ApiError> {
    let json = is_json(request.headers());
    let bytes = Bytes::from_request(request, &()).await?;
    if json && !bytes.is_empty() {
        decode::<IgnoredAny>(&bytes)?;
    }
    Ok(())
}

fn decode<T: DeserializeOwned>(bytes: &[u8]) -> Result<T, ApiError> {
    serde_json::from_slice(bytes).map_err(|error| {
        let msg = match error.classify() {
            // Well-formed JSON of the wrong shape: serde's text names the field, which helps.
            serde_json::error::Category::Data => format!("Invalid request body: {error}"),
            _ => "Malformed JSON body".to_owned(),
        };
        ApiError::new(StatusCode::BAD_REQUEST, msg)
    })
}

/// `application/json` or any `+json` type, as axum's own `Json` accepts.
fn is_json(headers: &HeaderMap) -> bool {
    let Some(content_type) = headers
        .get(header::CONTENT_TYPE)
        .and_then(|value| value.to_str().ok())
    else {
        return false;
    };
    let essence = content_type.split(';').next().unwrap_or_default().trim();
    let essence = essence.to_ascii_lowercase();
    essence == "application/json"
        || (essence.starts_with("application/") && essence.ends_with("+json"))
}

#[cfg(test)]
mod tests {
    use super::*;
    use axum::body::Body;
    use serde::Deserialize;

    #[derive(Debug, Deserialize)]
    struct Login {
        email: String,
    }

    fn json_request(body: &'static str) -> Request {
        Request::builder()
            .header(header::CONTENT_TYPE, "application/json; charset=utf-8")
            .body(Body::from(body))
            .unwrap()
    }

    #[tokio::test]
    async fn decodes_json() {
        let LegacyJson(login) =
            LegacyJson::<Login>::from_request(json_request(r#"{"email":"a@b.c"}"#), &())
                .await
                .unwrap();
        assert_eq!(login.email, "a@b.c");
    }

    #[tokio::test]
    async fn bad_bodies_are_400() {
        for (body, msg) in [
            ("{\"email\":", "Malformed JSON body"),
            // Well-formed but the wrong shape: serde names the missing field.
            (
                "{}",
                "Invalid request body: missing field `email` at line 1 column 2",
            ),
        ] {
            let error = LegacyJson::<Login>::from_request(json_request(body), &())
                .await
                .unwrap_err();
            assert_eq!(error.status(), StatusCode::BAD_REQUEST);
            assert_eq!(error.msg(), msg);
        }
    }

    #[tokio::test]
    async fn other_content_types_are_415() {
        let request = Request::builder()
            .header(header::CONTENT_TYPE, "text/plain")
            .body(Body::from("{}"))
            .unwrap();
        let error = LegacyJson::<Login>::from_request(request, &())
            .await
            .unwrap_err();
        assert_eq!(error.status(), StatusCode::UNSUPPORTED_MEDIA_TYPE);
    }

    #[test]
    fn json_content_types() {
        let mut headers = HeaderMap::new();
        assert!(!is_json(&headers));
        for (value, json) in [
            ("application/json", true),
            ("Application/JSON; charset=utf-8", true),
            ("application/merge-patch+json", true),
            ("multipart/form-data; boundary=x", false),
        ] {
            headers.insert(header::CONTENT_TYPE, value.parse().unwrap());
            assert_eq!(is_json(&headers), json, "{value}");
        }
    }
}
