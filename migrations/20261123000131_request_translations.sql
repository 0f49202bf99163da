-- The language a repair request's description is written in (its customer's when placed),
-- and, when a translation provider is configured, its machine translation into the other
-- language for professionals who read that one. Translations are made by a background pass
-- after the request is written (a row here is due in the transaction that places or edits
-- the description), so reading a request never calls the provider.
alter table repair_requests add column description_language text not null default 'en'
    check (description_language in ('en', 'fr'));
update repair_requests r set description_language = c.language
    from customers c where c.id = r.customer_id;

create table repair_request_translations (
    repair_request_id uuid primary key references repair_requests (id) on delete cascade,
    target_language text not null check (target_language in ('en', 'fr')),
    -- Null until made; cleared when the description changes.
    translation text check (length(translation) <= 20000),
    -- Tries so far of the current description.
    attempts integer not null default 0,
    -- When the pass should (re)try; also the lease of the pass translating it now. Null once
    -- translated, or given up after the last try.
    due_at timestamptz,
    last_error text,
    updated_at timestamptz not null default now()
);
create trigger repair_request_translations_updated_at before update on repair_request_translations
    for each row execute function set_updated_at();
create index repair_request_translations_due_idx on repair_request_translations (due_at)
    where due_at is not null;
