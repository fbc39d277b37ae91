//! Clock readings for sans-IO state machines.
//!
//! The protocol crates of this family (`damexchange`, `csa-protocol`,
//! `novag-citrine`) never read a clock: the caller passes the current time
//! into every `handle_*` call and gets deadlines back from `poll_timeout`.
//! [`Timestamp`] is what they need from such a time: comparing, adding a
//! duration, measuring the time between two readings — all without panics.

use core::fmt::Debug;
use core::time::Duration;

/// A point in time on the caller's monotonic clock.
///
/// Implemented for [`Duration`] (time since any origin the caller picks: a
/// hardware timer's count, simulated time in tests; works without `std`)
/// and, with the `std` feature, for `std::time::Instant`. Implement it for
/// another monotonic clock type if needed.
pub trait Timestamp: Copy + Ord + Debug {
    /// `self + duration`; when that cannot be represented, a time as late as
    /// can be (a deadline that far ahead never comes, which is what a
    /// gigantic time control asks for). Never panics.
    fn saturating_add(self, duration: Duration) -> Self;

    /// The time from `earlier` to `self`; zero when `earlier` is later.
    fn saturating_duration_since(self, earlier: Self) -> Duration;
}

impl Timestamp for Duration {
    fn saturating_add(self, duration: Duration) -> Self {
        Duration::saturating_add(self, duration)
    }

    fn saturating_duration_since(self, earlier: Self) -> Duration {
        Duration::saturating_sub(self, earlier)
    }
}

#[cfg(feature = "std")]
#[cfg_attr(docsrs, doc(cfg(feature = "std")))]
impl Timestamp for std::time::Instant {
    fn saturating_add(self, duration: Duration) -> Self {
        // `Instant` has neither a saturating add nor a maximum: take the
        // largest half-step that fits (zero always fits, so this ends after
        // at most ~100 halvings).
        let mut d = duration;
        loop {
            if let Some(t) = self.checked_add(d) {
                return t;
            }
            d /= 2;
        }
    }

    fn saturating_duration_since(self, earlier: Self) -> Duration {
        std::time::Instant::saturating_duration_since(&self, earlier)
    }
}

#[cfg(test)]
mod tests {
    use super::Timestamp;
    use core::time::Duration;

    #[test]
    fn durations_saturate() {
        let t = Duration::from_secs(5);
        assert_eq!(
            Timestamp::saturating_duration_since(t, Duration::from_secs(7)),
            Duration::ZERO
        );
        assert_eq!(
            Timestamp::saturating_duration_since(Duration::from_secs(7), t),
            Duration::from_secs(2)
        );
        assert_eq!(Timestamp::saturating_add(Duration::MAX, t), Duration::MAX);
    }

    #[cfg(feature = "std")]
    #[test]
    fn instants_saturate() {
        let now = std::time::Instant::now();
        let far = Timestamp::saturating_add(now, Duration::MAX);
        assert!(far > now);
        assert_eq!(
            Timestamp::saturating_duration_since(now, far),
            Duration::ZERO
        );
    }
}
