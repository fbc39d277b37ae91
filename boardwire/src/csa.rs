//! `boardwire csa ...`: the CSA shogi server protocol on real sockets.
//!
//! - `csa serve [--listen 127.0.0.1:4081]`: a CSA server (shogi-server x1
//!   mode included) for many concurrent clients;
//! - `csa connect HOST:PORT --user NAME [--password PW] [--x1] [--game NAME-300-10F]`:
//!   a client playing with a built-in player (legal moves, captures first),
//!   printing the game;
//! - `csa decode [FILE]`: a wire log (raw lines, or the `>>`/`<<` transcript
//!   format) or a CSA kifu file as typed messages, `--json` for one JSON
//!   object per line.

use std::io::{Read, Write};
use std::time::Duration;

use crate::batch::json_string;
use csa_protocol::kifu::{Item, parse_kifu};
use csa_protocol::session::client::{ClientConfig, ClientEvent};
use csa_protocol::session::server::ServerConfig;
use csa_protocol::{
    ClientMessage, GameName, Password, ServerMessage, SidePreference, UserName, decode_client_line,
    decode_server_line,
};

/// The `csa` subcommands.
#[derive(Debug, clap::Subcommand)]
pub(crate) enum CsaCommand {
    /// Run a CSA game server (plain CSA and shogi-server x1 mode).
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
        /// Side to ask for in x1 mode: `+`, `-` or `*`.
        #[arg(long, default_value = "*")]
        side: String,
        /// Seed of the built-in player's choices.
        #[arg(long, default_value_t = 1)]
        seed: u64,
    },
    /// Decode a wire log or a CSA kifu file into typed messages.
    ///
    /// Every line is printed (message, unrecognised, or error with its
    /// column); the exit code is 2 when any line was malformed.
    Decode {
        /// File to read (standard input when absent).
        file: Option<std::path::PathBuf>,
        /// One JSON object per line.
        #[arg(long)]
        json: bool,
    },
}

/// Runs a `csa` subcommand. Errors are one-line messages for the user.
pub(crate) fn run(cmd: CsaCommand) -> Result<(), String> {
    match cmd {
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
        } => connect(&addr, &user, password, x1, game, &side, seed),
        CsaCommand::Decode { file, json } => decode(file.as_deref(), json),
    }
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
        eprintln!("csa server listening on {addr}");
        csa_protocol::net::serve(listener, config)
            .await
            .map_err(|e| format!("server stopped: {e}"))
    })
}

fn connect(
    addr: &str,
    user: &str,
    password: Option<String>,
    x1: bool,
    game: Option<String>,
    side: &str,
    seed: u64,
) -> Result<(), String> {
    let name = UserName::new(user.to_string()).map_err(|e| format!("--user: {e}"))?;
    // Plain mode: the game name is the password (`GAME,PW` with a password:
    // the Floodgate convention). x1: the password as is, the game by %%GAME.
    let pw = match (x1, &game, password) {
        (false, Some(g), Some(p)) => format!("{g},{p}"),
        (false, Some(g), None) => g.clone(),
        (_, _, Some(p)) => p,
        (_, _, None) => "nopassword".to_string(),
    };
    let password = Password::new(pw).map_err(|e| format!("--password: {e}"))?;
    let side = match side {
        "+" => SidePreference::Black,
        "-" => SidePreference::White,
        "*" => SidePreference::Any,
        other => return Err(format!("--side: expected +, - or *, got {other:?}")),
    };
    let mut config = ClientConfig::new(name, password);
    config.x1 = x1;
    if x1 {
        let g = game.ok_or("--x1 needs --game")?;
        config.game = Some((GameName::new(g).map_err(|e| format!("--game: {e}"))?, side));
    }
    runtime()?.block_on(async {
        let stream = tokio::time::timeout(
            Duration::from_secs(10),
            tokio::net::TcpStream::connect(addr),
        )
        .await
        .map_err(|_| format!("{addr}: connection timed out"))?
        .map_err(|e| format!("{addr}: {e}"))?;
        let mut failed = None;
        csa_protocol::net::play(
            stream,
            config,
            |c| c.board()?.pick_move(seed),
            |client, e| match e {
                ClientEvent::LoggedIn => println!("logged in"),
                ClientEvent::LoginFailed => failed = Some("login failed".to_string()),
                ClientEvent::Summary(s) => println!(
                    "game {} : {} (+) vs {} (-), we play {}",
                    s.game_id.as_ref().map_or("?", |g| g.as_str()),
                    s.name_black.as_ref().map_or("?", |n| n.as_str()),
                    s.name_white.as_ref().map_or("?", |n| n.as_str()),
                    s.your_turn.map_or('?', |s| s.sign()),
                ),
                ClientEvent::Started { game_id } => println!("start {game_id}"),
                ClientEvent::Move { mv, time, .. } => match time {
                    Some(t) => println!("{mv},T{t}"),
                    None => println!("{mv}"),
                },
                ClientEvent::GameOver { reason, outcome } => {
                    println!("{} {}", reason.as_str(), outcome.as_str());
                    if x1 {
                        client.logout(std::time::Instant::now());
                    }
                }
                ClientEvent::Rejected { game_id, by } => println!("rejected {game_id} by {by}"),
                other => eprintln!("{other:?}"),
            },
        )
        .await
        .map_err(|e| format!("{addr}: {e}"))?;
        failed.map_or(Ok(()), Err)
    })
}

