//! The wait before retrying work that failed at an outside service (sending a message,
//! translating a description, transferring a payout): doubled after each failure, bounded.

use std::time::Duration;

/// The wait after the `attempts`-th failure: `first`, then twice as long after each further
/// failure, at most `longest`.
pub fn doubling(attempts: i32, first: Duration, longest: Duration) -> Duration {
    let doublings = u32::try_from(attempts.saturating_sub(1))
        .unwrap_or(0)
        .min(20);
    first.saturating_mul(1 << doublings).min(longest)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_wait_doubles_from_the_first_up_to_the_longest() {
        let wait = |attempts| doubling(attempts, Duration::from_secs(60), Duration::from_secs(600));
        assert_eq!(wait(0), Duration::from_secs(60));
        assert_eq!(wait(1), Duration::from_secs(60));
        assert_eq!(wait(2), Duration::from_secs(120));
        assert_eq!(wait(4), Duration::from_secs(480));
        assert_eq!(wait(5), Duration::from_secs(600));
        assert_eq!(wait(i32::MAX), Duration::from_secs(600));
    }
}
