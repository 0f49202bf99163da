//! The matching rule at scale: 200 000 open requests and 100 000 professionals spread over
//! Canada by population (at full postal codes' points drawn evenly, or with
//! `BENCH_PLACES=areas` by postal area, weighted by its number of codes), with realistic radii, services, days and hours, 5 % of them paused and 5 % on call
//! (`SetProfessionalAvailability`). Prints p50/p99 of
//! (a) a professional's first page of open requests and (b) choosing whom to notify of a
//! new request (the nearest 200, `REPAIR_REQUEST_MAX_NOTIFIED`'s default, in every variant),
//! for the design the server uses (`cube` + `earthdistance`: GiST on open requests' points
//! read nearest first, and on eligible professionals' reach per service they offer, read
//! nearest first), for two alternatives of the fan-out (one reach per professional; a 500 km box
//! around the request over professionals' home points), and for the same queries on PostGIS
//! (`ST_DWithin` on geography with GiST) on the same data, and one `EXPLAIN (ANALYZE,
//! BUFFERS)` of each. Then (c) the fan-out as the server runs it, soonest by road: the
//! nearest 400 by the rule, weighed by drive time (`matching::soonest_by_road`, one table
//! look-up per hundred, nothing cached) from the local road router answering in 5 ms, with
//! the router down (the straight-line estimate after the refused look-ups), and with the
//! embedded default (straight line, no outside call). Asserts nothing.
//!
//! Run: `cargo bench -p repairs-server --bench matching` (no services needed: it starts a
//! throwaway Postgres cluster of its own in a temporary folder, from the Postgres binaries on
//! the machine, and stops it at the end). PostGIS is Debian's `postgresql-15-postgis-3`,
//! installed here with apt-get when missing (as root); without it, only the earthdistance
//! figures are printed.

#![allow(
    clippy::unwrap_used,
    clippy::expect_used,
    reason = "a benchmark: failures should panic"
)]

mod figures;
mod market;

use market::{
    MAX_NOTIFIED, POSTGIS_CONTROL, PROFESSIONALS, Places, REQUESTS, SAMPLES, WARM_UP, bench_now,
    load_customers, load_professionals, load_requests,
};

use std::{
    os::unix::fs::PermissionsExt,
    path::Path,
    process::Command,
    time::{Duration, Instant},
};

use chrono::{DateTime, Utc};
use futures::FutureExt;
use rand::{SeedableRng, rngs::StdRng};
use repairs_server::{
    config::Config,
    matching::{self, OpenRequestsPageRequest},
    store::{Database, match_rule as rule},
};
use sqlx::{PgPool, Row};
use uuid::Uuid;

/// One way of answering a query: the server's own rule, or SQL written here.
enum Query {
    /// `matching::open_requests_at`, first page.
    ListRule,
    /// `matching::professionals_to_notify_at`.
    NotifyRule,
    /// A list query ($1 professional, $2 now, $3 as of, $4-$6 no key, $7 limit).
    List(String),
    /// A fan-out query ($1 request, $2 now).
    Notify(String),
}

/// Runs `query` for `id`; answers how many rows it gave.
async fn run_once(db: &PgPool, query: &Query, id: Uuid) -> usize {
    let now = bench_now();
    let first_page = OpenRequestsPageRequest::parse(50, "").unwrap();
    match query {
        Query::ListRule => matching::open_requests_at(db, id, &first_page, now)
            .await
            .unwrap()
            .matches
            .len(),
        Query::NotifyRule => {
            let mut tx = db.begin().await.unwrap();
            let found = matching::professionals_to_notify_at(&mut tx, id, now, MAX_NOTIFIED)
                .await
                .unwrap();
            tx.rollback().await.unwrap();
            found.len()
        }
        Query::List(sql) => bind_list(sqlx::query(sqlx::AssertSqlSafe(sql.clone())), id)
            .fetch_all(db)
            .await
            .unwrap()
            .len(),
        Query::Notify(sql) => sqlx::query(sqlx::AssertSqlSafe(sql.clone()))
            .bind(id)
            .bind(now)
            .fetch_all(db)
            .await
            .unwrap()
            .len(),
    }
}

