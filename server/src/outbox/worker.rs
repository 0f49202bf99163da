//! Delivers the outbox: claim due messages, send them, record the outcome; then give back
//! the budgets paid by messages that ended unsent (`crate::budgets`).

use std::{collections::HashSet, sync::Arc, time::Duration};

use futures::{
    future::BoxFuture,
    stream::{FuturesUnordered, StreamExt},
};
use rand::Rng;
use sqlx::PgPool;
use tokio::{sync::watch, task::JoinHandle};

use super::{OutboxSignal, Unsubscribing};
use crate::{
    config::Config,
    domain::NativePlatform,
    metrics::Metrics,
    providers::{
        self, EmailMessage, EmailSender, SmsMessage, SmsSender,
        native_push::{Alert, NativeMessage, NativePush},
        web_push::{Delivery, PushMessage, PushSender, Urgency},
    },
    store::{
        outbox::{self as store, ClaimedMessage},
        push_subscriptions::{self, SubscriptionRow},
    },
};

/// How many sends run at the same time: also how many messages a server killed mid-send
/// can have sent without recording it, which go again when their lease ends (README).
pub const SENDING: usize = 16;
/// Longest wait between two tries.
const MAX_BACKOFF: Duration = Duration::from_secs(3600);
/// How long a push service keeps a message for a device that is away, at most.
const MAX_PUSH_TTL: Duration = Duration::from_secs(24 * 3600);

#[derive(Debug, Clone)]
pub struct WorkerSettings {
    pub poll_every: Duration,
    pub max_attempts: u32,
    pub retry_base: Duration,
    /// How long a claim keeps other workers off a message: longer than any provider call.
    pub lease: Duration,
}

impl WorkerSettings {
    pub fn from_config(config: &Config) -> Self {
        Self {
            poll_every: Duration::from_millis(config.outbox_poll_ms.max(10)),
            max_attempts: config.outbox_max_attempts.max(1),
            retry_base: Duration::from_millis(config.outbox_retry_base_ms),
            lease: Duration::from_secs(config.outbox_lease_secs.max(1)),
        }
    }

    /// The wait after the `attempts`-th failed try: base, 2 x base, 4 x base, ... with a
    /// tenth of jitter so that messages failed together are not retried together.
    fn backoff(&self, attempts: i32) -> Duration {
        crate::backoff::doubling(attempts, self.retry_base, MAX_BACKOFF)
            .mul_f64(rand::thread_rng().gen_range(0.9..=1.1))
    }
}

pub struct Worker {
    db: PgPool,
    sms: Arc<dyn SmsSender>,
    email: Arc<dyn EmailSender>,
    /// `None` while Web Push is off: push messages are then parked.
    push: Option<Arc<dyn PushSender>>,
    /// APNs and FCM, those configured: pushes to the others' devices are dropped.
    native: NativePush,
    settings: WorkerSettings,
    signal: OutboxSignal,
    /// Where the delay of each notification of a repair request is counted.
    metrics: Metrics,
    /// The link and footer of an email its person may turn off; `None`: sent without them.
    unsubscribing: Option<Arc<dyn Unsubscribing>>,
    /// Sends that ended while the database could not be told: recorded before anything new
    /// is claimed, so a message that went out is never sent again when its lease runs out.
    unrecorded: std::sync::Mutex<Vec<Outcome>>,
}

/// How one send ended, as the outbox must record it.
#[derive(Debug, Clone)]
enum Outcome {
    Sent {
        id: uuid::Uuid,
        attempts: i32,
        channel: &'static str,
    },
    Failed {
        id: uuid::Uuid,
        attempts: i32,
        error: String,
        retry_in_secs: f64,
        park: bool,
    },
    /// Not sent, and never to be: its push subscription is gone.
    Dropped {
        id: uuid::Uuid,
        attempts: i32,
        why: &'static str,
    },
}

impl Outcome {
    fn id(&self) -> uuid::Uuid {
        match self {
            Self::Sent { id, .. } | Self::Failed { id, .. } | Self::Dropped { id, .. } => *id,
        }
    }
}

