//! AccountsService's privacy incident register: the contract's incident to the rules' facts
//! and back (`crate::accounts::privacy_incidents`).

use repairs_proto::accounts as pb;
use tonic::Request;

use super::convert::{Reply, caller, ok, time_from_proto, timestamp};
use crate::{
    accounts::privacy_incidents,
    error::{ApiError, ApiResult, parse_id},
    state::AppState,
    store::{
        page::PageRequest,
        privacy_incidents::{IncidentFacts, IncidentRow},
    },
};

fn to_proto(row: IncidentRow) -> pb::PrivacyIncident {
    let facts = row.facts;
    pb::PrivacyIncident {
        id: row.id.to_string(),
        occurred_at: Some(timestamp(facts.occurred_at)),
        discovered_at: Some(timestamp(facts.discovered_at)),
        description: facts.description,
        information_involved: facts.information_involved,
        people_affected: facts.people_affected,
        risk_of_serious_injury: facts.risk_of_serious_injury,
        risk_assessment: facts.risk_assessment,
        measures_taken: facts.measures_taken,
        commissioner_notified_at: facts.commissioner_notified_at.map(timestamp),
        people_notified_at: facts.people_notified_at.map(timestamp),
        recorded_by: row.recorded_by.to_string(),
        recorded_at: Some(timestamp(row.recorded_at)),
        updated_at: Some(timestamp(row.updated_at)),
    }
}

fn facts_from_proto(incident: pb::PrivacyIncident) -> ApiResult<IncidentFacts> {
    let required = |field: &str, time: Option<&prost_types::Timestamp>| {
        let name = format!("incident.{field}");
        match time {
            Some(time) => time_from_proto(&name, time),
            None => Err(ApiError::invalid(name, "give the date and time")),
        }
    };
    let optional = |field: &str, time: Option<&prost_types::Timestamp>| {
        time.map(|time| time_from_proto(&format!("incident.{field}"), time))
            .transpose()
    };
    Ok(IncidentFacts {
        occurred_at: required("occurred_at", incident.occurred_at.as_ref())?,
        discovered_at: required("discovered_at", incident.discovered_at.as_ref())?,
        commissioner_notified_at: optional(
            "commissioner_notified_at",
            incident.commissioner_notified_at.as_ref(),
        )?,
        people_notified_at: optional("people_notified_at", incident.people_notified_at.as_ref())?,
        description: incident.description,
        information_involved: incident.information_involved,
        people_affected: incident.people_affected,
        risk_of_serious_injury: incident.risk_of_serious_injury,
        risk_assessment: incident.risk_assessment,
        measures_taken: incident.measures_taken,
    })
}

pub(super) async fn record(
    state: &AppState,
    request: Request<pb::RecordPrivacyIncidentRequest>,
) -> Reply<pb::RecordPrivacyIncidentResponse> {
    let admin = caller(&request)?;
    let incident = request
        .into_inner()
        .incident
        .ok_or_else(|| ApiError::invalid("incident", "describe the incident"))?;
    let id = match incident.id.as_str() {
        "" => None,
        given => Some(parse_id("incident.id", given)?),
    };
    let facts = facts_from_proto(incident)?;
    let recorded = privacy_incidents::record(state, &admin, id, facts).await?;
    ok(pb::RecordPrivacyIncidentResponse {
        incident: Some(to_proto(recorded)),
    })
}

pub(super) async fn list(
    state: &AppState,
    request: Request<pb::ListPrivacyIncidentsRequest>,
) -> Reply<pb::ListPrivacyIncidentsResponse> {
    let req = request.into_inner();
    let page = PageRequest::parse(req.page_size, &req.page_token)?;
    let (rows, next_page_token) = privacy_incidents::list(state, &page).await?;
    ok(pb::ListPrivacyIncidentsResponse {
        incidents: rows.into_iter().map(to_proto).collect(),
        next_page_token,
    })
}
