-- One event's messages are written together and fall due at the same moment; the worker
-- claims them in the order they were written (their time-ordered ids), which puts an
-- emergency's nearest professionals' devices first (server/src/store/outbox.rs, `claim`).
drop index outbox_messages_due_idx;
create index outbox_messages_due_idx on outbox_messages (urgent desc, next_attempt_at, id)
    where state = 'pending';
