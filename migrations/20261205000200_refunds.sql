-- Refunds: one row per refund of a captured payment, in full or in part. The amount is
-- split twice, each split in proportion to the payment and so that a payment's refunds add
-- up exactly to its parts once it is all refunded (billing::proportion):
-- - who gives it back: on a hire, the professional's share (the job's taxes included), the
--   platform's fee and the fee's taxes (professional_cents + fee_cents + fee_tax_cents =
--   amount_cents); on a membership or a test charge the platform gives back all of it
--   (fee_cents + fee_tax_cents, the professional's share 0);
-- - what it was: the amount before tax and each of the payment's taxes given back
--   (`taxes`, as payment_taxes rows; tax_cents their sum).
-- A refund is written `pending` (so it counts against what is left while the gateway is
-- asked), then `succeeded` with the gateway's refund id, or `failed` (it no longer counts).
-- One made at Stripe directly (its dashboard) is recorded from the `charge.refunded`
-- webhook, keyed on its Stripe refund id so the platform's own is never counted twice.
create table refunds (
    id uuid primary key,
    payment_id uuid not null references payments (id),
    amount_cents bigint not null check (amount_cents > 0),
    currency text not null check (currency in ('CAD', 'EUR')),
    professional_cents bigint not null check (professional_cents >= 0),
    fee_cents bigint not null check (fee_cents >= 0),
    fee_tax_cents bigint not null check (fee_tax_cents >= 0),
    tax_cents bigint not null check (tax_cents >= 0 and tax_cents <= amount_cents),
    taxes jsonb not null default '[]',
    reason text not null check (reason <> '' and length(reason) <= 500),
    -- The admin who asked; null for a refund made at the gateway and reported by webhook.
    admin_id uuid,
    -- The admin's request_id (their idempotency key); null for a reported one.
    request_id uuid,
    state text not null check (state in ('pending', 'succeeded', 'failed')),
    gateway_refund_id text unique,
    created_at timestamptz not null default now(),
    updated_at timestamptz not null default now(),
    -- When its credit note was emailed to the parties (once).
    told_at timestamptz,
    check (professional_cents + fee_cents + fee_tax_cents = amount_cents),
    unique (admin_id, request_id)
);

create index refunds_payment_idx on refunds (payment_id, created_at);

-- The offline test gateway's refunds: an intent is `refunded` once they add up to its
-- amount; a repeated key answers the first refund.
alter table test_gateway_intents
    add column amount_refunded_cents bigint not null default 0
        check (amount_refunded_cents >= 0 and amount_refunded_cents <= amount_cents);

create table test_gateway_refunds (
    id text primary key,
    idempotency_key text not null unique,
    intent_id text not null references test_gateway_intents (id),
    amount_cents bigint not null check (amount_cents > 0),
    created_at timestamptz not null
);

create trigger refunds_never_deleted before delete or truncate on refunds
    for each statement execute function refuse_ledger_delete();
