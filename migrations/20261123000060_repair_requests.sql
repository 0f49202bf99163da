-- Repair requests and the notifications of the professionals they matched. The indexes of
-- the matching rule (earthdistance on the request's point) are in the next migration.

create table repair_requests (
    id uuid primary key,
    customer_id uuid not null references customers (id) on delete cascade,
    -- CreateRepairRequest's idempotency key, scoped to the customer, and a hash of the draft
    -- it carried (the same key with another draft is refused).
    request_id uuid not null,
    request_hash bytea not null check (length(request_hash) = 32),
    service_id uuid not null references services (id) on delete restrict,
    urgency text not null check (urgency in ('immediate', 'can_wait')),
    description text not null check (length(description) between 1 and 5000),
    line1 text not null check (length(line1) between 1 and 200),
    line2 text not null default '' check (length(line2) <= 200),
    city text not null check (length(city) between 1 and 100),
    province text not null check (province ~ '^[A-Z]{2}$'),
    -- "A1A 1A1", or empty when the customer gave none (then the city placed it).
    postal_code text not null check (postal_code = '' or postal_code ~ '^[A-Z][0-9][A-Z] [0-9][A-Z][0-9]$'),
    -- Where the gazetteer placed the address, and from what: the full postal code, its
    -- first three characters, or the city in its province.
    latitude double precision not null check (latitude between -90 and 90),
    longitude double precision not null check (longitude between -180 and 180),
    placed_by text not null check (placed_by in ('postal_code', 'postal_area', 'city')),
    -- IANA zone of the place, from the gazetteer; empty when unknown.
    time_zone text not null default '',
    state text not null default 'open'
        check (state in ('open', 'hired', 'completed', 'cancelled', 'expired')),
    -- The quote hired (applications come with the next issue).
    hired_application_id uuid,
    -- An open request expires then: 72 hours after placing for an emergency, 30 days otherwise.
    expires_at timestamptz not null,
    created_at timestamptz not null default now(),
    updated_at timestamptz not null default now(),
    -- When it was cancelled or expired.
    closed_at timestamptz,
    constraint repair_requests_request_id_key unique (customer_id, request_id),
    constraint repair_requests_closed_has_time
        check ((state in ('cancelled', 'expired')) = (closed_at is not null))
);
create trigger repair_requests_updated_at before update on repair_requests
    for each row execute function set_updated_at();
-- A customer's lists, newest first.
create index repair_requests_customer_idx on repair_requests (customer_id, created_at desc, id desc);
-- The admin's list, newest first, whole or by state or service.
create index repair_requests_created_at_idx on repair_requests (created_at desc, id desc);
create index repair_requests_state_idx on repair_requests (state, created_at desc, id desc);
create index repair_requests_service_idx on repair_requests (service_id, created_at desc, id desc);
-- The expiry sweep.
create index repair_requests_expiry_idx on repair_requests (expires_at) where state = 'open';

-- One row per request, professional and channel told of it: the key that keeps two server
-- processes (or a retried create) from telling anyone twice.
create table request_notifications (
    repair_request_id uuid not null references repair_requests (id) on delete cascade,
    professional_id uuid not null references professionals (id) on delete cascade,
    channel text not null check (channel in ('email', 'sms')),
    -- The outbox message carrying it; null once the outbox purged the sent message.
    outbox_message_id uuid references outbox_messages (id) on delete set null,
    -- Great-circle distance from the professional's home base when they were matched.
    distance_m integer not null check (distance_m >= 0),
    created_at timestamptz not null default now(),
    primary key (repair_request_id, professional_id, channel)
);
create index request_notifications_professional_idx on request_notifications (professional_id);
create index request_notifications_outbox_idx on request_notifications (outbox_message_id);
