-- What reaches each person (CASL): one row per kind of message and channel the person chose
-- differently from the default (everything on). Receipts and security messages have no row:
-- they cannot be turned off.
create table notification_preferences (
    account_kind text not null check (account_kind in ('customer', 'professional')),
    account_id uuid not null,
    topic text not null check (topic in ('new_requests', 'request_updates', 'reminders')),
    channel text not null check (channel in ('email', 'sms', 'push')),
    enabled boolean not null,
    -- Where the choice was made: the account page, an email's link.
    source text not null check (source in ('account', 'email_link')),
    updated_at timestamptz not null default now(),
    primary key (account_kind, account_id, topic, channel)
);

-- A message that may be turned off names its kind and its person: the outbox writes it only
-- while that person has it on, and an email's unsubscribe link is made from them.
alter table outbox_messages
    add column topic text check (topic in ('new_requests', 'request_updates', 'reminders')),
    add column account_kind text check (account_kind in ('customer', 'professional')),
    add column account_id uuid,
    add column language text check (language in ('en', 'fr')),
    add constraint outbox_messages_topic_names_its_person check (
        (topic is null and account_kind is null and account_id is null and language is null)
        or (topic is not null and account_kind is not null and account_id is not null
            and language is not null));
