-- Payments: the ledger of every payment and every attempt to move money, and the state of
-- the offline test gateway. Nothing in the ledger is ever deleted.

create function refuse_ledger_delete() returns trigger language plpgsql as $$
begin
    raise exception 'rows of % are never deleted', tg_table_name;
end
$$;

-- One amount on one card for one purpose. `state` changes only by the transitions of
-- BillingService (see billing.proto).
create table payments (
    id uuid primary key,
    purpose text not null check (purpose in ('hire', 'membership', 'test_charge')),
    payer_id uuid not null,
    amount_cents bigint not null check (amount_cents >= 0),
    currency text not null check (currency in ('CAD', 'EUR')),
    gateway text not null check (gateway in ('test', 'stripe')),
    -- The gateway's PaymentIntent id: the legacy charge_id.
    charge_id text not null unique,
    state text not null check (state in (
        'requires_action', 'authorized', 'captured', 'canceled', 'expired', 'failed', 'refunded'
    )),
    client_secret text,
    failure_code text,
    authorization_expires_at timestamptz,
    captured_at timestamptz,
    created_at timestamptz not null default now(),
    updated_at timestamptz not null default now()
);

create index payments_payer on payments (payer_id, created_at desc);

-- Every call that moved or tried to move money, keyed by the caller's request_id.
-- `fingerprint` is a hash of the operation and its payload: the same key with another
-- payload is refused. An attempt is 'running' from before the gateway call until its
-- answer is recorded.
create table payment_attempts (
    id uuid primary key,
    actor_id uuid not null,
    request_id uuid not null,
    operation text not null check (operation in ('authorize', 'charge', 'capture', 'void', 'refund')),
    fingerprint bytea not null,
    amount_cents bigint check (amount_cents >= 0),
    currency text check (currency in ('CAD', 'EUR')),
    gateway text not null check (gateway in ('test', 'stripe')),
    payment_id uuid references payments (id),
    charge_id text,
    outcome text not null default 'running' check (outcome in ('running', 'succeeded', 'refused')),
    -- The payment's state after a succeeded attempt; the refusal's code and message after a
    -- refused one (a decline, a wrong state).
    state_after text,
    error_code text,
    error_message text,
    started_at timestamptz not null default now(),
    finished_at timestamptz,
    unique (actor_id, request_id)
);

create index payment_attempts_payment on payment_attempts (payment_id);

create trigger payments_never_deleted before delete or truncate on payments
    for each statement execute function refuse_ledger_delete();
create trigger payment_attempts_never_deleted before delete or truncate on payment_attempts
    for each statement execute function refuse_ledger_delete();

-- The offline test gateway's PaymentIntents, so a restart loses nothing. Times come from
-- the gateway's clock (injectable in tests), not from now().
create table test_gateway_intents (
    id text primary key,
    -- Stripe's Idempotency-Key of the create call.
    idempotency_key text not null unique,
    amount_cents bigint not null check (amount_cents > 0),
    currency text not null check (currency in ('CAD', 'EUR')),
    capture_method text not null check (capture_method in ('automatic', 'manual')),
    -- The token or pm_card_* id, or the last four digits of a test card number.
    payment_method text not null,
    status text not null check (status in (
        'requires_action', 'requires_capture', 'succeeded', 'canceled', 'failed', 'refunded'
    )),
    cancellation_reason text check (cancellation_reason in ('requested_by_customer', 'expired')),
    decline_code text,
    client_secret text not null,
    hold_expires_at timestamptz,
    created_at timestamptz not null,
    updated_at timestamptz not null
);

-- Keys of the test gateway's capture, void and refund calls: a repeated key answers the
-- intent without doing the step again, as Stripe does.
create table test_gateway_steps (
    idempotency_key text primary key,
    intent_id text not null references test_gateway_intents (id),
    step text not null check (step in ('capture', 'void', 'refund')),
    created_at timestamptz not null
);
