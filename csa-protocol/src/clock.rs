//! Game clocks and wall-clock formatting shared by the sessions.
//!
//! One consistent reading of the CSA time rules ([`spec::csa`](crate::spec::csa), *Server-side
//! legality*; the CSA server protocol's Time block for `Delay` (1.2) and
//! `Time_Roundup`): at the start of each of a player's turns (the first
//! included) `remaining += increment`; a move that took `elapsed` is charged
//! `t = max(round(elapsed - delay), least_time_per_move)` whole seconds,
//! where `round` truncates, or rounds up when `Time_Roundup` is `YES`, and
//! the first `delay` of every turn is free; `remaining -= t` (never below
//! zero; byoyomi is never consumed); the player loses on time as soon as the
//! elapsed time of the current turn exceeds `delay + remaining + byoyomi`.
//!
//! shogi-server implements neither `Delay` nor `Time_Roundup` (it always
//! truncates and never sends the two lines); with both at their defaults
//! (0, `NO`) the rules above are exactly its rules. `Delay` is read as a
//! "simple delay" (the clock starts `delay` after the turn starts), the
//! usual meaning of a clock delay.

use core::time::Duration;

/// A time control in milliseconds.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default)]
pub struct TimeControl {
    /// Initial remaining time.
    pub total_ms: u64,
    /// Byoyomi per move.
    pub byoyomi_ms: u64,
    /// Fischer increment added before each turn.
    pub increment_ms: u64,
    /// Minimum charge per move.
    pub least_time_per_move_ms: u64,
    /// `Delay`: the free part of every turn, not charged.
    pub delay_ms: u64,
    /// `Time_Roundup: YES`: a move's time is rounded up to the next whole
    /// second instead of truncated.
    pub round_up: bool,
}

impl TimeControl {
    /// No limit at all (Total_Time, Byoyomi and Increment all 0).
    pub fn is_unlimited(&self) -> bool {
        self.total_ms == 0 && self.byoyomi_ms == 0 && self.increment_ms == 0
    }
}

/// One player's clock.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Clock {
    /// The control.
    pub control: TimeControl,
    /// Remaining time in milliseconds (byoyomi excluded).
    pub remaining_ms: u64,
}

impl Clock {
    /// A full clock.
    pub fn new(control: TimeControl) -> Self {
        Self {
            control,
            remaining_ms: control.total_ms,
        }
    }

    /// Call at the start of each of the player's turns (adds the increment).
    pub fn start_turn(&mut self) {
        self.remaining_ms = self.remaining_ms.saturating_add(self.control.increment_ms);
    }

    /// The time allowed for the current turn (delay + remaining + byoyomi),
    /// or `None` when unlimited.
    pub fn allowance(&self) -> Option<Duration> {
        if self.control.is_unlimited() {
            None
        } else {
            Some(Duration::from_millis(
                self.remaining_ms
                    .saturating_add(self.control.byoyomi_ms)
                    .saturating_add(self.control.delay_ms),
            ))
        }
    }

    /// `true` when `elapsed` exceeds the allowance (time up).
    pub fn is_time_up(&self, elapsed: Duration) -> bool {
        self.allowance().is_some_and(|a| elapsed > a)
    }

    /// Charges a move that took `elapsed`; returns the charged whole seconds
    /// (the `T` of the confirmation).
    pub fn charge(&mut self, elapsed: Duration) -> u64 {
        let counted = elapsed.saturating_sub(Duration::from_millis(self.control.delay_ms));
        let whole = counted.as_secs();
        let rounded = if self.control.round_up && counted.subsec_nanos() > 0 {
            whole.saturating_add(1)
        } else {
            whole
        };
        let secs = rounded.max(self.control.least_time_per_move_ms / 1000);
        self.remaining_ms = self.remaining_ms.saturating_sub(secs.saturating_mul(1000));
        secs
    }
}

