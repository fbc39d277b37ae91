//! CSA clocks → USI `go` ([`csa_protocol::spec::csa`], *Game_Summary*: the Time
//! block's `Time_Unit`, `Total_Time`, `Byoyomi`, `Increment`,
//! `Least_Time_Per_Move`; *Moves*: the `,T` of each confirmation).
//!
//! The CSA [`Client`] session keeps both clocks from the `Game_Summary`
//! and the `T` of every confirmed move (in the side's `Time_Unit`, so
//! `1min` and `1msec` blocks come out in milliseconds alike); on a side's
//! turn its increment is already added (CSA Fischer: before each turn),
//! and every move was charged at least `Least_Time_Per_Move` by the
//! server, which the `T` values already say. [`go`] turns the two clocks
//! into a USI `go`:
//!
//! - `btime`/`wtime`: each side's remaining time, the increment of the
//!   side to move taken out again (USI adds `binc`/`winc` itself);
//! - `byoyomi` when our Time block has one, else `binc`/`winc` when an
//!   increment is set (USI allows one of the two);
//! - the safety `margin` (network and process latency, the server's whole
//!   seconds) comes off what the engine may use for this move: first off
//!   our remaining time, then off the increment, then off the byoyomi, so
//!   that `remaining + increment + byoyomi - margin` is what the engine
//!   sees (never below 0);
//! - no clock at all (`Total_Time`, `Byoyomi`, `Increment` all 0 or
//!   absent): `btime 0 wtime 0 byoyomi <unlimited>` (the engine is given
//!   a fixed time per move; USI has no `movetime`).

use csa_protocol::message::TimeSection;
use csa_protocol::session::Client;
use csa_protocol::types::Side;

use crate::usi::Go;

/// One side's clock for [`go`], in milliseconds.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default)]
pub struct SideClock {
    /// Remaining time now (byoyomi excluded; on the side's own turn its
    /// increment for this turn is included).
    pub remaining_ms: u64,
    /// `Byoyomi` of its Time block.
    pub byoyomi_ms: u64,
    /// `Increment` of its Time block.
    pub increment_ms: u64,
}

impl SideClock {
    /// From a Time block (`Total_Time` etc. in its `Time_Unit`) and the
    /// remaining time the session tracks (`None`: the block's
    /// `Total_Time`).
    pub fn from_section(t: &TimeSection, remaining_ms: Option<u64>) -> Self {
        Self {
            remaining_ms: remaining_ms.unwrap_or_else(|| t.to_millis(t.total_time.unwrap_or(0))),
            byoyomi_ms: t.to_millis(t.byoyomi.unwrap_or(0)),
            increment_ms: t.to_millis(t.increment.unwrap_or(0)),
        }
    }

    fn is_unlimited(&self) -> bool {
        self.remaining_ms == 0 && self.byoyomi_ms == 0 && self.increment_ms == 0
    }
}

/// The `go` for `us` to move, given both clocks and the margin (ms);
/// `unlimited_ms` is the byoyomi sent when the game has no clock. See the
/// module documentation for the rules.
pub fn go(black: SideClock, white: SideClock, us: Side, margin_ms: u64, unlimited_ms: u64) -> Go {
    let (mine, _theirs) = match us {
        Side::Black => (black, white),
        Side::White => (white, black),
    };
    if mine.is_unlimited() {
        return Go {
            btime: 0,
            wtime: 0,
            byoyomi: Some(unlimited_ms),
            ..Go::default()
        };
    }
    // On our turn our increment is in our remaining time; the opponent's
    // is not yet (it is added when its turn starts).
    let base = |c: SideClock, on_move: bool| {
        if on_move {
            c.remaining_ms.saturating_sub(c.increment_ms)
        } else {
            c.remaining_ms
        }
    };
    let mut b = base(black, us == Side::Black);
    let mut w = base(white, us == Side::White);
    let mut inc = mine.increment_ms;
    let mut byo = mine.byoyomi_ms;
    let mut left = margin_ms;
    for part in [
        match us {
            Side::Black => &mut b,
            Side::White => &mut w,
        },
        &mut inc,
        &mut byo,
    ] {
        let take = left.min(*part);
        *part -= take;
        left -= take;
    }
    if mine.byoyomi_ms > 0 || mine.increment_ms == 0 {
        Go {
            btime: b,
            wtime: w,
            byoyomi: Some(byo),
            ..Go::default()
        }
    } else {
        let (bi, wi) = match us {
            Side::Black => (inc, white.increment_ms),
            Side::White => (black.increment_ms, inc),
        };
        Go {
            btime: b,
            wtime: w,
            binc: Some(bi),
            winc: Some(wi),
            ..Go::default()
        }
    }
}

