//! A program that glob-imports board-core's chess module and this crate
//! uses `Color`, `Move`, `Square`, `Piece` and `Setup` without naming a
//! module: the crate root exports no type of those names that differs
//! from board-core's (its chess vocabulary is board-core's, re-exported
//! under `vocab`; the wire move text is `types::MoveText`).

use board_core::chess::*;
use novag_citrine::*;

#[test]
fn board_core_chess_and_novag_citrine_glob_imports_do_not_clash() {
    let setup: Setup = Setup::startpos();
    let position = Position::from_setup(&setup).unwrap();
    let e2e4: Move = position.parse_uci("e2e4").unwrap();
    let to: Square = e2e4.to();
    let color: Color = position.side_to_move();
    let piece: Option<Piece> = position.piece_at(e2e4.from());
    assert_eq!(to.to_string(), "e4");
    assert_eq!(color, Color::White);
    assert_eq!(
        piece,
        Some(Piece {
            color: Color::White,
            kind: PieceKind::Pawn
        })
    );
    // The same types as this crate's vocabulary and messages use.
    let reply = decode::<Reply>(b"M   1   e2-e4").unwrap();
    let converted: Move = convert::to_move(&position, &reply_move(&reply)).unwrap();
    assert_eq!(converted, e2e4);
    let _: novag_citrine::vocab::Color = color;
}

fn reply_move(reply: &Reply<'_>) -> novag_citrine::types::MoveText {
    match reply {
        Reply::Move(line) => line.text,
        other => panic!("{other:?}"),
    }
}
