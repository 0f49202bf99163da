//! A server process killed (SIGKILL) while its outbox worker sends, under load, through a
//! slow SMTP relay (it takes each message, then accepts it a moment later): the messages it
//! had sent and not yet recorded go again once their lease ends, under the same Message-ID.
//! What must hold is the bound the README gives: at most one worker's sends in flight (16)
//! go twice per kill, none more than twice, and none is lost.

use std::{collections::HashMap, sync::Arc, time::Duration};

use crate::{
    faults::{connect, send_contact_messages, spawn_server_with},
    helpers::{self, TestDatabase, free_port},
    providers_smtp::SmtpSink,
};
use futures::future::join_all;

use repairs_server::outbox::SENDING as SENDS_IN_FLIGHT;

/// The server's settings, sending through the relay on `smtp_port`.
fn settings(smtp_port: &str) -> [(&str, &str); 7] {
    [
        ("OUTBOX_LEASE_SECS", "1"),
        ("OUTBOX_POLL_MS", "20"),
        ("CONTACT_EMAIL", "team@example.ca"),
        ("CONTACT_MESSAGES_PER_ADDRESS_PER_HOUR", "100000"),
        ("SMTP_HOST", "127.0.0.1"),
        ("SMTP_PORT", smtp_port),
        ("SMTP_TLS", "none"),
    ]
}

/// The Message-ID header of a raw message.
fn message_id(data: &[u8]) -> String {
    String::from_utf8_lossy(data)
        .lines()
        .find_map(|line| {
            let (name, value) = line.split_once(':')?;
            name.eq_ignore_ascii_case("message-id")
                .then(|| value.trim().to_owned())
        })
        .expect("every message has a Message-ID")
}

#[tokio::test]
async fn a_server_killed_mid_send_sends_at_most_its_sends_in_flight_again() {
    let database = TestDatabase::create().await;
    let data_dir = tempfile::tempdir().unwrap();
    let relay = SmtpSink::start_slow(Duration::from_millis(100)).await;
    let smtp_port = relay.addr.port().to_string();
    let settings = settings(&smtp_port);
    let port = free_port();
    let mut server = spawn_server_with(&database.url, port, data_dir.path(), &settings);
    let channel = connect(port).await;
    let stop = Arc::new(std::sync::atomic::AtomicBool::new(false));
    let senders: Vec<_> = (0..8)
        .map(|sender| tokio::spawn(send_contact_messages(channel.clone(), sender, stop.clone())))
        .collect();
    // Killed while messages arrive and go out.
    tokio::time::sleep(Duration::from_millis(1_500)).await;
    server.start_kill().unwrap();
    server.wait().await.unwrap();
    stop.store(true, std::sync::atomic::Ordering::SeqCst);
    let accepted: usize = join_all(senders)
        .await
        .into_iter()
        .map(Result::unwrap)
        .sum();

    // Started again on the same database and data directory: past the lease, what the
    // killed process had claimed is claimed again and sent.
    let mut restarted = spawn_server_with(&database.url, port, data_dir.path(), &settings);
    connect(port).await;
    tokio::time::sleep(Duration::from_millis(1_500)).await;
    let pool = sqlx::PgPool::connect(&database.url).await.unwrap();
    helpers::wait_until_outbox_idle(&pool).await;
    let stored: i64 = sqlx::query_scalar("select count(*) from contact_messages")
        .fetch_one(&pool)
        .await
        .unwrap();
    restarted.start_kill().unwrap();
    restarted.wait().await.unwrap();
    pool.close().await;

    let mut sends: HashMap<String, usize> = HashMap::new();
    for message in relay.messages() {
        *sends.entry(message_id(&message.data)).or_default() += 1;
    }
    relay.stop();
    let twice = sends.values().filter(|n| **n == 2).count();
    let most = sends.values().copied().max().unwrap_or(0);
    println!(
        "server killed mid-send: {accepted} messages accepted, {stored} stored, {} emailed, \
         {twice} sent twice (bound {SENDS_IN_FLIGHT})",
        sends.len()
    );
    assert!(stored > 0, "messages were stored before the kill");
    assert_eq!(sends.len() as i64, stored, "each stored message emailed");
    assert!(most <= 2, "a message went {most} times");
    assert!(twice <= SENDS_IN_FLIGHT, "{twice} went twice");
    database.drop_database().await;
}
