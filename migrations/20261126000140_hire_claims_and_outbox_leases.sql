-- A hire's claim keeps the card reference it was made with (a gateway reference or a test
-- card, never another card number), so a hire cut short by a crash can be resumed under
-- its own key instead of leaving a hold behind (see server/src/hiring/reconcile.rs).
alter table orders add column payment_method text;

-- The housekeeping pass looks for claims whose hire never finished.
create index orders_unfinished_claims_idx on orders (created_at)
    where payment_id is null and closed_at is null;

-- A message a worker is sending is leased until then: a cancel drops only the notifications
-- no worker has claimed, so what was sent is never marked unsent.
alter table outbox_messages add column leased_until timestamptz;
