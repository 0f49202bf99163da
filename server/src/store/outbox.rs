//! The outbox table: messages written in the caller's transaction, claimed by workers.

use chrono::{DateTime, Utc};
use sqlx::{PgExecutor, PgPool};
use uuid::Uuid;

use crate::domain::{Language, NotifyChannel, Role, Subscriber, Topic};

/// A message to write into the outbox.
#[derive(Debug, Clone)]
pub struct NewOutboxMessage {
    pub channel: Channel,
    /// An email address, a phone number, or a push subscription's id.
    pub recipient: String,
    /// Empty for a text message; a push's urgency (`normal`, `high`).
    pub subject: String,
    pub body: String,
    /// At most one message per key is ever written; a second is skipped.
    pub dedupe_key: Option<String>,
    /// Not worth sending after this time.
    pub discard_after: Option<DateTime<Utc>>,
    /// Not sent before the hold ends, unless released earlier ([`release_held`]).
    pub held: Option<Hold>,
    /// A message its person may turn off: written only while they have its kind on for its
    /// channel (`notification_preferences`); an email gets an unsubscribe link.
    pub subscriber: Option<Subscriber>,
}

/// A message kept back until a request's photos are in: due at `until` at the latest, and
/// at once when the photo completing the count arrives.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Hold {
    pub for_photos_of: Uuid,
    pub until: DateTime<Utc>,
}

#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Channel {
    Email,
    Sms,
    /// Web Push to one browser subscription (`push_subscriptions`).
    Push,
}

impl Channel {
    /// The channel as a person chooses it (Web Push and native pushes are one).
    pub fn chosen_as(self) -> NotifyChannel {
        match self {
            Self::Email => NotifyChannel::Email,
            Self::Sms => NotifyChannel::Sms,
            Self::Push => NotifyChannel::Push,
        }
    }

    pub fn as_str(self) -> &'static str {
        match self {
            Self::Email => "email",
            Self::Sms => "sms",
            Self::Push => "push",
        }
    }
}

/// A message a worker has claimed; `attempts` counts this try.
#[derive(Debug, Clone, sqlx::FromRow)]
pub struct ClaimedMessage {
    pub id: Uuid,
    pub channel: String,
    pub recipient: String,
    pub subject: String,
    pub body: String,
    pub attempts: i32,
    pub discard_after: Option<DateTime<Utc>>,
    pub topic: Option<String>,
    pub account_kind: Option<String>,
    pub account_id: Option<Uuid>,
    pub language: Option<String>,
}

impl ClaimedMessage {
    /// Whom a message that may be turned off is for (`None` for receipts, security messages
    /// and the team's mail).
    pub fn subscriber(&self) -> Option<Subscriber> {
        Some(Subscriber {
            topic: Topic::from_code(self.topic.as_deref()?)?,
            role: self.account_kind.as_deref()?.parse::<Role>().ok()?,
            account_id: self.account_id?,
            language: Language::from_code(self.language.as_deref()?)?,
        })
    }
}

/// The columns naming a message's person and kind, as bound for `unnest`.
#[derive(Default)]
struct SubscriberColumns {
    topic: Vec<Option<&'static str>>,
    kind: Vec<Option<&'static str>>,
    account: Vec<Option<Uuid>>,
    language: Vec<Option<&'static str>>,
}

impl SubscriberColumns {
    fn of(messages: &[NewOutboxMessage]) -> Self {
        let mut columns = Self::default();
        for subscriber in messages.iter().map(|m| m.subscriber) {
            columns.topic.push(subscriber.map(|s| s.topic.as_str()));
            columns.kind.push(subscriber.map(|s| s.role.as_str()));
            columns.account.push(subscriber.map(|s| s.account_id));
            columns
                .language
                .push(subscriber.map(|s| s.language.as_str()));
        }
        columns
    }
}

/// Writes a message; returns its delivery id, or `None` when its dedupe key was used already
/// or its person turned its kind off.
pub async fn insert(
    db: impl PgExecutor<'_>,
    message: &NewOutboxMessage,
) -> sqlx::Result<Option<Uuid>> {
    Ok(insert_many(db, std::slice::from_ref(message))
        .await?
        .pop()
        .flatten())
}

