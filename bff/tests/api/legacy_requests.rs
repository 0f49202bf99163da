//! The legacy request and matching calls end to end: reqwest -> BFF -> the real server
//! (Postgres, Redis, the gazetteer, the outbox) -> back into the old app's shapes. A customer
//! places, reads, edits, lists and cancels requests; another customer, a professional before
//! hire and an anonymous caller never read the street; professionals in Calgary and Edmonton
//! see what is near them; get-distance, and email-phone, which never says who is a
//! professional.
//!
//! Needs TEST_DATABASE_URL and TEST_REDIS_URL (`make test`).

use crate::helpers::legacy::{get, post, text};
use crate::helpers::server::Stack;
use repairs_server::domain::Role;
use repairs_server::testing::{outbox, wait_for_message, wait_until_outbox_idle};
use serde_json::{Value, json};
use uuid::Uuid;

const STREET: &str = "100 8 Ave SW";

/// The old create form, as the original client posts it (`status` and a `user_id` it should
/// not be trusted with included).
fn calgary_form() -> Value {
    json!({
        "specialisation": "Plumber",
        "repair_explanation": "The kitchen sink leaks under the counter",
        "repair_immediately": "Yes",
        "address_1": STREET,
        "address_2": "",
        "country": "Canada",
        "state_or_province": "Alberta",
        "city": "Calgary",
        "zipcode": "T2P 1J9",
        "status": 1,
        "user_id": Uuid::nil().to_string(),
    })
}

/// A customer with a verified phone: (id, token).
async fn customer(stack: &Stack) -> (String, String) {
    let (id, token) = stack.server.account_token(Role::Customer).await;
    sqlx::query("update customers set phone = '+14035550100', phone_verified = true where id = $1")
        .bind(id)
        .execute(&stack.server.server.state.db)
        .await
        .unwrap();
    (id.to_string(), token)
}

/// A plumber whose home base is `zipcode` in `city`, on duty every day all day within 50 km,
/// profile saved through the legacy call (the server places the home base), then approved
/// with a month of membership when `member`: (id, token, email).
async fn plumber(
    stack: &Stack,
    city: &str,
    zipcode: &str,
    member: bool,
) -> (String, String, String) {
    let db = &stack.server.server.state.db;
    let (id, token) = stack.server.account_token(Role::Professional).await;
    let email: String = sqlx::query_scalar(
        "update professionals set phone = '+15875550100', phone_verified = true where id = $1
         returning email::text",
    )
    .bind(id)
    .fetch_one(db)
    .await
    .unwrap();
    let profile = json!({
        "name": format!("{city} Plumbing"),
        "email": email,
        "description": "Emergency plumbing, day and night.",
        "specialisation": "Plumber",
        "experience": "10-15",
        "standard_fees": "45.00",
        "qualification": "Master",
        "office_address": "1 Main St",
        "registered_address": "1 Main St",
        "country": "Canada",
        "state_or_province": "Alberta",
        "city": city,
        "zipcode": zipcode,
        "radius_to_cater": "50",
        "availability_days": "Monday, Tuesday, Wednesday, Thursday, Friday, Saturday, Sunday",
        "availability_hours1": "00:00",
        "availability_hours2": "23:59",
        "sms_updates": "no",
        "lang": "en",
    });
    let (status, saved) = post(stack, "/api/professionals/profile", Some(&token), profile).await;
    assert_eq!(status, 200, "{saved}");
    if member {
        sqlx::query(
            "update professionals set state = 'approved', approved_at = now(),
                membership_expires_at = now() + interval '30 days' where id = $1",
        )
        .bind(id)
        .execute(db)
        .await
        .unwrap();
    }
    (id.to_string(), token, email)
}

async fn place(stack: &Stack, token: &str, form: Value) -> Value {
    let (status, placed) = post(stack, "/api/requests/place", Some(token), form).await;
    assert_eq!(status, 200, "{placed}");
    placed
}

/// The `_id`s of a legacy list.
fn ids(list: &Value) -> Vec<String> {
    list.as_array()
        .unwrap_or_else(|| panic!("not a list: {list}"))
        .iter()
        .map(|record| text(&record["_id"]))
        .collect()
}

async fn requests_of(stack: &Stack, customer: &str) -> i64 {
    sqlx::query_scalar("select count(*) from repair_requests where customer_id = $1")
        .bind(Uuid::parse_str(customer).unwrap())
        .fetch_one(&stack.server.server.state.db)
        .await
        .unwrap()
}

