//! Scheduled pairing (Floodgate): the [`League`] trait through which a
//! league decides when and how the players waiting for its games are paired.
//!
//! Without a league the server pairs two players as soon as they wait for the
//! same game name. A league takes some game names over (shogi-server's
//! Floodgate: `floodgate-900-0`, `floodgate-300-10F`, ...): players asking for
//! them wait until the league's next pairing time; then the server hands the
//! league every player waiting for one of its games and starts the games it
//! returns. The league is sans-IO too: it reads no clock and no file, the
//! server gives it the time (seconds since 1970, UTC, and the server's UTC
//! offset) and the waiting players.
//!
//! `csa-league`'s `Floodgate` implements it as shogi-server does (schedules,
//! pairing by rating and history).

use alloc::boxed::Box;
use alloc::string::String;
use alloc::vec::Vec;

use super::{ConnId, Side};

/// A player waiting for one of a league's games, as the server hands it to
/// [`League::pair`].
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct WaitingPlayer<'a> {
    /// The player's connection.
    pub conn: ConnId,
    /// The login name (`LOGIN <name> ...`).
    pub name: &'a str,
    /// The player's rating id, shogi-server's `<name>+<MD5 of the
    /// password>` when the server is set to write such ids
    /// ([`RatingIds::Md5`](super::RatingIds)), else the login name. Pairing
    /// history and ratings (`players.yaml`) are keyed by it.
    pub player_id: &'a str,
    /// The game name the player asked for (`%%GAME <name> *`, or the
    /// CSA-mode password `<name>,<secret>`).
    pub gamename: &'a str,
}

/// One game a league asks the server to start.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct LeagueGame {
    /// Black (`+`, sente).
    pub black: ConnId,
    /// White (`-`, gote).
    pub white: ConnId,
    /// The game name (the players' common one).
    pub gamename: String,
    /// `Max_Moves` for this game, overriding [`ServerConfig::max_moves`](super::ServerConfig::max_moves)
    /// (shogi-server's `set max_moves N` in a schedule file).
    pub max_moves: Option<u32>,
    /// `Least_Time_Per_Move` in seconds for this game, overriding
    /// [`ServerConfig::least_time_per_move`](super::ServerConfig::least_time_per_move)
    /// (`set least_time_per_move N`).
    pub least_time_per_move: Option<u64>,
}

/// What a league decided at one pairing time.
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct LeagueRound {
    /// The games to start, in order. A player named twice, or no longer
    /// waiting, is skipped by the server (and said in the log).
    pub games: Vec<LeagueGame>,
    /// Lines for the operator's log (each pairing with players, rates and
    /// score, the players left out and why, the next time), without
    /// terminators; the server emits each as a `ServerEvent::League` line.
    pub log: Vec<String>,
}

/// A finished game of one of a league's names, as the server tells it to
/// [`League::game_ended`] (shogi-server's `History#update`, which keeps the
/// last opponents and results that pairing penalises).
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct LeagueResult<'a> {
    /// The Game_ID.
    pub game_id: &'a str,
    /// The game name.
    pub gamename: &'a str,
    /// Black's rating id ([`WaitingPlayer::player_id`]).
    pub black: &'a str,
    /// White's rating id.
    pub white: &'a str,
    /// The winner; `None` for a game without one (a draw, an abort).
    pub winner: Option<Side>,
}

/// A league: which game names it schedules, when it pairs, and how.
///
/// The server calls, in this order: [`League::schedules`] when a player asks
/// for a game (a `true` makes the player wait), [`League::next_pairing`] in
/// [`Server::poll_timeout`](super::Server::poll_timeout), and
/// [`League::pair`] in [`Server::handle_timeout`](super::Server::handle_timeout)
/// once that time has come, with every player then waiting for a game the
/// league schedules.
pub trait League: core::fmt::Debug + Send {
    /// Whether players asking for `gamename` wait for this league's pairing
    /// instead of being paired as soon as two wait.
    fn schedules(&self, gamename: &str) -> bool;

    /// The next pairing time, seconds since 1970 (UTC); `None` when nothing
    /// is scheduled. `unix_secs` is now; `utc_offset_secs` is the server's
    /// local time zone ([`ServerConfig::utc_offset_secs`](super::ServerConfig::utc_offset_secs)),
    /// in which schedules are written.
    fn next_pairing(&self, unix_secs: u64, utc_offset_secs: i32) -> Option<u64>;

    /// Pairs the players waiting at `unix_secs` (at or after
    /// [`League::next_pairing`]) and moves the league's schedule on. The
    /// players are in the order they started waiting. Only players
    /// shogi-server would let take part belong here: its `select_players`
    /// takes those who are `rated?` (have a rating id, which only a `LOGIN`
    /// with a password gives) and asked for the game without a turn
    /// preference (it refuses `%%GAME floodgate-… +` with `##[ERROR] You
    /// are not allowed to specify TEBAN + for the game …`).
    fn pair(
        &mut self,
        unix_secs: u64,
        utc_offset_secs: i32,
        waiting: &[WaitingPlayer<'_>],
    ) -> LeagueRound;

    /// A game of a name this league [`schedules`](League::schedules) ended
    /// between two rated players. shogi-server records every such game in
    /// the league's history (the last opponents and results pairing uses);
    /// the default does nothing.
    fn game_ended(&mut self, result: &LeagueResult<'_>) {
        let _ = result;
    }
}

impl<L: League + ?Sized> League for Box<L> {
    fn schedules(&self, gamename: &str) -> bool {
        (**self).schedules(gamename)
    }
    fn next_pairing(&self, unix_secs: u64, utc_offset_secs: i32) -> Option<u64> {
        (**self).next_pairing(unix_secs, utc_offset_secs)
    }
    fn pair(
        &mut self,
        unix_secs: u64,
        utc_offset_secs: i32,
        waiting: &[WaitingPlayer<'_>],
    ) -> LeagueRound {
        (**self).pair(unix_secs, utc_offset_secs, waiting)
    }
    fn game_ended(&mut self, result: &LeagueResult<'_>) {
        (**self).game_ended(result)
    }
}
