//! Live streams' source: Postgres LISTEN/NOTIFY fanned out to the streams of this process
//! ([`notify_hub`]), one hub per announced kind of change, all heard on one connection
//! ([`listener`]). Kept apart from the rules that
//! read what the streams send, so the state every handler reaches can hold the hubs.

pub mod conversation_changes;
pub mod listener;
pub mod notify_hub;
pub mod open_requests;
pub mod request_changes;
pub mod request_reach;
