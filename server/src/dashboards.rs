//! The dashboards' counters, counted in the database rather than from lists. A
//! professional's pass the membership gate first, as every marketplace call of theirs does.

use chrono::Utc;
use sqlx::PgPool;
use uuid::Uuid;

use crate::{
    auth::Caller,
    billing::membership,
    domain::{Role, conversation::Side},
    error::ApiResult,
    matching,
    requests::{self, Viewed},
    store::{
        conversations,
        quotes::{self, ProfessionalCounts},
        repair_requests::{self, CustomerCounts},
        request_matches,
    },
};

/// How many of the newest matching requests the professional dashboard lists.
const LATEST_REQUESTS: i64 = 5;

/// Messages the caller (a customer or a professional, on their own dashboard) has not read.
pub async fn unread_messages(db: &PgPool, caller: &Caller) -> ApiResult<i64> {
    let side = match caller.role {
        Role::Customer => Side::Customer,
        Role::Professional => Side::Professional,
        Role::Admin => return Ok(0),
    };
    Ok(conversations::unread_total(db, caller.account_id, side).await?)
}

pub async fn customer(db: &PgPool, customer_id: Uuid) -> ApiResult<CustomerCounts> {
    Ok(repair_requests::customer_counts(db, customer_id).await?)
}

/// A professional's dashboard.
#[derive(Debug, Clone)]
pub struct ProfessionalDashboard {
    /// Requests they were told of (matched with and notified), whatever became of them.
    pub received: i64,
    pub counts: ProfessionalCounts,
    /// The newest open requests that match them now (the matching rule), as they may see
    /// them (no street).
    pub latest: Vec<Viewed>,
}

pub async fn professional(db: &PgPool, professional_id: Uuid) -> ApiResult<ProfessionalDashboard> {
    membership::require_active(db, professional_id).await?;
    let newest =
        matching::latest_open_for(db, professional_id, LATEST_REQUESTS, Utc::now()).await?;
    let counts = quotes::professional_counts(db, professional_id).await?;
    Ok(ProfessionalDashboard {
        received: request_matches::told_count(db, professional_id).await?,
        counts,
        latest: requests::approximate_views(db, professional_id, &newest).await?,
    })
}
