-- A change of what an admin vetted, proposed by an approved professional, kept beside the
-- approved profile until an admin approves or refuses it (server/src/accounts/vetting.rs):
-- the professional stays approved for what was approved, matching and hiring read the
-- approved values in `professionals` and `professional_services`, and their quotes stay live.
--
-- One row per professional with a change waiting. Its proposed legal name, registered
-- address, qualification, experience and services are all set, or all null when only
-- licences wait (`licences.awaiting_review`). `revision` counts the professional's edits of
-- it, so an admin's decision names the one they read. Services are kept as ids: one deleted
-- from the catalogue meanwhile is left out when the change is applied.
--
-- Professionals who are not approved keep editing their profile as before (their edits go
-- to review with the whole profile), so nothing of today's states moves: no row is written
-- here for anyone, and every licence already uploaded counts as vetted.
create table professional_pending_changes (
    professional_id uuid primary key references professionals (id) on delete cascade,
    name text check (length(name) between 1 and 100),
    registered_address text,
    qualification text,
    experience text check (experience in ('<5', '5', '5-10', '10-15', '15-20', '>20')),
    service_ids uuid[],
    revision integer not null default 1,
    created_at timestamptz not null default now(),
    updated_at timestamptz not null default now(),
    constraint professional_pending_changes_whole check (
        (name is null) = (registered_address is null)
        and (name is null) = (qualification is null)
        and (name is null) = (experience is null)
        and (name is null) = (service_ids is null))
);
create trigger professional_pending_changes_updated_at before update
    on professional_pending_changes for each row execute function set_updated_at();

-- A licence uploaded by an approved professional waits for an admin with their pending
-- change; every other licence (those already uploaded, and those of a profile under review,
-- which are reviewed with it) is part of the profile as vetted.
alter table licences add column awaiting_review boolean not null default false;
