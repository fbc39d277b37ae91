//! A small engine for tests and CI checks (not a strong player: it plays
//! random legal moves with `board_core::player::Player`).
//!
//! `boardwire-test-engine MODE [SEED]`, MODE:
//! - `usi`: a USI engine playing legal moves;
//! - `usi-crash`: as `usi`, but exits (status 3) on its second `go`;
//! - `usi-illegal`: answers every `go` with `bestmove 5e5d` (no piece
//!   there in the initial position: illegal);
//! - `usi-silent`: answers the handshake, never a `go`;
//! - `uci`: a UCI engine playing legal chess moves;
//! - `hub`: a Hub (v2) draughts engine playing legal moves;
//! - `hub-crash`: as `hub`, but exits (status 3) on its second `go`;
//! - `hub-illegal`: answers every `go` with `done move=1-1` (a quiet
//!   move that goes nowhere: illegal in every position);
//! - `hub-silent`: answers the start-up, never a `go`;
//! - `hub-stop`: answers a `go` only when told `stop` (Hub: `done` then).
//!
//! `usi` and `uci` take `setoption name Seed value N` (a new random
//! player, as SEED would give).

use std::io::{BufRead, Write};

use board_core::player::Player;

fn main() {
    let mut args = std::env::args().skip(1);
    let mode = args.next().unwrap_or_default();
    let seed = args.next().and_then(|s| s.parse().ok()).unwrap_or(1);
    let stdin = std::io::stdin();
    let mut out = std::io::stdout();
    let mut player = Player::new(seed);
    match mode.as_str() {
        "usi" | "usi-crash" | "usi-illegal" | "usi-silent" => {
            usi(&mode, &stdin, &mut out, &mut player)
        }
        "uci" => uci(&stdin, &mut out, &mut player),
        "hub" | "hub-crash" | "hub-illegal" | "hub-silent" | "hub-stop" => {
            hub(&mode, &stdin, &mut out, &mut player)
        }
        _ => {
            eprintln!(
                "usage: boardwire-test-engine usi|usi-crash|usi-illegal|usi-silent|uci|hub|hub-crash|hub-illegal|hub-silent|hub-stop [SEED]"
            );
            std::process::exit(2);
        }
    }
}

fn say(out: &mut impl Write, line: &str) {
    let _ = writeln!(out, "{line}");
    let _ = out.flush();
}

/// A search asked in `mode` (`usi-…`, `hub-…`), counted in `gos`:
/// `-silent` says nothing, `-crash` exits (status 3) on the second,
/// `-illegal` answers `illegal`; true when a move is to be played.
fn played(mode: &str, gos: &mut u32, out: &mut impl Write, illegal: &str) -> bool {
    *gos += 1;
    match mode.split_once('-').map(|(_, m)| m) {
        Some("silent") => false,
        Some("crash") if *gos >= 2 => std::process::exit(3),
        Some("illegal") => {
            say(out, illegal);
            false
        }
        _ => true,
    }
}

/// `setoption name Seed value N`: plays as `Player::new(N)` from now on.
fn reseed(words: &[&str], player: &mut Player) {
    if let ["setoption", "name", "Seed", "value", n] = words
        && let Ok(n) = n.parse()
    {
        *player = Player::new(n);
    }
}

/// The loop USI and UCI share: `hello` (`usi`, `uci`) → `id name`, the
/// `extra` lines, `<hello>ok`; `setoption` (see [`reseed`]); `isready` →
/// `readyok`; `quit` ends it. Any other line's words go to `other`.
fn usi_family<W: Write>(
    stdin: &std::io::Stdin,
    out: &mut W,
    player: &mut Player,
    (hello, extra): (&str, &[&str]),
    mut other: impl FnMut(&[&str], &mut W, &mut Player),
) {
    for line in stdin.lock().lines() {
        let Ok(line) = line else { return };
        let words: Vec<&str> = line.split_whitespace().collect();
        match words.first().copied() {
            Some(w) if w == hello => {
                say(out, "id name boardwire-test-engine");
                for l in extra {
                    say(out, l);
                }
                say(out, &format!("{hello}ok"));
            }
            Some("setoption") => reseed(&words, player),
            Some("isready") => say(out, "readyok"),
            Some("quit") => return,
            _ => other(&words, out, player),
        }
    }
}

fn usi(mode: &str, stdin: &std::io::Stdin, out: &mut impl Write, player: &mut Player) {
    use board_core::shogi::{Move, Position};
    let mut pos = Position::startpos();
    let mut gos = 0u32;
    let extra = [
        "id author boardwire",
        "option name USI_Hash type spin default 16 min 1 max 1024",
    ];
    usi_family(stdin, out, player, ("usi", &extra), |words, out, player| {
        match words.first().copied() {
            Some("position") => {
                // position startpos|sfen <4 fields> [moves ...]
                let (mut p, rest) = if words.get(1) == Some(&"sfen") && words.len() >= 6 {
                    match Position::from_sfen(&words[2..6].join(" ")) {
                        Ok(p) => (p, &words[6..]),
                        Err(_) => return,
                    }
                } else {
                    (Position::startpos(), &words[2.min(words.len())..])
                };
                for w in rest.iter().skip_while(|w| **w == "moves") {
                    match Move::from_usi(w) {
                        Ok(m) if p.check_move(m).is_ok() => p.play_unchecked(m),
                        _ => break,
                    }
                }
                pos = p;
            }
            Some("go") if played(mode, &mut gos, out, "bestmove 5e5d") => {
                match player.choose_shogi(&pos) {
                    Some(m) => {
                        say(out, &format!("info depth 1 score cp {} pv {m}", gos % 7));
                        say(out, &format!("bestmove {m}"));
                    }
                    None => say(out, "bestmove resign"),
                }
            }
            _ => {}
        }
    });
}

