//! `boardwire csa ...`: the CSA shogi server protocol on real sockets.
//!
//! - `csa serve [--listen 127.0.0.1:4081]`: a CSA server (shogi-server x1
//!   mode included) for many concurrent clients;
//! - `csa connect HOST:PORT --user NAME [--password PW] [--x1] [--game NAME-300-10F]`:
//!   a client playing with a built-in player (legal moves, captures first),
//!   printing the wire transcript (format: `transcript.rs`);
//! - `csa decode [FILE | --message LINE]`: CSA lines, a recorded capture
//!   (`[t] who >> line`, `b'...'` literals) or a CSA kifu file, one message
//!   per line in words, `--json` for one JSON object per line
//!   (`csa_decode.rs`).

use std::io::Write;
use std::time::{Duration, Instant};

use crate::Failure;
use crate::csa_decode::{self, CsaFormat, redact_login};
use crate::transcript::{Sink, Splitter, Transcript, show};
use csa_protocol::session::client::{Client, ClientConfig, ClientEvent};
use csa_protocol::session::server::ServerConfig;
use csa_protocol::{
    GameBoard, GameId, GameName, Password, Side, SidePreference, SpecialMove, UserName, X1Command,
    X1Reply,
};

/// The `csa` subcommands.
#[derive(Debug, clap::Subcommand)]
pub(crate) enum CsaCommand {
    /// Run a CSA game server (plain CSA and shogi-server x1 mode).
    ///
    /// Prints `listening on ADDR` to stderr first (useful with port 0) and
    /// serves until killed.
    Serve {
        /// Address to listen on.
        #[arg(long, default_value = "127.0.0.1:4081")]
        listen: String,
        /// Event name, the first part of every Game_ID.
        #[arg(long, default_value = "boardwire")]
        event: String,
        /// Max_Moves (0 = no limit).
        #[arg(long, default_value_t = 256)]
        max_moves: u32,
        /// Least_Time_Per_Move in seconds.
        #[arg(long, default_value_t = 0)]
        least_time_per_move: u64,
    },
    /// Connect to a CSA server and play one game with the built-in player.
    ///
    /// Prints the wire transcript to stdout (one line per message; a
    /// Game_Summary block is one line; LOGIN passwords shown as `*****`).
    /// Plain CSA mode needs --game (the game name is the LOGIN password);
    /// x1 mode needs it too (`%%GAME`). Exit code 2 for bad arguments or
    /// no connection, 1 when the server stays silent longer than --timeout.
    Connect {
        /// Server address, HOST:PORT.
        addr: String,
        /// Login name.
        #[arg(long)]
        user: String,
        /// Password (plain mode: combined with --game as `GAME,PW`).
        #[arg(long)]
        password: Option<String>,
        /// Use shogi-server's extended mode (x1).
        #[arg(long)]
        x1: bool,
        /// Game name, e.g. `testgame-300-10F`.
        #[arg(long)]
        game: Option<String>,
        /// Side to ask for: `+`, `-` or `*` (x1: in %%GAME; plain mode: as a
        /// `-B`/`-W` suffix of the game name in the password).
        #[arg(long, default_value = "*")]
        side: String,
        /// Seed of the built-in player's choices.
        #[arg(long, default_value_t = 1)]
        seed: u64,
        /// Give up when the server is silent this long, seconds (as `dxp
        /// connect --timeout`; waiting for an opponent and the opponent's
        /// thinking time count as silence). Exit code 1 when it runs out.
        #[arg(long, default_value_t = 600)]
        timeout: u64,
    },
    /// Decode CSA lines, a recorded capture or a CSA kifu file: one line
    /// per message, in words.
    ///
    /// Output: `<line> [<party>] <client|server> <reading>`, e.g.
    /// `3  lena  client  LOGIN: name lena, password hidden, x1 mode`;
    /// unrecognised lines and errors (with their column) are printed too,
    /// and the exit code is 2 when any line was malformed. Inputs: one wire
    /// line per line (LF or CRLF); the recorded-capture format
    /// (`[0.002] alice >> LOGIN ...`, `[49.0] lena >> b'LOGIN ...\r\n'`,
    /// `<<` for lines received); a CSA kifu (`V2...`). The format is
    /// detected unless --format says it.
    Decode {
        /// File to read (standard input when absent).
        #[arg(conflicts_with = "message")]
        file: Option<std::path::PathBuf>,
        /// Decode this line instead of reading a file (repeatable; each is
        /// one wire line, without its line ending).
        #[arg(long, short = 'm', value_name = "LINE", allow_hyphen_values = true)]
        message: Vec<String>,
        /// The input format.
        #[arg(long, value_enum, default_value_t = CsaFormat::Auto)]
        format: CsaFormat,
        /// One JSON object per line:
        /// `{"line":3,"party":"lena","direction":"client","kind":"message","value":"LOGIN: ...","wire":"LOGIN lena pass x1"}`.
        #[arg(long)]
        json: bool,
    },
}

