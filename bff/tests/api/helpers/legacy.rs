//! Calling the legacy `/api` surface as the old clients do, and reading its replies.

use std::collections::BTreeSet;

use serde_json::Value;

use super::server::Stack;
use super::{assert_security_headers, header};
use reqwest::multipart::Form;

/// A 1x1 PNG.
pub const PNG: &[u8] = &[
    0x89, 0x50, 0x4E, 0x47, 0x0D, 0x0A, 0x1A, 0x0A, 0x00, 0x00, 0x00, 0x0D, 0x49, 0x48, 0x44, 0x52,
    0x00, 0x00, 0x00, 0x01, 0x00, 0x00, 0x00, 0x01, 0x08, 0x06, 0x00, 0x00, 0x00, 0x1F, 0x15, 0xC4,
    0x89, 0x00, 0x00, 0x00, 0x0A, 0x49, 0x44, 0x41, 0x54, 0x78, 0x9C, 0x63, 0x00, 0x01, 0x00, 0x00,
    0x05, 0x00, 0x01, 0x0D, 0x0A, 0x2D, 0xB4, 0x00, 0x00, 0x00, 0x00, 0x49, 0x45, 0x4E, 0x44, 0xAE,
    0x42, 0x60, 0x82,
];
pub const PDF: &[u8] = b"%PDF-1.4\n1 0 obj <<>> endobj\ntrailer <<>>\n%%EOF\n";
pub const PASSWORD: &str = "correct horse battery";

/// Reads a JSON reply, checking what every legacy reply carries.
pub async fn reply(response: reqwest::Response) -> (u16, Value) {
    assert_security_headers(&response);
    let status = response.status().as_u16();
    let url = response.url().to_string();
    assert_eq!(
        header(&response, "content-type"),
        "application/json",
        "{status} {url}"
    );
    (status, response.json().await.unwrap())
}

pub async fn get(stack: &Stack, path: &str, token: Option<&str>) -> (u16, Value) {
    let mut request = stack.http.get(stack.url(path));
    if let Some(token) = token {
        request = request.bearer_auth(token);
    }
    reply(request.send().await.unwrap()).await
}

pub async fn post(stack: &Stack, path: &str, token: Option<&str>, body: Value) -> (u16, Value) {
    let mut request = stack.http.post(stack.url(path)).json(&body);
    if let Some(token) = token {
        // The old app's other header, to cover both.
        request = request.header("x-auth-token", token);
    }
    reply(request.send().await.unwrap()).await
}

pub async fn post_form(stack: &Stack, path: &str, token: &str, form: Form) -> (u16, Value) {
    let request = stack
        .http
        .post(stack.url(path))
        .bearer_auth(token)
        .multipart(form);
    reply(request.send().await.unwrap()).await
}

pub fn keys(value: &Value) -> BTreeSet<&str> {
    value
        .as_object()
        .unwrap()
        .keys()
        .map(String::as_str)
        .collect()
}

pub fn text(value: &Value) -> String {
    value
        .as_str()
        .unwrap_or_else(|| panic!("not text: {value}"))
        .to_owned()
}
