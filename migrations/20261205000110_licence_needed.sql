-- A professional who deleted the last licence they were approved with: unfit (not matched,
-- alerted, hired, and their quotes withdrawn) until an admin approves a new one. Null otherwise.
alter table professionals add column licence_needed_since timestamptz;
