//! Checking one move against a position, with the reason when it is illegal
//! (FMJD rules, art. 3-4: men step diagonally forward, kings fly, capturing
//! is compulsory and the majority rule demands the most pieces).

use core::fmt;

use super::bitboard::{RAYS, nearest, step};
use super::movegen::{self, CaptureSink, forward, has_capture};
use super::position::Position;
use super::types::{Color, Move, PieceKind, Square, SquareSet};

/// Why a [`Move`] is illegal in a position ([`Position::check_move`]).
/// PDN text errors are [`IllegalMoveError`](super::IllegalMoveError); the
/// compulsory-capture reason prints the same hint (`write it 28x19`).
#[derive(Debug, Clone, Copy, PartialEq, Eq, thiserror::Error)]
#[non_exhaustive]
pub enum IllegalReason {
    /// No piece on the origin square.
    #[error("no piece on {square}")]
    NoPiece {
        /// The origin.
        square: Square,
    },
    /// The piece on the origin belongs to the side not to move.
    #[error("the piece on {square} belongs to {owner}, not the side to move")]
    OpponentPiece {
        /// The origin.
        square: Square,
        /// Its owner.
        owner: Color,
    },
    /// The landing square holds a piece (other than the moving one).
    #[error("the landing square {square} is occupied")]
    Occupied {
        /// The destination.
        square: Square,
    },
    /// A quiet move while a capture is compulsory. `capturer` is one square
    /// whose piece makes a legal capture (the origin when it can), `max`
    /// the number of pieces the legal captures take (1..=20).
    #[error("a capture is compulsory: the piece on {capturer} can take {max}{}", super::notation::CaptureHint(*.from, *.to, *.capture_here))]
    CaptureRequired {
        /// The origin.
        from: Square,
        /// The destination.
        to: Square,
        /// Whether exactly one legal capture goes from `from` to `to` (then
        /// `Display` adds `(write it 28x19)`).
        capture_here: bool,
        /// A square whose piece has a legal capture.
        capturer: Square,
        /// Pieces a legal capture takes.
        max: u32,
    },
    /// A captured square that holds no piece of the opponent.
    #[error("no opponent piece on {square} to capture")]
    NotOpponentPiece {
        /// The first such square.
        square: Square,
    },
    /// The piece on `from` cannot capture exactly the given pieces ending on
    /// `to` (no capture path).
    #[error("the {} on {from} has no capture path to {to} taking {}", kind_word(*.kind), Squares(*.captures))]
    NoCapturePath {
        /// The moving piece.
        kind: PieceKind,
        /// The origin.
        from: Square,
        /// The destination.
        to: Square,
        /// The captured squares of the move.
        captures: SquareSet,
    },
    /// A capture path that takes fewer pieces than the majority rule
    /// demands.
    #[error("the capture takes {taken} but {max} must be taken (majority rule)")]
    TooFewCaptured {
        /// Pieces the move takes.
        taken: u32,
        /// Pieces the legal captures take.
        max: u32,
    },
    /// A man stepping diagonally backwards without capturing.
    #[error("a man moves forward only ({from} to {to} is backwards)")]
    ManBackwards {
        /// The origin.
        from: Square,
        /// The destination.
        to: Square,
    },
    /// The destination is not a quiet move of this piece: a man steps one
    /// square diagonally forward, a king along a free diagonal.
    #[error("the {} on {from} cannot reach {to}", kind_word(*.kind))]
    Unreachable {
        /// The moving piece.
        kind: PieceKind,
        /// The origin.
        from: Square,
        /// The destination.
        to: Square,
    },
    /// A king's diagonal towards the destination is blocked.
    #[error("the king's path from {from} to {to} is blocked on {blocker}")]
    Blocked {
        /// The origin.
        from: Square,
        /// The destination.
        to: Square,
        /// The first occupied square on the way.
        blocker: Square,
    },
    /// [`Position::play`] only: the position after the move would have
    /// [`MAX_MOVES`](super::MAX_MOVES) or more legal moves (none is known).
    #[error("the position after it has {} or more legal moves", super::MAX_MOVES)]
    TooManyMovesAfter,
}

fn kind_word(kind: PieceKind) -> &'static str {
    match kind {
        PieceKind::Man => "man",
        PieceKind::King => "king",
    }
}

struct Squares(SquareSet);

impl fmt::Display for Squares {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        if self.0.is_empty() {
            return f.write_str("nothing");
        }
        for (i, s) in self.0.iter().enumerate() {
            write!(f, "{}{s}", if i == 0 { "" } else { "," })?;
        }
        Ok(())
    }
}

