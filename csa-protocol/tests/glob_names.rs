//! `use board_core::shogi::*; use csa_protocol::*;` brings no two items of
//! the same name: the crate root exports no `Color`, `Move`, `Square`,
//! `Piece` or `Setup` of its own (the wire side is `types::Side`, with
//! `From` both ways, under `types`, not at the root).

use board_core::shogi::*;
use csa_protocol::*;

#[test]
fn board_core_names_and_the_protocol_s_names_live_together() {
    let color: Color = Color::Black;
    let square: Square = Square::new(7, 7).unwrap();
    let setup: Setup = Setup::default();
    let _ = setup;
    let piece: Piece = Piece::new(color, PieceKind::Pawn);
    let position = Position::startpos();
    let mv: Move = position.move_from_csa(&"+7776FU".parse().unwrap()).unwrap();
    assert_eq!(piece.color, color);
    assert_eq!(square, Square::new(7, 7).unwrap());
    // The protocol's names, from the same glob.
    let msg: ServerMessage<'_> = decode(b"+7776FU,T1").unwrap();
    assert!(matches!(msg, ServerMessage::Move { .. }));
    let _: Option<Problem> = None;
    // The wire side converts both ways.
    let side = csa_protocol::types::Side::from(color);
    assert_eq!(Color::from(side), Color::Black);
    let _ = mv;
}
