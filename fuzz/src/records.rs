//! Game records (board-records): PGN and PDN readers on any bytes.
//!
//! Property: reading never panics and ends (each `next_game` consumes
//! input, so a stream of N bytes gives at most N + 1 results), and every
//! game that reads is written back (`to_pgn` / `to_pdn`) as text that reads
//! again to the same moves — the writer's output is always readable.

use board_records::{pdn, pgn};

/// PGN: read every game of `data`; each one read round-trips its moves.
pub fn pgn_read(data: &[u8]) {
    let mut r = pgn::Reader::new(data);
    let mut n = 0usize;
    while let Some(g) = r.next_game() {
        if let Ok(g) = g {
            let text = g.to_pgn();
            let again = pgn::Reader::new(text.as_bytes())
                .next_game()
                .expect("our PGN holds a game")
                .unwrap_or_else(|e| panic!("our PGN does not read back: {e}\n{text}"));
            assert_eq!(again.moves, g.moves, "{text}");
        }
        n += 1;
        assert!(n <= data.len() + 1, "the PGN reader does not advance");
    }
}

/// PDN: the same with the PDN reader and writer.
pub fn pdn_read(data: &[u8]) {
    let mut r = pdn::Reader::new(data);
    let mut n = 0usize;
    while let Some(g) = r.next_game() {
        if let Ok(g) = g {
            let text = g.to_pdn();
            let again = pdn::Reader::new(text.as_bytes())
                .next_game()
                .expect("our PDN holds a game")
                .unwrap_or_else(|e| panic!("our PDN does not read back: {e}\n{text}"));
            assert_eq!(again.moves, g.moves, "{text}");
        }
        n += 1;
        assert!(n <= data.len() + 1, "the PDN reader does not advance");
    }
}
