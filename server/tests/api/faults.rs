//! Faults on loopback: the server process killed (SIGKILL) while hires are in flight and
//! started again; the database gone while the outbox is sending. What must hold: after the
//! restart's housekeeping pass no card hold is left that no order holds, no request is left
//! claimed, and a retry under a new key never authorises a second hold; a message that went
//! out while its outcome could not be written is written once the database answers, and
//! never sent twice.

use std::{process::Stdio, sync::Arc, time::Duration};

use crate::helpers::{
    self, TestServer, free_port,
    market::{
        Billing, CALGARY_PRO, VISA, customer, db, hire, in_calgary, market, place, professional,
    },
    send_quote, test_redis_url,
};
use futures::future::join_all;
use repairs_proto::marketplace::{
    self as pb, marketplace_service_client::MarketplaceServiceClient,
};
use sqlx::PgPool;
use tokio::process::{Child, Command};
use tonic::transport::Channel;
use uuid::Uuid;

const JWT_SECRET: &str = "faults-test-secret-that-is-long-enough";

/// The server binary on `database_url`, listening on `grpc_port`, its housekeeping pass
/// every second.
fn spawn_server(database_url: &str, grpc_port: u16, data_dir: &std::path::Path) -> Child {
    spawn_server_with(database_url, grpc_port, data_dir, &[])
}

/// [`spawn_server`] with these settings too.
pub(crate) fn spawn_server_with(
    database_url: &str,
    grpc_port: u16,
    data_dir: &std::path::Path,
    settings: &[(&str, &str)],
) -> Child {
    Command::new(env!("CARGO_BIN_EXE_repairs-server"))
        .env_clear()
        .env("PATH", std::env::var("PATH").unwrap_or_default())
        .env("DATABASE_URL", database_url)
        .env("REDIS_URL", test_redis_url())
        .env("CACHE_PREFIX", format!("faults:{}:", Uuid::now_v7()))
        .env("JWT_SECRET", JWT_SECRET)
        .env("DATA_DIR", data_dir)
        .env("GRPC_ADDR", format!("127.0.0.1:{grpc_port}"))
        .env("HTTP_ADDR", format!("127.0.0.1:{}", free_port()))
        .env("PURGE_INTERVAL_SECS", "1")
        .env("RUST_LOG", "warn")
        .envs(settings.iter().copied())
        .stdout(Stdio::null())
        .stderr(Stdio::null())
        .kill_on_drop(true)
        .spawn()
        .expect("start the server binary")
}

/// A channel to the server on `port` once it answers (up to 30 s).
pub(crate) async fn connect(port: u16) -> Channel {
    let deadline = tokio::time::Instant::now() + Duration::from_secs(30);
    loop {
        if let Ok(channel) = Channel::from_shared(format!("http://127.0.0.1:{port}"))
            .unwrap()
            .connect()
            .await
        {
            return channel;
        }
        assert!(
            tokio::time::Instant::now() < deadline,
            "the server did not start"
        );
        tokio::time::sleep(Duration::from_millis(50)).await;
    }
}

/// Runs `calls` at once against the server process, kills it (SIGKILL) as soon as the first
/// answers (or after 5 s), and counts those answered with success before the kill.
async fn killed_after_first_answer<T: Send + 'static>(
    server: &mut Child,
    calls: impl Iterator<Item = impl Future<Output = Result<T, tonic::Status>> + Send + 'static>,
) -> usize {
    let (answered_tx, mut answered_rx) = tokio::sync::mpsc::channel(64);
    let running: Vec<_> = calls
        .map(|call| {
            let answered = answered_tx.clone();
            tokio::spawn(async move {
                let answer = call.await;
                let _ = answered.send(()).await;
                answer
            })
        })
        .collect();
    let _ = tokio::time::timeout(Duration::from_secs(5), answered_rx.recv()).await;
    server.start_kill().unwrap();
    server.wait().await.unwrap();
    join_all(running)
        .await
        .into_iter()
        .filter(|answer| matches!(answer, Ok(Ok(_))))
        .count()
}

