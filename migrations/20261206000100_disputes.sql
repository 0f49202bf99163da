-- Card disputes (chargebacks): one row per gateway dispute, written from Stripe's
-- charge.dispute.* events (or the offline test gateway's, which plays them). While one is
-- open its payment is `disputed` (no refund, and the professional's payout for the job is
-- held); won, the payment is `captured` again; lost, `charged_back` (nothing is owed to the
-- professional for it).
alter table payments drop constraint payments_state_check,
    add constraint payments_state_check check (state in (
        'requires_action', 'authorized', 'captured', 'canceled', 'expired', 'failed', 'refunded',
        'disputed', 'charged_back'
    ));

create table disputes (
    id uuid primary key,
    payment_id uuid not null references payments (id),
    gateway_dispute_id text not null unique check (length(gateway_dispute_id) <= 255),
    amount_cents bigint not null check (amount_cents >= 0),
    currency text not null check (currency in ('CAD', 'EUR')),
    reason text not null check (length(reason) <= 100),
    state text not null check (state in ('needs_response', 'under_review', 'won', 'lost')),
    evidence_due_at timestamptz,
    -- The evidence as sent (json of the contract's DisputeEvidence fields), who sent it and
    -- under which request_id (a retry answers the first submission).
    evidence jsonb,
    evidence_submitted_at timestamptz,
    submitted_by uuid,
    submit_request_id uuid,
    created_at timestamptz not null default now(),
    updated_at timestamptz not null default now()
);

create index disputes_newest on disputes (created_at desc, id desc);
create index disputes_payment on disputes (payment_id);

create trigger disputes_never_deleted before delete or truncate on disputes
    for each statement execute function refuse_ledger_delete();

-- The offline test gateway plays Stripe's dispute test card (4000 0000 0000 0259,
-- tok_createDispute, pm_card_createDispute): charged, the charge is disputed. Its disputes
-- wait here until the housekeeping hands their events to the same code as Stripe's webhook.
alter table test_gateway_intents
    add column disputes_on_capture boolean not null default false;

create table test_gateway_disputes (
    id text primary key,
    intent_id text not null references test_gateway_intents (id),
    amount_cents bigint not null check (amount_cents > 0),
    currency text not null,
    status text not null check (status in ('needs_response', 'under_review', 'won', 'lost')),
    evidence_due_at timestamptz not null,
    -- An event not yet handed to the platform: set when the dispute changes, cleared once
    -- the platform applied it.
    undelivered boolean not null default true,
    -- The key its evidence was submitted under (a repeated key answers the dispute).
    submit_key text,
    created_at timestamptz not null
);

create index test_gateway_disputes_undelivered on test_gateway_disputes (created_at)
    where undelivered;
