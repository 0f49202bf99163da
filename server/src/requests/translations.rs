//! Requests' descriptions in the translation pass (`crate::translations`): a description's
//! translation is made due in the transaction that writes it
//! (`store::request_translations::make_due`), so professionals who read the other language
//! see a translation beside the original.

use async_trait::async_trait;
use chrono::{DateTime, Utc};

use crate::{
    state::AppState,
    store::request_translations::{self, Due},
    translations::{DueText, Queue},
};

/// The descriptions waiting for their translation.
pub struct Descriptions;

#[async_trait]
impl Queue for Descriptions {
    const WHAT: &'static str = "description";
    const BATCH: i64 = 10;
    type Due = Due;

    async fn claim(state: &AppState, lease_until: DateTime<Utc>) -> sqlx::Result<Vec<Due>> {
        request_translations::claim(&state.db, Self::BATCH, lease_until).await
    }

    fn text(due: &Due) -> DueText<'_> {
        DueText {
            id: due.repair_request_id,
            text: &due.description,
            source: due.description_language,
            target: due.target_language,
            attempts: due.attempts,
        }
    }

    async fn store(state: &AppState, due: &Due, translated: &str) -> sqlx::Result<bool> {
        let id = due.repair_request_id;
        request_translations::store(&state.db, id, &due.description, translated).await
    }

    async fn failed(
        state: &AppState,
        due: &Due,
        retry_at: Option<DateTime<Utc>>,
        error: &str,
    ) -> sqlx::Result<()> {
        let id = due.repair_request_id;
        request_translations::failed(&state.db, id, due.attempts, retry_at, error).await
    }

    async fn written(state: &AppState) {
        state.translation.descriptions_written().await;
    }
}