/// Both clocks of the game `client` plays, as [`go`] takes them (the
/// `Game_Summary`'s Time blocks, `Time+`/`Time-` where given, and the
/// remaining times the session tracked from the confirmations). `None`
/// outside a game.
pub fn clocks<I: csa_protocol::session::Timestamp>(
    client: &Client<I>,
) -> Option<(SideClock, SideClock)> {
    let s = client.summary()?;
    let section = |side: Side| {
        let t = match side {
            Side::Black => s.time_black.as_ref(),
            Side::White => s.time_white.as_ref(),
        };
        t.or(s.time.as_ref()).cloned().unwrap_or_default()
    };
    let clock = |side: Side| {
        let t = section(side);
        let rem = client.remaining(side).map(|d| d.as_millis() as u64);
        SideClock::from_section(&t, Some(rem.unwrap_or(0)))
    };
    Some((clock(Side::Black), clock(Side::White)))
}

#[cfg(test)]
mod tests {
    use super::*;

    fn section(
        unit: Option<csa_protocol::message::TimeUnit>,
        total: u64,
        byoyomi: u64,
        inc: u64,
    ) -> TimeSection {
        TimeSection {
            time_unit: unit,
            total_time: Some(total),
            byoyomi: Some(byoyomi),
            increment: Some(inc),
            ..TimeSection::default()
        }
    }

    /// [`go`] at the start of a game on `t`'s clocks, sente to move.
    fn fresh_go(t: TimeSection, margin_ms: u64, unlimited_ms: u64) -> Go {
        let c = SideClock::from_section(&t, None);
        go(c, c, Side::Black, margin_ms, unlimited_ms)
    }

    #[test]
    fn byoyomi_only() {
        // floodgate-0-1 style: Total_Time:0, Byoyomi:1 (seconds).
        let g = fresh_go(section(None, 0, 1, 0), 300, 5000);
        assert_eq!((g.btime, g.wtime, g.byoyomi), (0, 0, Some(700)));
        assert_eq!(
            crate::usi::Command::Go(g).to_bytes(),
            b"go btime 0 wtime 0 byoyomi 700\n"
        );
        // Remaining time first absorbs the margin.
        let t = section(None, 600, 10, 0);
        let us = SideClock::from_section(&t, Some(590_000));
        let them = SideClock::from_section(&t, Some(598_000));
        let g = go(them, us, Side::White, 500, 5000);
        assert_eq!(
            (g.btime, g.wtime, g.byoyomi),
            (598_000, 589_500, Some(10_000))
        );
        // A margin larger than everything: nothing below zero.
        assert_eq!(fresh_go(section(None, 0, 1, 0), 5000, 1).byoyomi, Some(0));
    }

