//! Request bodies of legacy calls: the size limit and JSON decoding, with legacy error replies.

use axum::Router;
use axum::body::Bytes;
use axum::extract::multipart::MultipartError;
use axum::extract::rejection::BytesRejection;
use axum::extract::{DefaultBodyLimit, FromRequest, Multipart, Request};
use axum::middleware::{self, Next};
use axum::response::{IntoResponse, Response};
use http::{HeaderMap, StatusCode, header};
use serde::Deserializer;
use serde::de::{Deserialize, DeserializeOwned, IgnoredAny};
use serde_json::Value;

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

/// A legacy field that should be text but may arrive as a number, a boolean or `null` (the old
/// clients were loose about it): any of them reads as text, `null` as "".
/// Use with `#[serde(default, deserialize_with = "text")]`.
pub fn text<'de, D: Deserializer<'de>>(deserializer: D) -> Result<String, D::Error> {
    Ok(scalar_text(&Value::deserialize(deserializer)?).unwrap_or_default())
}

fn scalar_text(value: &Value) -> Option<String> {
    match value {
        Value::String(text) => Some(text.clone()),
        Value::Number(number) => Some(number.to_string()),
        Value::Bool(flag) => Some(flag.to_string()),
        Value::Null | Value::Array(_) | Value::Object(_) => None,
    }
}

/// A file part of a form.
#[derive(Clone)]
pub struct UploadedFile {
    /// The form field it came in.
    pub field: String,
    /// The file name the browser gave ("" when none).
    pub file_name: String,
    /// The part's declared media type ("" when none).
    pub content_type: String,
    pub bytes: Bytes,
}

impl UploadedFile {
    /// A file input left empty: no bytes.
    pub fn is_empty(&self) -> bool {
        self.bytes.is_empty()
    }
}

/// The fields of a `multipart/form-data` body (the old profile and licence forms), or of a
/// JSON object sent to the same call: text fields and files, each in the order sent.
#[derive(Default)]
pub struct LegacyForm {
    texts: Vec<(String, String)>,
    files: Vec<UploadedFile>,
}

impl LegacyForm {
    /// Reads the whole form within the body limit. Fields named in `skip` are read past and
    /// dropped at once, never kept (the old profile form still sends card numbers).
    pub async fn read(request: Request, skip: &[&str]) -> Result<Self, ApiError> {
        if is_json(request.headers()) {
            let bytes = Bytes::from_request(request, &()).await?;
            let object: serde_json::Map<String, Value> = decode(&bytes)?;
            return Ok(Self::from_json(object, skip));
        }
        let mut multipart = Multipart::from_request(request, &()).await.map_err(|_| {
            ApiError::new(
                StatusCode::UNSUPPORTED_MEDIA_TYPE,
                "Expected a form body (Content-Type: multipart/form-data)",
            )
        })?;
        let mut form = Self::default();
        while let Some(field) = multipart.next_field().await.map_err(form_error)? {
            let name = field.name().unwrap_or_default().to_owned();
            if skip.contains(&name.as_str()) {
                // Read past it without keeping it.
                field.bytes().await.map_err(form_error)?;
                continue;
            }
            match field.file_name().map(str::to_owned) {
                Some(file_name) => {
                    // Kept even when empty (a file input left empty still sends a part): rows
                    // of files pair with rows of labels by position.
                    let content_type = field.content_type().unwrap_or_default().to_owned();
                    let bytes = field.bytes().await.map_err(form_error)?;
                    form.files.push(UploadedFile {
                        field: name,
                        file_name,
                        content_type,
                        bytes,
                    });
                }
                None => {
                    let value = field.text().await.map_err(form_error)?;
                    form.texts.push((name, value));
                }
            }
        }
        Ok(form)
    }

    fn from_json(object: serde_json::Map<String, Value>, skip: &[&str]) -> Self {
        let mut form = Self::default();
        for (name, value) in object {
            if skip.contains(&name.as_str()) {
                continue;
            }
            let values = match &value {
                Value::Array(items) => items.iter().filter_map(scalar_text).collect(),
                other => scalar_text(other).into_iter().collect::<Vec<_>>(),
            };
            for value in values {
                form.texts.push((name.clone(), value));
            }
        }
        form
    }

    /// The first value of the first of `names` that was sent, trimmed ("" when none).
    pub fn text(&self, names: &[&str]) -> String {
        names
            .iter()
            .find_map(|name| self.texts.iter().find(|(n, _)| n == name))
            .map(|(_, value)| value.trim().to_owned())
            .unwrap_or_default()
    }

    /// Whether any of `names` was sent as a text field.
    pub fn has(&self, names: &[&str]) -> bool {
        self.texts.iter().any(|(n, _)| names.contains(&n.as_str()))
    }

