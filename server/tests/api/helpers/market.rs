//! The marketplace's test world: a customer with a verified phone, member plumbers placed
//! by postal area, request drafts and the calls that place, quote, hire, complete and
//! cancel them.

use repairs_proto::{
    billing::{self as bpb, billing_service_client::BillingServiceClient},
    marketplace::{self as pb, marketplace_service_client::MarketplaceServiceClient},
    types::Address,
};
use repairs_server::{domain::Role, providers::Gazetteer};
use sqlx::PgPool;
use tonic::transport::Channel;
use uuid::Uuid;

use super::{TestServer, with_token};

pub const PLUMBING: &str = "0190a6c0-0000-7000-8000-000000000001";
pub const ELECTRICIAN: &str = "0190a6c0-0000-7000-8000-000000000006";
pub const STREET: &str = "100 8 Ave SW";

pub type Market = MarketplaceServiceClient<Channel>;
pub type Billing = BillingServiceClient<Channel>;

pub async fn market(server: &TestServer) -> Market {
    MarketplaceServiceClient::new(server.channel().await)
}

pub async fn billing(server: &TestServer) -> Billing {
    BillingServiceClient::new(server.channel().await)
}

pub fn db(server: &TestServer) -> &PgPool {
    &server.server.state.db
}

/// A customer with a verified phone.
pub async fn customer(server: &TestServer) -> (Uuid, String) {
    let (id, token) = server.account_token(Role::Customer).await;
    sqlx::query("update customers set phone = '+14035550100', phone_verified = true where id = $1")
        .bind(id)
        .execute(db(server))
        .await
        .unwrap();
    (id, token)
}

/// How a test professional is set up.
pub struct Pro {
    /// Their home base's postal area.
    pub area: &'static str,
    pub sms: bool,
    pub language: &'static str,
}

pub const CALGARY_PRO: Pro = Pro {
    area: "T2P",
    sms: false,
    language: "en",
};

/// An approved member professional with a verified phone, plumbing within 50 km of `area`,
/// on duty every day all day in Alberta's time; their email and token.
pub async fn professional(server: &TestServer, pro: Pro) -> (Uuid, String, String) {
    let (id, token) = server.account_token(Role::Professional).await;
    let home = Gazetteer::shipped()
        .unwrap()
        .lookup_postal_code(pro.area)
        .unwrap();
    let phone = format!("+1587555{:04}", id.as_u128() % 10_000);
    let email: (String,) = sqlx::query_as(
        "update professionals set state = 'approved', approved_at = now(), phone = $2,
            phone_verified = true, sms_updates = $3, language = $4, home_latitude = $5,
            home_longitude = $6, time_zone = 'America/Edmonton',
            available_days = '{1,2,3,4,5,6,7}', available_from = '00:00',
            available_to = '23:59', radius_km = 50,
            membership_expires_at = now() + interval '30 days'
         where id = $1 returning email::text",
    )
    .bind(id)
    .bind(&phone)
    .bind(if pro.sms { "yes" } else { "no" })
    .bind(pro.language)
    .bind(home.latitude)
    .bind(home.longitude)
    .fetch_one(db(server))
    .await
    .unwrap();
    sqlx::query("insert into professional_services (professional_id, service_id) values ($1, $2)")
        .bind(id)
        .bind(Uuid::parse_str(PLUMBING).unwrap())
        .execute(db(server))
        .await
        .unwrap();
    (id, token, email.0)
}

pub fn draft(postal_code: &str, city: &str, province: &str) -> pb::RepairRequestDraft {
    pb::RepairRequestDraft {
        service_id: PLUMBING.into(),
        description: "The kitchen sink leaks under the counter".into(),
        urgency: pb::Urgency::Immediate as i32,
        address: Some(Address {
            line1: STREET.into(),
            line2: String::new(),
            city: city.into(),
            province: province.into(),
            postal_code: postal_code.into(),
            country: "CA".into(),
        }),
    }
}

pub fn in_calgary() -> pb::RepairRequestDraft {
    draft("T2P 1J9", "Calgary", "AB")
}

/// [`in_calgary`], a repair that can wait (not an emergency).
pub fn can_wait_in_calgary() -> pb::RepairRequestDraft {
    pb::RepairRequestDraft {
        urgency: pb::Urgency::CanWait as i32,
        ..in_calgary()
    }
}

pub async fn place(
    market: &mut Market,
    token: &str,
    key: Uuid,
    draft: pb::RepairRequestDraft,
) -> Result<pb::RepairRequest, tonic::Status> {
    place_with_photos(market, token, key, draft, 0).await
}

/// Places `draft` saying `photos_to_follow` photos will be added right after.
pub async fn place_with_photos(
    market: &mut Market,
    token: &str,
    key: Uuid,
    draft: pb::RepairRequestDraft,
    photos_to_follow: i32,
) -> Result<pb::RepairRequest, tonic::Status> {
    market
        .create_repair_request(with_token(
            pb::CreateRepairRequestRequest {
                request_id: key.to_string(),
                draft: Some(draft),
                photos_to_follow,
            },
            token,
        ))
        .await
        .map(|r| r.into_inner().repair_request.unwrap())
}

