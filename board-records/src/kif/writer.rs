//! The writers, infallible: KIF as Kifu for Windows writes it (§1.6,
//! §1.10) and KI2 (§2), to a `String`; [`encode`](super::encode) turns the
//! text into Shift_JIS or UTF-8 bytes.
//!
//! KIF layout: `#KIF version=2.0 encoding=…` (when asked), `#` program
//! lines, headers, `手合割：name` for a named handicap or a board diagram
//! otherwise, the start's comments and bookmarks, the
//! `手数----指手---------消費時間--` line, then each move as
//! `{ply:>4} {move}` padded to 12 display columns (full-width = 2) and
//! ` ( m:ss/HH:MM:SS)` when its time is known (minutes space-padded to 2
//! and may exceed 59; `( m:ss/)` when the total is unknown), `+` when the
//! move has variations; comments, bookmarks; the ending line and the
//! `まで…` summary (the one read, or KfW's form); then the variations,
//! deepest branch point first, each after a blank line and `変化：N手`.
//!
//! KI2 layout: the same head without the `手数` line; moves `▲７六歩`
//! six to a line, each padded to 12 columns, a line break after a move
//! with comments; no ending word (KfW writes none), the summary line
//! carries the result.

use alloc::string::String;
use core::fmt::Write;

use board_core::shogi::{Color, Piece, Position, Square};

use super::encoding::TextEncoding;
use super::game::{Format, Game, Notes, Variation};
use super::ki2;
use super::notation::{FW_DIGITS, KANJI_DIGITS, board_char, kanji_count, move_name, side_name};
use super::reader::{CommentKind, Ending, MoveTime};

fn width(s: &str) -> usize {
    s.chars().map(|c| if c.is_ascii() { 1 } else { 2 }).sum()
}

fn pad(out: &mut String, s: &str, cols: usize) {
    out.push_str(s);
    for _ in width(s)..cols {
        out.push(' ');
    }
}

fn write_time(out: &mut String, t: &MoveTime) {
    let _ = write!(out, "({:>2}:{:02}/", t.spent / 60, t.spent % 60);
    if let Some(total) = t.total {
        let _ = write!(
            out,
            "{:02}:{:02}:{:02}",
            total / 3600,
            total / 60 % 60,
            total % 60
        );
    }
    out.push(')');
}

/// One line of text: line breaks written as KfW writes them in 備考, the
/// two characters `\n` (a value never breaks the line structure).
fn push_one_line(out: &mut String, text: &str) {
    let mut rest = text;
    while let Some(i) = rest.find(['\r', '\n']) {
        out.push_str(&rest[..i]);
        out.push_str("\\n");
        let skip = if rest[i..].starts_with("\r\n") { 2 } else { 1 };
        rest = &rest[i + skip..];
    }
    out.push_str(rest);
}

fn write_notes(out: &mut String, notes: &Notes) {
    for c in &notes.comments {
        // A comment of several lines is several `*` lines of its kind.
        for line in c.text.split('\n') {
            out.push_str(match c.kind {
                CommentKind::Plain => "*",
                CommentKind::Reading => "**",
                CommentKind::Analysis => "*#",
            });
            out.push_str(line.strip_suffix('\r').unwrap_or(line));
            out.push('\n');
        }
    }
    for b in &notes.bookmarks {
        out.push('&');
        push_one_line(out, b);
        out.push('\n');
    }
}

fn write_hand(out: &mut String, label: &str, pos: &Position, color: Color) {
    out.push_str(label);
    out.push('：');
    let hand = pos.hand(color);
    if hand.is_empty() {
        out.push_str("なし");
    }
    // KfW order: 飛 角 金 銀 桂 香 歩.
    for i in [6usize, 5, 4, 3, 2, 1, 0] {
        let kind = board_core::shogi::PieceKind::HAND[i];
        let n = hand.count(kind);
        if n > 0 {
            out.push(board_char(kind));
            kanji_count(n, out);
            out.push('　');
        }
    }
    out.push('\n');
}

/// The board diagram (BOD, §1.5) of `pos`, with both hands and the turn
/// line when White is to move.
pub fn write_diagram(out: &mut String, pos: &Position) {
    write_hand(out, "後手の持駒", pos, Color::White);
    out.push_str("  ９ ８ ７ ６ ５ ４ ３ ２ １\n+---------------------------+\n");
    for rank in 1..=9u8 {
        out.push('|');
        for file in (1..=9u8).rev() {
            match Square::new(file, rank).and_then(|sq| pos.piece_at(sq)) {
                None => out.push_str(" ・"),
                Some(Piece { color, kind }) => {
                    out.push(if color == Color::White { 'v' } else { ' ' });
                    out.push(board_char(kind));
                }
            }
        }
        out.push('|');
        out.push(KANJI_DIGITS[rank as usize - 1]);
        out.push('\n');
    }
    out.push_str("+---------------------------+\n");
    write_hand(out, "先手の持駒", pos, Color::Black);
    if pos.side_to_move() == Color::White {
        out.push_str("後手番\n");
    }
}

