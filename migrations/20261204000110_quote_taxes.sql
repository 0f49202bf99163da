-- Sales taxes on quotes, fixed when the quote is sent so the quote (and a hire on it) keeps
-- them whatever rates or registration numbers come later. `fee_cents` stays the amount
-- before tax; the quote's total is the fee plus its quote_taxes.
--
-- tax_treatment: 'added' (the professional is registered and added the taxes of the
-- property's province that day: tax_province and tax_date say where and when, and each tax is
-- a row of quote_taxes), 'not_added' (registered, chose not to), 'not_registered' (no GST/HST
-- number: no tax may be charged). Quotes sent before this carried no tax and their
-- professionals had given no number: 'not_registered'.
alter table quotes
    add column tax_treatment text not null default 'not_registered'
        check (tax_treatment in ('added', 'not_added', 'not_registered')),
    add column tax_province text check (tax_province ~ '^[A-Z]{2}$'),
    add column tax_date date,
    add constraint quotes_taxes_reckoned_when_added
        check ((tax_treatment = 'added') = (tax_province is not null and tax_date is not null));

alter table quotes alter column tax_treatment drop default;

-- One tax of a quote, as payment_taxes holds a payment's: the name, the rate in thousandths
-- of a percent (9.975% is 9975), the tax in cents and the professional's registration number
-- it is collected under. Written with the quote, never changed.
create table quote_taxes (
    quote_id uuid not null references quotes (id) on delete cascade,
    tax text not null check (tax in ('GST', 'HST', 'QST', 'PST')),
    rate_thousandths_percent integer not null
        check (rate_thousandths_percent between 0 and 100000),
    amount_cents bigint not null check (amount_cents >= 0),
    registration_number text not null check (registration_number <> ''),
    primary key (quote_id, tax)
);
