-- Admin actions that call an outside service (capture, void and refund of a payment) are
-- written before the call, pending, and settled after it with what came of it, so an action
-- cut short mid-way still shows. Entries of actions done in one transaction are succeeded.
alter table audit_events
    add column outcome text not null default 'succeeded'
        constraint audit_events_outcome_check check (outcome in ('pending', 'succeeded', 'failed')),
    -- Why a failed action failed, as the admin was told (reason code and message).
    add column failure text not null default ''
        constraint audit_events_failure_check check (length(failure) <= 1000),
    -- The admin's request_id of a pending-then-settled action: a retry finds its entry.
    add column request_id uuid;
create unique index audit_events_request_idx on audit_events (admin_id, request_id)
    where request_id is not null;
