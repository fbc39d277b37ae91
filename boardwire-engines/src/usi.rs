//! USI, the engine side (what a GUI sends a shogi engine and reads back):
//! [`Command`] (GUI → engine, encoders that cannot fail) and
//! [`EngineMessage`] (engine → GUI, [`decode`]: zero-copy).
//!
//! Lines end with LF (a CR before it is dropped by the driver). Moves are
//! board-core's USI moves (`7g7f`, `8h2b+`, `P*5e`).
//!
//! ```
//! use boardwire_engines::usi::{decode, BestMove, EngineMessage};
//! let m = decode(b"bestmove 7g7f ponder 3c3d")?;
//! let EngineMessage::BestMove { best: BestMove::Move(mv), ponder } = m else { panic!() };
//! assert_eq!((mv.to_string(), ponder.map(|p| p.to_string())), ("7g7f".into(), Some("3c3d".into())));
//! # Ok::<(), boardwire_engines::error::DecodeError>(())
//! ```

use std::sync::LazyLock;

use board_core::shogi::{Move, Position};

use crate::command_line::{self, Sink as _};
use crate::error::{DecodeError, Expected, Field, MessageKind};
use crate::parse::{self, EngineLine, Info, PResult};
use crate::types::Text;

/// A line from a USI engine.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
#[non_exhaustive]
pub enum EngineMessage<'a> {
    /// `id name <text>`.
    IdName(&'a [u8]),
    /// `id author <text>`.
    IdAuthor(&'a [u8]),
    /// `option name ...`: the words after `option`, unread.
    Option(&'a [u8]),
    /// `usiok`.
    UsiOk,
    /// `readyok`.
    ReadyOk,
    /// `bestmove <move> [ponder <move>]`.
    BestMove {
        /// The move, `resign` or `win`.
        best: BestMove,
        /// The expected reply.
        ponder: Option<Move>,
    },
    /// `info ...`.
    Info(Info<'a>),
    /// A line of another kind (`checkmate ...`, engine chatter), verbatim.
    Unrecognised(&'a [u8]),
}

/// `bestmove`'s move.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum BestMove {
    /// A move (syntax checked; legality is the caller's:
    /// [`Position::check_move`]).
    Move(Move),
    /// `resign`.
    Resign,
    /// `win` (the engine declares a win by the entering-king rule).
    Win,
}

/// `7g7f`, `P*5e`, `8h2b+`, `resign`, `win` as one word.
pub fn best_move(i: &[u8]) -> PResult<'_, BestMove> {
    let (rest, w) = parse::word(Field::Move)(i)?;
    match w {
        b"resign" => Ok((rest, BestMove::Resign)),
        b"win" => Ok((rest, BestMove::Win)),
        _ => {
            let (rest, m) = usi_move(Field::Move)(i)?;
            Ok((rest, BestMove::Move(m)))
        }
    }
}

/// A USI move as one word; a bad one is `Invalid` at its first bad byte.
pub fn usi_move(field: Field) -> impl Fn(&[u8]) -> PResult<'_, Move> {
    move |i: &[u8]| {
        let (rest, w) = parse::word(field)(i)?;
        match Move::from_usi_bytes(w) {
            Ok(m) => Ok((rest, m)),
            Err(e) => {
                let at = e.offset().unwrap_or(0).min(w.len());
                parse::invalid(&i[at..], field, Expected::UsiMove)
            }
        }
    }
}

/// Decodes one line from a USI engine (no line end). Leading spaces are
/// skipped; a line of an unknown first word is
/// [`EngineMessage::Unrecognised`].
///
/// # Errors
/// A known line with a bad field: [`DecodeError`] with the byte offset;
/// an empty line is [`Problem::Empty`](crate::error::Problem::Empty).
pub fn decode(line: &[u8]) -> Result<EngineMessage<'_>, DecodeError> {
    Ok(match engine_line(line)? {
        EngineLine::HandshakeOk => EngineMessage::UsiOk,
        EngineLine::ReadyOk => EngineMessage::ReadyOk,
        EngineLine::IdName(t) => EngineMessage::IdName(t),
        EngineLine::IdAuthor(t) => EngineMessage::IdAuthor(t),
        EngineLine::Option(t) => EngineMessage::Option(t),
        EngineLine::BestMove(best, ponder) => EngineMessage::BestMove { best, ponder },
        EngineLine::Info(i) => EngineMessage::Info(i),
        EngineLine::Unrecognised(t) => EngineMessage::Unrecognised(t),
    })
}

