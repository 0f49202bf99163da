//! The server's limits against real Postgres and Redis: bounded password hashing, sign-in
//! emails parsed before use and counted under a hash, the failed-sign-in limit under
//! concurrent guesses, database outages answered as such, budgets and the sign-in limit
//! holding through a Redis outage and restart, and a data directory Postgres cannot reach
//! explained.

use std::{
    collections::BTreeMap,
    process::Stdio,
    time::{Duration, Instant},
};

use crate::helpers::{self, AccountsClient, TestServer, reason, violated_fields};
use repairs_proto::accounts as pb;
use repairs_server::{
    budgets::Budget,
    error::{ApiError, ErrorReason},
};
use tokio::task::JoinSet;
use tonic::Code;
use tonic_types::StatusExt;

async fn sign_up(client: &mut AccountsClient, email: &str) {
    client
        .sign_up(pb::SignUpRequest {
            role: pb::Role::Customer as i32,
            name: "Ana Lopez".into(),
            email: email.into(),
            password: "correct horse".into(),
            language: 0,
        })
        .await
        .expect("sign-up");
}

async fn log_in(
    client: &mut AccountsClient,
    email: &str,
    password: &str,
) -> Result<(), tonic::Status> {
    client
        .log_in(pb::LogInRequest {
            role: pb::Role::Customer as i32,
            email: email.into(),
            password: password.into(),
        })
        .await
        .map(|_| ())
}

/// A sign-in with a wrong password, checked and refused as such.
async fn guess_wrong(client: &mut AccountsClient, email: &str) {
    let failed = log_in(client, email, "wrong horse").await.unwrap_err();
    assert_eq!(reason(&failed), "INVALID_CREDENTIALS", "{failed:?}");
}

/// Sends `count` sign-ins at once (email of try `n` from `email`) and returns the answers.
async fn log_in_at_once(
    client: &AccountsClient,
    count: usize,
    email: impl Fn(usize) -> String,
    password: &str,
) -> Vec<Result<(), tonic::Status>> {
    let mut calls = JoinSet::new();
    for n in 0..count {
        let mut client = client.clone();
        let email = email(n);
        let password = password.to_owned();
        calls.spawn(async move { log_in(&mut client, &email, &password).await });
    }
    calls.join_all().await
}

/// How many answers carry each code and reason (an `Ok` counts as "OK").
fn tally(answers: &[Result<(), tonic::Status>]) -> BTreeMap<String, usize> {
    let mut counts = BTreeMap::new();
    for answer in answers {
        let key = match answer {
            Ok(()) => "OK".to_owned(),
            Err(status) => format!("{:?} {}", status.code(), reason(status)),
        };
        *counts.entry(key).or_default() += 1;
    }
    counts
}

fn counted(counts: &BTreeMap<String, usize>, key: &str) -> usize {
    counts.get(key).copied().unwrap_or(0)
}

/// The keys of the limits' counters (in Postgres).
async fn counter_keys(server: &TestServer) -> Vec<String> {
    sqlx::query_scalar("select key from limit_counters order by key")
        .fetch_all(&server.server.state.db)
        .await
        .unwrap()
}

/// The cache keys under this server's prefix.
async fn cache_keys(server: &TestServer) -> Vec<String> {
    let client = redis::Client::open(helpers::test_redis_url()).unwrap();
    let mut conn = client.get_multiplexed_async_connection().await.unwrap();
    let pattern = format!("{}*", server.server.state.config.cache_prefix);
    redis::cmd("KEYS")
        .arg(pattern)
        .query_async(&mut conn)
        .await
        .unwrap()
}

#[tokio::test]
async fn password_checks_beyond_the_workers_and_queue_are_refused_not_piled_up() {
    let server = TestServer::start_with(|config| {
        config.hashing_concurrency = 1;
        config.hashing_queue = 1;
    })
    .await;
    let client = AccountsClient::new(server.channel().await);

    let answers = log_in_at_once(
        &client,
        16,
        |n| format!("nobody{n}@example.ca"),
        "wrong horse",
    )
    .await;
    let counts = tally(&answers);
    let busy = counted(&counts, "ResourceExhausted PASSWORD_CHECKS_BUSY");
    let checked = counted(&counts, "Unauthenticated INVALID_CREDENTIALS");
    assert!(
        busy >= 1,
        "one worker and one place cannot take 16 at once: {counts:?}"
    );
    assert_eq!(busy + checked, 16, "no other answer: {counts:?}");
    let refusal = answers.iter().find_map(|a| a.as_ref().err()).unwrap();
    assert!(!refusal.message().is_empty());

    // Once the burst is over, sign-ins are checked again.
    let mut client = client;
    let later = log_in(&mut client, "nobody@example.ca", "wrong horse")
        .await
        .unwrap_err();
    assert_eq!(reason(&later), "INVALID_CREDENTIALS");
    server.stop().await;
}

