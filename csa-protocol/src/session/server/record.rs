//! Game records: the CSA V2 file shogi-server writes for every game it
//! creates ([`spec::csa`](crate::spec::csa), *Notation users expect*), built while the
//! game runs and handed out as [`ServerEvent::Record`] when it is over.
//!
//! The text, line by line, as shogi-server writes it (facts from its
//! records in `boardwire-vectors/data/csa-records/`):
//! `V2`, `N+<black>`, `N-<white>`, `'Max_Moves:<n>`,
//! `'Least_Time_Per_Move:<s>`, `'Increment:<s>` (Fischer games only),
//! `$EVENT:<game id>`, `$START_TIME:YYYY/MM/DD HH:MM:SS` (when the
//! `Game_Summary` was sent), the start position (`P1`..`P9`, hands, side to
//! move), `'rating:<black id>:<white id>` (when both players logged in with
//! a password: see [`RatingIds`]), `'buoy game starting with <n> moves` and
//! the set-up moves (buoy games); then every move as `<move>` and
//! `T<seconds>` lines, a move's comment as `'*<comment>`, a move sent out of
//! turn as `'Deferred <move>`; the end: `%TORYO` (resignation or a player
//! who left), `%KACHI`/`T<s>`/`%KACHI` (a declaration), or
//! `'ILLEGAL_MOVE(<move>)`; the final position as comment lines (`'P1`..);
//! `'summary:<reason>:<black> <win|lose|draw>:<white> <win|lose|draw>`; and
//! `'$END_TIME:...`. A game rejected before it started has the header and
//! `'$END_TIME:` only. Times are local: UTC shifted by
//! [`ServerConfig::utc_offset_secs`].

use alloc::format;
use alloc::string::{String, ToString};
use alloc::vec::Vec;

use super::*;
use crate::kifu::{Comment, Item, write_item};
use board_core::shogi::IllegalReason;

/// Which ids the `'rating:` line of a game record names
/// ([`ServerConfig::rating_ids`]).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default)]
#[non_exhaustive]
pub enum RatingIds {
    /// The login names (the default): no password hash leaves the server.
    #[default]
    Names,
    /// shogi-server's ids, `<name>+<MD5 hex of the password>` (in plain
    /// CSA mode the password is the part after the first comma of the
    /// `LOGIN` password), for rating tools that read them. An unsalted MD5
    /// of a password is easily reversed: use it only where the records stay
    /// private or the passwords are throw-away.
    ///
    /// Feature `rating-ids` (it pulls `md-5`). Without it this variant
    /// does not exist, so a server cannot be configured to write hashes:
    /// its records name the players by login name ([`RatingIds::Names`]).
    #[cfg(feature = "rating-ids")]
    #[cfg_attr(docsrs, doc(cfg(feature = "rating-ids")))]
    Md5,
}

/// A finished game's record ([`ServerEvent::Record`]): the file
/// shogi-server would have written.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct GameRecord {
    /// The Game_ID.
    pub game_id: String,
    /// Where shogi-server keeps it, relative to its records directory:
    /// `YYYY/MM/DD/<game id>.csa` (the local date the game was created;
    /// `/` separated). Bytes of the game id other than `[0-9A-Za-z_@.+-]`
    /// are written `_`, so the path never leaves the directory.
    pub path: String,
    /// The CSA V2 text (LF line ends; comments as the players sent them).
    pub text: Vec<u8>,
}

/// A record being written (the part up to the current move).
#[derive(Debug)]
pub(super) struct RecordState {
    text: Vec<u8>,
    /// The summary reason, when the end reason alone does not say it
    /// (`uchifuzume`, `oute_kaihimore`, `illegal kachi`, `toryo`).
    summary: Option<&'static str>,
    /// The record path.
    path: String,
}

/// `YYYY/MM/DD HH:MM:SS` of `unix + offset`.
pub(super) fn local_time(unix: u64, offset: i32) -> String {
    let (y, mo, d, h, mi, s) = civil(unix.saturating_add_signed(i64::from(offset)));
    format!("{y:04}/{mo:02}/{d:02} {h:02}:{mi:02}:{s:02}")
}

