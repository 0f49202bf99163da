//! An empty own id means "me": every RPC that takes an account id of the caller's reads an
//! empty one as the caller's own (`auth::access::named_or_caller`), and an admin, who has no
//! such account, must name one (INVALID_ARGUMENT on that field). The table below lists those
//! RPCs, and a check over the contracts' descriptors keeps it whole: an RPC whose request
//! gains a `customer_id`, `professional_id` or `account_id` must be listed here or among the
//! ids of others.

use std::collections::BTreeSet;

use crate::access::call;
use crate::helpers::{
    TestServer,
    market::{customer, in_calgary, market, place},
    reason, violated_fields, with_token,
};
use prost::Message;
use repairs_proto::{accounts as apb, billing as bpb, marketplace as mpb};
use repairs_server::{
    auth::policy::{Access, access_for},
    domain::Role,
};
use tonic::{Code, client::Grpc};

/// `(RPC, the field naming the caller's account)`: empty means the caller.
const OWN_IDS: &[(&str, &str)] = &[
    (
        "/repairs.accounts.v1.AccountsService/RequestDataExport",
        "account_id",
    ),
    (
        "/repairs.accounts.v1.AccountsService/GetDataExport",
        "account_id",
    ),
    (
        "/repairs.accounts.v1.AccountsService/SendPhoneCode",
        "account_id",
    ),
    (
        "/repairs.accounts.v1.AccountsService/VerifyPhoneCode",
        "account_id",
    ),
    (
        "/repairs.accounts.v1.AccountsService/UpdateSmsPreference",
        "account_id",
    ),
    ("/repairs.accounts.v1.AccountsService/GetCustomer", "id"),
    ("/repairs.accounts.v1.AccountsService/UpdateCustomer", "id"),
    ("/repairs.accounts.v1.AccountsService/GetProfessional", "id"),
    (
        "/repairs.accounts.v1.AccountsService/UpdateProfessionalProfile",
        "id",
    ),
    (
        "/repairs.accounts.v1.AccountsService/SetProfessionalPhoto",
        "id",
    ),
    (
        "/repairs.accounts.v1.AccountsService/AddLicence",
        "professional_id",
    ),
    (
        "/repairs.accounts.v1.AccountsService/DeleteLicence",
        "professional_id",
    ),
    (
        "/repairs.accounts.v1.AccountsService/PreviewDeleteLicence",
        "professional_id",
    ),
    (
        "/repairs.accounts.v1.AccountsService/SubmitProfileForReview",
        "id",
    ),
    (
        "/repairs.accounts.v1.AccountsService/SetProfessionalAvailability",
        "id",
    ),
    (
        "/repairs.marketplace.v1.MarketplaceService/ListCustomerRepairRequests",
        "customer_id",
    ),
    (
        "/repairs.marketplace.v1.MarketplaceService/ListProfessionalRepairRequests",
        "professional_id",
    ),
    (
        "/repairs.marketplace.v1.MarketplaceService/GetCustomerDashboard",
        "customer_id",
    ),
    (
        "/repairs.marketplace.v1.MarketplaceService/GetProfessionalDashboard",
        "professional_id",
    ),
    (
        "/repairs.matching.v1.MatchingService/ListOpenRequests",
        "professional_id",
    ),
    (
        "/repairs.matching.v1.MatchingService/WatchOpenRequests",
        "professional_id",
    ),
    (
        "/repairs.billing.v1.BillingService/GetMembership",
        "professional_id",
    ),
    (
        "/repairs.billing.v1.BillingService/GetPayoutAccount",
        "professional_id",
    ),
    (
        "/repairs.billing.v1.BillingService/ListPayouts",
        "professional_id",
    ),
    (
        "/repairs.billing.v1.BillingService/GetMonthlyStatement",
        "professional_id",
    ),
    // Its oneof, set but empty (an unset one lists every order, for admins).
    (
        "/repairs.billing.v1.BillingService/ListOrders",
        "customer_id",
    ),
    (
        "/repairs.billing.v1.BillingService/ListOrders",
        "professional_id",
    ),
];

/// The conversation stream, ruled like the calls above; tried in `conversations`.
const WATCH_CONVERSATION: &str = "/repairs.marketplace.v1.MarketplaceService/WatchConversation";