#[tokio::test]
async fn a_customer_places_reads_edits_lists_and_cancels_a_request() {
    let stack = Stack::start().await;
    let (me, token) = customer(&stack).await;

    let placed = place(&stack, &token, calgary_form()).await;
    assert_eq!(placed["msg"], "Your Request is Successfully Created!");
    assert_eq!(placed["status"], 1);
    assert_eq!(
        placed["user_id"],
        me.as_str(),
        "the token's customer, not the body's"
    );
    assert_eq!(placed["specialisation"], "Plumbing Services");
    assert_eq!(placed["repair_immediately"], "Yes");
    assert_eq!(placed["address_1"], STREET);
    assert_eq!(placed["state_or_province"], "Alberta");
    assert_eq!(placed["country"], "Canada");
    let id = text(&placed["_id"]);

    // A double submit (the same form again) places nothing more.
    let again = place(&stack, &token, calgary_form()).await;
    assert_eq!(again["_id"], id.as_str());
    assert_eq!(requests_of(&stack, &me).await, 1);

    // Read and list it.
    let (status, read) = get(&stack, &format!("/api/requests/{id}"), Some(&token)).await;
    assert_eq!(status, 200, "{read}");
    assert_eq!(read["repair_explanation"], placed["repair_explanation"]);
    assert_eq!(read["zipcode"], "T2P 1J9");
    assert!(read.get("distance").is_none(), "{read}");
    let list = |name: &str| format!("/api/requests/{name}/{me}");
    let (status, pending) = get(&stack, &list("pending-requests"), Some(&token)).await;
    assert_eq!(status, 200, "{pending}");
    assert_eq!(ids(&pending), [id.as_str()]);
    // Nobody quoted yet: the with-quotes list (`request-applications`) is empty too.
    for name in [
        "request-applications",
        "active-requests",
        "user-completed-requests",
    ] {
        let (status, empty) = get(&stack, &list(name), Some(&token)).await;
        assert_eq!((status, ids(&empty)), (200, Vec::new()), "{name}");
    }

    // Edit it, with the trailing slash the old router also took.
    let mut form = calgary_form();
    form["repair_explanation"] = json!("The sink and the dishwasher both leak");
    form["repair_immediately"] = json!("No");
    let (status, updated) = post(
        &stack,
        &format!("/api/requests/update/{id}/"),
        Some(&token),
        form,
    )
    .await;
    assert_eq!(status, 200, "{updated}");
    assert_eq!(updated["msg"], "Request Updated");
    assert_eq!(updated["repair_immediately"], "No");
    let (_, read) = get(&stack, &format!("/api/requests/{id}"), Some(&token)).await;
    assert_eq!(
        read["repair_explanation"],
        "The sink and the dishwasher both leak"
    );

    // An address the gazetteer cannot place is the server's field error.
    let mut nowhere = calgary_form();
    nowhere["city"] = json!("Atlantis");
    nowhere["zipcode"] = json!("");
    let (status, refused) = post(&stack, "/api/requests/place", Some(&token), nowhere).await;
    assert_eq!(status, 400, "{refused}");
    assert_eq!(refused["code"], "ADDRESS_NOT_FOUND");

    // Delete cancels: status 4, gone from the pending list, and no longer editable.
    let (status, deleted) = get(
        &stack,
        &format!("/api/requests/delete-request/{id}"),
        Some(&token),
    )
    .await;
    assert_eq!(status, 200, "{deleted}");
    assert_eq!(deleted["msg"], "Deleted Successfully");
    assert_eq!(deleted["status"], 4);
    let (_, pending) = get(&stack, &list("pending-requests"), Some(&token)).await;
    assert!(ids(&pending).is_empty(), "{pending}");
    let (status, closed) = post(
        &stack,
        &format!("/api/requests/update/{id}"),
        Some(&token),
        calgary_form(),
    )
    .await;
    assert_eq!(status, 409, "{closed}");
    assert_eq!(closed["code"], "REPAIR_REQUEST_NOT_OPEN");

    // The same form placed again after the cancel is a new request, not the cancelled one.
    let anew = place(&stack, &token, calgary_form()).await;
    assert_ne!(anew["_id"], id.as_str());
    assert_eq!(anew["status"], 1);
    let again = place(&stack, &token, calgary_form()).await;
    assert_eq!(again["_id"], anew["_id"]);
    assert_eq!(requests_of(&stack, &me).await, 2);

    // A caller that makes its own key has it used.
    let key = Uuid::now_v7().to_string();
    let mut keyed = calgary_form();
    keyed["request_id"] = json!(key);
    let own = place(&stack, &token, keyed.clone()).await;
    assert_ne!(own["_id"], anew["_id"]);
    assert_eq!(place(&stack, &token, keyed).await["_id"], own["_id"]);
    stack.stop().await;
}

