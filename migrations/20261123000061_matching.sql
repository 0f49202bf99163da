-- Matching: what makes the rule's two searches fast (server/src/matching/rule.rs).
-- cube and earthdistance ship with Postgres (contrib); both are trusted extensions.
create extension if not exists cube;
create extension if not exists earthdistance;

-- The box around a professional's home base that holds every point they reach: their radius
-- in whole km as the spec rounds it (less than radius + 0.5 km), rescaled from the server's
-- Earth radius (6 371 008.8 m) to earthdistance's own (earth(), 6 378 168 m). A box, not a
-- circle: the rule checks the exact distance after the index has found the candidates.
create function professional_reach(latitude double precision, longitude double precision,
                                   radius_km integer)
    returns cube
    language sql immutable strict parallel safe
    return earth_box(ll_to_earth(latitude, longitude),
                     (radius_km + 0.5) * 1000 * (earth() / 6371008.8));

-- A new request: who is notified. Each professional has a radius of their own, so the
-- index holds each professional's reach, per service they offer, and a request's point is
-- looked up in the reaches of its service (service_id = ? and reach @> point). The reach is
-- kept on professional_services by the triggers below, from the professional's home base
-- and radius. (Measured against a reach index on professionals alone, and a 500 km box
-- over home points: see server/benches/matching.rs.)
create extension if not exists btree_gist;
alter table professional_services add column reach cube;

create function professional_services_set_reach() returns trigger
    language plpgsql as $$
begin
    select professional_reach(p.home_latitude, p.home_longitude, p.radius_km)
        into new.reach
        from professionals p where p.id = new.professional_id;
    return new;
end;
$$;
create trigger professional_services_reach before insert or update of professional_id
    on professional_services for each row execute function professional_services_set_reach();

create function professionals_move_reach() returns trigger
    language plpgsql as $$
begin
    update professional_services
        set reach = professional_reach(new.home_latitude, new.home_longitude, new.radius_km)
        where professional_id = new.id;
    return null;
end;
$$;
create trigger professionals_reach after update of home_latitude, home_longitude, radius_km
    on professionals for each row
    when ((old.home_latitude, old.home_longitude, old.radius_km)
          is distinct from (new.home_latitude, new.home_longitude, new.radius_km))
    execute function professionals_move_reach();

update professional_services s
    set reach = professional_reach(p.home_latitude, p.home_longitude, p.radius_km)
    from professionals p where p.id = s.professional_id;
create index professional_services_reach_idx on professional_services
    using gist (service_id, reach);

-- A professional's list: open requests inside the box of their reach.
create index repair_requests_open_point_idx on repair_requests
    using gist (ll_to_earth(latitude, longitude))
    where state = 'open';

-- WatchOpenRequests: every new request is announced to the server processes listening
-- (server/src/matching/watch.rs), sent when the transaction that placed it commits.
create function announce_open_repair_request() returns trigger
    language plpgsql as $$
begin
    perform pg_notify('repair_requests_opened', new.id::text);
    return null;
end;
$$;
create trigger repair_requests_announce_open after insert on repair_requests
    for each row when (new.state = 'open') execute function announce_open_repair_request();
-- An open request edited into another service or place may match new professionals.
create trigger repair_requests_announce_moved after update of service_id, latitude, longitude
    on repair_requests for each row
    when (new.state = 'open'
          and (old.service_id, old.latitude, old.longitude)
              is distinct from (new.service_id, new.latitude, new.longitude))
    execute function announce_open_repair_request();