/// Account ids in requests that never name the caller's own account.
const OTHERS_IDS: &[(&str, &str, &str)] = &[
    (
        "/repairs.accounts.v1.AccountsService/CheckPasswordResetToken",
        "account_id",
        "from an emailed link, signed in or not",
    ),
    (
        "/repairs.accounts.v1.AccountsService/ResetPassword",
        "account_id",
        "from an emailed link, signed in or not",
    ),
    (
        "/repairs.marketplace.v1.MarketplaceService/ListProfessionalReviews",
        "professional_id",
        "anyone reads any professional's reviews",
    ),
    (
        "/repairs.billing.v1.BillingService/RecordManualPayout",
        "professional_id",
        "an admin names the professional they paid",
    ),
    (
        "/repairs.marketplace.v1.MarketplaceService/BlockProfessional",
        "professional_id",
        "a customer names the professional they block",
    ),
    (
        "/repairs.marketplace.v1.MarketplaceService/UnblockProfessional",
        "professional_id",
        "a customer names the professional they unblock",
    ),
];

/// The professional of a conversation: empty from a professional means themselves; a
/// customer and an admin must name one (INVALID_ARGUMENT on the field).
const CONVERSATION_PROFESSIONAL_IDS: &[&str] = &[
    "/repairs.marketplace.v1.MarketplaceService/SendMessage",
    "/repairs.marketplace.v1.MarketplaceService/AddMessagePhoto",
    "/repairs.marketplace.v1.MarketplaceService/ListMessages",
    "/repairs.marketplace.v1.MarketplaceService/MarkConversationRead",
    "/repairs.marketplace.v1.MarketplaceService/ReportConversation",
];

/// Every `(RPC, field)` of the contracts whose request has an account id field.
fn account_id_fields() -> BTreeSet<(String, String)> {
    let set = prost_types::FileDescriptorSet::decode(repairs_proto::FILE_DESCRIPTOR_SET).unwrap();
    let mut fields = BTreeSet::new();
    for file in &set.file {
        for service in &file.service {
            for method in &service.method {
                let input = method.input_type();
                let message = set
                    .file
                    .iter()
                    .flat_map(|f| f.message_type.iter().map(move |m| (f.package(), m)))
                    .find(|(package, m)| input == format!(".{package}.{}", m.name()))
                    .map(|(_, m)| m)
                    .unwrap_or_else(|| panic!("{input} not found"));
                for field in &message.field {
                    if matches!(
                        field.name(),
                        "customer_id" | "professional_id" | "account_id"
                    ) {
                        let path =
                            format!("/{}.{}/{}", file.package(), service.name(), method.name());
                        fields.insert((path, field.name().to_owned()));
                    }
                }
            }
        }
    }
    fields
}

#[test]
fn every_account_id_of_the_contracts_is_ruled() {
    let ruled: BTreeSet<(String, String)> = OWN_IDS
        .iter()
        .map(|(path, field)| (*path, *field))
        .chain(OTHERS_IDS.iter().map(|(path, field, _)| (*path, *field)))
        .chain(
            CONVERSATION_PROFESSIONAL_IDS
                .iter()
                .chain(std::iter::once(&WATCH_CONVERSATION))
                .map(|path| (*path, "professional_id")),
        )
        .map(|(path, field)| (path.to_owned(), field.to_owned()))
        .collect();
    let found = account_id_fields();
    let unruled: Vec<_> = found.difference(&ruled).collect();
    assert!(
        unruled.is_empty(),
        "list these in OWN_IDS (empty means the caller) or OTHERS_IDS: {unruled:?}"
    );
    assert!(found.len() > 15, "the descriptors were read: {found:?}");
}

/// Each RPC of the table, called with every id empty: by each role it admits but admins, the
/// id is the caller's (whatever else the call then says of the empty request, it never
/// refuses the id); by an admin, it is INVALID_ARGUMENT on the field.
#[tokio::test]
async fn an_empty_own_id_is_the_caller_and_admins_must_name_one() {
    let server = TestServer::start().await;
    let mut grpc = Grpc::new(server.channel().await);
    let mut tokens = Vec::new();
    for role in [Role::Customer, Role::Professional, Role::Admin] {
        tokens.push((role, server.account_token(role).await.1));
    }
    let mut checked = 0;
    for &(path, field) in OWN_IDS {
        // The stream is WatchOpenRequests, tried in `matching`; ListOrders's oneof below.
        if path.ends_with("/WatchOpenRequests") || path.ends_with("/ListOrders") {
            continue;
        }
        let Some(Access::Roles(roles)) = access_for(path) else {
            panic!("{path} has no rule of roles");
        };
        for (role, token) in tokens.iter().filter(|(role, _)| roles.contains(role)) {
            // An empty message: every id in it empty.
            let status = call(&mut grpc, path, Some(token)).await;
            if *role == Role::Admin {
                assert_eq!(status.code(), Code::InvalidArgument, "{path}: {status:?}");
                assert!(
                    violated_fields(&status).contains(&field.to_owned()),
                    "{path}: an admin names the account: {status:?}"
                );
            } else {
                assert!(
                    !violated_fields(&status).contains(&field.to_owned())
                        && reason(&status) != "NOT_OWNER"
                        && status.code() != Code::NotFound,
                    "{path}: {role} left {field} empty: {status:?}"
                );
            }
            checked += 1;
        }
    }
    assert!(checked >= 22, "only {checked} calls were checked");
    server.stop().await;
}

