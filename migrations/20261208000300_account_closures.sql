-- Accounts their person closed: closed at once (no sign-in, no alerts, no matching), erased
-- after a grace period unless the emailed link keeps them. The row stays after the erasure
-- (`erased_at`), naming no one but the account's id: a professional whose payments the books
-- keep is anonymised rather than deleted, and this row keeps them out of matching for good.
create table account_closures (
    account_kind text not null check (account_kind in ('customer', 'professional')),
    account_id uuid not null,
    requested_at timestamptz not null default now(),
    erase_after timestamptz not null,
    -- HMAC of the token of the link that keeps the account (the token itself is only mailed).
    keep_token_hash bytea not null,
    erased_at timestamptz,
    primary key (account_kind, account_id)
);
-- The housekeeping pass's scan: closures whose grace has run out and that are not erased.
create index account_closures_due_idx on account_closures (erase_after) where erased_at is null;