#[tokio::test]
async fn another_customer_or_nobody_gets_404_or_403_never_the_data() {
    let stack = Stack::start().await;
    let (owner, owner_token) = customer(&stack).await;
    let (_, other) = customer(&stack).await;
    let placed = place(&stack, &owner_token, calgary_form()).await;
    let id = text(&placed["_id"]);
    let never_the_data = |status: u16, body: &Value| {
        assert!(matches!(status, 403 | 404), "{status} {body}");
        let body = body.to_string();
        assert!(!body.contains(STREET) && !body.contains(&id), "{body}");
    };

    for (verb, path) in [
        ("GET", format!("/api/requests/{id}")),
        ("GET", format!("/api/requests/delete-request/{id}")),
        ("POST", format!("/api/requests/update/{id}")),
        ("GET", format!("/api/requests/pending-requests/{owner}")),
        ("GET", format!("/api/requests/request-applications/{owner}")),
        ("GET", format!("/api/requests/active-requests/{owner}")),
        (
            "GET",
            format!("/api/requests/user-completed-requests/{owner}"),
        ),
        ("GET", "/api/requests".to_owned()),
    ] {
        let (status, body) = match verb {
            "GET" => get(&stack, &path, Some(&other)).await,
            _ => post(&stack, &path, Some(&other), calgary_form()).await,
        };
        never_the_data(status, &body);
        // Nobody signed in: 401.
        let (status, body) = match verb {
            "GET" => get(&stack, &path, None).await,
            _ => post(&stack, &path, None, calgary_form()).await,
        };
        assert_eq!(status, 401, "{verb} {path}: {body}");
    }
    // The other customer's edit and delete changed nothing.
    let (_, read) = get(&stack, &format!("/api/requests/{id}"), Some(&owner_token)).await;
    assert_eq!(read["status"], 1);
    assert_eq!(read["repair_explanation"], placed["repair_explanation"]);
    // Their own list is theirs only.
    let (status, nothing) = get(
        &stack,
        "/api/requests/pending-requests/00000000-0000-0000-0000-000000000000",
        Some(&other),
    )
    .await;
    never_the_data(status, &nothing);

    // The admin sees everything, by legacy status.
    let (_, admin) = stack.server.account_token(Role::Admin).await;
    let (status, all) = get(&stack, "/api/requests", Some(&admin)).await;
    assert_eq!((status, ids(&all)), (200, vec![id.clone()]));
    assert_eq!(all[0]["address_1"], STREET);
    let (_, open) = get(&stack, "/api/requests?status=1", Some(&admin)).await;
    assert_eq!(ids(&open), [id.as_str()]);
    let (_, cancelled) = get(&stack, "/api/requests?status=4", Some(&admin)).await;
    assert!(ids(&cancelled).is_empty());
    let (_, plumbing) = get(&stack, "/api/requests?service=Plumber", Some(&admin)).await;
    assert_eq!(ids(&plumbing), [id.as_str()]);
    let (_, roofing) = get(&stack, "/api/requests?service=Roofing", Some(&admin)).await;
    assert!(ids(&roofing).is_empty());
    let (status, bad) = get(&stack, "/api/requests?status=9", Some(&admin)).await;
    assert_eq!(status, 400, "{bad}");
    let (status, theirs) = get(
        &stack,
        &format!("/api/requests/pending-requests/{owner}"),
        Some(&admin),
    )
    .await;
    assert_eq!((status, ids(&theirs)), (200, vec![id]));
    stack.stop().await;
}

#[tokio::test]
async fn professionals_see_open_requests_near_them_without_the_street() {
    let stack = Stack::start().await;
    let (calgary, calgary_token, calgary_email) = plumber(&stack, "Calgary", "T2P 1J9", true).await;
    let (edmonton, edmonton_token, edmonton_email) =
        plumber(&stack, "Edmonton", "T5J 0N3", true).await;
    let (lapsed, lapsed_token, _) = plumber(&stack, "Calgary", "T2P 1J9", false).await;
    let (_, customer_token) = customer(&stack).await;
    // Airdrie (about 27 km north) first, then downtown Calgary.
    let mut airdrie = calgary_form();
    airdrie["city"] = json!("Airdrie");
    airdrie["zipcode"] = json!("T4B 0A1");
    let airdrie = text(&place(&stack, &customer_token, airdrie).await["_id"]);
    let placed = place(&stack, &customer_token, calgary_form()).await;
    let id = text(&placed["_id"]);

    // Calgary: listed nearest first with the distances, never the street.
    let (status, listed) = get(
        &stack,
        &format!("/api/requests/request-list/{calgary}"),
        Some(&calgary_token),
    )
    .await;
    assert_eq!(status, 200, "{listed}");
    assert_eq!(ids(&listed), [id.as_str(), airdrie.as_str()]);
    let km = |record: &Value| record["distance"].as_i64().unwrap();
    assert!(km(&listed[0]) < km(&listed[1]), "{listed}");
    assert!((20..=35).contains(&km(&listed[1])), "{listed}");
    let record = &listed[0];
    assert_eq!(record["address_1"], "");
    assert_eq!(record["zipcode"], "T2P");
    assert_eq!(record["city"], "Calgary");
    assert_eq!(record["applied"], false);
    assert!(!listed.to_string().contains(STREET), "{listed}");
    let (status, read) = get(&stack, &format!("/api/requests/{id}"), Some(&calgary_token)).await;
    assert_eq!(status, 200, "{read}");
    assert_eq!(read["address_1"], "");
    assert!(!read.to_string().contains(STREET), "{read}");

    // Edmonton (about 280 km away): not listed, and the request is not theirs to read.
    let (status, far) = get(
        &stack,
        &format!("/api/requests/request-list/{edmonton}"),
        Some(&edmonton_token),
    )
    .await;
    assert_eq!((status, ids(&far)), (200, Vec::new()), "{far}");
    let (status, body) = get(
        &stack,
        &format!("/api/requests/{id}"),
        Some(&edmonton_token),
    )
    .await;
    assert_eq!(status, 404, "{body}");

    // Another professional's list is not theirs; a lapsed membership is refused with its reason.
    let (status, body) = get(
        &stack,
        &format!("/api/requests/request-list/{calgary}"),
        Some(&edmonton_token),
    )
    .await;
    assert!(matches!(status, 403 | 404), "{status} {body}");
    let (status, refused) = get(
        &stack,
        &format!("/api/requests/request-list/{lapsed}"),
        Some(&lapsed_token),
    )
    .await;
    assert_eq!(status, 409, "{refused}");
    assert!(
        matches!(
            refused["code"].as_str(),
            Some("PROFESSIONAL_NOT_APPROVED" | "MEMBERSHIP_INACTIVE")
        ),
        "{refused}"
    );

    // The server told Calgary by email (naming the city, not the street); Edmonton nothing.
    let mail = wait_for_message(stack.data_dir(), "email.jsonl", &calgary_email, &id, 1).await;
    let body = text(&mail["body"]);
    assert!(body.contains("Calgary") && !body.contains(STREET), "{body}");
    wait_until_outbox_idle(&stack.server.server.state.db).await;
    assert!(
        outbox(stack.data_dir(), "email.jsonl")
            .iter()
            .all(|m| m["to"] != edmonton_email.as_str()),
    );
    stack.stop().await;
}