#[tokio::test]
async fn sign_in_emails_are_parsed_first_and_counted_under_a_hash() {
    let server = TestServer::start().await;
    let mut client = AccountsClient::new(server.channel().await);

    let long = format!("{}@example.ca", "a".repeat(300));
    for email in [long.as_str(), "not an email"] {
        let refused = log_in(&mut client, email, "wrong horse").await.unwrap_err();
        assert_eq!(refused.code(), Code::InvalidArgument, "{email:.20}");
        assert_eq!(violated_fields(&refused), ["email"]);
    }
    assert!(
        counter_keys(&server).await.is_empty() && cache_keys(&server).await.is_empty(),
        "a refused email leaves nothing counted"
    );

    let failed = log_in(&mut client, "Ana.Lopez@Example.ca", "wrong horse")
        .await
        .unwrap_err();
    assert_eq!(reason(&failed), "INVALID_CREDENTIALS");
    let keys = counter_keys(&server).await;
    assert_eq!(keys.len(), 1, "{keys:?}");
    assert!(!keys[0].to_lowercase().contains("ana"), "{keys:?}");
    // The count is per address whatever its case: the same key counts both.
    log_in(&mut client, "ana.lopez@example.CA", "wrong horse")
        .await
        .unwrap_err();
    assert_eq!(counter_keys(&server).await, keys);
    server.stop().await;
}

#[tokio::test]
async fn every_request_is_bounded_in_size_and_every_text_in_length() {
    let server = TestServer::start().await;
    let mut client = AccountsClient::new(server.channel().await);

    // A 1 MiB email is refused before any handler reads it, and leaves nothing behind.
    let huge = format!("{}@example.ca", "a".repeat(1024 * 1024));
    let refused = log_in(&mut client, &huge, "wrong horse").await.unwrap_err();
    assert_eq!(
        (refused.code(), reason(&refused).as_str()),
        (Code::ResourceExhausted, "REQUEST_TOO_LARGE")
    );
    assert!(
        refused.message().contains("64 KiB"),
        "{}",
        refused.message()
    );
    // A text one character over the contract's bound (`buf.validate` on LogInRequest) in a
    // request of ordinary size: a field violation saying the bound, and no hash, no count.
    let max = repairs_proto::limits::log_in::PASSWORD_MAX_LEN;
    let refused = log_in(&mut client, "ana@example.ca", &"p".repeat(max + 1))
        .await
        .unwrap_err();
    assert_eq!(
        (refused.code(), reason(&refused).as_str()),
        (Code::InvalidArgument, "INVALID_ARGUMENT")
    );
    assert_eq!(violated_fields(&refused), ["password"]);
    assert!(
        refused.get_details_bad_request().unwrap().field_violations[0]
            .description
            .contains(&format!("at most {max} characters")),
        "{refused:?}"
    );
    assert!(counter_keys(&server).await.is_empty());
    // At the bound, the limits let it through: the handler checks it, a wrong password.
    let refused = log_in(&mut client, "ana@example.ca", &"p".repeat(max))
        .await
        .unwrap_err();
    assert_eq!(reason(&refused), "INVALID_CREDENTIALS", "{refused:?}");
    server.stop().await;
}

#[tokio::test]
async fn concurrent_guesses_on_one_account_check_at_most_the_limit() {
    // Room for every guess in the hashing queue: only the sign-in limit may refuse them.
    let server = TestServer::start_with(|config| config.hashing_queue = 100).await;
    let mut client = AccountsClient::new(server.channel().await);
    sign_up(&mut client, "ana@example.ca").await;

    let answers = log_in_at_once(&client, 60, |_| "ana@example.ca".to_owned(), "wrong horse").await;
    let counts = tally(&answers);
    let checked = counted(&counts, "Unauthenticated INVALID_CREDENTIALS");
    let throttled = counted(&counts, "ResourceExhausted LOG_IN_THROTTLED");
    assert_eq!(
        (checked, throttled),
        (10, 50),
        "ten guesses checked, the rest refused: {counts:?}"
    );
    server.stop().await;
}