/// Claims with no payment, holds no order holds, and requests with more than one hold.
async fn leftovers(db: &PgPool) -> (i64, i64, i64) {
    sqlx::query_as(
        "select
            (select count(*) from orders where payment_id is null and closed_at is null),
            (select count(*) from payments p
             where p.purpose = 'hire' and p.state in ('authorized', 'requires_action')
               and not exists (select 1 from orders o where o.payment_id = p.id)),
            (select count(*) from (
                select o.repair_request_id from orders o join payments p on p.id = o.payment_id
                where p.state = 'authorized' group by 1 having count(*) > 1) twice)",
    )
    .fetch_one(db)
    .await
    .unwrap()
}

#[tokio::test]
async fn hires_cut_by_a_killed_server_are_put_right_by_the_restart_and_never_held_twice() {
    // The in-process server makes the accounts, requests and quotes; the binary, on the
    // same database and token secret, takes the hires and is killed.
    let setup = TestServer::start_with(|config| {
        config.jwt_secret = Some(JWT_SECRET.to_owned());
        config.repair_requests_per_customer_per_hour = 1_000;
    })
    .await;
    let mut market = market(&setup).await;
    let (_, pro) = professional(&setup, CALGARY_PRO).await.into_first_two();
    let mut jobs = Vec::new();
    for _ in 0..40 {
        let (_, token) = customer(&setup).await;
        let request = place(&mut market, &token, Uuid::now_v7(), in_calgary())
            .await
            .unwrap();
        let quote = send_quote(&setup, &pro, &request.id, 9_000).await;
        jobs.push((token, quote.id));
    }
    let data_dir = tempfile::tempdir().unwrap();
    let port = free_port();
    let mut server = spawn_server(&setup.database.url, port, data_dir.path());
    let billing = Billing::new(connect(port).await);

    // Killed as soon as the first hire is answered: the others are then somewhere between
    // their claim, the card's authorisation and the hire being written.
    let hires = jobs
        .iter()
        .map(|(token, quote)| hire(&billing, token, quote, VISA, Uuid::now_v7()));
    let answered = killed_after_first_answer(&mut server, hires).await;
    let db = db(&setup);
    let cut = leftovers(db).await;
    println!(
        "{answered} of 40 hires answered before the kill; left: {cut:?} (claims, unattached holds, doubly held)"
    );

    // As if the lease of a call cut short had run out (it is measured on the database's
    // clock): the restarted server's housekeeping pass takes it from there.
    sqlx::query("update orders set created_at = created_at - interval '15 minutes'")
        .execute(db)
        .await
        .unwrap();
    sqlx::query("update payment_attempts set started_at = started_at - interval '15 minutes'")
        .execute(db)
        .await
        .unwrap();
    sqlx::query("update payments set created_at = created_at - interval '15 minutes'")
        .execute(db)
        .await
        .unwrap();
    let mut server = spawn_server(&setup.database.url, port, data_dir.path());
    let billing = Billing::new(connect(port).await);
    let deadline = tokio::time::Instant::now() + Duration::from_secs(30);
    while leftovers(db).await != (0, 0, 0) {
        assert!(
            tokio::time::Instant::now() < deadline,
            "after the restart's housekeeping: {:?}",
            leftovers(db).await
        );
        tokio::time::sleep(Duration::from_millis(200)).await;
    }

    // Every customer tries again under a new key: each request ends with one hold.
    let retries = jobs
        .iter()
        .map(|(token, quote)| tokio::spawn(hire(&billing, token, quote, VISA, Uuid::now_v7())));
    for retry in join_all(retries).await {
        retry.unwrap().unwrap();
    }
    let held: Vec<(i64,)> = sqlx::query_as(
        "select count(*) from payments p join orders o on o.payment_id = p.id
         where p.state = 'authorized' group by o.repair_request_id",
    )
    .fetch_all(db)
    .await
    .unwrap();
    assert_eq!(held.len(), 40);
    assert!(held.iter().all(|(holds,)| *holds == 1), "{held:?}");
    assert_eq!(leftovers(db).await, (0, 0, 0));
    println!("after the restart: 40 requests hired on one hold each, nothing left over");
    server.start_kill().unwrap();
    server.wait().await.unwrap();
    setup.stop().await;
}

