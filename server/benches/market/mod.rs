//! The synthetic market the matching benchmark runs on: customers, professionals spread over
//! Canada by population with their radii, services, days and hours, and open requests.

use std::{collections::HashMap, path::Path};

use chrono::{DateTime, TimeZone, Utc};
use rand::{Rng, rngs::StdRng};
use repairs_server::providers::geocoding::gazetteer::full::FullCodes;
use sqlx::PgPool;
use uuid::Uuid;

pub const REQUESTS: usize = 200_000;
pub const PROFESSIONALS: usize = 100_000;
pub const CUSTOMERS: usize = 2_000;
pub const SAMPLES: usize = 400;
/// `REPAIR_REQUEST_MAX_NOTIFIED`'s default.
pub const MAX_NOTIFIED: usize = 200;
pub const WARM_UP: usize = 20;
pub const BATCH: usize = 10_000;
pub const SERVICES: [&str; 8] = [
    "0190a6c0-0000-7000-8000-000000000001",
    "0190a6c0-0000-7000-8000-000000000002",
    "0190a6c0-0000-7000-8000-000000000003",
    "0190a6c0-0000-7000-8000-000000000004",
    "0190a6c0-0000-7000-8000-000000000005",
    "0190a6c0-0000-7000-8000-000000000006",
    "0190a6c0-0000-7000-8000-000000000007",
    "0190a6c0-0000-7000-8000-000000000008",
];
pub const POSTGIS_CONTROL: &str = "/usr/share/postgresql/15/extension/postgis.control";

/// Monday 23 November 2026, 17:00 UTC: a working morning from Newfoundland to BC.
pub fn bench_now() -> DateTime<Utc> {
    Utc.with_ymd_and_hms(2026, 11, 23, 17, 0, 0).unwrap()
}

/// A postal area, weighted by how many postal codes it holds (where people live).
pub struct Area {
    pub fsa: String,
    pub latitude: f64,
    pub longitude: f64,
    pub time_zone: String,
    /// Cumulative weight up to and including this area.
    pub cumulative: f64,
}

/// Postal areas weighted by how many postal codes they hold.
fn areas() -> Vec<Area> {
    let path = Path::new(env!("CARGO_MANIFEST_DIR")).join("data/geo/ca-fsa.csv");
    let mut reader = csv::Reader::from_path(path).unwrap();
    let headers = reader.headers().unwrap().clone();
    let column = |name: &str| headers.iter().position(|h| h == name).unwrap();
    let (fsa, lat, lon, codes, zone) = (
        column("fsa"),
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
                fsa: record[fsa].to_owned(),
                latitude: record[lat].parse().unwrap(),
                longitude: record[lon].parse().unwrap(),
                time_zone: record[zone].to_owned(),
                cumulative: total,
            }
        })
        .collect()
}

/// Where the market's people are placed (`BENCH_PLACES`): at full postal codes' points (a
/// block face in a city, where addresses are placed now), or by postal area (its centre moved
/// by up to about 3 km, where they were placed before the full codes).
pub enum Places {
    FullCodes {
        codes: FullCodes,
        /// Each postal area's time zone, by its three characters.
        zones: HashMap<String, String>,
    },
    Areas(Vec<Area>),
}

/// One placed point.
pub struct Spot<'a> {
    pub latitude: f64,
    pub longitude: f64,
    pub time_zone: &'a str,
}

impl Places {
    /// `BENCH_PLACES=areas` for the postal areas; full codes otherwise.
    pub fn from_env() -> Self {
        match std::env::var("BENCH_PLACES").as_deref() {
            Ok("areas") => Self::Areas(areas()),
            Ok("full-codes") | Err(_) => Self::FullCodes {
                codes: FullCodes::shipped(),
                zones: areas()
                    .into_iter()
                    .map(|area| (area.fsa, area.time_zone))
                    .collect(),
            },
            Ok(other) => panic!("BENCH_PLACES is full-codes or areas, not {other}"),
        }
    }

    pub fn describe(&self) -> &'static str {
        match self {
            Self::FullCodes { .. } => "at full postal codes' points (BENCH_PLACES=full-codes)",
            Self::Areas(_) => "by postal area, its centre moved by up to 3 km (BENCH_PLACES=areas)",
        }
    }

    /// The precision of its points, as the server stores it (`placed_by`).
    pub fn placed_by(&self) -> &'static str {
        match self {
            Self::FullCodes { .. } => "postal_code",
            Self::Areas(_) => "postal_area",
        }
    }

    /// A point where people live: a full code drawn evenly (each is a block face or a rural
    /// route, so they follow the population), or an area by its number of codes.
    pub fn somewhere(&self, rng: &mut StdRng) -> Spot<'_> {
        match self {
            // A few codes are of areas the area table does not list: drawn again.
            Self::FullCodes { codes, zones } => loop {
                let code = codes.get(rng.gen_range(0..codes.len())).unwrap();
                if let Some(time_zone) = zones.get(&code.code[..3]) {
                    break Spot {
                        latitude: code.point.latitude,
                        longitude: code.point.longitude,
                        time_zone,
                    };
                }
            },
            Self::Areas(areas) => {
                let total = areas.last().unwrap().cumulative;
                let pick = rng.gen_range(0.0..total);
                let index = areas.partition_point(|a| a.cumulative <= pick);
                let area = &areas[index.min(areas.len() - 1)];
                Spot {
                    latitude: area.latitude + rng.gen_range(-0.03..0.03),
                    longitude: area.longitude + rng.gen_range(-0.04..0.04),
                    time_zone: &area.time_zone,
                }
            }
        }
    }
}

