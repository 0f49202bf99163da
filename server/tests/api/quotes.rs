//! Quotes against the real server, Postgres and Redis: who may quote (the matching rule
//! behind the membership gate, open requests only), the fee rules and the surge box, one
//! live quote per professional and request, withdrawing, the customer told through the
//! outbox in their language, and who may read a request's quotes.

use crate::helpers::{
    TestServer,
    market::{
        CALGARY_PRO, Market, Pro, cancel, customer, db, in_calgary, market, open_request, place,
        professional,
    },
    reason, violated_fields, wait_for_message, with_token,
};
use repairs_proto::{
    marketplace::{self as pb, repair_request::Location},
    types::Money,
};
use tonic::Code;
use uuid::Uuid;

fn cad(cents: i64) -> Option<Money> {
    Some(Money {
        amount_cents: cents,
        currency: "CAD".into(),
    })
}

fn quote_on(request_id: &str, fee: Option<Money>, surge: bool) -> pb::CreateQuoteRequest {
    pb::CreateQuoteRequest {
        repair_request_id: request_id.into(),
        estimated_minutes: 90,
        fee,
        surge,
        add_taxes: None,
        arrival_minutes: Some(45),
    }
}

async fn send(
    market: &mut Market,
    token: &str,
    quote: pb::CreateQuoteRequest,
) -> Result<pb::Quote, tonic::Status> {
    market
        .create_quote(with_token(quote, token))
        .await
        .map(|r| r.into_inner().quote.unwrap())
}

async fn withdraw(market: &mut Market, token: &str, id: &str) -> Result<pb::Quote, tonic::Status> {
    market
        .withdraw_quote(with_token(
            pb::WithdrawQuoteRequest { id: id.into() },
            token,
        ))
        .await
        .map(|r| r.into_inner().quote.unwrap())
}

async fn quotes_of(
    market: &mut Market,
    token: &str,
    request_id: &str,
) -> Result<Vec<pb::Quote>, tonic::Status> {
    market
        .list_repair_request_quotes(with_token(
            pb::ListRepairRequestQuotesRequest {
                repair_request_id: request_id.into(),
                page_size: 0,
                page_token: String::new(),
            },
            token,
        ))
        .await
        .map(|r| r.into_inner().quotes)
}

async fn set_minimum_fee(server: &TestServer, professional: Uuid, cents: i64) {
    sqlx::query("update professionals set minimum_fee_cents = $2 where id = $1")
        .bind(professional)
        .bind(cents)
        .execute(db(server))
        .await
        .unwrap();
}

/// An open request quoted on (9,000 cents) by one Calgary plumber, and another who did not.
struct Quoted {
    server: TestServer,
    market: Market,
    customer_token: String,
    request: pb::RepairRequest,
    pro_token: String,
    other_pro_token: String,
    quote: pb::Quote,
}

async fn quoted_request() -> Quoted {
    let (server, mut market, customer_token, request) = open_request(|_| {}).await;
    let (_, pro_token, _) = professional(&server, CALGARY_PRO).await;
    let (_, other_pro_token, _) = professional(&server, CALGARY_PRO).await;
    let quote = send(
        &mut market,
        &pro_token,
        quote_on(&request.id, cad(9_000), false),
    )
    .await
    .unwrap();
    Quoted {
        server,
        market,
        customer_token,
        request,
        pro_token,
        other_pro_token,
        quote,
    }
}

const MONTREAL_PRO: Pro = Pro {
    area: "H2X",
    sms: false,
    language: "fr",
};