impl Worker {
    pub fn new(
        db: PgPool,
        sms: Arc<dyn SmsSender>,
        email: Arc<dyn EmailSender>,
        settings: WorkerSettings,
        signal: OutboxSignal,
    ) -> Self {
        Self {
            db,
            sms,
            email,
            push: None,
            native: NativePush::default(),
            settings,
            signal,
            metrics: Metrics::default(),
            unsubscribing: None,
            unrecorded: std::sync::Mutex::default(),
        }
    }

    /// Counts the notifications' delays in `metrics` (a worker of its own otherwise).
    pub fn with_metrics(mut self, metrics: Metrics) -> Self {
        self.metrics = metrics;
        self
    }

    /// Sends the `push` channel's messages through `push`.
    pub fn with_push(mut self, push: Arc<dyn PushSender>) -> Self {
        self.push = Some(push);
        self
    }

    /// Sends the `push` channel's messages to native devices through `native`.
    /// Gives the emails their person may turn off a one-click unsubscribe link and footer.
    pub fn with_unsubscribing(mut self, unsubscribing: Arc<dyn Unsubscribing>) -> Self {
        self.unsubscribing = Some(unsubscribing);
        self
    }

    /// The email of `message`: with its unsubscribe footer and header when it is one its
    /// person may turn off (CASL, RFC 8058).
    fn email_of(&self, message: &ClaimedMessage) -> EmailMessage {
        let unsubscribe = message
            .subscriber()
            .zip(self.unsubscribing.as_ref())
            .map(|(subscriber, unsubscribing)| unsubscribing.unsubscribe(&subscriber));
        let body = match &unsubscribe {
            Some(unsubscribe) => format!("{}\n\n-- \n{}", message.body, unsubscribe.footer),
            None => message.body.clone(),
        };
        EmailMessage {
            delivery_id: message.id,
            to: message.recipient.clone(),
            subject: message.subject.clone(),
            body,
            list_unsubscribe: unsubscribe.map(|unsubscribe| unsubscribe.link),
        }
    }

    pub fn with_native_push(mut self, native: NativePush) -> Self {
        self.native = native;
        self
    }

    /// Records the outcomes the database could not take before; stops at the first that
    /// still fails (the database is still away), keeping it and the rest for next time.
    async fn record_unrecorded(&self) -> sqlx::Result<()> {
        let waiting = std::mem::take(&mut *self.unrecorded_list());
        let mut waiting = waiting.into_iter();
        while let Some(outcome) = waiting.next() {
            if let Err(error) = self.record(&outcome).await {
                let mut list = self.unrecorded_list();
                list.push(outcome);
                list.extend(waiting);
                return Err(error);
            }
        }
        Ok(())
    }