/// Civil date and time (UTC) of a Unix timestamp: `(y, m, d, hh, mm, ss)`.
///
/// Days-to-civil conversion after Howard Hinnant's public description of the
/// algorithm ("chrono-compatible low-level date algorithms").
pub fn civil(unix_secs: u64) -> (i64, u32, u32, u32, u32, u32) {
    let days = (unix_secs / 86_400) as i64;
    let rem = unix_secs % 86_400;
    let z = days + 719_468;
    let era = z.div_euclid(146_097);
    let doe = z - era * 146_097;
    let yoe = (doe - doe / 1460 + doe / 36_524 - doe / 146_096) / 365;
    let y = yoe + era * 400;
    let doy = doe - (365 * yoe + yoe / 4 - yoe / 100);
    let mp = (5 * doy + 2) / 153;
    let d = (doy - (153 * mp + 2) / 5 + 1) as u32;
    let m = if mp < 10 { mp + 3 } else { mp - 9 } as u32;
    let y = if m <= 2 { y + 1 } else { y };
    (
        y,
        m,
        d,
        (rem / 3600) as u32,
        (rem % 3600 / 60) as u32,
        (rem % 60) as u32,
    )
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn civil_dates() {
        assert_eq!(civil(0), (1970, 1, 1, 0, 0, 0));
        // 2026-11-29 14:56:35 UTC (the transcript's first Game_ID stamp).
        assert_eq!(civil(1_795_964_195), (2026, 11, 29, 14, 56, 35));
        assert_eq!(civil(951_782_400), (2000, 2, 29, 0, 0, 0));
    }

    #[test]
    fn clock_rules() {
        let c = TimeControl {
            total_ms: 300_000,
            byoyomi_ms: 10_000,
            increment_ms: 0,
            least_time_per_move_ms: 1000,
            ..Default::default()
        };
        let mut k = Clock::new(c);
        k.start_turn();
        assert_eq!(k.charge(Duration::from_millis(9_618)), 9);
        assert_eq!(k.remaining_ms, 291_000);
        assert_eq!(
            k.charge(Duration::from_millis(10)),
            1,
            "least time per move"
        );
        assert!(!k.is_time_up(Duration::from_secs(300)));
        assert!(k.is_time_up(Duration::from_millis(300_001)));
        let mut f = Clock::new(TimeControl {
            total_ms: 10_000,
            increment_ms: 5_000,
            ..Default::default()
        });
        f.start_turn();
        assert_eq!(
            f.remaining_ms, 15_000,
            "increment before the first turn too"
        );
        assert!(Clock::new(TimeControl::default()).allowance().is_none());
    }

    #[test]
    fn time_roundup_rounds_partial_seconds_up() {
        let c = TimeControl {
            total_ms: 60_000,
            ..Default::default()
        };
        let mut down = Clock::new(c);
        let mut up = Clock::new(TimeControl {
            round_up: true,
            ..c
        });
        assert_eq!(down.charge(Duration::from_millis(9_001)), 9);
        assert_eq!(up.charge(Duration::from_millis(9_001)), 10);
        assert_eq!(up.charge(Duration::from_secs(9)), 9, "whole seconds stay");
        assert_eq!(up.charge(Duration::ZERO), 0);
        assert_eq!(up.remaining_ms, 41_000);
    }

    #[test]
    fn delay_is_the_free_start_of_every_turn() {
        let c = TimeControl {
            total_ms: 10_000,
            byoyomi_ms: 5_000,
            delay_ms: 3_000,
            least_time_per_move_ms: 1_000,
            ..Default::default()
        };
        let mut k = Clock::new(c);
        assert_eq!(
            k.charge(Duration::from_millis(2_500)),
            1,
            "least time per move still applies"
        );
        assert_eq!(k.charge(Duration::from_millis(7_900)), 4);
        assert_eq!(k.remaining_ms, 5_000);
        // delay 3 s + remaining 5 s + byoyomi 5 s
        assert_eq!(k.allowance(), Some(Duration::from_secs(13)));
        assert!(!k.is_time_up(Duration::from_secs(13)));
        assert!(k.is_time_up(Duration::from_millis(13_001)));
        let mut r = Clock::new(TimeControl {
            round_up: true,
            ..c
        });
        assert_eq!(r.charge(Duration::from_millis(7_900)), 5);
    }
}
