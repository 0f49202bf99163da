//! The migrated template every test database is copied from. Running the migrations takes
//! about a second per database, and the integration tests make several hundred of them;
//! `create database … template` copies an already migrated one in a tenth of that. One
//! template per set of migrations (named by their checksums), built once per test Postgres
//! by whichever test gets there first, under an advisory lock.

use std::hash::{Hash, Hasher};
use std::time::Duration;

use sqlx::{Connection, PgConnection};

use crate::store::MIGRATOR;

/// Marks a template whose migrations all ran: one left half built by a killed run is rebuilt.
const MIGRATED: &str = "migrated";

/// Serialises the template's building between test processes (any fixed key).
const BUILD_LOCK: i64 = 0x7465_6d70_6c61_7465;

/// The template for this build's migrations, built first if the test Postgres lacks it.
pub(super) async fn migrated_template(admin: &mut PgConnection, admin_url: &str) -> String {
    let name = template_name();
    sqlx::query("select pg_advisory_lock($1)")
        .bind(BUILD_LOCK)
        .execute(&mut *admin)
        .await
        .expect("lock the template's building");
    let comment: Option<Option<String>> = sqlx::query_scalar(
        "select shobj_description(oid, 'pg_database') from pg_database where datname = $1",
    )
    .bind(&name)
    .fetch_optional(&mut *admin)
    .await
    .expect("look for the template");
    if comment.flatten().as_deref() != Some(MIGRATED) {
        build(admin, admin_url, &name).await;
    }
    sqlx::query("select pg_advisory_unlock($1)")
        .bind(BUILD_LOCK)
        .execute(&mut *admin)
        .await
        .expect("unlock the template's building");
    name
}

/// `create database {name} template {template}`, retried while the template's last
/// connection (the migration's) is still closing on the server's side.
pub(super) async fn copy_template(admin: &mut PgConnection, template: &str, name: &str) {
    let statement = format!("create database {name} template {template}");
    for attempt in 0.. {
        match sqlx::query(sqlx::AssertSqlSafe(statement.clone()))
            .execute(&mut *admin)
            .await
        {
            Ok(_) => return,
            Err(error) if attempt < 50 && is_template_busy(&error) => {
                tokio::time::sleep(Duration::from_millis(20)).await;
            }
            Err(error) => panic!("create test database from {template}: {error}"),
        }
    }
}

async fn build(admin: &mut PgConnection, admin_url: &str, name: &str) {
    for statement in [
        format!("drop database if exists {name} with (force)"),
        format!("create database {name}"),
    ] {
        sqlx::query(sqlx::AssertSqlSafe(statement))
            .execute(&mut *admin)
            .await
            .expect("create the template");
    }
    let mut template = PgConnection::connect(&replace_database(admin_url, name))
        .await
        .expect("connect to the template");
    MIGRATOR
        .run(&mut template)
        .await
        .expect("migrate the template");
    template.close().await.expect("close the template");
    sqlx::query(sqlx::AssertSqlSafe(format!(
        "comment on database {name} is '{MIGRATED}'"
    )))
    .execute(&mut *admin)
    .await
    .expect("mark the template migrated");
}

/// `test_template_` and a hash of every migration's version and checksum.
fn template_name() -> String {
    let mut hasher = std::collections::hash_map::DefaultHasher::new();
    for migration in MIGRATOR.iter() {
        migration.version.hash(&mut hasher);
        migration.checksum.hash(&mut hasher);
    }
    format!("test_template_{:016x}", hasher.finish())
}

/// Postgres's "source database is being accessed by other users" (SQLSTATE 55006).
fn is_template_busy(error: &sqlx::Error) -> bool {
    error
        .as_database_error()
        .and_then(|e| e.code())
        .is_some_and(|code| code == "55006")
}

/// `url` naming `database` instead of its own.
pub(super) fn replace_database(url: &str, database: &str) -> String {
    let (base, query) = url
        .split_once('?')
        .map_or((url, None), |(b, q)| (b, Some(q)));
    let base = base.rsplit_once('/').map_or(base, |(head, _)| head);
    match query {
        Some(q) => format!("{base}/{database}?{q}"),
        None => format!("{base}/{database}"),
    }
}
