-- Admins find customers by part of a name, email or phone (`ilike '%...%'`): a trigram
-- index per column serves those searches (case-insensitively) once the text has three
-- characters; the audit log is read per record as well as by time.

create extension if not exists pg_trgm;

create index customers_name_trgm_idx on customers using gin (name gin_trgm_ops);
create index customers_email_trgm_idx on customers using gin ((email::text) gin_trgm_ops);
create index customers_phone_trgm_idx on customers using gin (phone gin_trgm_ops);

create index audit_events_target_idx
    on audit_events (target_type, target_id, created_at desc, id desc);
