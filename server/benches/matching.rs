//! The matching rule at scale: 200 000 open requests and 100 000 professionals spread over
//! Canada by population (postal areas of the gazetteer, weighted by their number of postal
//! codes), with realistic radii, services, days and hours. Prints p50/p99 of
//! (a) a professional's first page of open requests and (b) choosing whom to notify of a
//! new request (the nearest 200, `REPAIR_REQUEST_MAX_NOTIFIED`'s default, in every variant),
//! for the design the server uses (`cube` + `earthdistance`: GiST on open requests' points
//! read nearest first, and on eligible professionals' reach per service they offer, read
//! nearest first), for two alternatives of the fan-out (one reach per professional; a 500 km box
//! around the request over professionals' home points), and for the same queries on PostGIS
//! (`ST_DWithin` on geography with GiST) on the same data, and one `EXPLAIN (ANALYZE,
//! BUFFERS)` of each. Asserts nothing.
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

use std::{
    os::unix::fs::PermissionsExt,
    path::Path,
    process::Command,
    time::{Duration, Instant},
};

use chrono::{DateTime, TimeZone, Utc};
use futures::FutureExt;
use rand::{Rng, SeedableRng, rngs::StdRng};
use repairs_server::{
    config::Config,
    matching::{self, OpenRequestsPageRequest, rule},
    store::Database,
};
use sqlx::{PgPool, Row};
use uuid::Uuid;

const REQUESTS: usize = 200_000;
const PROFESSIONALS: usize = 100_000;
const CUSTOMERS: usize = 2_000;
const SAMPLES: usize = 400;
/// `REPAIR_REQUEST_MAX_NOTIFIED`'s default.
const MAX_NOTIFIED: usize = 200;
const WARM_UP: usize = 20;
const BATCH: usize = 10_000;
const SERVICES: [&str; 8] = [
    "0190a6c0-0000-7000-8000-000000000001",
    "0190a6c0-0000-7000-8000-000000000002",
    "0190a6c0-0000-7000-8000-000000000003",
    "0190a6c0-0000-7000-8000-000000000004",
    "0190a6c0-0000-7000-8000-000000000005",
    "0190a6c0-0000-7000-8000-000000000006",
    "0190a6c0-0000-7000-8000-000000000007",
    "0190a6c0-0000-7000-8000-000000000008",
];
const POSTGIS_CONTROL: &str = "/usr/share/postgresql/15/extension/postgis.control";

/// Monday 23 November 2026, 17:00 UTC: a working morning from Newfoundland to BC.
fn bench_now() -> DateTime<Utc> {
    Utc.with_ymd_and_hms(2026, 11, 23, 17, 0, 0).unwrap()
}

struct Area {
    latitude: f64,
    longitude: f64,
    time_zone: String,
    /// Cumulative weight up to and including this area.
    cumulative: f64,
}

/// Postal areas weighted by how many postal codes they hold (where people live).
fn areas() -> Vec<Area> {
    let path = Path::new(env!("CARGO_MANIFEST_DIR")).join("data/geo/ca-fsa.csv");
    let mut reader = csv::Reader::from_path(path).unwrap();
    let headers = reader.headers().unwrap().clone();
    let column = |name: &str| headers.iter().position(|h| h == name).unwrap();
    let (lat, lon, codes, zone) = (
        column("lat"),
        column("lon"),
        column("n_full_codes"),
        column("timezone"),
    );
    let mut total = 0.0;
    reader
        .records()
        .map(|record| {
            let record = record.unwrap();
            total += record[codes].parse::<f64>().unwrap().max(1.0);
            Area {
                latitude: record[lat].parse().unwrap(),
                longitude: record[lon].parse().unwrap(),
                time_zone: record[zone].to_owned(),
                cumulative: total,
            }
        })
        .collect()
}

