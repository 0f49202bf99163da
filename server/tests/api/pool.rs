//! The database pool's check of its connections (`store::transaction::watch_pool`): one
//! that sat idle is pinged before it is handed out, so a connection cut off meanwhile is
//! replaced unseen; one in steady use is not, which saves a round trip to Postgres before
//! each query. The read connections beside the pool (`store::reads`), and the public
//! profiles read in batches on them (`store::batched`).

use std::time::Duration;

use repairs_server::{
    domain::Role,
    store::{
        professionals::{self, PublicViewer},
        reads::{Reads, ReadsOptions},
    },
};
use sqlx::{PgPool, postgres::PgPoolOptions};
use uuid::Uuid;

use crate::helpers;

/// A pool of one connection, pinged when it was idle at least `idle`.
async fn pool_pinging_after(idle: Duration) -> PgPool {
    repairs_server::store::transaction::watch_pool(PgPoolOptions::new().max_connections(1), idle)
        .connect(&helpers::test_database_url())
        .await
        .unwrap()
}

/// Ends the backend of the pool's connection, as a Postgres restart would, and waits until
/// it is gone.
async fn cut_off(pool: &PgPool, admin: &PgPool) {
    let (pid,): (i32,) = sqlx::query_as("select pg_backend_pid()")
        .fetch_one(pool)
        .await
        .unwrap();
    // The pool takes the connection back in a task of its own: wait until it is idle there.
    for _ in 0..100 {
        if pool.num_idle() == 1 {
            break;
        }
        tokio::time::sleep(Duration::from_millis(10)).await;
    }
    assert_eq!(pool.num_idle(), 1, "the connection is back in the pool");
    sqlx::query("select pg_terminate_backend($1)")
        .bind(pid)
        .execute(admin)
        .await
        .unwrap();
    for _ in 0..100 {
        if !alive(admin, pid).await {
            return;
        }
        tokio::time::sleep(Duration::from_millis(20)).await;
    }
    panic!("backend {pid} still runs");
}

#[tokio::test]
async fn an_idle_connection_is_checked_before_use_and_a_busy_one_is_not() {
    let admin = PgPool::connect(&helpers::test_database_url())
        .await
        .unwrap();

    // Idle past the threshold: the dead connection is noticed and replaced before the query.
    let idle = pool_pinging_after(Duration::ZERO).await;
    cut_off(&idle, &admin).await;
    let (one,): (i32,) = sqlx::query_as("select 1").fetch_one(&idle).await.unwrap();
    assert_eq!(one, 1);

    // In steady use (idle for less than the threshold): no ping before the query, so the
    // query is the one that finds the connection dead; the next one has a new connection.
    let busy = pool_pinging_after(Duration::from_secs(3600)).await;
    cut_off(&busy, &admin).await;
    assert!(sqlx::query("select 1").execute(&busy).await.is_err());
    let (one,): (i32,) = sqlx::query_as("select 1").fetch_one(&busy).await.unwrap();
    assert_eq!(one, 1);
}

/// Read connections (`store::reads`) to the test database, at most `max`, pinged when idle
/// at least `idle`.
async fn reads(max: u32, idle: Duration) -> (Reads, PgPool) {
    let pool = PgPool::connect(&helpers::test_database_url())
        .await
        .unwrap();
    (read_connections(&pool, max, idle), pool)
}

/// Read connections to the database of `pool`, at most `max`, pinged when idle at least `idle`.
fn read_connections(pool: &PgPool, max: u32, idle: Duration) -> Reads {
    Reads::new(
        pool,
        ReadsOptions {
            max_connections: max,
            acquire_timeout: Duration::from_millis(300),
            ping_when_idle_for: idle,
            max_lifetime: Duration::from_secs(3600),
        },
    )
}

async fn backend(reads: &Reads) -> sqlx::Result<i32> {
    reads
        .fetch_all(sqlx::query_as::<_, (i32,)>("select pg_backend_pid()"))
        .await
        .map(|rows| rows[0].0)
}

async fn alive(admin: &PgPool, pid: i32) -> bool {
    let (alive,): (bool,) =
        sqlx::query_as("select exists (select 1 from pg_stat_activity where pid = $1)")
            .bind(pid)
            .fetch_one(admin)
            .await
            .unwrap();
    alive
}

#[tokio::test]
async fn a_read_connection_is_back_as_its_statement_ends_with_no_round_trip() {
    let (reads, _admin) = reads(2, Duration::from_secs(3600)).await;
    let first = backend(&reads).await.unwrap();
    // Back at once: no task of its own, no ping before it is idle again.
    assert_eq!(reads.num_idle(), 1);
    assert_eq!(backend(&reads).await.unwrap(), first, "the same connection");
    assert_eq!(reads.num_idle(), 1);

    // An error of the statement itself: Postgres answered, the connection stays.
    let error = reads
        .fetch_all(sqlx::query_as::<_, (i32,)>("select 1 / 0"))
        .await
        .unwrap_err();
    assert!(matches!(error, sqlx::Error::Database(_)), "{error}");
    assert_eq!(backend(&reads).await.unwrap(), first);
    reads.close().await;
    assert!(matches!(
        backend(&reads).await,
        Err(sqlx::Error::PoolClosed)
    ));
}

