//! THE matching rule, in SQL: every place that decides whether a professional and a request
//! match (the fan-out on a new request, the open-requests list, quoting eligibility) runs one
//! of the queries built here from the same fragments.
//!
//! Distance is great-circle on the server's Earth radius
//! ([`EARTH_RADIUS_METERS`](crate::domain::coordinates::EARTH_RADIUS_METERS)), compared in
//! whole km as the spec rounds (metres / 1000, half away from zero): a request is within a
//! radius of R km when it is less than (R + 0.5) km away. `cube`/`earthdistance` give the
//! indexes (see `migrations/20261123000061_matching.sql`): the box of a professional's reach
//! (`professional_reach`) finds candidates, the great-circle distance from the chord between
//! the stored points is the exact check, on our radius rather than earthdistance's
//! (`earth()`, 6 378 168 m). Each query enters from
//! its own side: the list from the professional (their box over open requests' points, read
//! nearest first), the fan-out from the request (its point in the boxes of the eligible
//! professionals offering its service, kept on `professional_services.reach`, read nearest
//! first).

use std::sync::LazyLock;

use super::memberships;

/// Metres along the surface between two points on the server's Earth radius, from their
/// straight-line (chord) distance, as earthdistance's `sec_to_gc` does on its own radius.
fn meters(a: &str, b: &str) -> String {
    format!("(2 * 6371008.8 * asin(least(1.0, ({a} <-> {b}) / (2 * earth()))))")
}

/// The professional `p` may be matched at all at `now`: approved with a licence (none deleted
/// the last one they were approved with), phone verified, an
/// active membership, a home base and a radius, not paused ([`available`]) and not closed
/// by its person (`account_closures`). The SQL function
/// `professional_may_be_matched` (migration 075) says the same for the fan-out index's
/// `eligible` flag, which only narrows candidates: this fragment is the exact check.
pub fn eligible(now: &str) -> String {
    format!(
        "p.state = 'approved' and p.licence_needed_since is null and p.phone_verified and {active}
         and p.home_latitude is not null and p.home_longitude is not null
         and p.radius_km is not null and {available}
         and not exists (select 1 from account_closures c
                         where c.account_kind = 'professional' and c.account_id = p.id)",
        active = memberships::active_sql("p.membership_expires_at", now),
        available = available(now),
    )
}

/// `p` is not paused at `now` (`crate::accounts::availability`): a pause ends at its
/// instant, whether or not the housekeeping pass has cleared it yet. Checked here only, not
/// in the fan-out index's `eligible` flag, so a pause takes effect and ends without a write
/// to the index.
pub fn available(now: &str) -> String {
    format!("(p.paused_until is null or p.paused_until <= {now})")
}

/// `p` is on call at `now` for `r`, an emergency: alerted of it like a professional on
/// duty, whatever their weekly days and hours (`crate::accounts::availability`). Never null
/// (`not` of it must hold for those not on call).
pub fn on_call(now: &str) -> String {
    format!("(r.urgency = 'immediate' and coalesce(p.on_call_until > {now}, false))")
}

/// `p` is to be alerted of `r` at `now` by the hours: on duty ([`on_duty`]) or on call for an
/// emergency ([`on_call`]).
pub fn on_duty_or_call(now: &str) -> String {
    format!("({} or {})", on_duty(now), on_call(now))
}

/// The request `r` is open, for a service `p` offers, checked pair by pair: the shape for
/// queries that enter from the request's side (one request, many professionals).
pub const OPEN_FOR_SERVICE: &str = "r.state = 'open'
    and exists (select 1 from professional_services s
                where s.professional_id = p.id and s.service_id = r.service_id)";

/// [`OPEN_FOR_SERVICE`] for queries that enter from the professional's side (one
/// professional, many requests), `professional` being the query parameter that holds their
/// id. Naming the parameter rather than `p.id` lets Postgres read their services once per
/// query into an array (an InitPlan) and check each request it reads against it in the
/// scan (`= any`), instead of joining `professional_services` once per request read.
pub fn open_for_services_of(professional: &str) -> String {
    format!(
        "r.state = 'open'
         and r.service_id = any (array(select s.service_id from professional_services s
                                       where s.professional_id = {professional}))"
    )
}

