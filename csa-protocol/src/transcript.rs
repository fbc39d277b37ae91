//! Transcripts: what a person reads of a connection.
//!
//! - [`ServerLines`]: the lines a server sends, grouped as a person reads
//!   them in a log or transcript: one line per message, a `Game_Summary`
//!   block and a multi-line x1 reply ([`X1Block`]) as one line each;
//!   [`is_summarised`] tells such a shown line from one wire line.
//! - [`Log`]: where a client run's transcript goes (`play::run_logged`,
//!   feature `tokio`); [`Problems`]: what went wrong on a connection,
//!   bounded; [`escape_controls`]: peer text made safe for a terminal.
//! - [`numbered_lines`]: a whole input (a file of wire lines, a capture,
//!   a transcript) cut into numbered lines as the [`Framer`] cuts them;
//!   [`starts_like_kifu`]: a CSA kifu told from the other inputs.

use alloc::collections::VecDeque;
use alloc::string::{String, ToString};
use alloc::vec::Vec;

use crate::framer::{Framer, Status};
use crate::message::{GameSummary, ServerMessage, SummaryLine, X1Block, X1Push};

/// Where the transcript of one connection goes, one call per shown line:
/// the lines we sent and received as a person reads them
/// ([`ClientMessage::shown`](crate::message::ClientMessage::shown), the
/// [`ServerLines`]) and notes (what happened, not a line on the wire).
pub trait Log {
    /// A line we sent: `wire_len` bytes on the wire (its LF included),
    /// shown as `text`.
    fn sent(&mut self, wire_len: usize, text: &str);
    /// A line (or a block of lines, [`ServerLines`]) we received:
    /// `wire_len` bytes on the wire, line ends included.
    fn received(&mut self, wire_len: usize, text: &str);
    /// A line we received that did not decode: `wire_len` bytes on the
    /// wire, the line's bytes (without its line end; the peer's, escape
    /// them) and why it is malformed (the [`DecodeError`](crate::DecodeError)
    /// as text).
    fn received_malformed(&mut self, wire_len: usize, line: &[u8], error: &str);
    /// A note: something that happened, not a line on the wire.
    fn note(&mut self, text: &str);
    /// An event of a client's session, with the session after it: what
    /// [`play::game_event`](crate::play::game_event) sees (every client
    /// run of [`play`](crate::play) and of an engine bridge calls it), for
    /// a log that keeps more than lines — a game record written as the
    /// game goes. Does nothing unless implemented.
    #[cfg(feature = "tokio")]
    fn event(
        &mut self,
        client: &crate::session::Client<std::time::Instant>,
        event: &crate::session::Event,
    ) {
        let _ = (client, event);
    }
}

pub use boardwire_proto::drive::Problems;

/// Text from a peer as a terminal may show it: control characters (C0,
/// DEL, C1) as `\xNN` (`\u{NN}` for U+0080 to U+009F), so that a peer
/// cannot send escape sequences to the terminal; everything else as it is.
/// The same escaping as the server's `##[ERROR]` replies quoting a peer.
///
/// ```
/// use csa_protocol::transcript::escape_controls;
///
/// assert_eq!(escape_controls("chat \u{1b}[2J\u{9b}y"), "chat \\x1B[2J\\u{9B}y");
/// ```
pub fn escape_controls(text: &str) -> String {
    crate::session::server::escape(text.as_bytes())
}

/// The lines of a whole input without their LF (and CR), numbered from 1,
/// as the line [`Framer`] cuts them (no length cap: the whole input is
/// there); no empty last line for a final LF, and a last line without its
/// LF is a line.
///
/// ```
/// use csa_protocol::transcript::numbered_lines;
///
/// let lines: Vec<(usize, &[u8])> = numbered_lines(b"LOGIN a b\r\n\n+7776FU").collect();
/// assert_eq!(lines, [(1, &b"LOGIN a b"[..]), (2, b""), (3, b"+7776FU")]);
/// ```
pub fn numbered_lines(data: &[u8]) -> impl Iterator<Item = (usize, &[u8])> {
    let mut framer = Framer::new(data.len());
    let mut rest = data;
    core::iter::from_fn(move || match framer.decode(rest) {
        Status::Complete { frame, consumed } => {
            rest = &rest[consumed..];
            Some(frame)
        }
        // The cap is the input's length: nothing is over-long, so this is
        // the unterminated last line (or the end).
        _ => {
            let last = core::mem::take(&mut rest);
            (!last.is_empty()).then(|| last.strip_suffix(b"\r").unwrap_or(last))
        }
    })
    .enumerate()
    .map(|(i, l)| (i + 1, l))
}

