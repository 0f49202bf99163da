//! Reports: either party sends a conversation to the admins with a reason (a second report
//! while theirs is open answers that one); the admins' queue lists open reports oldest
//! first, then, when asked, closed ones newest first; an admin closes one with a note, which
//! the audit log keeps.

use chrono::{DateTime, Utc};
use serde_json::json;
use uuid::Uuid;

use super::{
    place::Place,
    read::with_last_messages,
    seen::{Reader, SeenConversation},
};
use crate::{
    auth::Caller,
    domain::{
        Language,
        conversation::{MAX_REPORT_CHARS, ReportReason, report_details},
        text::bounded_text,
    },
    error::{ApiError, ApiResult, not_found},
    state::AppState,
    store::{
        audit,
        conversation_reports::{self, QueueAfter, ReportRow},
        conversations,
        page::{PageRequest, text_of, token_of},
    },
};

/// A report with its conversation as the caller sees it.
#[derive(Debug, Clone)]
pub struct SeenReport {
    pub report: ReportRow,
    pub conversation: Option<SeenConversation>,
}

/// Reports the conversation at `place` by the caller (one of its parties) for `reason`.
pub async fn report(
    state: &AppState,
    place: &Place,
    reason: Option<ReportReason>,
    details: &str,
    language: Language,
) -> ApiResult<SeenReport> {
    let side = place.party()?;
    let reason = reason.ok_or_else(|| ApiError::invalid("reason", "say why you report it"))?;
    let details = report_details(reason, details).map_err(|e| ApiError::invalid("details", e))?;
    let row = conversations::get(&state.db, place.request.id, place.professional_id)
        .await?
        .ok_or_else(|| not_found("conversation"))?;
    let mut tx = crate::store::transaction::begin(&state.db).await?;
    let report = conversation_reports::report(&mut tx, row.id, side, reason, &details).await?;
    tx.commit().await?;
    let reader = Reader {
        side: Some(side),
        language,
    };
    let mut seen = with_last_messages(state, vec![row], reader).await?;
    Ok(SeenReport {
        report,
        conversation: seen.pop(),
    })
}

/// A page of the admins' queue.
pub async fn queue(
    state: &AppState,
    include_resolved: bool,
    (page_size, page_token): (i32, &str),
) -> ApiResult<(Vec<SeenReport>, String)> {
    let size = PageRequest::parse(page_size, "")?.size;
    let after = decode_token(page_token)?;
    let mut rows = match after {
        Some(QueueAfter::Resolved(..)) => Vec::new(),
        Some(QueueAfter::Open(time, id)) => {
            conversation_reports::open_page(&state.db, Some((time, id)), size + 1).await?
        }
        None => conversation_reports::open_page(&state.db, None, size + 1).await?,
    };
    let wanted = usize::try_from(size + 1).unwrap_or(usize::MAX);
    if include_resolved && rows.len() < wanted {
        let resolved_after = match after {
            Some(QueueAfter::Resolved(time, id)) => Some((time, id)),
            _ => None,
        };
        let left = i64::try_from(wanted - rows.len()).unwrap_or(size + 1);
        rows.extend(conversation_reports::resolved_page(&state.db, resolved_after, left).await?);
    }
    let next_page_token = match usize::try_from(size) {
        Ok(size) if rows.len() > size => {
            rows.truncate(size);
            rows.last().map(encode_token).unwrap_or_default()
        }
        _ => String::new(),
    };
    let reports = with_conversations(state, rows).await?;
    Ok((reports, next_page_token))
}