/// shogi-server's "good game name": `<identifier>-<digits>-<digits>[F]`.
fn good_game_name(s: &str) -> bool {
    let s = s.strip_suffix('F').unwrap_or(s);
    let Some((rest, byo)) = s.rsplit_once('-') else {
        return false;
    };
    let Some((name, total)) = rest.rsplit_once('-') else {
        return false;
    };
    let digits = |t: &str| !t.is_empty() && t.bytes().all(|b| b.is_ascii_digit());
    digits(byo)
        && digits(total)
        && !name.is_empty()
        && name.len() <= 32
        && name
            .bytes()
            .all(|b| b.is_ascii_alphanumeric() || matches!(b, b'_' | b'@' | b'-' | b'.'))
}

/// The password shogi-server rates a login by, if any: x1 logins the whole
/// password; plain CSA logins nothing when the password is a game name
/// (with or without a `-B`/`-W` suffix), the part after the first comma
/// when there is one (Ruby's `split(",")`: empty trailing fields dropped),
/// else the whole password. Spaces around it are stripped; empty = none.
pub(super) fn rated_password(password: &str, x1: bool) -> Option<&str> {
    let p = if x1 {
        password
    } else {
        let turn = password
            .strip_suffix(['b', 'B', 'w', 'W'])
            .and_then(|s| s.strip_suffix('-'))
            .is_some_and(good_game_name);
        if good_game_name(password) || turn {
            return None;
        }
        let fields = password.trim_end_matches(',');
        match fields.split_once(',') {
            Some((_, trip)) => trip,
            None => password,
        }
    };
    let p = p.trim();
    (!p.is_empty()).then_some(p)
}

/// Lowercase hex MD5 of `s` (shogi-server's `Digest::MD5.hexdigest`).
#[cfg(feature = "rating-ids")]
fn md5_hex(s: &str) -> String {
    use core::fmt::Write as _;
    use md5::Digest as _;
    let digest = md5::Md5::digest(s.as_bytes());
    let mut out = String::with_capacity(32);
    for b in digest {
        let _ = write!(out, "{b:02x}");
    }
    out
}

/// Game ids as file names: `[0-9A-Za-z_@.+-]` kept, anything else `_`.
fn file_name(id: &str) -> String {
    id.chars()
        .map(|c| {
            if c.is_ascii_alphanumeric() || matches!(c, '_' | '@' | '.' | '+' | '-') {
                c
            } else {
                '_'
            }
        })
        .collect()
}

fn push(text: &mut Vec<u8>, item: &Item<'_>) {
    write_item(item, text);
}

fn push_comment(text: &mut Vec<u8>, bytes: &[u8]) {
    push(text, &Item::Comment(Comment::from_raw(bytes)));
}

impl<I: Timestamp> Server<I> {
    /// The rating id of a logged-in player, per [`ServerConfig::rating_ids`];
    /// `None` for a player shogi-server does not rate.
    pub(super) fn rating_id(&self, conn: ConnId) -> Option<String> {
        let l = self.conns.get(&conn)?.login.as_ref()?;
        // Unrated without a password, whichever ids are written.
        let password = rated_password(&l.password, l.x1)?;
        #[cfg(not(feature = "rating-ids"))]
        let _ = password;
        Some(match self.config.rating_ids {
            RatingIds::Names => l.name.clone(),
            #[cfg(feature = "rating-ids")]
            RatingIds::Md5 => format!("{}+{}", l.name, md5_hex(password)),
        })
    }

