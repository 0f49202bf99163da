-- What a hire's payment came to, as its customer and professional were told: one row per
-- payment and outcome (held, charged, refunded, released), written in the transaction that
-- writes the emails. Whatever brings an order in line with its payment (the hire, the
-- completion, an admin's step, Stripe's webhook, the housekeeping) may tell it; the key lets
-- one of them tell it, once: a replayed event, a retried call or a second server process
-- finds the row and sends nothing. Kept like the payments (the outbox's own dedupe keys go
-- with its sent messages after OUTBOX_KEEP_DAYS).
create table hire_receipts (
    payment_id uuid not null references payments (id),
    outcome text not null check (outcome in ('held', 'charged', 'refunded', 'released')),
    created_at timestamptz not null default now(),
    primary key (payment_id, outcome)
);

-- Hires whose payments moved before receipts were sent are not told of it now, late: their
-- outcome so far counts as told (the housekeeping tells only what is untold). The mapping is
-- the one of server/src/hiring/notice.rs (`PaymentOutcome::of`) as it stands today.
insert into hire_receipts (payment_id, outcome)
select p.id, case p.state when 'authorized' then 'held'
                          when 'captured' then 'charged'
                          when 'refunded' then 'refunded'
                          else 'released' end
from orders o
join payments p on p.id = o.payment_id
where o.hired_at is not null
  and p.state in ('authorized', 'captured', 'refunded', 'canceled', 'expired');
