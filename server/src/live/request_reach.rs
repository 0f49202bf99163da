//! Requests whose reach (professionals alerted, professionals who opened it) may have
//! changed, announced by Postgres on [`CHANNEL`] with the request's id, once per statement
//! that adds alerts or opens (see `migrations/20261129000200_request_reach.sql`); the hub
//! hands them to this process's WatchRepairRequest streams (`requests::watch`), which read
//! the counts again, at most once a while however many are heard (`requests::reach`).

use std::sync::Arc;

use uuid::Uuid;

use super::notify_hub::{NotifyHub, StreamLimits};

/// The Postgres channel reach changes are announced on (payload: the request's id).
pub const CHANNEL: &str = "repair_request_reach";

fn parse(payload: &str) -> Option<Uuid> {
    Uuid::parse_str(payload).ok()
}

pub type RequestReachHub = NotifyHub<Uuid>;

pub fn hub(limits: StreamLimits) -> Arc<RequestReachHub> {
    NotifyHub::new(CHANNEL, parse, limits)
}
