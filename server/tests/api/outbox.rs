//! The outbox worker against real Postgres: retries with backoff, parking after the last
//! try, messages no longer worth sending, and two workers (two "processes", two pools)
//! delivering the same outbox without sending anything twice.

use std::{
    collections::HashMap,
    sync::{Arc, Mutex},
    time::Duration,
};

use crate::helpers::TestDatabase;
use async_trait::async_trait;
use repairs_server::{
    outbox::{self, NewOutboxMessage, OutboxSignal, Worker, WorkerSettings},
    providers::{EmailMessage, EmailSender, SmsMessage, SmsSender},
    store::MIGRATOR,
};
use sqlx::PgPool;
use uuid::Uuid;

/// Records what it sends; fails the first `failures` tries of each message.
#[derive(Default)]
struct Recorder {
    failures: u32,
    /// How long a send takes, beyond the usual moment.
    slowness: Duration,
    /// How much longer a text takes than that.
    text_slowness: Duration,
    tries: Mutex<HashMap<Uuid, u32>>,
    sent: Mutex<Vec<Uuid>>,
}

impl Recorder {
    fn failing(failures: u32) -> Arc<Self> {
        Arc::new(Self {
            failures,
            ..Self::default()
        })
    }

    async fn take(&self, id: Uuid) -> anyhow::Result<()> {
        // A send takes a moment, so that concurrent workers overlap.
        tokio::time::sleep(Duration::from_millis(2) + self.slowness).await;
        let tries = {
            let mut tries = self.tries.lock().unwrap();
            let count = tries.entry(id).or_default();
            *count += 1;
            *count
        };
        if tries <= self.failures {
            anyhow::bail!("provider down (try {tries})");
        }
        self.sent.lock().unwrap().push(id);
        Ok(())
    }

    fn sent(&self) -> Vec<Uuid> {
        self.sent.lock().unwrap().clone()
    }
}

#[async_trait]
impl EmailSender for Recorder {
    async fn send(&self, message: &EmailMessage) -> anyhow::Result<()> {
        self.take(message.delivery_id).await
    }
}

#[async_trait]
impl SmsSender for Recorder {
    async fn send(&self, message: &SmsMessage) -> anyhow::Result<()> {
        tokio::time::sleep(self.text_slowness).await;
        self.take(message.delivery_id).await
    }
}

fn worker(db: &PgPool, provider: &Arc<Recorder>, max_attempts: u32) -> Worker {
    worker_with_backoff(db, provider, max_attempts, Duration::from_millis(10))
}

fn worker_with_backoff(
    db: &PgPool,
    provider: &Arc<Recorder>,
    max_attempts: u32,
    retry_base: Duration,
) -> Worker {
    let settings = WorkerSettings {
        poll_every: Duration::from_millis(20),
        max_attempts,
        retry_base,
        lease: Duration::from_secs(60),
    };
    worker_with_settings(db, provider, settings)
}

fn worker_with_settings(db: &PgPool, provider: &Arc<Recorder>, settings: WorkerSettings) -> Worker {
    Worker::new(
        db.clone(),
        provider.clone(),
        provider.clone(),
        settings,
        OutboxSignal::default(),
    )
}

async fn database() -> (TestDatabase, PgPool) {
    let database = TestDatabase::create().await;
    let pool = PgPool::connect(&database.url).await.unwrap();
    MIGRATOR.run(&pool).await.unwrap();
    (database, pool)
}

/// `count` emails due now, to professionals `pro0@example.ca` onwards.
async fn emails_due(db: &PgPool, count: usize) {
    for n in 0..count {
        let email = NewOutboxMessage::email(format!("pro{n}@example.ca"), "New request", "Body");
        outbox::enqueue(db, &email).await.unwrap().unwrap();
    }
}

async fn row(db: &PgPool, id: Uuid) -> (String, i32, String) {
    sqlx::query_as("select state, attempts, last_error from outbox_messages where id = $1")
        .bind(id)
        .fetch_one(db)
        .await
        .unwrap()
}