/// Runs a `csa` subcommand. Errors are one-line messages for the user.
pub(crate) fn run(cmd: CsaCommand, out: &mut dyn Write) -> Result<(), Failure> {
    let result = match cmd {
        CsaCommand::Serve {
            listen,
            event,
            max_moves,
            least_time_per_move,
        } => serve(&listen, event, max_moves, least_time_per_move),
        CsaCommand::Connect {
            addr,
            user,
            password,
            x1,
            game,
            side,
            seed,
            timeout,
        } => {
            let timeout = Duration::from_secs(timeout);
            return connect(&addr, &user, password, x1, game, &side, seed, timeout);
        }
        CsaCommand::Decode {
            file,
            message,
            format,
            json,
        } => return csa_decode::decode(file.as_deref(), &message, format, json, out),
    };
    result.map_err(Failure::Input)
}

fn runtime() -> Result<tokio::runtime::Runtime, String> {
    tokio::runtime::Builder::new_multi_thread()
        .enable_all()
        .build()
        .map_err(|e| format!("cannot start the async runtime: {e}"))
}

fn serve(
    listen: &str,
    event: String,
    max_moves: u32,
    least_time_per_move: u64,
) -> Result<(), String> {
    let config = ServerConfig {
        event,
        max_moves,
        least_time_per_move,
        ..Default::default()
    };
    runtime()?.block_on(async {
        let listener = tokio::net::TcpListener::bind(listen)
            .await
            .map_err(|e| format!("cannot listen on {listen}: {e}"))?;
        let addr = listener.local_addr().map_err(|e| e.to_string())?;
        eprintln!("listening on {addr}");
        csa_protocol::net::serve(listener, config)
            .await
            .map_err(|e| format!("server stopped: {e}"))
    })
}

#[allow(clippy::too_many_arguments)]
fn connect(
    addr: &str,
    user: &str,
    password: Option<String>,
    x1: bool,
    game: Option<String>,
    side: &str,
    seed: u64,
    timeout: Duration,
) -> Result<(), Failure> {
    let input = |s: String| Failure::Input(s);
    let name = UserName::new(user.to_string()).map_err(|e| input(format!("--user: {e}")))?;
    // Both modes need the game: x1 asks for it by %%GAME, plain mode by the
    // password (spec note: shogi-server reads the password as `<gamename>`,
    // `<gamename>-B|-W` or `<gamename>,<secret>`; anything else means
    // `default-1500-0`: we ask for that one only when told so).
    let Some(game) = game else {
        let mode = if x1 { "x1" } else { "plain CSA" };
        return Err(input(format!(
            "{mode} mode needs --game (e.g. --game testgame-300-10F; the server's default game is default-1500-0)"
        )));
    };
    let side = match side {
        "+" => SidePreference::Black,
        "-" => SidePreference::White,
        "*" => SidePreference::Any,
        other => {
            return Err(input(format!("--side: expected +, - or *, got {other:?}")));
        }
    };
    // Plain mode: the password is the game name, with `-B`/`-W` for the
    // side asked for and `,PW` for a password (the Floodgate convention).
    // x1: the password as is, the game and side by %%GAME.
    let plain_side = match side {
        SidePreference::Black => "-B",
        SidePreference::White => "-W",
        SidePreference::Any => "",
    };
    let pw = match (x1, password) {
        (false, Some(p)) => format!("{game}{plain_side},{p}"),
        (false, None) => format!("{game}{plain_side}"),
        (true, Some(p)) => p,
        (true, None) => "nopassword".to_string(),
    };
    let password = Password::new(pw).map_err(|e| input(format!("--password: {e}")))?;
    let mut config = ClientConfig::new(name, password);
    config.x1 = x1;
    if x1 {
        config.game = Some((
            GameName::new(game).map_err(|e| input(format!("--game: {e}")))?,
            side,
        ));
    }
    let plan = ClientPlan {
        seed,
        resign_at: None,
        monitor2: false,
        timeout,
        inject_illegal: false,
    };
    runtime().map_err(input)?.block_on(async {
        let stream = tokio::time::timeout(
            Duration::from_secs(10),
            tokio::net::TcpStream::connect(addr),
        )
        .await
        .map_err(|_| input(format!("cannot connect to {addr}: connection timed out")))?
        .map_err(|e| input(format!("cannot connect to {addr}: {e}")))?;
        let mut t = Transcript::new("csa", user, Sink::Stdout);
        let report = play_client(stream, config, &plan, &mut t)
            .await
            .map_err(|e| match e {
                ClientError::Silent(secs) => Failure::Failed(format!(
                    "error: {addr}: no line from the server for {secs} s (--timeout)"
                )),
                ClientError::Io(e) => Failure::Failed(format!("error: {addr}: {e}")),
            })?;
        // A refused login or a broken game is a run gone wrong (exit 1), not
        // bad input.
        match report.problems.first() {
            Some(p) => Err(Failure::Failed(format!("error: {p}"))),
            None => Ok(()),
        }
    })
}