#[tokio::test]
async fn with_the_database_gone_calls_fail_fast_as_unavailable() {
    let database = helpers::TestDatabase::create().await;
    let (relay, relayed_url) = helpers::relayed(&database.url).await;
    let data_dir = tempfile::tempdir().unwrap();
    let mut config = repairs_server::config::Config::for_tests(
        data_dir.path().to_path_buf(),
        relayed_url,
        Some(helpers::test_redis_url()),
    );
    config.database_acquire_timeout_ms = 500;
    let server = repairs_server::start(config).await.unwrap();
    let mut client = AccountsClient::new(helpers::channel_to(server.grpc_addr).await);
    sign_up(&mut client, "ana@example.ca").await;

    relay.cut();
    for _ in 0..3 {
        let started = Instant::now();
        let refused = log_in(&mut client, "ana@example.ca", "correct horse")
            .await
            .unwrap_err();
        assert_eq!(
            (refused.code(), reason(&refused).as_str()),
            (Code::Unavailable, "DATABASE_UNAVAILABLE"),
            "{refused:?}"
        );
        assert!(
            started.elapsed() < Duration::from_secs(3),
            "{:?}",
            started.elapsed()
        );
    }
    // Closing the pool waits on connections to a database that is gone: do not wait long.
    let _ = tokio::time::timeout(Duration::from_secs(1), server.stop()).await;
    database.drop_database().await;
}

#[tokio::test]
async fn a_quiet_server_keeps_its_minimum_of_connections_open() {
    let server = TestServer::start_with(|config| config.database_min_connections = 2).await;
    let pool = &server.server.state.db;
    assert_eq!(pool.options().get_min_connections(), 2);
    // Idle connections beyond the minimum are closed after 30 minutes, not the default 10,
    // and none is recycled within a day: their prepared statements stay.
    assert_eq!(
        pool.options().get_idle_timeout(),
        Some(Duration::from_secs(30 * 60))
    );
    assert_eq!(
        pool.options().get_max_lifetime(),
        Some(Duration::from_secs(24 * 3600))
    );
    let started = Instant::now();
    while pool.size() < 2 {
        assert!(
            started.elapsed() < Duration::from_secs(5),
            "the pool opened {} connections",
            pool.size()
        );
        tokio::time::sleep(Duration::from_millis(50)).await;
    }
    server.stop().await;
}

#[tokio::test]
async fn every_constraint_a_caller_can_break_exists_by_its_name() {
    let server = TestServer::start().await;
    for (name, ..) in repairs_server::error::CALLER_CONSTRAINTS {
        let found: Option<i32> =
            // A unique index (such as one on an expression) reports its own name too.
            sqlx::query_scalar(
                "select 1 from pg_constraint where conname = $1
                 union all select 1 from pg_class where relname = $1 and relkind = 'i'
                 limit 1",
            )
                .bind(name)
                .fetch_optional(&server.server.state.db)
                .await
                .unwrap();
        assert!(found.is_some(), "no constraint named {name}");
    }
    server.stop().await;
}

/// A Redis server of this test's own (nothing saved to disk), stopped by the test.
struct OwnRedis {
    child: tokio::process::Child,
    port: u16,
    url: String,
}

impl OwnRedis {
    /// On a free port of 127.0.0.1.
    async fn start() -> Self {
        Self::start_on(helpers::free_port()).await
    }

    /// On `port` (a restart: the port of a stopped one), answering within 2 s.
    async fn start_on(port: u16) -> Self {
        let child = tokio::process::Command::new("redis-server")
            .args(["--bind", "127.0.0.1", "--port", &port.to_string()])
            .args(["--save", "", "--appendonly", "no"])
            .stdout(Stdio::null())
            .kill_on_drop(true)
            .spawn()
            .expect("redis-server is installed");
        let url = format!("redis://127.0.0.1:{port}");
        for _ in 0..100 {
            if tokio::net::TcpStream::connect(("127.0.0.1", port))
                .await
                .is_ok()
            {
                return Self { child, port, url };
            }
            tokio::time::sleep(Duration::from_millis(20)).await;
        }
        panic!("redis-server did not start on port {port}");
    }

