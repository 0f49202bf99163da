//! Page tokens of the open-requests list. The list is ordered nearest first, then newest
//! (distance, created_at descending, id descending), and a token holds the key of the last
//! row served plus the instant the first page was read (`as_of`): later pages list only
//! requests placed up to then, so pages neither repeat nor skip rows while new requests
//! arrive (those reach the professional through WatchOpenRequests, or a new first page).

use base64::Engine;
use chrono::{DateTime, Utc};
use uuid::Uuid;

use super::OpenRequestMatch;
use crate::{error::ApiError, store::page::PageRequest};

/// Where a page starts: just after this row.
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct ListKey {
    /// The list's order key ([`OpenRequestMatch::rank`]).
    pub rank: f64,
    pub created_at: DateTime<Utc>,
    pub request_id: Uuid,
}

#[derive(Debug, Clone, Copy, PartialEq)]
pub struct OpenRequestsPageRequest {
    pub size: i64,
    /// The first page's instant; `None` on the first page.
    pub as_of: Option<DateTime<Utc>>,
    pub after: Option<ListKey>,
}

impl OpenRequestsPageRequest {
    /// Page size as every list reads it (0 is the default, at most the maximum).
    pub fn parse(page_size: i32, page_token: &str) -> Result<Self, ApiError> {
        let size = PageRequest::parse(page_size, "")?.size;
        if page_token.is_empty() {
            return Ok(Self {
                size,
                as_of: None,
                after: None,
            });
        }
        let (as_of, after) = decode(page_token).ok_or_else(|| {
            ApiError::invalid(
                "page_token",
                "this page token is not valid; start from the first page",
            )
        })?;
        Ok(Self {
            size,
            as_of: Some(as_of),
            after: Some(after),
        })
    }

    /// Rows to fetch: one more than the page, to know whether another page follows.
    pub fn fetch_limit(&self) -> i64 {
        self.size + 1
    }

    /// Trims the extra row and makes the next token from the last row kept.
    pub fn finish(
        &self,
        mut rows: Vec<OpenRequestMatch>,
        as_of: DateTime<Utc>,
    ) -> (Vec<OpenRequestMatch>, String) {
        let size = usize::try_from(self.size).unwrap_or(usize::MAX);
        if rows.len() <= size {
            return (rows, String::new());
        }
        rows.truncate(size);
        let token = rows
            .last()
            .map(|last| {
                encode(
                    as_of,
                    ListKey {
                        rank: last.rank,
                        created_at: last.created_at,
                        request_id: last.request_id,
                    },
                )
            })
            .unwrap_or_default();
        (rows, token)
    }
}

/// The rank travels as its exact bits, so the next page starts exactly after it.
fn encode(as_of: DateTime<Utc>, key: ListKey) -> String {
    let raw = format!(
        "{}|{:x}|{}|{}",
        as_of.timestamp_micros(),
        key.rank.to_bits(),
        key.created_at.timestamp_micros(),
        key.request_id
    );
    base64::engine::general_purpose::URL_SAFE_NO_PAD.encode(raw)
}

fn decode(token: &str) -> Option<(DateTime<Utc>, ListKey)> {
    let raw = base64::engine::general_purpose::URL_SAFE_NO_PAD
        .decode(token)
        .ok()?;
    let raw = String::from_utf8(raw).ok()?;
    let mut parts = raw.split('|');
    let as_of = DateTime::from_timestamp_micros(parts.next()?.parse().ok()?)?;
    let rank = f64::from_bits(u64::from_str_radix(parts.next()?, 16).ok()?);
    let created_at = DateTime::from_timestamp_micros(parts.next()?.parse().ok()?)?;
    let request_id = Uuid::parse_str(parts.next()?).ok()?;
    if parts.next().is_some() || !rank.is_finite() || rank < 0.0 {
        return None;
    }
    Some((
        as_of,
        ListKey {
            rank,
            created_at,
            request_id,
        },
    ))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn tokens_round_trip_exactly_and_junk_is_refused() {
        let as_of = DateTime::from_timestamp_micros(1_790_000_000_123_456).unwrap();
        let key = ListKey {
            rank: 12_345.678_901_234_5,
            created_at: DateTime::from_timestamp_micros(1_789_000_000_000_001).unwrap(),
            request_id: Uuid::now_v7(),
        };
        let page = OpenRequestsPageRequest::parse(10, &encode(as_of, key)).unwrap();
        assert_eq!(page.as_of, Some(as_of));
        assert_eq!(page.after, Some(key));
        assert!(OpenRequestsPageRequest::parse(10, "junk").is_err());
        let negative = encode(as_of, ListKey { rank: -1.0, ..key });
        assert!(OpenRequestsPageRequest::parse(10, &negative).is_err());
        assert_eq!(OpenRequestsPageRequest::parse(0, "").unwrap().size, 50);
    }
}