#[tokio::test]
async fn only_a_matching_member_quotes_an_open_request_once_at_their_minimum_or_with_surge() {
    let (server, mut market, customer_token, request) = open_request(|_| {}).await;
    let (pro, pro_token, pro_email) = professional(&server, CALGARY_PRO).await;
    set_minimum_fee(&server, pro, 8_000).await;

    // Too far away: the request does not exist for them.
    let (_, far_token, _) = professional(&server, MONTREAL_PRO).await;
    let far = send(
        &mut market,
        &far_token,
        quote_on(&request.id, cad(9_000), false),
    )
    .await
    .unwrap_err();
    assert_eq!(far.code(), Code::NotFound);

    // A lapsed membership is refused by the gate, before anything else.
    let (lapsed, lapsed_token, _) = professional(&server, CALGARY_PRO).await;
    sqlx::query(
        "update professionals set membership_expires_at = now() - interval '1 day' where id = $1",
    )
    .bind(lapsed)
    .execute(db(&server))
    .await
    .unwrap();
    let gated = send(
        &mut market,
        &lapsed_token,
        quote_on(&request.id, cad(9_000), false),
    )
    .await
    .unwrap_err();
    assert_eq!(gated.code(), Code::FailedPrecondition);
    assert_eq!(reason(&gated), "MEMBERSHIP_INACTIVE");

    // Below the minimum without surge, zero, another currency, no estimate: refused.
    let low = send(
        &mut market,
        &pro_token,
        quote_on(&request.id, cad(7_999), false),
    )
    .await
    .unwrap_err();
    assert_eq!(low.code(), Code::InvalidArgument);
    assert_eq!(reason(&low), "FEE_BELOW_MINIMUM");
    for (fee, field) in [
        (cad(0), "fee.amount_cents"),
        (cad(-5), "fee.amount_cents"),
        (
            Some(Money {
                amount_cents: 9_000,
                currency: "EUR".into(),
            }),
            "fee.currency",
        ),
    ] {
        let refused = send(&mut market, &pro_token, quote_on(&request.id, fee, true))
            .await
            .unwrap_err();
        assert_eq!(refused.code(), Code::InvalidArgument);
        assert_eq!(violated_fields(&refused), vec![field.to_owned()]);
    }
    let mut no_time = quote_on(&request.id, cad(9_000), false);
    no_time.estimated_minutes = 0;
    let refused = send(&mut market, &pro_token, no_time).await.unwrap_err();
    assert_eq!(
        violated_fields(&refused),
        vec!["estimated_minutes".to_owned()]
    );

    // Surge lets the fee go under the minimum, once: a second live quote is refused.
    let quote = send(
        &mut market,
        &pro_token,
        quote_on(&request.id, cad(5_000), true),
    )
    .await
    .unwrap();
    assert_eq!(quote.state, pb::QuoteState::Submitted as i32);
    assert!(quote.surge);
    assert_eq!(quote.fee, cad(5_000));
    assert_eq!(quote.estimated_minutes, 90);
    let twice = send(
        &mut market,
        &pro_token,
        quote_on(&request.id, cad(9_000), false),
    )
    .await
    .unwrap_err();
    assert_eq!(twice.code(), Code::AlreadyExists);
    assert_eq!(reason(&twice), "QUOTE_EXISTS");

    // Without a fee the minimum applies.
    let (other, other_token, _) = professional(&server, CALGARY_PRO).await;
    set_minimum_fee(&server, other, 12_345).await;
    let at_minimum = send(
        &mut market,
        &other_token,
        quote_on(&request.id, None, false),
    )
    .await
    .unwrap();
    assert_eq!(at_minimum.fee, cad(12_345));

    // The request counts its live quotes.
    let listed = quotes_of(&mut market, &customer_token, &request.id)
        .await
        .unwrap();
    assert_eq!(
        listed.iter().map(|q| q.id.as_str()).collect::<Vec<_>>(),
        vec![quote.id.as_str(), at_minimum.id.as_str()]
    );

    // Once the request is cancelled its quotes are not selected, their authors are told,
    // and nobody quotes on it.
    let cancelled = cancel(&mut market, &customer_token, &request.id)
        .await
        .unwrap();
    assert_eq!(cancelled.quote_count, 0);
    let closed = quotes_of(&mut market, &customer_token, &request.id)
        .await
        .unwrap();
    assert!(
        closed
            .iter()
            .all(|q| q.state == pb::QuoteState::NotSelected as i32),
        "{closed:?}"
    );
    wait_for_message(
        server.data_dir.path(),
        "email.jsonl",
        &pro_email,
        "cancelled their request",
        1,
    )
    .await;
    let (_, late_token, _) = professional(&server, CALGARY_PRO).await;
    let late = send(
        &mut market,
        &late_token,
        quote_on(&request.id, cad(9_000), false),
    )
    .await
    .unwrap_err();
    assert_eq!(late.code(), Code::NotFound);
    server.stop().await;
}