    /// Stops it and waits until it has exited.
    async fn stop(mut self) {
        self.child.kill().await.unwrap();
    }
}

/// Waits (up to 5 s) until the server's cache answers again.
async fn wait_for_cache(server: &TestServer) {
    let started = Instant::now();
    while server.server.state.cache.get("probe").await.is_err() {
        assert!(
            started.elapsed() < Duration::from_secs(5),
            "the cache did not come back"
        );
        tokio::time::sleep(Duration::from_millis(50)).await;
    }
}

#[tokio::test]
async fn with_redis_down_requests_are_placed_and_the_sign_in_limit_holds() {
    use crate::helpers::market::{customer, in_calgary, market, place};
    let redis = OwnRedis::start().await;
    let redis_url = redis.url.clone();
    let server = TestServer::start_with(|config| config.redis_url = Some(redis_url)).await;
    let mut client = AccountsClient::new(server.channel().await);
    let mut market = market(&server).await;
    let (_, customer) = customer(&server).await;
    sign_up(&mut client, "ana@example.ca").await;
    sign_up(&mut client, "bob@example.ca").await;
    // Some of the limit's tries while Redis is up, the rest while it is down.
    for _ in 0..4 {
        guess_wrong(&mut client, "bob@example.ca").await;
    }
    let port = redis.port;
    redis.stop().await;

    let started = Instant::now();
    place(&mut market, &customer, uuid::Uuid::now_v7(), in_calgary())
        .await
        .expect("a request is placed without Redis");
    log_in(&mut client, "ana@example.ca", "correct horse")
        .await
        .expect("sign-in works without Redis");
    for _ in 4..10 {
        guess_wrong(&mut client, "bob@example.ca").await;
    }
    let throttled = log_in(&mut client, "bob@example.ca", "correct horse")
        .await
        .unwrap_err();
    assert_eq!(reason(&throttled), "LOG_IN_THROTTLED", "{throttled:?}");
    assert!(
        started.elapsed() < Duration::from_secs(5),
        "{:?}",
        started.elapsed()
    );

    // Redis comes back empty: the tries counted before and during the outage still hold.
    let redis = OwnRedis::start_on(port).await;
    wait_for_cache(&server).await;
    let throttled = log_in(&mut client, "bob@example.ca", "correct horse")
        .await
        .unwrap_err();
    assert_eq!(reason(&throttled), "LOG_IN_THROTTLED", "{throttled:?}");
    place(&mut market, &customer, uuid::Uuid::now_v7(), in_calgary())
        .await
        .expect("a request is placed once Redis is back");
    server.stop().await;
    redis.stop().await;
}

#[tokio::test]
async fn a_data_dir_postgres_cannot_reach_says_what_to_do() {
    use std::os::unix::fs::PermissionsExt;
    let outer = tempfile::tempdir().unwrap();
    let closed = outer.path().join("closed");
    std::fs::create_dir(&closed).unwrap();
    // As root the cluster runs as `postgres`, which a 0700 folder of root's keeps out; any
    // other user is kept out of a folder with no permissions at all.
    let root = std::process::Command::new("id")
        .arg("-u")
        .output()
        .map(|out| String::from_utf8_lossy(&out.stdout).trim() == "0")
        .unwrap();
    let mode = if root { 0o700 } else { 0o000 };
    std::fs::set_permissions(&closed, std::fs::Permissions::from_mode(mode)).unwrap();

    let error = repairs_server::store::EmbeddedPostgres::start(&closed.join("data"), None)
        .await
        .unwrap_err();
    let message = format!("{error:#}");
    std::fs::set_permissions(&closed, std::fs::Permissions::from_mode(0o700)).unwrap();
    assert!(message.contains("cannot enter"), "{message}");
    assert!(message.contains(&closed.display().to_string()), "{message}");
    assert!(message.contains("DATA_DIR"), "{message}");
    assert!(!message.contains("initdb failed"), "{message}");
}

