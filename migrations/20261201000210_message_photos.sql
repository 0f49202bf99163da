-- Photos in conversations' messages (AddMessagePhoto, then SendMessage's photo_ids): each
-- written again by the photo pipeline (server/src/photos) and stored in two sizes under
-- conversations/<request>/<professional>/photos/<photo>/ (large.jpg, thumbnail.jpg). A photo
-- belongs to its uploader in one conversation (named by its request and professional, as it
-- may come before the conversation's first message) until a message of theirs takes it
-- (`message_id`, `position` within it, up to 4); one never sent is deleted, rows and files,
-- by the housekeeping pass a day after its upload.
create table message_photos (
    id uuid primary key,
    repair_request_id uuid not null references repair_requests (id) on delete cascade,
    professional_id uuid not null,
    uploader_id uuid not null,
    message_id uuid references conversation_messages (id) on delete cascade,
    position smallint check (position between 0 and 3),
    large_key text not null,
    thumbnail_key text not null,
    width integer not null check (width > 0),
    height integer not null check (height > 0),
    created_at timestamptz not null default now(),
    check ((message_id is null) = (position is null))
);
create index message_photos_message_idx on message_photos (message_id, position)
    where message_id is not null;
-- An uploader's photos not sent yet: counted against their bound, swept after a day.
create index message_photos_unsent_idx on message_photos (uploader_id, created_at)
    where message_id is null;
create index message_photos_unsent_age_idx on message_photos (created_at)
    where message_id is null;
