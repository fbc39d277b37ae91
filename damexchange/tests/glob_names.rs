//! Names do not clash: a program that glob-imports board-core's draughts
//! module and this crate gets board-core's `Color`, `Move`, `Square`,
//! `Piece`, `Setup` (the types the sessions take), and reaches the wire's
//! own through `wire::`.

use board_core::draughts::*;
use damexchange::session::{
    Event, Follower, FollowerConfig, GameOffer, Initiator, InitiatorConfig,
};
use damexchange::*;
use std::time::Duration;

#[test]
fn board_core_names_win_and_the_wire_types_are_under_wire() {
    let color: Color = Color::White;
    let square: Square = Square::new(32).unwrap();
    let piece: Piece = Piece::new(color, PieceKind::Man);
    let setup: Setup = Position::startpos().to_setup();
    assert_eq!(setup.board[usize::from(square.number() - 1)], Some(piece));
    let mv: Move = Position::startpos().legal_moves()[0];

    // The sessions take these board-core values ...
    let now = Duration::ZERO;
    let mut i = Initiator::new(InitiatorConfig::new(Name::new("I").unwrap()), now);
    let mut f = Follower::new(FollowerConfig::new(Name::new("F").unwrap()), now);
    let offer = GameOffer {
        our_color: color,
        minutes: 1,
        moves: 0,
        start: None,
    };
    i.request_game(offer, now).unwrap();
    while let Some(t) = i.poll_transmit() {
        f.handle_input(t.as_bytes(), now);
    }
    while let Some(t) = f.poll_transmit() {
        i.handle_input(t.as_bytes(), now);
    }
    assert!(matches!(i.poll_event(), Some(Event::GameStarted(_))));
    i.send_move(mv, now).unwrap();

    // ... and the wire's own types are one module away.
    let wire_move: wire::Move = convert::move_to_wire(mv, 0);
    let wire_color: wire::Color = convert::color_to_wire(color);
    let wire_square: wire::Square = wire::Square::new(mv.from().number()).unwrap();
    assert_eq!(wire_move.from(), wire_square);
    assert_eq!(wire_color, wire::Color::White);
    let _: Option<wire::Piece> = None;
    let _: Option<wire::Setup> = None;
    let sent = i.poll_transmit().unwrap();
    let msg: Message = decode(sent.as_bytes().strip_suffix(b"\0").unwrap()).unwrap();
    assert_eq!(msg, Message::Move(wire_move));
}