    /// Every value sent under any of `names`, in the order sent.
    pub fn texts(&self, names: &[&str]) -> Vec<String> {
        self.texts
            .iter()
            .filter(|(n, _)| names.contains(&n.as_str()))
            .map(|(_, value)| value.clone())
            .collect()
    }

    /// Every file sent under any of `names`, in the order sent.
    pub fn files(&self, names: &[&str]) -> Vec<UploadedFile> {
        self.files
            .iter()
            .filter(|file| names.contains(&file.field.as_str()))
            .cloned()
            .collect()
    }
}

fn form_error(error: MultipartError) -> ApiError {
    if error.status() == StatusCode::PAYLOAD_TOO_LARGE {
        too_large()
    } else {
        ApiError::new(StatusCode::BAD_REQUEST, "Could not read the form")
    }
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

    #[derive(Debug, serde::Deserialize)]
    struct Loose {
        #[serde(default, deserialize_with = "text")]
        id: String,
        #[serde(default, deserialize_with = "text")]
        sms_updates: String,
    }

    #[tokio::test]
    async fn loose_fields_read_as_text() {
        for (body, id, sms) in [
            (r#"{"id":"a","sms_updates":"yes"}"#, "a", "yes"),
            (r#"{"id":12,"sms_updates":true}"#, "12", "true"),
            (r#"{"id":null}"#, "", ""),
            ("{}", "", ""),
        ] {
            let LegacyJson(loose) = LegacyJson::<Loose>::from_request(json_request(body), &())
                .await
                .unwrap();
            assert_eq!((loose.id.as_str(), loose.sms_updates.as_str()), (id, sms));
        }
    }

    fn multipart_request(parts: &[(&str, Option<&str>, &str)]) -> Request {
        let mut body = String::new();
        for (name, file_name, value) in parts {
            body.push_str("--XB\r\n");
            match file_name {
                Some(file) => body.push_str(&format!(
                    "Content-Disposition: form-data; name=\"{name}\"; filename=\"{file}\"\r\nContent-Type: application/pdf\r\n\r\n"
                )),
                None => body.push_str(&format!(
                    "Content-Disposition: form-data; name=\"{name}\"\r\n\r\n"
                )),
            }
            body.push_str(value);
            body.push_str("\r\n");
        }
        body.push_str("--XB--\r\n");
        Request::builder()
            .header(header::CONTENT_TYPE, "multipart/form-data; boundary=XB")
            .body(Body::from(body))
            .unwrap()
    }

    #[tokio::test]
    async fn forms_keep_texts_and_files_in_order_and_drop_skipped_fields() {
        let request = multipart_request(&[
            ("id", None, " abc "),
            ("card_number", None, "4242424242424242"),
            ("textValues[]", None, "Plumbing"),
            ("fileValues", Some("a.pdf"), "%PDF-1"),
            ("textValues[]", None, "Roofing"),
            ("fileValues", Some("b.pdf"), "%PDF-2"),
            ("photo", Some(""), ""),
        ]);
        let form = LegacyForm::read(request, &["card_number"]).await.unwrap();
        assert_eq!(form.text(&["id"]), "abc");
        assert!(!form.has(&["card_number"]));
        assert_eq!(
            form.texts(&["textValues", "textValues[]"]),
            ["Plumbing", "Roofing"]
        );
        let files = form.files(&["fileValues", "fileValues[]"]);
        assert_eq!(files.len(), 2);
        assert_eq!(files[1].file_name, "b.pdf");
        assert_eq!(files[1].content_type, "application/pdf");
        assert_eq!(&files[1].bytes[..], b"%PDF-2");
        // The empty file input is there, and empty.
        let photo = form.files(&["photo"]);
        assert_eq!(photo.len(), 1);
        assert!(photo[0].is_empty());
    }

    #[tokio::test]
    async fn a_json_body_reads_as_a_form() {
        let request = json_request(
            r#"{"id":"x","specialisation":["a","b"],"radius_to_cater":50,"cvv":"123"}"#,
        );
        let form = LegacyForm::read(request, &["cvv"]).await.unwrap();
        assert_eq!(form.text(&["id"]), "x");
        assert_eq!(form.text(&["radius_to_cater"]), "50");
        assert_eq!(form.texts(&["specialisation"]), ["a", "b"]);
        assert!(!form.has(&["cvv"]));
    }

    #[tokio::test]
    async fn other_bodies_are_not_a_form() {
        let request = Request::builder()
            .header(header::CONTENT_TYPE, "text/plain")
            .body(Body::from("x"))
            .unwrap();
        let error = LegacyForm::read(request, &[]).await.err().unwrap();
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
