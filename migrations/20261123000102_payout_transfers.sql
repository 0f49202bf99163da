-- Payouts that are sent. With Stripe the housekeeping transfers each owed entry; a transfer
-- that failed keeps its row here unpaid, with its attempts and when to try again, so it is
-- retried and shown to admins, never lost. In test mode an admin records a payout made by
-- hand (a bank transfer, a cheque): one row per order, tied to the admin's record.

-- What an admin recorded as paid by hand, once per request_id of theirs.
create table manual_payouts (
    id uuid primary key,
    admin_id uuid not null references admins (id) on delete restrict,
    request_id uuid not null,
    professional_id uuid not null references professionals (id) on delete restrict,
    -- The orders paid, sorted: with the note, what a retry of the request_id must repeat.
    order_ids uuid[] not null check (cardinality(order_ids) between 1 and 100),
    note text not null check (length(note) between 1 and 500),
    created_at timestamptz not null default now(),
    unique (admin_id, request_id)
);

-- A row is paid (paid_at set), or a transfer that failed and waits for next_attempt_at.
alter table payouts alter column paid_at drop not null;
alter table payouts
    add column attempts integer not null default 0 check (attempts >= 0),
    add column next_attempt_at timestamptz,
    add column last_error text check (length(last_error) <= 500),
    add column manual_payout_id uuid references manual_payouts (id) on delete restrict,
    add constraint payouts_paid_or_retried check (paid_at is not null or next_attempt_at is not null);

-- The transfers to retry, soonest first.
create index payouts_retry_idx on payouts (next_attempt_at) where paid_at is null;