#[tokio::test]
async fn distances_between_addresses_postal_codes_and_points() {
    let stack = Stack::start().await;
    let (_, token) = customer(&stack).await;

    // Distance: text or points, in metres and whole km.
    let (status, distance) = post(
        &stack,
        "/api/professionals/get-distance",
        Some(&token),
        json!({ "origin": "T2P 1J9", "destination": "T5J 0N3" }),
    )
    .await;
    assert_eq!(status, 200, "{distance}");
    let metres = distance["distance"].as_i64().unwrap();
    assert!((250_000..320_000).contains(&metres), "{distance}");
    assert_eq!(
        distance["distance_km"].as_i64().unwrap(),
        (metres as f64 / 1000.0).round() as i64
    );
    let (status, points) = post(
        &stack,
        "/api/professionals/get-distance",
        Some(&token),
        json!({ "origin": { "lat": 51.0447, "lng": -114.0719 }, "destination": { "lat": 51.0447, "lng": -114.0719 } }),
    )
    .await;
    assert_eq!(
        (status, points["distance"].as_i64()),
        (200, Some(0)),
        "{points}"
    );
    let (status, unknown) = post(
        &stack,
        "/api/professionals/get-distance",
        Some(&token),
        json!({ "origin": "T2P 1J9", "destination": "Atlantis" }),
    )
    .await;
    assert_eq!(status, 404, "{unknown}");
    assert_eq!(unknown["code"], "ADDRESS_NOT_FOUND");
    let (status, _) = post(
        &stack,
        "/api/professionals/get-distance",
        None,
        json!({ "origin": "T2P 1J9", "destination": "T5J 0N3" }),
    )
    .await;
    assert_eq!(status, 401);
    stack.stop().await;
}
#[tokio::test]
async fn email_phone_answers_the_same_whoever_the_email_belongs_to() {
    let stack = Stack::start().await;
    let (_, _, calgary_email) = plumber(&stack, "Calgary", "T2P 1J9", true).await;
    let (_, _, edmonton_email) = plumber(&stack, "Edmonton", "T5J 0N3", true).await;
    let (_, token) = customer(&stack).await;

    // After placing, as the old client did: the same answer for a matching professional, a
    // far one and an address nobody has.
    let placed = place(&stack, &token, calgary_form()).await;
    let id = text(&placed["_id"]);
    let mut answers = Vec::new();
    for email in [
        calgary_email.as_str(),
        edmonton_email.as_str(),
        "nobody@example.ca",
        calgary_email.as_str(),
    ] {
        let body =
            json!({ "email": email, "name": "x", "phone": "", "sms_updates": "no", "lang": "en" });
        answers.push(post(&stack, "/api/professionals/email-phone", Some(&token), body).await);
    }
    assert_eq!(answers[0].0, 200, "{}", answers[0].1);
    assert!(
        answers.iter().all(|answer| *answer == answers[0]),
        "{answers:?}"
    );

    // Calgary was told once (the server's own fan-out); Edmonton never.
    wait_for_message(stack.data_dir(), "email.jsonl", &calgary_email, &id, 1).await;
    wait_until_outbox_idle(&stack.server.server.state.db).await;
    let sent = outbox(stack.data_dir(), "email.jsonl");
    let to = |email: &str| sent.iter().filter(|m| m["to"] == email).count();
    assert_eq!(to(&calgary_email), 1);
    assert_eq!(to(&edmonton_email), 0);
    stack.stop().await;
}

