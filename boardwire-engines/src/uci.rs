//! UCI, the engine side (what a GUI sends a chess engine and reads back):
//! [`Command`] (GUI → engine, encoders that cannot fail) and
//! [`EngineMessage`] (engine → GUI, [`decode`]: zero-copy). The grammar
//! is USI's ([`crate::parse`]), with UCI moves (`e2e4`, `e7e8q`, castling
//! as the king's move `e1g1`) and `bestmove (none)` / `0000` for no move.
//!
//! ```
//! use boardwire_engines::uci::{decode, EngineMessage};
//! let EngineMessage::BestMove { best, ponder } = decode(b"bestmove e2e4 ponder e7e5")? else { panic!() };
//! assert_eq!((best.unwrap().to_string(), ponder.unwrap().to_string()), ("e2e4".into(), "e7e5".into()));
//! # Ok::<(), boardwire_engines::error::DecodeError>(())
//! ```

use std::fmt::Write as _;

use board_core::chess::{Move, Position, UciMove};

use crate::command_line::{self, Sink as _};
use crate::error::{DecodeError, Expected, Field, MessageKind, Problem};
use crate::parse::{self, EngineLine, Info, PResult};
use crate::types::Text;

/// A line from a UCI engine.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
#[non_exhaustive]
pub enum EngineMessage<'a> {
    /// `id name <text>`.
    IdName(&'a [u8]),
    /// `id author <text>`.
    IdAuthor(&'a [u8]),
    /// `option name ...`: the words after `option`, unread.
    Option(&'a [u8]),
    /// `uciok`.
    UciOk,
    /// `readyok`.
    ReadyOk,
    /// `bestmove <move> [ponder <move>]`.
    BestMove {
        /// The move (syntax only: legality needs the position,
        /// [`UciMove::to_move`]); `None` for `(none)` / `0000` (no legal
        /// move).
        best: Option<UciMove>,
        /// The expected reply.
        ponder: Option<UciMove>,
    },
    /// `info ...`.
    Info(Info<'a>),
    /// A line of another kind (`copyprotection`, `registration`, engine
    /// chatter), verbatim.
    Unrecognised(&'a [u8]),
}

/// A UCI move as one word (`e2e4`, `e7e8q`), or `(none)` / `0000`.
pub fn uci_move(field: Field) -> impl Fn(&[u8]) -> PResult<'_, Option<UciMove>> {
    move |i: &[u8]| {
        let (rest, w) = parse::word(field)(i)?;
        if w == b"(none)" || w == b"0000" {
            return Ok((rest, None));
        }
        let text = core::str::from_utf8(w).unwrap_or("");
        match text.parse::<UciMove>() {
            Ok(m) if !text.is_empty() => Ok((rest, Some(m))),
            Ok(_) => parse::invalid(i, field, Expected::UciMove),
            Err(e) => {
                let at = e.offset.min(w.len());
                if at == w.len() {
                    return parse::fail(&i[at..], field, Problem::Missing);
                }
                parse::invalid(&i[at..], field, Expected::UciMove)
            }
        }
    }
}

/// Decodes one line from a UCI engine (no line end). Leading spaces are
/// skipped; a line of an unknown first word is
/// [`EngineMessage::Unrecognised`].
///
/// # Errors
/// A known line with a bad field: [`DecodeError`] with the byte offset;
/// an empty line is [`Problem::Empty`].
pub fn decode(line: &[u8]) -> Result<EngineMessage<'_>, DecodeError> {
    Ok(match engine_line(line)? {
        EngineLine::HandshakeOk => EngineMessage::UciOk,
        EngineLine::ReadyOk => EngineMessage::ReadyOk,
        EngineLine::IdName(t) => EngineMessage::IdName(t),
        EngineLine::IdAuthor(t) => EngineMessage::IdAuthor(t),
        EngineLine::Option(t) => EngineMessage::Option(t),
        EngineLine::BestMove(best, ponder) => EngineMessage::BestMove {
            best,
            ponder: ponder.flatten(),
        },
        EngineLine::Info(i) => EngineMessage::Info(i),
        EngineLine::Unrecognised(t) => EngineMessage::Unrecognised(t),
    })
}

/// A UCI engine's line as USI and UCI share it (the engine driver
/// classifies these).
pub(crate) type Line<'a> = EngineLine<'a, Option<UciMove>, Option<UciMove>>;

/// [`Line`] of `line`.
pub(crate) fn engine_line(line: &[u8]) -> Result<Line<'_>, DecodeError> {
    parse::engine_line(
        line,
        (b"uciok", MessageKind::UciOk),
        uci_move(Field::Move),
        uci_move(Field::Ponder),
    )
}

/// A line to a UCI engine. Encoders cannot fail.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
#[non_exhaustive]
pub enum Command<'a> {
    /// `uci`.
    Uci,
    /// `isready`.
    IsReady,
    /// `setoption name <name> [value <value>]`.
    SetOption {
        /// The option's name.
        name: &'a Text<'a>,
        /// Its value (none: a button).
        value: Option<&'a Text<'a>>,
    },
    /// `ucinewgame`.
    UciNewGame,
    /// `position startpos [moves ...]` when `start` is the initial
    /// position, else `position fen <fen> [moves ...]`.
    Position {
        /// The start position.
        start: &'a Position,
        /// The moves from it (UCI text: castling as the king's move).
        moves: &'a [Move],
    },
    /// `go movetime <ms>`.
    GoMovetime(u64),
    /// `stop`.
    Stop,
    /// `quit`.
    Quit,
}

