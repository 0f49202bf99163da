//! Customer accounts, their reviews and dashboard (`/api/users`).

use axum::Json;
use axum::extract::Path;
use axum::routing;
use http::StatusCode;
use repairs_proto::accounts as pb;
use serde::Deserialize;
use serde_json::json;

use super::accounts_shared::{self, IdBody, account_id};
use super::auth::LegacyToken;
use super::body::{LegacyJson, text};
use super::error::{ApiError, Reply};
use super::paging::PAGE_SIZE;
use super::reviews;
use super::rpc::Rpc;
use super::shapes::{LegacyUser, language_from_text, otp_verified, sms_from_text, sms_text};
use super::table::{Call, Translation, get, post};

const SIGN_UP: Call = post("/api/users", "AccountsService.SignUp");
const LOG_IN: Call = post("/api/users/login", "AccountsService.LogIn");
const GOOGLE: Call = post(
    "/api/users/google-login",
    "AccountsService.SignInWithGoogle",
);
const FACEBOOK: Call = post("/api/users/fb-login", "AccountsService.SignInWithFacebook");
const FORGOT_PASSWORD: Call = post(
    "/api/users/forgot-password",
    "AccountsService.RequestPasswordReset",
);
const RESET_PASSWORD: Call = post("/api/users/reset-password", "AccountsService.ResetPassword");
const CHECK_RESET_LINK: Call = get(
    "/api/users/get-user1/{id}/{token}",
    "AccountsService.CheckPasswordResetToken",
);
const GET_USER: Call = get("/api/users/get-user/{id}", "AccountsService.GetCustomer");
const SMS_PREFERENCE: Call = post(
    "/api/users/get-sms-updates/",
    "AccountsService.UpdateSmsPreference",
);
const UPDATE_ACCOUNT: Call = post(
    "/api/users/update-account",
    "AccountsService.UpdateCustomer",
);
const DELETE_USER: Call = get(
    "/api/users/delete-user/{id}",
    "AccountsService.DeleteCustomer",
);
const LIST_USERS: Call = get("/api/users", "AccountsService.ListCustomers");
const GET_REVIEWS: Call = get(
    "/api/users/get-reviews/{professionalId}",
    "MarketplaceService.ListProfessionalReviews",
);
const SUBMIT_REVIEW: Call = post(
    "/api/users/submit-review",
    "MarketplaceService.CreateReview",
);
const DASHBOARD: Call = post(
    "/api/users/user-dashboard-data/",
    "MarketplaceService.GetCustomerDashboard",
);

/// Every legacy call of this area, as in proto/README.md.
pub const CALLS: &[Call] = &[
    SIGN_UP,
    LOG_IN,
    GOOGLE,
    FACEBOOK,
    FORGOT_PASSWORD,
    RESET_PASSWORD,
    CHECK_RESET_LINK,
    GET_USER,
    SMS_PREFERENCE,
    UPDATE_ACCOUNT,
    DELETE_USER,
    LIST_USERS,
    GET_REVIEWS,
    SUBMIT_REVIEW,
    DASHBOARD,
];

/// The account calls, the dashboard and reviews (`reviews.rs`).
pub fn translations() -> Vec<Translation> {
    let role = pb::Role::Customer;
    vec![
        (SIGN_UP, routing::post(sign_up)),
        (LOG_IN, routing::post(log_in)),
        (GOOGLE, routing::post(google_login)),
        (FACEBOOK, routing::post(facebook_login)),
        (FORGOT_PASSWORD, accounts_shared::forgot_password(role)),
        (RESET_PASSWORD, accounts_shared::reset_password(role)),
        (CHECK_RESET_LINK, accounts_shared::check_reset_link(role)),
        (GET_USER, routing::get(get_user)),
        (SMS_PREFERENCE, accounts_shared::sms_preference()),
        (UPDATE_ACCOUNT, routing::post(update_account)),
        (DELETE_USER, routing::get(delete_user)),
        (LIST_USERS, routing::get(list_users)),
        (DASHBOARD, routing::post(dashboard)),
        (GET_REVIEWS, routing::get(reviews::list)),
        (SUBMIT_REVIEW, routing::post(reviews::submit)),
    ]
}