/// The first field of every conversation call's request: the request it is about.
#[derive(Clone, PartialEq, prost::Message)]
struct NamingARequest {
    #[prost(string, tag = "1")]
    repair_request_id: String,
}

/// Calls a conversation RPC naming a request (one that does not exist) and nothing else, so
/// the professional's field is the first thing it can refuse.
async fn call_naming_a_request(
    grpc: &mut Grpc<tonic::transport::Channel>,
    path: &'static str,
    token: &str,
) -> tonic::Status {
    grpc.ready().await.unwrap();
    let mut request = tonic::Request::new(NamingARequest {
        repair_request_id: uuid::Uuid::now_v7().to_string(),
    });
    request
        .metadata_mut()
        .insert("authorization", format!("Bearer {token}").parse().unwrap());
    let codec: tonic_prost::ProstCodec<NamingARequest, ()> = Default::default();
    match grpc
        .unary(request, http::uri::PathAndQuery::from_static(path), codec)
        .await
    {
        Ok(_) => tonic::Status::ok(""),
        Err(status) => status,
    }
}

/// A conversation's professional left empty: a professional's own conversation (never refused
/// on the field), while a customer and an admin are asked to name one.
#[tokio::test]
async fn an_empty_conversation_professional_is_the_professional_caller_and_others_name_one() {
    let server = TestServer::start().await;
    let mut grpc = Grpc::new(server.channel().await);
    let field = "professional_id".to_owned();
    for role in [Role::Customer, Role::Professional, Role::Admin] {
        let token = server.account_token(role).await.1;
        for &path in CONVERSATION_PROFESSIONAL_IDS {
            let status = call_naming_a_request(&mut grpc, path, &token).await;
            let refused_on_field = violated_fields(&status).contains(&field);
            if role == Role::Professional {
                assert!(!refused_on_field, "{path}: {status:?}");
            } else if matches!(access_for(path), Some(Access::Roles(r)) if r.contains(&role)) {
                assert_eq!(status.code(), Code::InvalidArgument, "{path}: {status:?}");
                assert!(refused_on_field, "{path} by {role}: {status:?}");
            }
        }
    }
    server.stop().await;
}

/// What the empty id reads is the caller's own: their record, their requests, their orders.
#[tokio::test]
async fn an_empty_own_id_reads_the_callers_own_records() {
    let server = TestServer::start().await;
    let channel = server.channel().await;
    let (customer, customer_token) = customer(&server).await;
    let (_, admin_token) = server.account_token(Role::Admin).await;
    let mut accounts = apb::accounts_service_client::AccountsServiceClient::new(channel.clone());
    let mut billing = bpb::billing_service_client::BillingServiceClient::new(channel);
    let mut market = market(&server).await;
    let placed = place(
        &mut market,
        &customer_token,
        uuid::Uuid::now_v7(),
        in_calgary(),
    )
    .await
    .unwrap();

    let read = accounts
        .get_customer(with_token(
            apb::GetCustomerRequest::default(),
            &customer_token,
        ))
        .await
        .unwrap()
        .into_inner();
    assert_eq!(read.customer.unwrap().id, customer.to_string());

    let listed = market
        .list_customer_repair_requests(with_token(
            mpb::ListCustomerRepairRequestsRequest {
                view: mpb::CustomerRepairRequestView::All as i32,
                ..Default::default()
            },
            &customer_token,
        ))
        .await
        .unwrap()
        .into_inner();
    let ids: Vec<_> = listed.repair_requests.iter().map(|r| &r.id).collect();
    assert_eq!(ids, [&placed.id]);

    use bpb::list_orders_request::Party;
    let orders = |party: Party, token: &str| {
        with_token(
            bpb::ListOrdersRequest {
                party: Some(party),
                ..Default::default()
            },
            token,
        )
    };
    let mine = billing
        .list_orders(orders(Party::CustomerId(String::new()), &customer_token))
        .await
        .unwrap()
        .into_inner();
    assert!(mine.orders.is_empty());
    let admin = billing
        .list_orders(orders(Party::CustomerId(String::new()), &admin_token))
        .await
        .unwrap_err();
    assert_eq!(admin.code(), Code::InvalidArgument);
    assert_eq!(violated_fields(&admin), ["customer_id"]);
    // Unset, the party is every order: an admin's list, refused to others.
    let all = billing
        .list_orders(with_token(
            bpb::ListOrdersRequest::default(),
            &customer_token,
        ))
        .await
        .unwrap_err();
    assert_eq!(reason(&all), "ADMIN_ONLY");
    server.stop().await;
}
