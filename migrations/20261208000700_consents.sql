-- Consents as records: what a person agreed to (the terms, text alerts) or withdrew, the
-- version of the words they were shown, when, and from where (how, and the client's
-- address). Appended, never changed; erased with the account.
create table consents (
    id uuid primary key,
    account_kind text not null check (account_kind in ('customer', 'professional')),
    account_id uuid not null,
    subject text not null check (subject in ('terms', 'sms_alerts')),
    version text not null check (length(version) between 1 and 100),
    given boolean not null,
    source text not null
        check (source in ('sign_up', 'social_sign_up', 'notification_preferences')),
    client_address inet,
    created_at timestamptz not null default now()
);
create index consents_account_idx on consents (account_kind, account_id, created_at);