fn uci(stdin: &std::io::Stdin, out: &mut impl Write, player: &mut Player) {
    use board_core::chess::Position;
    let mut pos = Position::startpos();
    usi_family(
        stdin,
        out,
        player,
        ("uci", &[]),
        |words, out, player| match words.first().copied() {
            Some("position") => {
                let mut p = Position::startpos();
                if let Some(i) = words.iter().position(|w| *w == "moves") {
                    for w in &words[i + 1..] {
                        match p.parse_uci(w) {
                            Ok(m) => p.play_unchecked(m),
                            Err(_) => break,
                        }
                    }
                }
                pos = p;
            }
            Some("go") => match player.choose_chess(&pos) {
                Some(m) => say(out, &format!("bestmove {m}")),
                None => say(out, "bestmove (none)"),
            },
            _ => {}
        },
    );
}

/// Hub v2 (spec/hub.md): `hub` → `id`, a `param`, `wait`; `init`
/// → `ready`; `pos pos=<51 chars> [moves="..."]`, `level ...`, `go think`
/// → `info` and `done move=<move>`; `ping` → `pong`; `quit`.
fn hub(mode: &str, stdin: &std::io::Stdin, out: &mut impl Write, player: &mut Player) {
    use board_core::draughts::Position;
    use boardwire_engines::hub::HubMove;
    let mut pos = Position::startpos();
    let mut gos = 0u32;
    let mut searching = false;
    for line in stdin.lock().lines() {
        let Ok(line) = line else { return };
        let word = line.split_whitespace().next().unwrap_or("");
        if mode == "hub-stop" && word == "go" {
            searching = true;
            continue;
        }
        if mode == "hub-stop" && word == "stop" && searching {
            searching = false;
        } else if word == "stop" {
            continue;
        }
        match word {
            "hub" => {
                say(
                    out,
                    "id name=boardwire-test-engine version=1 author=\"boardwire developers\"",
                );
                say(out, "param name=seed value=1 type=int min=0 max=1000");
                say(out, "wait");
            }
            "init" => say(out, "ready"),
            "ping" => say(out, "pong"),
            "pos" => {
                let rest = &line[3..];
                let value = |key: &str| -> Option<String> {
                    let at = rest.find(&format!("{key}="))? + key.len() + 1;
                    let v = &rest[at..];
                    Some(match v.strip_prefix('"') {
                        Some(q) => q[..q.find('"').unwrap_or(q.len())].to_string(),
                        None => v.split_whitespace().next().unwrap_or("").to_string(),
                    })
                };
                let Some(p) = value("pos").and_then(|s| hub_position(&s)) else {
                    say(out, "error message=\"bad pos\"");
                    continue;
                };
                pos = p;
                for m in value("moves").unwrap_or_default().split_whitespace() {
                    match HubMove::parse(m.as_bytes(), 0)
                        .ok()
                        .and_then(|h| h.to_move(&pos))
                    {
                        Some(mv) => pos.play_unchecked(mv),
                        None => break,
                    }
                }
            }
            "go" | "stop" if played(mode, &mut gos, out, "done move=1-1") => {
                match player.choose_draughts(&pos) {
                    Some(mv) => {
                        let h = HubMove::from_move(mv);
                        say(out, &format!("info depth=1 score=0.0 pv={h}"));
                        say(out, &format!("done move={h}"));
                    }
                    None => say(out, "error message=\"no legal move\""),
                }
            }
            "quit" => return,
            _ => {}
        }
    }
}

/// A 51-character Hub `pos=` string as a position.
fn hub_position(s: &str) -> Option<board_core::draughts::Position> {
    use board_core::draughts::{Color, Piece, PieceKind, Position, Setup};
    let b = s.as_bytes();
    if b.len() != 51 {
        return None;
    }
    let side = match b[0] {
        b'W' => Color::White,
        b'B' => Color::Black,
        _ => return None,
    };
    let mut pieces = [None; 50];
    for (i, c) in b[1..].iter().enumerate() {
        pieces[i] = match c {
            b'e' => None,
            b'w' => Some(Piece::new(Color::White, PieceKind::Man)),
            b'b' => Some(Piece::new(Color::Black, PieceKind::Man)),
            b'W' => Some(Piece::new(Color::White, PieceKind::King)),
            b'B' => Some(Piece::new(Color::Black, PieceKind::King)),
            _ => return None,
        };
    }
    Position::from_setup(&Setup {
        board: pieces,
        side_to_move: side,
    })
    .ok()
}