/// `POST /api/users/user-dashboard-data/` (`id`, or the token's) -> GetCustomerDashboard ->
/// `job_posted`, `appl_received` (quotes, withdrawn ones left out), `pr_shortlisted`
/// (requests with a professional hired) and `job_completed`.
async fn dashboard(rpc: Rpc, LegacyJson(body): LegacyJson<IdBody>) -> Reply {
    let counts = rpc
        .marketplace()
        .get_customer_dashboard(rpc.request(
            repairs_proto::marketplace::GetCustomerDashboardRequest {
                customer_id: account_id(&body.id, &rpc),
            },
        ))
        .await?
        .into_inner();
    Ok(Json(json!({
        "job_posted": counts.requests_posted,
        "appl_received": counts.quotes_received,
        "pr_shortlisted": counts.professionals_hired,
        "job_completed": counts.requests_completed,
    })))
}

/// `POST /api/users` -> `{id, _id, token, name, msg}`.
async fn sign_up(rpc: Rpc, LegacyJson(body): LegacyJson<accounts_shared::SignUpBody>) -> Reply {
    let (session, account) = accounts_shared::sign_up(&rpc, pb::Role::Customer, body).await?;
    let name = match account {
        Some(pb::sign_up_response::Account::Customer(customer)) => customer.name,
        _ => String::new(),
    };
    Ok(Json(json!({
        "id": session.account_id,
        "_id": session.account_id,
        "token": session.access_token,
        "name": name,
        "msg": "Registered Successfully",
    })))
}

/// `POST /api/users/login` -> `{token, name, id, otp_verified, sms_updates}`; 401 `{msg}`.
async fn log_in(rpc: Rpc, LegacyJson(body): LegacyJson<accounts_shared::LogInBody>) -> Reply {
    let (session, account) = accounts_shared::log_in(&rpc, pb::Role::Customer, body).await?;
    let customer = match account {
        Some(pb::log_in_response::Account::Customer(customer)) => customer,
        _ => pb::Customer::default(),
    };
    Ok(Json(json!({
        "token": session.access_token,
        "name": customer.name,
        "id": session.account_id,
        "otp_verified": otp_verified(customer.phone_verified),
        "sms_updates": sms_text(customer.sms_updates),
    })))
}

/// After a social sign-in: the new session's account, read with the new token, in the reply
/// the old login pages expect (`{msg, token, name}`, with the id and phone state as on login).
async fn social_reply(rpc: &Rpc, session: pb::Session, created: bool) -> Reply {
    let rpc = rpc.with_token(LegacyToken::from_path(&session.access_token)?);
    let request = pb::GetCustomerRequest {
        id: session.account_id.clone(),
    };
    let customer = rpc
        .accounts()
        .get_customer(rpc.request(request))
        .await?
        .into_inner()
        .customer
        .unwrap_or_default();
    let msg = if created {
        "Registered Successfully"
    } else {
        "Logged in Successfully"
    };
    Ok(Json(json!({
        "msg": msg,
        "token": session.access_token,
        "name": customer.name,
        "id": session.account_id,
        "otp_verified": otp_verified(customer.phone_verified),
        "sms_updates": sms_text(customer.sms_updates),
    })))
}

#[derive(Deserialize)]
struct GoogleBody {
    /// The ID token from Google Identity Services.
    #[serde(default, deserialize_with = "text")]
    token: String,
    #[serde(default, deserialize_with = "text", alias = "language")]
    lang: String,
    /// The existing account's password, to link it (see SOCIAL_LINK_NEEDS_PASSWORD).
    #[serde(default, deserialize_with = "text")]
    password: String,
}

/// `POST /api/users/google-login` {token} -> SignInWithGoogle -> `{msg, token, name}`.
async fn google_login(rpc: Rpc, LegacyJson(body): LegacyJson<GoogleBody>) -> Reply {
    let request = pb::SignInWithGoogleRequest {
        role: pb::Role::Customer as i32,
        id_token: body.token,
        language: language_from_text(&body.lang) as i32,
        password: body.password,
    };
    let reply = rpc
        .accounts()
        .sign_in_with_google(rpc.request(request))
        .await?
        .into_inner();
    social_reply(&rpc, reply.session.unwrap_or_default(), reply.created).await
}