// ------------------------------------------------------------- transcript

/// x1 replies of several lines, ended by `<prefix>+OK` (spec note,
/// "Extended mode"): shown as one transcript line.
const MULTI_LINE_TAGS: [&str; 7] = [
    "##[WHO]",
    "##[LIST]",
    "##[SHOW]",
    "##[MONITOR]",
    "##[MONITOR2]",
    "##[RATING]",
    "##[GETBUOYCOUNT]",
];

/// A multi-line message being collected.
enum Block {
    Summary(Vec<String>),
    X1 { prefix: String, lines: Vec<String> },
}

/// Shows CSA lines in the transcript: one line per message; a
/// `Game_Summary` block and a multi-line x1 reply become one line.
pub(crate) struct CsaWire {
    incoming: Splitter,
    block: Option<(Block, usize)>,
}

impl CsaWire {
    pub(crate) fn new() -> CsaWire {
        CsaWire {
            incoming: Splitter::new(b'\n', 64 * 1024),
            block: None,
        }
    }

    /// Logs bytes this party sent (whole lines). The password of a
    /// `LOGIN` line is shown as `*****` (as `csa decode` does: passwords
    /// never reach a log); the byte count stays the real one.
    pub(crate) fn sent(&self, t: &mut Transcript, bytes: &[u8]) {
        for line in bytes.split_inclusive(|&b| b == b'\n') {
            t.sent(line.len(), &show(&redact_login(trim_eol(line))));
        }
    }

    /// Logs bytes this party received.
    pub(crate) fn received(&mut self, t: &mut Transcript, bytes: &[u8]) {
        let mut lines = Vec::new();
        self.incoming.feed(bytes, |l| lines.push(l.to_vec()));
        for line in lines {
            self.line(t, &line);
        }
    }

    /// At the end of the connection: what is left unfinished.
    pub(crate) fn closed(&mut self, t: &mut Transcript) {
        let rest = self.incoming.take_rest();
        if !rest.is_empty() {
            self.line(t, &rest);
        }
        self.flush_block(t, " (unfinished)");
    }

    fn flush_block(&mut self, t: &mut Transcript, suffix: &str) {
        if let Some((block, len)) = self.block.take() {
            t.received(len, &format!("{}{suffix}", block_text(&block)));
        }
    }