/// A budget of `limit` an hour under a key of its own.
fn budget(limit: i64) -> Budget {
    Budget::hourly(
        format!("test:{}", uuid::Uuid::now_v7()),
        limit,
        // Budgets take a reason of the contract; any hourly one will do.
        ErrorReason::RepairRequestLimit,
        "this test's budget is spent",
    )
}

/// What is counted under `key` now.
async fn counted_under(server: &TestServer, key: &str) -> i64 {
    sqlx::query_scalar("select coalesce(sum(n), 0)::bigint from limit_counters where key = $1")
        .bind(key)
        .fetch_one(&server.server.state.db)
        .await
        .unwrap()
}

#[tokio::test]
async fn what_a_call_spent_is_given_back_unless_it_succeeded() {
    let server = TestServer::start().await;
    let budgets = &server.server.state.budgets;
    let two = budget(2);

    // A call that failed gives back what it spent before its caller hears of the failure.
    let spent = budgets.spend(std::slice::from_ref(&two), 1).await.unwrap();
    assert_eq!(counted_under(&server, &two.key).await, 1);
    let failed: Result<(), &str> = spent.settle(Err("the call failed")).await;
    assert!(failed.is_err());
    assert_eq!(counted_under(&server, &two.key).await, 0);

    // One that succeeded keeps it.
    let spent = budgets.spend(std::slice::from_ref(&two), 1).await.unwrap();
    spent.settle(Ok::<_, ()>(())).await.unwrap();
    assert_eq!(counted_under(&server, &two.key).await, 1);

    // One dropped unsettled (a call cancelled half-way) gives it back in the background.
    drop(budgets.spend(std::slice::from_ref(&two), 1).await.unwrap());
    let started = Instant::now();
    while counted_under(&server, &two.key).await != 1 {
        assert!(started.elapsed() < Duration::from_secs(2), "not given back");
        tokio::time::sleep(Duration::from_millis(20)).await;
    }

    // A refusal costs nothing: neither the spent budget nor one counted before it.
    budgets
        .spend(std::slice::from_ref(&two), 1)
        .await
        .unwrap()
        .keep();
    let five = budget(5);
    let refused = budgets
        .spend(&[five.clone(), two.clone()], 1)
        .await
        .err()
        .unwrap();
    assert!(
        matches!(
            refused,
            ApiError::ResourceExhausted {
                reason: ErrorReason::RepairRequestLimit,
                ..
            }
        ),
        "{refused:?}"
    );
    assert_eq!(counted_under(&server, &two.key).await, 2);
    assert_eq!(counted_under(&server, &five.key).await, 0);
    server.stop().await;
}

#[tokio::test]
async fn a_window_ends_on_time_and_its_spending_is_not_taken_from_the_next() {
    let server = TestServer::start().await;
    let budgets = &server.server.state.budgets;
    let short = Budget {
        window: Duration::from_millis(300),
        ..budget(1)
    };
    let first = budgets
        .spend(std::slice::from_ref(&short), 1)
        .await
        .unwrap();
    assert!(
        budgets
            .spend(std::slice::from_ref(&short), 1)
            .await
            .is_err()
    );
    let started = Instant::now();
    let next = loop {
        if let Ok(next) = budgets.spend(std::slice::from_ref(&short), 1).await {
            break next;
        }
        assert!(
            started.elapsed() < Duration::from_secs(2),
            "the window did not end"
        );
        tokio::time::sleep(Duration::from_millis(20)).await;
    };
    next.keep();
    first.give_back().await;
    assert_eq!(counted_under(&server, &short.key).await, 1);
    server.stop().await;
}

#[tokio::test]
async fn housekeeping_deletes_the_counters_of_ended_windows() {
    let server = TestServer::start().await;
    let db = &server.server.state.db;
    let live = budget(5);
    server
        .server
        .state
        .budgets
        .spend(std::slice::from_ref(&live), 1)
        .await
        .unwrap()
        .keep();
    sqlx::query(
        "insert into limit_counters (key, n, expires_at) values ('ended', 3, now() - interval '1 second')",
    )
    .execute(db)
    .await
    .unwrap();
    // The server's own first pass may run meanwhile and delete it first: what is left tells.
    repairs_server::housekeeping::purge(db).await.unwrap();
    assert_eq!(counter_keys(&server).await, [live.key]);
    server.stop().await;
}
