-- The reach of a request, shown to its customer: how many professionals were alerted
-- (request_notifications, any channel) and how many opened it. An open is recorded once per
-- professional and request, the first time they read it (server/src/requests/reach.rs).
create table request_opens (
    repair_request_id uuid not null references repair_requests (id) on delete cascade,
    professional_id uuid not null references professionals (id) on delete cascade,
    opened_at timestamptz not null default now(),
    primary key (repair_request_id, professional_id)
);
create index request_opens_professional_idx on request_opens (professional_id);

-- Each statement that adds alerts or opens announces the requests whose reach may have
-- changed, once per request (a fan-out to many professionals is one statement), on
-- 'repair_request_reach' with the request's id; the watchers read the counts again
-- (server/src/live/request_reach.rs).
create function announce_request_reach() returns trigger
    language plpgsql as $$
begin
    perform pg_notify('repair_request_reach', id::text)
    from (select distinct repair_request_id as id from added) as reached;
    return null;
end;
$$;
create trigger request_notifications_announce_reach after insert on request_notifications
    referencing new table as added
    for each statement execute function announce_request_reach();
create trigger request_opens_announce_reach after insert on request_opens
    referencing new table as added
    for each statement execute function announce_request_reach();
