//! `perft`, `moves`, `show` and `play` for every game: the commands are
//! written once here, each game module (`draughts.rs`, `chess.rs`,
//! `shogi.rs`) says how to read its positions and read and write its moves
//! ([`GameCli`]).
//!
//! Output shapes (README.md, "Output formats"): `perft` prints the node
//! count alone on the first line, with `--divide` then one `<move> <count>`
//! line per root move, and the timing on stderr; `moves` prints one move
//! per line (or one JSON object per line), batch mode one line per
//! position (`crate::batch`); `show` prints the position's diagram (the
//! board-core `{:#}` form); `play` prints the position after the moves
//! alone on the first line, then with `--board` its diagram.

use std::fmt::Display;
use std::io::Write;
use std::time::Instant;

use clap::ValueEnum;

use crate::batch;
use crate::{Failure, report_timing};

/// A move notation for `moves --notation`.
#[derive(Debug, Clone, Copy, PartialEq, Eq, ValueEnum)]
pub(crate) enum Notation {
    /// Chess UCI (`e2e4`, `e7e8q`, castling `e1g1`), the chess default.
    Uci,
    /// Chess standard algebraic notation (`e4`, `Nf3`, `exd5`, `O-O`, `e8=Q+`).
    San,
    /// Shogi USI (`7g7f`, `8h2b+`, `P*5e`), the shogi default.
    Usi,
    /// Shogi CSA (`+7776FU`).
    Csa,
    /// Draughts PDN (`32-28`, `28x19`), the only draughts notation.
    Pdn,
}

impl Notation {
    fn name(self) -> &'static str {
        match self {
            Notation::Uci => "uci",
            Notation::San => "san",
            Notation::Usi => "usi",
            Notation::Csa => "csa",
            Notation::Pdn => "pdn",
        }
    }
}

/// What `perft`, `moves`, `show` and `play` need to know about a game.
pub(crate) trait GameCli {
    /// A position; `Display` is its notation, `{:#}` its diagram.
    type Position: Display;
    /// A legal move.
    type Move: Copy;
    /// The key naming the position in batch JSON lines (`fen`, `sfen`).
    const BATCH_KEY: &'static str;
    /// The game's name on the command line (`chess`).
    const NAME: &'static str;
    /// The notations `moves --notation` accepts, the default first.
    const NOTATIONS: &'static [Notation];

    /// The move in `notation` (one of [`GameCli::NOTATIONS`]).
    fn notation_text(pos: &Self::Position, mv: Self::Move, notation: Notation) -> String;

    /// Reads one move in any notation the game accepts and checks it is
    /// legal; the error says why not (without the move, which the caller
    /// names).
    fn parse_move(pos: &Self::Position, text: &str) -> Result<Self::Move, String>;

    /// Plays a legal move (one from `legal_moves` or `parse_move`).
    fn play(pos: &mut Self::Position, mv: Self::Move);

    /// Reads a position from the command line or a batch line
    /// (`startpos` and the game's notation); errors are
    /// [`Failure::Input`] naming the text.
    fn position(text: &str) -> Result<Self::Position, Failure>;

    /// The legal moves, in the game's generation order.
    fn legal_moves(pos: &Self::Position) -> Result<Vec<Self::Move>, Failure>;

    /// The move as `moves` and `perft --divide` print it (PDN, UCI, USI).
    fn move_text(pos: &Self::Position, mv: Self::Move) -> String;

    /// The move as one JSON object.
    fn write_json_move(
        pos: &Self::Position,
        mv: Self::Move,
        out: &mut dyn Write,
    ) -> Result<(), Failure>;

    /// Leaf nodes at `depth` plies.
    fn perft(pos: &Self::Position, depth: u32) -> Result<u64, Failure>;

    /// Leaf nodes at `depth` plies: the total and the count below each
    /// root move.
    fn perft_divide(pos: &Self::Position, depth: u32) -> (u64, Vec<(Self::Move, u64)>);
}

/// `boardwire perft <game> <position> <depth> [--divide]`.
pub(crate) fn perft<G: GameCli>(
    text: &str,
    depth: u32,
    divide: bool,
    out: &mut impl Write,
) -> Result<(), Failure> {
    let pos = G::position(text)?;
    let start = Instant::now();
    if divide {
        let (total, per_move) = G::perft_divide(&pos, depth);
        let elapsed = start.elapsed();
        writeln!(out, "{total}")?;
        for &(mv, n) in &per_move {
            writeln!(out, "{} {n}", G::move_text(&pos, mv))?;
        }
        report_timing(total, elapsed);
    } else {
        let nodes = G::perft(&pos, depth)?;
        let elapsed = start.elapsed();
        writeln!(out, "{nodes}")?;
        report_timing(nodes, elapsed);
    }
    Ok(())
}