/// A point near a populated place: an area by weight, moved by up to about 3 km.
fn somewhere<'a>(areas: &'a [Area], rng: &mut StdRng) -> (f64, f64, &'a str) {
    let total = areas.last().unwrap().cumulative;
    let pick = rng.gen_range(0.0..total);
    let index = areas.partition_point(|a| a.cumulative <= pick);
    let area = &areas[index.min(areas.len() - 1)];
    (
        area.latitude + rng.gen_range(-0.03..0.03),
        area.longitude + rng.gen_range(-0.04..0.04),
        &area.time_zone,
    )
}

fn pick<T: Copy>(rng: &mut StdRng, weighted: &[(u32, T)]) -> T {
    let total: u32 = weighted.iter().map(|(w, _)| w).sum();
    let mut roll = rng.gen_range(0..total);
    for (weight, value) in weighted {
        if roll < *weight {
            return *value;
        }
        roll -= weight;
    }
    weighted[weighted.len() - 1].1
}

async fn load_customers(db: &PgPool) -> Vec<Uuid> {
    let ids: Vec<Uuid> = (0..CUSTOMERS).map(|_| Uuid::now_v7()).collect();
    let emails: Vec<String> = ids.iter().map(|id| format!("{id}@example.ca")).collect();
    sqlx::query(
        "insert into customers (id, name, email)
         select id, 'Customer', email from unnest($1::uuid[], $2::text[]) as t(id, email)",
    )
    .bind(&ids)
    .bind(&emails)
    .execute(db)
    .await
    .unwrap();
    ids
}

#[derive(Default)]
struct ProfessionalBatch {
    ids: Vec<Uuid>,
    emails: Vec<String>,
    verified: Vec<bool>,
    states: Vec<&'static str>,
    latitudes: Vec<f64>,
    longitudes: Vec<f64>,
    zones: Vec<String>,
    day_masks: Vec<i32>,
    from: Vec<&'static str>,
    to: Vec<&'static str>,
    radii: Vec<i32>,
    member_days: Vec<Option<i32>>,
    service_pros: Vec<Uuid>,
    service_ids: Vec<Uuid>,
}

impl ProfessionalBatch {
    fn add(&mut self, areas: &[Area], rng: &mut StdRng) {
        let id = Uuid::now_v7();
        let (latitude, longitude, zone) = somewhere(areas, rng);
        self.ids.push(id);
        self.emails.push(format!("{id}@example.ca"));
        self.verified.push(rng.gen_bool(0.95));
        self.states.push(pick(
            rng,
            &[
                (85, "approved"),
                (10, "waiting_for_approval"),
                (5, "profile_updated"),
            ],
        ));
        self.latitudes.push(latitude);
        self.longitudes.push(longitude);
        self.zones.push(zone.to_owned());
        let days = pick(rng, &[(60, 0b001_1111), (30, 0b111_1111), (10, -1)]);
        self.day_masks.push(if days < 0 {
            rng.gen_range(1..128)
        } else {
            days
        });
        let (from, to) = pick(
            rng,
            &[
                (60, ("08:00", "18:00")),
                (25, ("00:00", "23:59")),
                (15, ("22:00", "06:00")),
            ],
        );
        self.from.push(from);
        self.to.push(to);
        self.radii.push(pick(
            rng,
            &[(10, 10), (20, 25), (35, 50), (20, 100), (10, 200), (5, 500)],
        ));
        let paid_days = rng.gen_range(1..30);
        self.member_days.push(pick(
            rng,
            &[(75, Some(paid_days)), (15, Some(-5)), (10, None)],
        ));
        let offered = rng.gen_range(1..=3);
        let mut chosen: Vec<usize> = Vec::new();
        while chosen.len() < offered {
            let s = rng.gen_range(0..SERVICES.len());
            if !chosen.contains(&s) {
                chosen.push(s);
            }
        }
        for s in chosen {
            self.service_pros.push(id);
            self.service_ids.push(Uuid::parse_str(SERVICES[s]).unwrap());
        }
    }