/// The hire through the legacy pay call, then the order histories and mark-completed: each party reads only their own orders, the admin all;
/// marking completed captures the hold, which the orders show.
#[tokio::test]
async fn orders_list_for_their_parties_and_mark_completed_captures() {
    use repairs_server::testing::send_quote;

    let stack = Stack::start().await;
    let (customer_id, customer_token) = customer(&stack).await;
    let (_, stranger_token) = customer(&stack).await;
    let (pro_id, pro_token, _) = plumber(&stack, "Calgary", "T2P 1J9", true).await;
    let (_, other_pro_token, _) = plumber(&stack, "Calgary", "T2P 1J9", true).await;
    let placed = place(&stack, &customer_token, calgary_form()).await;
    let quote = send_quote(&stack.server, &pro_token, &text(&placed["_id"]), 9_000).await;
    // The old hire page's body: the amount it sends is ignored, the quote's fee is held.
    let pay = json!({
        "token": "pm_card_visa",
        "lang": "en",
        "amount": 1,
        "req_id": [text(&placed["_id"])],
        "application_id": quote.id,
        "professional_id": [pro_id],
        "user_id": customer_id,
    });
    assert_eq!(
        post(
            &stack,
            "/api/stripe/pay",
            Some(&stranger_token),
            pay.clone()
        )
        .await
        .0,
        404
    );
    let (status, paid) = post(
        &stack,
        "/api/stripe/pay",
        Some(&customer_token),
        pay.clone(),
    )
    .await;
    assert_eq!(status, 200, "{paid}");
    let (_, again) = post(&stack, "/api/stripe/pay", Some(&customer_token), pay).await;
    assert_eq!(
        again["order_id"], paid["order_id"],
        "a retried pay holds once"
    );
    let mine = format!("/api/orders/user-orders/{customer_id}");
    let (status, orders) = get(&stack, &mine, Some(&customer_token)).await;
    assert_eq!(status, 200, "{orders}");
    assert_eq!(orders[0]["amount"], 9_000);
    assert_eq!(orders[0]["_id"], paid["order_id"]);
    assert_eq!(orders[0]["captured"], false);
    assert_eq!(orders[0]["applicationdetails"]["time_of_service"], 1.5);
    assert_eq!(text(&orders[0]["professionaldetails"]["_id"]), pro_id);
    for token in [&stranger_token, &other_pro_token] {
        assert_eq!(get(&stack, &mine, Some(token)).await.0, 404);
    }
    let theirs = format!("/api/orders/professional-orders/{pro_id}");
    assert_eq!(
        get(&stack, &theirs, Some(&pro_token)).await.1[0]["_id"],
        orders[0]["_id"]
    );
    assert_eq!(get(&stack, &theirs, Some(&other_pro_token)).await.0, 404);
    assert_eq!(
        get(&stack, "/api/orders/view-orders/", Some(&customer_token))
            .await
            .0,
        403
    );

    let completed = format!("/api/requests/mark-completed/{}", text(&placed["_id"]));
    assert_eq!(get(&stack, &completed, Some(&stranger_token)).await.0, 404);
    let (status, done) = get(&stack, &completed, Some(&customer_token)).await;
    assert_eq!(status, 200, "{done}");
    assert_eq!(done["msg"], "Marked as completed");
    let (_, orders) = get(&stack, &mine, Some(&customer_token)).await;
    assert_eq!(orders[0]["captured"], true);
    stack.stop().await;
}

/// What the hire does to the tables (the hire's own calls live in the billing area): the
/// quote hired and the request hired on it.
async fn hire_in_tables(stack: &Stack, request: &str, quote: &str, professional: &str) {
    let db = &stack.server.server.state.db;
    sqlx::query("update quotes set state = 'hired' where id = $1")
        .bind(Uuid::parse_str(quote).unwrap())
        .execute(db)
        .await
        .unwrap();
    sqlx::query(
        "update repair_requests set state = 'hired', hired_professional_id = $2,
            hired_application_id = $3 where id = $1",
    )
    .bind(Uuid::parse_str(request).unwrap())
    .bind(Uuid::parse_str(professional).unwrap())
    .bind(Uuid::parse_str(quote).unwrap())
    .execute(db)
    .await
    .unwrap();
}

