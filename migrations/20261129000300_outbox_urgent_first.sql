-- Urgent pushes first: an emergency's alert (or a hire's) is claimed by the outbox worker
-- before the emails, texts and normal pushes already waiting, so a busy outbox delays what
-- can wait, not what wakes a professional at 2 a.m. (server/src/store/outbox.rs, `claim`).
alter table outbox_messages
    add column urgent boolean generated always as (channel = 'push' and subject = 'high') stored;

drop index outbox_messages_due_idx;
-- What the worker scans: the pending rows, urgent ones first, then soonest first.
create index outbox_messages_due_idx on outbox_messages (urgent desc, next_attempt_at)
    where state = 'pending';
