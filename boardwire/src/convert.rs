//! `boardwire convert IN OUT` and `boardwire show --record FILE`: game
//! records read with `board_records` (PGN for chess, PDN for draughts,
//! KIF and KI2 for shogi) and csa-protocol (CSA files), written back in
//! export format, in another format of the same game (CSA, KIF, KI2:
//! `convert_shogi.rs`) or as one engine line per game, or the position
//! reached drawn.
//!
//! The readers check every move with board-core; their errors carry the
//! line, column and byte offset, printed here after the file's name. A
//! game that does not read is reported (`error: FILE: ...` on stderr) and
//! skipped (the readers resynchronise at the next game); the command then
//! exits 2 after writing the games that did read.

use std::io::{Read, Write};
use std::path::Path;

use board_records::{pdn, pgn};
use clap::{Args, ValueEnum};

use crate::Failure;
use crate::convert_shogi::{self, ShogiFormat};

/// A record format to read.
#[derive(Debug, Clone, Copy, PartialEq, Eq, ValueEnum)]
pub enum InputFormat {
    /// PGN, chess (`.pgn`).
    Pgn,
    /// PDN, international draughts (`.pdn`).
    Pdn,
    /// CSA standard file format, shogi (`.csa`; several records
    /// separated by `/`).
    Csa,
    /// KIF, shogi (`.kif` Shift_JIS, `.kifu` UTF-8; one game).
    Kif,
    /// KI2, shogi (`.ki2` Shift_JIS, `.ki2u` UTF-8; one game).
    Ki2,
}

impl From<InputFormat> for Format {
    fn from(f: InputFormat) -> Format {
        match f {
            InputFormat::Pgn => Format::Pgn,
            InputFormat::Pdn => Format::Pdn,
            InputFormat::Csa => Format::Csa,
            InputFormat::Kif => Format::Kif,
            InputFormat::Ki2 => Format::Ki2,
        }
    }
}

/// A format to write.
#[derive(Debug, Clone, Copy, PartialEq, Eq, ValueEnum)]
pub enum Format {
    /// PGN, chess (`.pgn`).
    Pgn,
    /// PDN, international draughts (`.pdn`).
    Pdn,
    /// CSA standard file format V2.2, shogi (`.csa`).
    Csa,
    /// KIF, shogi (`.kif` Shift_JIS, `.kifu` UTF-8).
    Kif,
    /// KI2, shogi (`.ki2` Shift_JIS, `.ki2u` UTF-8).
    Ki2,
    /// Output only: one line per game that an engine takes: chess
    /// `startpos moves e2e4 e7e5` or `fen <FEN> moves ...` (UCI), draughts
    /// `<PDN FEN> moves 32-28 19x37x28` (PDN numeric, every capture in the
    /// long form), shogi `startpos moves 7g7f 3c3d` or `sfen <SFEN> moves
    /// ...` (USI).
    Moves,
}

impl Format {
    fn name(self) -> &'static str {
        match self {
            Format::Pgn => "PGN (chess)",
            Format::Pdn => "PDN (draughts)",
            Format::Csa => "CSA (shogi)",
            Format::Kif => "KIF (shogi)",
            Format::Ki2 => "KI2 (shogi)",
            Format::Moves => "engine move lines",
        }
    }

    /// The shogi format, if this is one.
    fn shogi(self) -> Option<ShogiFormat> {
        match self {
            Format::Csa => Some(ShogiFormat::Csa),
            Format::Kif => Some(ShogiFormat::Kif),
            Format::Ki2 => Some(ShogiFormat::Ki2),
            _ => None,
        }
    }
}

/// `boardwire convert IN OUT`
#[derive(Debug, Args)]
pub struct ConvertArgs {
    /// The record to read (`-`: standard input, then --from is needed).
    input: String,
    /// Where to write (`-`: standard output).
    output: String,
    /// The input's format (default: from IN's extension: `.pgn`, `.pdn`,
    /// `.csa`, `.kif`/`.kifu`, `.ki2`/`.ki2u`).
    #[arg(long, value_enum)]
    from: Option<InputFormat>,
    /// The output's format (default: from OUT's extension; for `-`, the
    /// input's format).
    #[arg(long, value_enum)]
    to: Option<Format>,
}

/// A format from a file name's extension.
fn by_extension(name: &str) -> Option<Format> {
    let ext = Path::new(name).extension()?.to_str()?.to_ascii_lowercase();
    match ext.as_str() {
        "pgn" => Some(Format::Pgn),
        "pdn" => Some(Format::Pdn),
        "csa" => Some(Format::Csa),
        "kif" | "kifu" => Some(Format::Kif),
        "ki2" | "ki2u" => Some(Format::Ki2),
        _ => None,
    }
}

