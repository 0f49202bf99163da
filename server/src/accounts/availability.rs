//! A professional's availability apart from their weekly days and hours, set in one tap and
//! never reviewed: a pause ("away until Monday 8:00") and an on-call window ("on call now for
//! four hours"). The matching rule reads both at the instant it runs
//! ([`crate::store::match_rule::available`], [`crate::store::match_rule::on_call`]): a paused
//! professional is not matched, not alerted and not escalated to, and their open quotes stay
//! live (hiring reads the approval state, not this); one on call is alerted of emergencies
//! outside their hours. The housekeeping pass clears the windows that ended ([`end_due`]).
//!
//! Bounds: a pause ends within [`MAX_PAUSE`] (90 days: a long holiday or a season off;
//! beyond that the weekly days or the membership are the tool, and a forgotten pause should
//! not silently keep someone out of the market for longer); an on-call window within
//! [`MAX_ON_CALL`] (24 hours: on call means watching the phone now, a night or a day;
//! a forgotten switch must not wake someone for emergencies for days; longer cover is the
//! weekly hours or "emergencies at any hour"). One of the two at a time: a paused
//! professional is not on call.

use chrono::{DateTime, Duration, Utc};
use serde_json::json;
use sqlx::PgPool;
use uuid::Uuid;

use crate::{
    auth::Caller,
    domain::Role,
    error::{ApiError, ApiResult, FieldViolation},
    state::AppState,
    store::{audit, professionals::AvailabilityRow},
};

/// The farthest end of a pause, from now.
pub const MAX_PAUSE: Duration = Duration::days(90);
/// The farthest end of an on-call window, from now.
pub const MAX_ON_CALL: Duration = Duration::hours(24);

/// What a caller asked for: each end, or `None` to end that window.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default)]
pub struct Wanted {
    pub paused_until: Option<DateTime<Utc>>,
    pub on_call_until: Option<DateTime<Utc>>,
}

impl Wanted {
    /// The stored form when every bound holds at `now`, or what is wrong, field by field.
    pub fn check(self, now: DateTime<Utc>) -> Result<AvailabilityRow, Vec<FieldViolation>> {
        let mut wrong = Vec::new();
        let mut within = |field: &str, end: Option<DateTime<Utc>>, max: Duration, what: &str| {
            if let Some(end) = end {
                if end <= now {
                    wrong.push(FieldViolation::new(field, "choose a time in the future"));
                } else if end - now > max {
                    wrong.push(FieldViolation::new(field, what));
                }
            }
        };
        within(
            "paused_until",
            self.paused_until,
            MAX_PAUSE,
            "a pause ends within 90 days",
        );
        within(
            "on_call_until",
            self.on_call_until,
            MAX_ON_CALL,
            "on call ends within 24 hours",
        );
        if self.paused_until.is_some() && self.on_call_until.is_some() {
            wrong.push(FieldViolation::new(
                "on_call_until",
                "choose a pause or on call, not both",
            ));
        }
        if wrong.is_empty() {
            Ok(AvailabilityRow {
                paused_until: self.paused_until,
                on_call_until: self.on_call_until,
            })
        } else {
            Err(wrong)
        }
    }
}

fn to_json(row: AvailabilityRow) -> serde_json::Value {
    json!({ "paused_until": row.paused_until, "on_call_until": row.on_call_until })
}

/// Sets professional `id`'s availability as `caller` (themself, or an admin: audited, in
/// the change's transaction).
pub async fn set(state: &AppState, caller: &Caller, id: Uuid, wanted: Wanted) -> ApiResult<()> {
    let next = wanted.check(Utc::now()).map_err(ApiError::invalid_fields)?;
    let mut tx = crate::store::transaction::begin(&state.db).await?;
    let Some(before) = crate::store::professionals::set_availability(&mut tx, id, next).await?
    else {
        return Err(crate::error::not_found("professional"));
    };
    if caller.role == Role::Admin {
        audit::record(
            &mut *tx,
            caller.account_id,
            "professional.availability",
            ("professional", &id.to_string()),
            "",
            Some(&to_json(before)),
            Some(&to_json(next)),
        )
        .await?;
    }
    tx.commit().await?;
    Ok(())
}

/// Pauses professional `id` until `until` (or their own later pause) after `released`
/// released hires, in the release's transaction `tx`; written to the audit log as the
/// server's own act, for the admins to see.
pub async fn pause_after_releases(
    tx: &mut sqlx::PgConnection,
    id: Uuid,
    until: DateTime<Utc>,
    released: i64,
) -> ApiResult<()> {
    let current = crate::store::professionals::lock_availability(&mut *tx, id)
        .await?
        .ok_or_else(|| crate::error::not_found("professional"))?;
    let next = AvailabilityRow {
        paused_until: Some(current.paused_until.map_or(until, |own| own.max(until))),
        on_call_until: None,
    };
    crate::store::professionals::set_availability(&mut *tx, id, next).await?;
    audit::record_by_server(
        &mut *tx,
        "professional.paused_after_releases",
        ("professional", &id.to_string()),
        &format!("{released} released hires in 30 days"),
        Some(&to_json(current)),
        Some(&to_json(next)),
    )
    .await?;
    Ok(())
}

/// The housekeeping step: clears the pauses and on-call windows that ended by `now` (the
/// rule already ignores them; this keeps the rows and what the professional is shown
/// tidy). Answers how many professionals' rows changed.
pub async fn end_due(db: &PgPool, now: DateTime<Utc>) -> sqlx::Result<u64> {
    crate::store::professionals::end_availability_due(db, now).await
}

#[cfg(test)]
mod tests {
    use super::*;

    fn at(hours: i64) -> Option<DateTime<Utc>> {
        Some(DateTime::<Utc>::UNIX_EPOCH + Duration::hours(1000 + hours))
    }

    fn now() -> DateTime<Utc> {
        DateTime::<Utc>::UNIX_EPOCH + Duration::hours(1000)
    }

    fn fields(wanted: Wanted) -> Vec<String> {
        wanted
            .check(now())
            .err()
            .unwrap_or_default()
            .into_iter()
            .map(|v| v.field)
            .collect()
    }

    #[test]
    fn a_pause_ends_in_the_future_within_ninety_days() {
        let pause = |hours| Wanted {
            paused_until: at(hours),
            on_call_until: None,
        };
        assert!(pause(1).check(now()).is_ok());
        assert!(pause(90 * 24).check(now()).is_ok());
        assert_eq!(fields(pause(90 * 24 + 1)), ["paused_until"]);
        assert_eq!(fields(pause(0)), ["paused_until"]);
        assert_eq!(fields(pause(-5)), ["paused_until"]);
    }

    #[test]
    fn on_call_ends_within_a_day_and_never_with_a_pause() {
        let on_call = |hours| Wanted {
            paused_until: None,
            on_call_until: at(hours),
        };
        assert!(on_call(24).check(now()).is_ok());
        assert_eq!(fields(on_call(25)), ["on_call_until"]);
        assert_eq!(
            fields(Wanted {
                paused_until: at(2),
                on_call_until: at(1),
            }),
            ["on_call_until"]
        );
        // Nothing set ends both.
        assert_eq!(
            Wanted::default().check(now()),
            Ok(AvailabilityRow::default())
        );
    }
}