    fn line(&mut self, t: &mut Transcript, raw: &[u8]) {
        // A server's transcript would show the LOGIN lines it receives.
        let text = show(&redact_login(trim_eol(raw)));
        match &mut self.block {
            Some((Block::Summary(lines), len)) => {
                *len += raw.len();
                let end = text == "END Game_Summary";
                lines.push(text);
                if end {
                    self.flush_block(t, "");
                }
                return;
            }
            Some((Block::X1 { prefix, lines }, len)) if text.starts_with(prefix.as_str()) => {
                *len += raw.len();
                let rest = text[prefix.len()..].to_string();
                let end = rest == "+OK";
                lines.push(rest);
                if end {
                    self.flush_block(t, "");
                }
                return;
            }
            Some(_) => self.flush_block(t, " (unfinished)"),
            None => {}
        }
        if text == "BEGIN Game_Summary" {
            self.block = Some((Block::Summary(vec![text]), raw.len()));
            return;
        }
        if let Some(tag) = MULTI_LINE_TAGS.iter().find(|tag| text.starts_with(**tag)) {
            // The prefix: the tag, an optional `[<game id>]`, one space.
            let after = &text[tag.len()..];
            let id_len = match after.strip_prefix('[') {
                Some(rest) => rest.find(']').map_or(0, |i| i + 2),
                None => 0,
            };
            let prefix_len = tag.len() + id_len + 1;
            if text.len() > prefix_len && &text[prefix_len..] != "+OK" {
                self.block = Some((
                    Block::X1 {
                        prefix: text[..prefix_len].to_string(),
                        lines: vec![text[prefix_len..].to_string()],
                    },
                    raw.len(),
                ));
                return;
            }
        }
        t.received(raw.len(), &text);
    }
}

fn trim_eol(line: &[u8]) -> &[u8] {
    let line = line.strip_suffix(b"\n").unwrap_or(line);
    line.strip_suffix(b"\r").unwrap_or(line)
}

/// A collected block as one line.
fn block_text(block: &Block) -> String {
    match block {
        Block::Summary(lines) => {
            const KEYS: [&str; 8] = [
                "Game_ID:",
                "Name+:",
                "Name-:",
                "Your_Turn:",
                "To_Move:",
                "Total_Time:",
                "Byoyomi:",
                "Increment:",
            ];
            let fields: Vec<&str> = lines
                .iter()
                .filter(|l| KEYS.iter().any(|k| l.starts_with(k)))
                .map(String::as_str)
                .collect();
            let last = lines.last().map_or("", String::as_str);
            format!(
                "BEGIN Game_Summary ... {last}  ({} lines; {})",
                lines.len(),
                fields.join(", ")
            )
        }
        Block::X1 { prefix, lines } => {
            let shown: Vec<&str> = if lines.len() <= 6 {
                lines.iter().map(String::as_str).collect()
            } else {
                let mut v: Vec<&str> = lines[..3].iter().map(String::as_str).collect();
                v.push("...");
                v.extend(lines[lines.len() - 2..].iter().map(String::as_str));
                v
            };
            let n = lines.len();
            let plural = if n == 1 { "" } else { "s" };
            format!("{prefix}{}  ({n} line{plural})", shown.join(" | "))
        }
    }
}

// ------------------------------------------------------------- client

/// How a client plays.
pub(crate) struct ClientPlan {
    /// Seed of the built-in player ([`GameBoard::pick_move`]).
    pub seed: u64,
    /// Resign (`%TORYO`) on our turn once the game has this many plies.
    pub resign_at: Option<usize>,
    /// x1: send `%%MONITOR2ON <game id>` when the game starts.
    pub monitor2: bool,
    /// Give up when the server is silent this long.
    pub timeout: Duration,
    /// Test hook (`demo --fail csa`): play a move that is not legal on our
    /// first turn.
    pub inject_illegal: bool,
}

/// What a client saw.
#[derive(Debug, Default)]
pub(crate) struct ClientReport {
    /// `LOGIN:<name> OK` arrived.
    pub logged_in: bool,
    /// The Game_Summary's `Your_Turn`.
    pub side: Option<Side>,
    /// `START:<game id>` arrived.
    pub started: bool,
    /// Moves confirmed by the server.
    pub moves: usize,
    /// The result: reason line and outcome line (`#RESIGN`, `#WIN`).
    pub result: Option<(String, String)>,
    /// `##[MONITOR2]` replies received.
    pub monitor_replies: usize,
    /// Problems: login refused, malformed lines, board mismatches.
    pub problems: Vec<String>,
}

/// Why [`play_client`] stopped early.
#[derive(Debug)]
pub(crate) enum ClientError {
    /// The server sent nothing for this many seconds ([`ClientPlan::timeout`]).
    Silent(u64),
    /// Reading or writing the socket failed.
    Io(std::io::Error),
}

