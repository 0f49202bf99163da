-- Counters of the hourly budgets and the sign-in limit (`server/src/budgets.rs`), kept here
-- rather than in Redis so that every server replica shares them and they hold while Redis
-- is down or restarts empty. A window starts at a key's first count and lasts its own
-- length (`expires_at`); a count after that starts the next window. Windows that ended are
-- deleted by the housekeeping pass.
create table limit_counters (
    key text primary key check (length(key) between 1 and 200),
    n bigint not null check (n >= 0),
    expires_at timestamptz not null
)
-- Counting updates the same few rows over and over: room on each page lets Postgres update
-- them in place (no index covers `n` or `expires_at`, so the purge reads the small table).
with (fillfactor = 70);
