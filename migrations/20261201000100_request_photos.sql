-- Photos of the damage on a repair request (AddRepairRequestPhoto): each written again by the
-- photo pipeline (server/src/photos) and stored in two sizes through the storage adapter
-- under repair-requests/<request>/photos/<photo>/ (large.jpg, thumbnail.jpg). Read with the
-- request, oldest first.
create table repair_request_photos (
    id uuid primary key,
    repair_request_id uuid not null references repair_requests (id) on delete cascade,
    large_key text not null,
    thumbnail_key text not null,
    width integer not null check (width > 0),
    height integer not null check (height > 0),
    created_at timestamptz not null default now()
);
create index repair_request_photos_request_idx
    on repair_request_photos (repair_request_id, created_at, id);

-- How many photos the request holds, counted up in the statement that checks the limit
-- (8) and down with each removal, in the transaction that adds or removes the row; the
-- request's update also raises its revision, so its watchers see the photo come and go.
alter table repair_requests
    add column photo_count integer not null default 0 check (photo_count >= 0);
