//! `boardwire convert` and `boardwire show --record` for shogi records:
//! CSA files (csa-protocol's kifu reader and writer, several records
//! separated by `/`), KIF and KI2 (board-records' `kif`, one game per
//! file). A game goes from one to the other through what all three hold:
//! the start position, the moves as board-records' one annotated move
//! ([`Annotated`]: the time each took, its comments, an evaluation), the
//! names, the game id (CSA `$EVENT`, KIF `棋戦`), the start time (CSA
//! `$START_TIME:YYYY/MM/DD HH:MM:SS` ⇄ KIF `開始日時：` in the same form;
//! KIF's `2021/06/29 09:00` and `1999/07/15(木) 19:07:12` are written to CSA
//! as `2021/06/29 09:00:00` and `1999/07/15 19:07:12`, shogi-records §1.3,
//! §3.3) and the ending.
//!
//! What each format holds is carried over (shogi-records §1.6, §1.8, §1.9,
//! §3.5):
//!
//! | | to KIF | to KI2 | to CSA |
//! |---|---|---|---|
//! | CSA `T` (V3.0: fractions) | time column, whole seconds, totals summed | — | `T`, fractions kept |
//! | CSA `'*text` (comments a program reads) | `*text` | `*text` | `'*text` |
//! | CSA `'** <score> <PV>` (Floodgate) | — | — | `'** <score>` (PV dropped) |
//! | KIF time column | as read | — | `T` (seconds spent) |
//! | KIF/KI2 `*` comments, `**`/`*#` lines, `&` bookmarks, `変化` variations, headers | the game as read | the game as read | `*` comments as `'*` lines; the rest has no place |
//!
//! CSA comments that do not start with `*` are ignored, as the standard
//! says (§3.5: `'` is a comment no program reads), except the
//! shogi-server summary ([`server_ending`]); the comment that keeps why a
//! game ended when the KIF ending word does not say it is added.
//!
//! Endings of CSA records: the `%` special move, or, for the endings
//! shogi-server states only in its `'summary:` comment (max moves,
//! perpetual-check repetition, illegal moves and their kinds, §3.5), that
//! comment: see [`server_ending`] (the move limit is 持将棋, a draw).
//!
//! Encodings: KIF/KI2 are read as the file says (`#KIF … encoding=`, BOM,
//! the bytes, the extension: board-records' `kif::read`); written in
//! Shift_JIS for `.kif`/`.ki2` and UTF-8 otherwise (standard output
//! included), with KIF's `#KIF version=2.0 encoding=…` line; characters
//! Shift_JIS lacks are written as `&#NNNN;` with a warning naming each
//! ([`unencodable_warnings`]). CSA is written as V2.2 (csa-protocol's
//! `Kifu`), or as V3.0 with its `'CSA encoding=UTF-8` line when a time
//! has fractions of a second (§3.5, §3.8).
//!
//! Errors name the format, the line and the column (1-based, in
//! characters) and the byte offset, as board-records' do
//! (`board_records::error::Location`): `CSA syntax error at line 4,
//! column 7 (byte 16): a move is 7 bytes like +7776FU`, `CSA game error at
//! line 6, column 1 (byte 29): record 1: ply 3 (+0055HI): …`.

use std::time::Duration;

use board_core::shogi::{Color, Move, Position};
use board_records::annotated::{Annotated, Eval, Score};
use board_records::error::Location;
use board_records::kif::{self, Ending, TextEncoding};
use csa_protocol::kifu::{
    Comment, Item, Kifu, KifuSpecial, Statement, Statements, parse_kifu, write_item,
};

/// A shogi record format.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum ShogiFormat {
    /// CSA standard file format.
    Csa,
    /// KIF.
    Kif,
    /// KI2.
    Ki2,
}

/// A game as the three formats share it.
#[derive(Debug, Clone)]
pub struct ShogiGame {
    /// The start position.
    pub start: Position,
    /// The moves, each with what the record says of it
    /// ([`Annotated`]): the time spent (CSA `T`, milliseconds kept as
    /// V3.0 writes them; KIF's time column, and the time used it gives),
    /// the comments (CSA `'*` lines, shogi-records §3.5; KIF `*` lines,
    /// §1.8) and the score of a Floodgate `'** <score> <PV>` line as the
    /// evaluation (Black's view, §3.5; its PV is not kept).
    pub moves: Vec<Annotated<Move>>,
    /// Comments on the start position: CSA `'*` lines before the first
    /// move, KIF `*` lines before move 1.
    pub start_comments: Vec<String>,
    /// The KIF or KI2 game as read, written back whole (variations, every
    /// kind of comment, bookmarks, headers) when the target is KIF or KI2.
    pub kif: Option<Box<kif::Game>>,
    /// Black's and White's names.
    pub names: [Option<String>; 2],
    /// CSA `$EVENT`, KIF `棋戦`.
    pub game_id: Option<String>,
    /// CSA `$START_TIME`, KIF `開始日時`, as written.
    pub start_time: Option<String>,
    /// The ending, as KIF says it.
    pub end: Option<Ending>,
    /// Why the game ended, when the ending word does not say it (a `*`
    /// comment after the last move in KIF/KI2).
    pub end_note: Option<String>,
}

/// A game that does not read: the error, and when a main-line move is
/// illegal, the game up to the move before it.
#[derive(Debug)]
pub struct Unread {
    /// The error as printed after the file's name.
    pub error: String,
    /// The game up to the first illegal move, and that move's 1-based ply.
    pub before: Option<(ShogiGame, usize)>,
}