/// The bytes of `name` (`-`: stdin); errors name it.
fn read_input(name: &str) -> Result<Vec<u8>, Failure> {
    let mut data = Vec::new();
    if name == "-" {
        std::io::stdin()
            .read_to_end(&mut data)
            .map_err(|e| Failure::Input(format!("standard input: {e}")))?;
    } else {
        data = std::fs::read(name).map_err(|e| Failure::Input(format!("{name}: {e}")))?;
    }
    Ok(data)
}

/// The input's format: `given`, else the extension.
fn input_format(name: &str, given: Option<InputFormat>) -> Result<Format, Failure> {
    match given.map(Format::from).or_else(|| by_extension(name)) {
        Some(Format::Moves) => Err(Failure::Input(format!(
            "{name}: engine move lines are an output format only"
        ))),
        Some(f) => Ok(f),
        None if name == "-" => Err(Failure::Input(
            "the format of standard input: give --from (pgn, pdn, csa, kif or ki2)".into(),
        )),
        None => Err(Failure::Input(format!(
            "{name}: unknown record format (extension .pgn, .pdn, .csa, .kif, .kifu, .ki2 or .ki2u, or give --from)"
        ))),
    }
}

/// The games of a record, the ones that read.
pub(crate) enum Games {
    /// Chess.
    Chess(Vec<pgn::Game>),
    /// Draughts.
    Draughts(Vec<pdn::Game>),
}

/// Reads every game of `data` in `format`; each error is printed
/// (`error: NAME: ...`) and counted.
pub(crate) fn read_games(data: &[u8], format: Format, name: &str) -> (Games, usize) {
    let mut bad = 0;
    let mut report = |e: &dyn std::fmt::Display| {
        bad += 1;
        eprintln!("error: {name}: {e}");
    };
    let games = match format {
        Format::Pdn => Games::Draughts(
            pdn::Reader::new(data)
                .games()
                .filter_map(|r| r.map_err(|e| report(&e)).ok())
                .collect(),
        ),
        _ => Games::Chess(
            pgn::Reader::new(data)
                .games()
                .filter_map(|r| r.map_err(|e| report(&e)).ok())
                .collect(),
        ),
    };
    (games, bad)
}

/// Runs `boardwire convert`.
pub fn run(args: ConvertArgs, out: &mut impl Write) -> Result<(), Failure> {
    let from = input_format(&args.input, args.from)?;
    let to = match args.to.or_else(|| by_extension(&args.output)) {
        Some(f) => f,
        None if args.output == "-" => from,
        None => {
            return Err(Failure::Input(format!(
                "{}: unknown record format (extension .pgn, .pdn, .csa, .kif, .kifu, .ki2 or .ki2u, or give --to)",
                args.output
            )));
        }
    };
    let same_game = to == from || (from.shogi().is_some() && to.shogi().is_some());
    if !same_game && to != Format::Moves {
        return Err(Failure::Input(format!(
            "cannot convert {} to {}: they record different games",
            from.name(),
            to.name()
        )));
    }
    let data = read_input(&args.input)?;
    let name = if args.input == "-" {
        "standard input"
    } else {
        &args.input
    };
    if let Some(shogi) = from.shogi() {
        let (games, bad) = convert_shogi::read_games(&data, shogi, name);
        let bytes = match to.shogi() {
            Some(f) => convert_shogi::write_games_from(&games, f, &args.output, bad)
                .map_err(Failure::Input)?,
            None => games
                .iter()
                .map(|g| g.usi_line() + "\n")
                .collect::<String>()
                .into_bytes(),
        };
        return finish(&args.output, name, &bytes, games.len(), bad, out);
    }
    let (games, bad) = read_games(&data, from, name);
    let mut text = String::new();
    match (&games, to) {
        (Games::Chess(g), Format::Moves) => g.iter().for_each(|g| {
            text.push_str(&g.uci_line());
            text.push('\n');
        }),
        (Games::Draughts(g), Format::Moves) => g.iter().for_each(|g| {
            text.push_str(&g.engine_line());
            text.push('\n');
        }),
        (Games::Chess(g), _) => g.iter().for_each(|g| text.push_str(&g.to_pgn())),
        (Games::Draughts(g), _) => g.iter().for_each(|g| text.push_str(&g.to_pdn())),
    }
    let read = match &games {
        Games::Chess(g) => g.len(),
        Games::Draughts(g) => g.len(),
    };
    finish(&args.output, name, text.as_bytes(), read, bad, out)
}

