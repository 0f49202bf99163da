-- Sessions that last: every sign-in opens a family of refresh tokens, each spent once for the
-- next (server/src/accounts/renewal.rs). Only SHA-256 hashes of the tokens are kept, so a
-- leaked table renews nothing.

create table session_families (
    id uuid primary key,
    role text not null check (role in ('customer', 'professional', 'admin')),
    account_id uuid not null,
    -- The account's token version at the sign-in: a refresh after it moved on (a password
    -- reset, a denial, a deletion) is refused, as the access tokens are.
    token_version integer not null,
    created_at timestamptz not null default now(),
    -- The end of the sign-in whatever happens: 30 days for customers and professionals, the
    -- admin session's lifetime for admins.
    expires_at timestamptz not null,
    -- Ended early: signed out, or one of its tokens was sent twice.
    ended_at timestamptz,
    end_reason text check (end_reason in ('signed_out', 'reused')),
    check ((ended_at is null) = (end_reason is null))
);

-- The housekeeping pass deletes families long past their end.
create index session_families_expires_idx on session_families (expires_at);

create table refresh_tokens (
    token_hash bytea primary key check (octet_length(token_hash) = 32),
    family_id uuid not null references session_families (id) on delete cascade,
    issued_at timestamptz not null default now(),
    -- Set when the token is traded for the next one; a second use ends the family.
    used_at timestamptz
);

create index refresh_tokens_family_idx on refresh_tokens (family_id);