impl std::fmt::Display for ClientError {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match self {
            ClientError::Silent(secs) => write!(f, "no line from the server for {secs} s"),
            ClientError::Io(e) => e.fmt(f),
        }
    }
}

/// Plays one game as a client on `stream` (the CSA or x1 session of
/// `csa-protocol`), logging to `t`: agrees to the offered game, plays
/// [`GameBoard::pick_move`] moves, resigns as planned, logs out after the
/// game in x1 mode; returns when the server closes the connection.
pub(crate) async fn play_client(
    stream: tokio::net::TcpStream,
    config: ClientConfig,
    plan: &ClientPlan,
    t: &mut Transcript,
) -> Result<ClientReport, ClientError> {
    use tokio::io::{AsyncReadExt, AsyncWriteExt};
    let _ = stream.set_nodelay(true);
    let x1 = config.x1;
    let (mut read, mut write) = stream.into_split();
    let mut client = Client::new(config, Instant::now());
    let mut wire = CsaWire::new();
    let mut report = ClientReport::default();
    let mut inject = plan.inject_illegal;
    let mut buf = vec![0u8; 8192];
    loop {
        while let Some(e) = client.poll_event() {
            let now = Instant::now();
            match &e {
                ClientEvent::LoggedIn => report.logged_in = true,
                ClientEvent::LoginFailed => report.problems.push("login refused".into()),
                ClientEvent::Summary(s) => {
                    report.side = s.your_turn;
                    let _ = client.agree(now);
                }
                ClientEvent::Started { game_id } => {
                    report.started = true;
                    if plan.monitor2 {
                        match GameId::new(game_id.clone()) {
                            Ok(id) => client.x1_command(X1Command::Monitor2On(id), now),
                            Err(e) => report.problems.push(format!("game id {game_id}: {e}")),
                        }
                    }
                }
                // Only if still so: a result read in the same chunk as the
                // last move has already ended the game.
                ClientEvent::OurTurn { .. } if client.is_our_turn() => {
                    let plies = client.board().map_or(0, GameBoard::ply);
                    if inject {
                        inject = false;
                        // Square 11 holds gote's lance at the start: never a
                        // legal move for sente, nor a move of gote's own.
                        let bad = match report.side {
                            Some(Side::White) => "-1918FU",
                            _ => "+1112FU",
                        };
                        t.note(&format!("test hook: we play the illegal move {bad}"));
                        client.send_raw_line(bad.as_bytes(), now);
                    } else if plan.resign_at.is_some_and(|n| plies >= n) {
                        t.note(&format!("{plies} plies played: we resign"));
                        let _ = client.special(SpecialMove::Toryo, now);
                    } else {
                        match client.board().and_then(|b| b.pick_move(plan.seed)) {
                            Some(mv) => {
                                if let Err(e) = client.play(mv, None, now) {
                                    report.problems.push(format!("our move {mv}: {e}"));
                                }
                            }
                            None => {
                                t.note("no legal move: we resign");
                                let _ = client.special(SpecialMove::Toryo, now);
                            }
                        }
                    }
                }
                ClientEvent::Move { .. } => report.moves += 1,
                ClientEvent::GameOver { reason, outcome } => {
                    report.result =
                        Some((reason.as_str().to_string(), outcome.as_str().to_string()));
                    t.note(&format!(
                        "game over after {} moves: {} {}",
                        report.moves,
                        reason.as_str(),
                        outcome.as_str()
                    ));
                    if x1 {
                        client.logout(now);
                    }
                }
                ClientEvent::X1(reply) => {
                    if matches!(reply, X1Reply::Monitor2 { .. }) {
                        report.monitor_replies += 1;
                    }
                }
                ClientEvent::Malformed(err) => {
                    report.problems.push(format!("malformed line: {err}"))
                }
                ClientEvent::BadSummary(err) => {
                    report.problems.push(format!("bad Game_Summary: {err}"))
                }
                ClientEvent::BoardMismatch { mv } => {
                    report
                        .problems
                        .push(format!("server move {mv} is illegal on our board"));
                }
                ClientEvent::Rejected { game_id, by } => {
                    report
                        .problems
                        .push(format!("game {game_id} rejected by {by}"));
                }
                _ => {}
            }
        }
        while let Some(bytes) = client.poll_transmit() {
            wire.sent(t, &bytes);
            write.write_all(&bytes).await.map_err(ClientError::Io)?;
        }
        let silence = tokio::time::sleep(plan.timeout);
        let n = match client.poll_timeout() {
            Some(d) => {
                tokio::select! {
                    r = read.read(&mut buf) => r.map_err(ClientError::Io)?,
                    () = tokio::time::sleep_until(tokio::time::Instant::from_std(d)) => {
                        client.handle_timeout(Instant::now());
                        continue;
                    }
                    () = silence => return Err(ClientError::Silent(plan.timeout.as_secs())),
                }
            }
            None => tokio::select! {
                r = read.read(&mut buf) => r.map_err(ClientError::Io)?,
                () = silence => return Err(ClientError::Silent(plan.timeout.as_secs())),
            },
        };
        if n == 0 {
            wire.closed(t);
            client.handle_close();
            return Ok(report);
        }
        wire.received(t, &buf[..n]);
        client.handle_data(&buf[..n], Instant::now());
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use std::sync::{Arc, Mutex};

    fn run(input: &[u8]) -> (Vec<String>, u64, u64) {
        let buf = Arc::new(Mutex::new(Vec::new()));
        let mut t = Transcript::new("csa", "bob", Sink::Buffer(buf.clone()));
        let mut wire = CsaWire::new();
        // Fed in two pieces: blocks and lines span reads.
        let (a, b) = input.split_at(input.len() / 2);
        wire.received(&mut t, a);
        wire.received(&mut t, b);
        wire.closed(&mut t);
        let text = String::from_utf8(buf.lock().unwrap().clone()).unwrap();
        let lines = text
            .lines()
            .map(|l| l.split_once(" <- ").unwrap().1.to_string())
            .collect();
        (lines, t.bytes_received, t.messages_received)
    }

    #[test]
    fn multi_line_messages_are_one_line() {
        // Spec note, x1 table and examples; the recorded shogi-server
        // transcript for the MONITOR2 lines.
        let input = b"LOGIN:bob OK\n##[LOGIN] +OK x1\n\
##[MONITOR2][g1] -3334FU\n##[MONITOR2][g1] T9\n##[MONITOR2][g1] +OK\n\
##[GETBUOYCOUNT] 10\n##[GETBUOYCOUNT] +OK\n\
##[CHAT][carol] hello everyone\n\
BEGIN Game_Summary\nProtocol_Version:1.2\nGame_ID:e+g-300-0+a+b+1\nYour_Turn:-\nEND Game_Summary\n\
#RESIGN\n#WIN\n";
        let (lines, bytes, messages) = run(input);
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
        assert_eq!(bytes, input.len() as u64);
        assert_eq!(messages, 8);
    }

    #[test]
    fn login_passwords_are_not_shown() {
        // Spec note: `LOGIN <name> <password>` and `LOGIN <name> <password> x1`.
        let buf = Arc::new(Mutex::new(Vec::new()));
        let mut t = Transcript::new("csa", "carol", Sink::Buffer(buf.clone()));
        let wire = CsaWire::new();
        let sent = b"LOGIN carol g-60-5,s3cret\r\nLOGIN carol pw x1\n";
        wire.sent(&mut t, sent);
        let text = String::from_utf8(buf.lock().unwrap().clone()).unwrap();
        assert!(!text.contains("s3cret") && !text.contains(" pw"), "{text}");
        let lines: Vec<&str> = text
            .lines()
            .map(|l| l.split_once(" -> ").unwrap().1)
            .collect();
        assert_eq!(lines, ["LOGIN carol *****", "LOGIN carol ***** x1"]);
        // The real bytes are counted.
        assert_eq!(t.bytes_sent, sent.len() as u64);
    }

    #[test]
    fn an_interrupted_block_is_shown_as_unfinished() {
        let input = b"##[WHO] alice x1 connected\n#LOSE\r\nBEGIN Game_Summary\nName+:a";
        let (lines, bytes, _) = run(input);
        assert_eq!(
            lines,
            [
                "##[WHO] alice x1 connected  (1 line) (unfinished)",
                "#LOSE",
                "BEGIN Game_Summary ... Name+:a  (2 lines; Name+:a) (unfinished)",
            ]
        );
        assert_eq!(bytes, input.len() as u64);
    }
}
