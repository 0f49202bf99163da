//! A customer blocks a professional from all their requests: no more messages or quotes
//! from them (FAILED_PRECONDITION, PROFESSIONAL_BLOCKED), their live quotes left for the
//! customer to act on; and lifts the block.

use uuid::Uuid;

use crate::{
    error::{ApiError, ApiResult, ErrorReason, not_found},
    state::AppState,
    store::{
        accounts::{self, AccountKind},
        professional_blocks::{self, BlockRow, MAX_BLOCKS},
    },
};

fn blocked() -> ApiError {
    ApiError::FailedPrecondition {
        reason: ErrorReason::ProfessionalBlocked,
        message: "the customer is not taking messages or quotes from this professional".to_owned(),
    }
}

/// PROFESSIONAL_BLOCKED when the customer of request `repair_request_id` blocked
/// `professional_id`; in the transaction that writes what they send.
pub async fn refuse_if_blocked(
    db: impl sqlx::PgExecutor<'_>,
    repair_request_id: Uuid,
    professional_id: Uuid,
) -> ApiResult<()> {
    if professional_blocks::is_blocked_on_request(db, repair_request_id, professional_id).await? {
        Err(blocked())
    } else {
        Ok(())
    }
}

/// Blocks the professional from all of the customer's requests; blocking a blocked one
/// answers unchanged. NOT_FOUND for a professional that does not exist.
pub async fn block(state: &AppState, customer_id: Uuid, professional_id: Uuid) -> ApiResult<()> {
    if !accounts::exists(&state.db, AccountKind::Professional, professional_id).await? {
        return Err(not_found("professional"));
    }
    if professional_blocks::block(&state.db, customer_id, professional_id).await? {
        Ok(())
    } else {
        Err(ApiError::invalid(
            "professional_id",
            format!("you can block up to {MAX_BLOCKS} professionals; unblock one first"),
        ))
    }
}

/// Lifts a block; lifting one that is not there answers unchanged.
pub async fn unblock(state: &AppState, customer_id: Uuid, professional_id: Uuid) -> ApiResult<()> {
    Ok(professional_blocks::unblock(&state.db, customer_id, professional_id).await?)
}

/// The customer's blocked professionals, newest first.
pub async fn list(state: &AppState, customer_id: Uuid) -> ApiResult<Vec<BlockRow>> {
    Ok(professional_blocks::list(&state.db, customer_id).await?)
}

/// PROFESSIONAL_BLOCKED when `customer_id` blocked `professional_id` (what a customer writes
/// to a professional they blocked is refused too: unblock them first).
pub async fn refuse_between(
    db: impl sqlx::PgExecutor<'_>,
    customer_id: Uuid,
    professional_id: Uuid,
) -> ApiResult<()> {
    if professional_blocks::is_blocked(db, customer_id, professional_id).await? {
        Err(blocked())
    } else {
        Ok(())
    }
}
