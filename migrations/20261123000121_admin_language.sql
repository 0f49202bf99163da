-- The language an admin reads the product's emails in (the hold-lapsing warning, ...), as
-- customers and professionals have one. Chosen when the admin is created (ADMIN_LANGUAGE,
-- `create-admin --language`).
alter table admins add column language text not null default 'en'
    constraint admins_language_check check (language in ('en', 'fr'));
