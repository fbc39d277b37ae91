//! The caller's clock, as the sans-IO driver and device take it.

use core::fmt::Debug;
use core::time::Duration;

/// A point in time on the caller's monotonic clock, passed to the
/// [`Driver`](crate::driver::Driver) and the [`Device`](crate::device::Device)
/// (they never read a clock themselves).
///
/// Implemented for [`Duration`] (time since any origin the caller picks:
/// a hardware timer's count, simulated time in tests; works without `std`)
/// and, with the `std` feature, for `std::time::Instant`. Implement it for
/// another monotonic clock type of yours if needed. The sessions only
/// compare time stamps, add durations to them and measure the time between
/// two of them; none of that panics.
pub trait Timestamp: Copy + Ord + Debug {
    /// `self + duration`, or the latest representable time when that is out
    /// of range.
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
impl Timestamp for std::time::Instant {
    fn saturating_add(self, duration: Duration) -> Self {
        // `Instant` has neither a saturating add nor a maximum: take the
        // largest half-step that fits (at most 64 halvings; zero always fits).
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
    fn duration_saturates() {
        let t = Duration::from_secs(5);
        assert_eq!(Timestamp::saturating_add(t, Duration::MAX), Duration::MAX);
        assert_eq!(
            Timestamp::saturating_duration_since(t, Duration::from_secs(7)),
            Duration::ZERO
        );
        assert_eq!(
            Timestamp::saturating_duration_since(t, Duration::from_secs(2)),
            Duration::from_secs(3)
        );
    }

    #[cfg(feature = "std")]
    #[test]
    fn instant_saturates() {
        let now = std::time::Instant::now();
        assert_eq!(
            Timestamp::saturating_add(now, Duration::from_secs(1)),
            now + Duration::from_secs(1)
        );
        let far = Timestamp::saturating_add(now, Duration::MAX);
        assert!(far > now + Duration::from_secs(1_000_000));
    }
}