    /// Starts the record of a game just created (its header and any buoy
    /// moves), when [`ServerConfig::records`] is on.
    pub(super) fn with_record(&self, mut g: Game<I>) -> Game<I> {
        if !self.config.records {
            return g;
        }
        let mut t = Vec::with_capacity(2048);
        push(&mut t, &Item::Version("2"));
        for (i, side) in [Side::Black, Side::White].into_iter().enumerate() {
            let name = g.names[i].as_bytes();
            push(&mut t, &Item::Name { side, name });
        }
        let max = format!("Max_Moves:{}", g.max_moves);
        push_comment(&mut t, max.as_bytes());
        let least = format!("Least_Time_Per_Move:{}", g.least_time_per_move);
        push_comment(&mut t, least.as_bytes());
        if g.time.increment_ms > 0 {
            let inc = format!("Increment:{}", g.time.increment_ms / 1000);
            push_comment(&mut t, inc.as_bytes());
        }
        let value = g.id.as_bytes();
        push(
            &mut t,
            &Item::Info {
                key: "EVENT",
                value,
            },
        );
        let start = local_time(g.start_unix, self.config.utc_offset_secs);
        let value = start.as_bytes();
        push(
            &mut t,
            &Item::Info {
                key: "START_TIME",
                value,
            },
        );
        t.extend_from_slice(g.initial_csa.as_bytes());
        if let (Some(b), Some(w)) = (self.rating_id(g.players[0]), self.rating_id(g.players[1])) {
            push_comment(&mut t, format!("rating:{b}:{w}").as_bytes());
        }
        if !g.moves.is_empty() {
            let line = format!("buoy game starting with {} moves", g.moves.len());
            push_comment(&mut t, line.as_bytes());
            for (m, secs) in &g.moves {
                push(&mut t, &Item::Move(*m));
                push(&mut t, &Item::Time(MoveTime::from_secs(*secs)));
            }
        }
        let (y, mo, d, ..) = civil(
            g.start_unix
                .saturating_add_signed(i64::from(self.config.utc_offset_secs)),
        );
        let path = format!("{y:04}/{mo:02}/{d:02}/{}.csa", file_name(&g.id));
        g.record = Some(RecordState {
            text: t,
            summary: None,
            path,
        });
        g
    }

    fn record_of(&mut self, gk: u64) -> Option<&mut RecordState> {
        self.games.get_mut(&gk)?.record.as_mut()
    }

    /// Appends a played move and its time.
    pub(super) fn record_move(&mut self, gk: u64, mv: CsaMove, secs: u64) {
        if let Some(r) = self.record_of(gk) {
            push(&mut r.text, &Item::Move(mv));
            push(&mut r.text, &Item::Time(MoveTime::from_secs(secs)));
        }
    }

    /// Appends a comment line (`bytes` without the leading `'`).
    pub(super) fn record_comment(&mut self, gk: u64, bytes: &[u8]) {
        if let Some(r) = self.record_of(gk) {
            push_comment(&mut r.text, bytes);
        }
    }

    /// Appends a raw statement line (`%TORYO`, `T0`).
    pub(super) fn record_line(&mut self, gk: u64, line: &str) {
        if let Some(r) = self.record_of(gk) {
            r.text.extend_from_slice(line.as_bytes());
            r.text.push(b'\n');
        }
    }

    /// A comment line between moves (`bytes` without the leading `'`): in
    /// the record, and kept for `%%MONITOR2ON`.
    pub(super) fn note(&mut self, gk: u64, bytes: &[u8]) {
        self.record_comment(gk, bytes);
        if let Some(g) = self.games.get_mut(&gk) {
            g.notes.push((g.moves.len(), bytes.to_vec()));
        }
    }

    /// Sets the `'summary:` reason (else the end reason's).
    pub(super) fn record_summary(&mut self, gk: u64, summary: &'static str) {
        if let Some(r) = self.record_of(gk) {
            r.summary = Some(summary);
        }
    }

    /// `'ILLEGAL_MOVE(<line up to its first comma>)` (control bytes
    /// escaped), with the summary reason shogi-server gives `why`.
    pub(super) fn record_illegal(&mut self, gk: u64, line: &[u8], why: Option<&IllegalReason>) {
        if self.record_of(gk).is_none() {
            return;
        }
        let mv = line.split(|&b| b == b',').next().unwrap_or(b"");
        let text = format!("ILLEGAL_MOVE({})", escape(mv));
        self.record_comment(gk, text.as_bytes());
        match why {
            Some(IllegalReason::PawnDropMate { .. }) => self.record_summary(gk, "uchifuzume"),
            Some(IllegalReason::LeavesKingInCheck) => {
                self.record_summary(gk, "oute_kaihimore");
            }
            _ => {}
        }
    }

