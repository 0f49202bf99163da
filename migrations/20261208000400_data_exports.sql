-- A copy of one person's data (Law 25's portability, PIPEDA's access): asked for by the
-- person or by an admin for someone who asked by other means, prepared off the request path
-- into one archive in the object storage, downloadable for 7 days, then its file is deleted
-- (the row stays as the record that it was given).
create table data_exports (
    id uuid primary key,
    account_kind text not null check (account_kind in ('customer', 'professional')),
    account_id uuid not null,
    -- The admin who asked for it; null when the person did.
    requested_by_admin uuid references admins (id),
    state text not null default 'preparing'
        check (state in ('preparing', 'ready', 'failed', 'expired')),
    requested_at timestamptz not null default now(),
    -- While a worker builds it; another may take it over once this has passed.
    lease_until timestamptz,
    attempts integer not null default 0,
    ready_at timestamptz,
    expires_at timestamptz,
    file_key text,
    size_bytes bigint,
    check ((state = 'ready') = (file_key is not null))
);
-- One export at a time per person.
create unique index data_exports_one_at_a_time on data_exports (account_kind, account_id)
    where state = 'preparing';
create index data_exports_of_account_idx on data_exports (account_kind, account_id, requested_at desc);
create index data_exports_preparing_idx on data_exports (requested_at) where state = 'preparing';
create index data_exports_expiring_idx on data_exports (expires_at) where state = 'ready';