/// `r`'s point, `ll_to_earth(latitude, longitude)` stored (see migration 062).
const REQUEST_POINT: &str = "r.point";
/// `p`'s home base, stored the same way.
const HOME_POINT: &str = "p.home_point";

/// Metres from `p`'s home base to `r`.
pub fn distance_sql() -> String {
    meters(HOME_POINT, REQUEST_POINT)
}

/// The exact check: `r` within `p`'s radius in whole km.
pub fn within_radius() -> String {
    format!("{} < (p.radius_km + 0.5) * 1000", distance_sql())
}

/// `r` lies within `p`'s reach: the indexable box (`p` fixed, over open requests' points),
/// then the exact distance.
fn within_reach() -> String {
    format!(
        "professional_reach(p.home_latitude, p.home_longitude, p.radius_km) @> {REQUEST_POINT}
         and {}",
        within_radius()
    )
}

/// `now` falls on one of `p`'s days and within their hours, read in their own time zone.
/// Hours are whole minutes, both ends included (the default 00:00-23:59 is the whole day).
/// Hours that cross midnight (22:00-06:00) belong to the day they start on: Monday
/// 22:00-06:00 covers Monday 22:00 to Tuesday 06:00. Without a time zone (no home base
/// yet) nobody is on duty; `case` keeps Postgres from reading an empty zone name.
pub fn on_duty(now: &str) -> String {
    format!(
        "case when p.time_zone = '' then false else exists (
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
            end) end"
    )
}

/// Open requests of professional $1 at $2, placed up to $3, nearest first, then newest:
/// after the key ($4 rank, $5 created_at, $6 id) when given, at most $7. The rank is the
/// straight-line (chord) distance, which orders like the great-circle one and lets the
/// GiST index hand out points nearest first (`<->`), so a page reads about as many rows
/// as it shows; the service is checked in that same scan, against the professional's
/// services read once. The index orders by rank alone, so the inner query takes the rows
/// tied with the last one too (`with ties`) and the outer one orders the ties, newest first.
pub static OPEN_REQUESTS: LazyLock<String> = LazyLock::new(|| {
    format!(
        "select m.id, m.created_at, m.meters, m.rank
         from professionals p
         cross join lateral (
             select r.id, r.created_at, {distance} as meters, {rank} as rank
             from repair_requests r
             where {open} and {reach}
               and r.created_at <= $3
               and ($4::float8 is null or {rank} > $4
                    or ({rank} = $4 and (r.created_at, r.id) < ($5, $6)))
             order by {rank}
             fetch first $7 rows with ties
         ) m
         where p.id = $1 and {eligible}
         order by m.rank, m.created_at desc, m.id desc
         limit $7",
        distance = distance_sql(),
        rank = format!("{REQUEST_POINT} <-> {HOME_POINT}"),
        open = open_for_services_of("$1"),
        reach = within_reach(),
        eligible = eligible("$2"),
    )
});

/// Professionals to notify of request $1 at $2: the nearest $3, nearest first (then by id),
/// among those on duty or, for an emergency, on call.
/// Candidates come from the index of eligible professionals' reaches per service
/// (`professional_services`, see `migrations/20261123000075_matching_eligible_reach.sql`),
/// read nearest first (`home_point <-> point`, KNN) so the query stops after $3 matches
/// instead of reading and sorting every professional in reach (about 2 000 in Toronto).
/// When more than $3 match, the farther ones are not told. The `eligible` flag only narrows
/// the candidates: eligibility is checked again exactly at $2, so a membership that lapsed
/// since the flag was last refreshed is never notified. As in the list, the index orders by
/// distance alone: ties with the last row are kept (`with ties`) and ordered by id outside.
pub static TO_NOTIFY: LazyLock<String> = LazyLock::new(|| {
    format!(
        "select n.id, n.meters, n.name, n.email, n.phone, n.sms_opt_in, n.language,
                n.home_latitude, n.home_longitude
         from repair_requests r
         cross join lateral (
             select p.id, {distance} as meters, p.name, p.email::text as email, p.phone,
                    p.sms_updates = 'yes' as sms_opt_in, p.language, p.home_latitude,
                    p.home_longitude,
                    s.home_point <-> {REQUEST_POINT} as rank
             from professional_services s
             join professionals p on p.id = s.professional_id
             where s.eligible and s.service_id = r.service_id and s.reach @> {REQUEST_POINT}
               and {radius} and {eligible} and {on_duty}
             order by s.home_point <-> {REQUEST_POINT}
             fetch first $3 rows with ties
         ) n
         where r.id = $1 and r.state = 'open'
         order by n.rank, n.id
         limit $3",
        distance = distance_sql(),
        radius = within_radius(),
        eligible = eligible("$2"),
        on_duty = on_duty_or_call("$2"),
    )
});