/// Writes `text` (`read` games, `bad` that did not read) to `output`.
fn finish(
    output: &str,
    name: &str,
    text: &[u8],
    read: usize,
    bad: usize,
    out: &mut impl Write,
) -> Result<(), Failure> {
    if read == 0 && bad == 0 {
        eprintln!("note: {name}: no games");
    }
    if output == "-" {
        out.write_all(text)?;
    } else if read == 0 && bad > 0 {
        // Nothing read: an existing OUT is left as it was.
        return Err(Failure::Input(format!(
            "no game of {name} could be read (see above); {output} left untouched"
        )));
    } else {
        // A temporary file renamed over OUT: an existing OUT is replaced
        // whole or not at all (and IN may be OUT).
        csa_league::operator::write_atomic(Path::new(output), text)
            .map_err(|e| Failure::Input(format!("{output}: {e}")))?;
    }
    if bad > 0 {
        return Err(Failure::Input(format!(
            "{bad} game(s) of {name} could not be read (see above)"
        )));
    }
    Ok(())
}

/// `boardwire show --record FILE [--ply N] [--game K]`: the diagram of the
/// position after `ply` plies of game `game` (1-based) of the record
/// (default: the end of its main line), then a line naming the ply.
pub fn show(
    file: &str,
    from: Option<InputFormat>,
    game: usize,
    ply: Option<usize>,
    out: &mut impl Write,
) -> Result<(), Failure> {
    let format = input_format(file, from)?;
    let data = read_input(file)?;
    let name = if file == "-" { "standard input" } else { file };
    // Game K is the K-th game of the file, whether the others read or not.
    let (diagram, plies) = match format {
        Format::Csa | Format::Kif | Format::Ki2 => {
            let shogi = format.shogi().unwrap_or(ShogiFormat::Csa);
            let games = convert_shogi::read_all(&data, shogi, name);
            let count = games.len();
            let g = match game.checked_sub(1).and_then(|i| games.get(i)) {
                Some(Ok(g)) => g,
                // A game whose main line has an illegal move: the plies
                // before it can be shown.
                Some(Err(convert_shogi::Unread {
                    error,
                    before: Some((g, bad_ply)),
                })) => {
                    let last = bad_ply - 1;
                    match ply {
                        Some(n) if n <= last => {
                            eprintln!(
                                "warning: {name}: game {game} reads up to ply {last} only: {error}"
                            );
                            g
                        }
                        _ => {
                            return Err(Failure::Input(format!(
                                "{name}: game {game} reads up to ply {last} only (--ply 0 to \
                                 {last} show its positions): {error}"
                            )));
                        }
                    }
                }
                Some(Err(u)) => {
                    return Err(Failure::Input(format!(
                        "{name}: game {game} does not read: {}",
                        u.error
                    )));
                }
                None => {
                    return Err(Failure::Input(format!(
                        "{name}: no game {game} (the record has {count} game(s), numbered from 1)"
                    )));
                }
            };
            let plies = g.moves.len();
            let ply = check_ply(ply, plies, game, name)?;
            (
                format!(
                    "{:#}",
                    g.position_after(ply)
                        .unwrap_or_else(|| convert_shogi::end_position(g))
                ),
                plies,
            )
        }
        Format::Pdn => {
            let g = nth_game(pdn::Reader::new(&data).games(), game, name)?;
            let plies = g.moves.len();
            let ply = check_ply(ply, plies, game, name)?;
            (
                format!("{:#}", g.position_after(ply).unwrap_or(*g.start())),
                plies,
            )
        }
        _ => {
            let g = nth_game(pgn::Reader::new(&data).games(), game, name)?;
            let plies = g.moves.len();
            let ply = check_ply(ply, plies, game, name)?;
            (
                format!("{:#}", g.position_after(ply).unwrap_or(*g.start())),
                plies,
            )
        }
    };
    let ply = ply.unwrap_or(plies);
    writeln!(out, "{diagram}")?;
    writeln!(out, "after ply {ply} of {plies}, game {game} of {name}")?;
    Ok(())
}

/// Game `k` (1-based, counted in the file) of `games`; an error when the
/// file has fewer or that game does not read (with the reader's error).
fn nth_game<G, E: std::fmt::Display>(
    games: impl Iterator<Item = Result<G, E>>,
    k: usize,
    name: &str,
) -> Result<G, Failure> {
    let mut count = 0;
    for (i, g) in games.enumerate() {
        count = i + 1;
        if count == k {
            return g.map_err(|e| Failure::Input(format!("{name}: game {k} does not read: {e}")));
        }
    }
    Err(Failure::Input(format!(
        "{name}: no game {k} (the record has {count} game(s), numbered from 1)"
    )))
}

/// `ply` (default: the last), checked against the game's `plies`.
fn check_ply(ply: Option<usize>, plies: usize, game: usize, name: &str) -> Result<usize, Failure> {
    let ply = ply.unwrap_or(plies);
    if ply > plies {
        return Err(Failure::Input(format!(
            "--ply {ply}: game {game} of {name} has {plies} plies"
        )));
    }
    Ok(ply)
}
