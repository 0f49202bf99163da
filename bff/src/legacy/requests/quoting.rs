//! Quoting: the old apply form becomes a quote on a request.

use axum::Json;
use repairs_proto::marketplace as pb;
use serde::Deserialize;
use serde_json::json;

use crate::legacy::body::{LegacyJson, text};
use crate::legacy::error::Reply;
use crate::legacy::rpc::Rpc;
use crate::legacy::shapes::{
    LegacyApplication, cad, fee_cents, minutes_from_hours, urgency_from_text,
};

/// What the old apply form sends: the estimate in hours, the fee as text (empty: the
/// professional's minimum fee) and the request. `professional_id` is read past: the
/// professional is the token's.
#[derive(Debug, Deserialize)]
pub(super) struct ApplyBody {
    #[serde(default, deserialize_with = "text")]
    request_applied: String,
    #[serde(default, deserialize_with = "text")]
    time_of_service: String,
    #[serde(default, deserialize_with = "text")]
    fees: String,
    #[serde(default, alias = "surge")]
    surge_cost: Option<serde_json::Value>,
}

impl ApplyBody {
    fn quote(&self) -> pb::CreateQuoteRequest {
        let fee = match self.fees.trim() {
            "" => None,
            // A fee that is not an amount goes as zero, which the server refuses with its
            // own message on `fee.amount_cents`.
            typed => Some(cad(fee_cents(typed).unwrap_or(0))),
        };
        let surge = match &self.surge_cost {
            Some(serde_json::Value::Bool(on)) => *on,
            Some(serde_json::Value::String(text)) => {
                urgency_from_text(text) == pb::Urgency::Immediate
            }
            Some(serde_json::Value::Number(n)) => n.as_i64() == Some(1),
            _ => false,
        };
        pb::CreateQuoteRequest {
            repair_request_id: self.request_applied.trim().to_owned(),
            estimated_minutes: minutes_from_hours(&self.time_of_service),
            fee,
            surge,
            // The old form has no tax box: the professional's registration decides.
            add_taxes: None,
            // Nor an arrival field: `LEGACY_CALL` spares it the emergencies' rule.
            arrival_minutes: None,
        }
    }
}

/// `POST /api/requests/apply` -> CreateQuote -> the quote with `msg`. 404 for a request
/// that does not match the professional or is no longer open, 409 for a second live quote
/// or a lapsed membership.
pub(super) async fn apply(rpc: Rpc, LegacyJson(body): LegacyJson<ApplyBody>) -> Reply {
    let quote = rpc
        .marketplace()
        .create_quote(rpc.request(body.quote()))
        .await?
        .into_inner()
        .quote
        .unwrap_or_default();
    let mut reply = json!(LegacyApplication::new(&quote));
    reply["msg"] = json!("Applied Successfully");
    Ok(Json(reply))
}