pub fn pick<T: Copy>(rng: &mut StdRng, weighted: &[(u32, T)]) -> T {
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

pub async fn load_customers(db: &PgPool) -> Vec<Uuid> {
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
pub struct ProfessionalBatch {
    pub ids: Vec<Uuid>,
    pub emails: Vec<String>,
    pub verified: Vec<bool>,
    pub states: Vec<&'static str>,
    pub latitudes: Vec<f64>,
    pub longitudes: Vec<f64>,
    pub zones: Vec<String>,
    pub day_masks: Vec<i32>,
    pub from: Vec<&'static str>,
    pub to: Vec<&'static str>,
    pub radii: Vec<i32>,
    pub member_days: Vec<Option<i32>>,
    /// Minutes from now a pause ends (5 %), or an on-call window (5 %).
    pub paused_minutes: Vec<Option<i32>>,
    pub on_call_minutes: Vec<Option<i32>>,
    pub service_pros: Vec<Uuid>,
    pub service_ids: Vec<Uuid>,
}

impl ProfessionalBatch {
    fn add(&mut self, places: &Places, rng: &mut StdRng) {
        let id = Uuid::now_v7();
        let spot = places.somewhere(rng);
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
        self.latitudes.push(spot.latitude);
        self.longitudes.push(spot.longitude);
        self.zones.push(spot.time_zone.to_owned());
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
        // Away for up to two weeks, or on call for up to a day.
        let window = pick(rng, &[(90, 0), (5, 1), (5, 2)]);
        let minutes = rng.gen_range(30..=24 * 60);
        self.paused_minutes
            .push((window == 1).then_some(minutes * 14));
        self.on_call_minutes.push((window == 2).then_some(minutes));
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

    async fn insert(&self, db: &PgPool, now: DateTime<Utc>, placed_by: &str) {
        sqlx::query(
            "insert into professionals (id, name, email, phone, phone_verified, sms_updates,
                 state, home_latitude, home_longitude, time_zone, available_days,
                 available_from, available_to, radius_km, membership_expires_at,
                 profile_saved_at, paused_until, on_call_until, home_placed_by)
             select id, 'Professional', email, '+15875550100', verified, 'yes', state, lat, lng,
                 zone,
                 array(select d::smallint from generate_series(1, 7) d
                       where mask & (1 << (d - 1)) <> 0),
                 from_::time, to_::time, radius, $13 + make_interval(days => member_days), $13,
                 $13 + make_interval(mins => paused), $13 + make_interval(mins => on_call), $16
             from unnest($1::uuid[], $2::text[], $3::bool[], $4::text[], $5::float8[],
                         $6::float8[], $7::text[], $8::int[], $9::text[], $10::text[],
                         $11::int[], $12::int[], $14::int[], $15::int[])
                 as t(id, email, verified, state, lat, lng, zone, mask, from_, to_, radius,
                      member_days, paused, on_call)",
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
        .bind(&self.paused_minutes)
        .bind(&self.on_call_minutes)
        .bind(placed_by)
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

pub async fn load_professionals(db: &PgPool, places: &Places, rng: &mut StdRng) {
    for _ in 0..PROFESSIONALS / BATCH {
        let mut batch = ProfessionalBatch::default();
        for _ in 0..BATCH {
            batch.add(places, rng);
        }
        batch.insert(db, bench_now(), places.placed_by()).await;
    }
}

pub async fn load_requests(db: &PgPool, places: &Places, customers: &[Uuid], rng: &mut StdRng) {
    for _ in 0..REQUESTS / BATCH {
        let (mut ids, mut owners, mut services, mut lats, mut lngs, mut ages) =
            (vec![], vec![], vec![], vec![], vec![], vec![]);
        for _ in 0..BATCH {
            let spot = places.somewhere(rng);
            ids.push(Uuid::now_v7());
            owners.push(customers[rng.gen_range(0..customers.len())]);
            services.push(Uuid::parse_str(SERVICES[rng.gen_range(0..SERVICES.len())]).unwrap());
            lats.push(spot.latitude);
            lngs.push(spot.longitude);
            ages.push(rng.gen_range(0..72 * 60));
        }
        sqlx::query(
            "insert into repair_requests (id, customer_id, request_id, request_hash, service_id,
                 urgency, description, line1, city, province, postal_code, latitude, longitude,
                 placed_by, expires_at, created_at)
             select id, owner, id, sha256(id::text::bytea), service, 'immediate',
                 'Water everywhere', '1 Main St', 'Somewhere', 'ON', '', lat, lng, $8,
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
        .bind(places.placed_by())
        .execute(db)
        .await
        .unwrap();
    }
}
