-- The register of privacy incidents (PIPEDA's breach records, Quebec's Law 25 register):
-- kept at least 24 months after the incident; the register never forgets one (no delete).
create table privacy_incidents (
    id uuid primary key,
    occurred_at timestamptz not null,
    discovered_at timestamptz not null,
    description text not null check (length(description) between 1 and 4000),
    information_involved text not null check (length(information_involved) between 1 and 2000),
    people_affected integer not null check (people_affected >= 0),
    risk_of_serious_injury boolean not null,
    risk_assessment text not null check (length(risk_assessment) between 1 and 4000),
    measures_taken text not null default '' check (length(measures_taken) <= 4000),
    commissioner_notified_at timestamptz,
    people_notified_at timestamptz,
    recorded_by uuid not null references admins (id),
    recorded_at timestamptz not null default now(),
    updated_at timestamptz not null default now(),
    check (occurred_at <= discovered_at)
);
create index privacy_incidents_newest_idx on privacy_incidents (discovered_at desc, id desc);