/// The KIF ending of a CSA special move, `stm` to move (shogi-records
/// §3.6; `%±ILLEGAL_ACTION` names the offender), and the comment keeping
/// what the word loses (`%MAX_MOVES`: 持将棋 and why, as
/// [`server_ending`]).
fn ending_of(special: KifuSpecial, stm: Color) -> Option<(Ending, Option<String>)> {
    let offender = |c: Color| {
        if c == stm {
            Ending::IllegalLoss
        } else {
            Ending::IllegalWin
        }
    };
    let ending = match special {
        KifuSpecial::MaxMoves => {
            return Some((
                Ending::Impasse,
                Some("CSA %MAX_MOVES: the game reached the move limit, a draw".into()),
            ));
        }
        KifuSpecial::Toryo => Ending::Resign,
        KifuSpecial::Chudan => Ending::Interrupt,
        KifuSpecial::Sennichite => Ending::Repetition,
        KifuSpecial::TimeUp => Ending::TimeUp,
        KifuSpecial::IllegalMove => Ending::IllegalLoss,
        KifuSpecial::IllegalActionBlack => offender(Color::Black),
        KifuSpecial::IllegalActionWhite => offender(Color::White),
        KifuSpecial::Jishogi | KifuSpecial::Hikiwake => Ending::Impasse,
        KifuSpecial::Kachi => Ending::EnteringKingWin,
        KifuSpecial::Tsumi => Ending::Mate,
        KifuSpecial::Fuzumi => Ending::NoMate,
        _ => return None,
    };
    Some((ending, None))
}

/// The CSA special move of a KIF ending, `stm` to move.
fn special_of(end: Ending, stm: Color) -> KifuSpecial {
    let action = |c: Color| match c {
        Color::Black => KifuSpecial::IllegalActionBlack,
        Color::White => KifuSpecial::IllegalActionWhite,
    };
    match end {
        Ending::Resign => KifuSpecial::Toryo,
        Ending::Interrupt | Ending::Sealed => KifuSpecial::Chudan,
        Ending::Repetition => KifuSpecial::Sennichite,
        Ending::Mate => KifuSpecial::Tsumi,
        Ending::Impasse => KifuSpecial::Jishogi,
        Ending::TimeUp => KifuSpecial::TimeUp,
        Ending::IllegalWin => action(stm.opposite()),
        Ending::IllegalLoss => action(stm),
        Ending::EnteringKingWin => KifuSpecial::Kachi,
        Ending::NoMate => KifuSpecial::Fuzumi,
        _ => KifuSpecial::Chudan,
    }
}

/// A KIF `開始日時` value as CSA's `$START_TIME` writes it
/// (`YYYY/MM/DD` or `YYYY/MM/DD HH:MM:SS`, §3.3): a weekday `(木)` is
/// dropped, `HH:MM` gets `:00`; `None` for a value not of that shape
/// (then no `$START_TIME` is written).
pub fn csa_start_time(kif: &str) -> Option<String> {
    let digits = |s: &str, n: usize| s.len() == n && s.bytes().all(|b| b.is_ascii_digit());
    let kif = kif.trim();
    let (date, rest) = kif.split_at_checked(10)?;
    let mut d = date.split('/');
    let ok = matches!((d.next(), d.next(), d.next()), (Some(y), Some(m), Some(dd))
        if digits(y, 4) && digits(m, 2) && digits(dd, 2));
    if !ok {
        return None;
    }
    let mut rest = rest.trim_start();
    if let Some(r) = rest.strip_prefix(['(', '（']) {
        let close = r.find([')', '）'])?;
        rest = r[close..].trim_start_matches([')', '）']).trim_start();
    }
    if rest.is_empty() {
        return Some(date.to_owned());
    }
    let t: Vec<&str> = rest.split(':').collect();
    if !(2..=3).contains(&t.len()) || !t.iter().all(|p| digits(p, 2)) {
        return None;
    }
    let secs = t.get(2).copied().unwrap_or("00");
    Some(format!("{date} {}:{}:{secs}", t[0], t[1]))
}

impl ShogiGame {
    /// The position after `ply` moves (`None` past the end).
    pub fn position_after(&self, ply: usize) -> Option<Position> {
        let mut pos = self.start;
        for a in self.moves.get(..ply)? {
            pos.play_unchecked(a.mv);
        }
        Some(pos)
    }

    fn from_kif(g: &kif::Game) -> ShogiGame {
        ShogiGame {
            start: g.start,
            moves: g.main.moves.iter().map(kif::Node::annotated).collect(),
            start_comments: g
                .start_notes
                .comments
                .iter()
                .filter(|c| c.kind == kif::CommentKind::Plain)
                .map(|c| c.text.clone())
                .collect(),
            names: [g.black(), g.white()].map(|n| n.map(str::to_owned)),
            game_id: g.header("棋戦").map(str::to_owned),
            start_time: g.header("開始日時").map(str::to_owned),
            end: g.main.end.map(|e| e.0),
            end_note: None,
            kif: Some(Box::new(g.clone())),
        }
    }