/// A USI engine's line as USI and UCI share it (the engine driver
/// classifies these).
pub(crate) fn engine_line(line: &[u8]) -> Result<EngineLine<'_, BestMove, Move>, DecodeError> {
    parse::engine_line(
        line,
        (b"usiok", MessageKind::UsiOk),
        best_move,
        usi_move(Field::Ponder),
    )
}

/// The end of a game for `gameover`.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum GameOver {
    /// `gameover win`.
    Win,
    /// `gameover lose`.
    Lose,
    /// `gameover draw`.
    Draw,
}

/// `go`'s time fields in milliseconds. USI has byoyomi or a Fischer
/// increment, never both: [`Command::Go`] writes `byoyomi` when it is set,
/// else `binc`/`winc` when they are set.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Default)]
pub struct Go {
    /// Sente's (black's) remaining time.
    pub btime: u64,
    /// Gote's (white's) remaining time.
    pub wtime: u64,
    /// Byoyomi per move.
    pub byoyomi: Option<u64>,
    /// Sente's increment per move.
    pub binc: Option<u64>,
    /// Gote's increment per move.
    pub winc: Option<u64>,
    /// `go ponder ...`.
    pub ponder: bool,
}

/// A line to a USI engine. Encoders cannot fail: texts are validated
/// ([`Text`]), moves are board-core moves.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
#[non_exhaustive]
pub enum Command<'a> {
    /// `usi`.
    Usi,
    /// `isready`.
    IsReady,
    /// `setoption name <name> [value <value>]`.
    SetOption {
        /// The option's name.
        name: &'a Text<'a>,
        /// Its value (none: a button).
        value: Option<&'a Text<'a>>,
    },
    /// `usinewgame`.
    UsiNewGame,
    /// `position startpos [moves ...]` when `start` is the initial
    /// position with sente to move, else `position sfen <sfen> [moves ...]`.
    Position {
        /// The start position.
        start: &'a Position,
        /// The moves from it.
        moves: &'a [Move],
    },
    /// `go ...`.
    Go(Go),
    /// `stop`.
    Stop,
    /// `ponderhit`.
    PonderHit,
    /// `gameover win|lose|draw`.
    GameOver(GameOver),
    /// `quit`.
    Quit,
}

