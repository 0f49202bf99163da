-- Email verification and social sign-in linked by the provider's subject.

-- When the account's email was proven: by the emailed link, a provider that vouches for it
-- (Google, Facebook), or a password reset (which needs the inbox). Null: not proven.
alter table customers add column email_verified_at timestamptz;
alter table professionals add column email_verified_at timestamptz;
-- Accounts without a password were all made by a social sign-in, whose provider proved the
-- email.
update customers set email_verified_at = created_at where password_hash is null;
update professionals set email_verified_at = created_at where password_hash is null;

-- Single-use verification links; only a hash of the token is kept, with the address it
-- proves (a link for an address the account no longer has proves nothing).
create table email_verifications (
    token_hash bytea primary key,
    role text not null check (role in ('customer', 'professional')),
    account_id uuid not null,
    email citext not null,
    expires_at timestamptz not null,
    created_at timestamptz not null default now()
);
create index email_verifications_expires_idx on email_verifications (expires_at);

-- Google or Facebook identities linked to accounts: a sign-in finds its account by the
-- provider's stable subject, never by email.
create table social_identities (
    provider text not null check (provider in ('google', 'facebook')),
    subject text not null check (length(subject) between 1 and 255),
    role text not null check (role in ('customer', 'professional')),
    customer_id uuid references customers (id) on delete cascade,
    professional_id uuid references professionals (id) on delete cascade,
    created_at timestamptz not null default now(),
    constraint social_identities_one_account check (
        (role = 'customer' and customer_id is not null and professional_id is null)
        or (role = 'professional' and professional_id is not null and customer_id is null)),
    constraint social_identities_subject_key unique (provider, subject, role)
);
create index social_identities_customer_idx on social_identities (customer_id);
create index social_identities_professional_idx on social_identities (professional_id);
