//! The database pool's check of its connections (`store::transaction::watch_pool`): one
//! that sat idle is pinged before it is handed out, so a connection cut off meanwhile is
//! replaced unseen; one in steady use is not, which saves a round trip to Postgres before
//! each query.

use std::time::Duration;

use sqlx::{PgPool, postgres::PgPoolOptions};

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
        let (alive,): (bool,) =
            sqlx::query_as("select exists (select 1 from pg_stat_activity where pid = $1)")
                .bind(pid)
                .fetch_one(admin)
                .await
                .unwrap();
        if !alive {
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