    fn unrecorded_list(&self) -> std::sync::MutexGuard<'_, Vec<Outcome>> {
        self.unrecorded
            .lock()
            .unwrap_or_else(std::sync::PoisonError::into_inner)
    }

    /// Writes one outcome; false when the lease ran out and another worker took over.
    async fn record(&self, outcome: &Outcome) -> sqlx::Result<bool> {
        let recorded = match outcome {
            Outcome::Sent {
                id,
                attempts,
                channel,
            } => {
                let sent = store::mark_sent(&self.db, *id, *attempts).await?;
                if let Some(seconds) = sent.and_then(|sent| sent.since_request_placed_secs) {
                    self.metrics.notification_sent(channel, seconds);
                }
                sent.is_some()
            }
            Outcome::Failed {
                id,
                attempts,
                error,
                retry_in_secs,
                park,
            } => store::mark_failed(&self.db, *id, *attempts, error, *retry_in_secs, *park).await?,
            Outcome::Dropped { id, attempts, why } => {
                store::mark_dropped(&self.db, *id, *attempts, why).await?
            }
        };
        if !recorded {
            // The lease ran out during the send and another worker took the message over.
            tracing::warn!(delivery_id = %outcome.id(), "outbox message was claimed again while sending");
        }
        Ok(recorded)
    }

    /// Sends every message due now; returns how many were tried.
    pub async fn deliver_due(&self) -> sqlx::Result<usize> {
        self.deliver_due_until(|| false).await
    }

    /// Sends the messages due now, up to [`SENDING`] at a time, until none is left or
    /// `stopping()` says the server is stopping: a backlog must not hold a stopping replica
    /// past its grace period (what is left waits for the next worker, leased messages
    /// included). More are claimed as soon as half the sends have ended, so one slow send (a
    /// push service taking its time) holds its own slot only, not the messages after it.
    /// The sends in flight are driven while the claim runs: one that holds a pooled
    /// connection must give it back, or the claim could wait for it until its timeout. And
    /// the claim skips them: one that outlasts its lease must not be sent again alongside.
    async fn deliver_due_until(&self, stopping: impl Fn() -> bool) -> sqlx::Result<usize> {
        self.record_unrecorded().await?;
        let expired = store::expire_stale(&self.db).await?;
        if expired > 0 {
            tracing::info!(expired, "outbox messages dropped unsent: no longer useful");
        }
        let mut tried = 0;
        let mut sending = Sending::default();
        let mut more = true;
        loop {
            if more && sending.first_error.is_none() && !stopping() && sending.len() <= SENDING / 2
            {
                let lease = self.settings.lease.as_secs_f64();
                let free = i64::try_from(SENDING - sending.len()).unwrap_or(1);
                let skip = sending.ids();
                match sending.driving(self.claim(free, lease, &skip)).await {
                    Ok(batch) if batch.is_empty() => more = false,
                    Ok(batch) => {
                        tried += batch.len();
                        for message in batch {
                            let id = message.id;
                            sending.push(id, async move { self.deliver(&message).await });
                        }
                    }
                    Err(error) => sending.note(Err(error)),
                }
            }
            let ended = sending.next_ended().await;
            // Nothing sending and nothing more to claim (or no claiming any more).
            if !ended && (!more || sending.first_error.is_some() || stopping()) {
                break;
            }
        }
        if let Some(error) = sending.first_error {
            return Err(error);
        }
        if !more {
            let given_back = crate::budgets::give_back_unsent(&self.db).await?;
            if given_back > 0 {
                tracing::info!(given_back, "budgets of unsent messages given back");
            }
        }
        Ok(tried)
    }

    /// Claims up to `limit` due messages, none of `skip`, with what their words need.
    async fn claim(
        &self,
        limit: i64,
        lease: f64,
        skip: &[uuid::Uuid],
    ) -> sqlx::Result<Vec<ClaimedMessage>> {
        let mut batch = store::claim(&self.db, limit, lease, skip).await?;
        super::photo_count::fill(&self.db, &mut batch).await?;
        Ok(batch)
    }

    async fn deliver(&self, message: &ClaimedMessage) -> sqlx::Result<()> {
        if message.channel == "push" {
            let outcome = match self.push_to(message).await? {
                Ok(outcome) => outcome,
                Err(error) => self.failure(message, &error),
            };
            return self.finish(outcome).await;
        }
        let sent = match message.channel.as_str() {
            "sms" => {
                self.sms
                    .send(&SmsMessage {
                        delivery_id: message.id,
                        to: message.recipient.clone(),
                        body: message.body.clone(),
                    })
                    .await
            }
            _ => self.email.send(&self.email_of(message)).await,
        };
        let outcome = match sent {
            Ok(()) => Outcome::Sent {
                id: message.id,
                attempts: message.attempts,
                channel: if message.channel == "sms" {
                    "sms"
                } else {
                    "email"
                },
            },
            Err(error) => self.failure(message, &error),
        };
        self.finish(outcome).await
    }

    /// Records `outcome`, or keeps it for later when the database cannot take it.
    async fn finish(&self, outcome: Outcome) -> sqlx::Result<()> {
        if let Err(error) = self.record(&outcome).await {
            self.unrecorded_list().push(outcome);
            return Err(error);
        }
        Ok(())
    }

    /// Sends a push to the subscription the message names (a browser, or a native app's
    /// device): its outcome, or the send's error (retried like any other). A subscription the
    /// push service no longer knows (Web Push 404 or 410, APNs and FCM their own answers) is
    /// deleted, and the message dropped.
    async fn push_to(
        &self,
        message: &ClaimedMessage,
    ) -> sqlx::Result<Result<Outcome, anyhow::Error>> {
        let dropped = |why| {
            Ok(Ok(Outcome::Dropped {
                id: message.id,
                attempts: message.attempts,
                why,
            }))
        };
        let Ok(subscription_id) = message.recipient.parse::<uuid::Uuid>() else {
            return dropped("the recipient is not a push subscription");
        };
        let Some(subscription) = push_subscriptions::find(&self.db, subscription_id).await? else {
            return dropped("the push subscription was removed");
        };
        let (sent, channel) = match self.send_push(message, subscription).await {
            Ok(sent) => sent,
            Err(why) => return dropped(why),
        };
        Ok(match sent {
            Ok(Delivery::Accepted) => Ok(Outcome::Sent {
                id: message.id,
                attempts: message.attempts,
                channel,
            }),
            Ok(Delivery::Gone) => {
                push_subscriptions::delete(&self.db, subscription_id).await?;
                tracing::info!(delivery_id = %message.id, channel, "push subscription gone: removed");
                return dropped("the push service no longer knows the subscription");
            }
            Err(error) => Err(error),
        })
    }

    /// Sends `message` through the service of `subscription`'s platform: how that went and
    /// the channel it is counted under (`push` for Web Push, `apns`, `fcm`), or why it cannot
    /// be sent at all.
    async fn send_push(
        &self,
        message: &ClaimedMessage,
        subscription: SubscriptionRow,
    ) -> Result<(anyhow::Result<Delivery>, &'static str), &'static str> {
        let ttl = message.discard_after.map_or(MAX_PUSH_TTL, |until| {
            (until - chrono::Utc::now())
                .to_std()
                .unwrap_or_default()
                .min(MAX_PUSH_TTL)
        });
        let urgency = Urgency::parse(&message.subject);
        let Some(platform) = NativePlatform::from_column(&subscription.platform) else {
            let push = self
                .push
                .as_ref()
                .ok_or("Web Push is not configured on this server")?;
            let (Some(endpoint), Some(p256dh), Some(auth)) = (
                subscription.endpoint,
                fixed(subscription.p256dh),
                fixed(subscription.auth),
            ) else {
                return Err("the push subscription's keys are damaged");
            };
            let sent = push
                .send(&PushMessage {
                    delivery_id: message.id,
                    endpoint,
                    p256dh,
                    auth,
                    payload: message.body.clone(),
                    ttl,
                    urgency,
                })
                .await;
            return Ok((sent, "push"));
        };
        let (sender, channel) = match platform {
            NativePlatform::Ios => (
                self.native
                    .apns
                    .as_ref()
                    .ok_or("APNs is not configured on this server")?,
                "apns",
            ),
            NativePlatform::Android => (
                self.native
                    .fcm
                    .as_ref()
                    .ok_or("FCM is not configured on this server")?,
                "fcm",
            ),
        };
        let device_token = subscription
            .device_token
            .ok_or("the push subscription has no device token")?;
        let alert: Alert =
            serde_json::from_str(&message.body).map_err(|_| "the push's words are damaged")?;
        let sent = sender
            .send(&NativeMessage {
                delivery_id: message.id,
                device_token,
                alert,
                ttl,
                urgency,
            })
            .await;
        Ok((sent, channel))
    }

    fn failure(&self, message: &ClaimedMessage, error: &anyhow::Error) -> Outcome {
        let last_try =
            u32::try_from(message.attempts).unwrap_or(u32::MAX) >= self.settings.max_attempts;
        let park = last_try || providers::is_permanent(error);
        if park {
            tracing::error!(
                delivery_id = %message.id, channel = %message.channel, attempts = message.attempts,
                error = ?error, "outbox message parked: it could not be sent"
            );
        } else {
            tracing::warn!(
                delivery_id = %message.id, channel = %message.channel, attempts = message.attempts,
                error = ?error, "outbox message not sent; it will be tried again"
            );
        }
        Outcome::Failed {
            id: message.id,
            attempts: message.attempts,
            error: format!("{error:#}"),
            retry_in_secs: self.settings.backoff(message.attempts).as_secs_f64(),
            park,
        }
    }

    /// Runs until `shutdown` turns true: delivers what is due, then sleeps until the next
    /// poll or until this process writes a message. The sends under way are finished first,
    /// and no other message is claimed.
    pub fn spawn(self, mut shutdown: watch::Receiver<bool>) -> JoinHandle<()> {
        tokio::spawn(crate::store::transaction::tracked(async move {
            while !*shutdown.borrow() {
                let stopping = || *shutdown.borrow();
                if let Err(error) = self.deliver_due_until(stopping).await {
                    tracing::error!(error = ?error, "outbox worker could not read the outbox");
                }
                tokio::select! {
                    () = tokio::time::sleep(self.settings.poll_every) => {}
                    () = self.signal.woken() => {}
                    changed = shutdown.changed() => if changed.is_err() { break },
                }
            }
        }))
    }
}

