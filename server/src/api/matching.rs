//! MatchingService: decode, authorise, call `crate::matching`, encode. The open requests of
//! a professional (listed and streamed) pass the membership gate first; what they show is
//! the approximate location, never the street. A stream starts with a snapshot (the list's
//! first page, read after it started listening) and sends one again after a gap, so "watch,
//! then replace the list" misses no request. NotifyProfessional (the legacy per-professional
//! call) goes through `crate::requests`, which tells a matching professional once.

use std::collections::HashSet;

use repairs_proto::matching::{self as pb, matching_service_server::MatchingService};
use tokio::sync::mpsc;
use tokio_stream::{StreamExt, wrappers::ReceiverStream};
use tonic::{Request, Status, codegen::BoxStream};
use uuid::Uuid;

use super::convert::{Reply, ok};
use super::{
    convert::{caller, caller_session, timestamp},
    request_view::repair_request_to_proto,
};
use crate::{
    auth::access,
    auth::stream,
    billing::membership,
    domain::Coordinates,
    error::{ApiError, ApiResult, parse_id},
    live::notify_hub::Heard,
    matching::{
        self, Distance, OpenRequestsPageRequest,
        places::{self, PlaceQuery},
    },
    requests,
    state::AppState,
    store::{
        accounts::{self as account_store, AccountKind},
        page::PageRequest,
        request_matches::NotificationRow,
    },
};

/// Matching requests a stream may hold before its client reads them.
const STREAM_BUFFER: usize = 16;

/// One message of an open-requests stream, boxed in its channel: a channel keeps its slots
/// in blocks of 32 allocated as it opens, and a message inline (a whole repair request) would
/// make that block about 25 KiB for every open stream.
type WatchItem = Result<pb::WatchOpenRequestsResponse, Status>;

pub struct MatchingApi {
    state: AppState,
}

impl MatchingApi {
    pub fn new(state: AppState) -> Self {
        Self { state }
    }
}

/// The approximate views of `matches` for professional `viewer`, in the order given.
async fn open_views(
    state: &AppState,
    viewer: Uuid,
    matches: &[(Uuid, Distance)],
) -> ApiResult<Vec<pb::OpenRepairRequest>> {
    let language = account_store::contact(&state.db, AccountKind::Professional, viewer)
        .await?
        .map(|c| c.language)
        .unwrap_or_default();
    Ok(requests::approximate_views(&state.db, viewer, matches)
        .await?
        .iter()
        .map(|viewed| pb::OpenRepairRequest {
            repair_request: Some(repair_request_to_proto(state, viewed, language)),
            // Quotes come with the next issue: nobody has applied yet.
            applied: false,
        })
        .collect())
}

fn place_query(place: Option<pb::Place>) -> Option<PlaceQuery> {
    Some(match place?.kind? {
        pb::place::Kind::PostalCode(code) => PlaceQuery::PostalCode(code),
        pb::place::Kind::Address(text) => PlaceQuery::Address(text),
        pb::place::Kind::Point(point) => PlaceQuery::Point(Coordinates {
            latitude: point.latitude,
            longitude: point.longitude,
        }),
    })
}

fn delivery_state(row: &NotificationRow) -> pb::DeliveryState {
    match row.state.as_deref() {
        None => pb::DeliveryState::Purged,
        Some("pending") => pb::DeliveryState::Pending,
        Some("sent") => pb::DeliveryState::Sent,
        Some("parked") => pb::DeliveryState::Parked,
        Some("expired") => pb::DeliveryState::Expired,
        Some(_) => pb::DeliveryState::Unspecified,
    }
}

fn notification_to_proto(row: &NotificationRow) -> pb::Notification {
    let channel = match row.channel.as_str() {
        "email" => pb::NotificationChannel::Email,
        "sms" => pb::NotificationChannel::Sms,
        _ => pb::NotificationChannel::Unspecified,
    };
    pb::Notification {
        channel: channel as i32,
        state: delivery_state(row) as i32,
        attempts: row.attempts.unwrap_or(0),
        last_error: row.last_error.clone().unwrap_or_default(),
        create_time: Some(timestamp(row.created_at)),
        finish_time: row.finished_at.map(timestamp),
    }
}

/// A page of the open requests matching `professional_id`, as the list and the stream's
/// snapshots show it.
async fn open_page(
    state: &AppState,
    professional_id: Uuid,
    page: &OpenRequestsPageRequest,
) -> ApiResult<(Vec<pb::OpenRepairRequest>, String)> {
    let found = matching::open_requests_for(&state.db, professional_id, page).await?;
    let matches: Vec<(Uuid, Distance)> = found
        .matches
        .iter()
        .map(|m| (m.request_id, m.distance))
        .collect();
    let views = open_views(state, professional_id, &matches).await?;
    Ok((views, found.next_page_token))
}

