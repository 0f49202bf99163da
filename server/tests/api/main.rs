//! The server's integration tests, one test binary: the real server started in-process (or
//! as its binary) on a database of its own in the test Postgres, Redis under a key prefix of
//! its own, and local fakes of the providers. One module per area; what they share is in
//! `helpers`. Run with the test services up (`make test`, or `scripts/services.sh`).

#![allow(
    clippy::unwrap_used,
    clippy::expect_used,
    reason = "a test crate: failures should panic"
)]

mod helpers;

mod access;
mod account_closure;
mod account_messages;
mod accounts;
mod admin_lists;
mod arrival;
mod audit_trail;
mod availability;
mod cache;
mod contact;
mod content_pages;
mod contract_limits;
mod conversations;
mod customer_deletion;
mod dashboards;
mod data_export;
mod database_errors;
mod deadlines;
mod disputes;
mod escalation;
mod faults;
mod foundation;
mod geocoding;
mod hiring;
mod job_problems;
mod killed_sender;
mod layers;
mod licences;
mod limits;
mod matching;
mod memberships;
mod metrics;
mod money_races;
mod native_push;
mod notifications;
mod object_storage;
mod orders;
mod outbox;
mod own_ids;
mod payments;
mod payouts;
mod pool;
mod privacy_incidents;
mod profile_edits;
mod profile_updates;
mod providers_facebook;
mod providers_geocoding;
mod providers_google;
mod providers_smtp;
mod providers_storage;
mod providers_stripe;
mod providers_twilio;
mod quote_taxes;
mod quotes;
mod readiness;
mod receipts;
mod receipts_reports;
mod refunds;
mod release_hire;
mod repair_requests;
mod request_photos;
mod request_reach;
mod retention;
mod reviews;
mod service_accounts;
mod services_admin;
mod session_refresh;
mod session_revocation;
mod social_sign_in;
mod stream_sessions;
mod stripe_webhooks;
mod test_charges;
mod translation;
mod watch_repair_request;
mod web_push;
