//! Accounts and their sessions made through the real RPCs, and the requests the tests send
//! with them.

use super::*;

/// The password of the accounts [`sign_up`] makes.
pub const TEST_PASSWORD: &str = "correct horse";

pub type AccountsClient =
    repairs_proto::accounts::accounts_service_client::AccountsServiceClient<Channel>;

/// An account made through AccountsService, and its first session.
pub struct SignedUp {
    pub id: String,
    /// The access token.
    pub token: String,
    /// The session's refresh token.
    pub refresh: String,
}

/// Signs up "Ana Lopez" with `email` and [`TEST_PASSWORD`], in English.
pub async fn sign_up(
    client: &mut AccountsClient,
    role: repairs_proto::accounts::Role,
    email: &str,
) -> SignedUp {
    let english = repairs_proto::types::Language::En;
    sign_up_as(client, role, "Ana Lopez", email, english).await
}

/// Signs up with this name and language, and [`TEST_PASSWORD`].
pub async fn sign_up_as(
    client: &mut AccountsClient,
    role: repairs_proto::accounts::Role,
    name: &str,
    email: &str,
    language: repairs_proto::types::Language,
) -> SignedUp {
    let session = client
        .sign_up(repairs_proto::accounts::SignUpRequest {
            role: role as i32,
            name: name.into(),
            email: email.into(),
            password: TEST_PASSWORD.into(),
            language: language as i32,
        })
        .await
        .expect("sign-up")
        .into_inner()
        .session
        .expect("a session");
    SignedUp {
        id: session.account_id,
        token: session.access_token,
        refresh: session.refresh_token,
    }
}

pub async fn log_in(
    client: &mut AccountsClient,
    role: repairs_proto::accounts::Role,
    email: &str,
    password: &str,
) -> Result<repairs_proto::accounts::LogInResponse, tonic::Status> {
    client
        .log_in(repairs_proto::accounts::LogInRequest {
            role: role as i32,
            email: email.into(),
            password: password.into(),
        })
        .await
        .map(tonic::Response::into_inner)
}

/// The token of a sign-in that must succeed.
pub async fn session_token(
    client: &mut AccountsClient,
    role: repairs_proto::accounts::Role,
    email: &str,
    password: &str,
) -> String {
    log_in(client, role, email, password)
        .await
        .expect("sign-in")
        .session
        .expect("a session")
        .access_token
}

/// A profile that saves: Calgary, weekdays, one service.
pub fn valid_profile(service_id: &str) -> repairs_proto::accounts::ProfessionalProfile {
    repairs_proto::accounts::ProfessionalProfile {
        description: "Licensed plumber, 24/7 emergencies.".into(),
        registered_address: "100 9 Ave SW, Calgary AB".into(),
        home_base: Some(repairs_proto::types::Address {
            line1: "100 9 Ave SW".into(),
            line2: String::new(),
            city: "Calgary".into(),
            province: "ab".into(),
            postal_code: "t2p1j9".into(),
            country: "CA".into(),
        }),
        available_days: vec![1, 2, 3, 4, 5],
        available_from: "07:00".into(),
        available_to: "22:00".into(),
        time_zone: String::new(),
        radius_km: 50,
        service_ids: vec![service_id.into()],
        qualification: "Red Seal".into(),
        experience: repairs_proto::accounts::Experience::Experience5To10 as i32,
        gst_hst_number: String::new(),
        qst_number: String::new(),
        minimum_fee: Some(repairs_proto::types::Money {
            amount_cents: 3000,
            currency: "CAD".into(),
        }),
        emergencies_any_hour: false,
    }
}

/// Resets the password of account `account_id` (`role`, `email`) to `new_password` through
/// the emailed link, as a person does: the sessions issued before it end.
pub async fn reset_password(
    server: &TestServer,
    client: &mut AccountsClient,
    role: repairs_proto::accounts::Role,
    (account_id, email): (&str, &str),
    new_password: &str,
) {
    use repairs_proto::accounts::{RequestPasswordResetRequest, ResetPasswordRequest};
    client
        .request_password_reset(RequestPasswordResetRequest {
            role: role as i32,
            email: email.into(),
        })
        .await
        .expect("a reset link is sent");
    // Customers' links open /reset-password/, professionals' /prof-reset-password/.
    let mail = wait_for_message(
        server.data_dir(),
        "email.jsonl",
        email,
        "reset-password/",
        1,
    )
    .await;
    let link = mail["body"]
        .as_str()
        .and_then(|body| {
            body.split_whitespace()
                .find(|word| word.contains("reset-password/"))
        })
        .expect("the email holds the link");
    client
        .reset_password(ResetPasswordRequest {
            role: role as i32,
            account_id: account_id.into(),
            token: link.rsplit('/').next().unwrap_or_default().into(),
            new_password: new_password.into(),
        })
        .await
        .expect("the password is reset");
}

/// A small PDF that passes the upload checks.
pub const PDF: &[u8] = b"%PDF-1.4\n1 0 obj <<>> endobj\ntrailer <<>>\n%%EOF\n";

/// Professional `professional_id`'s upload of a licence for plumbing ([`PDF`]), as `token`.
pub fn licence_upload(
    professional_id: &str,
    token: &str,
) -> tonic::Request<repairs_proto::accounts::AddLicenceRequest> {
    with_token(
        repairs_proto::accounts::AddLicenceRequest {
            professional_id: professional_id.into(),
            label: "Plumbing".into(),
            file_name: "licence.pdf".into(),
            content_type: "application/pdf".into(),
            content: PDF.to_vec(),
        },
        token,
    )
}

/// The start of a PNG, enough for the upload checks.
pub const PNG: &[u8] = b"\x89PNG\r\n\x1a\n\0\0\0\rIHDR";

/// Adds `authorization: Bearer <token>` to a request.
pub fn with_token<T>(message: T, token: &str) -> tonic::Request<T> {
    let mut request = tonic::Request::new(message);
    request.metadata_mut().insert(
        "authorization",
        format!("Bearer {token}").parse().expect("header value"),
    );
    request
}

/// Creates the admin admin@example.ca ("admin password") and returns a session token.
pub async fn admin_token(server: &TestServer, client: &mut AccountsClient) -> String {
    crate::bootstrap::create_admin(
        &server.server.state.db,
        "admin@example.ca",
        "Admin",
        "admin password",
    )
    .await
    .expect("admin created");
    let admin = repairs_proto::accounts::Role::Admin;
    session_token(client, admin, "ADMIN@example.ca", "admin password").await
}

/// A professional's quote of `cents` CAD and 90 minutes on request `repair_request_id`.
pub async fn send_quote(
    server: &TestServer,
    token: &str,
    repair_request_id: &str,
    cents: i64,
) -> repairs_proto::marketplace::Quote {
    use repairs_proto::marketplace::{
        CreateQuoteRequest, marketplace_service_client::MarketplaceServiceClient,
    };
    MarketplaceServiceClient::new(server.channel().await)
        .create_quote(with_token(
            CreateQuoteRequest {
                repair_request_id: repair_request_id.to_owned(),
                estimated_minutes: 90,
                fee: Some(repairs_proto::types::Money {
                    amount_cents: cents,
                    currency: "CAD".to_owned(),
                }),
                surge: false,
                add_taxes: None,
                arrival_minutes: Some(45),
            },
            token,
        ))
        .await
        .expect("the quote is sent")
        .into_inner()
        .quote
        .expect("a quote")
}