/// A key of the size it must have.
fn fixed<const N: usize>(bytes: Option<Vec<u8>>) -> Option<[u8; N]> {
    bytes?.try_into().ok()
}

/// The sends under way in one pass of the worker, with the ids of their messages and the
/// first error of those that ended.
#[derive(Default)]
struct Sending<'a> {
    sends: FuturesUnordered<BoxFuture<'a, (uuid::Uuid, sqlx::Result<()>)>>,
    ids: HashSet<uuid::Uuid>,
    first_error: Option<sqlx::Error>,
}

impl<'a> Sending<'a> {
    fn len(&self) -> usize {
        self.sends.len()
    }

    /// The messages being sent: a claim must skip them, even past their lease.
    fn ids(&self) -> Vec<uuid::Uuid> {
        self.ids.iter().copied().collect()
    }

    fn push(&mut self, id: uuid::Uuid, send: impl Future<Output = sqlx::Result<()>> + Send + 'a) {
        self.ids.insert(id);
        self.sends.push(Box::pin(async move { (id, send.await) }));
    }

    /// Waits for the next send to end; false when none was under way.
    async fn next_ended(&mut self) -> bool {
        match self.sends.next().await {
            Some(ended) => {
                self.ended(ended);
                true
            }
            None => false,
        }
    }

