//! The legacy surface as the original web client really calls it: it reads the account id
//! from the token's payload (`id`), routes on `city !== undefined` after a professional's
//! login, sends the profile as JSON with `specialisation` as a comma-separated string or an
//! array of its short service names and the file fields as plain strings, and reads the
//! token from the path of `get-professional/{token}`. End to end against the real server.
//!
//! Needs TEST_DATABASE_URL and TEST_REDIS_URL (`make test`).

use crate::helpers::legacy::{PASSWORD, get, post, text};
use crate::helpers::server::Stack;
use base64::Engine;
use base64::engine::general_purpose::URL_SAFE_NO_PAD;
use serde_json::{Value, json};

/// The token's payload, decoded as the old client does (no signature check).
fn payload(token: &str) -> Value {
    let part = token.split('.').nth(1).unwrap();
    serde_json::from_slice(&URL_SAFE_NO_PAD.decode(part).unwrap()).unwrap()
}

/// The profile as the original client posts it: JSON, numbers where it had numbers, the file
/// fields as the strings its form held, card fields it still carried.
fn json_profile(id: &str, specialisation: Value) -> Value {
    json!({
        "id": id,
        "name": "Olga Original",
        "email": "olga@example.ca",
        "phone": "",
        "description": "Emergency repairs, day and night.",
        "photo_id": "",
        "photo": "C:\\fakepath\\me.png",
        "licence": "",
        "specialisation": specialisation,
        "experience": "10-15",
        "standard_fees": 45,
        "qualification": "Master",
        "office_address": "100 9 Ave SW",
        "registered_address": "100 9 Ave SW, Calgary AB",
        "country": "Canada",
        "state_or_province": "Alberta",
        "city": "Calgary",
        "zipcode": "T2P 1J9",
        "radius_to_cater": 25,
        "availability_days": ["Monday", "Saturday"],
        "availability_hours1": "08:00",
        "availability_hours2": "18:00",
        "professional_card": "",
        "update_status": 2,
        "sms_updates": "no",
        "lang": "en",
    })
}

async fn sign_up(stack: &Stack) {
    let body = json!({ "name": "Olga Original", "email": "olga@example.ca", "password": PASSWORD });
    let (status, signed) = post(stack, "/api/professionals", None, body).await;
    assert_eq!(status, 200, "{signed}");
}

async fn log_in(stack: &Stack) -> Value {
    let (status, login) = post(
        stack,
        "/api/professionals/login",
        None,
        json!({ "email": "olga@example.ca", "password": PASSWORD }),
    )
    .await;
    assert_eq!(status, 200, "{login}");
    login
}

#[tokio::test]
async fn the_original_client_signs_in_and_saves_its_profile_as_json() {
    let stack = Stack::start().await;
    sign_up(&stack).await;

    // No profile yet: no `city` at all, so the client opens the profile form.
    let login = log_in(&stack).await;
    assert!(login.get("city").is_none(), "{login}");
    let token = text(&login["token"]);
    // The client fills every id from the payload's `id`.
    let id = text(&payload(&token)["id"]);
    assert_eq!(id, text(&login["id"]));

    // Short names as a comma-separated string.
    let (status, saved) = post(
        &stack,
        "/api/professionals/profile",
        Some(&token),
        json_profile(&id, json!("Plumber,Roofing")),
    )
    .await;
    assert_eq!(status, 200, "{saved}");
    let record = &saved["professional"];
    assert_eq!(
        record["specialisation"],
        "Plumbing Services, Roofing Services"
    );
    assert_eq!(record["standard_fees"], "45.00");
    assert_eq!(record["radius_to_cater"], "25");
    assert_eq!(record["availability_days"], "Monday, Saturday");
    assert_eq!(
        record["photo_id"], "",
        "a file field sent as text stores nothing"
    );

    // Every short name, as an array, beside a full name.
    let (status, saved) = post(
        &stack,
        "/api/professionals/profile",
        Some(&token),
        json_profile(
            &id,
            json!([
                "Carpenter",
                "Pest Control",
                "AC Repair",
                "Electrician",
                "Cleaning and Disinfection",
                "Electrical Appliance Repair",
                "Plumbing Services"
            ]),
        ),
    )
    .await;
    assert_eq!(status, 200, "{saved}");
    assert_eq!(
        saved["professional"]["specialisation"],
        "Plumbing Services, Carpenter Services, Pest Control Services, AC Repair Services, \
         Electrician Services, Cleaning and Disinfection, Electrical Appliance Repair"
    );

    // A name that is no service is the server's field error.
    let (status, refused) = post(
        &stack,
        "/api/professionals/profile",
        Some(&token),
        json_profile(&id, json!("Plumber, Gardener")),
    )
    .await;
    assert_eq!(status, 400, "{refused}");
    assert_eq!(refused["errors"][0]["field"], "profile.service_ids");

    // With a city, the login answers it and the client goes to the request list.
    let login = log_in(&stack).await;
    assert_eq!(login["city"], "Calgary");

    // The token in the path, and no header at all.
    let token = text(&login["token"]);
    let (status, record) = get(
        &stack,
        &format!("/api/professionals/get-professional/{token}"),
        None,
    )
    .await;
    assert_eq!(status, 200, "{record}");
    assert_eq!(record["_id"], id.as_str());
    assert_eq!(record["city"], "Calgary");
    stack.stop().await;
}

#[tokio::test]
async fn an_approval_keeps_the_session_and_a_denial_ends_it_with_a_401_and_its_reason() {
    let stack = Stack::start().await;
    stack.create_admin("ada@example.ca", PASSWORD).await;
    sign_up(&stack).await;
    let login = log_in(&stack).await;
    let (token, id) = (text(&login["token"]), text(&login["id"]));
    let (_, admin) = post(
        &stack,
        "/api/admin/login",
        None,
        json!({ "email": "ada@example.ca", "password": PASSWORD }),
    )
    .await;
    let admin = text(&admin["admin_token"]);
    let (status, _) = get(
        &stack,
        &format!("/api/professionals/approve-professional/{id}"),
        Some(&admin),
    )
    .await;
    assert_eq!(status, 200);
    // The same session goes on, and reads the decision.
    let own = format!("/api/professionals/get-professional/{token}");
    let (status, record) = get(&stack, &own, None).await;
    assert_eq!(status, 200, "{record}");
    assert_eq!(record["status"], 1);

    let (status, _) = post(
        &stack,
        "/api/professionals/disapprove-professional",
        Some(&admin),
        json!({ "id": id, "reason": "The licence is unreadable" }),
    )
    .await;
    assert_eq!(status, 200);
    let (status, ended) = get(&stack, &own, None).await;
    assert_eq!(status, 401, "{ended}");
    assert_eq!(ended["code"], "SESSION_REVOKED");
    // Signing in again shows the decision.
    let login = log_in(&stack).await;
    assert_eq!(login["status"], 2);
    stack.stop().await;
}