fn write_head(out: &mut String, game: &Game, format: Format, declare: Option<TextEncoding>) {
    if let Some(enc) = declare {
        let _ = writeln!(
            out,
            "#{} version=2.0 encoding={}",
            if format == Format::Kif { "KIF" } else { "KI2" },
            enc.name()
        );
    }
    for p in &game.program_lines {
        out.push('#');
        push_one_line(out, p);
        out.push('\n');
    }
    // KfW order: the headers before the players' names, then 手合割 (or
    // the diagram, after all headers), then the rest (§1.10).
    let players = |k: &str| matches!(k, "先手" | "後手" | "下手" | "上手");
    let split = game
        .headers
        .iter()
        .position(|(k, _)| players(k))
        .unwrap_or(game.headers.len());
    let write_headers = |out: &mut String, hs: &[(String, String)]| {
        for (k, v) in hs {
            push_one_line(out, k);
            out.push('：');
            push_one_line(out, v);
            out.push('\n');
        }
    };
    match game.handicap {
        Some(h) if h.position().same_position(&game.start) => {
            write_headers(out, &game.headers[..split]);
            out.push_str("手合割：");
            out.push_str(h.name());
            out.push('\n');
            write_headers(out, &game.headers[split..]);
        }
        _ => {
            write_headers(out, &game.headers);
            write_diagram(out, &game.start);
        }
    }
}

fn handicap_names(game: &Game) -> bool {
    matches!(game.handicap, Some(h) if h != super::Handicap::Even && h.position().same_position(&game.start))
}

/// The KfW summary line of a line ending in `ending` after `plies` real
/// moves, `stm` to move (§1.7).
pub fn summary(ending: Ending, plies: u32, stm: Color, handicap_names: bool) -> String {
    let me = side_name(stm, handicap_names);
    let other = side_name(stm.opposite(), handicap_names);
    match ending {
        Ending::Resign => alloc::format!("まで{plies}手で{other}の勝ち"),
        Ending::Interrupt | Ending::Sealed => alloc::format!("まで{plies}手で中断"),
        Ending::Repetition => alloc::format!("まで{plies}手で千日手"),
        Ending::Impasse => alloc::format!("まで{plies}手で持将棋"),
        Ending::TimeUp => alloc::format!("まで{plies}手で時間切れにより{other}の勝ち"),
        Ending::IllegalWin => alloc::format!("まで{plies}手で{me}の反則勝ち"),
        Ending::IllegalLoss => alloc::format!("まで{plies}手で{me}の反則負け"),
        Ending::EnteringKingWin => alloc::format!("まで{plies}手で{me}の入玉勝ち"),
        Ending::Mate => alloc::format!("まで{plies}手で詰"),
        Ending::NoMate => alloc::format!("まで{plies}手で不詰"),
    }
}

/// The KIF move text (`７六歩(77)`, `同　歩(87)`, `２三歩打`, `１一桂成(23)`).
fn kif_move_text(pos: &Position, m: board_core::shogi::Move, same: bool, out: &mut String) {
    let to = m.to();
    if same {
        out.push_str("同　");
    } else {
        out.push(FW_DIGITS[to.file() as usize - 1]);
        out.push(KANJI_DIGITS[to.rank() as usize - 1]);
    }
    match m.from() {
        None => {
            out.push_str(move_name(
                m.drop_kind().unwrap_or(board_core::shogi::PieceKind::Pawn),
            ));
            out.push('打');
        }
        Some(from) => {
            let kind = pos
                .piece_at(from)
                .map_or(board_core::shogi::PieceKind::Pawn, |p| p.kind);
            out.push_str(move_name(kind));
            if m.is_promotion() {
                out.push('成');
            }
            let [f, r] = from.csa_bytes();
            out.push('(');
            out.push(f as char);
            out.push(r as char);
            out.push(')');
        }
    }
}

struct Ctx {
    format: Format,
    handicap_names: bool,
}