/// Runs the worker's passes until nothing is pending (backoffs are milliseconds here).
async fn deliver_all(worker: &Worker, db: &PgPool) {
    for _ in 0..200 {
        worker.deliver_due().await.unwrap();
        if repairs_server::store::outbox::pending_count(db)
            .await
            .unwrap()
            == 0
        {
            return;
        }
        tokio::time::sleep(Duration::from_millis(10)).await;
    }
    panic!("the outbox was not delivered");
}

#[tokio::test]
async fn a_failing_provider_is_retried_with_backoff_then_delivered_once() {
    let (database, db) = database().await;
    let provider = Recorder::failing(2);
    let worker = worker_with_backoff(&db, &provider, 5, Duration::from_millis(300));
    let id = outbox::enqueue(&db, &NewOutboxMessage::sms("+14035550100", "code 1234"))
        .await
        .unwrap()
        .unwrap();

    // The first try fails and is not retried before its backoff has passed.
    assert_eq!(worker.deliver_due().await.unwrap(), 1);
    assert_eq!(worker.deliver_due().await.unwrap(), 0, "retried too early");
    let (state, attempts, error) = row(&db, id).await;
    assert_eq!((state.as_str(), attempts), ("pending", 1));
    assert!(error.contains("provider down"), "{error}");

    deliver_all(&worker, &db).await;
    assert_eq!(provider.sent(), [id], "delivered exactly once");
    let (state, attempts, error) = row(&db, id).await;
    assert_eq!((state.as_str(), attempts, error.as_str()), ("sent", 3, ""));
    database.drop_database().await;
}

#[tokio::test]
async fn a_message_is_parked_after_its_last_try() {
    let (database, db) = database().await;
    let provider = Recorder::failing(u32::MAX);
    let worker = worker(&db, &provider, 3);
    let id = outbox::enqueue(
        &db,
        &NewOutboxMessage::email("ana@example.ca", "Hello", "Body"),
    )
    .await
    .unwrap()
    .unwrap();
    deliver_all(&worker, &db).await;
    let (state, attempts, error) = row(&db, id).await;
    assert_eq!((state.as_str(), attempts), ("parked", 3));
    assert!(error.contains("provider down (try 3)"), "{error}");
    assert!(provider.sent().is_empty());
    // Parked stays parked: nothing more is tried.
    tokio::time::sleep(Duration::from_millis(50)).await;
    assert_eq!(worker.deliver_due().await.unwrap(), 0);
    database.drop_database().await;
}

#[tokio::test]
async fn a_message_past_its_use_is_dropped_unsent() {
    let (database, db) = database().await;
    let provider = Recorder::failing(0);
    let worker = worker(&db, &provider, 3);
    let stale = NewOutboxMessage::sms("+14035550100", "code 1234")
        .discard_after(chrono::Utc::now() - chrono::Duration::seconds(1));
    let id = outbox::enqueue(&db, &stale).await.unwrap().unwrap();
    // Not claimed even before it is marked expired.
    let claimed = repairs_server::store::outbox::claim(&db, 16, 60.0, &[]).await;
    assert!(claimed.unwrap().is_empty());
    worker.deliver_due().await.unwrap();
    assert_eq!(row(&db, id).await.0, "expired");
    assert!(provider.sent().is_empty());
    database.drop_database().await;
}

#[tokio::test]
async fn a_dedupe_key_writes_one_message() {
    let (database, db) = database().await;
    let mut message = NewOutboxMessage::email("pro@example.ca", "New request", "Body");
    message.dedupe_key = Some("request:1:pro:2:email".into());
    assert!(outbox::enqueue(&db, &message).await.unwrap().is_some());
    assert!(outbox::enqueue(&db, &message).await.unwrap().is_none());
    database.drop_database().await;
}