fn emit(json: bool, line_no: usize, direction: &str, kind: &str, detail: &str) {
    if json {
        println!(
            "{{\"line\":{line_no},\"direction\":{},\"kind\":{},\"value\":{}}}",
            json_string(direction),
            json_string(kind),
            json_string(detail)
        );
    } else {
        println!("{line_no:>5} {direction:<6} {kind:<12} {detail}");
    }
}

fn decode(file: Option<&std::path::Path>, json: bool) -> Result<(), String> {
    let mut data = Vec::new();
    match file {
        Some(p) => {
            data = std::fs::read(p).map_err(|e| format!("{}: {e}", p.display()))?;
        }
        None => {
            std::io::stdin()
                .read_to_end(&mut data)
                .map_err(|e| format!("stdin: {e}"))?;
        }
    }
    let first = data
        .split(|&b| b == b'\n')
        .find(|l| !l.is_empty())
        .unwrap_or(b"");
    let is_kifu =
        first.starts_with(b"V2") || first.starts_with(b"V3") || first.starts_with(b"'CSA encoding");
    if is_kifu {
        let records = parse_kifu(&data).map_err(|e| e.to_string())?;
        let mut n = 0;
        for (r, record) in records.iter().enumerate() {
            for item in &record.items {
                n += 1;
                let (kind, detail) = match item {
                    Item::Comment(c) => (
                        "comment",
                        String::from_utf8_lossy(c.as_bytes()).into_owned(),
                    ),
                    Item::Name { side, name } => (
                        "name",
                        format!("{} {}", side.sign(), String::from_utf8_lossy(name)),
                    ),
                    Item::Info { key, value } => {
                        ("info", format!("{key}: {}", String::from_utf8_lossy(value)))
                    }
                    other => ("statement", format!("{other:?}")),
                };
                emit(json, n, &format!("kifu{r}"), kind, &detail);
            }
        }
        let _ = std::io::stdout().flush();
        return Ok(());
    }
    // The transcript format (`[t] who >> line`): other lines are comments.
    let transcript = data
        .split(|&b| b == b'\n')
        .any(|l| l.starts_with(b"[") && (l.windows(4).any(|w| w == b" >> " || w == b" << ")));
    let mut malformed = 0usize;
    for (i, raw) in data.split(|&b| b == b'\n').enumerate() {
        let raw = raw.strip_suffix(b"\r").unwrap_or(raw);
        if raw.is_empty() && i + 1 == data.split(|&b| b == b'\n').count() {
            break;
        }
        // The transcript format `[t] who >> line` / `[t] who << line`.
        let text = String::from_utf8_lossy(raw);
        let (direction, line): (&str, Vec<u8>) = match (text.find(" >> "), text.find(" << ")) {
            (Some(p), _) if text.starts_with('[') => ("client", text[p + 4..].as_bytes().to_vec()),
            (_, Some(p)) if text.starts_with('[') => ("server", text[p + 4..].as_bytes().to_vec()),
            _ if transcript => continue,
            _ => ("?", raw.to_vec()),
        };
        let client = |l: &[u8]| match decode_client_line(l) {
            Ok(ClientMessage::Unrecognised(_)) => None,
            Ok(m) => Some(Ok(format!("{m:?}"))),
            Err(e) => Some(Err(e.to_string())),
        };
        let server = |l: &[u8]| match decode_server_line(l) {
            Ok(ServerMessage::Unrecognised(_)) => None,
            Ok(m) => Some(Ok(format!("{m:?}"))),
            Err(e) => Some(Err(e.to_string())),
        };
        let (dir, result) = match direction {
            "client" => ("client", client(&line)),
            "server" => ("server", server(&line)),
            // A raw log: whichever side's decoder knows the line.
            _ => match (client(&line), server(&line)) {
                (Some(Ok(m)), _) => ("client", Some(Ok(m))),
                (_, Some(Ok(m))) => ("server", Some(Ok(m))),
                (Some(Err(e)), _) => ("client", Some(Err(e))),
                (None, r) => ("server", r),
            },
        };
        match result {
            Some(Ok(m)) => emit(json, i + 1, dir, "message", &m),
            Some(Err(e)) => {
                malformed += 1;
                emit(json, i + 1, dir, "error", &e)
            }
            None => emit(
                json,
                i + 1,
                dir,
                "unrecognised",
                &String::from_utf8_lossy(&line),
            ),
        }
    }
    let _ = std::io::stdout().flush();
    if malformed > 0 {
        return Err(format!("{malformed} malformed line(s)"));
    }
    Ok(())
}
