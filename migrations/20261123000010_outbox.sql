-- The outbox: every email and text message is written here in the transaction of the change
-- that causes it, and a worker delivers it. A row's id is its delivery id (the same on every
-- try, so a receiver can drop a duplicate). Several server processes may deliver at once:
-- they claim rows with `for update skip locked` and a lease (`locked_until`).

create table outbox_messages (
    id uuid primary key,
    channel text not null check (channel in ('email', 'sms')),
    recipient text not null check (length(recipient) between 1 and 320),
    subject text not null default '' check (length(subject) <= 300),
    body text not null check (length(body) between 1 and 20000),
    -- One message per key (a request, a professional and a channel, ...); null: no such rule.
    dedupe_key text constraint outbox_messages_dedupe_key unique,
    state text not null default 'pending' check (state in ('pending', 'sent', 'parked', 'expired')),
    attempts integer not null default 0,
    -- Due time of the next try; also the end of a claim's lease while one is under way.
    next_attempt_at timestamptz not null default now(),
    -- Not worth sending after this (a phone code that has expired).
    discard_after timestamptz,
    last_error text not null default '',
    created_at timestamptz not null default now(),
    finished_at timestamptz
);
-- What the worker scans: the pending rows, soonest first.
create index outbox_messages_due_idx on outbox_messages (next_attempt_at) where state = 'pending';
-- What an admin looks at: the parked rows.
create index outbox_messages_parked_idx on outbox_messages (created_at desc) where state = 'parked';
-- The purge of finished rows.
create index outbox_messages_finished_idx on outbox_messages (finished_at) where state <> 'pending';

-- The purge of expired reset links.
create index password_resets_expires_idx on password_resets (expires_at);
