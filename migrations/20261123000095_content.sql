-- Page texts edited by admins, per page and language. A field without a row shows its
-- built-in default; each (page, language) has a version that is its etag, bumped by every
-- change, so a stale editor is refused instead of overwriting.
create table page_versions (
    page text not null check (page in ('home', 'professional')),
    language text not null check (language in ('en', 'fr')),
    version bigint not null default 0,
    updated_at timestamptz not null default now(),
    primary key (page, language)
);

create table page_texts (
    page text not null,
    language text not null,
    field text not null,
    value text not null check (value <> ''),
    primary key (page, language, field),
    foreign key (page, language) references page_versions (page, language) on delete cascade
);

-- What an admin action changed: the record's fields before and after.
alter table audit_events add column before_json jsonb, add column after_json jsonb;
