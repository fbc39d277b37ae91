//! proptest strategies shared by the integration tests
//! (`#[path = "common/strategies.rs"] mod strategies;`).

use csa_protocol::types::CsaMove;
use proptest::prelude::*;

/// A move of a piece from `pieces` (two-letter codes): any side, origin
/// and destination; with a `00` origin (a drop) only the pieces that can
/// be dropped (the others are filtered out).
pub fn arb_move(pieces: Vec<&'static str>) -> impl Strategy<Value = CsaMove> {
    (
        prop::bool::ANY,
        0u8..=9,
        1u8..=9,
        1u8..=9,
        1u8..=9,
        prop::sample::select(pieces),
    )
        .prop_filter_map(
            "droppable pieces only for 00",
            |(black, ff, fr, tf, tr, p)| {
                let (ff, fr) = if ff == 0 { (0, 0) } else { (ff, fr) };
                let s = format!("{}{ff}{fr}{tf}{tr}{p}", if black { '+' } else { '-' });
                CsaMove::parse(s.as_bytes()).ok()
            },
        )
}
