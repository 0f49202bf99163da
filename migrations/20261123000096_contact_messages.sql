-- Messages sent through the contact form, kept for the admins' inbox.
create table contact_messages (
    id uuid primary key,
    name text not null check (length(name) between 1 and 100),
    email text not null check (length(email) between 3 and 254),
    message text not null check (length(message) between 1 and 5000),
    sender_account_id uuid,
    created_at timestamptz not null default now(),
    read_at timestamptz
);
create index contact_messages_created_at_idx on contact_messages (created_at desc, id desc);
create index contact_messages_unread_idx on contact_messages (created_at desc, id desc)
    where read_at is null;