#[tokio::test]
async fn a_withdrawn_quote_leaves_the_list_and_makes_room_for_a_new_one() {
    let mut world = quoted_request().await;

    // Only its author withdraws it; for anyone else it does not exist.
    let foreign = withdraw(&mut world.market, &world.other_pro_token, &world.quote.id)
        .await
        .unwrap_err();
    assert_eq!(foreign.code(), Code::NotFound);

    let withdrawn = withdraw(&mut world.market, &world.pro_token, &world.quote.id)
        .await
        .unwrap();
    assert_eq!(withdrawn.state, pb::QuoteState::Withdrawn as i32);
    let again = withdraw(&mut world.market, &world.pro_token, &world.quote.id)
        .await
        .unwrap();
    assert_eq!(again.state, pb::QuoteState::Withdrawn as i32);
    assert!(
        quotes_of(&mut world.market, &world.customer_token, &world.request.id)
            .await
            .unwrap()
            .is_empty()
    );

    let renewed = send(
        &mut world.market,
        &world.pro_token,
        quote_on(&world.request.id, cad(8_500), false),
    )
    .await
    .unwrap();
    assert_ne!(renewed.id, world.quote.id);
    let seen = world
        .market
        .get_repair_request(with_token(
            pb::GetRepairRequestRequest {
                id: world.request.id.clone(),
            },
            &world.customer_token,
        ))
        .await
        .unwrap()
        .into_inner()
        .repair_request
        .unwrap();
    assert_eq!(seen.quote_count, 1);

    // The quote was kept, not deleted.
    let (kept,): (i64,) =
        sqlx::query_as("select count(*) from quotes where repair_request_id = $1")
            .bind(Uuid::parse_str(&world.request.id).unwrap())
            .fetch_one(db(&world.server))
            .await
            .unwrap();
    assert_eq!(kept, 2);
    world.server.stop().await;
}

#[tokio::test]
async fn the_customer_is_told_in_their_language_and_only_they_read_the_quotes() {
    let server = TestServer::start().await;
    let mut market = market(&server).await;
    let (customer_id, customer_token) = customer(&server).await;
    sqlx::query("update customers set language = 'fr' where id = $1")
        .bind(customer_id)
        .execute(db(&server))
        .await
        .unwrap();
    let (email,): (String,) = sqlx::query_as("select email::text from customers where id = $1")
        .bind(customer_id)
        .fetch_one(db(&server))
        .await
        .unwrap();
    let request = place(&mut market, &customer_token, Uuid::now_v7(), in_calgary())
        .await
        .unwrap();
    let (_, pro_token, _) = professional(&server, CALGARY_PRO).await;
    send(
        &mut market,
        &pro_token,
        quote_on(&request.id, cad(12_050), false),
    )
    .await
    .unwrap();

    let message = wait_for_message(
        server.data_dir.path(),
        "email.jsonl",
        &email,
        "120,50\u{a0}$",
        1,
    )
    .await;
    let subject = message["subject"].as_str().unwrap();
    let body = message["body"].as_str().unwrap();
    assert!(subject.starts_with("Nouvelle soumission"), "{subject}");
    assert!(body.contains("120,50\u{a0}$"), "{body}");
    // The page in French, so the app opens in their language.
    assert!(
        body.contains(&format!("/fr/application-list/{}", request.id)),
        "{body}"
    );

    // Another customer and another professional: the request does not exist for them.
    let (_, stranger_token) = customer(&server).await;
    let stranger = quotes_of(&mut market, &stranger_token, &request.id)
        .await
        .unwrap_err();
    assert_eq!(stranger.code(), Code::NotFound);
    let pro_view = quotes_of(&mut market, &pro_token, &request.id)
        .await
        .unwrap_err();
    assert_eq!(pro_view.code(), Code::PermissionDenied);
    server.stop().await;
}

async fn read_quote(
    market: &mut Market,
    token: &str,
    id: &str,
) -> Result<pb::GetQuoteResponse, tonic::Status> {
    market
        .get_quote(with_token(pb::GetQuoteRequest { id: id.into() }, token))
        .await
        .map(tonic::Response::into_inner)
}

