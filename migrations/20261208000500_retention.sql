-- Retention: the photos and messages of requests closed more than RETENTION_REQUEST_MONTHS
-- ago are erased by the housekeeping pass (`crate::retention`); the request keeps its row
-- (the books and the reviews name it) and this marks it done, so the pass never reads it again.
alter table repair_requests add column content_erased_at timestamptz;

-- The pass's two ways to find what is due: cancelled or expired requests by when they closed,
-- completed ones by when their order was marked done.
create index repair_requests_retention_idx on repair_requests (closed_at)
    where content_erased_at is null and state in ('cancelled', 'expired');
create index orders_completed_at_idx on orders (completed_at) where completed_at is not null;
