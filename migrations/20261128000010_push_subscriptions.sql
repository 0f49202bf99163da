-- Web Push: each browser a customer or professional asked to alert ("Alert me on this
-- device"), by its push service's endpoint. An endpoint is one browser's subscription, so it
-- is unique and belongs to one account: the last one that subscribed it. Several per account
-- (phone, laptop). Outbox messages of the 'push' channel name the row as their recipient; a
-- push service that answers 404 or 410 deletes it.
create table push_subscriptions (
    id uuid primary key,
    customer_id uuid references customers (id) on delete cascade,
    professional_id uuid references professionals (id) on delete cascade,
    endpoint text not null constraint push_subscriptions_endpoint_key unique
        check (length(endpoint) between 1 and 1000),
    -- The browser's keys (RFC 8291): an uncompressed P-256 point and the auth secret.
    p256dh bytea not null check (length(p256dh) = 65),
    auth bytea not null check (length(auth) = 16),
    -- The language the device's alerts are written in.
    language text not null check (language in ('en', 'fr')),
    created_at timestamptz not null default now(),
    check ((customer_id is null) <> (professional_id is null))
);
create index push_subscriptions_customer_idx on push_subscriptions (customer_id, created_at)
    where customer_id is not null;
create index push_subscriptions_professional_idx on push_subscriptions (professional_id, created_at)
    where professional_id is not null;

alter table outbox_messages drop constraint outbox_messages_channel_check,
    add constraint outbox_messages_channel_check check (channel in ('email', 'sms', 'push'));
