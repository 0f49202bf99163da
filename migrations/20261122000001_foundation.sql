-- Foundation: extensions, the updated_at helper, administrators and their audit log.

create extension if not exists citext;
create extension if not exists cube;
create extension if not exists earthdistance;

-- Keeps updated_at current on every update of a table that calls it.
create or replace function set_updated_at() returns trigger as $$
begin
    new.updated_at = now();
    return new;
end;
$$ language plpgsql;

create table admins (
    id uuid primary key,
    email citext not null constraint admins_email_key unique,
    name text not null check (length(name) between 1 and 100),
    password_hash text not null,
    created_at timestamptz not null default now(),
    updated_at timestamptz not null default now()
);
create trigger admins_updated_at before update on admins
    for each row execute function set_updated_at();

-- Every admin action (approve, deny, delete, capture, content edits): who, what, when, why.
create table audit_events (
    id uuid primary key,
    admin_id uuid references admins (id) on delete set null,
    action text not null,
    target_type text not null,
    target_id text not null,
    reason text not null default '',
    created_at timestamptz not null default now()
);
create index audit_events_created_at_idx on audit_events (created_at desc, id desc);