#[tokio::test]
async fn a_professional_applies_and_both_sides_list_read_and_count_the_quote() {
    let stack = Stack::start().await;
    let (calgary, calgary_token, _) = plumber(&stack, "Calgary", "T2P 1J9", true).await;
    let (edmonton, edmonton_token, _) = plumber(&stack, "Edmonton", "T5J 0N3", true).await;
    let (customer_id, customer_token) = customer(&stack).await;
    let (stranger, stranger_token) = customer(&stack).await;
    let request = text(&place(&stack, &customer_token, calgary_form()).await["_id"]);
    let form = json!({
        "request_applied": request,
        "time_of_service": "1.5",
        "fees": "90.00",
        "professional_id": edmonton,
    });

    // Apply: the professional is the token's, whatever the body says.
    let (status, applied) = post(
        &stack,
        "/api/requests/apply",
        Some(&calgary_token),
        form.clone(),
    )
    .await;
    assert_eq!(status, 200, "{applied}");
    assert_eq!(applied["professional_id"], calgary.as_str());
    assert_eq!(applied["time_of_service"], "1.5");
    assert_eq!(applied["fees"], "90.00");
    assert_eq!(applied["request_applied"], request.as_str());
    let quote = text(&applied["_id"]);
    let (status, again) = post(
        &stack,
        "/api/requests/apply",
        Some(&calgary_token),
        form.clone(),
    )
    .await;
    assert_eq!(
        (status, again["code"].as_str()),
        (409, Some("QUOTE_EXISTS")),
        "{again}"
    );
    // Too far away: the request does not exist for Edmonton; a bad estimate is a 400.
    let (status, far) = post(
        &stack,
        "/api/requests/apply",
        Some(&edmonton_token),
        form.clone(),
    )
    .await;
    assert_eq!(status, 404, "{far}");
    let mut vague = form.clone();
    vague["time_of_service"] = json!("soon");
    let (status, body) = post(&stack, "/api/requests/apply", Some(&calgary_token), vague).await;
    assert_eq!(status, 400, "{body}");
    let (status, body) = post(&stack, "/api/requests/apply", Some(&customer_token), form).await;
    assert!(matches!(status, 401 | 403), "{status} {body}");

    // The customer lists the request's quotes with who sent them and the request in full.
    let path = format!("/api/applications/request-applications/{request}");
    let (status, listed) = get(&stack, &path, Some(&customer_token)).await;
    assert_eq!(status, 200, "{listed}");
    assert_eq!(ids(&listed), [quote.as_str()]);
    assert_eq!(listed[0]["professionaldetails"]["name"], "Calgary Plumbing");
    assert_eq!(listed[0]["professionaldetails"]["_id"], calgary.as_str());
    assert_eq!(listed[0]["requestdetails"]["address_1"], STREET);
    // Nobody else lists them: another customer (404), the quoting professional (a role that
    // never lists quotes: 403), nobody signed in (401).
    for (token, expected) in [(&stranger_token, 404), (&calgary_token, 403)] {
        let (status, body) = get(&stack, &path, Some(token)).await;
        assert_eq!(status, expected, "{body}");
        assert!(!body.to_string().contains(STREET), "{body}");
    }
    let (status, _) = get(&stack, &path, None).await;
    assert_eq!(status, 401);

    // One quote: the customer with the street, its professional without, others 404.
    let view = format!("/api/applications/view-application/{quote}");
    let (status, seen) = get(&stack, &view, Some(&customer_token)).await;
    assert_eq!(status, 200, "{seen}");
    assert_eq!(seen[0]["appdetails"]["address_1"], STREET);
    assert_eq!(seen[0]["fees"], "90.00");
    let (status, own) = get(&stack, &view, Some(&calgary_token)).await;
    assert_eq!(status, 200, "{own}");
    assert_eq!(own[0]["appdetails"]["address_1"], "");
    assert!(!own.to_string().contains(STREET), "{own}");
    for token in [&stranger_token, &edmonton_token] {
        let (status, body) = get(&stack, &view, Some(token)).await;
        assert_eq!(status, 404, "{body}");
    }

    // The professional's applied list; another professional cannot read it.
    let applied_list = format!("/api/requests/applied-requests/{calgary}");
    let (status, mine) = get(&stack, &applied_list, Some(&calgary_token)).await;
    assert_eq!(status, 200, "{mine}");
    assert_eq!(ids(&mine), [request.as_str()]);
    assert_eq!(mine[0]["application"]["_id"], quote.as_str());
    assert_eq!(mine[0]["address_1"], "");
    let (status, body) = get(&stack, &applied_list, Some(&edmonton_token)).await;
    assert!(matches!(status, 403 | 404), "{status} {body}");

    // Both dashboards count it; nobody reads another's.
    let (status, counts) = post(
        &stack,
        "/api/users/user-dashboard-data/",
        Some(&customer_token),
        json!({ "id": customer_id }),
    )
    .await;
    assert_eq!(status, 200, "{counts}");
    assert_eq!(
        counts,
        json!({"job_posted": 1, "appl_received": 1, "pr_shortlisted": 0, "job_completed": 0})
    );
    let (status, body) = post(
        &stack,
        "/api/users/user-dashboard-data/",
        Some(&stranger_token),
        json!({ "id": customer_id }),
    )
    .await;
    assert_eq!(status, 403, "{body}");
    let (status, own) = post(
        &stack,
        "/api/users/user-dashboard-data/",
        Some(&stranger_token),
        json!({ "id": stranger }),
    )
    .await;
    assert_eq!((status, &own["job_posted"]), (200, &json!(0)), "{own}");
    let dashboard = "/api/professionals/professional-dashboard-data/";
    let (status, counts) = post(
        &stack,
        dashboard,
        Some(&calgary_token),
        json!({ "id": calgary }),
    )
    .await;
    assert_eq!(status, 200, "{counts}");
    assert_eq!(
        (
            &counts["job_received"],
            &counts["job_applied"],
            &counts["job_accepted"]
        ),
        (&json!(1), &json!(1), &json!(0)),
        "{counts}"
    );
    assert_eq!(ids(&counts["latest_requests"]), [request.as_str()]);
    assert!(!counts.to_string().contains(STREET), "{counts}");
    let (status, body) = post(
        &stack,
        dashboard,
        Some(&edmonton_token),
        json!({ "id": calgary }),
    )
    .await;
    assert_eq!(status, 403, "{body}");

    // Hired: the active list (the token's own) shows the street; completed, the completed list.
    hire_in_tables(&stack, &request, &quote, &calgary).await;
    let (status, active) = get(
        &stack,
        "/api/requests/professional-active-requests",
        Some(&calgary_token),
    )
    .await;
    assert_eq!(status, 200, "{active}");
    assert_eq!(ids(&active), [request.as_str()]);
    assert_eq!(active[0]["address_1"], STREET);
    assert_eq!(active[0]["application"]["status"], "hired");
    let (status, others) = get(
        &stack,
        "/api/requests/professional-active-requests",
        Some(&edmonton_token),
    )
    .await;
    assert_eq!(
        (status, ids(&others)),
        (200, Vec::<String>::new()),
        "{others}"
    );
    // Completed (mark-completed is the hire area's translation: here, through the tables).
    sqlx::query("update repair_requests set state = 'completed' where id = $1")
        .bind(Uuid::parse_str(&request).unwrap())
        .execute(&stack.server.server.state.db)
        .await
        .unwrap();
    let completed = format!("/api/requests/completed-requests/{calgary}");
    let (status, done) = get(&stack, &completed, Some(&calgary_token)).await;
    assert_eq!(status, 200, "{done}");
    assert_eq!(ids(&done), [request.as_str()]);
    let (status, counts) = post(&stack, dashboard, Some(&calgary_token), json!({})).await;
    assert_eq!(status, 200, "{counts}");
    // Still received: they were told of it, whatever became of it.
    assert_eq!(
        (
            &counts["job_received"],
            &counts["job_accepted"],
            &counts["job_completed"]
        ),
        (&json!(1), &json!(1), &json!(1)),
        "{counts}"
    );
    stack.stop().await;
}