/// Releases started and never finished, hire holds on a request whose hire was released,
/// and released requests left hired.
async fn releases_left(db: &PgPool) -> (i64, i64, i64) {
    sqlx::query_as(
        "select
            (select count(*) from hire_releases where finished_at is null),
            (select count(*) from hire_releases h join orders o on o.id = h.order_id
             join payments p on p.id = o.payment_id where p.state = 'authorized'),
            (select count(*) from hire_releases h join repair_requests r on r.id = h.repair_request_id
             where r.state = 'hired' and r.hired_application_id = h.quote_id)",
    )
    .fetch_one(db)
    .await
    .unwrap()
}

#[tokio::test]
async fn releases_cut_by_a_killed_server_leave_no_hold_and_reopen_on_restart() {
    let setup = TestServer::start_with(|config| {
        config.jwt_secret = Some(JWT_SECRET.to_owned());
        config.repair_requests_per_customer_per_hour = 1_000;
    })
    .await;
    let mut market = market(&setup).await;
    let in_process = Billing::new(setup.channel().await);
    let (_, pro) = professional(&setup, CALGARY_PRO).await.into_first_two();
    let mut requests = Vec::new();
    for _ in 0..30 {
        let (_, token) = customer(&setup).await;
        let request = place(&mut market, &token, Uuid::now_v7(), in_calgary())
            .await
            .unwrap();
        let quote = send_quote(&setup, &pro, &request.id, 9_000).await;
        hire(&in_process, &token, &quote.id, VISA, Uuid::now_v7())
            .await
            .unwrap();
        requests.push(request.id);
    }
    let data_dir = tempfile::tempdir().unwrap();
    let port = free_port();
    let mut server = spawn_server(&setup.database.url, port, data_dir.path());
    let market = MarketplaceServiceClient::new(connect(port).await);

    // The professional gives back all thirty jobs at once; the server is killed as soon as
    // the first answer comes.
    let releases = requests.iter().map(|id| {
        let mut market = market.clone();
        let request = helpers::with_token(
            pb::ReleaseHireRequest {
                repair_request_id: id.clone(),
                reason: "The van broke down".into(),
                request_id: Uuid::now_v7().to_string(),
            },
            &pro,
        );
        async move { market.release_hire(request).await }
    });
    let answered = killed_after_first_answer(&mut server, releases).await;
    let db = db(&setup);
    println!(
        "{answered} of 30 releases answered before the kill; left: {:?} (unfinished, held, still hired)",
        releases_left(db).await
    );

    // As if the leases of the calls cut short had run out: the restarted server's
    // housekeeping pass finishes what was started.
    sqlx::query("update hire_releases set started_at = started_at - interval '15 minutes'")
        .execute(db)
        .await
        .unwrap();
    sqlx::query("update payment_attempts set started_at = started_at - interval '15 minutes'")
        .execute(db)
        .await
        .unwrap();
    let mut server = spawn_server(&setup.database.url, port, data_dir.path());
    let deadline = tokio::time::Instant::now() + Duration::from_secs(30);
    while releases_left(db).await != (0, 0, 0) {
        assert!(
            tokio::time::Instant::now() < deadline,
            "after the restart's housekeeping: {:?}",
            releases_left(db).await
        );
        tokio::time::sleep(Duration::from_millis(200)).await;
    }
    // Every request is either open again with its hold released, or still hired on its one
    // hold (its release never began).
    let (open, hired, held): (i64, i64, i64) = sqlx::query_as(
        "select count(*) filter (where r.state = 'open'),
            count(*) filter (where r.state = 'hired'),
            (select count(*) from payments p where p.purpose = 'hire' and p.state = 'authorized')
         from repair_requests r",
    )
    .fetch_one(db)
    .await
    .unwrap();
    assert_eq!(open + hired, 30);
    assert_eq!(held, hired, "one hold per request still hired, none other");
    assert!(open >= i64::try_from(answered).unwrap());
    println!("after the restart: {open} requests open again, {hired} still hired on one hold each");
    server.start_kill().unwrap();
    server.wait().await.unwrap();
    setup.stop().await;
}