impl Command<'_> {
    /// Appends the line and its LF.
    pub fn encode(&self, out: &mut Vec<u8>) {
        command_line::encode(out, |s| match self {
            Command::Usi => s.push_str("usi"),
            Command::IsReady => s.push_str("isready"),
            Command::SetOption { name, value } => command_line::set_option(s, name, *value),
            Command::UsiNewGame => s.push_str("usinewgame"),
            Command::Position { start, moves } => {
                // Built once: `Position::startpos()` validates a set-up.
                static START: LazyLock<Position> = LazyLock::new(Position::startpos);
                if start.same_position(&START) && start.move_number() == 1 {
                    s.push_str("position startpos");
                } else {
                    s.push_str("position sfen ");
                    let _ = start.write_sfen(s);
                }
                command_line::moves(s, moves);
            }
            Command::Go(g) => {
                s.push_str("go");
                if g.ponder {
                    s.push_str(" ponder");
                }
                s.push_str(" btime ");
                s.put_u64(g.btime);
                s.push_str(" wtime ");
                s.put_u64(g.wtime);
                if let Some(b) = g.byoyomi {
                    s.push_str(" byoyomi ");
                    s.put_u64(b);
                } else if g.binc.is_some() || g.winc.is_some() {
                    s.push_str(" binc ");
                    s.put_u64(g.binc.unwrap_or(0));
                    s.push_str(" winc ");
                    s.put_u64(g.winc.unwrap_or(0));
                }
            }
            Command::Stop => s.push_str("stop"),
            Command::PonderHit => s.push_str("ponderhit"),
            Command::GameOver(r) => s.push_str(match r {
                GameOver::Win => "gameover win",
                GameOver::Lose => "gameover lose",
                GameOver::Draw => "gameover draw",
            }),
            Command::Quit => s.push_str("quit"),
        });
    }

    /// The line with its LF.
    pub fn to_bytes(&self) -> Vec<u8> {
        command_line::to_bytes(|v| self.encode(v))
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::error::Problem;
    use crate::parse::Score;

    #[test]
    fn engine_lines() {
        // gpsusi's answers to `usi` (recorded by hand from /usr/games/gpsusi).
        assert_eq!(
            decode(b"id name gpsshogi (smp) vm r3033").unwrap(),
            EngineMessage::IdName(b"gpsshogi (smp) vm r3033")
        );
        assert_eq!(decode(b"usiok").unwrap(), EngineMessage::UsiOk);
        assert_eq!(decode(b"readyok  ").unwrap(), EngineMessage::ReadyOk);
        assert!(matches!(
            decode(b"option name LimitDepth type spin default 10 min 4 max 10").unwrap(),
            EngineMessage::Option(b"name LimitDepth type spin default 10 min 4 max 10")
        ));
        assert_eq!(
            decode(b"bestmove resign").unwrap(),
            EngineMessage::BestMove {
                best: BestMove::Resign,
                ponder: None
            }
        );
        assert_eq!(
            decode(b"bestmove win").unwrap(),
            EngineMessage::BestMove {
                best: BestMove::Win,
                ponder: None
            }
        );
        let EngineMessage::BestMove {
            best: BestMove::Move(m),
            ..
        } = decode(b"bestmove P*5e").unwrap()
        else {
            panic!()
        };
        assert_eq!(m.to_string(), "P*5e");
        let EngineMessage::Info(i) = decode(b"info depth 2 score cp 30 pv 7g7f 3c3d").unwrap()
        else {
            panic!()
        };
        assert_eq!(i.score, Some(Score::Cp(30)));
        assert_eq!(
            decode(b"checkmate nomate").unwrap(),
            EngineMessage::Unrecognised(b"checkmate nomate")
        );
    }

    #[test]
    fn bad_engine_lines_name_the_byte() {
        let e = decode(b"bestmove 7j7f").unwrap_err();
        assert_eq!(
            (e.message, e.field, e.offset),
            (MessageKind::BestMove, Field::Move, 10)
        );
        assert_eq!(
            e.problem,
            Problem::Invalid {
                byte: b'j',
                expected: Expected::UsiMove
            }
        );
        let e = decode(b"bestmove").unwrap_err();
        assert_eq!(
            (e.field, e.offset, e.problem),
            (Field::Move, 8, Problem::Missing)
        );
        let e = decode(b"usiok now").unwrap_err();
        assert_eq!(e.problem, Problem::Trailing { count: 3 });
        assert_eq!(e.offset, 6);
        let e = decode(b"bestmove 7g7f ponder").unwrap_err();
        assert_eq!((e.field, e.offset), (Field::Ponder, 20));
        assert_eq!(decode(b"").unwrap_err().problem, Problem::Empty);
    }

    #[test]
    fn commands() {
        let start = Position::startpos();
        let moves = [
            Move::from_usi("7g7f").unwrap(),
            Move::from_usi("3c3d").unwrap(),
        ];
        assert_eq!(
            Command::Position {
                start: &start,
                moves: &moves
            }
            .to_bytes(),
            b"position startpos moves 7g7f 3c3d\n"
        );
        let other =
            Position::from_sfen("lnsgkgsnl/1r5b1/ppppppppp/9/9/9/PPPPPPPPP/1B5R1/LNSGKGSNL w - 1")
                .unwrap();
        assert_eq!(
            Command::Position {
                start: &other,
                moves: &[]
            }
            .to_bytes(),
            b"position sfen lnsgkgsnl/1r5b1/ppppppppp/9/9/9/PPPPPPPPP/1B5R1/LNSGKGSNL w - 1\n"
        );
        let go = Go {
            btime: 0,
            wtime: 0,
            byoyomi: Some(1000),
            ..Go::default()
        };
        assert_eq!(
            Command::Go(go).to_bytes(),
            b"go btime 0 wtime 0 byoyomi 1000\n"
        );
        let go = Go {
            btime: 300_000,
            wtime: 299_000,
            binc: Some(10_000),
            winc: Some(10_000),
            ..Go::default()
        };
        assert_eq!(
            Command::Go(go).to_bytes(),
            b"go btime 300000 wtime 299000 binc 10000 winc 10000\n"
        );
        let name = Text::new("USI_Hash").unwrap();
        let value = Text::new("256").unwrap();
        assert_eq!(
            Command::SetOption {
                name: &name,
                value: Some(&value)
            }
            .to_bytes(),
            b"setoption name USI_Hash value 256\n"
        );
        assert_eq!(
            Command::GameOver(GameOver::Lose).to_bytes(),
            b"gameover lose\n"
        );
        assert!(Text::new("a\nquit").is_err());
    }
}