    /// Ends the record of game `g` (removed from the table) and queues
    /// [`ServerEvent::Record`]. `result`: the reason and winner of a game
    /// played; `None` for a game that never started.
    pub(super) fn end_record(
        &mut self,
        g: &mut Game<I>,
        result: Option<(EndReason, Option<Side>)>,
    ) {
        let Some(mut r) = g.record.take() else {
            return;
        };
        if let Some((reason, winner)) = result {
            let summary = match (r.summary, reason) {
                (Some(s), _) => s,
                // A player who left (LOGOUT, disconnect): `%TORYO` as for a
                // resignation, reason `abnormal`.
                (None, EndReason::Resign) => {
                    r.text.extend_from_slice(b"%TORYO\n");
                    "abnormal"
                }
                (None, EndReason::TimeUp) => "time up",
                (None, EndReason::IllegalMove) => "illegal move",
                (None, EndReason::Sennichite) => "sennichite",
                (None, EndReason::OuteSennichite) => "oute_sennichite",
                (None, EndReason::Jishogi) => "kachi",
                (None, EndReason::MaxMoves) => "max_moves",
                (None, _) => "abnormal",
            };
            // After a repetition shogi-server takes the last move back on
            // its board: the final position is the one before it.
            let back = matches!(reason, EndReason::Sennichite | EndReason::OuteSennichite);
            let board = if back && !g.moves.is_empty() {
                let mut b =
                    GameBoard::from_csa(&g.initial_csa).unwrap_or_else(|_| GameBoard::startpos());
                for (m, _) in &g.moves[..g.moves.len() - 1] {
                    let _ = b.play(m);
                }
                b.csa_text()
            } else {
                g.board.csa_text()
            };
            for line in board.lines() {
                push_comment(&mut r.text, line.as_bytes());
            }
            let result = |i: usize| match winner {
                None => "draw",
                Some(w) if w == side_of(i) => "win",
                Some(_) => "lose",
            };
            let line = format!(
                "summary:{summary}:{} {}:{} {}",
                g.names[0],
                result(0),
                g.names[1],
                result(1)
            );
            push_comment(&mut r.text, line.as_bytes());
        }
        let end = local_time(self.unix_at(self.last_now), self.config.utc_offset_secs);
        push_comment(&mut r.text, format!("$END_TIME:{end}").as_bytes());
        self.events.push_back(ServerEvent::Record(GameRecord {
            game_id: g.id.to_string(),
            path: r.path,
            text: r.text,
        }));
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn rated_passwords_as_shogi_server_reads_them() {
        // x1: the whole password.
        assert_eq!(rated_password("dummy", true), Some("dummy"));
        assert_eq!(rated_password("a,b", true), Some("a,b"));
        // CSA mode: a game name is no password.
        assert_eq!(rated_password("testgame-1500-0", false), None);
        assert_eq!(rated_password("testgame-1500-0-b", false), None);
        assert_eq!(rated_password("testgame-300-10F-W", false), None);
        // `<game>,<trip>`: the trip (the csawtrip record's logins).
        assert_eq!(rated_password("dummy,atrip", false), Some("atrip"));
        assert_eq!(rated_password("g,a,b", false), Some("a,b"));
        assert_eq!(rated_password("g,a,,", false), Some("a"));
        // Anything else: the whole password.
        assert_eq!(rated_password("pass", false), Some("pass"));
        assert_eq!(rated_password("pass,", false), Some("pass,"));
    }

    #[test]
    #[cfg(feature = "rating-ids")]
    fn md5_of_the_vectors_passwords() {
        // The ids in boardwire-vectors' csa-records (`dummy`, `atrip`,
        // `anothertrip`).
        assert_eq!(md5_hex("dummy"), "275876e34cf609db118f3d84b799a790");
        assert_eq!(md5_hex("atrip"), "0ea2fdb50100b6b8c21673c8bf4d714a");
        assert_eq!(md5_hex("anothertrip"), "d97143d3cf01bbdd727b831bbb907344");
    }

    #[test]
    fn record_paths_stay_inside() {
        assert_eq!(file_name("e+../../x-1-0+a+b+1"), "e+.._.._x-1-0+a+b+1");
        assert_eq!(local_time(0, 9 * 3600), "1970/01/01 09:00:00");
        assert_eq!(local_time(3600, -2 * 3600), "1970/01/01 00:00:00");
    }
}
