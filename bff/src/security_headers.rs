//! Security headers added to every reply: web pages, `/api` JSON, gRPC-web and errors alike.

use std::sync::Arc;

use axum::extract::State;
use http::header::{self, HeaderName};
use http::{HeaderValue, Response};

/// Where Stripe Elements (the membership and hire pages) loads its script and frames from and
/// talks to: allowed only when the server takes cards through Stripe, so pages of a
/// test-gateway run cannot load anything from Stripe.
const STRIPE_SCRIPTS: &str = " https://js.stripe.com https://*.js.stripe.com";
const STRIPE_IMAGES: &str = " https://*.stripe.com";
const STRIPE_CONNECT: &str = " https://api.stripe.com";
const STRIPE_FRAMES: &str =
    " https://js.stripe.com https://*.js.stripe.com https://hooks.stripe.com";

/// The Content-Security-Policy. Google Identity Services (the Google button) and the Facebook
/// SDK load from their own hosts when those sign-ins are configured; Stripe's hosts are added
/// only with `stripe`; everything else comes from our own origin. Chakra/emotion inject
/// `<style>` tags at run time, hence `'unsafe-inline'` for styles only.
fn content_security_policy(stripe: bool) -> String {
    let when = |hosts: &'static str| if stripe { hosts } else { "" };
    [
        "default-src 'self'".to_owned(),
        format!(
            "script-src 'self'{} https://accounts.google.com/gsi/client https://connect.facebook.net",
            when(STRIPE_SCRIPTS)
        ),
        "style-src 'self' 'unsafe-inline' https://accounts.google.com/gsi/style".to_owned(),
        format!(
            "img-src 'self' data: blob:{} https://*.googleusercontent.com",
            when(STRIPE_IMAGES)
        ),
        "font-src 'self' data:".to_owned(),
        format!(
            "connect-src 'self'{} https://accounts.google.com/gsi/ https://graph.facebook.com",
            when(STRIPE_CONNECT)
        ),
        format!(
            "frame-src{} https://accounts.google.com/gsi/ https://www.facebook.com",
            when(STRIPE_FRAMES)
        ),
        "object-src 'none'".to_owned(),
        "frame-ancestors 'none'".to_owned(),
        "base-uri 'self'".to_owned(),
        "form-action 'self'".to_owned(),
    ]
    .join("; ")
}

/// The headers and their values, built once at start; cheap to clone.
#[derive(Clone)]
pub struct SecurityHeaders(Arc<[(HeaderName, HeaderValue); 6]>);

impl SecurityHeaders {
    /// `stripe`: the server takes cards through Stripe (Stripe Elements in the pages).
    pub fn new(stripe: bool) -> anyhow::Result<Self> {
        Ok(Self(Arc::new([
            (
                header::X_CONTENT_TYPE_OPTIONS,
                HeaderValue::from_static("nosniff"),
            ),
            (header::X_FRAME_OPTIONS, HeaderValue::from_static("DENY")),
            (
                header::REFERRER_POLICY,
                HeaderValue::from_static("strict-origin-when-cross-origin"),
            ),
            (
                header::CONTENT_SECURITY_POLICY,
                HeaderValue::try_from(content_security_policy(stripe))?,
            ),
            (
                HeaderName::from_static("permissions-policy"),
                HeaderValue::from_static("camera=(), microphone=(), geolocation=(self)"),
            ),
            // Google's sign-in popup must be able to answer its opener.
            (
                HeaderName::from_static("cross-origin-opener-policy"),
                HeaderValue::from_static("same-origin-allow-popups"),
            ),
        ])))
    }
}

/// Response mapper for `axum::middleware::map_response_with_state` (generic: inner layers
/// wrap the body).
pub async fn add<B>(
    State(headers): State<SecurityHeaders>,
    mut response: Response<B>,
) -> Response<B> {
    let reply = response.headers_mut();
    for (name, value) in headers.0.iter() {
        reply.insert(name, value.clone());
    }
    response
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn stripe_hosts_are_allowed_only_with_stripe() {
        let with = content_security_policy(true);
        let without = content_security_policy(false);
        assert!(with.contains("script-src 'self' https://js.stripe.com"));
        assert!(with.contains("frame-src https://js.stripe.com"));
        assert!(with.contains("connect-src 'self' https://api.stripe.com"));
        assert!(!without.contains("stripe"), "{without}");
        assert!(without.contains("frame-src https://accounts.google.com/gsi/"));
        assert!(SecurityHeaders::new(true).is_ok());
    }
}
