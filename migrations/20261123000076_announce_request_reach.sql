-- WatchOpenRequests: announce a new (or moved) open request with its service and place, so
-- each server process can skip the streams of professionals it cannot match (another service,
-- out of reach) before checking the rule in the database (server/src/matching/watch.rs).
-- Payload: id|service_id|latitude|longitude.
create or replace function announce_open_repair_request() returns trigger
    language plpgsql as $$
begin
    perform pg_notify('repair_requests_opened',
                      concat_ws('|', new.id, new.service_id, new.latitude, new.longitude));
    return null;
end;
$$;