/// Feeds one stream, subscribed before this starts: a snapshot of the list's first page
/// (`page`), then the new requests that match its professional, and a fresh snapshot after
/// each gap, until the client leaves (or the stream ends with its session: `auth::stream`)
/// or the server stops.
async fn watch(
    state: AppState,
    professional_id: Uuid,
    page: OpenRequestsPageRequest,
    mut subscription: crate::live::notify_hub::Subscription<crate::live::open_requests::Opened>,
    sender: mpsc::Sender<Box<WatchItem>>,
) {
    let mut reach = matching::watch::CachedReach::new(professional_id);
    let mut snapshot_due = true;
    // The requests the last snapshot showed: a notification of one of them that Postgres
    // delivers only after the snapshot was read is not sent a second time.
    let mut shown: HashSet<String> = HashSet::new();
    loop {
        if snapshot_due {
            snapshot_due = false;
            // What was heard so far is in the snapshot read now.
            drop(subscription.drain());
            let snapshot = open_page(&state, professional_id, &page).await.map(
                |(repair_requests, next_page_token)| {
                    shown = repair_requests
                        .iter()
                        .filter_map(|open| open.repair_request.as_ref())
                        .map(|request| request.id.clone())
                        .collect();
                    pb::WatchOpenRequestsResponse {
                        repair_request: None,
                        snapshot: Some(pb::OpenRequestsSnapshot {
                            repair_requests,
                            next_page_token,
                        }),
                    }
                },
            );
            let failed = snapshot.is_err();
            if sender
                .send(Box::new(snapshot.map_err(Status::from)))
                .await
                .is_err()
                || failed
            {
                return;
            }
        }
        let opened = tokio::select! {
            () = sender.closed() => return,
            heard = subscription.recv() => match heard {
                Some(Heard::Event(opened)) => opened,
                // Missed some: the list is read again.
                Some(Heard::Gap) => {
                    snapshot_due = true;
                    continue;
                }
                None => return,
            },
        };
        if shown.contains(&opened.id.to_string()) {
            continue;
        }
        // Most requests are placed far away or for another service: skip those without
        // asking the database.
        match reach.get(&state.db).await {
            Ok(reach) if !reach.may_match(&opened) => continue,
            Ok(_) => {}
            Err(error) => {
                let _ = sender
                    .send(Box::new(Err(Status::from(ApiError::from(error)))))
                    .await;
                return;
            }
        }
        state.open_requests.count_check();
        let request_id = opened.id;
        let found = match matching::matches(&state.db, professional_id, request_id).await {
            Ok(Some(distance)) => open_views(&state, professional_id, &[(request_id, distance)])
                .await
                .map(|views| views.into_iter().next()),
            Ok(None) => Ok(None),
            Err(error) => Err(error.into()),
        };
        let message = match found {
            Ok(Some(view)) => Ok(pb::WatchOpenRequestsResponse {
                repair_request: Some(view),
                snapshot: None,
            }),
            Ok(None) => continue,
            Err(error) => Err(Status::from(error)),
        };
        let failed = message.is_err();
        if sender.send(Box::new(message)).await.is_err() || failed {
            return;
        }
    }
}

/// Page tokens of ListRepairRequestMatches: the last (distance, professional) served.
mod match_token {
    use base64::Engine;
    use uuid::Uuid;

    use crate::error::ApiError;

    pub fn encode(distance_m: i32, professional_id: Uuid) -> String {
        base64::engine::general_purpose::URL_SAFE_NO_PAD
            .encode(format!("{distance_m}|{professional_id}"))
    }

    pub fn decode(token: &str) -> Result<Option<(i32, Uuid)>, ApiError> {
        if token.is_empty() {
            return Ok(None);
        }
        let parsed = base64::engine::general_purpose::URL_SAFE_NO_PAD
            .decode(token)
            .ok()
            .and_then(|raw| String::from_utf8(raw).ok())
            .and_then(|raw| {
                let (distance, id) = raw.split_once('|')?;
                Some((distance.parse().ok()?, Uuid::parse_str(id).ok()?))
            });
        parsed.map(Some).ok_or_else(|| {
            ApiError::invalid(
                "page_token",
                "this page token is not valid; start from the first page",
            )
        })
    }
}

