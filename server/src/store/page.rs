//! Keyset pagination for lists ordered newest first: the page token is the (created_at, id)
//! of the last row served, so pages stay stable while rows are added.

use base64::Engine;
use chrono::{DateTime, Utc};
use uuid::Uuid;

use crate::error::ApiError;

pub const DEFAULT_PAGE_SIZE: i64 = 50;
pub const MAX_PAGE_SIZE: i64 = 100;

/// A validated page request.
#[derive(Debug, Clone, Copy)]
pub struct PageRequest {
    pub size: i64,
    /// Rows strictly after this (created_at, id), in descending order.
    pub after: Option<(DateTime<Utc>, Uuid)>,
}

impl PageRequest {
    pub fn parse(page_size: i32, page_token: &str) -> Result<Self, ApiError> {
        let size = match page_size {
            0 => DEFAULT_PAGE_SIZE,
            n if n < 0 => {
                return Err(ApiError::invalid(
                    "page_size",
                    "the page size cannot be negative",
                ));
            }
            n => i64::from(n).min(MAX_PAGE_SIZE),
        };
        let after = if page_token.is_empty() {
            None
        } else {
            Some(decode(page_token)?)
        };
        Ok(Self { size, after })
    }

    /// Rows to fetch: one more than the page, to know whether another page follows.
    pub fn fetch_limit(&self) -> i64 {
        self.size + 1
    }

    pub fn after_time(&self) -> Option<DateTime<Utc>> {
        self.after.map(|(t, _)| t)
    }

    pub fn after_id(&self) -> Option<Uuid> {
        self.after.map(|(_, id)| id)
    }

    /// Trims the extra row and makes the next token from the last row kept.
    pub fn finish<T>(
        &self,
        mut rows: Vec<T>,
        key: impl Fn(&T) -> (DateTime<Utc>, Uuid),
    ) -> (Vec<T>, String) {
        let size = usize::try_from(self.size).unwrap_or(usize::MAX);
        if rows.len() > size {
            rows.truncate(size);
            let token = rows.last().map(|row| encode(key(row))).unwrap_or_default();
            (rows, token)
        } else {
            (rows, String::new())
        }
    }
}

/// A page token holding `raw`, opaque to clients (URL-safe base64).
pub fn token_of(raw: &str) -> String {
    base64::engine::general_purpose::URL_SAFE_NO_PAD.encode(raw)
}

/// The text a page token made by [`token_of`] holds; `None` when it is not one.
pub fn text_of(token: &str) -> Option<String> {
    let raw = base64::engine::general_purpose::URL_SAFE_NO_PAD
        .decode(token)
        .ok()?;
    String::from_utf8(raw).ok()
}

fn encode((time, id): (DateTime<Utc>, Uuid)) -> String {
    token_of(&format!("{}|{id}", time.timestamp_micros()))
}

fn decode(token: &str) -> Result<(DateTime<Utc>, Uuid), ApiError> {
    let invalid = || {
        ApiError::invalid(
            "page_token",
            "this page token is not valid; start from the first page",
        )
    };
    let raw = text_of(token).ok_or_else(invalid)?;
    let (micros, id) = raw.split_once('|').ok_or_else(invalid)?;
    let time = micros
        .parse::<i64>()
        .ok()
        .and_then(DateTime::from_timestamp_micros)
        .ok_or_else(invalid)?;
    let id = Uuid::parse_str(id).map_err(|_| invalid())?;
    Ok((time, id))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn tokens_round_trip_and_junk_is_refused() {
        let key = (Utc::now(), Uuid::now_v7());
        let decoded = decode(&encode(key)).unwrap();
        assert_eq!(decoded.1, key.1);
        assert_eq!(decoded.0.timestamp_micros(), key.0.timestamp_micros());
        assert!(PageRequest::parse(10, "not-a-token").is_err());
        assert!(PageRequest::parse(-1, "").is_err());
        assert_eq!(PageRequest::parse(0, "").unwrap().size, DEFAULT_PAGE_SIZE);
        assert_eq!(PageRequest::parse(1000, "").unwrap().size, MAX_PAGE_SIZE);
    }

    #[test]
    fn finish_sets_a_token_only_when_more_rows_exist() {
        let page = PageRequest::parse(2, "").unwrap();
        let now = Utc::now();
        let rows: Vec<(DateTime<Utc>, Uuid)> = (0..3).map(|_| (now, Uuid::now_v7())).collect();
        let (kept, token) = page.finish(rows.clone(), |r| *r);
        assert_eq!(kept.len(), 2);
        assert!(!token.is_empty());
        let (kept, token) = page.finish(rows[..2].to_vec(), |r| *r);
        assert_eq!(kept.len(), 2);
        assert!(token.is_empty());
    }
}
