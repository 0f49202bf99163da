-- The fan-out's index holds only professionals who may be matched at all (approved, phone
-- verified, membership paid up, a home base and a radius), and hands them out nearest
-- first (server/src/matching/rule.rs, TO_NOTIFY). In the benchmark's data about a third of
-- the professionals are not eligible; before this the fan-out read and sorted them all.
--
-- Eligibility depends on time (the membership ends at a paid-until time), so it cannot be an
-- index predicate: it is a flag, `professional_services.eligible`, set by the triggers below
-- whenever a column it depends on changes (a purchase moving the paid-until time sets it at
-- once), and reset by the housekeeping pass for memberships that ran out since
-- (matching::refresh_eligibility). The flag only narrows the candidates: the rule still checks
-- eligibility exactly at the instant of the query, so a membership that lapsed between two
-- passes is never notified.

-- May professional `p` be matched at `at`? The rule's `eligible` fragment
-- (server/src/matching/rule.rs) says the same; a test holds the two together.
create function professional_may_be_matched(p professionals, at timestamptz) returns boolean
    language sql stable parallel safe
    return p.state = 'approved' and p.phone_verified
        and p.membership_expires_at is not null and p.membership_expires_at > at
        and p.home_latitude is not null and p.home_longitude is not null
        and p.radius_km is not null;

-- The home base beside the reach, so the index can order candidates by distance.
alter table professional_services
    add column home_point cube,
    add column eligible boolean not null default false;

create or replace function professional_services_set_reach() returns trigger
    language plpgsql as $$
begin
    select professional_reach(p.home_latitude, p.home_longitude, p.radius_km), p.home_point,
           professional_may_be_matched(p, now())
        into new.reach, new.home_point, new.eligible
        from professionals p where p.id = new.professional_id;
    return new;
end;
$$;

create or replace function professionals_move_reach() returns trigger
    language plpgsql as $$
begin
    update professional_services
        set reach = professional_reach(new.home_latitude, new.home_longitude, new.radius_km),
            home_point = new.home_point,
            eligible = professional_may_be_matched(new, now())
        where professional_id = new.id;
    return null;
end;
$$;

drop trigger professionals_reach on professionals;
create trigger professionals_reach
    after update of home_latitude, home_longitude, radius_km, state, phone_verified,
        membership_expires_at
    on professionals for each row
    when ((old.home_latitude, old.home_longitude, old.radius_km, old.state,
           old.phone_verified, old.membership_expires_at)
          is distinct from (new.home_latitude, new.home_longitude, new.radius_km, new.state,
                            new.phone_verified, new.membership_expires_at))
    execute function professionals_move_reach();

update professional_services s
    set home_point = p.home_point, eligible = professional_may_be_matched(p, now())
    from professionals p where p.id = s.professional_id;

-- Service first (equality), the reach to find the professionals whose box holds the
-- request's point, the home base to read them nearest first (`<->`, KNN).
drop index professional_services_reach_idx;
create index professional_services_eligible_reach_idx on professional_services
    using gist (service_id, reach, home_point) where eligible;