    #[test]
    fn fischer() {
        // floodgate-300-10F: Total_Time:300, Increment:10. On our first
        // turn the session has already added our increment (310 s).
        let t = section(None, 300, 0, 10);
        let us = SideClock::from_section(&t, Some(310_000));
        let them = SideClock::from_section(&t, Some(300_000));
        let g = go(us, them, Side::Black, 1000, 5000);
        assert_eq!(
            (g.btime, g.wtime, g.byoyomi, g.binc, g.winc),
            (299_000, 300_000, None, Some(10_000), Some(10_000))
        );
        // Below the margin: the increment pays the rest.
        let us = SideClock::from_section(&t, Some(10_400));
        let g = go(them, us, Side::White, 1000, 5000);
        assert_eq!((g.wtime, g.winc, g.binc), (0, Some(9_400), Some(10_000)));
    }

    /// A client logged in, in the game of `time_block` (`BEGIN Time` ..
    /// `END Time` lines), playing `side`, after the confirmations `lines`.
    fn client(time_block: &str, side: &str, lines: &str) -> Client<core::time::Duration> {
        use csa_protocol::session::ClientConfig;
        use csa_protocol::types::{Password, UserName};
        let t0 = core::time::Duration::ZERO;
        let config = ClientConfig::new(
            UserName::new("a".to_string()).unwrap(),
            Password::new("g".to_string()).unwrap(),
        );
        let mut c = Client::new(config, t0);
        let summary = format!(
            "LOGIN:a OK\nBEGIN Game_Summary\nProtocol_Version:1.2\nGame_ID:g1\nName+:a\nName-:b\n\
             Your_Turn:{side}\nTo_Move:+\n{time_block}BEGIN Position\nPI\n+\nEND Position\nEND Game_Summary\n"
        );
        c.handle_input(summary.as_bytes(), t0);
        while c.poll_event().is_some() {}
        c.agree(t0).unwrap();
        c.handle_input(b"START:g1\n", t0);
        c.handle_input(lines.as_bytes(), t0);
        while let Some(e) = c.poll_event() {
            assert!(
                !matches!(e, csa_protocol::session::Event::BoardMismatch { .. }),
                "{e}"
            );
        }
        c
    }

    /// [`go`] for `us` (margin `margin_ms`) on the clocks of
    /// [`client`]`(block, turn, moves)`.
    fn go_after(block: &str, turn: &str, moves: &str, us: Side, margin_ms: u64) -> Go {
        let (b, w) = clocks(&client(block, turn, moves)).unwrap();
        go(b, w, us, margin_ms, 0)
    }

    #[test]
    fn time_units_and_confirmations() {
        // Time_Unit:1min: Total_Time 10 = 600 s, Byoyomi 1 = 60 s; `T2` is
        // two minutes (csa-protocol's spec/csa.md, *Game_Summary*).
        let block = "BEGIN Time\nTime_Unit:1min\nTotal_Time:10\nByoyomi:1\nEND Time\n";
        let g = go_after(block, "+", "", Side::Black, 0);
        assert_eq!(
            (g.btime, g.wtime, g.byoyomi),
            (600_000, 600_000, Some(60_000))
        );
        let g = go_after(block, "+", "+7776FU,T2\n-3334FU,T1\n", Side::Black, 500);
        assert_eq!(
            (g.btime, g.wtime, g.byoyomi),
            (479_500, 540_000, Some(60_000))
        );
        // Time_Unit:1msec with an increment: Total_Time 60000 = 60 s,
        // Increment 1000 = 1 s; `T1500` is 1.5 s. Gote on move after one
        // sente's move, gote's increment is in gote's clock.
        let block = "BEGIN Time\nTime_Unit:1msec\nTotal_Time:60000\nIncrement:1000\nEND Time\n";
        let g = go_after(block, "-", "+7776FU,T1500\n", Side::White, 200);
        assert_eq!(
            (g.btime, g.wtime, g.binc, g.winc, g.byoyomi),
            (59_500, 59_800, Some(1000), Some(1000), None)
        );
    }

    #[test]
    fn no_clock() {
        let g = fresh_go(section(None, 0, 0, 0), 500, 3000);
        assert_eq!((g.btime, g.wtime, g.byoyomi), (0, 0, Some(3000)));
    }
}