    fn to_kif(&self) -> kif::Game {
        if let Some(g) = &self.kif {
            return (**g).clone();
        }
        let mut g = kif::Game::new(self.start);
        // KfW order: 開始日時 first, 棋戦, then the players (§1.10).
        if let Some(t) = &self.start_time {
            g.headers.push(("開始日時".into(), t.clone()));
        }
        if let Some(id) = &self.game_id {
            g.headers.push(("棋戦".into(), id.clone()));
        }
        for (key, name) in ["先手", "後手"].iter().zip(&self.names) {
            if let Some(name) = name {
                g.headers.push(((*key).into(), name.clone()));
            }
        }
        g.start_notes.comments = plain_comments(&self.start_comments);
        // The time used, when the record does not give it: each side's
        // whole seconds summed (§1.6: readers recompute totals).
        let mut totals = [0u32; 2];
        let mut stm = self.start.side_to_move();
        for a in &self.moves {
            let mut node = kif::Node::from_annotated(a);
            if let Some(t) = &mut node.time {
                let total = &mut totals[usize::from(stm == Color::White)];
                *total = total.saturating_add(t.spent);
                if t.total.is_none() {
                    t.total = Some(*total);
                }
            }
            g.main.moves.push(node);
            stm = stm.opposite();
        }
        if let Some(note) = &self.end_note {
            let notes = match g.main.moves.last_mut() {
                Some(n) => &mut n.notes,
                None => &mut g.start_notes,
            };
            notes.comments.push(kif::Comment {
                kind: kif::CommentKind::Plain,
                text: note.clone(),
            });
        }
        g.main.end = self.end.map(|e| (e, None));
        g
    }

    fn end_position(&self) -> Position {
        self.position_after(self.moves.len()).unwrap_or(self.start)
    }

    /// The game as a CSA V2.2 record: csa-protocol's `Kifu` writes the
    /// information lines and the position, then each move with its `T`
    /// (fractions of a second kept, V3.0's form, §3.5), its evaluation as
    /// a Floodgate `'** <score>` line and its comments as `'*` lines (one
    /// a line), then the ending.
    fn to_csa(&self) -> String {
        let stm_end = self.end_position().side_to_move();
        let head = Kifu {
            names: self.names.clone(),
            game_id: self.game_id.clone(),
            start: &self.start,
            moves: Vec::new(),
            end: None,
        }
        .to_string();
        let mut out = head.into_bytes();
        write_comments(&self.start_comments, &mut out);
        let mut pos = self.start;
        for a in &self.moves {
            let Ok(csa) = pos.move_to_csa(a.mv) else {
                break;
            };
            write_item(&Item::Move(csa), &mut out);
            if let Some(d) = a.spent {
                let ms = u64::try_from(d.as_millis()).unwrap_or(u64::MAX);
                write_item(
                    &Item::Time(csa_protocol::types::MoveTime::from_millis(ms)),
                    &mut out,
                );
            }
            if let Some(Eval {
                score: Score::Centipawns(cp),
                ..
            }) = a.eval
            {
                write_comment(&format!("** {cp}"), &mut out);
            }
            write_comments(&a.comments, &mut out);
            pos.play_unchecked(a.mv);
        }
        if let Some(e) = self.end {
            write_item(&Item::Special(special_of(e, stm_end)), &mut out);
        }
        let mut text = String::from_utf8_lossy(&out).into_owned();
        // A time with fractions of a second is V3.0 (§3.5, §3.8), which
        // says its encoding on its first line.
        if self
            .moves
            .iter()
            .any(|a| a.spent.is_some_and(|d| d.subsec_millis() != 0))
        {
            text = text.replacen("V2.2\n", "'CSA encoding=UTF-8\nV3.0\n", 1);
        }
        // `$START_TIME` after the other information lines, before the
        // position (§3.2's order; csa-protocol's writer has no field
        // for it).
        match self.start_time.as_deref().and_then(csa_start_time) {
            Some(t) => {
                let at = text.find("\nP").map_or(text.len(), |i| i + 1);
                format!("{}$START_TIME:{t}\n{}", &text[..at], &text[at..])
            }
            None => text,
        }
    }

    /// `startpos moves 7g7f 3c3d` or `sfen <SFEN> moves …` (USI; no
    /// ` moves` without moves).
    pub fn usi_line(&self) -> String {
        let mut line = if self.start.same_position(&Position::startpos()) {
            String::from("startpos")
        } else {
            format!("sfen {}", self.start)
        };
        if !self.moves.is_empty() {
            line.push_str(" moves");
        }
        for a in &self.moves {
            line.push(' ');
            line.push_str(&a.mv.to_string());
        }
        line
    }
}

/// `texts` as KIF `*` comments, one a line.
fn plain_comments(texts: &[String]) -> Vec<kif::Comment> {
    texts
        .iter()
        .flat_map(|t| t.lines())
        .map(|line| kif::Comment {
            kind: kif::CommentKind::Plain,
            text: line.trim_end_matches('\r').to_owned(),
        })
        .collect()
}

/// Appends the CSA comment `'text` (a CR or LF in `text` written as a
/// space: a comment is one line).
fn write_comment(text: &str, out: &mut Vec<u8>) {
    let text = text.replace(['\r', '\n'], " ");
    if let Some(c) = Comment::new(text.as_bytes()) {
        write_item(&Item::Comment(c), out);
    }
}

/// Appends `texts` as CSA `'*` comments (V3.0's comments a program
/// reads, Floodgate's comment on the move above, §3.5), one a line.
fn write_comments(texts: &[String], out: &mut Vec<u8>) {
    for line in texts.iter().flat_map(|t| t.lines()) {
        write_comment(&format!("*{line}"), out);
    }
}

