//! Retrying a store call that failed: waits that double up to a ceiling, and a log line at the
//! 1st, 2nd, 4th, 8th … failure and every 10th once the waits are at their longest, so that an
//! outage is a few lines in the log, not one a second from every room.

use std::time::Duration;

/// A run of failures of one kind of call.
#[derive(Debug)]
pub struct Backoff {
    first: Duration,
    most: Duration,
    failures: u64,
}

/// What to do after a failure.
#[derive(Clone, Copy, Debug)]
pub struct Retry {
    /// How long to wait before the next attempt.
    pub wait: Duration,
    /// Whether this failure is worth a log line.
    pub log: bool,
    /// Failures in a row so far, this one included.
    pub attempt: u64,
}

impl Backoff {
    /// Waits from `first`, doubling, up to `most`.
    pub const fn new(first: Duration, most: Duration) -> Backoff {
        Backoff {
            first,
            most,
            failures: 0,
        }
    }

    /// Another failure.
    pub fn failed(&mut self) -> Retry {
        self.failures += 1;
        let doublings = u32::try_from(self.failures - 1).unwrap_or(u32::MAX).min(20);
        let wait = self.first.saturating_mul(1 << doublings).min(self.most);
        Retry {
            wait,
            log: self.failures.is_power_of_two() || self.failures.is_multiple_of(10),
            attempt: self.failures,
        }
    }

    /// A success: the run of failures ends; returns how long it was.
    pub fn succeeded(&mut self) -> u64 {
        std::mem::replace(&mut self.failures, 0)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn waits_double_to_the_ceiling_and_few_failures_are_logged() {
        let mut b = Backoff::new(Duration::from_millis(100), Duration::from_secs(30));
        let retries: Vec<Retry> = (0..60).map(|_| b.failed()).collect();
        let waits: Vec<u64> = retries[..10]
            .iter()
            .map(|r| r.wait.as_millis() as u64)
            .collect();
        assert_eq!(
            waits,
            [100, 200, 400, 800, 1600, 3200, 6400, 12800, 25600, 30000]
        );
        assert_eq!(retries[59].wait, Duration::from_secs(30));
        let logged: Vec<u64> = retries
            .iter()
            .filter(|r| r.log)
            .map(|r| r.attempt)
            .collect();
        assert_eq!(logged, [1, 2, 4, 8, 10, 16, 20, 30, 32, 40, 50, 60]);
        assert_eq!(b.succeeded(), 60);
        assert_eq!(
            b.failed().wait,
            Duration::from_millis(100),
            "a new run starts short"
        );
    }
}
