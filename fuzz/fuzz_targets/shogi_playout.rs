#![no_main]

use core::ops::ControlFlow;

use board_core::shogi::Position;

libfuzzer_sys::fuzz_target!(|data: &[u8]| {
    boardwire_fuzz::shogi::playout(data);
    early_exit(data);
});

/// A random playout (one byte per ply chooses the move): at every position
/// the callback generator passes exactly the listed moves, in list order,
/// up to the one the byte chooses, where it stops at its `Break`; and the
/// early-exit queries (`has_legal_move`, `is_checkmate`) agree with the
/// list.
fn early_exit(choices: &[u8]) {
    let mut pos = Position::startpos();
    for &c in choices {
        let moves = pos.legal_moves();
        assert_eq!(!pos.has_legal_move(), moves.is_empty(), "{pos}");
        assert_eq!(
            pos.is_checkmate(),
            pos.is_check() && moves.is_empty(),
            "{pos}"
        );
        if moves.is_empty() {
            break;
        }
        let k = c as usize % moves.len();
        let mut seen = 0;
        let flow = pos.for_each_legal_move(|m| {
            assert_eq!(m, moves[seen], "{pos}");
            seen += 1;
            if seen > k {
                ControlFlow::Break(m)
            } else {
                ControlFlow::Continue(())
            }
        });
        assert_eq!(flow, ControlFlow::Break(moves[k]), "{pos}");
        assert_eq!(seen, k + 1, "{pos}");
        pos.play_unchecked(moves[k]);
    }
}
