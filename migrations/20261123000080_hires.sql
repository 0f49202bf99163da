-- Hires: the order a customer makes by choosing a quote, the payment holding its fee, the
-- pending-payment state of a request whose card waits on 3-D Secure, and the revision that
-- WatchRepairRequest resumes from.

-- A request waits in 'pending_payment' while the cardholder authenticates the hire.
alter table repair_requests drop constraint repair_requests_state_check;
alter table repair_requests add constraint repair_requests_state_check
    check (state in ('open', 'pending_payment', 'hired', 'completed', 'cancelled', 'expired'));

-- One order per payment of a hire. An order is live (closed_at null) from the moment a hire
-- claims its request until its payment fails or a new authorisation replaces a lapsed one;
-- the live order is the one the request stands on. Orders are never deleted once they hold a
-- payment (a claim whose card was declined holds none and is removed).
create table orders (
    id uuid primary key,
    repair_request_id uuid not null references repair_requests (id) on delete restrict,
    quote_id uuid not null references quotes (id) on delete restrict,
    customer_id uuid not null references customers (id) on delete restrict,
    professional_id uuid not null references professionals (id) on delete restrict,
    -- HireProfessional's idempotency key, scoped to the customer.
    request_id uuid not null,
    -- Null while the card is being authorised (the claim), then the hire's payment.
    payment_id uuid unique references payments (id),
    -- The quote's fee at the hire, the amount authorised.
    amount_cents bigint not null check (amount_cents > 0),
    currency text not null check (currency = 'CAD'),
    created_at timestamptz not null,
    -- When the payment was authorised and the request became hired.
    hired_at timestamptz,
    -- When the customer marked the job done.
    completed_at timestamptz,
    -- When the order stopped being the request's live one (payment failed, or replaced).
    closed_at timestamptz,
    -- When the customer and the admins were warned that the hold lapses within a day.
    hold_warned_at timestamptz,
    constraint orders_request_id_key unique (customer_id, request_id),
    constraint orders_completed_after_hire check (completed_at is null or hired_at is not null)
);

-- One live order per request: the key that lets exactly one of two racing hires win.
-- Its name is mapped to REPAIR_REQUEST_NOT_OPEN by the hiring rules.
create unique index orders_one_live_idx on orders (repair_request_id) where closed_at is null;

-- The order lists, newest first: a customer's, a professional's, all.
create index orders_customer_idx on orders (customer_id, created_at desc, id desc);
create index orders_professional_idx on orders (professional_id, created_at desc, id desc);
create index orders_created_at_idx on orders (created_at desc, id desc);
create index orders_quote_idx on orders (quote_id);

-- The hold-expiry sweep: authorised hires by the end of their hold.
create index payments_hire_hold_idx on payments (authorization_expires_at)
    where state = 'authorized' and purpose = 'hire';

-- WatchRepairRequest: a revision that grows with each change of a request or of one of its
-- quotes, in the transaction of the change, announced on channel 'repair_request_changed'
-- (payload "<request id>:<revision>:<quote id or empty>") when that transaction commits.
alter table repair_requests add column revision bigint not null default 1;

create function bump_repair_request_revision() returns trigger
    language plpgsql as $$
begin
    new.revision := old.revision + 1;
    return new;
end;
$$;
create trigger repair_requests_revision before update on repair_requests
    for each row execute function bump_repair_request_revision();

create function announce_repair_request_change() returns trigger
    language plpgsql as $$
begin
    perform pg_notify('repair_request_changed',
        new.id::text || ':' || new.revision::text || ':'
        || coalesce(current_setting('repairs.changed_quote', true), ''));
    return null;
end;
$$;
create trigger repair_requests_announce_change after update on repair_requests
    for each row when (old.revision is distinct from new.revision)
    execute function announce_repair_request_change();

-- A quote's insert or change moves its request's revision, naming the quote for the
-- announcement (a transaction-local setting read by the trigger above).
create function touch_repair_request_of_quote() returns trigger
    language plpgsql as $$
begin
    perform set_config('repairs.changed_quote', new.id::text, true);
    update repair_requests set revision = revision + 1 where id = new.repair_request_id;
    perform set_config('repairs.changed_quote', '', true);
    return null;
end;
$$;
create trigger quotes_touch_request after insert or update on quotes
    for each row execute function touch_repair_request_of_quote();
