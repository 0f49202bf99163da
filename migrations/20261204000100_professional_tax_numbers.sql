-- A professional's sales tax registrations, as they give them on their profile (own-business
-- fields: saved at once, never reviewed). Kept normalised (no spaces, upper case); null when
-- not registered. A QST number goes with a GST/HST number: a business registered for QST
-- alone does not exist for the work sold here.
alter table professionals
    add column gst_hst_number text check (gst_hst_number ~ '^[0-9]{9}RT[0-9]{4}$'),
    add column qst_number text check (qst_number ~ '^[0-9]{10}TQ[0-9]{4}$'),
    add constraint professionals_qst_with_gst_hst
        check (qst_number is null or gst_hst_number is not null);
