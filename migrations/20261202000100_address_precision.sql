-- Each located address keeps how precisely it was placed, best first: 'address' (the door,
-- from Photon), 'street', 'postal_code' (the full code's point), 'postal_area' (the centre of
-- the code's first three characters), 'city' (the town's centre). Matching measures from
-- these points: a professional's office point to a request's point.
--
-- Requests already had the three gazetteer precisions and keep theirs. Professionals' offices
-- were all placed at their postal area's centre until now: that is what existing rows say,
-- and their next profile save places them again, at the full code or better.
alter table repair_requests drop constraint repair_requests_placed_by_check;
alter table repair_requests add constraint repair_requests_placed_by_check
    check (placed_by in ('address', 'street', 'postal_code', 'postal_area', 'city'));

alter table professionals add column home_placed_by text
    check (home_placed_by in ('address', 'street', 'postal_code', 'postal_area', 'city'));
update professionals set home_placed_by = 'postal_area' where home_latitude is not null;
