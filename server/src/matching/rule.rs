//! THE matching rule, in SQL: every place that decides whether a professional and a request
//! match (the fan-out on a new request, the open-requests list, quoting eligibility) runs one
//! of the queries built here from the same fragments.
//!
//! Distance is great-circle on the server's Earth radius
//! ([`EARTH_RADIUS_METERS`](crate::providers::geocoding::EARTH_RADIUS_METERS)), compared in
//! whole km as the spec rounds (metres / 1000, half away from zero): a request is within a
//! radius of R km when it is less than (R + 0.5) km away. `cube`/`earthdistance` give the
//! index (`earth_box(...) @> ll_to_earth(...)` on GiST, see
//! `migrations/20261123000061_matching.sql`); `earth_distance` the exact check, rescaled
//! from earthdistance's own radius (`earth()`, 6 378 168 m) to ours.

use std::sync::LazyLock;

use crate::billing::membership;

/// Metres between two `earth` points on the server's Earth radius.
fn meters(a: &str, b: &str) -> String {
    format!("(earth_distance({a}, {b}) * (6371008.8 / earth()))")
}

/// The professional `p` may be matched at all at `now`: approved, phone verified, an
/// active membership, a home base and a radius.
fn eligible(now: &str) -> String {
    format!(
        "p.state = 'approved' and p.phone_verified and {active}
         and p.home_latitude is not null and p.home_longitude is not null
         and p.radius_km is not null",
        active = membership::active_sql("p.membership_expires_at", now),
    )
}

/// The request `r` is open, for a service `p` offers.
const OPEN_FOR_SERVICE: &str = "r.state = 'open'
    and exists (select 1 from professional_services s
                where s.professional_id = p.id and s.service_id = r.service_id)";

/// `r` lies within `p`'s radius: the indexable box of the professional's reach (the same
/// expression as the index on professionals), then the exact distance.
fn within_reach() -> String {
    format!(
        "professional_reach(p.home_latitude, p.home_longitude, p.radius_km)
             @> ll_to_earth(r.latitude, r.longitude)
         and {distance} < (p.radius_km + 0.5) * 1000",
        distance = distance_sql(),
    )
}

/// Metres from `p`'s home base to `r`.
fn distance_sql() -> String {
    meters(
        "ll_to_earth(p.home_latitude, p.home_longitude)",
        "ll_to_earth(r.latitude, r.longitude)",
    )
}

/// `now` falls on one of `p`'s days and within their hours, read in their own time zone.
/// Hours are whole minutes, both ends included (the default 00:00-23:59 is the whole day).
/// Hours that cross midnight (22:00-06:00) belong to the day they start on: Monday
/// 22:00-06:00 covers Monday 22:00 to Tuesday 06:00.
fn on_duty(now: &str) -> String {
    format!(
        "p.time_zone <> '' and exists (
            select 1 from (select date_trunc('minute', {now} at time zone p.time_zone) as t) l
            where case
                when p.available_from <= p.available_to then
                    l.t::time between p.available_from and p.available_to
                    and extract(isodow from l.t)::smallint = any (p.available_days)
                else
                    (l.t::time >= p.available_from
                        and extract(isodow from l.t)::smallint = any (p.available_days))
                    or (l.t::time <= p.available_to
                        and extract(isodow from l.t - interval '1 day')::smallint
                            = any (p.available_days))
            end)"
    )
}

/// Open requests of professional $1 at $2, created up to $3, after the key ($4 metres, $5
/// id) when given, nearest first, at most $6.
pub static OPEN_REQUESTS: LazyLock<String> = LazyLock::new(|| {
    format!(
        "select r.id, r.created_at, {distance} as meters
         from professionals p
         join repair_requests r on {open} and {reach}
         where p.id = $1 and {eligible}
           and r.created_at <= $3
           and ($4::float8 is null or ({distance}, r.id) > ($4, $5))
         order by meters, r.id
         limit $6",
        distance = distance_sql(),
        open = OPEN_FOR_SERVICE,
        reach = within_reach(),
        eligible = eligible("$2"),
    )
});

/// Professionals to notify of request $1 at $2, nearest first.
pub static TO_NOTIFY: LazyLock<String> = LazyLock::new(|| {
    format!(
        "select p.id, {distance} as meters, p.name, p.email::text as email, p.phone,
                p.sms_updates = 'yes' as sms_opt_in, p.language
         from repair_requests r
         join professionals p on {reach}
         where r.id = $1 and {open} and {eligible} and {on_duty}
         order by meters, p.id",
        distance = distance_sql(),
        open = OPEN_FOR_SERVICE,
        reach = within_reach(),
        eligible = eligible("$2"),
        on_duty = on_duty("$2"),
    )
});

/// Distance when professional $1 matches request $2 at $3 (the listing rule).
pub static ONE_MATCH: LazyLock<String> = LazyLock::new(|| {
    format!(
        "select {distance} as meters
         from professionals p
         join repair_requests r on {open} and {reach}
         where p.id = $1 and r.id = $2 and {eligible}",
        distance = distance_sql(),
        open = OPEN_FOR_SERVICE,
        reach = within_reach(),
        eligible = eligible("$3"),
    )
});