/// Reads a CSA `'*` comment of a move (`bytes` after the `'`) into `a`:
/// `'** <score> …` (Floodgate, §3.5: the score Black-positive, then the
/// PV) as the evaluation, when it is the first; any other `'*text` as the
/// comment `text` (ShogiHome's `'**評価値=…` is the comment `*評価値=…`,
/// its KIF `**` line). Not UTF-8: read as Shift_JIS (V2.2 files, §3.8).
/// Other `'` comments are ignored, as the standard says (§3.5).
fn read_csa_comment<M>(bytes: &[u8], a: &mut Annotated<M>) {
    let Some(text) = bytes.strip_prefix(b"*") else {
        return;
    };
    if let Some(score) = floodgate_score(text)
        && a.eval.is_none()
    {
        a.eval = Some(Eval {
            score: Score::Centipawns(score),
            depth: None,
        });
        return;
    }
    let text = match std::str::from_utf8(text) {
        Ok(t) => t.to_owned(),
        Err(_) => kif::decode(text, Some(TextEncoding::ShiftJis))
            .map(|d| d.text.into_owned())
            .unwrap_or_else(|_| String::from_utf8_lossy(text).into_owned()),
    };
    if !text.trim().is_empty() {
        a.comments.push(text);
    }
}

/// The score of a Floodgate reading `* <score> [<PV>…]` (the text after
/// `'*`): an integer after the star and spaces, ended by a space or the
/// line's end (`* 30 -3334FU`, `* -2930`, `* 0 joseki`).
fn floodgate_score(text: &[u8]) -> Option<i32> {
    let rest = text.strip_prefix(b"*")?;
    let rest = std::str::from_utf8(rest).ok()?.trim_start();
    let word = rest.split(' ').next()?;
    word.parse().ok()
}

/// The location of byte `offset` on 1-based line `line` starting at
/// `line_start` of `data`, as board-records' errors give it.
fn location(data: &[u8], line: usize, line_start: usize, offset: usize) -> Location {
    Location::in_line(
        data,
        u32::try_from(line).unwrap_or(u32::MAX),
        line_start,
        offset,
    )
}

/// The line (1-based), its start and the move's byte in it of move
/// `index` (0-based) of record `record` (0-based) of a CSA file.
fn csa_move_location(data: &[u8], record: usize, index: usize) -> Option<Location> {
    let mut statements = Statements::new(data);
    let (mut r, mut m) = (0, 0);
    let line = loop {
        match statements.next()? {
            Ok(Statement::RecordEnd) => (r, m) = (r + 1, 0),
            Ok(Statement::Item(Item::Move(mv))) if r == record => {
                if m == index {
                    break (statements.line(), mv.to_string());
                }
                m += 1;
            }
            _ => {}
        }
    };
    let (line_no, text) = line;
    text_location(data, line_no, text.as_bytes(), 0)
}

/// Where `text` is on 1-based line `line_no` of `data` (its first
/// occurrence; the line's start when absent), moved on by `offset` bytes
/// within the line.
fn text_location(data: &[u8], line_no: usize, text: &[u8], offset: usize) -> Option<Location> {
    let start = if line_no <= 1 {
        0
    } else {
        data.iter()
            .enumerate()
            .filter(|&(_, &b)| b == b'\n')
            .nth(line_no - 2)
            .map(|(i, _)| i + 1)?
    };
    let end = data[start..]
        .iter()
        .position(|&b| b == b'\n')
        .map_or(data.len(), |k| start + k);
    let at = data[start..end]
        .windows(text.len())
        .position(|w| w == text)
        .unwrap_or(0);
    Some(location(
        data,
        line_no,
        start,
        (start + at + offset).min(end),
    ))
}

/// Where position line `line` (1-based, counting the position lines and
/// the side-to-move line of record `record`, 0-based, as the record's
/// position text has them) and its byte `offset` are in the file.
fn csa_position_location(
    data: &[u8],
    record: usize,
    line: usize,
    offset: usize,
) -> Option<Location> {
    let mut statements = Statements::new(data);
    let (mut r, mut n) = (0, 0);
    let (line_no, text) = loop {
        match statements.next()? {
            Ok(Statement::RecordEnd) => (r, n) = (r + 1, 0),
            Ok(Statement::Item(Item::Position(p))) if r == record => {
                n += 1;
                if n == line {
                    break (statements.line(), p.as_bytes().to_vec());
                }
            }
            Ok(Statement::Item(Item::SideToMove(side))) if r == record => {
                n += 1;
                if n == line {
                    break (statements.line(), side.sign().to_string().into_bytes());
                }
            }
            _ => {}
        }
    };
    text_location(data, line_no, &text, offset)
}

/// The games of a shogi record; each game that does not read is printed
/// (`error: NAME: …`) and counted.
pub fn read_games(data: &[u8], format: ShogiFormat, name: &str) -> (Vec<ShogiGame>, usize) {
    let games = read_all(data, format, name);
    let mut bad = 0;
    let games = games
        .into_iter()
        .filter_map(|g| {
            g.map_err(|u| {
                bad += 1;
                eprintln!("error: {name}: {}", u.error);
            })
            .ok()
        })
        .collect();
    (games, bad)
}

