-- Conversations between a repair request's customer and each professional who may see it
-- (server/src/conversations/). One per request and professional, opened by the first
-- message of either side. `professional_id` names no foreign key on purpose: deleting a
-- professional's account keeps the conversation for its customer, with the professional's
-- messages emptied and marked deleted (the customer's side stays a record).
create table conversations (
    id uuid primary key,
    repair_request_id uuid not null references repair_requests (id) on delete cascade,
    -- The request's customer, copied for the customer's list (customers are never deleted,
    -- only anonymised).
    customer_id uuid not null references customers (id) on delete restrict,
    professional_id uuid not null,
    -- The newest message's sequence: raised by one in the transaction that writes each
    -- message, under this row's lock, so sequences have no gap and no two are alike.
    last_sequence bigint not null default 0 check (last_sequence >= 0),
    last_message_at timestamptz not null default now(),
    created_at timestamptz not null default now(),
    constraint conversations_request_professional_key unique (repair_request_id, professional_id)
);
create index conversations_customer_idx on conversations (customer_id, last_message_at desc, id desc);
create index conversations_professional_idx
    on conversations (professional_id, last_message_at desc, id desc);

-- Each side of a conversation as a reader: how far they read (never back), how many of the
-- other side's messages they have not read, and the email that tells them of those: due two
-- minutes after the first unread one (MESSAGE_EMAIL_AFTER), at most one every fifteen
-- (MESSAGE_EMAIL_EVERY); sent by whichever server process claims the row first (`for update
-- skip locked`), covering the unread messages up to `emailed_sequence`.
create table conversation_readers (
    conversation_id uuid not null references conversations (id) on delete cascade,
    side text not null check (side in ('customer', 'professional')),
    account_id uuid not null,
    read_sequence bigint not null default 0 check (read_sequence >= 0),
    unread integer not null default 0 check (unread >= 0),
    email_due_at timestamptz,
    emailed_at timestamptz,
    emailed_sequence bigint not null default 0,
    primary key (conversation_id, side)
);
-- Unread totals per account (dashboards, ListConversations).
create index conversation_readers_unread_idx on conversation_readers (account_id)
    where unread > 0;
create index conversation_readers_email_due_idx on conversation_readers (email_due_at)
    where email_due_at is not null;

create table conversation_messages (
    id uuid primary key,
    conversation_id uuid not null references conversations (id) on delete cascade,
    sequence bigint not null check (sequence > 0),
    author text not null check (author in ('customer', 'professional')),
    author_id uuid not null,
    -- The sender's key (SendMessage's request_id): a retried send finds its message.
    client_key uuid not null,
    -- Emptied when the author's account is deleted (deleted_at set).
    text text not null check (length(text) <= 4000),
    text_language text not null check (text_language in ('en', 'fr')),
    deleted_at timestamptz,
    -- Its machine translation into the other language, made by the translation pass when a
    -- provider is configured (due in the transaction that writes the message).
    translation text check (length(translation) <= 20000),
    translation_due_at timestamptz,
    translation_attempts integer not null default 0,
    translation_error text,
    created_at timestamptz not null default now(),
    constraint conversation_messages_sequence_key unique (conversation_id, sequence),
    constraint conversation_messages_client_key unique (author_id, client_key)
);
create index conversation_messages_translation_due_idx on conversation_messages (translation_due_at)
    where translation_due_at is not null;

-- WatchConversation: every message and every read marker that moves is announced on channel
-- 'conversation_changed' when its transaction commits, with
-- "<request id>:<professional id>:m:<sequence>" for a message and
-- "<request id>:<professional id>:r<c or p>:<sequence>" for the customer's or the
-- professional's read marker (server/src/live/conversation_changes.rs).
create function announce_conversation_message() returns trigger
    language plpgsql as $$
begin
    perform pg_notify('conversation_changed',
        c.repair_request_id::text || ':' || c.professional_id::text || ':m:'
        || new.sequence::text)
    from conversations c where c.id = new.conversation_id;
    return null;
end;
$$;
create trigger conversation_messages_announce after insert on conversation_messages
    for each row execute function announce_conversation_message();

create function announce_conversation_read() returns trigger
    language plpgsql as $$
begin
    perform pg_notify('conversation_changed',
        c.repair_request_id::text || ':' || c.professional_id::text || ':r'
        || left(new.side, 1) || ':' || new.read_sequence::text)
    from conversations c where c.id = new.conversation_id;
    return null;
end;
$$;
create trigger conversation_readers_announce after update on conversation_readers
    for each row when (old.read_sequence is distinct from new.read_sequence)
    execute function announce_conversation_read();

-- Reports of a conversation by one of its parties, the admins' queue. One open report per
-- conversation and party: a second while it is open answers the first.
create table conversation_reports (
    id uuid primary key,
    conversation_id uuid not null references conversations (id) on delete cascade,
    reported_by text not null check (reported_by in ('customer', 'professional')),
    reason text not null check (reason in ('spam', 'abuse', 'fraud', 'other')),
    details text not null default '' check (length(details) <= 1000),
    created_at timestamptz not null default now(),
    resolved_at timestamptz,
    resolved_by uuid references admins (id) on delete set null,
    resolution_note text check (length(resolution_note) between 1 and 1000),
    check ((resolved_at is null) = (resolution_note is null))
);
create unique index conversation_reports_one_open_idx on conversation_reports (conversation_id, reported_by)
    where resolved_at is null;
create index conversation_reports_open_idx on conversation_reports (created_at, id)
    where resolved_at is null;
create index conversation_reports_resolved_idx on conversation_reports (resolved_at desc, id desc)
    where resolved_at is not null;

-- Professionals a customer blocked from all their requests: no messages, no quotes.
create table professional_blocks (
    customer_id uuid not null references customers (id) on delete cascade,
    professional_id uuid not null references professionals (id) on delete cascade,
    created_at timestamptz not null default now(),
    primary key (customer_id, professional_id)
);
create index professional_blocks_newest_idx on professional_blocks (customer_id, created_at desc);