    async fn insert(&self, db: &PgPool, now: DateTime<Utc>) {
        sqlx::query(
            "insert into professionals (id, name, email, phone, phone_verified, sms_updates,
                 state, home_latitude, home_longitude, time_zone, available_days,
                 available_from, available_to, radius_km, membership_expires_at,
                 profile_saved_at)
             select id, 'Professional', email, '+15875550100', verified, 'yes', state, lat, lng,
                 zone,
                 array(select d::smallint from generate_series(1, 7) d
                       where mask & (1 << (d - 1)) <> 0),
                 from_::time, to_::time, radius, $13 + make_interval(days => member_days), $13
             from unnest($1::uuid[], $2::text[], $3::bool[], $4::text[], $5::float8[],
                         $6::float8[], $7::text[], $8::int[], $9::text[], $10::text[],
                         $11::int[], $12::int[])
                 as t(id, email, verified, state, lat, lng, zone, mask, from_, to_, radius,
                      member_days)",
        )
        .bind(&self.ids)
        .bind(&self.emails)
        .bind(&self.verified)
        .bind(&self.states)
        .bind(&self.latitudes)
        .bind(&self.longitudes)
        .bind(&self.zones)
        .bind(&self.day_masks)
        .bind(&self.from)
        .bind(&self.to)
        .bind(&self.radii)
        .bind(&self.member_days)
        .bind(now)
        .execute(db)
        .await
        .unwrap();
        sqlx::query(
            "insert into professional_services (professional_id, service_id)
             select * from unnest($1::uuid[], $2::uuid[])",
        )
        .bind(&self.service_pros)
        .bind(&self.service_ids)
        .execute(db)
        .await
        .unwrap();
    }
}

async fn load_professionals(db: &PgPool, areas: &[Area], rng: &mut StdRng) {
    for _ in 0..PROFESSIONALS / BATCH {
        let mut batch = ProfessionalBatch::default();
        for _ in 0..BATCH {
            batch.add(areas, rng);
        }
        batch.insert(db, bench_now()).await;
    }
}

async fn load_requests(db: &PgPool, areas: &[Area], customers: &[Uuid], rng: &mut StdRng) {
    for _ in 0..REQUESTS / BATCH {
        let (mut ids, mut owners, mut services, mut lats, mut lngs, mut ages) =
            (vec![], vec![], vec![], vec![], vec![], vec![]);
        for _ in 0..BATCH {
            let (latitude, longitude, _) = somewhere(areas, rng);
            ids.push(Uuid::now_v7());
            owners.push(customers[rng.gen_range(0..customers.len())]);
            services.push(Uuid::parse_str(SERVICES[rng.gen_range(0..SERVICES.len())]).unwrap());
            lats.push(latitude);
            lngs.push(longitude);
            ages.push(rng.gen_range(0..72 * 60));
        }
        sqlx::query(
            "insert into repair_requests (id, customer_id, request_id, request_hash, service_id,
                 urgency, description, line1, city, province, postal_code, latitude, longitude,
                 placed_by, expires_at, created_at)
             select id, owner, id, sha256(id::text::bytea), service, 'immediate',
                 'Water everywhere', '1 Main St', 'Somewhere', 'ON', '', lat, lng, 'postal_area',
                 $7 + interval '3 days', $7 - make_interval(mins => age)
             from unnest($1::uuid[], $2::uuid[], $3::uuid[], $4::float8[], $5::float8[],
                         $6::int[]) as t(id, owner, service, lat, lng, age)",
        )
        .bind(&ids)
        .bind(&owners)
        .bind(&services)
        .bind(&lats)
        .bind(&lngs)
        .bind(&ages)
        .bind(bench_now())
        .execute(db)
        .await
        .unwrap();
    }
}

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
        on_duty = rule::on_duty("$2"),
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
        on_duty = rule::on_duty("$2"),
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
    let areas = areas();
    let started = Instant::now();
    let customers = load_customers(db).await;
    load_professionals(db, &areas, &mut rng).await;
    load_requests(db, &areas, &customers, &mut rng).await;
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
        "loaded {PROFESSIONALS} professionals and {REQUESTS} open requests in {:.1} s",
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
