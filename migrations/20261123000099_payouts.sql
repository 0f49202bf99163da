-- Payouts: what each professional is owed is derived from their captured hire payments
-- (an authorised hold owes nothing; a refund shows as reversed), so there is no second copy
-- of the capture to keep in line. This table records only what was paid out, once per order.

-- The platform's fee on a captured amount at `percent` (0 to 100), rounded down to the cent:
-- any fraction of a cent goes to the professional. The one place this rule lives.
create function payout_fee(gross_cents bigint, percent integer) returns bigint
    language sql immutable strict
    return gross_cents * percent / 100;

-- A professional's Stripe Connect Express account, created once on their first onboarding.
create table payout_accounts (
    professional_id uuid primary key references professionals (id) on delete restrict,
    stripe_account_id text not null unique,
    created_at timestamptz not null default now()
);

-- One transfer of one captured order to its professional; the fee as it was then.
create table payouts (
    id uuid primary key,
    order_id uuid not null unique references orders (id) on delete restrict,
    professional_id uuid not null references professionals (id) on delete restrict,
    gross_cents bigint not null check (gross_cents > 0),
    fee_cents bigint not null check (fee_cents >= 0 and fee_cents <= gross_cents),
    currency text not null check (currency = 'CAD'),
    transfer_id text unique,
    paid_at timestamptz not null
);

create index payouts_professional_idx on payouts (professional_id);

-- A professional's captured hires, newest capture first (the ledger's pages).
create index payments_captured_hire_idx on payments (captured_at desc, id desc)
    where purpose = 'hire' and captured_at is not null;