    /// Runs `work` to its end while driving the sends in flight: a send left unpolled could
    /// hold a pooled connection that `work` waits for.
    async fn driving<T>(&mut self, work: impl Future<Output = T>) -> T {
        tokio::pin!(work);
        loop {
            tokio::select! {
                done = &mut work => return done,
                Some(ended) = self.sends.next() => self.ended(ended),
            }
        }
    }

    fn ended(&mut self, (id, result): (uuid::Uuid, sqlx::Result<()>)) {
        self.ids.remove(&id);
        self.note(result);
    }

    /// Keeps the first error.
    fn note(&mut self, result: sqlx::Result<()>) {
        if let Err(error) = result {
            self.first_error.get_or_insert(error);
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn backoff_doubles_up_to_an_hour() {
        let settings = WorkerSettings {
            poll_every: Duration::from_secs(1),
            max_attempts: 8,
            retry_base: Duration::from_secs(10),
            lease: Duration::from_secs(120),
        };
        let near = |attempts, secs: f64| {
            let wait = settings.backoff(attempts).as_secs_f64();
            assert!(
                (secs * 0.9..=secs * 1.1).contains(&wait),
                "{attempts}: {wait}"
            );
        };
        near(1, 10.0);
        near(2, 20.0);
        near(4, 80.0);
        near(30, 3600.0);
    }
}
