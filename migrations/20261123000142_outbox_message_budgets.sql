-- What a queued text spent of the budgets (`server/src/budgets.rs`), written with it: when
-- it ends unsent (the provider refused it, every try failed, or it expired), the outbox
-- worker gives it back, in the window it was counted in. Rows of finished messages are
-- deleted by that same pass, so the table holds only what is still being sent.
create table outbox_message_budgets (
    outbox_message_id uuid not null references outbox_messages (id) on delete cascade,
    key text not null,
    amount bigint not null check (amount > 0),
    expires_at timestamptz not null,
    primary key (outbox_message_id, key)
);
