//! Telling the matching professionals of a request, in the transaction that places (or
//! moves) it: one email to each, and one SMS to those who opted in, in their language,
//! written to the outbox. `request_notifications` holds one row per request, professional
//! and channel, so a retried create, an edit or a second server process never tells anyone
//! twice.

use sqlx::PgConnection;

use super::notice::{self, NewRequest};
use crate::{
    domain::{Email, Language, Urgency},
    matching::{self, Notify},
    outbox::{self, NewOutboxMessage},
    store::repair_requests::{self, RepairRequestRow},
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
    request: &RepairRequestRow,
    public_url: &str,
    whom: Whom<'_>,
) -> sqlx::Result<usize> {
    let link = format!(
        "{}/view-request/{}",
        public_url.trim_end_matches('/'),
        request.id
    );
    let mut told = 0;
    let matched = matching::professionals_to_notify(tx, request.id).await?;
    let chosen = matched.iter().filter(|p| match whom {
        Whom::Everyone => true,
        Whom::Email(email) => p.email.eq_ignore_ascii_case(email.as_str()),
    });
    for professional in chosen {
        let mut sent_any = false;
        for message in messages(request, professional, &link) {
            let channel = message.channel.as_str();
            let distance_m =
                i32::try_from(professional.distance.whole_meters()).unwrap_or(i32::MAX);
            if !repair_requests::claim_notification(
                tx,
                request.id,
                professional.professional_id,
                channel,
                distance_m,
            )
            .await?
            {
                continue;
            }
            if let Some(message_id) = outbox::enqueue(&mut *tx, &message).await? {
                repair_requests::attach_message(
                    tx,
                    request.id,
                    professional.professional_id,
                    channel,
                    message_id,
                )
                .await?;
            }
            sent_any = true;
        }
        told += usize::from(sent_any);
    }
    Ok(told)
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