#[tokio::test]
async fn a_read_cut_off_midway_closes_its_connection_and_the_next_read_gets_another() {
    let (reads, admin) = reads(1, Duration::from_secs(3600)).await;
    let first = backend(&reads).await.unwrap();
    let cut = tokio::time::timeout(
        Duration::from_millis(100),
        reads.fetch_all(sqlx::query_as::<_, (i32,)>("select 1 from pg_sleep(1)")),
    )
    .await;
    assert!(cut.is_err(), "the read was cut off");
    assert_eq!(reads.num_idle(), 0, "not kept");
    let second = backend(&reads).await.unwrap();
    assert_ne!(second, first);
    // Postgres notices the closed socket as it answers, after the sleep.
    for _ in 0..250 {
        if !alive(&admin, first).await {
            break;
        }
        tokio::time::sleep(Duration::from_millis(20)).await;
    }
    assert!(!alive(&admin, first).await, "the cut-off backend ended");
}

#[tokio::test]
async fn read_connections_are_bounded_and_an_idle_dead_one_is_replaced() {
    // Every connection in use: the next read waits the acquire timeout, then fails as the
    // pool's own wait does.
    let (reads_one, _) = reads(1, Duration::from_secs(3600)).await;
    let held = reads_one.acquire().await.unwrap();
    assert!(matches!(
        backend(&reads_one).await,
        Err(sqlx::Error::PoolTimedOut)
    ));
    drop(held);

    // Idle past the threshold: a connection cut off meanwhile is noticed and replaced.
    let (reads, admin) = reads(1, Duration::ZERO).await;
    let first = backend(&reads).await.unwrap();
    sqlx::query("select pg_terminate_backend($1)")
        .bind(first)
        .execute(&admin)
        .await
        .unwrap();
    while alive(&admin, first).await {
        tokio::time::sleep(Duration::from_millis(20)).await;
    }
    let second = backend(&reads).await.unwrap();
    assert_ne!(second, first);
}

#[tokio::test]
async fn public_profiles_asked_for_at_once_share_statements_and_each_gets_its_own() {
    let server = helpers::TestServer::start().await;
    let db = helpers::market::db(&server);
    let mut ids = Vec::new();
    for _ in 0..3 {
        ids.push(server.account_token(Role::Professional).await.0);
    }
    let (approved, other_approved, pending) = (ids[0], ids[1], ids[2]);
    sqlx::query("update professionals set state = 'approved' where id = any($1)")
        .bind([approved, other_approved])
        .execute(db)
        .await
        .unwrap();
    let reads = read_connections(db, 1, Duration::from_secs(3600));
    let profiles = professionals::public_profiles(reads, 1);

    // The test's runtime has one thread: all 100 are queued before the first statement
    // runs, which answers 64 (the most one asks for), and the next the other 36.
    let asked: Vec<Uuid> = (0..100).map(|i| ids[i % ids.len()]).collect();
    let answers = futures::future::join_all(asked.iter().map(|&id| profiles.get(id))).await;
    assert_eq!(profiles.statements_run(), 2);
    for (id, answer) in asked.iter().zip(answers) {
        let profile = answer.unwrap().expect("every id has its row");
        assert_eq!(profile.id, *id);
        assert_eq!(profile.approved, *id != pending);
    }
    // Alone, a read goes at once, in a statement of its own.
    assert!(profiles.get(Uuid::now_v7()).await.unwrap().is_none());
    assert_eq!(profiles.statements_run(), 3);

    // Who sees a profile not yet approved: its professional and admins.
    let sees = |viewer| {
        let profiles = profiles.clone();
        async move {
            professionals::get_public(&profiles, pending, viewer)
                .await
                .unwrap()
                .is_some()
        }
    };
    assert!(!sees(PublicViewer::Anyone).await);
    assert!(!sees(PublicViewer::Professional(approved)).await);
    assert!(sees(PublicViewer::Professional(pending)).await);
    assert!(sees(PublicViewer::Admin).await);
    server.stop().await;
}

#[tokio::test]
async fn a_batch_that_fails_fails_each_of_its_reads_as_the_database_being_unavailable() {
    let server = helpers::TestServer::start().await;
    let reads = read_connections(helpers::market::db(&server), 1, Duration::from_secs(3600));
    let profiles = professionals::public_profiles(reads.clone(), 1);
    // The only read connection is taken: the batch waits its acquire timeout, then fails.
    let held = reads.acquire().await.unwrap();
    let answers = futures::future::join_all((0..3).map(|_| profiles.get(Uuid::now_v7()))).await;
    for answer in answers {
        let error = answer.unwrap_err();
        let status = tonic::Status::from(repairs_server::error::ApiError::from(error));
        assert_eq!(status.code(), tonic::Code::Unavailable);
    }
    drop(held);
    // And the next batch runs.
    assert!(profiles.get(Uuid::now_v7()).await.unwrap().is_none());
    server.stop().await;
}
