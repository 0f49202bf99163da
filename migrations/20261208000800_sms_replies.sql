-- A text answered STOP (or START) turns texts off (or on): recorded as the choice's source
-- and the consent's.
alter table notification_preferences drop constraint notification_preferences_source_check,
    add constraint notification_preferences_source_check
        check (source in ('account', 'email_link', 'sms_reply'));
alter table consents drop constraint consents_source_check,
    add constraint consents_source_check
        check (source in ('sign_up', 'social_sign_up', 'notification_preferences', 'sms_reply'));
