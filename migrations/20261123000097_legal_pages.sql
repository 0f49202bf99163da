-- The terms and the privacy policy are edited per language like the landing pages.
alter table page_versions drop constraint page_versions_page_check,
    add constraint page_versions_page_check
        check (page in ('home', 'professional', 'terms', 'privacy'));
