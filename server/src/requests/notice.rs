//! What professionals are told about a request, and when: each matching professional of a
//! new request (an email, and a text to those who opted in), and the professionals who
//! quoted on it, or were hired for it, when its customer cancels it. A new request's
//! notices name the service, the city and the distance, never the street: the address is
//! only for the professional who is hired. The words are [`crate::words`]'.

use crate::{
    config::links::PageLink,
    domain::{Language, Role, Subscriber, Topic, Urgency},
    matching::Notify,
    outbox::{NewOutboxMessage, photo_count},
    store::{quotes::ClosedQuote, repair_requests::RepairRequestRow, services::ServiceNames},
    words::{self, Alert, NewRequest},
};

/// The facts of `request` as professional `to` reads them; `photos` is where the outbox
/// writes how many photos it has when the message is sent (`outbox::photo_count`).
fn facts<'a>(
    request: &'a RepairRequestRow,
    to: &Notify,
    language: Language,
    (photos, link): (&'a str, &'a str),
) -> NewRequest<'a> {
    NewRequest {
        service: request.service_name.of(language),
        city: &request.city,
        province: &request.province,
        distance_km: to.distance.whole_km(),
        drive_minutes: to
            .drive
            .filter(|drive| drive.by_road)
            .map(|drive| drive.whole_minutes()),
        emergency: request.urgency() == Urgency::Immediate,
        photos,
        link,
    }
}

/// The push alert telling professional `to` of `request` on a device set to `language`.
pub(super) fn new_request_alert(
    request: &RepairRequestRow,
    to: &Notify,
    language: Language,
    link: &PageLink,
) -> Alert {
    let words = words::of(language);
    let photos = photo_count::marker(request.id, words.no_photos());
    let link = link.of(language);
    words.new_request_alert(&facts(request, to, language, (&photos, link)))
}

/// The email, and the SMS when they opted in and have a verified phone, telling professional
/// `to` of `request` (`link` opens it).
pub(super) fn new_request(
    request: &RepairRequestRow,
    to: &Notify,
    link: &PageLink,
) -> Vec<NewOutboxMessage> {
    let words = words::of(to.language);
    let photos = photo_count::marker(request.id, words.no_photos());
    let facts = facts(request, to, to.language, (&photos, link.of(to.language)));
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
            ..message
                .discard_after(request.expires_at)
                .for_subscriber(Subscriber {
                    topic: Topic::NewRequests,
                    role: Role::Professional,
                    account_id: to.professional_id,
                    language: to.language,
                })
        }
    };
    let email = words.new_request_email(&to.name, &facts);
    let mut messages = vec![keyed(NewOutboxMessage::email(
        to.email.clone(),
        email.subject,
        email.body,
    ))];
    if let (true, Some(phone)) = (to.sms_opt_in, &to.phone) {
        messages.push(keyed(NewOutboxMessage::sms(
            phone.clone(),
            words.new_request_sms(&facts),
        )));
    }
    messages
}

/// A professional to tell that a request was cancelled: one who quoted on it or was hired
/// for it.
#[derive(Debug, Clone, Copy)]
pub struct Recipient<'a> {
    pub email: &'a str,
    pub name: &'a str,
    pub language: Language,
}

/// The email telling `to` that the request for `service` was cancelled.
pub fn cancelled(to: Recipient<'_>, service: &ServiceNames) -> NewOutboxMessage {
    let mail = words::of(to.language).request_cancelled(to.name, service.of(to.language));
    NewOutboxMessage::email(to.email, mail.subject, mail.body)
}

/// The email telling a professional whose quote the cancel closed.
pub(super) fn quote_closed(closed: &ClosedQuote) -> NewOutboxMessage {
    let to = Recipient {
        email: &closed.email,
        name: &closed.name,
        language: closed.language,
    };
    cancelled(to, &closed.service_name)
}