/// Every game of a shogi record in file order, those that do not read as
/// [`Unread`] (a CSA file that does not parse is one). `name` is the
/// file's name (its extension hints KIF's encoding; `-` and `standard
/// input` do not).
#[allow(
    clippy::result_large_err,
    reason = "one Unread per game of a file read once; the game up to its bad ply is what `show` displays"
)]
pub fn read_all(data: &[u8], format: ShogiFormat, name: &str) -> Vec<Result<ShogiGame, Unread>> {
    match format {
        ShogiFormat::Kif | ShogiFormat::Ki2 => {
            let hint = (name != "-" && name != "standard input").then(|| encoding_of(name));
            match kif::read(data, hint) {
                Ok(g) => vec![Ok(ShogiGame::from_kif(&g))],
                Err(e) => vec![Err(Unread {
                    error: e.to_string(),
                    before: kif_before(data, hint, &e),
                })],
            }
        }
        ShogiFormat::Csa => {
            let records = match parse_kifu(data) {
                Ok(r) => r,
                Err(e) => {
                    let at = location(data, e.line, e.offset - e.column, e.offset);
                    return vec![Err(Unread {
                        error: format!("CSA syntax error at {at}: {}", e.what),
                        before: None,
                    })];
                }
            };
            records
                .iter()
                .enumerate()
                .map(|(k, r)| csa_game(r, k, data))
                .collect()
        }
    }
}

/// The moves of a KIF/KI2 game before the main-line move `e` refuses
/// (the text read again up to that move), and that move's ply.
fn kif_before(
    data: &[u8],
    hint: Option<TextEncoding>,
    e: &kif::ReadError,
) -> Option<(ShogiGame, usize)> {
    let kif::ReadError::Game(g) = e else {
        return None;
    };
    let kif::GameProblem::IllegalMove { ply, depth: 0, .. } = g.problem else {
        return None;
    };
    let decoded = kif::decode(data, hint).ok()?;
    let text = &decoded.text;
    // `kif::read` adds the bytes skipped (a BOM) to offsets in the text.
    let offset = g
        .location
        .offset
        .saturating_sub(decoded.skipped)
        .min(text.len());
    // KIF: up to the move's line; KI2: up to the move (several a line).
    let cut = match g.format {
        kif::RecordFormat::Kif => text[..offset].rfind('\n').map_or(0, |i| i + 1),
        _ => offset,
    };
    let before = kif::read_str(text.get(..cut)?).ok()?;
    Some((ShogiGame::from_kif(&before), ply as usize))
}

/// The summary reason of a CSA record written by shogi-server
/// (`'summary:…`) and its `'ILLEGAL_MOVE(…)` comment.
fn server_summary<'a>(r: &csa_protocol::kifu::Record<'a>) -> (Option<&'a str>, Option<&'a str>) {
    let mut summary = None;
    let mut illegal = None;
    for i in &r.items {
        if let Item::Comment(c) = i
            && let Ok(text) = std::str::from_utf8(c.as_bytes())
        {
            if text.starts_with("summary:") {
                summary = Some(text);
            } else if text.starts_with("ILLEGAL_MOVE(") {
                illegal = Some(text);
            }
        }
    }
    (summary, illegal)
}

/// One CSA record (`k`, 0-based, of `data`) as a game: its position (the
/// even start when it has none), its moves checked.
#[allow(
    clippy::result_large_err,
    reason = "one Unread per game of a file read once; the game up to its bad ply is what `show` displays"
)]
fn csa_game(
    r: &csa_protocol::kifu::Record<'_>,
    k: usize,
    data: &[u8],
) -> Result<ShogiGame, Unread> {
    let text = r.position_text();
    let (b, w) = r.names();
    let info = |key| r.info(key).map(|v| String::from_utf8_lossy(v).into_owned());
    let mut game = ShogiGame {
        start: Position::startpos(),
        moves: Vec::new(),
        start_comments: Vec::new(),
        names: [b, w].map(|n| n.map(str::to_owned)),
        game_id: info("EVENT"),
        start_time: info("START_TIME"),
        end: None,
        end_note: None,
        kif: None,
    };
    // `'*` comments before the first move: on the start position.
    let mut start = Annotated::new(());
    for i in r
        .items
        .iter()
        .take_while(|i| !matches!(i, Item::Move(_) | Item::Special(_)))
    {
        if let Item::Comment(c) = i {
            read_csa_comment(c.as_bytes(), &mut start);
        }
    }
    game.start_comments = start.comments;
    if !text.is_empty() {
        game.start = Position::from_csa(text.as_bytes()).map_err(|e| {
            // The position line in the file: the error's line counts the
            // record's position and side lines.
            let error = match csa_position_location(data, k, e.line, e.offset) {
                Some(at) => format!(
                    "CSA game error at {at}: record {}: start position: {}",
                    k + 1,
                    e.kind
                ),
                None => format!("CSA game error: record {}: start position: {e}", k + 1),
            };
            Unread {
                error,
                before: None,
            }
        })?;
    }
    let mut pos = game.start;
    for (i, m) in r.iter_moves().enumerate() {
        let mv = match pos.move_from_csa(&m.mv) {
            Ok(mv) => mv,
            Err(e) => {
                let at = csa_move_location(data, k, i)
                    .map(|l| format!(" at {l}"))
                    .unwrap_or_default();
                return Err(Unread {
                    error: format!(
                        "CSA game error{at}: record {}: ply {} ({}): {e}",
                        k + 1,
                        i + 1,
                        m.mv
                    ),
                    before: Some((game, i + 1)),
                });
            }
        };
        pos.play_unchecked(mv);
        let mut a = Annotated::new(mv);
        a.spent = m.time.map(|t| Duration::from_millis(t.as_millis()));
        for c in m.comments() {
            read_csa_comment(c.as_bytes(), &mut a);
        }
        game.moves.push(a);
    }
    let stm = pos.side_to_move();
    let (summary, illegal) = server_summary(r);
    let from_summary = summary
        .and_then(|s| parse_summary(s, [b, w]))
        .and_then(|(why, loser)| server_ending(why, loser, stm));
    let ending = from_summary.or_else(|| r.end().and_then(|(s, _)| ending_of(s, stm)));
    if let Some((end, note)) = ending {
        game.end = Some(end);
        game.end_note = match (note, illegal) {
            (Some(n), Some(i)) => Some(format!("{n}: {i}")),
            (n, _) => n,
        };
    }
    Ok(game)
}

