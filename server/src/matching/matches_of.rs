//! Whom a request matched, for the admins: the professionals it reached, nearest first, with
//! what each was sent about it.

use uuid::Uuid;

use crate::{
    error::{ApiResult, not_found},
    state::AppState,
    store::request_matches::{self, MatchRow, NotificationRow},
};

/// One page of a request's matches.
pub struct MatchesPage {
    pub matches: Vec<MatchRow>,
    /// What each professional of the page was sent about the request.
    pub notifications: Vec<NotificationRow>,
    /// Whether a page follows.
    pub more: bool,
}

/// Up to `size` of request `request_id`'s matches after `after` (distance in metres and
/// professional id of the previous page's last), nearest first; NOT_FOUND for no such request.
pub async fn matches_of(
    state: &AppState,
    request_id: Uuid,
    after: Option<(i32, Uuid)>,
    size: usize,
) -> ApiResult<MatchesPage> {
    if !request_matches::request_exists(&state.db, request_id).await? {
        return Err(not_found("repair request"));
    }
    let limit = i64::try_from(size).unwrap_or(i64::MAX).saturating_add(1);
    let mut matches = request_matches::matches(&state.db, request_id, after, limit).await?;
    let more = matches.len() > size;
    matches.truncate(size);
    let ids: Vec<Uuid> = matches.iter().map(|r| r.professional_id).collect();
    let notifications = request_matches::notifications(&state.db, request_id, &ids).await?;
    Ok(MatchesPage {
        matches,
        notifications,
        more,
    })
}