#[tokio::test]
async fn urgent_pushes_are_claimed_before_what_waits_longer() {
    let (database, db) = database().await;
    let mut emails = Vec::new();
    for n in 0..20 {
        let email = NewOutboxMessage::email(format!("pro{n}@example.ca"), "New request", "Body");
        emails.push(outbox::enqueue(&db, &email).await.unwrap().unwrap());
    }
    let subscription = Uuid::now_v7();
    let normal = NewOutboxMessage::push(subscription, "{}".into(), outbox::Urgency::Normal);
    let normal = outbox::enqueue(&db, &normal).await.unwrap().unwrap();
    let urgent = NewOutboxMessage::push(subscription, "{}".into(), outbox::Urgency::High);
    let urgent = outbox::enqueue(&db, &urgent).await.unwrap().unwrap();

    // An emergency's alert first, then the rest in the order they were written.
    let claim = |limit| repairs_server::store::outbox::claim(&db, limit, 60.0, &[]);
    // Sorted: the claim's answer comes in no particular order (ids grow with time).
    let ids = |claimed: Vec<repairs_server::store::outbox::ClaimedMessage>| {
        let mut ids: Vec<Uuid> = claimed.into_iter().map(|m| m.id).collect();
        ids.sort_unstable();
        ids
    };
    assert_eq!(ids(claim(1).await.unwrap()), [urgent]);
    assert_eq!(ids(claim(20).await.unwrap()), emails);
    assert_eq!(ids(claim(20).await.unwrap()), [normal]);
    database.drop_database().await;
}

#[tokio::test]
async fn one_event_s_messages_are_claimed_in_the_order_they_were_written() {
    let (database, db) = database().await;
    // Written together (one statement, one moment), as a fan-out writes an emergency's
    // alerts, nearest professional first.
    let alerts: Vec<NewOutboxMessage> = (0..40)
        .map(|_| NewOutboxMessage::push(Uuid::now_v7(), "{}".into(), outbox::Urgency::High))
        .collect();
    let written: Vec<Uuid> = outbox::enqueue_many(&db, &alerts)
        .await
        .unwrap()
        .into_iter()
        .map(Option::unwrap)
        .collect();
    let mut claimed = Vec::new();
    for _ in 0..3 {
        let batch = repairs_server::store::outbox::claim(&db, 16, 60.0, &[])
            .await
            .unwrap();
        let mut ids: Vec<Uuid> = batch.into_iter().map(|m| m.id).collect();
        ids.sort_unstable();
        claimed.extend(ids);
    }
    assert_eq!(
        claimed, written,
        "each batch takes the next of the written order"
    );
    database.drop_database().await;
}

#[tokio::test]
async fn a_slow_send_holds_its_own_slot_only() {
    let (database, db) = database().await;
    let provider = Arc::new(Recorder {
        text_slowness: Duration::from_secs(2),
        ..Recorder::default()
    });
    // A text the provider takes its time over, then more emails than run at once.
    let text = NewOutboxMessage::sms("+14035550100", "code 1");
    let text = outbox::enqueue(&db, &text).await.unwrap().unwrap();
    emails_due(&db, 40).await;
    assert_eq!(worker(&db, &provider, 3).deliver_due().await.unwrap(), 41);
    // Every email went out while the text was still on its way.
    let sent = provider.sent();
    assert_eq!(sent.len(), 41);
    assert_eq!(sent.last(), Some(&text));
    database.drop_database().await;
}

/// A send that outlasts its lease (a provider or a database slower than the lease allows)
/// stays its worker's own: the claims that worker makes meanwhile skip it, so it is not
/// sent a second time alongside. Here a text takes a second, its lease is a fifth of one,
/// and 200 emails of 30 ms keep the worker claiming for about 400 ms.
#[tokio::test]
async fn a_send_outlasting_its_lease_is_not_claimed_again_by_its_own_worker() {
    let (database, db) = database().await;
    let provider = Arc::new(Recorder {
        slowness: Duration::from_millis(30),
        text_slowness: Duration::from_secs(1),
        ..Recorder::default()
    });
    let text = NewOutboxMessage::sms("+14035550100", "code 1");
    let text = outbox::enqueue(&db, &text).await.unwrap().unwrap();
    emails_due(&db, 200).await;
    let settings = WorkerSettings {
        poll_every: Duration::from_millis(20),
        max_attempts: 3,
        retry_base: Duration::from_millis(10),
        lease: Duration::from_millis(200),
    };
    let worker = worker_with_settings(&db, &provider, settings);
    assert_eq!(worker.deliver_due().await.unwrap(), 201);
    let sent = provider.sent();
    let texts = sent.iter().filter(|id| **id == text).count();
    assert_eq!((sent.len(), texts), (201, 1), "the text went out once");
    assert_eq!(row(&db, text).await.0, "sent");
    database.drop_database().await;
}

