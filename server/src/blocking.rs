//! CPU-heavy work (password hashes, photos decoded and written again) run off the async
//! threads, bounded so that a burst cannot take the server down: at most `concurrency` jobs
//! run at once on the blocking pool, at most `queue` more wait for a turn, and any further
//! caller is refused at once rather than piling up in memory.

use std::sync::Arc;

use tokio::sync::Semaphore;

/// Bounded concurrency and a bounded queue for one kind of blocking work.
pub struct BlockingLane {
    /// Permits for running or waiting: `concurrency + queue`.
    admission: Arc<Semaphore>,
    /// Permits for running: `concurrency`.
    workers: Arc<Semaphore>,
}

/// Why a job did not run to its end.
#[derive(Debug, thiserror::Error)]
pub enum LaneError {
    /// Every running slot and waiting place is taken.
    #[error("every worker and queue place is taken")]
    Busy,
    /// The job panicked (or the runtime is shutting down).
    #[error("blocking task: {0}")]
    Failed(#[from] tokio::task::JoinError),
}

impl BlockingLane {
    /// `concurrency` jobs at once (at least one), `queue` more waiting.
    pub fn new(concurrency: usize, queue: usize) -> Self {
        let concurrency = concurrency.max(1);
        Self {
            admission: Arc::new(Semaphore::new(concurrency + queue)),
            workers: Arc::new(Semaphore::new(concurrency)),
        }
    }

    /// How many jobs may run at once.
    pub fn concurrency(&self) -> usize {
        self.workers.available_permits()
    }

    /// Takes a queue place (or refuses at once), waits for a worker, and runs `work` on the
    /// blocking pool. The permits go with the work, so a caller that gives up (a cancelled
    /// call) frees its worker only when the work ends.
    pub async fn run<T: Send + 'static>(
        &self,
        work: impl FnOnce() -> T + Send + 'static,
    ) -> Result<T, LaneError> {
        let place = self
            .admission
            .clone()
            .try_acquire_owned()
            .map_err(|_| LaneError::Busy)?;
        let worker = self
            .workers
            .clone()
            .acquire_owned()
            .await
            .map_err(|_| LaneError::Busy)?;
        let result = tokio::task::spawn_blocking(move || {
            let result = work();
            drop((worker, place));
            result
        })
        .await?;
        Ok(result)
    }
}

#[cfg(test)]
mod tests {
    use std::sync::atomic::{AtomicUsize, Ordering};

    use super::*;

    #[tokio::test]
    async fn callers_beyond_the_workers_and_the_queue_are_refused_at_once() {
        let lane = Arc::new(BlockingLane::new(1, 1));
        let running = Arc::new(AtomicUsize::new(0));
        let most = Arc::new(AtomicUsize::new(0));
        let calls: Vec<_> = (0..6)
            .map(|_| {
                let (lane, running, most) = (lane.clone(), running.clone(), most.clone());
                tokio::spawn(async move {
                    lane.run(move || {
                        let now = running.fetch_add(1, Ordering::SeqCst) + 1;
                        most.fetch_max(now, Ordering::SeqCst);
                        std::thread::sleep(std::time::Duration::from_millis(50));
                        running.fetch_sub(1, Ordering::SeqCst);
                    })
                    .await
                })
            })
            .collect();
        let mut busy = 0;
        for call in calls {
            match call.await.unwrap() {
                Ok(()) => {}
                Err(LaneError::Busy) => busy += 1,
                Err(other) => panic!("{other}"),
            }
        }
        assert!(
            busy >= 1,
            "one worker and one place cannot take six at once"
        );
        assert_eq!(most.load(Ordering::SeqCst), 1, "never two at once");
        assert_eq!(lane.concurrency(), 1, "every permit came back");
    }
}
