//! [`ServerLog`]: the operator's log of a CSA server (`boardwire csa
//! serve` prints it), one line per game started, rejected and ended, made
//! from the [`Server`](crate::session::Server)'s [`ServerEvent`]s.

use alloc::collections::BTreeMap;
use alloc::string::String;

use crate::session::ServerEvent;
use crate::types::Side;

/// The server's events as the operator's log lines (without the time
/// stamp, which the caller puts first):
///
/// - `start <game id> + <black> - <white>` ([`ServerEvent::GameStarted`]);
/// - `reject <game id> by <name>` ([`ServerEvent::GameRejected`]; `by the
///   Server (timed out)` when the agree phase ran out);
/// - `end <game id> <reason> + <black> <win|lose|draw> - <white>
///   <win|lose|draw> <moves> moves` ([`ServerEvent::GameEnded`]; the reason
///   is the result line sent, `#RESIGN`, `#TIME_UP`, ..., see
///   [`spec::csa`](crate::spec::csa), *Results*; `draw` for both when the
///   game has no winner, `#SENNICHITE` or `#MAX_MOVES`); `moves` counts a
///   buoy's set-up moves;
/// - `league <line>` ([`ServerEvent::League`]: a league's pairing, its
///   players, pairs, rates and next time, in the league's words).
///
/// Other events have no line. The players of each game under way are kept
/// from its start to its end (one entry per game the server runs, so the
/// server's own bounds on games bound it).
///
/// ```
/// use csa_protocol::server_log::ServerLog;
/// use csa_protocol::session::ServerEvent;
///
/// use csa_protocol::message::EndReason;
/// use csa_protocol::types::Side;
///
/// let mut log = ServerLog::new();
/// let (game_id, black, white) = ("g1".to_string(), "alice".to_string(), "bob".to_string());
/// let start = ServerEvent::GameStarted { game_id: game_id.clone(), black, white };
/// assert_eq!(log.line(&start).unwrap(), "start g1 + alice - bob");
/// let end = ServerEvent::GameEnded { game_id, reason: EndReason::TimeUp, winner: Some(Side::Black), moves: 31 };
/// assert_eq!(log.line(&end).unwrap(), "end g1 #TIME_UP + alice win - bob lose 31 moves");
/// ```
#[derive(Debug, Default, Clone)]
pub struct ServerLog {
    /// Black's and White's names by Game_ID, for the games under way.
    players: BTreeMap<String, [String; 2]>,
}

impl ServerLog {
    /// No game under way.
    pub fn new() -> ServerLog {
        ServerLog::default()
    }

    /// Black's (`+`) and White's (`-`) login names of a game under way.
    pub fn players(&self, game_id: &str) -> Option<(&str, &str)> {
        let [black, white] = self.players.get(game_id)?;
        Some((black, white))
    }

    /// The log line of `event`, or `None` for an event the log leaves out.
    /// A game's end forgets its players (an end without a start names
    /// them as empty).
    pub fn line(&mut self, event: &ServerEvent) -> Option<String> {
        match event {
            ServerEvent::GameStarted {
                game_id,
                black,
                white,
            } => {
                let line = alloc::format!("start {game_id} + {black} - {white}");
                self.players
                    .insert(game_id.clone(), [black.clone(), white.clone()]);
                Some(line)
            }
            ServerEvent::GameRejected { game_id, by } => {
                Some(alloc::format!("reject {game_id} by {by}"))
            }
            ServerEvent::GameEnded {
                game_id,
                reason,
                winner,
                moves,
            } => {
                let [black, white] = self.players.remove(game_id).unwrap_or_default();
                let result = |side| match winner {
                    None => "draw",
                    Some(w) if *w == side => "win",
                    Some(_) => "lose",
                };
                Some(alloc::format!(
                    "end {game_id} {} + {black} {} - {white} {} {moves} moves",
                    reason.as_str(),
                    result(Side::Black),
                    result(Side::White),
                ))
            }
            ServerEvent::League(line) => Some(alloc::format!("league {line}")),
            _ => None,
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::message::EndReason;
    use alloc::vec::Vec;

    #[test]
    fn games_as_log_lines() {
        let mut log = ServerLog::new();
        let id = "boardwire+g-300-10+alice+bob+20261203120000";
        let events = [
            ServerEvent::GameStarted {
                game_id: id.into(),
                black: "alice".into(),
                white: "bob".into(),
            },
            ServerEvent::GameEnded {
                game_id: id.into(),
                reason: EndReason::Resign,
                winner: Some(Side::White),
                moves: 42,
            },
            ServerEvent::GameRejected {
                game_id: "g2".into(),
                by: "the Server (timed out)".into(),
            },
            // spec/csa.md, *Results*: `#SENNICHITE` then `#DRAW`.
            ServerEvent::GameEnded {
                game_id: "g3".into(),
                reason: EndReason::Sennichite,
                winner: None,
                moves: 12,
            },
        ];
        let lines: Vec<Option<String>> = events.iter().map(|e| log.line(e)).collect();
        assert_eq!(
            lines,
            [
                Some(alloc::format!("start {id} + alice - bob")),
                Some(alloc::format!(
                    "end {id} #RESIGN + alice lose - bob win 42 moves"
                )),
                Some("reject g2 by the Server (timed out)".into()),
                Some("end g3 #SENNICHITE +  draw -  draw 12 moves".into()),
            ]
        );
        assert_eq!(log.players(id), None);
    }

    #[test]
    fn players_are_kept_while_the_game_runs() {
        let mut log = ServerLog::new();
        log.line(&ServerEvent::GameStarted {
            game_id: "g".into(),
            black: "a".into(),
            white: "b".into(),
        });
        assert_eq!(log.players("g"), Some(("a", "b")));
    }
}