/// The captured hire payment and completed order of a hired request (what the hire and the
/// completion write), and the request completed.
async fn paid_and_completed(stack: &Stack, request: &str, quote: &str, customer: &str, pro: &str) {
    let db = &stack.server.server.state.db;
    let payment = Uuid::now_v7();
    sqlx::query(
        "insert into payments (id, purpose, payer_id, amount_cents, subtotal_cents, currency,
            gateway, charge_id, state)
         values ($1, 'hire', $2, 9000, 9000, 'CAD', 'test', $3, 'captured')",
    )
    .bind(payment)
    .bind(Uuid::parse_str(customer).unwrap())
    .bind(format!("pi_{}", payment.simple()))
    .execute(db)
    .await
    .unwrap();
    sqlx::query(
        "insert into orders (id, repair_request_id, quote_id, customer_id, professional_id,
            request_id, payment_id, amount_cents, currency, created_at, hired_at, completed_at)
         values ($1, $2, $3, $4, $5, $6, $7, 9000, 'CAD', now(), now(), now())",
    )
    .bind(Uuid::now_v7())
    .bind(Uuid::parse_str(request).unwrap())
    .bind(Uuid::parse_str(quote).unwrap())
    .bind(Uuid::parse_str(customer).unwrap())
    .bind(Uuid::parse_str(pro).unwrap())
    .bind(Uuid::now_v7())
    .bind(payment)
    .execute(db)
    .await
    .unwrap();
    sqlx::query("update repair_requests set state = 'completed' where id = $1")
        .bind(Uuid::parse_str(request).unwrap())
        .execute(db)
        .await
        .unwrap();
}

