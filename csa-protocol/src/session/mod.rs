//! Sans-IO sessions (STYLE.md convention 7): state machines that never touch
//! a socket or the clock. Inputs are `handle_*` calls (bytes received, and
//! the current time, which the caller reads and passes in as a
//! [`Timestamp`]); outputs are pulled with `poll_*`. The two are tested
//! against each other in memory (`tests/games.rs`).
//!
//! # Time
//!
//! The sessions only compare time stamps, add durations to them and measure
//! the time between two of them, so any monotonic clock will do:
//! - with the `std` feature, [`std::time::Instant`](https://doc.rust-lang.org/std/time/struct.Instant.html) (the default type
//!   parameter, so `Server` means `Server<Instant>`);
//! - everywhere, [`core::time::Duration`] read as "time since an epoch the
//!   caller chose" (a tick counter, a monotonic timer, or simulated time in
//!   tests), so `no_std` programs need nothing beyond `core`;
//! - any other clock type, by implementing [`Timestamp`].
//!
//! Without `std` the default type parameter is `Duration`. Code that must
//! compile both ways (a `no_std` library whose users may turn `std` on)
//! names the parameter: `Server<Duration>`.
//!
//! ```
//! use core::time::Duration;
//! use csa_protocol::session::client::{Client, ClientConfig};
//! use csa_protocol::{Password, UserName};
//!
//! let config = ClientConfig::new(
//!     UserName::new("alice").unwrap(),
//!     Password::new("floodgate-300-10F,secret").unwrap(),
//! );
//! // Time in milliseconds since our own epoch, as a Duration.
//! let mut client: Client<Duration> = Client::new(config, Duration::ZERO);
//! assert_eq!(
//!     client.poll_transmit().unwrap(),
//!     b"LOGIN alice floodgate-300-10F,secret\n"
//! );
//! ```

use core::fmt::Debug;
use core::time::Duration;

pub mod client;
pub mod server;

/// A point in time on the caller's monotonic clock.
///
/// Implemented for [`Duration`] (time since an epoch the caller chose) and,
/// with the `std` feature, for [`std::time::Instant`](https://doc.rust-lang.org/std/time/struct.Instant.html).
pub trait Timestamp: Copy + Ord + Debug {
    /// The time from `earlier` to `self`; zero when `earlier` is later.
    fn saturating_duration_since(self, earlier: Self) -> Duration;

    /// `self + d`; when that cannot be represented, the latest time that
    /// can (a deadline that far ahead never comes, which is what a
    /// gigantic time control asks for). Never panics.
    fn saturating_add(self, d: Duration) -> Self;
}

impl Timestamp for Duration {
    fn saturating_duration_since(self, earlier: Self) -> Duration {
        Duration::saturating_sub(self, earlier)
    }

    fn saturating_add(self, d: Duration) -> Self {
        Duration::saturating_add(self, d)
    }
}

#[cfg(feature = "std")]
impl Timestamp for std::time::Instant {
    fn saturating_duration_since(self, earlier: Self) -> Duration {
        std::time::Instant::saturating_duration_since(&self, earlier)
    }

    fn saturating_add(self, d: Duration) -> Self {
        // `Instant` has no saturating add and no maximum: halve the
        // increment until it fits (at most 64 halvings; `d = 0` always fits).
        let mut d = d;
        loop {
            if let Some(t) = self.checked_add(d) {
                return t;
            }
            d /= 2;
        }
    }
}

/// The default time type of [`server::Server`] and [`client::Client`]:
/// [`std::time::Instant`](https://doc.rust-lang.org/std/time/struct.Instant.html) with the `std` feature, else [`Duration`].
#[cfg(feature = "std")]
pub type DefaultTimestamp = std::time::Instant;

/// The default time type of [`server::Server`] and [`client::Client`]:
/// [`std::time::Instant`](https://doc.rust-lang.org/std/time/struct.Instant.html) with the `std` feature, else [`Duration`].
#[cfg(not(feature = "std"))]
pub type DefaultTimestamp = Duration;

#[cfg(test)]
mod tests {
    use super::Timestamp;
    use core::time::Duration;

    #[test]
    fn duration_timestamps_saturate() {
        let t = Duration::from_secs(5);
        assert_eq!(
            Timestamp::saturating_duration_since(t, Duration::from_secs(7)),
            Duration::ZERO
        );
        assert_eq!(
            Timestamp::saturating_duration_since(t, Duration::from_secs(2)),
            Duration::from_secs(3)
        );
        assert_eq!(Timestamp::saturating_add(t, Duration::MAX), Duration::MAX);
    }

    #[cfg(feature = "std")]
    #[test]
    fn instant_add_never_panics() {
        let now = std::time::Instant::now();
        let far = Timestamp::saturating_add(now, Duration::MAX);
        assert!(far > now + Duration::from_secs(1_000_000_000));
        assert_eq!(
            Timestamp::saturating_add(now, Duration::from_secs(1)),
            now + Duration::from_secs(1)
        );
    }
}