/// Writes several messages in one statement; for each, its delivery id, or `None` when its
/// dedupe key was used already or its person turned its kind off on its channel. The one rule
/// of what a person turned off: a message naming its person and kind is written only while no
/// preference row turns that kind off on its channel.
pub async fn insert_many(
    db: impl PgExecutor<'_>,
    messages: &[NewOutboxMessage],
) -> sqlx::Result<Vec<Option<Uuid>>> {
    let ids: Vec<Uuid> = messages.iter().map(|_| Uuid::now_v7()).collect();
    let subscribers = SubscriberColumns::of(messages);
    let written: Vec<(Uuid,)> = sqlx::query_as(
        "insert into outbox_messages (id, channel, recipient, subject, body, dedupe_key,
             discard_after, next_attempt_at, held_for_request, topic, account_kind,
             account_id, language)
         select id, channel, recipient, subject, body, dedupe_key, discard_after,
                coalesce(due, now()), held_for, topic, account_kind, account_id, language
         from unnest($1::uuid[], $2::text[], $3::text[], $4::text[], $5::text[],
                     $6::text[], $7::timestamptz[], $8::timestamptz[], $9::uuid[],
                     $10::text[], $11::text[], $12::uuid[], $13::text[])
              as m(id, channel, recipient, subject, body, dedupe_key, discard_after, due,
                   held_for, topic, account_kind, account_id, language)
         where m.topic is null or not exists (
                 select 1 from notification_preferences p
                 where p.account_kind = m.account_kind and p.account_id = m.account_id
                   and p.topic = m.topic and p.channel = m.channel and not p.enabled)
         on conflict (dedupe_key) do nothing
         returning id",
    )
    .bind(&ids)
    .bind(
        messages
            .iter()
            .map(|m| m.channel.as_str())
            .collect::<Vec<_>>(),
    )
    .bind(
        messages
            .iter()
            .map(|m| m.recipient.as_str())
            .collect::<Vec<_>>(),
    )
    .bind(
        messages
            .iter()
            .map(|m| m.subject.as_str())
            .collect::<Vec<_>>(),
    )
    .bind(messages.iter().map(|m| m.body.as_str()).collect::<Vec<_>>())
    .bind(
        messages
            .iter()
            .map(|m| m.dedupe_key.as_deref())
            .collect::<Vec<_>>(),
    )
    .bind(messages.iter().map(|m| m.discard_after).collect::<Vec<_>>())
    .bind(
        messages
            .iter()
            .map(|m| m.held.map(|hold| hold.until))
            .collect::<Vec<_>>(),
    )
    .bind(
        messages
            .iter()
            .map(|m| m.held.map(|hold| hold.for_photos_of))
            .collect::<Vec<_>>(),
    )
    .bind(&subscribers.topic)
    .bind(&subscribers.kind)
    .bind(&subscribers.account)
    .bind(&subscribers.language)
    .fetch_all(db)
    .await?;
    let written: std::collections::HashSet<Uuid> = written.into_iter().map(|(id,)| id).collect();
    Ok(ids
        .into_iter()
        .map(|id| written.contains(&id).then_some(id))
        .collect())
}

/// Makes the messages held for request `id`'s photos due now, once its photos are all in
/// (`photo_count` reached `photos_to_follow`); how many it released. In the transaction that
/// adds the photo, so the count and the release agree.
pub async fn release_held(tx: &mut sqlx::PgConnection, id: Uuid) -> sqlx::Result<u64> {
    let released = sqlx::query(
        "update outbox_messages set next_attempt_at = now(), held_for_request = null
         where held_for_request = $1 and state = 'pending' and next_attempt_at > now()
           and exists (select 1 from repair_requests
                       where id = $1 and photo_count >= photos_to_follow)",
    )
    .bind(id)
    .execute(tx)
    .await?;
    Ok(released.rows_affected())
}

/// Gives up on pending messages that are no longer worth sending. One a worker is sending
/// (leased) is left to that worker, which records how it ended (`mark_sent`, `mark_failed`).
pub async fn expire_stale(db: &PgPool) -> sqlx::Result<u64> {
    let done = sqlx::query(
        "update outbox_messages set state = 'expired', finished_at = now()
         where state = 'pending' and discard_after < now()
           and (leased_until is null or leased_until < now())",
    )
    .execute(db)
    .await?;
    Ok(done.rows_affected())
}

/// Claims up to `limit` due messages for `lease_secs`: other workers skip them until the
/// lease ends, so a worker that dies mid-send leaves them to be tried again. Urgent pushes
/// (an emergency's alerts) come first, then the rest, soonest due first; messages due at the
/// same moment (one event's, written together) in the order they were written, as their
/// time-ordered ids say. None of `skip` (the claiming worker's sends still under way, which
/// may have outlasted their lease) is taken.
pub async fn claim(
    db: &PgPool,
    limit: i64,
    lease_secs: f64,
    skip: &[Uuid],
) -> sqlx::Result<Vec<ClaimedMessage>> {
    sqlx::query_as(
        "update outbox_messages m
         set attempts = m.attempts + 1,
             next_attempt_at = now() + make_interval(secs => $2),
             leased_until = now() + make_interval(secs => $2)
         from (select id from outbox_messages
               where state = 'pending' and next_attempt_at <= now()
                 and (discard_after is null or discard_after > now())
                 and id <> all($3)
               order by urgent desc, next_attempt_at, id
               limit $1
               for update skip locked) due
         where m.id = due.id
         returning m.id, m.channel, m.recipient, m.subject, m.body, m.attempts, m.discard_after,
                   m.topic, m.account_kind, m.account_id, m.language",
    )
    .bind(limit)
    .bind(lease_secs)
    .bind(skip)
    .fetch_all(db)
    .await
}

