-- Sales taxes on payments: what a payment's amount is made of. `amount_cents` stays what the
-- card is charged (the total); `subtotal_cents` is the amount before tax (after any coupon),
-- and each tax charged on it is a row of payment_taxes, so the amount is the subtotal plus
-- the payment's taxes (the ledger writes them together, in one transaction). Payments made
-- before this charged no tax: their subtotal is their amount.
alter table payments
    add column subtotal_cents bigint,
    -- Where the taxes were reckoned (the place of supply, a province's two-letter code) and
    -- the day they became payable, when a tax rule was applied (memberships); null where
    -- none was (hires and test charges, so far) or the place was not needed (the platform
    -- collects no tax and the professional had no address on file).
    add column tax_province text check (tax_province ~ '^[A-Z]{2}$'),
    add column tax_date date;

update payments set subtotal_cents = amount_cents;

alter table payments
    alter column subtotal_cents set not null,
    add constraint payments_subtotal_within_amount
        check (subtotal_cents between 0 and amount_cents);

-- One tax of a payment: its name as the rate table writes it, the rate in thousandths of a
-- percent (9.975% is 9975), the tax in cents, and the seller's registration number it is
-- collected under. Never deleted, like the payment.
create table payment_taxes (
    payment_id uuid not null references payments (id),
    tax text not null check (tax in ('GST', 'HST', 'QST', 'PST')),
    rate_thousandths_percent integer not null
        check (rate_thousandths_percent between 0 and 100000),
    amount_cents bigint not null check (amount_cents >= 0),
    registration_number text not null check (registration_number <> ''),
    primary key (payment_id, tax)
);

create trigger payment_taxes_never_deleted before delete or truncate on payment_taxes
    for each statement execute function refuse_ledger_delete();
