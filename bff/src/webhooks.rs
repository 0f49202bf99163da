//! Webhooks from outside providers, forwarded to the server that verifies them.

use axum::body::Bytes;
use axum::response::IntoResponse;
use axum::routing;
use axum::{Json, Router};
use http::{HeaderMap, header};
use repairs_proto::{accounts as apb, billing as pb};
use serde_json::json;
use tonic::transport::Channel;

use crate::legacy::error::{ApiError, Reply};
use crate::legacy::rpc::Rpc;
use crate::legacy::table::{self, Call, post};

/// Stripe's events (signature checked by the server, so the raw body must reach it unchanged).
const STRIPE: Call = post("/webhooks/stripe", "BillingService.HandleStripeEvent");
/// Texts sent back to our number (STOP, ARRET, START), as Twilio posts them.
const SMS: Call = post("/webhooks/sms", "AccountsService.HandleSmsReply");

/// The webhook routes; their calls go to the server on `channel`.
pub fn routes<S: Clone + Send + Sync + 'static>(channel: Channel) -> Router<S> {
    let router = table::route(Router::new(), &STRIPE, routing::post(stripe));
    let router = table::route(router, &SMS, routing::post(sms));
    crate::legacy::body::limit(router).with_state(channel)
}

/// `POST /webhooks/stripe`: the raw body and the `Stripe-Signature` header, untouched, to
/// HandleStripeEvent -> 200 `{received, processed}` (`processed` false for an event seen
/// before); a bad signature is 400.
async fn stripe(rpc: Rpc, headers: HeaderMap, body: Bytes) -> Reply {
    let signature = headers
        .get("stripe-signature")
        .and_then(|value| value.to_str().ok())
        .unwrap_or_default()
        .to_owned();
    let handled = rpc
        .billing()
        .handle_stripe_event(rpc.request(pb::HandleStripeEventRequest {
            payload: body.to_vec(),
            signature,
        }))
        .await?
        .into_inner();
    Ok(Json(json!({
        "received": true,
        "id": handled.event_id,
        "processed": handled.processed,
    })))
}

/// `POST /webhooks/sms`: Twilio's form and its `X-Twilio-Signature`, untouched, to
/// HandleSmsReply -> 200 with an empty TwiML answer (Twilio itself confirms a STOP to the
/// sender); a bad signature is 400.
async fn sms(
    rpc: Rpc,
    headers: HeaderMap,
    body: Bytes,
) -> Result<axum::response::Response, ApiError> {
    let signature = headers
        .get("x-twilio-signature")
        .and_then(|value| value.to_str().ok())
        .unwrap_or_default()
        .to_owned();
    rpc.accounts()
        .handle_sms_reply(rpc.request(apb::HandleSmsReplyRequest {
            payload: body.to_vec(),
            signature,
        }))
        .await?;
    Ok((
        [(header::CONTENT_TYPE, "text/xml; charset=utf-8")],
        "<?xml version=\"1.0\" encoding=\"UTF-8\"?><Response></Response>",
    )
        .into_response())
}