/// Implemented for the professional helper's answer, so the test reads `(id, token)`.
trait FirstTwo {
    fn into_first_two(self) -> (Uuid, String);
}

impl FirstTwo for (Uuid, String, String) {
    fn into_first_two(self) -> (Uuid, String) {
        (self.0, self.1)
    }
}

/// An email sender that, at its first send, takes the database away from the server (its
/// connections ended, new ones refused) and counts the sends.
struct DatabaseLostWhileSending {
    admin: PgPool,
    database: String,
    sends: std::sync::atomic::AtomicUsize,
}

#[async_trait::async_trait]
impl repairs_server::providers::EmailSender for DatabaseLostWhileSending {
    async fn send(&self, _: &repairs_server::providers::EmailMessage) -> anyhow::Result<()> {
        if self.sends.fetch_add(1, std::sync::atomic::Ordering::SeqCst) == 0 {
            set_database_reachable(&self.admin, &self.database, false).await;
        }
        Ok(())
    }
}

async fn set_database_reachable(admin: &PgPool, database: &str, reachable: bool) {
    sqlx::query(sqlx::AssertSqlSafe(format!(
        "alter database {database} allow_connections {reachable}"
    )))
    .execute(admin)
    .await
    .unwrap();
    if !reachable {
        sqlx::query(
            "select pg_terminate_backend(pid) from pg_stat_activity
             where datname = $1 and pid <> pg_backend_pid()",
        )
        .bind(database)
        .execute(admin)
        .await
        .unwrap();
    }
}

#[tokio::test]
async fn a_message_sent_while_the_database_was_away_is_recorded_when_it_returns_and_never_sent_again()
 {
    let database = helpers::TestDatabase::create().await;
    let admin = PgPool::connect(&helpers::test_database_url())
        .await
        .unwrap();
    let pool = sqlx::postgres::PgPoolOptions::new()
        .max_connections(2)
        .acquire_timeout(Duration::from_millis(500))
        .connect(&database.url)
        .await
        .unwrap();
    repairs_server::store::MIGRATOR.run(&pool).await.unwrap();
    let message =
        repairs_server::outbox::NewOutboxMessage::email("ana@example.ca", "Hello", "A message");
    repairs_server::outbox::enqueue(&pool, &message)
        .await
        .unwrap();
    let email = Arc::new(DatabaseLostWhileSending {
        admin: admin.clone(),
        database: database.name.clone(),
        sends: std::sync::atomic::AtomicUsize::new(0),
    });
    let outbox_dir = tempfile::tempdir().unwrap();
    // A lease of a second: without the fix, the message is claimed and sent again as soon
    // as the database is back.
    let worker = repairs_server::outbox::Worker::new(
        pool.clone(),
        Arc::new(repairs_server::providers::sms::OutboxSms::new(
            outbox_dir.path(),
        )),
        email.clone(),
        repairs_server::outbox::WorkerSettings {
            poll_every: Duration::from_millis(50),
            max_attempts: 8,
            retry_base: Duration::from_millis(10),
            lease: Duration::from_secs(1),
        },
        repairs_server::outbox::OutboxSignal::default(),
    );

    assert!(
        worker.deliver_due().await.is_err(),
        "the database went away mid-send"
    );
    set_database_reachable(&admin, &database.name, true).await;
    tokio::time::sleep(Duration::from_millis(1_200)).await;
    for _ in 0..3 {
        worker.deliver_due().await.unwrap();
    }
    let state: String = sqlx::query_scalar("select state from outbox_messages")
        .fetch_one(&pool)
        .await
        .unwrap();
    let sends = email.sends.load(std::sync::atomic::Ordering::SeqCst);
    println!("database lost mid-send: sent {sends} time(s), recorded {state}");
    assert_eq!((sends, state.as_str()), (1, "sent"));
    pool.close().await;
    database.drop_database().await;
}