/// The encoding of a KIF/KI2 file named `name`: Shift_JIS for `.kif` and
/// `.ki2` (shogi-records §1.1), UTF-8 otherwise.
pub fn encoding_of(name: &str) -> TextEncoding {
    crate::kif_save::kif_encoding(std::path::Path::new(name))
}

/// A warning for each character of `text` that Shift_JIS (cp932) lacks,
/// written `&#NNNN;` in a `.kif`/`.ki2` file: `warning: OUT: line L: 'c'
/// (U+XXXX) is not in Shift_JIS: written as &#N;` (at most 10, then a
/// count).
pub fn unencodable_warnings(text: &str, out: &str) -> Vec<String> {
    let mut warnings = Vec::new();
    let mut more = 0usize;
    for (c, line) in kif::unencodable(text, TextEncoding::ShiftJis) {
        if warnings.len() < 10 {
            warnings.push(format!(
                "warning: {out}: line {line}: {c:?} (U+{:04X}) is not in Shift_JIS: written as &#{};",
                u32::from(c),
                u32::from(c)
            ));
        } else {
            more += 1;
        }
    }
    if more > 0 {
        warnings.push(format!(
            "warning: {out}: {more} more character(s) not in Shift_JIS written as &#N;"
        ));
    }
    warnings
}

/// The bytes of `games` written in `format` to a file named `out` (`-`:
/// standard output); KIF and KI2 hold one game ([`write_games_from`]).
pub fn write_games(games: &[ShogiGame], format: ShogiFormat, out: &str) -> Result<Vec<u8>, String> {
    write_games_from(games, format, out, 0)
}

/// [`write_games`] for an input of which `unread` games did not read (the
/// message when there is no game to write says so). Characters Shift_JIS
/// lacks are warned about on stderr ([`unencodable_warnings`]).
pub fn write_games_from(
    games: &[ShogiGame],
    format: ShogiFormat,
    out: &str,
    unread: usize,
) -> Result<Vec<u8>, String> {
    match format {
        ShogiFormat::Csa => {
            let text: Vec<String> = games.iter().map(ShogiGame::to_csa).collect();
            Ok(text.join("/\n").into_bytes())
        }
        ShogiFormat::Kif | ShogiFormat::Ki2 => {
            let g = match games {
                [g] => g,
                [] if unread > 0 => {
                    return Err(format!(
                        "no game to write: the {unread} game(s) of the input did not read"
                    ));
                }
                [] => return Err("no game to write: the input holds no game".into()),
                more => {
                    return Err(format!(
                        "KIF and KI2 hold one game and the input has {} that read: write CSA or --to moves",
                        more.len()
                    ));
                }
            };
            let f = if format == ShogiFormat::Kif {
                kif::Format::Kif
            } else {
                kif::Format::Ki2
            };
            let enc = if out == "-" {
                TextEncoding::Utf8
            } else {
                encoding_of(out)
            };
            // As `kif::Game::to_bytes` writes it: KIF with its `#KIF` line,
            // KI2 without.
            let game = g.to_kif();
            let text = match f {
                kif::Format::Kif => game.to_kif(Some(enc)),
                kif::Format::Ki2 => game.to_ki2(None),
            };
            if enc == TextEncoding::ShiftJis {
                for w in unencodable_warnings(&text, out) {
                    eprintln!("{w}");
                }
            }
            Ok(kif::encode(&text, enc))
        }
    }
}

/// The game's end position (for `show`).
pub fn end_position(g: &ShogiGame) -> Position {
    g.end_position()
}

