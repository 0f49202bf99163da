//! How many photos a new request's alerts tell of is read when each alert is sent, not when
//! it is written: the alerts are written in the transaction that places the request, and its
//! photos are uploaded after (one call each). The words hold a [`marker`] naming the request
//! where the count goes; the worker replaces every marker of the messages it claimed with
//! the request's count at that moment ([`fill`], one query per batch), so an email, a text
//! or a push sent after the photos arrived counts them, and none tells of photos that are
//! not there: with none (or the request no longer found), the marker's word for none
//! stands there. The alerts also wait for the photos the customer said would follow
//! (`requests::fanout`), so they do not leave before them.

use std::collections::HashMap;

use sqlx::PgPool;
use uuid::Uuid;

use crate::store::{outbox::ClaimedMessage, request_photos};

const OPEN: &str = "[[photos:";
const CLOSE: &str = "]]";
/// A UUID's length in its hyphenated form.
const ID_LEN: usize = 36;

/// Where the count of request `id`'s photos goes in a message's text; `none` is what stands
/// there when it has none ("none", "aucune").
pub fn marker(id: Uuid, none: &str) -> String {
    format!("{OPEN}{id}|{none}{CLOSE}")
}

/// Replaces the markers in the bodies of `messages` by the photo counts of their requests.
pub async fn fill(db: &PgPool, messages: &mut [ClaimedMessage]) -> sqlx::Result<()> {
    let mut ids: Vec<Uuid> = messages
        .iter()
        .flat_map(|message| markers_in(&message.body).map(|found| found.id))
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

/// A marker found in a text.
struct Found<'a> {
    id: Uuid,
    none: &'a str,
    marker: &'a str,
}

/// The markers standing in `text`.
fn markers_in(text: &str) -> impl Iterator<Item = Found<'_>> + '_ {
    text.match_indices(OPEN).filter_map(|(at, _)| {
        let id_at = at + OPEN.len();
        let id = text.get(id_at..id_at + ID_LEN)?.parse().ok()?;
        let rest = text.get(id_at + ID_LEN..)?.strip_prefix('|')?;
        let none = &rest[..rest.find(CLOSE)?];
        // A marker holds one word; anything longer is not one.
        if none.len() > 40 || none.contains(['[', ']']) {
            return None;
        }
        let end = id_at + ID_LEN + 1 + none.len() + CLOSE.len();
        Some(Found {
            id,
            none,
            marker: &text[at..end],
        })
    })
}

/// `text` with each marker replaced by its request's count, or its word for none (a request
/// not found has none).
fn filled(text: &str, counts: &HashMap<Uuid, i32>) -> String {
    let mut out = text.to_owned();
    for found in markers_in(text) {
        let count = counts.get(&found.id).copied().unwrap_or(0);
        let shown = if count == 0 {
            found.none.to_owned()
        } else {
            count.to_string()
        };
        out = out.replace(found.marker, &shown);
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
            marker(one, "none"),
            marker(one, "none"),
            marker(other, "aucune")
        );
        let ids: Vec<Uuid> = markers_in(&text).map(|found| found.id).collect();
        assert_eq!(ids, [one, one, other]);
        let counts = HashMap::from([(one, 3)]);
        assert_eq!(filled(&text, &counts), "photos: 3; again 3; other aucune");
    }

    #[test]
    fn text_that_only_looks_like_a_marker_stays() {
        let id = Uuid::now_v7();
        let unclosed = format!("[[photos:{id}|none");
        let bare = format!("[[photos:{id}]]");
        for text in [
            "[[photos:",
            "[[photos:not-a-uuid|none]]",
            "[[photos:]]",
            "plain",
            &unclosed,
            &bare,
        ] {
            assert_eq!(markers_in(text).count(), 0, "{text}");
            assert_eq!(filled(text, &HashMap::new()), text);
        }
        // A JSON push payload keeps its shape.
        let json =
            serde_json::json!({ "body": format!("Photos: {}.", marker(id, "none")) }).to_string();
        let done = filled(&json, &HashMap::from([(id, 2)]));
        assert_eq!(done, r#"{"body":"Photos: 2."}"#);
    }
}