impl Command<'_> {
    /// Appends the line and its LF.
    pub fn encode(&self, out: &mut Vec<u8>) {
        command_line::encode(out, |s| match self {
            Command::Uci => s.push_str("uci"),
            Command::IsReady => s.push_str("isready"),
            Command::SetOption { name, value } => command_line::set_option(s, name, *value),
            Command::UciNewGame => s.push_str("ucinewgame"),
            Command::Position { start, moves } => {
                const START: Position = Position::startpos();
                if **start == START {
                    s.push_str("position startpos");
                } else {
                    let _ = write!(s, "position fen {start}");
                }
                command_line::moves(s, moves);
            }
            Command::GoMovetime(ms) => {
                s.push_str("go movetime ");
                s.put_u64(*ms);
            }
            Command::Stop => s.push_str("stop"),
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
    use crate::parse::Score;

    #[test]
    fn engine_lines() {
        // Lines as stockfish writes them.
        assert_eq!(decode(b"uciok").unwrap(), EngineMessage::UciOk);
        assert_eq!(
            decode(b"id name Stockfish 16").unwrap(),
            EngineMessage::IdName(b"Stockfish 16")
        );
        let EngineMessage::Info(i) = decode(
            b"info depth 12 seldepth 16 multipv 1 score cp 31 nodes 41208 nps 824160 hashfull 12 tbhits 0 time 50 pv e2e4 e7e5 g1f3",
        )
        .unwrap() else {
            panic!()
        };
        assert_eq!((i.depth, i.score), (Some(12), Some(Score::Cp(31))));
        assert_eq!(
            decode(b"bestmove (none)").unwrap(),
            EngineMessage::BestMove {
                best: None,
                ponder: None
            }
        );
        let EngineMessage::BestMove { best, .. } = decode(b"bestmove e7e8q").unwrap() else {
            panic!()
        };
        assert_eq!(best.unwrap().to_string(), "e7e8q");
        assert!(matches!(
            decode(b"Stockfish 16 by the Stockfish developers").unwrap(),
            EngineMessage::Unrecognised(_)
        ));
    }

    #[test]
    fn bad_lines_name_the_byte() {
        let e = decode(b"bestmove e2e9").unwrap_err();
        assert_eq!(
            (e.message, e.field, e.offset),
            (MessageKind::BestMove, Field::Move, 12)
        );
        let e = decode(b"bestmove e2").unwrap_err();
        assert_eq!(
            (e.field, e.offset, e.problem),
            (Field::Move, 11, Problem::Missing)
        );
        let e = decode(b"uciok x").unwrap_err();
        assert_eq!(e.problem, Problem::Trailing { count: 1 });
    }

    #[test]
    fn commands() {
        let start = Position::startpos();
        let e4 = start.parse_uci("e2e4").unwrap();
        assert_eq!(
            Command::Position {
                start: &start,
                moves: &[e4]
            }
            .to_bytes(),
            b"position startpos moves e2e4\n"
        );
        assert_eq!(Command::GoMovetime(100).to_bytes(), b"go movetime 100\n");
        let other: Position = "8/8/8/8/8/8/8/K6k w - - 0 1".parse().unwrap();
        assert_eq!(
            Command::Position {
                start: &other,
                moves: &[]
            }
            .to_bytes(),
            b"position fen 8/8/8/8/8/8/8/K6k w - - 0 1\n"
        );
    }
}