/// The KIF ending of a game shogi-server ended for `why` — the reason
/// word of its `'summary:` line (`toryo`, `time up`, `sennichite`,
/// `oute_sennichite`, `illegal move`, `uchifuzume`, `oute_kaihimore`,
/// `kachi`, `illegal kachi`, `max_moves`, `abnormal`; a client's `#`
/// reason maps to one of them) — with `loser` the side that lost (`None`:
/// a draw or not known) and `stm` to move at the end (shogi-records §1.7,
/// §3.5, §3.6). With it, a `*` comment keeping what the ending word loses
/// (`None` when the word says it all).
///
/// - A foul (`oute_sennichite`, `illegal move` and its kinds): 反則負け
///   when the side to move lost (it fouled), 反則勝ち when the other side
///   did (the previous move was the foul); with no loser known, 反則負け
///   (as CSA `%ILLEGAL_MOVE`: the side to move's foul).
/// - `max_moves`: 持将棋 — shogi-server declares a draw (CSA V3.0
///   `%MAX_MOVES`, winner "draw", §3.6), and 持将棋 is the draw among
///   KIF's ending words (§1.7; 中断 has no result, 千日手 is a
///   repetition); the comment says it was the move limit.
pub fn server_ending(
    why: &str,
    loser: Option<Color>,
    stm: Color,
) -> Option<(Ending, Option<String>)> {
    let foul = |default: Ending| match loser {
        Some(c) if c == stm => Ending::IllegalLoss,
        Some(_) => Ending::IllegalWin,
        None => default,
    };
    let note = |what: &str| Some(format!("shogi-server: {why}: {what}"));
    Some(match why {
        "toryo" => (Ending::Resign, None),
        "abnormal" => (Ending::Resign, note("a player left the game (#RESIGN)")),
        "time up" => (Ending::TimeUp, None),
        "sennichite" => (Ending::Repetition, None),
        "kachi" => (Ending::EnteringKingWin, None),
        "max_moves" => (
            Ending::Impasse,
            note("the game reached the move limit, a draw (#MAX_MOVES)"),
        ),
        "oute_sennichite" => (
            foul(Ending::IllegalLoss),
            note(
                "repetition by perpetual check (連続王手の千日手), the checking side loses (#OUTE_SENNICHITE)",
            ),
        ),
        "illegal move" => (
            foul(Ending::IllegalLoss),
            note("an illegal move (#ILLEGAL_MOVE)"),
        ),
        "uchifuzume" => (
            foul(Ending::IllegalLoss),
            note("a pawn drop mate (打ち歩詰め), an illegal move (#ILLEGAL_MOVE)"),
        ),
        "oute_kaihimore" => (
            foul(Ending::IllegalLoss),
            note("a move leaving the king in check (王手放置), an illegal move (#ILLEGAL_MOVE)"),
        ),
        "illegal kachi" => (
            foul(Ending::IllegalLoss),
            note("a declaration (入玉宣言) the rule refuses, an illegal move (#ILLEGAL_MOVE)"),
        ),
        "illegal action" => (
            foul(Ending::IllegalLoss),
            note("an illegal action (#ILLEGAL_ACTION)"),
        ),
        _ => return None,
    })
}