/// Each report with its conversation, as an admin reads it.
async fn with_conversations(state: &AppState, rows: Vec<ReportRow>) -> ApiResult<Vec<SeenReport>> {
    let ids: Vec<Uuid> = rows.iter().map(|row| row.conversation_id).collect();
    let admin = Reader {
        side: None,
        language: Language::English,
    };
    let found = conversations::get_many(&state.db, &ids).await?;
    let seen: std::collections::HashMap<Uuid, SeenConversation> =
        with_last_messages(state, found, admin)
            .await?
            .into_iter()
            .map(|conversation| (conversation.row.id, conversation))
            .collect();
    Ok(rows
        .into_iter()
        .map(|report| SeenReport {
            conversation: seen.get(&report.conversation_id).cloned(),
            report,
        })
        .collect())
}

/// An admin closes an open report with a note (audited); closing a closed one answers it
/// unchanged.
pub async fn resolve(
    state: &AppState,
    admin: &Caller,
    id: Uuid,
    note: &str,
) -> ApiResult<SeenReport> {
    let note = bounded_text(note, "what was done", MAX_REPORT_CHARS)
        .map_err(|e| ApiError::invalid("resolution_note", e))?;
    let mut tx = crate::store::transaction::begin(&state.db).await?;
    let closed = match conversation_reports::resolve(&mut tx, id, admin.account_id, &note).await? {
        Some(closed) => closed,
        None => {
            drop(tx);
            let report = conversation_reports::get(&state.db, id)
                .await?
                .ok_or_else(|| not_found("report"))?;
            return one(state, report).await;
        }
    };
    let before = json!({ "resolved": false, "reason": closed.reason });
    let after = json!({ "resolved": true, "reason": closed.reason, "note": note });
    audit::record_change(
        &mut *tx,
        admin.account_id,
        "conversation_report.resolve",
        ("conversation_report", &id.to_string()),
        Some(&before),
        Some(&after),
    )
    .await?;
    tx.commit().await?;
    one(state, closed).await
}

async fn one(state: &AppState, report: ReportRow) -> ApiResult<SeenReport> {
    with_conversations(state, vec![report])
        .await?
        .pop()
        .ok_or_else(|| not_found("report"))
}

fn encode_token(report: &ReportRow) -> String {
    let (kind, time) = match report.resolved_at {
        Some(resolved) => ("r", resolved),
        None => ("o", report.created_at),
    };
    token_of(&format!("{kind}|{}|{}", time.timestamp_micros(), report.id))
}

fn decode_token(token: &str) -> ApiResult<Option<QueueAfter>> {
    if token.is_empty() {
        return Ok(None);
    }
    let parsed = text_of(token).and_then(|raw| {
        let mut parts = raw.splitn(3, '|');
        let kind = parts.next()?.to_owned();
        let time = DateTime::<Utc>::from_timestamp_micros(parts.next()?.parse().ok()?)?;
        let id = Uuid::parse_str(parts.next()?).ok()?;
        match kind.as_str() {
            "o" => Some(QueueAfter::Open(time, id)),
            "r" => Some(QueueAfter::Resolved(time, id)),
            _ => None,
        }
    });
    parsed.map(Some).ok_or_else(|| {
        ApiError::invalid(
            "page_token",
            "this page token is not valid; start from the first page",
        )
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn queue_tokens_say_which_part_of_the_queue_they_stop_in() {
        let mut report = ReportRow {
            id: Uuid::now_v7(),
            conversation_id: Uuid::now_v7(),
            repair_request_id: Uuid::now_v7(),
            professional_id: Uuid::now_v7(),
            reported_by: "customer".into(),
            reason: "spam".into(),
            details: String::new(),
            created_at: DateTime::from_timestamp_micros(1_000_000).unwrap(),
            resolved_at: None,
            resolution_note: None,
        };
        let open = decode_token(&encode_token(&report)).unwrap();
        assert_eq!(open, Some(QueueAfter::Open(report.created_at, report.id)));
        report.resolved_at = DateTime::from_timestamp_micros(2_000_000);
        assert!(matches!(
            decode_token(&encode_token(&report)).unwrap(),
            Some(QueueAfter::Resolved(..))
        ));
        assert!(decode_token("bm9wZQ").is_err());
    }
}
