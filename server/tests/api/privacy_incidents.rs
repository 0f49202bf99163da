//! The privacy incident register through the RPCs: admins only, times checked, amendments
//! kept in the audit log before and after, pages newest discovery first.

use crate::helpers::{TestServer, with_token};
use prost_types::Timestamp;
use repairs_proto::accounts::{
    self as pb, accounts_service_client::AccountsServiceClient as AccountsClient,
};
use repairs_server::domain::Role;
use tonic::Code;

fn at(hours_ago: i64) -> Option<Timestamp> {
    let time = chrono::Utc::now() - chrono::Duration::hours(hours_ago);
    Some(Timestamp {
        seconds: time.timestamp(),
        nanos: 0,
    })
}

fn incident(discovered_hours_ago: i64) -> pb::PrivacyIncident {
    pb::PrivacyIncident {
        occurred_at: at(discovered_hours_ago + 24),
        discovered_at: at(discovered_hours_ago),
        description: "  A support export was emailed to the wrong address.  ".into(),
        information_involved: "Names, emails and postal codes of 40 customers".into(),
        people_affected: 40,
        risk_of_serious_injury: false,
        risk_assessment: "Low sensitivity; the recipient confirmed deleting it.".into(),
        ..pb::PrivacyIncident::default()
    }
}

#[tokio::test]
async fn admins_record_and_amend_incidents_and_each_write_is_audited() {
    let server = TestServer::start().await;
    let mut client = AccountsClient::new(server.channel().await);
    let (admin_id, admin) = server.account_token(Role::Admin).await;
    let (_, customer) = server.account_token(Role::Customer).await;

    let record = |incident: pb::PrivacyIncident, token: &str| {
        with_token(
            pb::RecordPrivacyIncidentRequest {
                incident: Some(incident),
            },
            token,
        )
    };
    let refused = client
        .record_privacy_incident(record(incident(2), &customer))
        .await
        .unwrap_err();
    assert_eq!(refused.code(), Code::PermissionDenied);
    let listed = client
        .list_privacy_incidents(with_token(
            pb::ListPrivacyIncidentsRequest::default(),
            &customer,
        ))
        .await
        .unwrap_err();
    assert_eq!(listed.code(), Code::PermissionDenied);

    // Times out of order, in the future, or a notice before the discovery: each named.
    let backwards = pb::PrivacyIncident {
        occurred_at: at(1),
        ..incident(5)
    };
    let future = pb::PrivacyIncident {
        discovered_at: at(-2),
        ..incident(5)
    };
    let early_notice = pb::PrivacyIncident {
        people_notified_at: at(30),
        ..incident(5)
    };
    for (bad, field) in [
        (backwards, "incident.occurred_at"),
        (future, "incident.discovered_at"),
        (early_notice, "incident.people_notified_at"),
    ] {
        let status = client
            .record_privacy_incident(record(bad, &admin))
            .await
            .unwrap_err();
        assert_eq!(status.code(), Code::InvalidArgument, "{field}");
        assert!(
            status.message().contains("cannot"),
            "{field}: {}",
            status.message()
        );
    }

    let first = client
        .record_privacy_incident(record(incident(48), &admin))
        .await
        .unwrap()
        .into_inner()
        .incident
        .unwrap();
    assert_eq!(
        first.description,
        "A support export was emailed to the wrong address."
    );
    assert_eq!(first.recorded_by, admin_id.to_string());
    assert_eq!(first.people_notified_at, None);
    let second = client
        .record_privacy_incident(record(incident(2), &admin))
        .await
        .unwrap()
        .into_inner()
        .incident
        .unwrap();

    // The people were told a day after the first one's discovery: amended, audited.
    let amended = client
        .record_privacy_incident(record(
            pb::PrivacyIncident {
                id: first.id.clone(),
                people_notified_at: at(24),
                measures_taken: "Exports now go to named staff only.".into(),
                ..incident(48)
            },
            &admin,
        ))
        .await
        .unwrap()
        .into_inner()
        .incident
        .unwrap();
    assert_eq!(amended.id, first.id);
    assert!(amended.people_notified_at.is_some());
    assert_eq!(amended.recorded_at, first.recorded_at);
    let unknown = client
        .record_privacy_incident(record(
            pb::PrivacyIncident {
                id: uuid::Uuid::now_v7().to_string(),
                ..incident(3)
            },
            &admin,
        ))
        .await
        .unwrap_err();
    assert_eq!(unknown.code(), Code::NotFound);

    // Newest discovery first, one per page.
    let page = client
        .list_privacy_incidents(with_token(
            pb::ListPrivacyIncidentsRequest {
                page_size: 1,
                ..Default::default()
            },
            &admin,
        ))
        .await
        .unwrap()
        .into_inner();
    assert_eq!(page.incidents[0].id, second.id);
    let next = client
        .list_privacy_incidents(with_token(
            pb::ListPrivacyIncidentsRequest {
                page_size: 1,
                page_token: page.next_page_token,
            },
            &admin,
        ))
        .await
        .unwrap()
        .into_inner();
    assert_eq!(next.incidents[0].id, first.id);
    assert!(next.next_page_token.is_empty());

    let events = client
        .list_audit_events(with_token(
            pb::ListAuditEventsRequest {
                target_id: first.id.clone(),
                ..Default::default()
            },
            &admin,
        ))
        .await
        .unwrap()
        .into_inner()
        .events;
    let actions: Vec<&str> = events.iter().map(|e| e.action.as_str()).collect();
    assert_eq!(
        actions,
        ["privacy_incident.amend", "privacy_incident.record"]
    );
    let before: serde_json::Value = serde_json::from_str(&events[0].before_json).unwrap();
    let after: serde_json::Value = serde_json::from_str(&events[0].after_json).unwrap();
    assert_eq!(before["people_notified_at"], serde_json::Value::Null);
    assert!(after["people_notified_at"].is_string());
    assert_eq!(
        after["measures_taken"],
        "Exports now go to named staff only."
    );
    server.stop().await;
}
