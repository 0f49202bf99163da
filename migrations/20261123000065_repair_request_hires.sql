-- The professional hired on a request: the one professional who sees its street address
-- (set by the hire, with hired_application_id; applications come with the next issue).
alter table repair_requests
    add column hired_professional_id uuid references professionals (id) on delete set null;
