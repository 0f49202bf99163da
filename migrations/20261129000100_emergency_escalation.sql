-- Escalation: an emergency nobody quoted on within EMERGENCY_ESCALATE_AFTER is announced to
-- the next ring (server/src/requests/escalation.rs). `escalated_at` marks a request whose
-- next ring was told, claimed once whatever the number of server processes; the partial
-- index holds only the emergencies still waiting for it, so the periodic sweep reads few rows.
alter table repair_requests add column escalated_at timestamptz;
create index repair_requests_to_escalate_idx on repair_requests (created_at)
    where state = 'open' and urgency = 'immediate' and escalated_at is null;

-- A professional's choice to be told of emergencies outside their days and hours, when
-- nobody answered in time.
alter table professionals add column emergencies_any_hour boolean not null default false;