#[tokio::test]
async fn a_quote_is_read_by_its_customer_and_author_only_and_the_author_keeps_seeing_the_request() {
    let mut world = quoted_request().await;

    let for_customer = read_quote(&mut world.market, &world.customer_token, &world.quote.id)
        .await
        .unwrap();
    assert_eq!(for_customer.quote.unwrap().id, world.quote.id);
    assert!(matches!(
        for_customer.repair_request.unwrap().location,
        Some(Location::Address(_))
    ));
    let for_author = read_quote(&mut world.market, &world.pro_token, &world.quote.id)
        .await
        .unwrap();
    assert!(matches!(
        for_author.repair_request.unwrap().location,
        Some(Location::ApproximateLocation(_))
    ));
    let (_, stranger_token) = customer(&world.server).await;
    for token in [&stranger_token, &world.other_pro_token] {
        let refused = read_quote(&mut world.market, token, &world.quote.id)
            .await
            .unwrap_err();
        assert_eq!(refused.code(), Code::NotFound);
    }

    // Once cancelled the request matches nobody; its author still sees it, approximately.
    cancel(&mut world.market, &world.customer_token, &world.request.id)
        .await
        .unwrap();
    let get = pb::GetRepairRequestRequest {
        id: world.request.id.clone(),
    };
    let seen = world
        .market
        .get_repair_request(with_token(get.clone(), &world.pro_token))
        .await
        .unwrap()
        .into_inner()
        .repair_request
        .unwrap();
    assert_eq!(seen.state, pb::RepairRequestState::Cancelled as i32);
    let Some(Location::ApproximateLocation(near)) = seen.location else {
        panic!("the author should see the approximate location");
    };
    assert_eq!(near.city, "Calgary");
    assert!(seen.customer_id.is_empty());
    let bystander = world
        .market
        .get_repair_request(with_token(get, &world.other_pro_token))
        .await
        .unwrap_err();
    assert_eq!(bystander.code(), Code::NotFound);
    world.server.stop().await;
}

#[tokio::test]
async fn quotes_on_an_expired_request_are_not_selected() {
    let world = quoted_request().await;
    let later = chrono::Utc::now() + chrono::Duration::hours(73);
    let expired = repairs_server::requests::expire_due(db(&world.server), later)
        .await
        .unwrap();
    assert_eq!(expired, 1);
    let (state,): (String,) = sqlx::query_as("select state from quotes where id = $1")
        .bind(Uuid::parse_str(&world.quote.id).unwrap())
        .fetch_one(db(&world.server))
        .await
        .unwrap();
    assert_eq!(state, "not_selected");
    world.server.stop().await;
}

async fn own_list(
    market: &mut Market,
    token: &str,
    professional_id: Uuid,
    view: pb::ProfessionalRepairRequestView,
) -> Result<Vec<pb::QuotedRepairRequest>, tonic::Status> {
    market
        .list_professional_repair_requests(with_token(
            pb::ListProfessionalRepairRequestsRequest {
                professional_id: professional_id.to_string(),
                view: view as i32,
                page_size: 0,
                page_token: String::new(),
            },
            token,
        ))
        .await
        .map(|r| r.into_inner().repair_requests)
}

