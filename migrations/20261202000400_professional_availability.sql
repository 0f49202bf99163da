-- A professional's availability apart from their weekly days and hours, set without review
-- (AccountsService.SetProfessionalAvailability, server/src/accounts/availability.rs):
-- `paused_until`, away until then (not matched, not alerted, not escalated to; their open
-- quotes stay live), and `on_call_until`, alerted of emergencies outside their hours until
-- then. The matching rule compares both with the instant it runs at, so either ends on time
-- by itself; the housekeeping pass clears the ended ones (the partial indexes keep that pass
-- to the few rows that have one). At most one of the two at a time.
alter table professionals
    add column paused_until timestamptz,
    add column on_call_until timestamptz,
    add constraint professionals_pause_or_on_call
        check (paused_until is null or on_call_until is null);
create index professionals_paused_until_idx on professionals (paused_until)
    where paused_until is not null;
create index professionals_on_call_until_idx on professionals (on_call_until)
    where on_call_until is not null;
