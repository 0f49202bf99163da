//! Reviews: only the customer of a completed job whose payment was captured writes one, once
//! per request (a unique constraint settles concurrent tries), and the professional is told
//! of it in the same transaction; anyone reads a professional's.

mod notice;

use chrono::Utc;
use uuid::Uuid;

use crate::{
    auth::{
        Caller,
        access::{self, RequestParties},
    },
    domain::{Rating, RepairRequestState, ReviewText},
    error::{ApiError, ApiResult, ErrorReason, not_found},
    outbox,
    state::AppState,
    store::{
        accounts::{self as account_store, AccountKind},
        orders,
        page::PageRequest,
        repair_requests,
        reviews::{self, NewReview, ReviewRow, ReviewSummary},
    },
};

/// What a customer sends, as received.
#[derive(Debug, Clone)]
pub struct ReviewForm {
    pub repair_request_id: Uuid,
    pub rating: i32,
    pub text: String,
}

/// Writes the customer's review of the professional hired on their request, and tells the
/// professional: the request COMPLETED and its payment CAPTURED, no review yet. Another
/// customer's request is NOT_FOUND.
pub async fn create(
    state: &AppState,
    customer_id: Uuid,
    form: &ReviewForm,
) -> ApiResult<ReviewRow> {
    let rating = Rating::parse(form.rating).map_err(|e| ApiError::invalid("rating", e))?;
    let text = ReviewText::parse(&form.text).map_err(|e| ApiError::invalid("text", e))?;
    let request = repair_requests::get(&state.db, form.repair_request_id)
        .await?
        .filter(|request| request.customer_id == customer_id)
        .ok_or_else(|| not_found("request"))?;
    if request.state() != RepairRequestState::Completed {
        return Err(ApiError::FailedPrecondition {
            reason: ErrorReason::RepairRequestNotCompleted,
            message: "mark the job completed before reviewing it".to_owned(),
        });
    }
    let job = orders::paid_job(&state.db, request.id)
        .await?
        .ok_or_else(|| ApiError::FailedPrecondition {
            reason: ErrorReason::PaymentNotCaptured,
            message: "the job can be reviewed once its payment has gone through".to_owned(),
        })?;
    let review = NewReview {
        repair_request_id: request.id,
        order_id: job.order_id,
        customer_id,
        professional_id: job.professional_id,
        rating: rating.stars(),
        body: text.into_inner(),
    };
    let mut tx = crate::store::transaction::begin(&state.db).await?;
    let written = reviews::insert(&mut *tx, &review, Utc::now()).await?;
    let pro = account_store::contact(&mut *tx, AccountKind::Professional, job.professional_id)
        .await?
        .ok_or_else(|| not_found("professional"))?;
    let link = state.config.links().professional_profile();
    let told = notice::reviewed(&pro, &written, &request.service_name, &link);
    outbox::enqueue(&mut *tx, &told).await?;
    tx.commit().await?;
    state.outbox.wake();
    Ok(written)
}

/// The review of a request, if any: its customer, its hired professional or an admin;
/// NOT_FOUND for anyone else.
pub async fn for_request(
    state: &AppState,
    caller: &Caller,
    repair_request_id: Uuid,
) -> ApiResult<Option<ReviewRow>> {
    let request = repair_requests::get(&state.db, repair_request_id)
        .await?
        .filter(|request| {
            access::is_party(
                caller,
                RequestParties {
                    customer_id: request.customer_id,
                    hired_professional_id: request.hired_professional_id,
                },
            )
        })
        .ok_or_else(|| not_found("request"))?;
    Ok(reviews::for_request(&state.db, request.id).await?)
}

/// A page of a professional's reviews, newest first, with their summary over all of them.
pub async fn list_for_professional(
    state: &AppState,
    professional_id: Uuid,
    page: &PageRequest,
) -> ApiResult<(Vec<ReviewRow>, String, ReviewSummary)> {
    let rows = reviews::list_for_professional(&state.db, professional_id, page).await?;
    let (rows, next_page_token) = page.finish(rows, |review| (review.created_at, review.id));
    let summary = reviews::summary(&state.db, professional_id).await?;
    Ok((rows, next_page_token, summary))
}
