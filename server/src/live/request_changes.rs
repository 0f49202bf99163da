//! Changes of repair requests and their quotes, announced by Postgres on [`CHANNEL`] with
//! "<id>:<revision>:<quote id>" at commit (see `migrations/20261123000080_hires.sql`), and the
//! hub that hands them to this process's WatchRepairRequest streams (`requests::watch`).

use std::sync::Arc;

use uuid::Uuid;

use super::notify_hub::{NotifyHub, StreamLimits};

/// The Postgres channel request changes are announced on.
pub const CHANNEL: &str = "repair_request_changed";

/// One announced change: the request, its revision after it, and the quote that changed.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Changed {
    pub request_id: Uuid,
    pub revision: i64,
    pub quote_id: Option<Uuid>,
}

fn parse(payload: &str) -> Option<Changed> {
    let mut parts = payload.splitn(3, ':');
    let request_id = Uuid::parse_str(parts.next()?).ok()?;
    let revision = parts.next()?.parse().ok()?;
    let quote_id = match parts.next()? {
        "" => None,
        id => Some(Uuid::parse_str(id).ok()?),
    };
    Some(Changed {
        request_id,
        revision,
        quote_id,
    })
}

pub type RequestChangesHub = NotifyHub<Changed>;

pub fn hub(limits: StreamLimits) -> Arc<RequestChangesHub> {
    NotifyHub::new(CHANNEL, parse, limits)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn payloads_name_the_request_its_revision_and_the_quote() {
        let (id, quote) = (Uuid::now_v7(), Uuid::now_v7());
        assert_eq!(
            parse(&format!("{id}:7:{quote}")),
            Some(Changed {
                request_id: id,
                revision: 7,
                quote_id: Some(quote)
            })
        );
        assert_eq!(parse(&format!("{id}:8:")).map(|c| c.quote_id), Some(None));
        assert_eq!(parse("nonsense"), None);
    }
}
