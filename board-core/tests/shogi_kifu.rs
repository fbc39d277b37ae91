//! Replays of real Floodgate games (CSA kifu, legacy EUC-JP comments: read
//! as bytes). The full kifu reader belongs to the csa-protocol crate; this
//! test extracts only the position block and the move lines.

use board_core::shogi::{
    CsaMove, CsaPositionParser, CsaPositionStatus, IllegalReason, MoveTextError, Position,
};

// The recorded files, one copy for the workspace (the boardwire-vectors crate).
const UCHIFUZUME: &[u8] = boardwire_vectors::data::KIFU_UCHIFUZUME;
const FLOODGATE_158: &[u8] = boardwire_vectors::data::KIFU_FLOODGATE_GPS;

struct Kifu<'a> {
    initial: Position,
    moves: Vec<&'a [u8]>,
    specials: Vec<&'a [u8]>,
    /// Lines of the final `'P1`.. `'+` comment block (the server's dump).
    final_dump: Vec<&'a [u8]>,
}

fn read_kifu(bytes: &[u8]) -> Kifu<'_> {
    let mut parser = CsaPositionParser::new();
    let mut initial = None;
    let mut moves = Vec::new();
    let mut specials = Vec::new();
    let mut final_dump = Vec::new();
    for line in bytes.split(|&b| b == b'\n') {
        let line = line.strip_suffix(b"\r").unwrap_or(line);
        if initial.is_none() {
            if (line.starts_with(b"P") || line == b"+" || line == b"-")
                && let CsaPositionStatus::Complete(p) = parser.feed_line(line).unwrap()
            {
                initial = Some(p);
            }
            continue;
        }
        match line {
            [b'+' | b'-', d, ..] if d.is_ascii_digit() => moves.push(&line[..7]),
            [b'%', ..] => specials.push(line),
            [b'\'', b'P', ..] => final_dump.push(&line[1..]),
            [b'\'', s @ (b'+' | b'-')] if !final_dump.is_empty() => {
                final_dump.push(core::slice::from_ref(s))
            }
            _ => {}
        }
    }
    Kifu {
        initial: initial.expect("position block"),
        moves,
        specials,
        final_dump,
    }
}

fn replay(kifu: &Kifu<'_>) -> Position {
    let mut pos = kifu.initial;
    for (i, token) in kifu.moves.iter().enumerate() {
        let mv = pos
            .parse_csa_move(token)
            .unwrap_or_else(|e| panic!("move {} {:?}: {e}", i + 1, std::str::from_utf8(token)));
        // CSA -> Move -> CSA gives the token back.
        assert_eq!(pos.move_to_csa(mv).unwrap().to_bytes(), **token);
        pos = pos.play(mv).unwrap();
    }
    pos
}

/// The position of the server's final dump (`'P1...` comment lines).
fn final_dump(kifu: &Kifu<'_>) -> Position {
    let mut dump = CsaPositionParser::new();
    let mut dumped = None;
    for line in &kifu.final_dump {
        if let CsaPositionStatus::Complete(p) = dump.feed_line(line).unwrap() {
            dumped = Some(p);
        }
    }
    dumped.expect("final dump")
}

#[test]
fn uchifuzume_game_replays_and_the_rejected_drop_is_pawn_drop_mate() {
    let kifu = read_kifu(UCHIFUZUME);
    assert_eq!(kifu.initial, Position::startpos());
    assert_eq!(kifu.moves.len(), 103);
    assert!(kifu.specials.is_empty());
    assert!(
        UCHIFUZUME
            .windows(b"'summary:uchifuzume:".len())
            .any(|w| w == b"'summary:uchifuzume:")
    );
    let pos = replay(&kifu);
    assert_eq!(pos.side_to_move(), board_core::shogi::Color::White);
    let drop = CsaMove::parse(b"-0064FU").unwrap();
    assert!(matches!(
        pos.move_from_csa(&drop),
        Err(IllegalReason::PawnDropMate { .. })
    ));
    assert!(matches!(
        pos.parse_csa_move(b"-0064FU"),
        Err(MoveTextError::Illegal(IllegalReason::PawnDropMate { .. }))
    ));
    // ...and it would be mate: the drop gives check and Black has no reply.
    let mut after = pos;
    after.play_unchecked(board_core::shogi::Move::from_usi("P*6d").unwrap());
    assert!(after.is_checkmate());
    // The board and hands equal the server's final dump (whose side line
    // says '+', although White is to move: see the report).
    let dumped = final_dump(&kifu);
    assert_eq!(dumped.side_to_move(), board_core::shogi::Color::Black);
    assert_eq!(
        dumped.to_string().split(' ').next(),
        pos.to_string().split(' ').next()
    );
    assert_eq!(
        dumped.to_string().split(' ').nth(2),
        pos.to_string().split(' ').nth(2)
    );
}

#[test]
fn floodgate_game_replays_completely() {
    let kifu = read_kifu(FLOODGATE_158);
    assert_eq!(kifu.initial, Position::startpos());
    assert_eq!(kifu.moves.len(), 158);
    assert_eq!(kifu.specials, vec![&b"%TORYO"[..]]);
    let pos = replay(&kifu);
    // 158 plies played: Black to move, and Black (gps_normal) resigned.
    assert_eq!(pos.side_to_move(), board_core::shogi::Color::Black);
    assert_eq!(pos.move_number(), 159);
    let dumped = final_dump(&kifu);
    assert!(dumped.same_position(&pos), "{dumped} vs {pos}");
}