/// Whether `data` is a CSA kifu file: its first line that is not empty
/// nor a comment is the version line (`V2`, `V2.2`, `V3.0`, ...), or it
/// starts with the `'CSA encoding=...` line of V3.0
/// ([`spec::csa`](crate::spec::csa), *Kifu*).
///
/// ```
/// use csa_protocol::transcript::starts_like_kifu;
///
/// assert!(starts_like_kifu(b"'a comment\nV2.2\nN+alice\n"));
/// assert!(starts_like_kifu(b"'CSA encoding=UTF-8\nV3.0\n"));
/// assert!(!starts_like_kifu(b"LOGIN alice pw\n"));
/// ```
pub fn starts_like_kifu(data: &[u8]) -> bool {
    let first = numbered_lines(data)
        .map(|(_, l)| l)
        .find(|l| !l.is_empty() && (!l.starts_with(b"'") || l.starts_with(b"'CSA encoding")))
        .unwrap_or(b"");
    first.starts_with(b"V2") || first.starts_with(b"V3") || first.starts_with(b"'CSA encoding")
}

/// Whether a shown server line (as [`ServerLines`] and `play::run_logged`
/// show them) stands for several wire lines (a `Game_Summary` block, an
/// x1 reply: `... (N lines)`) or for none (an over-long line skipped, a
/// line cut off at the end of the connection): such a line cannot be
/// decoded again.
///
/// ```
/// use csa_protocol::transcript::is_summarised;
///
/// assert!(is_summarised("##[WHO] alice x1 connected | +OK  (2 lines)"));
/// assert!(is_summarised("BEGIN Game_Summary ...  (2 lines) (unfinished)"));
/// assert!(is_summarised("(a line of more than 4096 bytes, skipped)"));
/// assert!(!is_summarised("+7776FU,T12"));
/// ```
pub fn is_summarised(text: &str) -> bool {
    let core = text
        .strip_suffix(" (unfinished)")
        .or_else(|| text.strip_suffix(" (continued)"))
        .unwrap_or(text);
    let counted = core.rsplit_once("  (").is_some_and(|(_, tail)| {
        tail.strip_suffix(')')
            .map(|t| t.split(';').next().unwrap_or(t))
            .and_then(|t| t.strip_suffix(" lines").or_else(|| t.strip_suffix(" line")))
            .is_some_and(|n| n.parse::<u32>().is_ok())
    });
    counted
        || text.starts_with("BEGIN Game_Summary ...")
        || text.starts_with("(a line of more than ")
        || text.ends_with("  (unfinished line)")
}

/// The most lines of one x1 reply shown as one line: a server that never
/// ends its reply cannot grow a block past it (what came so far is shown,
/// ` (continued)`, and a new block starts).
pub const MAX_X1_BLOCK_LINES: usize = 256;

/// A multi-line message being collected.
#[derive(Debug)]
enum Block {
    /// `Game_Summary` lines so far.
    Summary { lines: usize },
    /// The x1 reply's lines so far.
    X1(X1Block),
}

/// Server lines as one shown line per message ([`spec::csa`](crate::spec::csa),
/// *Game_Summary* and *Extended mode (x1)*).
///
/// Feed each received line with [`push`](Self::push) (with its length on
/// the wire), the `Game_Summary` the session read with
/// [`summary`](Self::summary) (it ends the block: the client session reports
/// it after `END Game_Summary`), call [`interrupt`](Self::interrupt) before
/// showing a line that did not decode and at the end of the connection,
/// and take the lines to show with [`poll_line`](Self::poll_line): each is
/// `(wire bytes, text)`, the bytes of every line it stands for. A single
/// message reads as its [`ServerMessage::shown`]; a block's text is the
/// peer's as it came (escape it for a terminal). A block that another line
/// cuts off ends ` (unfinished)`.
///
/// ```
/// use csa_protocol::decode;
/// use csa_protocol::message::{GameSummaryReader, ServerMessage};
/// use csa_protocol::transcript::ServerLines;
///
/// let mut shown = ServerLines::new();
/// let mut reader = GameSummaryReader::new();
/// let summary = "BEGIN Game_Summary\nGame_ID:g1\nYour_Turn:+\nEND Game_Summary\n";
/// let wire = [summary, "##[WHO] alice x1 connected\n##[WHO] +OK\n#RESIGN\n"].concat();
/// for line in wire.lines() {
///     let m = decode::<ServerMessage>(line.as_bytes()).unwrap();
///     shown.push(&m, line.len() + 1);
///     if let Ok(Some(s)) = reader.push_message(&m) {
///         shown.summary(&s);
///     }
/// }
/// let lines: Vec<String> = std::iter::from_fn(|| shown.poll_line()).map(|l| l.1).collect();
/// assert_eq!(
///     lines,
///     [
///         "BEGIN Game_Summary ... END Game_Summary  (4 lines; Game_ID:g1, Your_Turn:+)",
///         "##[WHO] alice x1 connected | +OK  (2 lines)",
///         "#RESIGN",
///     ]
/// );
/// ```
#[derive(Debug, Default)]
pub struct ServerLines {
    /// The block being collected and its wire bytes so far.
    block: Option<(Block, usize)>,
    out: VecDeque<(usize, String)>,
}