/// The reason word and the loser of shogi-server's summary comment
/// `summary:<reason>:<name> <win|lose|draw>:<name> <win|lose|draw>`
/// (shogi-records §3.5; the `'` already removed). The loser is the side
/// whose name (`names`: Black's, White's) the `lose` part gives — the
/// 2008 Floodgate record lists the loser first, today's shogi-server
/// Black first — else by the part's place (Black first).
fn parse_summary<'t>(text: &'t str, names: [Option<&str>; 2]) -> Option<(&'t str, Option<Color>)> {
    let rest = text.strip_prefix("summary:")?;
    let mut parts = rest.split(':');
    let why = parts.next()?;
    let mut loser = None;
    for (place, part) in [Color::Black, Color::White].into_iter().zip(parts) {
        let Some((name, result)) = part.rsplit_once(' ') else {
            continue;
        };
        if result == "lose" {
            let by_name = [Color::Black, Color::White]
                .into_iter()
                .find(|c| names[c.index()] == Some(name));
            loser = Some(by_name.unwrap_or(place));
        }
    }
    Some((why, loser))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn csa_specials_and_kif_endings_map_both_ways() {
        // shogi-records §3.6: %TORYO the STM resigns (投了), %+ILLEGAL_ACTION
        // Black fouled: with Black to move 反則負け, with White to move
        // 反則勝ち (the previous move was illegal).
        let b = Color::Black;
        let word = |s, stm| ending_of(s, stm).map(|e| e.0);
        assert_eq!(word(KifuSpecial::Toryo, b), Some(Ending::Resign));
        assert_eq!(
            word(KifuSpecial::IllegalActionBlack, b),
            Some(Ending::IllegalLoss)
        );
        assert_eq!(
            word(KifuSpecial::IllegalActionBlack, Color::White),
            Some(Ending::IllegalWin)
        );
        assert_eq!(word(KifuSpecial::Kachi, b), Some(Ending::EnteringKingWin));
        // %MAX_MOVES: a draw (§3.6), 持将棋 with the reason kept.
        let (end, note) = ending_of(KifuSpecial::MaxMoves, b).unwrap();
        assert_eq!(end, Ending::Impasse);
        assert!(note.unwrap().contains("%MAX_MOVES"));
        for e in [
            Ending::Resign,
            Ending::Interrupt,
            Ending::Repetition,
            Ending::Mate,
            Ending::TimeUp,
            Ending::IllegalWin,
            Ending::IllegalLoss,
            Ending::EnteringKingWin,
        ] {
            for stm in [Color::Black, Color::White] {
                assert_eq!(word(special_of(e, stm), stm), Some(e), "{e:?} {stm:?}");
            }
        }
    }

    #[test]
    fn shogi_server_summaries_name_the_loser() {
        // The vectors' summary lines (shogi-server r20201206).
        assert_eq!(
            parse_summary(
                "summary:max_moves:MaxMovesTest_sente draw:MaxMovesTest_gote draw",
                [Some("MaxMovesTest_sente"), Some("MaxMovesTest_gote")]
            ),
            Some(("max_moves", None))
        );
        assert_eq!(
            parse_summary("summary:oute_sennichite:a lose:b win", [None, None]),
            Some(("oute_sennichite", Some(Color::Black)))
        );
        assert_eq!(
            parse_summary("summary:illegal move:a win:b lose", [Some("a"), Some("b")]),
            Some(("illegal move", Some(Color::White)))
        );
        assert_eq!(parse_summary("rating:a+x:b+y", [None, None]), None);
        // The 2008 Floodgate record (boardwire-vectors) names the loser
        // first: KShogi900 is White there.
        assert_eq!(
            parse_summary(
                "summary:uchifuzume:KShogi900 lose:usapyon-on-note win",
                [Some("usapyon-on-note"), Some("KShogi900")]
            ),
            Some(("uchifuzume", Some(Color::White)))
        );
    }

    #[test]
    fn shogi_server_reasons_become_kif_endings() {
        let (w, b) = (Color::White, Color::Black);
        // §1.7: 反則負け = the STM fouled; 反則勝ち = the previous move was
        // illegal, STM wins.
        let end = |why, loser, stm| server_ending(why, loser, stm).map(|e| e.0);
        assert_eq!(end("uchifuzume", Some(w), w), Some(Ending::IllegalLoss));
        assert_eq!(end("illegal move", Some(b), w), Some(Ending::IllegalWin));
        assert_eq!(end("oute_sennichite", Some(b), w), Some(Ending::IllegalWin));
        assert_eq!(end("oute_sennichite", None, w), Some(Ending::IllegalLoss));
        assert_eq!(end("illegal move", None, w), Some(Ending::IllegalLoss));
        assert_eq!(end("max_moves", None, b), Some(Ending::Impasse));
        assert_eq!(end("toryo", Some(b), b), Some(Ending::Resign));
        assert_eq!(end("time up", Some(b), b), Some(Ending::TimeUp));
        assert_eq!(end("sennichite", None, b), Some(Ending::Repetition));
        assert_eq!(end("kachi", Some(w), b), Some(Ending::EnteringKingWin));
        assert_eq!(end("illegal kachi", Some(b), b), Some(Ending::IllegalLoss));
        assert_eq!(end("oute_kaihimore", Some(b), b), Some(Ending::IllegalLoss));
        assert_eq!(end("abnormal", Some(b), b), Some(Ending::Resign));
        assert_eq!(end("illegal action", Some(b), b), Some(Ending::IllegalLoss));
        assert_eq!(end("something new", None, b), None);
        // Only the words that lose the reason carry a comment.
        assert_eq!(server_ending("toryo", Some(b), b).unwrap().1, None);
        let note = server_ending("uchifuzume", Some(w), w).unwrap().1.unwrap();
        assert!(
            note.contains("uchifuzume") && note.contains("打ち歩詰め"),
            "{note}"
        );
    }

    #[test]
    fn csa_program_comments_and_floodgate_scores_are_read() {
        // shogi-records §3.5: `'** <score> <PV>` (Floodgate, the score
        // Black-positive; `'** 0 joseki` and a score alone occur), `'*text`
        // a comment on the move above, other `'` comments read by no
        // program; ShogiHome writes its `**評価値=…` KIF lines as `'**評価値=…`.
        let read = |lines: &[&str]| {
            let mut a = Annotated::new(());
            for l in lines {
                read_csa_comment(l.as_bytes(), &mut a);
            }
            a
        };
        let cp = |n| {
            Some(Eval {
                score: Score::Centipawns(n),
                depth: None,
            })
        };
        assert_eq!(read(&["** 30 -3334FU +2726FU"]).eval, cp(30));
        assert_eq!(read(&["** -2930"]).eval, cp(-2930));
        assert_eq!(read(&["** 0 joseki"]).eval, cp(0));
        // The first score is the move's; a second one stays a comment.
        let a = read(&["** 54 +7776FU", "** 12"]);
        assert_eq!((a.eval, a.comments), (cp(54), vec!["* 12".to_string()]));
        let a = read(&[
            "**評価値=158",
            "*a comment",
            "rating:x+1:y+2",
            "summary:toryo:a lose:b win",
        ]);
        assert_eq!(a.eval, None);
        assert_eq!(a.comments, ["*評価値=158", "a comment"]);
        // A Shift_JIS comment (V2.2 files): `*先手` in Shift_JIS.
        let mut a = Annotated::new(());
        read_csa_comment(b"*\x90\xe6\x8e\xe8", &mut a);
        assert_eq!(a.comments, ["先手"]);
    }

    #[test]
    fn kif_start_times_in_csa_form() {
        // shogi-records §1.3's observed forms to §3.3's `YYYY/MM/DD HH:MM:SS`.
        assert_eq!(
            csa_start_time("1999/07/15(木) 19:07:12").as_deref(),
            Some("1999/07/15 19:07:12")
        );
        assert_eq!(
            csa_start_time("2021/06/29 09:00").as_deref(),
            Some("2021/06/29 09:00:00")
        );
        assert_eq!(
            csa_start_time("2008/12/20(土)").as_deref(),
            Some("2008/12/20")
        );
        assert_eq!(
            csa_start_time("2023/06/03 17:57:05").as_deref(),
            Some("2023/06/03 17:57:05")
        );
        assert_eq!(csa_start_time("昭和50年"), None);
        assert_eq!(csa_start_time("2023/6/3"), None);
        assert_eq!(csa_start_time("2023/06/03 7:5"), None);
    }

    #[test]
    fn unencodable_characters_are_named_with_their_line() {
        let w = unencodable_warnings("先手：A\n後手：☖B\n", "out.kif");
        assert_eq!(
            w,
            ["warning: out.kif: line 2: '☖' (U+2616) is not in Shift_JIS: written as &#9750;"]
        );
        let many = "☖".repeat(12);
        let w = unencodable_warnings(&many, "o.kif");
        assert_eq!(w.len(), 11);
        assert!(w[10].contains("2 more"), "{}", w[10]);
    }
}