#[tokio::test]
async fn the_customer_reviews_a_paid_job_once_and_anyone_reads_the_reviews() {
    let stack = Stack::start().await;
    let (calgary, calgary_token, _) = plumber(&stack, "Calgary", "T2P 1J9", true).await;
    let (customer_id, customer_token) = customer(&stack).await;
    let (_, stranger_token) = customer(&stack).await;
    let request = text(&place(&stack, &customer_token, calgary_form()).await["_id"]);
    let (status, applied) = post(
        &stack,
        "/api/requests/apply",
        Some(&calgary_token),
        json!({ "request_applied": request, "time_of_service": "2", "fees": "90" }),
    )
    .await;
    assert_eq!(status, 200, "{applied}");
    let quote = text(&applied["_id"]);
    hire_in_tables(&stack, &request, &quote, &calgary).await;
    let form = json!({
        "request_id": request,
        "review": "Fast and tidy.",
        "rating": "5",
        "user_id": customer_id,
        "professional_id": calgary,
    });

    // Before the job is done and paid: 409 with the reason.
    let (status, early) = post(
        &stack,
        "/api/users/submit-review",
        Some(&customer_token),
        form.clone(),
    )
    .await;
    assert_eq!(
        (status, early["code"].as_str()),
        (409, Some("REPAIR_REQUEST_NOT_COMPLETED")),
        "{early}"
    );
    paid_and_completed(&stack, &request, &quote, &customer_id, &calgary).await;

    let mut wrong = form.clone();
    wrong["rating"] = json!(9);
    let (status, body) = post(
        &stack,
        "/api/users/submit-review",
        Some(&customer_token),
        wrong,
    )
    .await;
    assert_eq!(status, 400, "{body}");
    let (status, body) = post(
        &stack,
        "/api/users/submit-review",
        Some(&stranger_token),
        form.clone(),
    )
    .await;
    assert_eq!(status, 404, "{body}");
    let (status, written) = post(
        &stack,
        "/api/users/submit-review",
        Some(&customer_token),
        form.clone(),
    )
    .await;
    assert_eq!(status, 200, "{written}");
    assert_eq!(written["msg"], "Review Submitted Successfully");
    let (status, again) = post(
        &stack,
        "/api/users/submit-review",
        Some(&customer_token),
        form,
    )
    .await;
    assert_eq!(
        (status, again["code"].as_str()),
        (409, Some("REVIEW_EXISTS")),
        "{again}"
    );

    // get-review: 'Yes' for the request's professional, 'No' for another id; 404 for others.
    let path = format!("/api/professionals/get-review/{request}/{calgary}");
    let (status, found) = get(&stack, &path, Some(&customer_token)).await;
    assert_eq!(
        (status, &found["review_submitted"]),
        (200, &json!("Yes")),
        "{found}"
    );
    assert_eq!(found["rating"], 5);
    let (status, found) = get(&stack, &path, Some(&calgary_token)).await;
    assert_eq!(
        (status, &found["review_submitted"]),
        (200, &json!("Yes")),
        "{found}"
    );
    let other = format!("/api/professionals/get-review/{request}/{}", Uuid::now_v7());
    let (status, none) = get(&stack, &other, Some(&customer_token)).await;
    assert_eq!((status, none), (200, json!({ "review_submitted": "No" })));
    let (status, body) = get(&stack, &path, Some(&stranger_token)).await;
    assert_eq!(status, 404, "{body}");

    // The profile's list, for anyone.
    let (status, listed) = get(&stack, &format!("/api/users/get-reviews/{calgary}"), None).await;
    assert_eq!(status, 200, "{listed}");
    assert_eq!(listed.as_array().map(Vec::len), Some(1), "{listed}");
    assert_eq!(listed[0]["rating"], 5);
    assert_eq!(listed[0]["review"], "Fast and tidy.");
    assert!(listed[0]["users"][0]["name"].is_string(), "{listed}");
    stack.stop().await;
}

/// The professionals recorded as having opened request `id`.
async fn opened_by(stack: &Stack, id: &str) -> Vec<String> {
    sqlx::query_scalar(
        "select professional_id::text from request_opens where repair_request_id = $1",
    )
    .bind(Uuid::parse_str(id).unwrap())
    .fetch_all(&stack.server.server.state.db)
    .await
    .unwrap()
}

#[tokio::test]
async fn a_professional_s_legacy_read_counts_as_opening_the_request_once() {
    let stack = Stack::start().await;
    let (calgary, calgary_token, _) = plumber(&stack, "Calgary", "T2P 1J9", true).await;
    let (_, customer_token) = customer(&stack).await;
    let id = text(&place(&stack, &customer_token, calgary_form()).await["_id"]);

    // The customer's own read is not an open.
    let (status, read) = get(
        &stack,
        &format!("/api/requests/{id}"),
        Some(&customer_token),
    )
    .await;
    assert_eq!(status, 200, "{read}");
    tokio::time::sleep(std::time::Duration::from_millis(300)).await;
    assert_eq!(opened_by(&stack, &id).await, Vec::<String>::new());

    // The professional reads it twice: recorded once (beside the read, so waited for).
    for _ in 0..2 {
        let (status, read) =
            get(&stack, &format!("/api/requests/{id}"), Some(&calgary_token)).await;
        assert_eq!(status, 200, "{read}");
    }
    let mut opened = Vec::new();
    for _ in 0..100 {
        opened = opened_by(&stack, &id).await;
        if !opened.is_empty() {
            break;
        }
        tokio::time::sleep(std::time::Duration::from_millis(50)).await;
    }
    assert_eq!(opened, vec![calgary]);
    stack.stop().await;
}
