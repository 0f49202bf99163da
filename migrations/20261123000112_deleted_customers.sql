-- Deleting a customer keeps the records others rely on (their requests with the quotes on
-- them, orders, payments, reviews) and removes the person: the row stays, stripped of what
-- identifies them, marked deleted_at. Nothing may cascade from a customer any more.

alter table customers add column deleted_at timestamptz;

alter table repair_requests drop constraint repair_requests_customer_id_fkey,
    add constraint repair_requests_customer_id_fkey
        foreign key (customer_id) references customers (id) on delete restrict;
alter table reviews drop constraint reviews_customer_id_fkey,
    add constraint reviews_customer_id_fkey
        foreign key (customer_id) references customers (id) on delete restrict;
