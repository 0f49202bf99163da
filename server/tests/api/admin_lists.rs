//! The admins' lists: customers found by part of a name, email or phone, and the audit log
//! narrowed by action, record, admin and time.

use crate::helpers::{
    AccountsClient, TestServer, admin_token, market::db, sign_up_as, violated_fields, with_token,
};
use prost_types::Timestamp;
use repairs_proto::{accounts as pb, types::Language};
use tonic::Code;

async fn search(
    client: &mut AccountsClient,
    admin: &str,
    query: &str,
) -> Result<Vec<String>, tonic::Status> {
    let request = pb::ListCustomersRequest {
        query: query.into(),
        ..Default::default()
    };
    let listed = client.list_customers(with_token(request, admin)).await?;
    let mut names: Vec<String> = listed
        .into_inner()
        .customers
        .into_iter()
        .map(|c| c.name)
        .collect();
    names.sort();
    Ok(names)
}

#[tokio::test]
async fn admins_find_customers_by_name_email_or_phone() {
    let server = TestServer::start().await;
    let mut client = AccountsClient::new(server.channel().await);
    let admin = admin_token(&server, &mut client).await;
    let customer = pb::Role::Customer;
    let english = Language::En;
    sign_up_as(
        &mut client,
        customer,
        "Ana López",
        "ana@example.ca",
        english,
    )
    .await;
    let bob = sign_up_as(&mut client, customer, "Bob Tran", "bob@shop.ca", english).await;
    sign_up_as(
        &mut client,
        customer,
        "Chloé 50%",
        "chloe@example.ca",
        english,
    )
    .await;
    sqlx::query(
        "update customers set phone = '+14035550100', phone_verified = true where id = $1::uuid",
    )
    .bind(&bob.id)
    .execute(db(&server))
    .await
    .unwrap();

    let all = search(&mut client, &admin, "").await.unwrap();
    assert_eq!(all.len(), 3);
    assert_eq!(
        search(&mut client, &admin, "lópez").await.unwrap(),
        ["Ana López"]
    );
    assert_eq!(
        search(&mut client, &admin, "  SHOP.ca ").await.unwrap(),
        ["Bob Tran"]
    );
    assert_eq!(
        search(&mut client, &admin, "example").await.unwrap(),
        ["Ana López", "Chloé 50%"]
    );
    // A phone is found as typed and by its digits.
    assert_eq!(
        search(&mut client, &admin, "+1403555").await.unwrap(),
        ["Bob Tran"]
    );
    assert_eq!(
        search(&mut client, &admin, "(403) 555-0100").await.unwrap(),
        ["Bob Tran"]
    );
    // Pattern characters are searched for as themselves.
    assert_eq!(
        search(&mut client, &admin, "50%").await.unwrap(),
        ["Chloé 50%"]
    );
    assert!(search(&mut client, &admin, "%").await.unwrap().len() == 1);
    assert!(search(&mut client, &admin, "_").await.unwrap().is_empty());
    assert!(
        search(&mut client, &admin, "nobody")
            .await
            .unwrap()
            .is_empty()
    );

    // Pages of a search stay within it.
    let first = client
        .list_customers(with_token(
            pb::ListCustomersRequest {
                page_size: 1,
                query: "example".into(),
                ..Default::default()
            },
            &admin,
        ))
        .await
        .unwrap()
        .into_inner();
    assert_eq!(first.customers[0].name, "Chloé 50%", "newest first");
    let second = client
        .list_customers(with_token(
            pb::ListCustomersRequest {
                page_size: 1,
                page_token: first.next_page_token,
                query: "example".into(),
            },
            &admin,
        ))
        .await
        .unwrap()
        .into_inner();
    assert_eq!(second.customers[0].name, "Ana López");
    assert!(second.next_page_token.is_empty());

    let too_long = search(&mut client, &admin, &"a".repeat(101))
        .await
        .unwrap_err();
    assert_eq!(too_long.code(), Code::InvalidArgument);
    assert_eq!(violated_fields(&too_long), ["query"]);
    server.stop().await;
}

#[tokio::test]
async fn a_customer_search_uses_the_trigram_indexes() {
    let server = TestServer::start().await;
    let db = db(&server);
    // Enough rows that a scan costs more than the index.
    sqlx::query(
        "insert into customers (id, name, email)
         select gen_random_uuid(), 'Customer ' || n, 'c' || n || '@example.ca'
         from generate_series(1, 20000) n",
    )
    .execute(db)
    .await
    .unwrap();
    // As autovacuum would: the rows leave the indexes' pending lists, the statistics are read.
    sqlx::query("vacuum analyze customers")
        .execute(db)
        .await
        .unwrap();
    let plan: Vec<String> = sqlx::query_scalar(
        "explain select id from customers
         where name ilike '%c12345@%' or email::text ilike '%c12345@%'
            or phone ilike '%c12345@%'",
    )
    .fetch_all(db)
    .await
    .unwrap();
    let plan = plan.join("\n");
    for index in [
        "customers_name_trgm_idx",
        "customers_email_trgm_idx",
        "customers_phone_trgm_idx",
    ] {
        assert!(plan.contains(index), "{index} not used:\n{plan}");
    }
    server.stop().await;
}