/// Contact messages sent one after another from `sender` until `until` turns true; how many
/// were accepted.
pub(crate) async fn send_contact_messages(
    channel: Channel,
    sender: usize,
    until: Arc<std::sync::atomic::AtomicBool>,
) -> usize {
    use repairs_proto::content::{
        SendContactMessageRequest, content_service_client::ContentServiceClient,
    };
    let mut client = ContentServiceClient::new(channel);
    let mut accepted = 0;
    for n in 0.. {
        if until.load(std::sync::atomic::Ordering::SeqCst) {
            break;
        }
        let message = SendContactMessageRequest {
            name: format!("Sender {sender}"),
            email: format!("sender{sender}@example.ca"),
            message: format!("Message {n} from sender {sender}"),
        };
        if client.send_contact_message(message).await.is_ok() {
            accepted += 1;
        }
        tokio::time::sleep(Duration::from_millis(10)).await;
    }
    accepted
}

#[tokio::test]
async fn postgres_killed_and_restarted_under_load_sends_no_email_twice() {
    // The embedded default: the server runs its own Postgres cluster in its data directory,
    // which the test kills (SIGKILL to the postmaster) while messages are being sent.
    let data_dir = tempfile::tempdir().unwrap();
    let mut config = repairs_server::config::Config::for_tests(
        data_dir.path().to_path_buf(),
        String::new(),
        Some(test_redis_url()),
    );
    config.database_url = None;
    config.contact_email = Some("team@example.ca".into());
    config.contact_messages_per_address_per_hour = 100_000;
    config.outbox_poll_ms = 50;
    // A short lease: a send whose outcome was lost would be sent again within the test.
    config.outbox_lease_secs = 1;
    let server = repairs_server::start(config).await.unwrap();
    let channel = helpers::channel_to(server.grpc_addr).await;
    let stop = Arc::new(std::sync::atomic::AtomicBool::new(false));
    let senders: Vec<_> = (0..8)
        .map(|sender| tokio::spawn(send_contact_messages(channel.clone(), sender, stop.clone())))
        .collect();

    let mut kills = 0;
    for _ in 0..2 {
        tokio::time::sleep(Duration::from_millis(700)).await;
        let pid_file = data_dir.path().join("postgres/data/postmaster.pid");
        let pid = std::fs::read_to_string(&pid_file).unwrap();
        let pid = pid.lines().next().unwrap().trim().to_owned();
        let killed = std::process::Command::new("kill")
            .args(["-9", &pid])
            .status()
            .unwrap();
        assert!(killed.success());
        kills += 1;
        tokio::time::sleep(Duration::from_millis(500)).await;
        restart_cluster(data_dir.path()).await;
    }
    tokio::time::sleep(Duration::from_millis(700)).await;
    stop.store(true, std::sync::atomic::Ordering::SeqCst);
    let accepted: usize = join_all(senders)
        .await
        .into_iter()
        .map(Result::unwrap)
        .sum();
    // Past the lease, so that a message whose send was not recorded would go out again.
    tokio::time::sleep(Duration::from_millis(1_500)).await;
    helpers::wait_until_outbox_idle(&server.state.db).await;

    let sent = helpers::outbox(data_dir.path(), "email.jsonl");
    let mut ids: Vec<String> = sent.iter().map(|m| m["delivery_id"].to_string()).collect();
    let emails = ids.len();
    ids.sort();
    ids.dedup();
    let stored: i64 = sqlx::query_scalar("select count(*) from contact_messages")
        .fetch_one(&server.state.db)
        .await
        .unwrap();
    println!(
        "Postgres killed {kills} times under load: {accepted} messages accepted, {stored} stored, \
         {emails} emails sent, {} sent twice",
        emails - ids.len()
    );
    assert_eq!(ids.len(), emails, "an email was sent twice");
    assert_eq!(emails as i64, stored, "each stored message emailed once");
    server.stop().await.unwrap();
}

/// Starts the killed cluster again (its backends may take a moment to notice the postmaster
/// is gone, so a first start can be refused).
async fn restart_cluster(data_dir: &std::path::Path) {
    let deadline = tokio::time::Instant::now() + Duration::from_secs(30);
    loop {
        match repairs_server::store::EmbeddedPostgres::start(data_dir, None).await {
            Ok(_) => return,
            Err(error) => {
                assert!(
                    tokio::time::Instant::now() < deadline,
                    "Postgres did not restart: {error:#}"
                );
                tokio::time::sleep(Duration::from_millis(200)).await;
            }
        }
    }
}
