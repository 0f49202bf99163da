-- Quotes professionals send on repair requests (the legacy "applications"). A quote is
-- never deleted: its state records how it ended, so the professional's lists show lost and
-- withdrawn quotes too.
create table quotes (
    id uuid primary key,
    repair_request_id uuid not null references repair_requests (id) on delete cascade,
    professional_id uuid not null references professionals (id) on delete cascade,
    -- The form asks for hours; kept in minutes, up to 30 days.
    estimated_minutes integer not null check (estimated_minutes between 1 and 43200),
    fee_cents bigint not null check (fee_cents > 0 and fee_cents <= 100000000),
    currency text not null default 'CAD' check (currency = 'CAD'),
    -- The spec's "Surge Cost": the fee may be below the professional's minimum fee.
    surge boolean not null default false,
    state text not null default 'submitted'
        check (state in ('submitted', 'hired', 'not_selected', 'withdrawn')),
    created_at timestamptz not null,
    updated_at timestamptz not null
);

-- One live quote per professional and request; a withdrawn or lost one leaves room for none
-- or another. Its name is mapped to ALREADY_EXISTS (QUOTE_EXISTS) in server/src/error.rs.
create unique index quotes_one_live_idx on quotes (repair_request_id, professional_id)
    where state in ('submitted', 'hired');

-- A request's quotes, oldest first.
create index quotes_request_idx on quotes (repair_request_id, created_at, id);

-- A professional's quotes, newest first.
create index quotes_professional_idx on quotes (professional_id, created_at desc, id desc);
