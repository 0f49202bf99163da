//! Google sign-in through the running server: the ID token is checked against a JWKS served
//! here on 127.0.0.1, the account is made on first sign-in and found after, and tokens whose
//! email Google has not verified are refused.

#![allow(
    clippy::unwrap_used,
    clippy::expect_used,
    reason = "a test crate: failures should panic"
)]

mod common;
mod providers_support;

use axum::{Json, Router, routing::get};
use common::{TestServer, reason};
use jsonwebtoken::{
    Algorithm, EncodingKey, Header,
    jwk::{Jwk, JwkSet},
};
use providers_support::LocalServer;
use repairs_proto::accounts::{self as pb, accounts_service_client::AccountsServiceClient};
use rsa::pkcs1::EncodeRsaPrivateKey;
use serde_json::json;
use tonic::Code;

const CLIENT_ID: &str = "42-web.apps.googleusercontent.com";
const KID: &str = "test-key";

fn id_token(key: &EncodingKey, email: &str, verified: bool) -> String {
    let now = chrono::Utc::now().timestamp();
    let claims = json!({
        "iss": "https://accounts.google.com", "aud": CLIENT_ID, "sub": format!("sub-{email}"),
        "email": email, "email_verified": verified, "name": "Gina Google",
        "iat": now, "exp": now + 600,
    });
    let mut header = Header::new(Algorithm::RS256);
    header.kid = Some(KID.into());
    jsonwebtoken::encode(&header, &claims, key).unwrap()
}

#[tokio::test]
async fn google_sign_in_makes_the_account_once_and_needs_a_verified_email() {
    let private = rsa::RsaPrivateKey::new(&mut rand::rngs::OsRng, 2048).unwrap();
    let key = EncodingKey::from_rsa_der(private.to_pkcs1_der().unwrap().as_bytes());
    let mut jwk = Jwk::from_encoding_key(&key, Algorithm::RS256).unwrap();
    jwk.common.key_id = Some(KID.into());
    let document = serde_json::to_value(JwkSet { keys: vec![jwk] }).unwrap();
    let google = LocalServer::start(
        Router::new().route("/certs", get(move || async move { Json(document) })),
    )
    .await;

    let jwks_url = format!("{}/certs", google.url());
    let server = TestServer::start_with(|config| {
        config.google_client_ids = vec![CLIENT_ID.into()];
        config.google_jwks_url = jwks_url;
    })
    .await;
    let mut client = AccountsServiceClient::new(server.channel().await);

    let options = client
        .get_sign_in_options(pb::GetSignInOptionsRequest {})
        .await
        .unwrap()
        .into_inner();
    assert_eq!(options.google_client_id, CLIENT_ID);
    assert_eq!(options.facebook_app_id, "", "Facebook is not configured");

    let sign_in = |token: String| pb::SignInWithGoogleRequest {
        role: pb::Role::Customer as i32,
        id_token: token,
        language: 0,
    };
    let first = client
        .sign_in_with_google(sign_in(id_token(&key, "gina@example.ca", true)))
        .await
        .unwrap()
        .into_inner();
    assert!(first.created);
    let again = client
        .sign_in_with_google(sign_in(id_token(&key, "GINA@example.ca", true)))
        .await
        .unwrap()
        .into_inner();
    assert!(!again.created);
    assert_eq!(
        again.session.unwrap().account_id,
        first.session.unwrap().account_id
    );

    let unverified = client
        .sign_in_with_google(sign_in(id_token(&key, "ghost@example.ca", false)))
        .await
        .unwrap_err();
    assert_eq!(
        (unverified.code(), reason(&unverified).as_str()),
        (Code::Unauthenticated, "SIGN_IN_EMAIL_NOT_VERIFIED")
    );
    let garbage = client
        .sign_in_with_google(sign_in("not.a.token".into()))
        .await
        .unwrap_err();
    assert_eq!(garbage.code(), Code::Unauthenticated);

    // With no Facebook app configured, the Facebook path says so instead of trusting an email.
    let facebook = client
        .sign_in_with_facebook(pb::SignInWithFacebookRequest {
            role: pb::Role::Customer as i32,
            access_token: "anything".into(),
            language: 0,
        })
        .await
        .unwrap_err();
    assert_eq!(
        (facebook.code(), reason(&facebook).as_str()),
        (Code::FailedPrecondition, "SIGN_IN_PROVIDER_NOT_CONFIGURED")
    );

    server.stop().await;
    google.stop().await;
}
