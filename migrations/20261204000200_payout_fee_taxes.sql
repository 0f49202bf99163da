-- The sales taxes on the platform's fee: the platform sells its fee to the professional, so
-- when it is registered it charges GST/HST (and QST in Quebec) on it, at the province of the
-- professional's home base on the day of the capture. An entry's fee and these taxes are
-- those of the moment its payout record is first written (a transfer tried, or a payout
-- recorded by hand), kept here beside `payouts.fee_cents`; until then they are reckoned at
-- each read, as the fee is. What the professional gets is the gross less the fee and these.
create table payout_fee_taxes (
    order_id uuid not null references payouts (order_id),
    -- The place of supply they were reckoned at (the home base's province then).
    province text not null check (province ~ '^[A-Z]{2}$'),
    tax text not null check (tax in ('GST', 'HST', 'QST', 'PST')),
    rate_thousandths_percent integer not null
        check (rate_thousandths_percent between 0 and 100000),
    amount_cents bigint not null check (amount_cents >= 0),
    registration_number text not null check (registration_number <> ''),
    primary key (order_id, tax)
);

create trigger payout_fee_taxes_never_deleted before delete or truncate on payout_fee_taxes
    for each statement execute function refuse_ledger_delete();

-- The tax report reads payments by their day of supply.
create index payments_tax_date_idx on payments (tax_date) where tax_date is not null;
