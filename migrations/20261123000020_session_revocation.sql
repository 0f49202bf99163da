-- Ending sessions before they expire: every account has a token version, carried in its
-- session tokens. A password reset, an admin's decision (and, for deleted accounts, the
-- missing row) make older tokens stop working; the auth layer compares the two.

alter table customers add column token_version integer not null default 0;
alter table professionals add column token_version integer not null default 0;
alter table admins add column token_version integer not null default 0;
