-- Accounts: the service catalogue, customers, professionals with their profile and
-- licences, and password-reset tokens.

create table services (
    id uuid primary key,
    position integer not null,
    name_en text not null check (length(name_en) between 1 and 100),
    name_fr text not null check (length(name_fr) between 1 and 100),
    description_en text not null default '',
    description_fr text not null default '',
    icon_key text,
    created_at timestamptz not null default now(),
    updated_at timestamptz not null default now()
);
create trigger services_updated_at before update on services
    for each row execute function set_updated_at();

insert into services (id, position, name_en, name_fr, description_en, description_fr) values
    ('0190a6c0-0000-7000-8000-000000000001', 1, 'Plumbing Services', 'Services de plomberie',
     'Leaks, burst pipes, blocked drains and water heaters.', 'Fuites, tuyaux éclatés, drains bouchés et chauffe-eau.'),
    ('0190a6c0-0000-7000-8000-000000000002', 2, 'Carpenter Services', 'Services de menuiserie',
     'Doors, windows, frames and structural woodwork.', 'Portes, fenêtres, cadres et charpente.'),
    ('0190a6c0-0000-7000-8000-000000000003', 3, 'Pest Control Services', 'Services d''extermination',
     'Insects, rodents and wildlife, removed safely.', 'Insectes, rongeurs et animaux sauvages, retirés en toute sécurité.'),
    ('0190a6c0-0000-7000-8000-000000000004', 4, 'Roofing Services', 'Services de toiture',
     'Leaking roofs, storm damage and flashing.', 'Toits qui fuient, dégâts de tempête et solins.'),
    ('0190a6c0-0000-7000-8000-000000000005', 5, 'AC Repair Services', 'Réparation de climatisation',
     'Air conditioners and heat pumps back to work.', 'Climatiseurs et thermopompes remis en marche.'),
    ('0190a6c0-0000-7000-8000-000000000006', 6, 'Electrician Services', 'Services d''électricien',
     'Power outages, panels, outlets and wiring.', 'Pannes de courant, panneaux, prises et câblage.'),
    ('0190a6c0-0000-7000-8000-000000000007', 7, 'Cleaning and Disinfection', 'Nettoyage et désinfection',
     'After floods, fires and outbreaks.', 'Après une inondation, un incendie ou une éclosion.'),
    ('0190a6c0-0000-7000-8000-000000000008', 8, 'Electrical Appliance Repair', 'Réparation d''électroménagers',
     'Fridges, ovens, washers and dryers.', 'Réfrigérateurs, fours, laveuses et sécheuses.');

create table customers (
    id uuid primary key,
    name text not null check (length(name) between 1 and 100),
    email citext not null constraint customers_email_key unique,
    -- Null for accounts that only sign in with Google or Facebook.
    password_hash text,
    phone text check (phone ~ '^\+[1-9][0-9]{6,14}$'),
    phone_verified boolean not null default false,
    sms_updates text not null default 'na' check (sms_updates in ('na', 'yes', 'no')),
    language text not null default 'en' check (language in ('en', 'fr')),
    created_at timestamptz not null default now(),
    updated_at timestamptz not null default now()
);
create trigger customers_updated_at before update on customers
    for each row execute function set_updated_at();
create index customers_created_at_idx on customers (created_at desc, id desc);

create table professionals (
    id uuid primary key,
    name text not null check (length(name) between 1 and 100),
    email citext not null constraint professionals_email_key unique,
    password_hash text,
    phone text check (phone ~ '^\+[1-9][0-9]{6,14}$'),
    phone_verified boolean not null default false,
    sms_updates text not null default 'na' check (sms_updates in ('na', 'yes', 'no')),
    language text not null default 'en' check (language in ('en', 'fr')),
    state text not null default 'waiting_for_approval'
        check (state in ('waiting_for_approval', 'approved', 'denied', 'profile_updated')),
    denial_reason text not null default '',
    approved_at timestamptz,
    -- The profile; profile_saved_at is null until it was first saved.
    profile_saved_at timestamptz,
    description text not null default '',
    registered_address text not null default '',
    home_line1 text not null default '',
    home_line2 text not null default '',
    home_city text not null default '',
    home_province text not null default '',
    home_postal_code text not null default '',
    home_latitude double precision,
    home_longitude double precision,
    time_zone text not null default '',
    -- ISO weekdays, 1 = Monday.
    available_days smallint[] not null default '{}',
    available_from time not null default '00:00',
    available_to time not null default '23:59',
    radius_km integer check (radius_km between 1 and 500),
    qualification text not null default '',
    experience text check (experience in ('<5', '5', '5-10', '10-15', '15-20', '>20')),
    minimum_fee_cents bigint check (minimum_fee_cents >= 0),
    photo_key text,
    membership_expires_at timestamptz,
    created_at timestamptz not null default now(),
    updated_at timestamptz not null default now(),
    constraint professionals_denial_has_reason check (state <> 'denied' or denial_reason <> '')
);
create trigger professionals_updated_at before update on professionals
    for each row execute function set_updated_at();
create index professionals_created_at_idx on professionals (created_at desc, id desc);
create index professionals_state_idx on professionals (state, created_at desc);

create table professional_services (
    professional_id uuid not null references professionals (id) on delete cascade,
    service_id uuid not null references services (id) on delete restrict,
    primary key (professional_id, service_id)
);

create table licences (
    id uuid primary key,
    professional_id uuid not null references professionals (id) on delete cascade,
    label text not null check (length(label) between 1 and 100),
    file_key text not null,
    file_name text not null default '',
    content_type text not null,
    uploaded_at timestamptz not null default now()
);
create index licences_professional_idx on licences (professional_id, uploaded_at);

-- Single-use reset links; only a hash of the token is kept.
create table password_resets (
    token_hash bytea primary key,
    role text not null check (role in ('customer', 'professional')),
    account_id uuid not null,
    expires_at timestamptz not null,
    used_at timestamptz,
    created_at timestamptz not null default now()
);
create index password_resets_account_idx on password_resets (role, account_id);
