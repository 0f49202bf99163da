//! The one-click unsubscribe of an email (RFC 8058): a mail client posts to the address of
//! its `List-Unsubscribe` header, the web app's own `/unsubscribe/{token}` page (`/fr/...`
//! for French readers). A POST turns that kind of email off through
//! `AccountsService.Unsubscribe`; any other method gets the web app's page, which asks the
//! person to confirm (a link opened by a mail scanner must not unsubscribe anyone).

use axum::{
    Json, Router,
    extract::{FromRequestParts, Request, State},
    routing::post,
};
use repairs_proto::accounts as pb;
use serde_json::json;

use crate::{
    AppState,
    legacy::{error::Reply, rpc::Rpc},
};

/// The page's two addresses, each answering a POST itself and anything else with the app.
pub fn routes() -> Router<AppState> {
    let page = || post(one_click).fallback(super::grpc_web_or_web_app);
    Router::new()
        .route("/unsubscribe/{token}", page())
        .route("/fr/unsubscribe/{token}", page())
}

/// `POST /unsubscribe/{token}` (body `List-Unsubscribe=One-Click`, not needed) -> 200
/// `{"unsubscribed": true}`; an altered link is 400 with the reason.
async fn one_click(
    State(state): State<AppState>,
    axum::extract::Path(token): axum::extract::Path<String>,
    request: Request,
) -> Reply {
    let (mut parts, _) = request.into_parts();
    let rpc = Rpc::from_request_parts(&mut parts, &state.channel).await?;
    rpc.accounts()
        .unsubscribe(rpc.request(pb::UnsubscribeRequest { token }))
        .await?;
    Ok(Json(json!({ "unsubscribed": true })))
}
