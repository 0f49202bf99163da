//! Google sign-in through the running server: the ID token is checked against a JWKS served
//! here on 127.0.0.1, the account is made on first sign-in and found after by Google's
//! subject, tokens whose email Google has not verified are refused, and an existing account
//! is linked only when its email is proven or its password is given.

use crate::helpers::{LocalServer, TestServer, reason, sign_up, wait_for_message};
use axum::{Json, Router, routing::get};
use jsonwebtoken::{
    Algorithm, EncodingKey, Header,
    jwk::{Jwk, JwkSet},
};
use repairs_proto::accounts::{self as pb, accounts_service_client::AccountsServiceClient};
use rsa::pkcs1::EncodeRsaPrivateKey;
use serde_json::json;
use tonic::{Code, transport::Channel};

const CLIENT_ID: &str = "42-web.apps.googleusercontent.com";
const KID: &str = "test-key";

/// An ID token for Google's person `subject`, currently with `email`.
fn id_token(key: &EncodingKey, subject: &str, email: &str, verified: bool) -> String {
    let now = chrono::Utc::now().timestamp();
    let claims = json!({
        "iss": "https://accounts.google.com", "aud": CLIENT_ID, "sub": subject,
        "email": email, "email_verified": verified, "name": "Gina Google",
        "iat": now, "exp": now + 600,
    });
    let mut header = Header::new(Algorithm::RS256);
    header.kid = Some(KID.into());
    jsonwebtoken::encode(&header, &claims, key).unwrap()
}

/// A server that trusts a Google whose keys are served here, and that Google's signing key.
struct GoogleStack {
    key: EncodingKey,
    google: LocalServer,
    server: TestServer,
    client: AccountsServiceClient<Channel>,
}

impl GoogleStack {
    async fn start() -> Self {
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
        let client = AccountsServiceClient::new(server.channel().await);
        Self {
            key,
            google,
            server,
            client,
        }
    }

    /// Signs in as Google's `subject` with `email`, giving `password` to link if asked.
    async fn sign_in(
        &self,
        subject: &str,
        email: &str,
        password: &str,
    ) -> Result<pb::SignInWithGoogleResponse, tonic::Status> {
        let request = pb::SignInWithGoogleRequest {
            role: pb::Role::Customer as i32,
            id_token: id_token(&self.key, subject, email, true),
            language: 0,
            password: password.into(),
        };
        self.client
            .clone()
            .sign_in_with_google(request)
            .await
            .map(tonic::Response::into_inner)
    }

    async fn stop(self) {
        self.server.stop().await;
        self.google.stop().await;
    }
}

fn account_of(reply: &pb::SignInWithGoogleResponse) -> String {
    reply.session.clone().unwrap().account_id
}

#[tokio::test]
async fn google_sign_in_makes_the_account_once_and_needs_a_verified_email() {
    let stack = GoogleStack::start().await;
    let key = &stack.key;
    let mut client = stack.client.clone();

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
        password: String::new(),
    };
    let first = stack.sign_in("gina", "gina@example.ca", "").await.unwrap();
    assert!(first.created);
    // Found again by Google's subject, even after the Google account's email changed.
    let again = stack
        .sign_in("gina", "gina@elsewhere.ca", "")
        .await
        .unwrap();
    assert!(!again.created);
    assert_eq!(account_of(&again), account_of(&first));
    // Both sign-ins give a session that lasts: its refresh token renews it.
    for reply in [&first, &again] {
        let session = reply.session.clone().unwrap();
        assert!(session.refresh_expires_at.is_some());
        client
            .refresh_session(pb::RefreshSessionRequest {
                refresh_token: session.refresh_token,
            })
            .await
            .unwrap();
    }

    let unverified = client
        .sign_in_with_google(sign_in(id_token(key, "ghost", "ghost@example.ca", false)))
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
            password: String::new(),
        })
        .await
        .unwrap_err();
    assert_eq!(
        (facebook.code(), reason(&facebook).as_str()),
        (Code::FailedPrecondition, "SIGN_IN_PROVIDER_NOT_CONFIGURED")
    );

    stack.stop().await;
}

#[tokio::test]
async fn an_unproven_account_is_linked_only_with_its_password() {
    let stack = GoogleStack::start().await;
    // Someone signs up first with another person's address; they never see its inbox.
    let mut client = stack.client.clone();
    let squatter = sign_up(&mut client, pb::Role::Customer, "vic@example.ca").await;

    // The owner's first Google sign-in does not land in that account.
    let refused = stack
        .sign_in("vic", "vic@example.ca", "")
        .await
        .unwrap_err();
    assert_eq!(
        (refused.code(), reason(&refused).as_str()),
        (Code::FailedPrecondition, "SOCIAL_LINK_NEEDS_PASSWORD")
    );
    assert!(refused.message().contains("password"));
    let wrong = stack
        .sign_in("vic", "vic@example.ca", "not the password")
        .await
        .unwrap_err();
    assert_eq!(reason(&wrong), "INVALID_CREDENTIALS");

    // The account's password links it; from then on Google alone signs in.
    let linked = stack
        .sign_in("vic", "vic@example.ca", "correct horse")
        .await
        .unwrap();
    assert_eq!(account_of(&linked), squatter.id);
    // The password only proved the account: the sign-up and this sign-in opened sessions.
    let opened: (i64,) = sqlx::query_as("select count(*) from session_families")
        .fetch_one(&stack.server.server.state.db)
        .await
        .unwrap();
    assert_eq!(opened.0, 2);
    let again = stack.sign_in("vic", "vic@example.ca", "").await.unwrap();
    assert_eq!(account_of(&again), squatter.id);
    stack.stop().await;
}

#[tokio::test]
async fn a_proven_email_links_at_once() {
    let stack = GoogleStack::start().await;
    let mut client = stack.client.clone();
    let pat = sign_up(&mut client, pb::Role::Customer, "pat@example.ca").await;
    let mail = wait_for_message(
        stack.server.data_dir(),
        "email.jsonl",
        "pat@example.ca",
        "/verify-email/",
        1,
    )
    .await;
    let body = mail["body"].as_str().unwrap();
    let token = body
        .split_whitespace()
        .find_map(|word| word.split("/verify-email/").nth(1))
        .unwrap();
    client
        .confirm_email(pb::ConfirmEmailRequest {
            token: token.into(),
        })
        .await
        .unwrap();

    let signed = stack.sign_in("pat", "pat@example.ca", "").await.unwrap();
    assert!(!signed.created);
    assert_eq!(account_of(&signed), pat.id);
    stack.stop().await;
}
