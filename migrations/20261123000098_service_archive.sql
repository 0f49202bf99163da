-- A service in use is archived rather than deleted: gone from the catalogue, kept for the
-- requests and professionals that name it.
alter table services add column active boolean not null default true;
