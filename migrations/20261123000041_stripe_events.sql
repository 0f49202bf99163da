-- Stripe webhook events, applied once each: a redelivered event id is acknowledged and not
-- applied again. Kept, like the ledger, as a record of what Stripe reported.
create table stripe_events (
    id text primary key,
    type text not null,
    -- The PaymentIntent the event is about, when it is about one.
    charge_id text,
    received_at timestamptz not null default now()
);

create trigger stripe_events_never_deleted before delete or truncate on stripe_events
    for each statement execute function refuse_ledger_delete();
