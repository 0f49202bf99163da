//! Telling the matching professionals of a request, in the transaction that places (or
//! moves) it: one email to each, and one SMS to those who opted in, in their language,
//! written to the outbox. `request_notifications` holds one row per request, professional
//! and channel, so a retried create, an edit or a second server process never tells anyone
//! twice. What one request can send is bounded: the nearest `REPAIR_REQUEST_MAX_NOTIFIED`
//! professionals by road (`matching::soonest_by_road`: the drive from their home base, among
//! twice as many nearest in a straight line), and texts within the service's hourly
//! `SMS_NOTIFICATIONS_PER_HOUR` (counted in `crate::budgets`, in the same transaction).
//! The drives are looked up inside the transaction, bounded by the router's timeout and
//! concurrency (`OSRM_TIMEOUT_MS`, `DISTANCE_CONCURRENCY`), falling back to the
//! straight-line estimate. Each professional newly told also gets a
//! push on each device they asked to be alerted on (`alerts`), urgent for an
//! emergency.

use std::collections::{HashMap, HashSet};

use sqlx::PgConnection;
use uuid::Uuid;

use super::notice;
use crate::{
    alerts::{self, Alerting},
    budgets,
    config::links::PageLink,
    domain::{Email, NotifyChannel, Topic, Urgency},
    matching,
    outbox::{self, Channel, NewOutboxMessage},
    state::AppState,
    store::{
        accounts::AccountKind,
        notification_preferences,
        repair_requests::{self, Claim, RepairRequestRow},
    },
};

/// Which of the matching professionals to tell.
#[derive(Debug, Clone, Copy)]
pub enum Whom<'a> {
    Everyone,
    /// Only the one with this email (the legacy per-professional call), if they match.
    Email(&'a Email),
}

/// Writes the notifications of `request` for the professionals it matches now (`whom` of
/// them) who were not told yet; how many professionals were newly told.
pub async fn notify_matches(
    tx: &mut PgConnection,
    state: &AppState,
    request: &RepairRequestRow,
    whom: Whom<'_>,
) -> sqlx::Result<usize> {
    let limit = state.config.repair_request_max_notified;
    let nearest = matching::professionals_to_notify(
        tx,
        request.id,
        limit.saturating_mul(matching::CANDIDATES_PER_ALERT),
    )
    .await?;
    let candidates: Vec<matching::Notify> = nearest
        .into_iter()
        .filter(|p| match whom {
            Whom::Everyone => true,
            Whom::Email(email) => p.email.eq_ignore_ascii_case(email.as_str()),
        })
        .collect();
    let candidates = still_alerted(tx, candidates).await?;
    let chosen =
        matching::soonest_by_road(&state.distances, request.point(), candidates, limit).await;
    tell(tx, state, request, &chosen).await
}

/// Of `candidates`, those who still want alerts of new requests on some channel: one who
/// turned them all off leaves their place to the next.
pub(super) async fn still_alerted(
    tx: &mut PgConnection,
    candidates: Vec<matching::Notify>,
) -> sqlx::Result<Vec<matching::Notify>> {
    let off = turned_off(tx, &candidates).await?;
    Ok(candidates
        .into_iter()
        .filter(|p| {
            !NotifyChannel::ALL
                .iter()
                .all(|channel| off.contains(&(p.professional_id, *channel)))
        })
        .collect())
}

/// Who of `professionals` turned alerts of new requests off, on which channel.
async fn turned_off(
    tx: &mut PgConnection,
    professionals: &[matching::Notify],
) -> sqlx::Result<HashSet<(Uuid, NotifyChannel)>> {
    let ids: Vec<Uuid> = professionals.iter().map(|p| p.professional_id).collect();
    let off = notification_preferences::turned_off(
        tx,
        AccountKind::Professional,
        &ids,
        Topic::NewRequests,
    )
    .await?;
    Ok(off.into_iter().collect())
}