/// `boardwire moves <game> <position|-> [--notation N] [--json]`.
///
/// `notation` must be one of the game's (default its first); `--json`
/// objects carry every notation of the game whatever `notation` says.
pub(crate) fn moves<G: GameCli>(
    text: &str,
    notation: Option<Notation>,
    json: bool,
    out: &mut impl Write,
) -> Result<(), Failure> {
    let notation = match notation {
        None => G::NOTATIONS[0],
        Some(n) if G::NOTATIONS.contains(&n) => n,
        Some(n) => {
            let names: Vec<&str> = G::NOTATIONS.iter().map(|n| n.name()).collect();
            return Err(Failure::Input(format!(
                "{} moves are not written in {}: use --notation {}",
                G::NAME,
                n.name(),
                names.join(" or ")
            )));
        }
    };
    if text == "-" {
        return batch_moves::<G>(notation, json, out);
    }
    let pos = G::position(text)?;
    for mv in G::legal_moves(&pos)? {
        if json {
            G::write_json_move(&pos, mv, out)?;
            writeln!(out)?;
        } else {
            writeln!(out, "{}", G::notation_text(&pos, mv, notation))?;
        }
    }
    Ok(())
}

/// `boardwire show <game> <position>`: the diagram.
pub(crate) fn show<G: GameCli>(text: &str, out: &mut impl Write) -> Result<(), Failure> {
    let pos = G::position(text)?;
    writeln!(out, "{pos:#}")?;
    Ok(())
}

/// `boardwire play <game> <position> [--board] [--] <move>...`: plays the
/// moves in order; the resulting position alone on the first line, then
/// with `board` its diagram. The first move that does not parse or is not
/// legal fails the command (exit 2) naming its number, text and why;
/// nothing is printed then.
///
/// With `-` as the position (and no moves), batch mode: each stdin line is
/// `<position> moves <move>...` (the UCI `position` convention; ` moves`
/// and the moves may be left out) and is answered by one line, the
/// position reached or `error: ...`; exit code 2 at the end when a line
/// failed (`crate::batch::batch`).
pub(crate) fn play<G: GameCli>(
    text: &str,
    moves: &[String],
    board: bool,
    out: &mut impl Write,
) -> Result<(), Failure> {
    if text == "-" {
        if board || !moves.is_empty() {
            return Err(Failure::Input(
                "play -: the moves are on the stdin lines, and --board is not for batch mode"
                    .into(),
            ));
        }
        let parse = |line: &str| {
            let (position, moves) = match line.split_once(" moves") {
                Some((p, m)) if m.is_empty() || m.starts_with(char::is_whitespace) => (p, m),
                _ => (line, ""),
            };
            play_moves::<G>(position, moves.split_whitespace())
        };
        return batch::batch(G::BATCH_KEY, false, out, parse, |pos, _, out| {
            write!(out, "{pos}")
        });
    }
    let pos = play_moves::<G>(text, moves.iter().map(String::as_str))?;
    writeln!(out, "{pos}")?;
    if board {
        writeln!(out, "{pos:#}")?;
    }
    Ok(())
}

/// The position `text` after `moves`, or the first failing move as a
/// [`Failure::Input`] naming its 1-based number, text and why.
fn play_moves<'a, G: GameCli>(
    text: &str,
    moves: impl Iterator<Item = &'a str>,
) -> Result<G::Position, Failure> {
    let mut pos = G::position(text)?;
    for (i, m) in moves.enumerate() {
        let mv = G::parse_move(&pos, m).map_err(|why| {
            Failure::Input(format!(
                "move {} {}: {why} (position {pos})",
                i + 1,
                batch::json_string(m)
            ))
        })?;
        G::play(&mut pos, mv);
    }
    Ok(pos)
}

/// Batch mode: one position per stdin line, one answer line each
/// (`crate::batch::batch`): `{"<key>":...,"moves":[...]}` with --json, else
/// the moves in `notation` separated by spaces.
fn batch_moves<G: GameCli>(
    notation: Notation,
    json: bool,
    out: &mut impl Write,
) -> Result<(), Failure> {
    let parse = |line: &str| {
        let pos = G::position(line)?;
        let list = G::legal_moves(&pos)?;
        Ok((pos, list))
    };
    batch::batch(G::BATCH_KEY, json, out, parse, |(pos, list), json, out| {
        for (i, &mv) in list.iter().enumerate() {
            if json {
                if i > 0 {
                    write!(out, ",")?;
                }
                G::write_json_move(pos, mv, out).map_err(|e| match e {
                    Failure::Output(e) => e,
                    Failure::Input(m) | Failure::Failed(m) => std::io::Error::other(m),
                })?;
            } else {
                let sep = if i == 0 { "" } else { " " };
                write!(out, "{sep}{}", G::notation_text(pos, mv, notation))?;
            }
        }
        Ok(())
    })
}
