-- A problem after the job: a customer reports one on a completed request within 14 days of
-- its completion; while it is open the job's conversation is writable again, by admins too;
-- an admin resolves it with an outcome (audited in audit_events).

create table job_problems (
    id uuid primary key,
    repair_request_id uuid not null references repair_requests (id) on delete cascade,
    customer_id uuid not null references customers (id) on delete cascade,
    -- The hired professional: the other party of the conversation that opens again.
    professional_id uuid not null references professionals (id) on delete cascade,
    -- ReportJobProblem's request_id, scoped to the customer: a retry finds its problem.
    client_key uuid not null,
    text text not null check (length(text) between 1 and 4000),
    state text not null default 'open' check (state in ('open', 'resolved')),
    created_at timestamptz not null default now(),
    resolved_at timestamptz,
    resolved_by uuid references admins (id) on delete set null,
    outcome text check (outcome in ('note', 'refund', 'nothing')),
    resolution_note text check (length(resolution_note) <= 2000),
    constraint job_problems_client_key unique (customer_id, client_key),
    constraint job_problems_resolved_whole check (
        (state = 'open' and resolved_at is null and outcome is null)
        or (state = 'resolved' and resolved_at is not null and outcome is not null))
);

-- One open problem per request: the key that lets one of two racing reports win.
create unique index job_problems_one_open_idx on job_problems (repair_request_id)
    where state = 'open';
-- The admins' queue: open oldest first, resolved newest first.
create index job_problems_open_idx on job_problems (created_at, id) where state = 'open';
create index job_problems_resolved_idx on job_problems (resolved_at desc, id desc)
    where state = 'resolved';
create index job_problems_customer_idx on job_problems (customer_id);
create index job_problems_professional_idx on job_problems (professional_id);

-- Photos a customer uploads for a report (AddJobProblemPhoto), attached by the report.
create table job_problem_photos (
    id uuid primary key,
    repair_request_id uuid not null references repair_requests (id) on delete cascade,
    customer_id uuid not null references customers (id) on delete cascade,
    -- Null until a report takes it.
    problem_id uuid references job_problems (id) on delete cascade,
    position smallint,
    large_key text not null,
    thumbnail_key text not null,
    width integer not null check (width > 0),
    height integer not null check (height > 0),
    created_at timestamptz not null default now()
);
create index job_problem_photos_problem_idx on job_problem_photos (problem_id, position);
create index job_problem_photos_waiting_idx on job_problem_photos (repair_request_id, customer_id)
    where problem_id is null;

-- Admins write in a job's conversation while its problem is open.
alter table conversation_messages drop constraint conversation_messages_author_check;
alter table conversation_messages add constraint conversation_messages_author_check
    check (author in ('customer', 'professional', 'admin'));