impl ServerLines {
    /// Nothing collected yet.
    pub fn new() -> ServerLines {
        ServerLines::default()
    }

    /// A line received, decoded, that took `len` bytes on the wire.
    pub fn push(&mut self, msg: &ServerMessage<'_>, len: usize) {
        match (&mut self.block, msg) {
            (
                Some((Block::Summary { lines }, n)),
                ServerMessage::Summary(_) | ServerMessage::Move { .. },
            ) => {
                *lines += 1;
                *n += len;
                return;
            }
            (Some((Block::X1(block), n)), ServerMessage::X1(r)) => match block.push(r) {
                X1Push::NotPart => self.flush(" (unfinished)"),
                push => {
                    *n += len;
                    if push == X1Push::Ended {
                        self.flush("");
                    } else if block.lines().len() >= MAX_X1_BLOCK_LINES {
                        self.flush(" (continued)");
                    }
                    return;
                }
            },
            (Some(_), _) => self.flush(" (unfinished)"),
            (None, _) => {}
        }
        match msg {
            ServerMessage::Summary(SummaryLine::Begin(b)) if b.as_str() == "Game_Summary" => {
                self.block = Some((Block::Summary { lines: 1 }, len));
            }
            ServerMessage::X1(r) => match X1Block::start(r) {
                Some(b) => self.block = Some((Block::X1(b), len)),
                None => self.out.push_back((len, msg.shown().to_string())),
            },
            m => self.out.push_back((len, m.shown().to_string())),
        }
    }

    /// The `Game_Summary` read from the block being collected: the block
    /// is shown as one line with its main fields (nothing happens outside
    /// a `Game_Summary` block).
    pub fn summary(&mut self, s: &GameSummary) {
        let Some((Block::Summary { lines }, len)) = self.block else {
            return;
        };
        self.block = None;
        let mut fields = Vec::new();
        let mut field = |k: &str, v: Option<String>| {
            if let Some(v) = v {
                fields.push(alloc::format!("{k}:{v}"));
            }
        };
        field("Game_ID", s.game_id.as_ref().map(ToString::to_string));
        field("Name+", s.name_black.as_ref().map(ToString::to_string));
        field("Name-", s.name_white.as_ref().map(ToString::to_string));
        field("Your_Turn", s.your_turn.map(|v| v.sign().to_string()));
        field("To_Move", s.to_move.map(|v| v.sign().to_string()));
        if let Some(time) = s.time.as_ref().or(s.time_black.as_ref()) {
            field("Total_Time", time.total_time.map(|v| v.to_string()));
            field("Byoyomi", time.byoyomi.map(|v| v.to_string()));
            field("Increment", time.increment.map(|v| v.to_string()));
        }
        let text = alloc::format!(
            "BEGIN Game_Summary ... END Game_Summary  ({lines} lines; {})",
            fields.join(", ")
        );
        self.out.push_back((len, text));
    }

    /// A line that is not a message (it did not decode), or the end of the
    /// connection: a block being collected is shown, ` (unfinished)`.
    pub fn interrupt(&mut self) {
        self.flush(" (unfinished)");
    }

    /// The next line to show: its wire bytes and text.
    pub fn poll_line(&mut self) -> Option<(usize, String)> {
        self.out.pop_front()
    }