/// The old French page signed people in with the email and name Facebook's SDK returned,
/// which proves nothing; only the dialog's access token, checked by the server, does.
pub const FACEBOOK_TOKEN_MISSING: &str =
    "Facebook sign-in needs the access token from the Facebook login dialog";

#[derive(Deserialize)]
struct FacebookBody {
    #[serde(default, deserialize_with = "text", alias = "accessToken")]
    access_token: String,
    #[serde(default, deserialize_with = "text", alias = "language")]
    lang: String,
    /// The existing account's password, to link it (see SOCIAL_LINK_NEEDS_PASSWORD).
    #[serde(default, deserialize_with = "text")]
    password: String,
}

/// `POST /api/users/fb-login` {accessToken, email, name} -> SignInWithFacebook.
async fn facebook_login(rpc: Rpc, LegacyJson(body): LegacyJson<FacebookBody>) -> Reply {
    if body.access_token.trim().is_empty() {
        return Err(ApiError::new(
            StatusCode::BAD_REQUEST,
            FACEBOOK_TOKEN_MISSING,
        ));
    }
    let request = pb::SignInWithFacebookRequest {
        role: pb::Role::Customer as i32,
        access_token: body.access_token.trim().to_owned(),
        language: language_from_text(&body.lang) as i32,
        password: body.password,
    };
    let reply = rpc
        .accounts()
        .sign_in_with_facebook(rpc.request(request))
        .await?
        .into_inner();
    social_reply(&rpc, reply.session.unwrap_or_default(), reply.created).await
}

/// `GET /api/users/get-user/{id}` -> the legacy user.
async fn get_user(rpc: Rpc, Path(id): Path<String>) -> Reply<LegacyUser> {
    let customer = rpc
        .accounts()
        .get_customer(rpc.request(pb::GetCustomerRequest { id }))
        .await?
        .into_inner()
        .customer
        .unwrap_or_default();
    Ok(Json(LegacyUser::from(&customer)))
}

#[derive(Deserialize)]
struct UpdateAccountBody {
    #[serde(default, deserialize_with = "text")]
    id: String,
    #[serde(default, deserialize_with = "text")]
    name: String,
    #[serde(default, deserialize_with = "text")]
    email: String,
    #[serde(default, deserialize_with = "text", alias = "lang")]
    language: String,
    #[serde(default, deserialize_with = "text")]
    sms_updates: String,
}

/// `POST /api/users/update-account` -> UpdateCustomer -> `{msg, user}`.
async fn update_account(rpc: Rpc, LegacyJson(body): LegacyJson<UpdateAccountBody>) -> Reply {
    let request = pb::UpdateCustomerRequest {
        id: body.id.trim().to_owned(),
        name: body.name,
        email: body.email,
        language: language_from_text(&body.language) as i32,
        sms_updates: sms_from_text(&body.sms_updates) as i32,
    };
    let customer = rpc
        .accounts()
        .update_customer(rpc.request(request))
        .await?
        .into_inner()
        .customer
        .unwrap_or_default();
    Ok(Json(json!({
        "msg": "Details updated",
        "user": LegacyUser::from(&customer),
    })))
}

/// `GET /api/users/delete-user/{id}` -> DeleteCustomer (admin).
async fn delete_user(rpc: Rpc, Path(id): Path<String>) -> Reply {
    rpc.accounts()
        .delete_customer(rpc.request(pb::DeleteCustomerRequest { id }))
        .await?;
    Ok(Json(json!({ "msg": "Deleted Successfully" })))
}

/// `GET /api/users` -> ListCustomers, every page, as one array of legacy users (admin).
async fn list_users(rpc: Rpc) -> Reply<Vec<LegacyUser>> {
    let mut users = Vec::new();
    let mut page_token = String::new();
    loop {
        let request = pb::ListCustomersRequest {
            page_size: PAGE_SIZE,
            page_token: page_token.clone(),
            query: String::new(),
        };
        let page = rpc
            .accounts()
            .list_customers(rpc.request(request))
            .await?
            .into_inner();
        users.extend(page.customers.iter().map(LegacyUser::from));
        // A server repeating its token would loop forever; stop instead.
        if page.next_page_token.is_empty() || page.next_page_token == page_token {
            break;
        }
        page_token = page.next_page_token;
    }
    Ok(Json(users))
}
