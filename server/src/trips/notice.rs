//! What the customer is told of a trip: that the professional set out, with the arrival time
//! (a push on each device, and a text when they chose texts), and that they arrived (a push).
//! Written to the outbox in the transaction that changes the trip, in the customer's
//! language; the words are [`crate::words`]'.

use chrono::Utc;
use sqlx::PgConnection;

use crate::{
    alerts::{self, Alerting},
    domain::{Role, SmsUpdates, Subscriber, Topic},
    error::{ApiResult, not_found},
    outbox::{self, NewOutboxMessage},
    state::AppState,
    store::{accounts::AccountKind, customers, repair_requests::RepairRequestRow, trips::TripRow},
    words,
};

/// The professional's name as the customer reads it.
fn professional(request: &RepairRequestRow) -> &str {
    request
        .hired_professional_name
        .as_deref()
        .unwrap_or_default()
}

/// Tells the customer of `request` that `trip` started.
pub(super) async fn started(
    tx: &mut PgConnection,
    state: &AppState,
    request: &RepairRequestRow,
    trip: &TripRow,
) -> ApiResult<()> {
    let minutes = trip.minutes_left(Utc::now());
    let link = state.config.links().customer_request(request.id);
    let customer = customers::get(&mut *tx, request.customer_id)
        .await?
        .ok_or_else(|| not_found("request"))?;
    let mut messages: Vec<NewOutboxMessage> = Vec::new();
    let choice = SmsUpdates::from_code(&customer.sms_updates).unwrap_or_default();
    if let Some(phone) = choice.texts_to(customer.phone.as_deref(), customer.phone_verified) {
        let words = words::of(customer.language);
        let text =
            words.trip_started_sms(professional(request), minutes, link.of(customer.language));
        messages.push(
            NewOutboxMessage::sms(phone, text).for_subscriber(Subscriber {
                topic: Topic::RequestUpdates,
                role: Role::Customer,
                account_id: customer.id,
                language: customer.language,
            }),
        );
    }
    let tag = format!("trip:{}", trip.quote_id);
    let key = format!("trip-started:{}", trip.quote_id);
    let to_customer = [request.customer_id];
    let to = Alerting::new(AccountKind::Customer, &to_customer, &link, &tag)
        .about(Topic::RequestUpdates)
        .urgent(true)
        .keyed(&key);
    messages.extend(
        alerts::to_devices(&mut *tx, to, |_, language| {
            let service = request.service_name.of(language);
            Some(words::of(language).trip_started_alert(professional(request), service, minutes))
        })
        .await?,
    );
    outbox::enqueue_many(&mut *tx, &messages).await?;
    Ok(())
}

/// Tells the customer of `request` that the professional of `trip` arrived.
pub(super) async fn arrived(
    tx: &mut PgConnection,
    request: &RepairRequestRow,
    trip: &TripRow,
    state: &AppState,
) -> ApiResult<()> {
    let link = state.config.links().customer_request(request.id);
    let tag = format!("trip:{}", trip.quote_id);
    let key = format!("trip-arrived:{}", trip.quote_id);
    let to_customer = [request.customer_id];
    let to = Alerting::new(AccountKind::Customer, &to_customer, &link, &tag)
        .about(Topic::RequestUpdates)
        .urgent(true)
        .keyed(&key);
    let pushes = alerts::to_devices(&mut *tx, to, |_, language| {
        let service = request.service_name.of(language);
        Some(words::of(language).trip_arrived_alert(professional(request), service))
    })
    .await?;
    outbox::enqueue_many(&mut *tx, &pushes).await?;
    Ok(())
}
