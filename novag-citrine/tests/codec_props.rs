//! Property tests: every value encodes and decodes back to itself; any line
//! decodes without panicking, and what decodes re-encodes to a line that
//! decodes to the same value.

use novag_citrine::decode::{Leniency, decode, decode_with};
use novag_citrine::message::{Command, DiagramRow, HostMove, LevelTarget, MoveLine, Reply};
use novag_citrine::types::{
    ClockTime, Level, LevelKind, MoveNumber, MoveText, NormalMove, Promotion, Token,
};
use novag_citrine::vocab::{CastlingSide, Color, Piece, PieceKind, Square};
use proptest::prelude::*;

fn square() -> impl Strategy<Value = Square> {
    (0u32..64).prop_map(|i| Square::new(i).unwrap())
}

fn role() -> impl Strategy<Value = PieceKind> {
    prop::sample::select(PieceKind::ALL.to_vec())
}

fn color() -> impl Strategy<Value = Color> {
    prop::sample::select(Color::ALL.to_vec())
}

fn promotion() -> impl Strategy<Value = Promotion> {
    prop_oneof![
        Just(Promotion::Queen),
        Just(Promotion::Rook),
        Just(Promotion::Bishop),
        Just(Promotion::Knight)
    ]
}

fn move_text() -> impl Strategy<Value = MoveText> {
    prop_oneof![
        Just(MoveText::Castle(CastlingSide::KingSide)),
        Just(MoveText::Castle(CastlingSide::QueenSide)),
        (
            proptest::option::of(role()),
            square(),
            square(),
            any::<bool>(),
            any::<bool>(),
            proptest::option::of(promotion())
        )
            .prop_map(
                |(piece, from, to, capture, en_passant, promotion)| MoveText::Normal(NormalMove {
                    piece,
                    from,
                    to,
                    capture,
                    en_passant,
                    promotion
                })
            ),
    ]
}

fn number() -> impl Strategy<Value = MoveNumber> {
    (1u16..=9999).prop_map(|n| MoveNumber::new(n).unwrap())
}

fn move_line() -> impl Strategy<Value = MoveLine> {
    (number(), any::<bool>(), move_text(), any::<bool>()).prop_map(|(number, black, text, bar)| {
        MoveLine {
            number,
            black,
            text,
            bar,
        }
    })
}

fn level() -> impl Strategy<Value = Level> {
    (
        prop_oneof![
            Just(LevelKind::Tournament),
            Just(LevelKind::Citrine),
            Just(LevelKind::AverageTime),
            Just(LevelKind::Beginner)
        ],
        1u8..=99,
    )
        .prop_map(|(k, n)| Level::new(k, n).unwrap())
}

fn clock() -> impl Strategy<Value = ClockTime> {
    (0u8..=99, 0u8..=59, 0u8..=59).prop_map(|(h, m, s)| ClockTime::new(h, m, s).unwrap())
}

fn token() -> impl Strategy<Value = String> {
    "[!-~]{1,64}"
}

fn diagram_row() -> impl Strategy<Value = DiagramRow> {
    (
        proptest::option::of(1u8..=8),
        proptest::array::uniform8(proptest::option::of(
            (color(), role()).prop_map(|(color, role)| Piece { color, kind: role }),
        )),
    )
        .prop_map(|(rank, cells)| DiagramRow::new(rank, cells).unwrap())
}

/// Replies other than `Identity` (which borrows text) and `Unrecognised`.
fn reply() -> impl Strategy<Value = Reply<'static>> {
    prop_oneof![
        (clock(), clock()).prop_map(|(white, black)| Reply::Clock { white, black }),
        proptest::option::of(color()).prop_map(|to_move| Reply::Flip { to_move }),
        any::<u16>().prop_map(|moves| Reply::Game { moves }),
        Just(Reply::GameColumns),
        (number(), move_text(), proptest::option::of(move_text())).prop_map(
            |(number, white, black)| Reply::GameRow {
                number,
                white,
                black
            }
        ),
        level().prop_map(Reply::Level),
        move_line().prop_map(Reply::Move),
        move_line().prop_map(Reply::TakeBack),
        Just(Reply::NewGame),
        Just(Reply::PositionBoard),
        diagram_row().prop_map(Reply::DiagramRow),
        any::<bool>().prop_map(Reply::Xmit),
        any::<bool>().prop_map(Reply::Referee),
    ]
}

fn host_move() -> impl Strategy<Value = HostMove> {
    (square(), square(), proptest::option::of(promotion())).prop_map(|(from, to, promotion)| {
        HostMove {
            from,
            to,
            promotion,
        }
    })
}

