//! How many photos a new request's alerts tell of is read when each alert is sent, not when
//! it is written: the alerts are written in the transaction that places the request, and its
//! photos are uploaded after (one call each). The words hold a [`marker`] naming the request
//! where the count goes; the worker replaces every marker of the messages it claimed with
//! the request's count at that moment ([`fill`], one query per batch), so an email, a text
//! or a push sent after the photos arrived counts them, and none tells of photos that are
//! not there. A request no longer found counts 0.

use std::collections::HashMap;

use sqlx::PgPool;
use uuid::Uuid;

use crate::store::{outbox::ClaimedMessage, request_photos};

const OPEN: &str = "[[photos:";
const CLOSE: &str = "]]";
/// A UUID's length in its hyphenated form.
const ID_LEN: usize = 36;

/// Where the count of request `id`'s photos goes in a message's text.
pub fn marker(id: Uuid) -> String {
    format!("{OPEN}{id}{CLOSE}")
}

/// Replaces the markers in the bodies of `messages` by the photo counts of their requests.
pub async fn fill(db: &PgPool, messages: &mut [ClaimedMessage]) -> sqlx::Result<()> {
    let mut ids: Vec<Uuid> = messages
        .iter()
        .flat_map(|message| markers_in(&message.body))
        .collect();
    if ids.is_empty() {
        return Ok(());
    }
    ids.sort_unstable();
    ids.dedup();
    let counts = request_photos::counts(db, &ids).await?;
    for message in messages {
        message.body = filled(&message.body, &counts);
    }
    Ok(())
}

/// The requests whose markers stand in `text`.
fn markers_in(text: &str) -> impl Iterator<Item = Uuid> + '_ {
    text.match_indices(OPEN).filter_map(|(at, _)| {
        let id = text.get(at + OPEN.len()..at + OPEN.len() + ID_LEN)?;
        let close = text.get(at + OPEN.len() + ID_LEN..)?;
        close.starts_with(CLOSE).then(|| id.parse().ok()).flatten()
    })
}

/// `text` with each marker replaced by its request's count (0 for a request not found).
fn filled(text: &str, counts: &HashMap<Uuid, i32>) -> String {
    let mut out = text.to_owned();
    for id in markers_in(text) {
        let count = counts.get(&id).copied().unwrap_or(0);
        out = out.replace(&marker(id), &count.to_string());
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn markers_are_found_and_replaced_by_their_count() {
        let (one, other) = (Uuid::now_v7(), Uuid::now_v7());
        let text = format!(
            "photos: {}; again {}; other {}",
            marker(one),
            marker(one),
            marker(other)
        );
        assert_eq!(markers_in(&text).collect::<Vec<_>>(), [one, one, other]);
        let counts = HashMap::from([(one, 3)]);
        assert_eq!(filled(&text, &counts), "photos: 3; again 3; other 0");
    }

    #[test]
    fn text_that_only_looks_like_a_marker_stays() {
        for text in ["[[photos:", "[[photos:not-a-uuid]]", "[[photos:]]", "plain"] {
            assert_eq!(markers_in(text).count(), 0, "{text}");
            assert_eq!(filled(text, &HashMap::new()), text);
        }
        // A JSON push payload keeps its shape.
        let id = Uuid::now_v7();
        let json = serde_json::json!({ "body": format!("Photos: {}.", marker(id)) }).to_string();
        let done = filled(&json, &HashMap::from([(id, 2)]));
        assert_eq!(done, r#"{"body":"Photos: 2."}"#);
    }
}
