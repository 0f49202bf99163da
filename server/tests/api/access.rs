//! Who may call what: every RPC of the access table, called by an anonymous caller and by
//! each role, against the running server. A refused caller never reaches a handler; an
//! allowed one always does (whatever the handler then says of the empty request).

use crate::helpers::{TestServer, reason};
use http::uri::PathAndQuery;
use repairs_server::{
    auth::{
        policy::{Access, rules, scopes_for},
        service::Scope,
    },
    domain::Role,
};
use tonic::{Code, Request, client::Grpc};
use tonic_prost::ProstCodec;

/// Calls any unary RPC with an empty message (valid for every request type).
pub async fn call(
    grpc: &mut Grpc<tonic::transport::Channel>,
    path: &str,
    token: Option<&str>,
) -> tonic::Status {
    grpc.ready().await.unwrap();
    let mut request = Request::new(());
    if let Some(token) = token {
        request
            .metadata_mut()
            .insert("authorization", format!("Bearer {token}").parse().unwrap());
    }
    let codec: ProstCodec<(), ()> = ProstCodec::default();
    match grpc
        .unary(request, PathAndQuery::try_from(path).unwrap(), codec)
        .await
    {
        Ok(_) => tonic::Status::ok(""),
        Err(status) => status,
    }
}

fn refused_by_the_table(status: &tonic::Status) -> bool {
    matches!(
        reason(status).as_str(),
        "SIGN_IN_REQUIRED"
            | "ROLE_NOT_ALLOWED"
            | "NO_ACCESS_RULE"
            | "SERVICE_SCOPE_MISSING"
            | "SERVICE_KEY_INVALID"
    )
}

/// Streams and reflection are not unary; the table tests cover their rules.
fn not_unary(path: &str) -> bool {
    path.starts_with("/grpc.")
        || path.ends_with("/WatchRepairRequest")
        || path.ends_with("/WatchOpenRequests")
        || path.ends_with("/WatchConversation")
}

#[tokio::test]
async fn every_rpc_admits_exactly_the_roles_of_its_rule() {
    let server = TestServer::start().await;
    let mut grpc = Grpc::new(server.channel().await);
    let mut tokens: Vec<(Role, String)> = Vec::new();
    for role in [Role::Customer, Role::Professional, Role::Admin] {
        tokens.push((role, server.account_token(role).await.1));
    }

    let mut checked = 0;
    for (path, access, _) in rules() {
        let path = path.as_str();
        if not_unary(path) {
            continue;
        }
        let anonymous = call(&mut grpc, path, None).await;
        match access {
            Access::Anyone => assert!(
                !refused_by_the_table(&anonymous),
                "{path}: anyone may call, got {anonymous:?}"
            ),
            Access::Roles(_) => {
                assert_eq!(
                    anonymous.code(),
                    Code::Unauthenticated,
                    "{path}: anonymous must sign in"
                );
                assert_eq!(reason(&anonymous), "SIGN_IN_REQUIRED", "{path}");
            }
        }
        for (role, token) in &tokens {
            let status = call(&mut grpc, path, Some(token)).await;
            let allowed = match access {
                Access::Anyone => true,
                Access::Roles(roles) => roles.contains(role),
            };
            if allowed {
                assert!(
                    !refused_by_the_table(&status),
                    "{path}: {role} may call, got {status:?}"
                );
            } else {
                assert_eq!(
                    status.code(),
                    Code::PermissionDenied,
                    "{path}: {role} may not call"
                );
                assert_eq!(reason(&status), "ROLE_NOT_ALLOWED", "{path}: {role}");
            }
            checked += 1;
        }
    }
    assert!(
        checked >= 3 * 69,
        "only {checked} checks ran: was the table emptied?"
    );

    let unknown = call(
        &mut grpc,
        "/repairs.accounts.v1.AccountsService/DropEverything",
        Some(&tokens[2].1),
    )
    .await;
    assert_eq!(
        (unknown.code(), reason(&unknown).as_str()),
        (Code::PermissionDenied, "NO_ACCESS_RULE")
    );
    server.stop().await;
}

#[tokio::test]
async fn every_rpc_admits_exactly_the_service_accounts_its_scope_rule_names() {
    use repairs_proto::accounts::{
        CreateServiceAccountRequest, accounts_service_client::AccountsServiceClient,
    };
    let server = TestServer::start().await;
    let channel = server.channel().await;
    let mut grpc = Grpc::new(channel.clone());
    let (_, admin) = server.account_token(Role::Admin).await;
    // One service account per scope, each holding that scope alone.
    let mut keys = Vec::new();
    for scope in Scope::ALL {
        let made = AccountsServiceClient::new(channel.clone())
            .create_service_account(crate::helpers::with_token(
                CreateServiceAccountRequest {
                    name: format!("Only {}", scope.as_str()),
                    scopes: vec![scope.as_str().to_owned()],
                },
                &admin,
            ))
            .await
            .unwrap()
            .into_inner();
        keys.push((scope, made.key));
    }

    let mut checked = 0;
    for (path, access, _) in rules() {
        let path = path.as_str();
        if not_unary(path) {
            continue;
        }
        for (scope, key) in &keys {
            let status = call(&mut grpc, path, Some(key)).await;
            let allowed = access == Access::Anyone || scopes_for(path).contains(scope);
            if allowed {
                assert!(
                    !refused_by_the_table(&status),
                    "{path}: {} may call, got {status:?}",
                    scope.as_str()
                );
            } else {
                assert_eq!(
                    (status.code(), reason(&status).as_str()),
                    (Code::PermissionDenied, "SERVICE_SCOPE_MISSING"),
                    "{path}: {} may not call",
                    scope.as_str()
                );
            }
            checked += 1;
        }
    }
    assert!(
        checked >= 4 * 69,
        "only {checked} checks ran: was the table emptied?"
    );
    // A service key nobody has is refused where a caller is needed, and is anonymous where
    // anyone may call.
    let unknown = format!("rsk_{}_{}", uuid::Uuid::now_v7().simple(), "A".repeat(43));
    let status = call(
        &mut grpc,
        "/repairs.billing.v1.BillingService/ListOrders",
        Some(&unknown),
    )
    .await;
    assert_eq!(
        (status.code(), reason(&status).as_str()),
        (Code::Unauthenticated, "SERVICE_KEY_INVALID")
    );
    let status = call(
        &mut grpc,
        "/repairs.content.v1.ContentService/ListServices",
        Some(&unknown),
    )
    .await;
    assert_eq!(status.code(), Code::Ok, "{status:?}");
    server.stop().await;
}