fn command() -> impl Strategy<Value = Command<'static>> {
    prop_oneof![
        Just(Command::Clock),
        Just(Command::Flip),
        Just(Command::Game),
        Just(Command::Identity),
        Just(Command::ShowLevel),
        (
            prop_oneof![Just(LevelTarget::Both), Just(LevelTarget::BlackOnly)],
            level()
        )
            .prop_map(|(target, level)| Command::SetLevel { target, level }),
        host_move().prop_map(Command::Move),
        Just(Command::NewGame),
        Just(Command::Origin),
        Just(Command::ShowPosition),
        Just(Command::TakeBack),
        proptest::option::of(any::<bool>()).prop_map(Command::Referee),
        proptest::option::of(any::<bool>()).prop_map(Command::Xmit),
        Just(Command::EngineMove),
    ]
}

fn strip_crlf(v: &[u8]) -> &[u8] {
    v.strip_suffix(b"\r\n")
        .expect("encoders end lines with CR LF")
}

proptest! {
    #[test]
    fn reply_round_trip(r in reply()) {
        let bytes = r.to_bytes();
        prop_assert_eq!(decode::<Reply>(strip_crlf(&bytes)), Ok(r));
    }

    #[test]
    fn reply_round_trip_lenient(r in reply()) {
        // Every canonical line also decodes the same with the document's
        // spellings accepted.
        let bytes = r.to_bytes();
        prop_assert_eq!(decode_with::<Reply>(strip_crlf(&bytes), &Leniency::DOCUMENT), Ok(r));
    }

    #[test]
    fn identity_round_trip(model in token(), version in token()) {
        let r = Reply::Identity { model: Token::new(&model).unwrap(), version: Token::new(&version).unwrap() };
        let bytes = r.to_bytes();
        prop_assert_eq!(decode::<Reply>(strip_crlf(&bytes)), Ok(r));
    }

    #[test]
    fn command_round_trip(c in command()) {
        let bytes = c.to_bytes();
        prop_assert_eq!(decode::<Command>(strip_crlf(&bytes)), Ok(c));
    }

    #[test]
    fn set_up_round_trip(t in token()) {
        let c = Command::SetUp(Token::new(&t).unwrap());
        let bytes = c.to_bytes();
        prop_assert_eq!(decode::<Command>(strip_crlf(&bytes)), Ok(c));
    }

    #[test]
    fn any_line_decodes_stably(line in proptest::collection::vec(any::<u8>().prop_filter("no terminator", |b| *b != b'\r' && *b != b'\n'), 0..48)) {
        if let Ok(r) = decode::<Reply>(&line) {
            let bytes = r.to_bytes();
            prop_assert_eq!(decode::<Reply>(strip_crlf(&bytes)), Ok(r));
        }
        // What decodes leniently re-encodes to a line that decodes strictly.
        if let Ok(r) = decode_with::<Reply>(&line, &Leniency::DOCUMENT) {
            let bytes = r.to_bytes();
            prop_assert_eq!(decode::<Reply>(strip_crlf(&bytes)), Ok(r));
        }
        if let Ok(c) = decode::<Command>(&line) {
            let bytes = c.to_bytes();
            prop_assert_eq!(decode::<Command>(strip_crlf(&bytes)), Ok(c));
        }
    }

    #[test]
    fn citrine_like_lines_decode_stably(line in "[MTt.]?[ \t]{0,3}[0-9]{0,4},?[ \t]{0,3}[KQRBNP]?[a-h][1-8][-x][a-h][1-8](ep)?(/[QRBN])?[ \t]{0,2}\\|?") {
        if let Ok(r) = decode_with::<Reply>(line.as_bytes(), &Leniency::DOCUMENT) {
            let bytes = r.to_bytes();
            prop_assert_eq!(decode::<Reply>(strip_crlf(&bytes)), Ok(r));
        }
    }

    /// `Display` is the wire line: what it writes decodes to the same reply.
    #[test]
    fn reply_display_is_the_wire(r in reply()) {
        let shown = r.to_string();
        prop_assert_eq!(decode::<Reply>(shown.as_bytes()).unwrap(), r.clone());
        prop_assert_eq!(format!("{shown}\r\n").into_bytes(), r.to_bytes());
    }

    /// `Display` is the wire line: what it writes decodes to the same command.
    #[test]
    fn command_display_is_the_wire(c in command()) {
        let shown = c.to_string();
        prop_assert_eq!(decode::<Command>(shown.as_bytes()).unwrap(), c.clone());
        prop_assert_eq!(format!("{shown}\r\n").into_bytes(), c.to_bytes());
    }

    /// Any UTF-8 line that decodes (unrecognised lines included) displays as
    /// a line that decodes to the same value, for both message types.
    #[test]
    fn any_decoded_line_displays_as_itself(line in "[ -~\t]{0,40}") {
        if let Ok(r) = decode::<Reply>(line.as_bytes()) {
            let shown = r.to_string();
            prop_assert_eq!(decode::<Reply>(shown.as_bytes()).unwrap(), r);
        }
        if let Ok(c) = decode::<Command>(line.as_bytes()) {
            let shown = c.to_string();
            prop_assert_eq!(decode::<Command>(shown.as_bytes()).unwrap(), c);
        }
    }
}
