-- Memberships and coupons. The membership itself stays one value, the professional's
-- membership_expires_at; these tables say how it got there.

-- Discount codes for the membership. Codes are stored in upper case and unique, ignoring
-- case, among coupons not deleted; a deleted coupon keeps its row for the purchases that
-- used it.
create table coupons (
    id uuid primary key,
    code text not null check (code ~ '^[A-Z0-9_-]{3,32}$'),
    discount_percent integer not null check (discount_percent between 1 and 100),
    expires_at timestamptz,
    -- 0: no limit.
    max_redemptions integer not null default 0 check (max_redemptions >= 0),
    -- Counted when a purchase reserves the coupon, before the card is charged; given back
    -- when the card is refused. Never above the limit.
    redemption_count integer not null default 0 check (redemption_count >= 0),
    active boolean not null default true,
    deleted_at timestamptz,
    created_at timestamptz not null default now(),
    updated_at timestamptz not null default now(),
    constraint coupons_within_limit check (max_redemptions = 0 or redemption_count <= max_redemptions)
);
create unique index coupons_code_key on coupons (upper(code)) where deleted_at is null;
create index coupons_created_at_idx on coupons (created_at desc, id desc) where deleted_at is null;
create trigger coupons_updated_at before update on coupons
    for each row execute function set_updated_at();

-- One coupon use per membership purchase, keyed by the purchase's request_id, so a retried
-- purchase counts its coupon once. The discount is kept as it was when reserved: a retry
-- charges what the first attempt computed.
create table coupon_redemptions (
    professional_id uuid not null references professionals (id) on delete cascade,
    request_id uuid not null,
    coupon_id uuid not null references coupons (id),
    discount_percent integer not null check (discount_percent between 1 and 100),
    created_at timestamptz not null default now(),
    primary key (professional_id, request_id)
);

-- Each month of membership granted, keyed by the purchase's request_id so one purchase
-- extends the membership once, whatever retries or late confirmations follow. A free month
-- (a 100 % coupon) has no payment.
create table membership_periods (
    id uuid primary key,
    professional_id uuid not null references professionals (id) on delete cascade,
    request_id uuid not null,
    payment_id uuid references payments (id),
    coupon_id uuid references coupons (id),
    starts_at timestamptz not null,
    ends_at timestamptz not null check (ends_at > starts_at),
    created_at timestamptz not null default now(),
    constraint membership_periods_request_key unique (professional_id, request_id)
);

-- The membership end a reminder was sent for (three days before it), so each end is
-- reminded once; a purchase moves the end and so allows the next reminder.
alter table professionals add column membership_reminded_for timestamptz;