    fn flush(&mut self, suffix: &str) {
        let line = match self.block.take() {
            Some((Block::Summary { lines }, len)) => (
                len,
                alloc::format!("BEGIN Game_Summary ...  ({lines} lines){suffix}"),
            ),
            Some((Block::X1(block), len)) => (len, alloc::format!("{}{suffix}", block.summary())),
            None => return,
        };
        self.out.push_back(line);
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::decode::decode;
    use crate::message::GameSummaryReader;

    /// The shown lines of `input` (LF-terminated wire lines; a last line
    /// without its LF is left out), the total of their bytes, and how many.
    fn run(input: &[u8]) -> (Vec<String>, usize) {
        let mut shown = ServerLines::new();
        let mut reader = GameSummaryReader::new();
        for line in input.split_inclusive(|&b| b == b'\n') {
            let Some(body) = line.strip_suffix(b"\n") else {
                break;
            };
            let body = body.strip_suffix(b"\r").unwrap_or(body);
            let m = decode::<ServerMessage>(body).unwrap();
            shown.push(&m, line.len());
            let in_summary = reader.in_block()
                || matches!(&m, ServerMessage::Summary(SummaryLine::Begin(b)) if b.as_str() == "Game_Summary");
            if in_summary && let Ok(Some(s)) = reader.push_message(&m) {
                shown.summary(&s);
            }
        }
        shown.interrupt();
        let lines: Vec<(usize, String)> = core::iter::from_fn(|| shown.poll_line()).collect();
        let bytes = lines.iter().map(|l| l.0).sum();
        (lines.into_iter().map(|l| l.1).collect(), bytes)
    }

    #[test]
    fn problems_keep_the_first_and_count() {
        let mut p = Problems::default();
        assert_eq!(p.first(), None);
        for i in 0..1000 {
            p.push(alloc::format!("problem {i}"));
        }
        assert_eq!((p.first(), p.count()), (Some("problem 0"), 1000));
    }

    #[test]
    fn peer_text_on_stdout_has_its_control_characters_escaped() {
        // ESC [ 2 J clears a terminal; U+009B is the one-character CSI.
        assert_eq!(
            escape_controls("chat \u{1b}[2J\u{7}x\u{9b}y"),
            "chat \\x1B[2J\\x07x\\u{9B}y"
        );
        assert_eq!(escape_controls("こんにちは [x]"), "こんにちは [x]");
    }

    #[test]
    fn shown_blocks_are_summarised() {
        // Every block text ServerLines writes is told apart from a line.
        let (lines, _) = run(b"##[WHO] a x1 connected\n##[WHO] +OK\nBEGIN Game_Summary\nGame_ID:g\nEND Game_Summary\n#WIN\n##[LIST] g1\n");
        let summarised: Vec<bool> = lines.iter().map(|l| is_summarised(l)).collect();
        assert_eq!(summarised, [true, true, false, true], "{lines:?}");
        assert!(is_summarised("+77  (unfinished line)"));
        assert!(!is_summarised("+77  (malformed: cut off)"));
    }

    #[test]
    fn multi_line_messages_are_one_line() {
        // spec/csa.md, *Extended mode (x1)* table and examples; the
        // recorded shogi-server transcript for the MONITOR2 lines.
        let input = b"LOGIN:bob OK\n##[LOGIN] +OK x1\n\
##[MONITOR2][g1] -3334FU\n##[MONITOR2][g1] T9\n##[MONITOR2][g1] +OK\n\
##[GETBUOYCOUNT] 10\n##[GETBUOYCOUNT] +OK\n\
##[CHAT][carol] hello everyone\n\
BEGIN Game_Summary\nProtocol_Version:1.2\nGame_ID:e+g-300-0+a+b+1\nYour_Turn:-\nEND Game_Summary\n\
#RESIGN\n#WIN\n";
        let (lines, bytes) = run(input);
        assert_eq!(
            lines,
            [
                "LOGIN:bob OK",
                "##[LOGIN] +OK x1",
                "##[MONITOR2][g1] -3334FU | T9 | +OK  (3 lines)",
                "##[GETBUOYCOUNT] 10 | +OK  (2 lines)",
                "##[CHAT][carol] hello everyone",
                "BEGIN Game_Summary ... END Game_Summary  (5 lines; Game_ID:e+g-300-0+a+b+1, Your_Turn:-)",
                "#RESIGN",
                "#WIN",
            ]
        );
        assert_eq!(bytes, input.len());
    }

    #[test]
    fn an_interrupted_block_is_shown_as_unfinished() {
        let input = b"##[WHO] alice x1 connected\n#LOSE\r\nBEGIN Game_Summary\nName+:a\n";
        let (lines, bytes) = run(input);
        assert_eq!(
            lines,
            [
                "##[WHO] alice x1 connected  (1 line) (unfinished)",
                "#LOSE",
                "BEGIN Game_Summary ...  (2 lines) (unfinished)",
            ]
        );
        assert_eq!(bytes, input.len());
    }

    #[test]
    fn an_endless_x1_reply_is_cut_into_blocks() {
        let mut input = Vec::new();
        for _ in 0..MAX_X1_BLOCK_LINES + 1 {
            input.extend_from_slice(b"##[WHO] alice x1 connected\n");
        }
        let (lines, _) = run(&input);
        assert_eq!(lines.len(), 2, "{lines:?}");
        assert!(lines[0].ends_with("(256 lines) (continued)"), "{lines:?}");
        assert!(lines[1].ends_with("(1 line) (unfinished)"), "{lines:?}");
    }
}
