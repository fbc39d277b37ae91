//! `perft`, `moves`, `show` and `play` for every game: the commands are
//! written once here, each game module (`draughts.rs`, `chess.rs`,
//! `shogi.rs`) says how to read its positions and read and write its moves
//! ([`GameCli`], on top of board-core's [`Game`]).
//!
//! Output shapes (README.md, "Output formats"): `perft` prints the node
//! count alone on the first line, with `--divide` then one `<move> <count>`
//! line per root move, and the timing on stderr; `moves` prints one move
//! per line (or one JSON object per line), batch mode one line per
//! position (`crate::batch`); `show` prints the position's diagram (the
//! board-core `{:#}` form); `play` prints the position after the moves
//! alone on the first line, then with `--board` its diagram.

use std::io::{IsTerminal, Write};
use std::time::{Duration, Instant};

use board_core::Game;

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
    /// Its name on the command line: `uci`, `san`, `usi`, `csa`, `pdn`.
    fn name(self) -> String {
        let value = self.to_possible_value().expect("no variant is skipped");
        value.get_name().to_owned()
    }
}

/// What `perft`, `moves`, `show` and `play` need to know about a game
/// beyond [`Game`] (the rules, perft, the main notations, the game's
/// name): how the command line names its positions, its other notations,
/// and the JSON it prints. Implemented by the three board-core positions.
pub(crate) trait GameCli: Game {
    /// The key naming the position in batch JSON lines (`fen`, `sfen`).
    const BATCH_KEY: &'static str;
    /// The notations `moves --notation` accepts, the default first.
    const NOTATIONS: &'static [Notation];

    /// The move in `notation` (one of [`GameCli::NOTATIONS`]).
    fn notation_text(&self, mv: Self::Move, notation: Notation) -> String;

    /// Reads one move in any notation the game accepts and checks it is
    /// legal; the error says why not (without the move, which the caller
    /// names).
    fn parse_any_move(&self, text: &str) -> Result<Self::Move, String>;

    /// Reads a position from the command line or a batch line
    /// (`startpos` and the game's notation); errors are
    /// [`Failure::Input`] naming the text.
    fn position(text: &str) -> Result<Self, Failure>;

    /// The legal moves in the order `moves` prints them (the game's
    /// generation order unless the game says otherwise).
    fn listed_moves(&self) -> Result<Vec<Self::Move>, Failure> {
        Ok(self.legal_moves().to_vec())
    }

    /// The move as one JSON object.
    fn write_json_move(&self, mv: Self::Move, out: &mut dyn Write) -> Result<(), Failure>;
}

/// `boardwire perft <game> <position> <depth> [--divide]`.
///
/// When stderr is a terminal and the run lasts over a second, a progress
/// bar (root moves done of all, nodes/s, an ETA from the root moves left)
/// is drawn on stderr after each root move and cleared at the end; the
/// timing line `nodes N time T s speed S nodes/s` then follows as without a
/// terminal (other tools parse it).
pub(crate) fn perft<G: GameCli>(
    text: &str,
    depth: u32,
    divide: bool,
    out: &mut impl Write,
) -> Result<(), Failure> {
    let pos = G::position(text)?;
    let terminal = std::io::stderr().is_terminal();
    let start = Instant::now();
    let mut per_move = Vec::new();
    let total = if divide || terminal {
        let mut progress = Progress::new(pos.legal_moves().len(), terminal);
        let total = pos.perft_divide_with(depth, |mv, n| {
            if divide {
                per_move.push((mv, n));
            }
            progress.root_done(n, start.elapsed());
        });
        progress.finish();
        total
    } else {
        pos.perft(depth)
    };
    let elapsed = start.elapsed();
    writeln!(out, "{total}")?;
    for &(mv, n) in &per_move {
        writeln!(out, "{} {n}", pos.move_text(mv))?;
    }
    report_timing(total, elapsed);
    Ok(())
}

/// Runs shorter than this draw no progress bar.
const PROGRESS_AFTER: Duration = Duration::from_secs(1);

/// perft's progress bar on a terminal (indicatif): hidden until the run has
/// lasted [`PROGRESS_AFTER`], then drawn on stderr after each root move.
struct Progress {
    bar: indicatif::ProgressBar,
    terminal: bool,
    shown: bool,
    nodes: u64,
}

impl Progress {
    fn new(roots: usize, terminal: bool) -> Self {
        let bar = indicatif::ProgressBar::hidden();
        bar.set_length(roots as u64);
        bar.set_style(
            indicatif::ProgressStyle::with_template(
                "perft: {pos}/{len} root moves [{bar:30}] {msg}, ETA {eta}",
            )
            .expect("a valid template")
            .progress_chars("=> "),
        );
        Self {
            bar,
            terminal,
            shown: false,
            nodes: 0,
        }
    }

    /// One root move's subtree is counted: `n` nodes, `elapsed` since the
    /// start.
    fn root_done(&mut self, n: u64, elapsed: Duration) {
        self.nodes += n;
        if !self.terminal {
            return;
        }
        if !self.shown && elapsed >= PROGRESS_AFTER {
            self.bar
                .set_draw_target(indicatif::ProgressDrawTarget::stderr());
            self.shown = true;
        }
        self.bar.set_message(progress_message(self.nodes, elapsed));
        self.bar.inc(1);
    }

    /// Clears the bar (the timing line takes its place).
    fn finish(self) {
        self.bar.finish_and_clear();
    }
}

/// The progress bar's message: `4518 nodes, 1234567 nodes/s`.
fn progress_message(nodes: u64, elapsed: Duration) -> String {
    let secs = elapsed.as_secs_f64();
    let nps = if secs > 0.0 { nodes as f64 / secs } else { 0.0 };
    format!("{nodes} nodes, {nps:.0} nodes/s")
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
            let names: Vec<String> = G::NOTATIONS.iter().map(|n| n.name()).collect();
            return Err(Failure::Input(format!(
                "{} moves are not written in {}: use --notation {}",
                <G as Game>::NAME,
                n.name(),
                names.join(" or ")
            )));
        }
    };
    if text == "-" {
        return batch_moves::<G>(notation, json, out);
    }
    let pos = G::position(text)?;
    for mv in pos.listed_moves()? {
        if json {
            pos.write_json_move(mv, out)?;
            writeln!(out)?;
        } else {
            writeln!(out, "{}", pos.notation_text(mv, notation))?;
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
) -> Result<G, Failure> {
    let mut pos = G::position(text)?;
    for (i, m) in moves.enumerate() {
        let mv = pos.parse_any_move(m).map_err(|why| {
            Failure::Input(format!(
                "move {} {}: {why} (position {pos})",
                i + 1,
                batch::json_string(m)
            ))
        })?;
        pos.play_unchecked(mv);
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
        let list = pos.listed_moves()?;
        Ok((pos, list))
    };
    batch::batch(G::BATCH_KEY, json, out, parse, |(pos, list), json, out| {
        for (i, &mv) in list.iter().enumerate() {
            if json {
                if i > 0 {
                    write!(out, ",")?;
                }
                pos.write_json_move(mv, out).map_err(|e| match e {
                    Failure::Output(e) => e,
                    Failure::Input(m) | Failure::Failed(m) => std::io::Error::other(m),
                })?;
            } else {
                let sep = if i == 0 { "" } else { " " };
                write!(out, "{sep}{}", pos.notation_text(mv, notation))?;
            }
        }
        Ok(())
    })
}
