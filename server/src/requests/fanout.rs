//! Telling the matching professionals of a request, in the transaction that places (or
//! moves) it: one email to each, and one SMS to those who opted in, in their language,
//! written to the outbox. `request_notifications` holds one row per request, professional
//! and channel, so a retried create, an edit or a second server process never tells anyone
//! twice. What one request can send is bounded: the nearest `REPAIR_REQUEST_MAX_NOTIFIED`
//! professionals, and texts within the service's hourly `SMS_NOTIFICATIONS_PER_HOUR`.

use std::{collections::HashSet, time::Duration};

use sqlx::PgConnection;
use uuid::Uuid;

use super::notice::{self, NewRequest};
use crate::{
    domain::{Email, Language, Urgency},
    matching::{self, Notify},
    outbox::{self, Channel, NewOutboxMessage},
    state::AppState,
    store::repair_requests::{self, Claim, RepairRequestRow},
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
    let link = format!(
        "{}/view-request/{}",
        state.config.public_url.trim_end_matches('/'),
        request.id
    );
    let nearest =
        matching::professionals_to_notify(tx, request.id, state.config.repair_request_max_notified)
            .await?;
    let chosen = nearest.iter().filter(|p| match whom {
        Whom::Everyone => true,
        Whom::Email(email) => p.email.eq_ignore_ascii_case(email.as_str()),
    });
    // Every message due, each with the claim that keeps it to one per request,
    // professional and channel.
    let mut due: Vec<(Claim, NewOutboxMessage)> = Vec::new();
    for professional in chosen {
        for message in messages(request, professional, &link) {
            if message.channel == Channel::Sms && !sms_budget_left(state).await {
                continue;
            }
            let claim = Claim {
                professional_id: professional.professional_id,
                channel: message.channel.as_str(),
                distance_m: i32::try_from(professional.distance.whole_meters()).unwrap_or(i32::MAX),
            };
            due.push((claim, message));
        }
    }
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

/// Counts one notification text this hour (before checking, so concurrent fan-outs cannot
/// all slip under the budget); false when the budget is spent or cannot be read, and the
/// professional then gets the email alone.
async fn sms_budget_left(state: &AppState) -> bool {
    let limit = i64::from(state.config.sms_notifications_per_hour);
    let hour = Duration::from_secs(3600);
    match state
        .cache
        .increment("sms-budget:notifications", hour)
        .await
    {
        Ok(count) if count <= limit => true,
        Ok(_) => {
            tracing::warn!(limit, "notification SMS budget spent; email only");
            false
        }
        Err(error) => {
            tracing::error!(%error, "notification SMS budget unreadable; email only");
            false
        }
    }
}

/// The email, and the SMS when they opted in and have a verified phone.
fn messages(request: &RepairRequestRow, to: &Notify, link: &str) -> Vec<NewOutboxMessage> {
    let service = match to.language {
        Language::French => &request.service_name_fr,
        Language::English => &request.service_name_en,
    };
    let facts = NewRequest {
        service,
        city: &request.city,
        province: &request.province,
        distance_km: to.distance.whole_km(),
        emergency: request.urgency() == Urgency::Immediate,
        link,
    };
    // Keyed like request_notifications, so the outbox refuses a duplicate too; worthless
    // once the request has expired.
    let keyed = |message: NewOutboxMessage| {
        let key = format!(
            "repair-request:{}:{}:{}",
            request.id,
            to.professional_id,
            message.channel.as_str()
        );
        NewOutboxMessage {
            dedupe_key: Some(key),
            ..message.discard_after(request.expires_at)
        }
    };
    let email = notice::email(to.language, &to.name, &facts);
    let mut messages = vec![keyed(NewOutboxMessage::email(
        to.email.clone(),
        email.subject,
        email.body,
    ))];
    if let (true, Some(phone)) = (to.sms_opt_in, &to.phone) {
        messages.push(keyed(NewOutboxMessage::sms(
            phone.clone(),
            notice::sms(to.language, &facts),
        )));
    }
    messages
}
