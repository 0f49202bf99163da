-- A new request's alerts wait for the photos its customer adds right after placing it
-- (CreateRepairRequest's `photos_to_follow`), so they count them: the request keeps how many
-- are coming, and its alerts are written held (due at the end of the wait) and tied to it.
-- The photo that completes the count makes them due at once (server/src/store/request_photos.rs).
alter table repair_requests
    add column photos_to_follow smallint not null default 0
        check (photos_to_follow between 0 and 8);

alter table outbox_messages
    add column held_for_request uuid references repair_requests (id) on delete set null;
create index outbox_messages_held_idx on outbox_messages (held_for_request)
    where held_for_request is not null;