/// The next ring of emergency $1 at $2 (escalation): the professionals it matches now who
/// were not told of it yet, in two parts of at most $3 each, nearest first: those on duty
/// or on call (beyond the nearest ones, told when it was placed), and those off duty who chose to
/// receive emergencies at any hour. Read from the fan-out's index as [`TO_NOTIFY`] is.
pub static TO_ESCALATE: LazyLock<String> = LazyLock::new(|| {
    let part = |hours: &str| {
        format!(
            "(select * from (
                 select p.id, {distance} as meters, p.name, p.email::text as email, p.phone,
                        p.sms_updates = 'yes' as sms_opt_in, p.language, p.home_latitude,
                    p.home_longitude,
                        s.home_point <-> {REQUEST_POINT} as rank
                 from professional_services s
                 join professionals p on p.id = s.professional_id
                 where s.eligible and s.service_id = r.service_id
                   and s.reach @> {REQUEST_POINT} and {radius} and {eligible} and ({hours})
                   and not exists (select 1 from request_notifications t
                                   where t.repair_request_id = r.id
                                     and t.professional_id = p.id)
                 order by s.home_point <-> {REQUEST_POINT}
                 fetch first $3 rows with ties
             ) ring order by ring.rank, ring.id limit $3)",
            distance = distance_sql(),
            radius = within_radius(),
            eligible = eligible("$2"),
        )
    };
    format!(
        "select n.id, n.meters, n.name, n.email, n.phone, n.sms_opt_in, n.language,
                n.home_latitude, n.home_longitude
         from repair_requests r
         cross join lateral ({on_duty} union all {any_hour}) n
         where r.id = $1 and r.state = 'open'
         order by n.rank, n.id",
        on_duty = part(&on_duty_or_call("$2")),
        any_hour = part(&format!(
            "p.emergencies_any_hour and not {}",
            on_duty_or_call("$2")
        )),
    )
});

/// `r` matches `p`, whose id is `professional`, at `now` (the listing rule).
pub fn matches(professional: &str, now: &str) -> String {
    format!(
        "{open} and {reach} and {eligible}",
        open = open_for_services_of(professional),
        reach = within_reach(),
        eligible = eligible(now),
    )
}

/// Distance when professional $1 matches request $2 at $3 (the listing rule).
pub static ONE_MATCH: LazyLock<String> = LazyLock::new(|| {
    format!(
        "select {distance} as meters
         from professionals p
         join repair_requests r on {matches}
         where p.id = $1 and r.id = $2",
        distance = distance_sql(),
        matches = matches("$1", "$3"),
    )
});

/// The newest open requests that match professional $1 at $2, at most $3, with the distance
/// of each: the dashboard's latest list.
pub static LATEST_OPEN: LazyLock<String> = LazyLock::new(|| {
    format!(
        "select r.id, {distance} as meters
         from professionals p
         join repair_requests r on {open} and {reach}
         where p.id = $1 and {eligible}
         order by r.created_at desc, r.id desc
         limit $3",
        distance = distance_sql(),
        open = open_for_services_of("$1"),
        reach = within_reach(),
        eligible = eligible("$2"),
    )
});