fn write_line(
    out: &mut String,
    ctx: &Ctx,
    v: &Variation,
    start: Position,
    start_ply: u32,
    last: Option<Square>,
) {
    let mut pos = start;
    let mut last = last;
    let mut states = alloc::vec::Vec::with_capacity(v.moves.len());
    let mut on_line = 0usize;
    for (i, node) in v.moves.iter().enumerate() {
        states.push((pos, last));
        let ply = start_ply + i as u32;
        let same = last == Some(node.mv.to());
        let mut text = String::new();
        match ctx.format {
            Format::Kif => {
                kif_move_text(&pos, node.mv, same, &mut text);
                let _ = write!(out, "{ply:>4} ");
                match &node.time {
                    Some(t) => {
                        pad(out, &text, 12);
                        out.push(' ');
                        write_time(out, t);
                    }
                    None => out.push_str(&text),
                }
                if !node.variations.is_empty() {
                    out.push('+');
                }
                out.push('\n');
                write_notes(out, &node.notes);
            }
            Format::Ki2 => {
                text.push(if pos.side_to_move() == Color::Black {
                    '▲'
                } else {
                    '△'
                });
                ki2::move_text(&pos, node.mv, same, &mut text);
                let last_on_line = on_line == 5 || !node.notes.is_empty() || i + 1 == v.moves.len();
                if last_on_line {
                    out.push_str(&text);
                    out.push('\n');
                    on_line = 0;
                } else {
                    pad(out, &text, 12);
                    on_line += 1;
                }
                write_notes(out, &node.notes);
            }
        }
        pos.play_unchecked(node.mv);
        last = Some(node.mv.to());
    }
    let plies = start_ply - 1 + v.moves.len() as u32;
    if let Some((ending, time)) = &v.end
        && ctx.format == Format::Kif
    {
        {
            let _ = write!(out, "{:>4} ", plies + 1);
            match time {
                Some(t) => {
                    pad(out, ending.word(), 12);
                    out.push(' ');
                    write_time(out, t);
                }
                None => out.push_str(ending.word()),
            }
            out.push('\n');
        }
    }
    match (&v.summary, &v.end) {
        (Some(s), _) => {
            out.push_str(s);
            out.push('\n');
        }
        (None, Some((ending, _))) => {
            out.push_str(&summary(
                *ending,
                plies,
                pos.side_to_move(),
                ctx.handicap_names,
            ));
            out.push('\n');
        }
        (None, None) => {}
    }
    // Variations: deepest branch point first (KfW order, §1.9).
    for (i, node) in v.moves.iter().enumerate().rev() {
        for sub in &node.variations {
            let ply = start_ply + i as u32;
            let _ = write!(out, "\n変化：{ply}手\n");
            write_notes(out, &sub.notes);
            let (p, l) = states[i];
            write_line(out, ctx, sub, p, ply, l);
        }
    }
}

fn write_game(game: &Game, format: Format, declare: Option<TextEncoding>) -> String {
    let mut out = String::new();
    write_head(&mut out, game, format, declare);
    if format == Format::Kif {
        out.push_str("手数----指手---------消費時間--\n");
    }
    write_notes(&mut out, &game.start_notes);
    let ctx = Ctx {
        format,
        handicap_names: handicap_names(game),
    };
    write_line(
        &mut out,
        &ctx,
        &game.main,
        game.start,
        // KI2 has no move numbers: its `変化：N手` count from 1.
        match format {
            Format::Kif => game.first_ply.max(1),
            Format::Ki2 => 1,
        },
        None,
    );
    out
}

impl Game {
    /// The game as KIF text (UTF-8 in memory); `declare` adds the first
    /// line `#KIF version=2.0 encoding=…` naming the encoding the caller
    /// will [`encode`](super::encode) it in.
    pub fn to_kif(&self, declare: Option<TextEncoding>) -> String {
        write_game(self, Format::Kif, declare)
    }

    /// The game as KI2 text; `declare` as in [`Game::to_kif`] (`#KI2 …`).
    pub fn to_ki2(&self, declare: Option<TextEncoding>) -> String {
        write_game(self, Format::Ki2, declare)
    }

    /// The file bytes, encoded (Shift_JIS for `.kif`/`.ki2`, UTF-8 for
    /// `.kifu`/`.ki2u`): KIF with its `#KIF version=2.0 encoding=…` line;
    /// KI2 without one (ShogiGUI refused KfW's `#KI2 version…` line,
    /// shogihome #552).
    pub fn to_bytes(&self, format: Format, encoding: TextEncoding) -> alloc::vec::Vec<u8> {
        let declare = (format == Format::Kif).then_some(encoding);
        super::encode(&write_game(self, format, declare), encoding)
    }
}
