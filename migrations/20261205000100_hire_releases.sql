-- When a hire goes wrong: the hired professional cannot come, or the customer says they did
-- not. The request goes back to its quotes rather than back to the start.

-- A released quote is final, and its professional may not quote on the request again.
alter table quotes drop constraint quotes_state_check,
    add constraint quotes_state_check
        check (state in ('submitted', 'hired', 'not_selected', 'withdrawn', 'released'));

-- The order whose hire set a SUBMITTED quote aside (NOT_SELECTED): a release of that hire
-- brings exactly those quotes back, not those lost to a cancel or an expiry.
alter table quotes add column set_aside_by uuid references orders (id) on delete restrict;

-- One release per hire (order). Written, under the request's lock, before the card hold is
-- released; finished in the transaction that reopens the request. A row left unfinished (the
-- server stopped between the two) is finished by the housekeeping pass, so no hold and no
-- half-released hire outlives a killed process.
create table hire_releases (
    id uuid primary key,
    order_id uuid not null unique references orders (id) on delete restrict,
    repair_request_id uuid not null references repair_requests (id) on delete restrict,
    quote_id uuid not null references quotes (id) on delete restrict,
    professional_id uuid not null references professionals (id) on delete restrict,
    -- Who released: the hired professional ("I can't make it") or the customer ("they didn't
    -- come").
    released_by text not null check (released_by in ('professional', 'customer')),
    actor_id uuid not null,
    -- ReleaseHire's idempotency key, scoped to the actor.
    request_id uuid not null,
    reason text not null check (char_length(reason) between 1 and 500),
    started_at timestamptz not null,
    finished_at timestamptz
);

-- A professional's released hires of the last 30 days, whoever released them (the pause
-- after three).
create index hire_releases_professional_idx on hire_releases (professional_id, started_at);
-- A retried ReleaseHire finds its release by the actor's key.
create index hire_releases_key_idx on hire_releases (actor_id, request_id);
-- The housekeeping pass's unfinished releases.
create index hire_releases_unfinished_idx on hire_releases (started_at) where finished_at is null;