/// Writes the notifications of `request` for the professionals `chosen` who were not told
/// of it yet (their email, their text within the budget, their pushes); how many
/// professionals were newly told. The placing's fan-out and the escalation's next ring
/// (`super::escalation`) both come through here.
pub(super) async fn tell(
    tx: &mut PgConnection,
    state: &AppState,
    request: &RepairRequestRow,
    chosen: &[matching::Notify],
) -> sqlx::Result<usize> {
    let link = state.config.links().view_request(request.id);
    let hold = photos_hold(request, state.config.request_photos_wait);
    // Every message due, each with the claim that keeps it to one per request,
    // professional and channel; none on a channel its professional turned off, so no text
    // budget goes to them and no claim says they were told there.
    let off = turned_off(tx, chosen).await?;
    let mut due: Vec<(Claim, NewOutboxMessage)> = Vec::new();
    for professional in chosen {
        for message in notice::new_request(request, professional, &link) {
            if off.contains(&(professional.professional_id, message.channel.chosen_as())) {
                continue;
            }
            let message = message.held(hold);
            let claim = Claim {
                professional_id: professional.professional_id,
                channel: message.channel.as_str(),
                distance_m: i32::try_from(professional.distance.whole_meters()).unwrap_or(i32::MAX),
            };
            due.push((claim, message));
        }
    }
    // Texts within the hour's budget go to the nearest; the others get the email alone.
    let texts = due
        .iter()
        .filter(|(_, m)| m.channel == Channel::Sms)
        .count();
    let mut texts_left = spend_sms_budget(tx, state, texts).await?;
    due.retain(|(_, message)| {
        let keep = message.channel != Channel::Sms || texts_left > 0;
        if message.channel == Channel::Sms {
            texts_left -= 1;
        }
        keep
    });
    // Three statements whatever the number of professionals: claim, write, link.
    let claims: Vec<Claim> = due.iter().map(|(claim, _)| *claim).collect();
    let won: HashSet<(Uuid, String)> =
        repair_requests::claim_notifications(tx, request.id, &claims)
            .await?
            .into_iter()
            .collect();
    let (won_claims, to_send): (Vec<Claim>, Vec<NewOutboxMessage>) = due
        .into_iter()
        .filter(|(claim, _)| won.contains(&(claim.professional_id, claim.channel.to_owned())))
        .unzip();
    let newly_told: Vec<Uuid> = won_claims
        .iter()
        .filter(|claim| claim.channel == Channel::Email.as_str())
        .map(|claim| claim.professional_id)
        .collect();
    let pushes: Vec<NewOutboxMessage> = alerts(tx, request, chosen, &newly_told, &link)
        .await?
        .into_iter()
        .map(|push| push.held(hold))
        .collect();
    outbox::enqueue_many(&mut *tx, &pushes).await?;
    let ids = outbox::enqueue_many(&mut *tx, &to_send).await?;
    let links: Vec<(Claim, Uuid)> = won_claims
        .into_iter()
        .zip(ids)
        .filter_map(|(claim, id)| id.map(|id| (claim, id)))
        .collect();
    repair_requests::attach_messages(tx, request.id, &links).await?;
    let mut told: Vec<Uuid> = won
        .into_iter()
        .map(|(professional, _)| professional)
        .collect();
    told.sort_unstable();
    told.dedup();
    Ok(told.len())
}

/// While fewer photos are in than the customer said would follow the placing, the alerts
/// wait for them (`wait` at most from the placing), so they count them; the photo that
/// completes the count releases them (`store::outbox::release_held`).
fn photos_hold(request: &RepairRequestRow, wait: std::time::Duration) -> Option<outbox::Hold> {
    let waiting = request.photo_count < i32::from(request.photos_to_follow);
    let until = request.created_at + chrono::Duration::from_std(wait).ok()?;
    (waiting && until > chrono::Utc::now()).then_some(outbox::Hold {
        for_photos_of: request.id,
        until,
    })
}

/// The pushes to the devices of the professionals in `told`, each in its device's language.
async fn alerts(
    tx: &mut PgConnection,
    request: &RepairRequestRow,
    chosen: &[matching::Notify],
    told: &[Uuid],
    link: &PageLink,
) -> sqlx::Result<Vec<NewOutboxMessage>> {
    let by_id: HashMap<Uuid, &matching::Notify> =
        chosen.iter().map(|p| (p.professional_id, p)).collect();
    let tag = format!("repair-request:{}", request.id);
    let to = Alerting::new(AccountKind::Professional, told, link, &tag)
        .about(Topic::NewRequests)
        .urgent(request.urgency() == Urgency::Immediate)
        .until(request.expires_at);
    alerts::to_devices(&mut *tx, to, |professional, language| {
        let notify = by_id.get(&professional)?;
        Some(notice::new_request_alert(request, notify, language, link))
    })
    .await
}

/// Counts up to `texts` notification texts against this hour's budget, in the transaction
/// that writes them (so a rolled-back fan-out spends nothing); how many fit.
async fn spend_sms_budget(
    tx: &mut PgConnection,
    state: &AppState,
    texts: usize,
) -> sqlx::Result<i64> {
    let limit = i64::from(state.config.sms_notifications_per_hour);
    let wanted = i64::try_from(texts).unwrap_or(i64::MAX);
    budgets::spend_up_to(tx, "sms-budget:notifications", limit, wanted).await
}