/// How precisely request `id` was placed (`repair_requests.placed_by`).
pub async fn placed_by(db: &PgPool, id: &str) -> String {
    let (by,): (String,) = sqlx::query_as("select placed_by from repair_requests where id = $1")
        .bind(Uuid::parse_str(id).unwrap())
        .fetch_one(db)
        .await
        .unwrap();
    by
}

/// The request `id` as `token` may read it.
pub async fn get(
    market: &mut Market,
    token: &str,
    id: &str,
) -> Result<pb::RepairRequest, tonic::Status> {
    market
        .get_repair_request(with_token(
            pb::GetRepairRequestRequest { id: id.into() },
            token,
        ))
        .await
        .map(|r| r.into_inner().repair_request.unwrap())
}

/// Request `id` watched by `token` from `revision` (0: from a snapshot).
pub async fn watch(
    market: &mut Market,
    token: &str,
    id: &str,
    revision: i64,
) -> Result<tonic::Streaming<pb::WatchRepairRequestResponse>, tonic::Status> {
    market
        .watch_repair_request(with_token(
            pb::WatchRepairRequestRequest {
                id: id.into(),
                revision,
            },
            token,
        ))
        .await
        .map(tonic::Response::into_inner)
}

/// The next message of a WatchRepairRequest stream, failing the test when none comes within
/// a few seconds.
pub async fn next_message(
    stream: &mut tonic::Streaming<pb::WatchRepairRequestResponse>,
) -> pb::WatchRepairRequestResponse {
    tokio::time::timeout(std::time::Duration::from_secs(10), stream.message())
        .await
        .expect("a message in time")
        .unwrap()
        .expect("the stream goes on")
}

/// Whether a WatchRepairRequest stream sends nothing for `wait`.
pub async fn silent_for(
    stream: &mut tonic::Streaming<pb::WatchRepairRequestResponse>,
    wait: std::time::Duration,
) -> bool {
    tokio::time::timeout(wait, stream.message()).await.is_err()
}

/// A quote on `request_id` of 90.00 CAD and one hour, there `arrival_minutes` after a hire.
pub fn quote_request(request_id: &str, arrival_minutes: Option<i32>) -> pb::CreateQuoteRequest {
    pb::CreateQuoteRequest {
        repair_request_id: request_id.into(),
        estimated_minutes: 60,
        fee: Some(repairs_proto::types::Money {
            amount_cents: 9_000,
            currency: "CAD".into(),
        }),
        surge: false,
        add_taxes: None,
        arrival_minutes,
    }
}

/// Professional `token`'s quote on `request_id`: 90.00 CAD, one hour, there in 45 minutes.
pub async fn quote(market: &mut Market, token: &str, request_id: &str) -> pb::Quote {
    market
        .create_quote(with_token(quote_request(request_id, Some(45)), token))
        .await
        .unwrap()
        .into_inner()
        .quote
        .unwrap()
}

/// A server, a customer and their open request in Calgary: the server, a marketplace
/// client, the customer's token and the request. `adjust` may change the server's
/// configuration first.
pub async fn open_request(
    adjust: impl FnOnce(&mut repairs_server::config::Config),
) -> (TestServer, Market, String, pb::RepairRequest) {
    let server = TestServer::start_with(adjust).await;
    let mut market = market(&server).await;
    let (_, customer_token) = customer(&server).await;
    let request = place(&mut market, &customer_token, Uuid::now_v7(), in_calgary())
        .await
        .unwrap();
    (server, market, customer_token, request)
}

/// The test gateway's card that is authorised at once.
pub const VISA: &str = "4242 4242 4242 4242";
/// The test gateway's card that is declined.
pub const DECLINED: &str = "4000 0000 0000 0002";
/// The test gateway's card that needs 3-D Secure first.
pub const THREE_D_SECURE: &str = "4000 0025 0000 3155";

/// The customer of `token` hires quote `quote_id` through BillingService, as the hire page
/// does: paying with test `card` (see [`VISA`]) under the idempotency key `key`. It owns
/// what it sends, so races can spawn it as it is.
pub fn hire(
    billing: &Billing,
    token: &str,
    quote_id: &str,
    card: &str,
    key: Uuid,
) -> impl Future<Output = Result<bpb::Order, tonic::Status>> + Send + 'static {
    let mut billing = billing.clone();
    let request = with_token(
        bpb::HireProfessionalRequest {
            quote_id: quote_id.to_owned(),
            payment_method: card.to_owned(),
            request_id: key.to_string(),
        },
        token,
    );
    async move {
        billing
            .hire_professional(request)
            .await
            .map(|r| r.into_inner().order.unwrap())
    }
}

/// The customer of `token` marks request `id` done, which captures its hold.
pub async fn complete(
    market: &mut Market,
    token: &str,
    id: &str,
) -> Result<pb::RepairRequest, tonic::Status> {
    market
        .complete_repair_request(with_token(
            pb::CompleteRepairRequestRequest { id: id.into() },
            token,
        ))
        .await
        .map(|r| r.into_inner().repair_request.unwrap())
}