/// The parameters of a list query for professional `id`'s first page (50, and one more to
/// know whether another page follows, as the server asks).
fn bind_list(query: PgQuery<'_>, id: Uuid) -> PgQuery<'_> {
    query
        .bind(id)
        .bind(bench_now())
        .bind(bench_now())
        .bind(None::<f64>)
        .bind(None::<DateTime<Utc>>)
        .bind(None::<Uuid>)
        .bind(51_i64)
}

type PgQuery<'q> = sqlx::query::Query<'q, sqlx::Postgres, sqlx::postgres::PgArguments>;

/// Times every variant on every sample, taking turns sample by sample so that they all see
/// the same load on the machine; prints each one's figures and answers their p99s.
async fn compare(db: &PgPool, variants: &[(&str, Query)], samples: &[Uuid]) -> Vec<Duration> {
    let mut rows = vec![0_usize; variants.len()];
    for id in samples.iter().take(WARM_UP) {
        for (_, query) in variants {
            run_once(db, query, *id).await;
        }
    }
    let mut times = vec![Vec::with_capacity(samples.len()); variants.len()];
    for (n, id) in samples.iter().enumerate() {
        for k in 0..variants.len() {
            // A different variant goes first each time.
            let v = (n + k) % variants.len();
            let started = Instant::now();
            rows[v] += run_once(db, &variants[v].1, *id).await;
            times[v].push(started.elapsed());
        }
    }
    variants
        .iter()
        .zip(times)
        .zip(rows)
        .map(|(((label, _), times), rows)| {
            let p99 = figures::report(&format!("{label:58}"), times);
            println!(
                "{:60}{:.1} rows on average",
                "",
                rows as f64 / samples.len() as f64
            );
            p99
        })
        .collect()
}

/// The plan of `query` for `id`, run once.
async fn explain(db: &PgPool, label: &str, query_kind: &Query, id: Uuid) {
    let plan = |sql: &str| format!("explain (analyze, buffers, costs off) {sql}");
    let query = match query_kind {
        Query::ListRule => bind_list(
            sqlx::query(sqlx::AssertSqlSafe(plan(&rule::OPEN_REQUESTS))),
            id,
        ),
        Query::NotifyRule => sqlx::query(sqlx::AssertSqlSafe(plan(&rule::TO_NOTIFY)))
            .bind(id)
            .bind(bench_now())
            .bind(MAX_NOTIFIED as i64),
        Query::List(sql) => bind_list(sqlx::query(sqlx::AssertSqlSafe(plan(sql))), id),
        Query::Notify(sql) => sqlx::query(sqlx::AssertSqlSafe(plan(sql)))
            .bind(id)
            .bind(bench_now()),
    };
    println!("\n-- EXPLAIN (ANALYZE, BUFFERS): {label}");
    let mut tx = db.begin().await.unwrap();
    if matches!(query_kind, Query::ListRule | Query::NotifyRule) {
        // As `matching::open_requests_at` and `professionals_to_notify_at` run them.
        sqlx::query("set local enable_bitmapscan = off")
            .execute(&mut *tx)
            .await
            .unwrap();
    }
    let rows = query.fetch_all(&mut *tx).await.unwrap();
    tx.rollback().await.unwrap();
    for row in rows {
        println!("   {}", row.get::<String, _>(0));
    }
}

/// The fan-out with candidates from `candidates` (joining `p` to the request `r`) instead
/// of the per-service reach index; the rest of the rule as the server runs it.
fn notify_via(candidates: &str) -> String {
    format!(
        "select p.id, {distance} as meters
         from repair_requests r
         join professionals p on {candidates} and {radius}
         where r.id = $1 and {open} and {eligible} and {on_duty}
         order by meters, p.id
         limit {MAX_NOTIFIED}",
        distance = rule::distance_sql(),
        radius = rule::within_radius(),
        open = rule::OPEN_FOR_SERVICE,
        eligible = rule::eligible("$2"),
        on_duty = rule::on_duty_or_call("$2"),
    )
}

/// Alternatives to the per-service reach index, each with its own index (made here only).
const ALTERNATIVES: [(&str, &str, &str); 2] = [
    (
        "(b) whom to notify, earthdistance (reach of each professional)",
        "create index professionals_reach_idx on professionals
             using gist (professional_reach(home_latitude, home_longitude, radius_km))
             where state = 'approved' and phone_verified",
        "professional_reach(p.home_latitude, p.home_longitude, p.radius_km) @> r.point",
    ),
    (
        "(b) whom to notify, earthdistance (500 km box, home points)",
        "create index professionals_home_point_idx on professionals using gist (home_point)
             where state = 'approved' and phone_verified",
        "earth_box(r.point::earth, 500500 * (earth() / 6371008.8)) @> p.home_point",
    ),
];

/// The list on PostGIS: the same rule and the same shape (nearest first from the GiST
/// index, ties kept), `ST_DWithin` and `<->` on geography (sphere, the same radius).
fn postgis_list() -> String {
    format!(
        "select m.id, m.created_at, m.meters
         from professionals p
         cross join lateral (
             select r.id, r.created_at, st_distance(r.geog, p.home_geog, false) as meters,
                    r.geog <-> p.home_geog as rank
             from repair_requests r
             where {open}
               and st_dwithin(r.geog, p.home_geog, (p.radius_km + 0.5) * 1000, false)
               and r.created_at <= $3
               and ($4::float8 is null or r.geog <-> p.home_geog > $4
                    or (r.geog <-> p.home_geog = $4 and (r.created_at, r.id) < ($5, $6)))
             order by r.geog <-> p.home_geog
             fetch first $7 rows with ties
         ) m
         where p.id = $1 and {eligible}
         order by m.rank, m.created_at desc, m.id desc
         limit $7",
        open = rule::open_for_services_of("$1"),
        eligible = rule::eligible("$2"),
    )
}

/// The fan-out on PostGIS: the largest radius (500 km) finds candidates in the index, each
/// professional's own radius is checked row by row.
fn postgis_notify() -> String {
    format!(
        "select p.id, st_distance(p.home_geog, r.geog, false) as meters
         from repair_requests r
         join professionals p on st_dwithin(p.home_geog, r.geog, 500500, false)
             and st_distance(p.home_geog, r.geog, false) < (p.radius_km + 0.5) * 1000
         where r.id = $1 and {open} and {eligible} and {on_duty}
         order by meters, p.id
         limit {MAX_NOTIFIED}",
        open = rule::OPEN_FOR_SERVICE,
        eligible = rule::eligible("$2"),
        on_duty = rule::on_duty_or_call("$2"),
    )
}

/// PostGIS's extension files, installed with apt-get when missing. False when unavailable.
fn postgis_installed() -> bool {
    if Path::new(POSTGIS_CONTROL).exists() {
        return true;
    }
    println!("PostGIS is missing: installing postgresql-15-postgis-3 with apt-get ...");
    let apt = |args: &[&str]| {
        Command::new("apt-get")
            .args(args)
            .env("DEBIAN_FRONTEND", "noninteractive")
            .stdout(std::process::Stdio::null())
            .status()
            .is_ok_and(|s| s.success())
    };
    let package = [
        "install",
        "-y",
        "-q",
        "--no-install-recommends",
        "postgresql-15-postgis-3",
    ];
    // A package list that is too old to know the package: refresh it once and retry.
    let installed = apt(&package) || (apt(&["update", "-q"]) && apt(&package));
    if !installed {
        println!("PostGIS could not be installed here: only the earthdistance figures follow.");
        return false;
    }
    Path::new(POSTGIS_CONTROL).exists()
}

async fn add_postgis(db: &PgPool) -> bool {
    if !postgis_installed() {
        return false;
    }
    for statement in [
        "create extension if not exists postgis",
        "alter table professionals add column home_geog geography(point, 4326)",
        "update professionals
             set home_geog = st_setsrid(st_makepoint(home_longitude, home_latitude), 4326)",
        "create index professionals_home_geog_idx on professionals using gist (home_geog)
             where state = 'approved' and phone_verified",
        "alter table repair_requests add column geog geography(point, 4326)",
        "update repair_requests set geog = st_setsrid(st_makepoint(longitude, latitude), 4326)",
        "create index repair_requests_open_geog_idx on repair_requests using gist (geog)
             where state = 'open'",
    ] {
        sqlx::query(statement).execute(db).await.unwrap();
    }
    true
}

async fn run(db: &PgPool) {
    let mut rng = StdRng::seed_from_u64(7);
    let places = Places::from_env();
    let started = Instant::now();
    let customers = load_customers(db).await;
    load_professionals(db, &places, &mut rng).await;
    load_requests(db, &places, &customers, &mut rng).await;
    for (_, index, _) in ALTERNATIVES {
        sqlx::query(index).execute(db).await.unwrap();
    }
    // The fan-out index's flags as the housekeeping pass leaves them at the bench's instant.
    matching::refresh_eligibility(db, bench_now())
        .await
        .unwrap();
    let postgis = add_postgis(db).await;
    for table in ["professionals", "professional_services", "repair_requests"] {
        sqlx::query(sqlx::AssertSqlSafe(format!("vacuum analyze {table}")))
            .execute(db)
            .await
            .unwrap();
    }
    println!(
        "loaded {PROFESSIONALS} professionals and {REQUESTS} open requests, placed {}, in {:.1} s",
        places.describe(),
        started.elapsed().as_secs_f64()
    );

    let now = bench_now();
    // Who lists: professionals the membership gate lets through, as ListOpenRequests does.
    let listers: Vec<Uuid> = sqlx::query_scalar(sqlx::AssertSqlSafe(format!(
        "select p.id from professionals p where {} order by random() limit {SAMPLES}",
        rule::eligible("$1")
    )))
    .bind(now)
    .fetch_all(db)
    .await
    .unwrap();
    let requests: Vec<Uuid> = sqlx::query_scalar(sqlx::AssertSqlSafe(format!(
        "select id from repair_requests order by random() limit {SAMPLES}"
    )))
    .fetch_all(db)
    .await
    .unwrap();

    let mut lists = vec![(
        "(a) open requests, first page of 50, earthdistance",
        Query::ListRule,
    )];
    let mut fan_outs = vec![(
        "(b) whom to notify, earthdistance (eligible reach per service)",
        Query::NotifyRule,
    )];
    for (label, _, candidates) in ALTERNATIVES {
        fan_outs.push((label, Query::Notify(notify_via(candidates))));
    }
    if postgis {
        lists.push((
            "(a) open requests, first page of 50, PostGIS",
            Query::List(postgis_list()),
        ));
        fan_outs.push((
            "(b) whom to notify, PostGIS (500 km ST_DWithin)",
            Query::Notify(postgis_notify()),
        ));
    }
    println!();
    let list_p99 = compare(db, &lists, &listers).await;
    println!();
    let notify_p99 = compare(db, &fan_outs, &requests).await;
    for (label, query) in lists.iter().chain(&fan_outs) {
        let id = if matches!(query, Query::ListRule | Query::List(_)) {
            listers[0]
        } else {
            requests[0]
        };
        explain(db, label, query, id).await;
    }
    let ratio = |p99: &[Duration]| match p99 {
        [ours, .., theirs] if postgis => {
            format!("{:.2}x", ours.as_secs_f64() / theirs.as_secs_f64())
        }
        _ => "(no PostGIS)".to_owned(),
    };
    println!(
        "\np99 earthdistance / PostGIS: open requests {}, notify {} \
         (targets: p99 <= 10 ms and <= 20 ms, each within 1.2x)",
        ratio(&list_p99),
        ratio(&notify_p99)
    );
    by_road(db, &requests).await;
}

/// (c): the fan-out's choice soonest by road, for each way drives can be answered.
async fn by_road(db: &PgPool, requests: &[Uuid]) {
    use repairs_server::{
        cache::MemoryCache,
        providers::{
            distance::GreatCircle,
            osrm::{OsrmConfig, OsrmDistance},
        },
        testing::road_router::{RoadRouter, Roads},
    };
    use std::sync::Arc;
    let router = RoadRouter::start(Roads {
        river: None,
        delay: Duration::from_millis(5),
    })
    .await;
    let osrm = || Arc::new(OsrmDistance::new(OsrmConfig::new(router.url())).unwrap());
    // A fresh cache per call: every drive is asked of the router.
    let service = |provider: Arc<dyn repairs_server::providers::distance::DistanceProvider>| {
        matching::DistanceService::new(
            provider,
            Arc::new(MemoryCache::new("bench:")),
            8,
            Duration::from_secs(2),
        )
    };
    let points: Vec<(Uuid, repairs_server::domain::Coordinates)> = {
        let rows: Vec<(Uuid, f64, f64)> = sqlx::query_as(
            "select id, latitude, longitude from repair_requests where id = any($1)",
        )
        .bind(requests)
        .fetch_all(db)
        .await
        .unwrap();
        rows.into_iter()
            .map(|(id, latitude, longitude)| {
                (
                    id,
                    repairs_server::domain::Coordinates {
                        latitude,
                        longitude,
                    },
                )
            })
            .collect()
    };
    println!();
    for (label, down, local) in [
        (
            "(c) whom to notify soonest by road, router in 5 ms",
            false,
            false,
        ),
        (
            "(c) whom to notify soonest by road, router down",
            true,
            false,
        ),
        (
            "(c) whom to notify by the straight-line drive (default)",
            false,
            true,
        ),
    ] {
        router.set_down(down);
        let mut times = Vec::with_capacity(points.len());
        let mut told = 0;
        for (n, (id, at)) in points.iter().enumerate() {
            let distances = if local {
                service(Arc::new(GreatCircle))
            } else {
                service(osrm())
            };
            let started = Instant::now();
            let mut tx = db.begin().await.unwrap();
            let candidates = matching::professionals_to_notify_at(
                &mut tx,
                *id,
                bench_now(),
                MAX_NOTIFIED * matching::CANDIDATES_PER_ALERT,
            )
            .await
            .unwrap();
            let chosen = matching::soonest_by_road(&distances, *at, candidates, MAX_NOTIFIED).await;
            tx.rollback().await.unwrap();
            if n >= WARM_UP {
                times.push(started.elapsed());
                told += chosen.len();
            }
        }
        figures::report(&format!("{label:58}"), times);
        println!(
            "{:60}{:.1} told on average",
            "",
            told as f64 / (points.len() - WARM_UP).max(1) as f64
        );
    }
    router.stop().await;
}

#[tokio::main]
async fn main() {
    let folder = tempfile::tempdir().unwrap();
    // The cluster runs as the postgres user when we are root: it must reach the folder.
    std::fs::set_permissions(folder.path(), std::fs::Permissions::from_mode(0o755)).unwrap();
    let mut config = Config::for_tests(folder.path().to_path_buf(), String::new(), None);
    config.database_url = None;
    let database = Database::open(&config).await.unwrap();
    database.migrate().await.unwrap();
    let outcome = std::panic::AssertUnwindSafe(run(&database.pool))
        .catch_unwind()
        .await;
    database.close().await;
    if let Err(panic) = outcome {
        std::panic::resume_unwind(panic);
    }
}
