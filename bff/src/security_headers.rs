//! Security headers added to every reply: web pages, `/api` JSON, gRPC-web and errors alike.

use http::HeaderValue;
use http::Response;
use http::header::{self, HeaderName};

/// Stripe Elements (hire and membership pages) loads its script and iframes from js.stripe.com
/// and talks to api.stripe.com; Google Identity Services (the Google button) and the Facebook
/// SDK load from their own hosts when those sign-ins are configured; everything else comes
/// from our own origin. Chakra/emotion inject `<style>` tags at run time, hence
/// `'unsafe-inline'` for styles only.
const CONTENT_SECURITY_POLICY: &str = "default-src 'self'; \
    script-src 'self' https://js.stripe.com https://*.js.stripe.com https://accounts.google.com/gsi/client https://connect.facebook.net; \
    style-src 'self' 'unsafe-inline' https://accounts.google.com/gsi/style; \
    img-src 'self' data: blob: https://*.stripe.com https://*.googleusercontent.com; \
    font-src 'self' data:; \
    connect-src 'self' https://api.stripe.com https://accounts.google.com/gsi/ https://graph.facebook.com; \
    frame-src https://js.stripe.com https://*.js.stripe.com https://hooks.stripe.com https://accounts.google.com/gsi/ https://www.facebook.com; \
    object-src 'none'; \
    frame-ancestors 'none'; \
    base-uri 'self'; \
    form-action 'self'";

/// The headers and their values, in one table so a test can check them all.
pub const HEADERS: [(HeaderName, &str); 6] = [
    (header::X_CONTENT_TYPE_OPTIONS, "nosniff"),
    (header::X_FRAME_OPTIONS, "DENY"),
    (header::REFERRER_POLICY, "strict-origin-when-cross-origin"),
    (header::CONTENT_SECURITY_POLICY, CONTENT_SECURITY_POLICY),
    (
        HeaderName::from_static("permissions-policy"),
        "camera=(), microphone=(), geolocation=(self)",
    ),
    // Google's sign-in popup must be able to answer its opener.
    (
        HeaderName::from_static("cross-origin-opener-policy"),
        "same-origin-allow-popups",
    ),
];

/// Response mapper for `axum::middleware::map_response` (generic: inner layers wrap the body).
pub async fn add<B>(mut response: Response<B>) -> Response<B> {
    let headers = response.headers_mut();
    for (name, value) in HEADERS {
        headers.insert(name, HeaderValue::from_static(value));
    }
    response
}
