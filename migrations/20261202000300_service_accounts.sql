-- Service accounts: credentials of internal callers (a support tool, a reporting job, a
-- partner integration), each with a set of scopes, used as `authorization: Bearer <key>`.

create table service_accounts (
    id uuid primary key,
    name text not null check (length(name) between 1 and 100),
    -- The closed set the server knows (`auth::service::Scope`); checked there and here.
    scopes text[] not null check (
        cardinality(scopes) between 1 and 4
        and scopes <@ array['orders.read', 'requests.read', 'content.write', 'audit.read']
    ),
    created_by uuid references admins (id) on delete set null,
    created_at timestamptz not null default now(),
    revoked_at timestamptz,
    revoked_by uuid references admins (id) on delete set null
);
create index service_accounts_created_idx on service_accounts (created_at desc, id desc);

-- A key is `rsk_<key id>_<secret>`; only the SHA-256 of its secret is kept (the secret is 32
-- random bytes, so a fast hash is as safe as a slow one here and costs nothing per call).
-- The current key has no `expires_at`; a rotation gives the keys it replaces one (the end of
-- their grace period) and adds a new key.
create table service_account_keys (
    id uuid primary key,
    service_account_id uuid not null references service_accounts (id) on delete cascade,
    secret_sha256 bytea not null check (length(secret_sha256) = 32),
    created_at timestamptz not null default now(),
    expires_at timestamptz,
    -- Written at most once a minute per key (`auth::service`), so a busy service costs no
    -- write per call.
    last_used_at timestamptz
);
create index service_account_keys_account_idx
    on service_account_keys (service_account_id, created_at desc);
-- One current key per account.
create unique index service_account_keys_current_idx
    on service_account_keys (service_account_id) where expires_at is null;

-- What a service account did (content edits) is audited under it, not under an admin.
alter table audit_events
    add column service_account_id uuid references service_accounts (id) on delete set null;
