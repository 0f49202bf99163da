//! Escalation: an emergency nobody quoted on within `EMERGENCY_ESCALATE_AFTER` of its placing
//! is announced to the next ring: the professionals it matches who were not told of it yet,
//! soonest by road first (`matching::soonest_by_road`), the nearest `REPAIR_REQUEST_MAX_NOTIFIED` of those on duty and as many of those off duty
//! who chose, in their profile, to receive emergencies at any hour
//! (`matching::professionals_to_escalate_at`). Every server process sweeps; each request is
//! claimed once (`escalated_at`, `for update skip locked`) in the transaction that tells its
//! next ring through the placing's fan-out (`super::fanout::tell`), so its claims per
//! professional and channel, its SMS budget and its pushes apply unchanged, and nobody is
//! told twice. A request quoted on, hired, cancelled or expired is never escalated.

use std::time::Duration;

use chrono::{DateTime, Utc};
use tokio::{sync::watch, task::JoinHandle};

use super::fanout;
use crate::{matching, state::AppState, store::repair_requests};

/// Emergencies escalated in one sweep at most; the next sweep goes on.
const PER_SWEEP: usize = 100;

/// What one sweep did.
#[derive(Debug, Default, Clone, Copy, PartialEq, Eq)]
pub struct Escalated {
    /// Emergencies whose next ring was told.
    pub requests: usize,
    /// Professionals newly told of them.
    pub professionals: usize,
}

/// Escalates the emergencies due at `now`, one transaction each.
pub async fn escalate_due(state: &AppState, now: DateTime<Utc>) -> sqlx::Result<Escalated> {
    let after = chrono::Duration::from_std(state.config.emergency_escalate_after)
        .unwrap_or(chrono::Duration::MAX);
    let placed_by = now
        .checked_sub_signed(after)
        .unwrap_or(DateTime::<Utc>::MIN_UTC);
    let mut done = Escalated::default();
    while done.requests < PER_SWEEP {
        let mut tx = crate::store::transaction::begin(&state.db).await?;
        let Some(request) = repair_requests::claim_escalation(&mut tx, now, placed_by).await?
        else {
            break;
        };
        let limit = state.config.repair_request_max_notified;
        let ring = matching::professionals_to_escalate_at(&mut tx, request.id, now, limit).await?;
        let ring = fanout::still_alerted(&mut tx, ring).await?;
        let ring =
            matching::soonest_by_road(&state.distances, request.point(), ring, usize::MAX).await;
        let told = fanout::tell(&mut tx, state, &request, &ring).await?;
        tx.commit().await?;
        state.outbox.wake();
        state.metrics.emergency_escalated();
        tracing::info!(request = %request.id, told, "emergency escalated");
        done.requests += 1;
        done.professionals += told;
    }
    Ok(done)
}

/// How often each process sweeps: a tenth of the delay, between a second and a minute, so an
/// emergency is escalated soon after its time.
pub fn sweep_every(after: Duration) -> Duration {
    (after / 10).clamp(Duration::from_secs(1), Duration::from_secs(60))
}

/// Sweeps until `shutdown` turns true.
pub fn spawn(state: AppState, mut shutdown: watch::Receiver<bool>) -> JoinHandle<()> {
    let every = sweep_every(state.config.emergency_escalate_after);
    tokio::spawn(crate::store::transaction::tracked(async move {
        while !*shutdown.borrow() {
            if let Err(error) = escalate_due(&state, Utc::now()).await {
                tracing::error!(error = ?error, "emergency escalation failed");
            }
            tokio::select! {
                () = tokio::time::sleep(every) => {}
                changed = shutdown.changed() => if changed.is_err() { break },
            }
        }
    }))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn sweeps_come_a_tenth_of_the_delay_apart_within_a_second_and_a_minute() {
        assert_eq!(
            sweep_every(Duration::from_secs(600)),
            Duration::from_secs(60)
        );
        assert_eq!(
            sweep_every(Duration::from_secs(3600)),
            Duration::from_secs(60)
        );
        assert_eq!(
            sweep_every(Duration::from_secs(120)),
            Duration::from_secs(12)
        );
        assert_eq!(sweep_every(Duration::from_secs(2)), Duration::from_secs(1));
    }
}