/// The largest capture count and the first origin making it.
struct MaxSink {
    best: u32,
    from: u32,
    at_origin: bool,
    origin: u32,
}

impl CaptureSink for MaxSink {
    fn record(&mut self, from: u32, _to: u32, _captured: u64, n: u32) {
        if n > self.best {
            self.best = n;
            self.from = from;
            self.at_origin = false;
        }
        if n == self.best && from == self.origin {
            self.at_origin = true;
        }
    }
}

impl Position {
    /// Checks `mv` against the rules here: `Ok` exactly when
    /// [`Position::is_legal`] (when `mv` is one of
    /// [`Position::legal_moves`]).
    ///
    /// ```
    /// use board_core::draughts::{IllegalReason, Position};
    /// let pos = Position::startpos();
    /// assert_eq!(pos.check_move(pos.parse_move("32-28").unwrap()), Ok(()));
    /// ```
    ///
    /// # Errors
    /// [`IllegalReason`]: the first rule the move breaks, checked in the
    /// order origin, landing square, compulsory capture, captured pieces,
    /// capture path, majority rule, the piece's way of moving.
    pub fn check_move(&self, mv: Move) -> Result<(), IllegalReason> {
        if self.is_legal(mv) {
            Ok(())
        } else {
            Err(self.illegal_reason(mv))
        }
    }

    /// The reason `mv` (known to be illegal) is refused.
    pub(crate) fn illegal_reason(&self, mv: Move) -> IllegalReason {
        let from = mv.from();
        let to = mv.to();
        let Some(piece) = self.piece_at(from) else {
            return IllegalReason::NoPiece { square: from };
        };
        if piece.color != self.side {
            return IllegalReason::OpponentPiece {
                square: from,
                owner: piece.color,
            };
        }
        if to != from && self.piece_at(to).is_some() {
            return IllegalReason::Occupied { square: to };
        }
        let s = self.sides();
        let kind = piece.kind;
        if has_capture(&s) {
            let mut sink = MaxSink {
                best: 0,
                from: mv.origin_bit(),
                at_origin: false,
                origin: mv.origin_bit(),
            };
            movegen::captures(&s, &mut sink);
            if !mv.is_capture() {
                // The short form `fromxto` names a move only when one
                // capture joins the two squares.
                let capture_here = self
                    .legal_moves()
                    .iter()
                    .filter(|m| m.origin_bit() == mv.origin_bit() && m.dest_bit() == mv.dest_bit())
                    .count()
                    == 1;
                let capturer = if sink.at_origin {
                    from
                } else {
                    Square::from_bit(sink.from)
                };
                return IllegalReason::CaptureRequired {
                    from,
                    to,
                    capture_here,
                    capturer,
                    max: sink.best,
                };
            }
            return self.capture_reason(mv, kind, sink.best);
        }
        if mv.is_capture() {
            return self.capture_reason(mv, kind, 0);
        }
        let (fb, tb) = (mv.origin_bit(), mv.dest_bit());
        let Some(d) = (0..4).find(|&d| RAYS[d][fb as usize] >> tb & 1 == 1) else {
            return IllegalReason::Unreachable { kind, from, to };
        };
        match kind {
            PieceKind::Man => {
                if step(d, 1u64 << fb) == 1u64 << tb && !forward(self.side).contains(&d) {
                    IllegalReason::ManBackwards { from, to }
                } else {
                    IllegalReason::Unreachable { kind, from, to }
                }
            }
            PieceKind::King => {
                let between = RAYS[d][fb as usize] & !RAYS[d][tb as usize] & !(1u64 << tb);
                let occupied = between & !s.empty;
                if occupied == 0 {
                    IllegalReason::Unreachable { kind, from, to }
                } else {
                    let b = nearest(d, occupied);
                    IllegalReason::Blocked {
                        from,
                        to,
                        blocker: Square::from_bit(b),
                    }
                }
            }
        }
    }

    fn capture_reason(&self, mv: Move, kind: PieceKind, max: u32) -> IllegalReason {
        let s = self.sides();
        if let Some(square) = SquareSet(mv.caps() & !s.opp).first() {
            return IllegalReason::NotOpponentPiece { square };
        }
        let no_path = IllegalReason::NoCapturePath {
            kind,
            from: mv.from(),
            to: mv.to(),
            captures: mv.captures(),
        };
        if self.capture_path(mv).is_none() {
            return no_path;
        }
        let taken = mv.capture_count();
        if taken < max {
            return IllegalReason::TooFewCaptured { taken, max };
        }
        no_path
    }
}