/// The worker claims more while sends are still finishing: the sends in flight keep being
/// driven meanwhile, so one that holds a pooled connection gives it back and the claim gets
/// one, however small the pool (here one connection for sixteen sends).
#[tokio::test]
async fn claiming_more_never_waits_on_a_connection_a_send_in_flight_holds() {
    let (database, db) = database().await;
    let one_connection = sqlx::postgres::PgPoolOptions::new()
        .max_connections(1)
        .acquire_timeout(Duration::from_secs(2))
        .connect(&database.url)
        .await
        .unwrap();
    let provider = Arc::new(Recorder::default());
    emails_due(&db, 80).await;
    let worker = worker(&one_connection, &provider, 3);
    assert_eq!(worker.deliver_due().await.unwrap(), 80);
    assert_eq!(provider.sent().len(), 80);
    one_connection.close().await;
    database.drop_database().await;
}

#[tokio::test]
async fn two_workers_share_the_outbox_and_send_nothing_twice() {
    let (database, db) = database().await;
    // A second process: its own pool, its own worker, the same providers' record.
    let other_db = PgPool::connect(&database.url).await.unwrap();
    let provider = Recorder::failing(1);
    let mut ids = Vec::new();
    for n in 0..150 {
        let message = if n % 2 == 0 {
            NewOutboxMessage::sms("+14035550100", format!("code {n}"))
        } else {
            NewOutboxMessage::email(format!("p{n}@example.ca"), "Hello", "Body")
        };
        ids.push(outbox::enqueue(&db, &message).await.unwrap().unwrap());
    }
    let first = worker(&db, &provider, 5);
    let second = worker(&other_db, &provider, 5);
    tokio::join!(deliver_all(&first, &db), deliver_all(&second, &other_db));

    let mut sent = provider.sent();
    assert_eq!(sent.len(), ids.len(), "each message sent exactly once");
    sent.sort();
    sent.dedup();
    assert_eq!(sent.len(), ids.len(), "no message sent twice");
    let (left,): (i64,) =
        sqlx::query_as("select count(*) from outbox_messages where state <> 'sent'")
            .fetch_one(&db)
            .await
            .unwrap();
    assert_eq!(left, 0);
    other_db.close().await;
    db.close().await;
    database.drop_database().await;
}

/// A stopping server's worker finishes the sends under way and claims no other message: a
/// backlog (here 640 sends of 100 ms, 16 at a time) does not hold the replica past its grace
/// period, and what is left stays pending for the next worker.
#[tokio::test]
async fn a_stopping_worker_leaves_a_backlog_to_the_next_one() {
    let (database, db) = database().await;
    let provider = Arc::new(Recorder {
        slowness: Duration::from_millis(100),
        ..Recorder::default()
    });
    let backlog = 640;
    emails_due(&db, backlog).await;
    let (shutdown, stop) = tokio::sync::watch::channel(false);
    let task = worker(&db, &provider, 5).spawn(stop);
    while provider.sent().is_empty() {
        tokio::time::sleep(Duration::from_millis(10)).await;
    }
    shutdown.send(true).unwrap();
    let ended = tokio::time::timeout(Duration::from_secs(2), task).await;
    assert!(
        ended.is_ok(),
        "the worker kept sending the backlog after the stop"
    );
    let sent = provider.sent().len();
    assert!(
        sent < backlog / 2,
        "{sent} of {backlog} sent after the stop"
    );
    let pending = repairs_server::store::outbox::pending_count(&db)
        .await
        .unwrap();
    assert_eq!(pending as usize + sent, backlog);
    db.close().await;
    database.drop_database().await;
}
