-- The catalogue's order and names, kept by the database:
-- every service has its own position, the active ones first (1..n) and the archived after
-- them; checked at commit, so a reorder may pass through duplicates inside its transaction.
update services s set position = o.n
from (select id, row_number() over (order by active desc, position, name_en, id) as n
      from services) o
where s.id = o.id and s.position <> o.n;
alter table services add constraint services_position_key unique (position)
    deferrable initially deferred;

-- Two active services never share a name in a language, whatever its case (an archived one
-- may: it comes back only if its names are still free).
create unique index services_active_name_en_idx on services (lower(name_en)) where active;
create unique index services_active_name_fr_idx on services (lower(name_fr)) where active;