fn at(seconds: i64) -> Option<Timestamp> {
    Some(Timestamp { seconds, nanos: 0 })
}

async fn audit(
    client: &mut AccountsClient,
    admin: &str,
    request: pb::ListAuditEventsRequest,
) -> Result<Vec<String>, tonic::Status> {
    let listed = client.list_audit_events(with_token(request, admin)).await?;
    Ok(listed
        .into_inner()
        .events
        .into_iter()
        .map(|e| e.action)
        .collect())
}

#[tokio::test]
async fn the_audit_log_is_narrowed_by_time_action_record_and_admin() {
    let server = TestServer::start().await;
    let mut client = AccountsClient::new(server.channel().await);
    let admin = admin_token(&server, &mut client).await;
    let db = db(&server);
    let admin_id: uuid::Uuid = sqlx::query_scalar("select id from admins")
        .fetch_one(db)
        .await
        .unwrap();
    // Three entries a day apart (1 to 3 November 2026, noon UTC), the last by another admin.
    let noon = |day: i64| 1_793_534_400 + (day - 1) * 86_400;
    for (day, action, target, by) in [
        (1, "coupon.create", "c1", Some(admin_id)),
        (2, "coupon.delete", "c1", Some(admin_id)),
        (3, "coupon.create", "c2", None),
    ] {
        sqlx::query(
            "insert into audit_events (id, admin_id, action, target_type, target_id, created_at)
             values (gen_random_uuid(), $1, $2, 'coupon', $3, to_timestamp($4))",
        )
        .bind(by)
        .bind(action)
        .bind(target)
        .bind(noon(day) as f64)
        .execute(db)
        .await
        .unwrap();
    }
    let all = pb::ListAuditEventsRequest::default();

    let range = |start: Option<Timestamp>, end: Option<Timestamp>| pb::ListAuditEventsRequest {
        start_time: start,
        end_time: end,
        ..Default::default()
    };
    assert_eq!(
        audit(&mut client, &admin, all.clone()).await.unwrap().len(),
        3
    );
    // The start is included, the end is not.
    assert_eq!(
        audit(&mut client, &admin, range(at(noon(2)), at(noon(3))))
            .await
            .unwrap(),
        ["coupon.delete"]
    );
    assert_eq!(
        audit(&mut client, &admin, range(at(noon(2)), None))
            .await
            .unwrap(),
        ["coupon.create", "coupon.delete"]
    );
    assert_eq!(
        audit(&mut client, &admin, range(None, at(noon(2))))
            .await
            .unwrap(),
        ["coupon.create"]
    );
    let by_action = pb::ListAuditEventsRequest {
        action: "coupon.create".into(),
        ..all.clone()
    };
    assert_eq!(
        audit(&mut client, &admin, by_action).await.unwrap().len(),
        2
    );
    let by_record = pb::ListAuditEventsRequest {
        target_type: "coupon".into(),
        target_id: "c1".into(),
        ..all.clone()
    };
    assert_eq!(
        audit(&mut client, &admin, by_record).await.unwrap(),
        ["coupon.delete", "coupon.create"]
    );
    let by_admin = pb::ListAuditEventsRequest {
        admin_id: admin_id.to_string(),
        ..all.clone()
    };
    assert_eq!(audit(&mut client, &admin, by_admin).await.unwrap().len(), 2);

    let backwards = audit(&mut client, &admin, range(at(noon(3)), at(noon(2))))
        .await
        .unwrap_err();
    assert_eq!(backwards.code(), Code::InvalidArgument);
    assert_eq!(violated_fields(&backwards), ["end_time"]);
    let not_an_id = pb::ListAuditEventsRequest {
        admin_id: "someone".into(),
        ..all.clone()
    };
    let refused = audit(&mut client, &admin, not_an_id).await.unwrap_err();
    assert_eq!(violated_fields(&refused), ["admin_id"]);
    let bad_time = range(
        Some(Timestamp {
            seconds: 0,
            nanos: -1,
        }),
        None,
    );
    let refused = audit(&mut client, &admin, bad_time).await.unwrap_err();
    assert_eq!(violated_fields(&refused), ["start_time"]);
    server.stop().await;
}