#[tonic::async_trait]
impl MatchingService for MatchingApi {
    async fn list_open_requests(
        &self,
        request: Request<pb::ListOpenRequestsRequest>,
    ) -> Reply<pb::ListOpenRequestsResponse> {
        let caller = caller(&request)?;
        let req = request.into_inner();
        let professional_id =
            access::own_or_given(&caller, "professional_id", &req.professional_id)?;
        let page = OpenRequestsPageRequest::parse(req.page_size, &req.page_token)?;
        membership::require_active(&self.state.db, professional_id).await?;
        let (repair_requests, next_page_token) =
            open_page(&self.state, professional_id, &page).await?;
        ok(pb::ListOpenRequestsResponse {
            repair_requests,
            next_page_token,
        })
    }

    async fn watch_open_requests(
        &self,
        request: Request<pb::WatchOpenRequestsRequest>,
    ) -> Reply<BoxStream<pb::WatchOpenRequestsResponse>> {
        let caller = caller(&request)?;
        let professional_id = access::own_or_given(
            &caller,
            "professional_id",
            &request.get_ref().professional_id,
        )?;
        let page = OpenRequestsPageRequest::parse(request.get_ref().page_size, "")?;
        // Open requests are for professionals in good standing: losing it (a lapsed
        // membership, say) ends the stream as it would refuse a new one.
        let db = self.state.db.clone();
        let guard = stream::Guard::new(self.state.sessions.clone(), caller_session(&request)?)
            .with_right(move || {
                let db = db.clone();
                async move { membership::require_active(&db, professional_id).await }
            });
        membership::require_active(&self.state.db, professional_id).await?;
        let subscription = self.state.open_requests.subscribe(professional_id)?;
        let (sender, receiver) = mpsc::channel(STREAM_BUFFER);
        tokio::spawn(watch(
            self.state.clone(),
            professional_id,
            page,
            subscription,
            sender,
        ));
        ok(stream::bound(
            guard,
            Box::pin(ReceiverStream::new(receiver).map(|item| *item)),
        ))
    }

    async fn get_distance(
        &self,
        request: Request<pb::GetDistanceRequest>,
    ) -> Reply<pb::GetDistanceResponse> {
        let req = request.into_inner();
        let geocoder = self.state.geocoder.as_ref();
        let origin = place_query(req.origin);
        let destination = place_query(req.destination);
        let origin = places::resolve(geocoder, "origin", origin.as_ref()).await?;
        let destination = places::resolve(geocoder, "destination", destination.as_ref()).await?;
        let distance = self
            .state
            .distances
            .between(origin.point, destination.point)
            .await?;
        ok(pb::GetDistanceResponse {
            distance_meters: distance.whole_meters(),
            distance_km: distance.whole_km(),
            origin_name: origin.name,
            destination_name: destination.name,
        })
    }

    async fn notify_professional(
        &self,
        request: Request<pb::NotifyProfessionalRequest>,
    ) -> Reply<pb::NotifyProfessionalResponse> {
        let caller = caller(&request)?;
        let req = request.into_inner();
        let repair_request_id = match req.repair_request_id.trim() {
            "" => None,
            raw => Some(parse_id("repair_request_id", raw)?),
        };
        requests::notify_professional(
            &self.state,
            caller.account_id,
            repair_request_id,
            &req.professional_email,
        )
        .await?;
        ok(pb::NotifyProfessionalResponse {})
    }

    async fn list_repair_request_matches(
        &self,
        request: Request<pb::ListRepairRequestMatchesRequest>,
    ) -> Reply<pb::ListRepairRequestMatchesResponse> {
        let req = request.into_inner();
        let request_id = parse_id("repair_request_id", &req.repair_request_id)?;
        let size = PageRequest::parse(req.page_size, "")?.size;
        let after = match_token::decode(&req.page_token)?;
        let size = usize::try_from(size).unwrap_or(usize::MAX);
        let page = matching::matches_of(&self.state, request_id, after, size).await?;
        let next_page_token = match (page.more, page.matches.last()) {
            (true, Some(last)) => match_token::encode(last.distance_m, last.professional_id),
            _ => String::new(),
        };
        let notifications = page.notifications;
        let matches = page
            .matches
            .into_iter()
            .map(|row| pb::RepairRequestMatch {
                professional_id: row.professional_id.to_string(),
                professional_name: row.professional_name,
                distance_km: matching::Distance {
                    meters: f64::from(row.distance_m),
                }
                .whole_km(),
                notifications: notifications
                    .iter()
                    .filter(|n| n.professional_id == row.professional_id)
                    .map(notification_to_proto)
                    .collect(),
            })
            .collect();
        ok(pb::ListRepairRequestMatchesResponse {
            matches,
            next_page_token,
        })
    }
}