/// Records a delivery. Only the worker holding the claim (same try) may finish a message:
/// `None` when another took it over. For a notification of a repair request, the answer
/// carries the seconds since that request was placed (the database's clock for both ends):
/// an email or a text is linked to the request by `request_notifications`, a push by its
/// dedupe key, `repair-request:{request}:{subscription}` (`requests::fanout`).
pub async fn mark_sent(db: &PgPool, id: Uuid, attempts: i32) -> sqlx::Result<Option<Sent>> {
    let sent: Option<(Option<f64>,)> = sqlx::query_as(
        "with sent as (
             update outbox_messages set state = 'sent', finished_at = now(), last_error = ''
             where id = $1 and attempts = $2 and state = 'pending'
             returning id, channel, dedupe_key)
         select coalesce(
                    (select extract(epoch from now() - r.created_at)::float8
                     from request_notifications n
                     join repair_requests r on r.id = n.repair_request_id
                     where n.outbox_message_id = sent.id
                     limit 1),
                    (select extract(epoch from now() - r.created_at)::float8
                     from repair_requests r
                     where sent.channel = 'push'
                       and r.id = substring(sent.dedupe_key
                                            from '^repair-request:([0-9a-f-]{36}):')::uuid))
         from sent",
    )
    .bind(id)
    .bind(attempts)
    .fetch_optional(db)
    .await?;
    Ok(sent.map(|(since_request_placed_secs,)| Sent {
        since_request_placed_secs,
    }))
}

/// A delivery recorded by [`mark_sent`].
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct Sent {
    /// Seconds from the placing of the repair request the message tells of, if it does.
    pub since_request_placed_secs: Option<f64>,
}

/// Records a failed try: again after `retry_in_secs`, or parked when `park` is set; a
/// message whose use ended while it was being sent (its request was cancelled) is dropped.
pub async fn mark_failed(
    db: &PgPool,
    id: Uuid,
    attempts: i32,
    error: &str,
    retry_in_secs: f64,
    park: bool,
) -> sqlx::Result<bool> {
    let done = sqlx::query(
        "update outbox_messages
         set last_error = left($3, 2000),
             next_attempt_at = now() + make_interval(secs => $4),
             state = case when $5 then 'parked'
                          when discard_after <= now() then 'expired'
                          else 'pending' end,
             finished_at = case when $5 or discard_after <= now() then now() end,
             leased_until = null
         where id = $1 and attempts = $2 and state = 'pending'",
    )
    .bind(id)
    .bind(attempts)
    .bind(error)
    .bind(retry_in_secs)
    .bind(park)
    .execute(db)
    .await?;
    Ok(done.rows_affected() == 1)
}

/// Drops a message unsent, as no longer useful (its push subscription is gone). Only the
/// worker holding the claim may.
pub async fn mark_dropped(db: &PgPool, id: Uuid, attempts: i32, why: &str) -> sqlx::Result<bool> {
    let done = sqlx::query(
        "update outbox_messages
         set state = 'expired', finished_at = now(), last_error = $3, leased_until = null
         where id = $1 and attempts = $2 and state = 'pending'",
    )
    .bind(id)
    .bind(attempts)
    .bind(why)
    .execute(db)
    .await?;
    Ok(done.rows_affected() == 1)
}

/// What `/metrics` reports of the outbox: messages still to send, parked ones, and the age
/// of the oldest still to send (both counts on their partial indexes).
pub async fn gauges(db: &PgPool) -> sqlx::Result<(i64, i64, f64)> {
    sqlx::query_as(
        "select (select count(*) from outbox_messages where state = 'pending'),
                (select count(*) from outbox_messages where state = 'parked'),
                coalesce((select extract(epoch from now() - min(created_at))::float8
                          from outbox_messages where state = 'pending'), 0)",
    )
    .fetch_one(db)
    .await
}

/// How many messages are still to be delivered (tests wait for zero).
pub async fn pending_count(db: &PgPool) -> sqlx::Result<i64> {
    let (count,): (i64,) =
        sqlx::query_as("select count(*) from outbox_messages where state = 'pending'")
            .fetch_one(db)
            .await?;
    Ok(count)
}