#[tokio::test]
async fn a_professional_lists_their_open_lost_and_withdrawn_quotes_and_only_their_own() {
    use pb::ProfessionalRepairRequestView as View;
    let (server, mut market, customer_token, open) = open_request(|_| {}).await;
    let (pro, pro_token, _) = professional(&server, CALGARY_PRO).await;
    let mut requests = Vec::new();
    for _ in 0..2 {
        requests.push(
            place(&mut market, &customer_token, Uuid::now_v7(), in_calgary())
                .await
                .unwrap(),
        );
    }
    let [withdrawn_on, cancelled] = &requests[..] else {
        unreachable!()
    };
    let mut sent = Vec::new();
    for request in [&open, withdrawn_on, cancelled] {
        sent.push(
            send(
                &mut market,
                &pro_token,
                quote_on(&request.id, cad(9_000), false),
            )
            .await
            .unwrap(),
        );
    }
    withdraw(&mut market, &pro_token, &sent[1].id)
        .await
        .unwrap();
    cancel(&mut market, &customer_token, &cancelled.id)
        .await
        .unwrap();
    // Quoted again after withdrawing: the request is listed once per quote.
    sent.push(
        send(
            &mut market,
            &pro_token,
            quote_on(&withdrawn_on.id, cad(9_500), false),
        )
        .await
        .unwrap(),
    );

    let ids = |listed: Vec<pb::QuotedRepairRequest>| -> Vec<String> {
        listed.into_iter().map(|q| q.quote.unwrap().id).collect()
    };
    let applied = own_list(&mut market, &pro_token, pro, View::Applied)
        .await
        .unwrap();
    assert_eq!(ids(applied), vec![sent[3].id.clone(), sent[0].id.clone()]);
    let lost = own_list(&mut market, &pro_token, pro, View::Lost)
        .await
        .unwrap();
    assert_eq!(ids(lost), vec![sent[2].id.clone()]);
    let all = own_list(&mut market, &pro_token, pro, View::All)
        .await
        .unwrap();
    // Each with its own request, approximately (the cancelled one too, though it no longer
    // matches).
    for listed in &all {
        let request = listed.repair_request.as_ref().unwrap();
        assert_eq!(request.id, listed.quote.as_ref().unwrap().repair_request_id);
        assert!(matches!(
            request.location,
            Some(Location::ApproximateLocation(_))
        ));
    }
    assert_eq!(
        ids(all),
        sent.iter().rev().map(|q| q.id.clone()).collect::<Vec<_>>()
    );
    assert!(
        own_list(&mut market, &pro_token, pro, View::Active)
            .await
            .unwrap()
            .is_empty()
    );

    let (_, other_token, _) = professional(&server, CALGARY_PRO).await;
    let refused = own_list(&mut market, &other_token, pro, View::All)
        .await
        .unwrap_err();
    assert_eq!(refused.code(), Code::PermissionDenied);
    server.stop().await;
}

#[tokio::test]
async fn the_customer_dashboard_counts_quotes_received_but_not_withdrawn_ones() {
    let mut world = quoted_request().await;
    let taken_back = send(
        &mut world.market,
        &world.other_pro_token,
        quote_on(&world.request.id, cad(9_500), false),
    )
    .await
    .unwrap();
    withdraw(&mut world.market, &world.other_pro_token, &taken_back.id)
        .await
        .unwrap();
    let customer_id = world.request.customer_id.clone();
    let counts = world
        .market
        .get_customer_dashboard(with_token(
            pb::GetCustomerDashboardRequest { customer_id },
            &world.customer_token,
        ))
        .await
        .unwrap()
        .into_inner();
    assert_eq!((counts.requests_posted, counts.quotes_received), (1, 1));
    world.server.stop().await;
}

async fn customer_list(
    world: &mut Quoted,
    view: pb::CustomerRepairRequestView,
) -> Vec<pb::RepairRequest> {
    let customer_id = world.request.customer_id.clone();
    world
        .market
        .list_customer_repair_requests(with_token(
            pb::ListCustomerRepairRequestsRequest {
                customer_id,
                view: view as i32,
                page_size: 0,
                page_token: String::new(),
            },
            &world.customer_token,
        ))
        .await
        .unwrap()
        .into_inner()
        .repair_requests
}

#[tokio::test]
async fn the_customer_s_quoted_view_holds_open_requests_with_a_live_quote_only() {
    let mut world = quoted_request().await;
    let unquoted = place(
        &mut world.market,
        &world.customer_token,
        Uuid::now_v7(),
        in_calgary(),
    )
    .await
    .unwrap();
    let ids = |requests: Vec<pb::RepairRequest>| -> Vec<String> {
        requests.into_iter().map(|r| r.id).collect()
    };
    let quoted = customer_list(&mut world, pb::CustomerRepairRequestView::WithQuotes).await;
    assert_eq!(ids(quoted), vec![world.request.id.clone()]);
    let pending = customer_list(&mut world, pb::CustomerRepairRequestView::Pending).await;
    assert_eq!(ids(pending).len(), 2, "both open requests are pending");

    let quote_id = world.quote.id.clone();
    let token = world.pro_token.clone();
    withdraw(&mut world.market, &token, &quote_id)
        .await
        .unwrap();
    let quoted = customer_list(&mut world, pb::CustomerRepairRequestView::WithQuotes).await;
    assert!(quoted.is_empty(), "a withdrawn quote leaves the view");
    assert_ne!(unquoted.id, world.request.id);
    world.server.stop().await;
}
