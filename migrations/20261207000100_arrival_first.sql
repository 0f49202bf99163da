-- Arrival first: a quote says how soon its professional can be at the door, and the hired
-- professional's trip to the job ("on my way") gives the customer a live arrival time.

-- Minutes after the hire; null when not said (a request that can wait, the legacy form).
alter table quotes add column arrival_minutes integer
    check (arrival_minutes between 1 and 43200);

-- One trip per hire (quote). The estimate is reckoned when the trip starts (the route from
-- the home base) and again at each position. The position is kept only while on the way:
-- arrival, or the end of the hire, clears it (`trips_position_only_on_the_way`).
create table trips (
    quote_id uuid primary key references quotes (id) on delete restrict,
    repair_request_id uuid not null references repair_requests (id) on delete restrict,
    professional_id uuid not null references professionals (id) on delete restrict,
    started_at timestamptz not null,
    -- The route from the home base when the trip started.
    route_seconds integer not null check (route_seconds >= 0),
    route_meters integer not null check (route_meters >= 0),
    route_by_road boolean not null,
    -- The route from the latest position, when it was reckoned.
    left_seconds integer check (left_seconds >= 0),
    left_meters integer check (left_meters >= 0),
    left_by_road boolean,
    position_at timestamptz,
    latitude double precision check (latitude between -90 and 90),
    longitude double precision check (longitude between -180 and 180),
    accuracy_m double precision check (accuracy_m >= 0),
    arrived_at timestamptz,
    constraint trips_position_whole check (
        (position_at is null) = (latitude is null)
        and (latitude is null) = (longitude is null)
        and (longitude is null) = (accuracy_m is null)
        and (left_seconds is null) = (left_meters is null)
        and (left_meters is null) = (left_by_road is null)),
    constraint trips_position_only_on_the_way check (arrived_at is null or latitude is null)
);

-- A request's trips (one per hire it had).
create index trips_request_idx on trips (repair_request_id);
-- Trips still on the way, for the housekeeping pass that clears the positions of hires that
-- ended without an arrival.
create index trips_on_the_way_idx on trips (started_at) where arrived_at is null;

-- A trip's start, position and arrival move its request's revision, so WatchRepairRequest
-- carries them as changes.
create function touch_repair_request_of_trip() returns trigger
    language plpgsql as $$
begin
    update repair_requests set revision = revision + 1 where id = new.repair_request_id;
    return null;
end;
$$;
create trigger trips_touch_request after insert or update on trips
    for each row execute function touch_repair_request_of_trip();
