-- Reviews: a customer's rating of the professional hired on a request, once per request,
-- after the job was completed and its payment captured (checked by the rules before the
-- insert). Never edited.
create table reviews (
    id uuid primary key,
    repair_request_id uuid not null references repair_requests (id) on delete cascade,
    order_id uuid not null references orders (id) on delete restrict,
    customer_id uuid not null references customers (id) on delete cascade,
    professional_id uuid not null references professionals (id) on delete cascade,
    rating smallint not null check (rating between 1 and 5),
    body text not null default '' check (char_length(body) <= 2000),
    created_at timestamptz not null,
    -- One review per request, whatever the number of concurrent calls. Its name is mapped
    -- to ALREADY_EXISTS (REVIEW_EXISTS) in server/src/error.rs.
    constraint reviews_one_per_request unique (repair_request_id)
);

-- A professional's reviews, newest first, and their average and count.
create index reviews_professional_idx on reviews (professional_id, created_at desc, id desc)
    include (rating);