/// The customer of `token` cancels request `id`.
pub async fn cancel(
    market: &mut Market,
    token: &str,
    id: &str,
) -> Result<pb::RepairRequest, tonic::Status> {
    market
        .cancel_repair_request(with_token(
            pb::CancelRepairRequestRequest { id: id.into() },
            token,
        ))
        .await
        .map(|r| r.into_inner().repair_request.unwrap())
}

/// How far a hired job has gone.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Stage {
    /// Hired: its fee held on the card.
    Hired,
    /// Marked done: the hold captured.
    Completed,
    /// Marked done, then refunded by an admin.
    Refunded,
    /// Completed with its hold still uncaptured: a state completion no longer writes (it
    /// captures first), kept so the checks that refuse such a job stay tested.
    CompletedUncaptured,
}

/// A job of the customer `(customer_token)` with the professional of `pro_token`, taken to
/// `stage` through the calls a customer and an admin make: a request placed in Calgary,
/// the professional's quote (9,000 cents), hired with [`VISA`], then completed and refunded
/// as `stage` says. The request as placed, and the order.
pub async fn job_at(
    server: &TestServer,
    customer_token: &str,
    pro_token: &str,
    stage: Stage,
) -> (pb::RepairRequest, bpb::Order) {
    let mut market = market(server).await;
    let request = place(&mut market, customer_token, Uuid::now_v7(), in_calgary())
        .await
        .unwrap();
    let quote = quote(&mut market, pro_token, &request.id).await;
    let order = hire(
        &billing(server).await,
        customer_token,
        &quote.id,
        VISA,
        Uuid::now_v7(),
    )
    .await
    .unwrap();
    match stage {
        Stage::Hired => {}
        Stage::Completed | Stage::Refunded => {
            complete(&mut market, customer_token, &request.id)
                .await
                .unwrap();
        }
        Stage::CompletedUncaptured => {
            // No call leaves a completed job uncaptured any more: written as it once was.
            let id = Uuid::parse_str(&request.id).unwrap();
            sqlx::query("update repair_requests set state = 'completed' where id = $1")
                .bind(id)
                .execute(db(server))
                .await
                .unwrap();
            sqlx::query("update orders set completed_at = now() where repair_request_id = $1")
                .bind(id)
                .execute(db(server))
                .await
                .unwrap();
        }
    }
    if stage == Stage::Refunded {
        let (_, admin) = server.account_token(Role::Admin).await;
        refund(server, &admin, &order.id).await.unwrap();
    }
    (request, order)
}

/// Admin `token` refunds the payment of order `order_id`.
pub async fn refund(
    server: &TestServer,
    token: &str,
    order_id: &str,
) -> Result<bpb::Payment, tonic::Status> {
    billing(server)
        .await
        .refund_payment(with_token(
            bpb::RefundPaymentRequest {
                target: Some(bpb::PaymentTarget {
                    target: Some(bpb::payment_target::Target::OrderId(order_id.to_owned())),
                }),
                request_id: Uuid::now_v7().to_string(),
                reason: "the job was not done".into(),
                amount: None,
            },
            token,
        ))
        .await
        .map(|r| r.into_inner().payment.unwrap_or_default())
}

/// A test charge on `card` (with `coupon`, or none when empty) by admin `token`.
pub async fn test_charge(
    billing: &Billing,
    token: &str,
    card: &str,
    coupon: &str,
) -> Result<bpb::Payment, tonic::Status> {
    billing
        .clone()
        .create_test_charge(with_token(
            bpb::CreateTestChargeRequest {
                payment_method: card.into(),
                coupon_code: coupon.into(),
                request_id: Uuid::new_v4().to_string(),
            },
            token,
        ))
        .await
        .map(|r| r.into_inner().payment.unwrap())
}

/// A request of the customer of `customer_token` with a photo of the damage, the quote of
/// the professional `pro` (9,000 cents) and the two `texts`, the professional's then the
/// customer's: a request with something of each kind on it. The request as placed.
pub async fn with_photo_quote_and_messages(
    server: &TestServer,
    market: &mut Market,
    customer_token: &str,
    (pro_id, pro_token): (Uuid, &str),
    texts: [&str; 2],
) -> pb::RepairRequest {
    let request = place(market, customer_token, Uuid::now_v7(), in_calgary())
        .await
        .unwrap();
    market
        .add_repair_request_photo(with_token(
            pb::AddRepairRequestPhotoRequest {
                repair_request_id: request.id.clone(),
                content: super::photos::jpeg(64, 48),
            },
            customer_token,
        ))
        .await
        .unwrap();
    super::send_quote(server, pro_token, &request.id, 9_000).await;
    for (token, text) in [pro_token, customer_token].into_iter().zip(texts) {
        market
            .send_message(with_token(
                pb::SendMessageRequest {
                    repair_request_id: request.id.clone(),
                    professional_id: pro_id.to_string(),
                    text: text.into(),
                    request_id: Uuid::now_v7().to_string(),
                    photo_ids: Vec::new(),
                },
                token,
            ))
            .await
            .unwrap();
    }
    request
}
