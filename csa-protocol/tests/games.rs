//! Server session + client sessions driven against each other in memory,
//! through complete games ending in every result kind our server produces:
//! #RESIGN (by %TORYO, by LOGOUT, by disconnect), #TIME_UP, #ILLEGAL_MOVE
//! (incl. the real uchifuzume of `uchifuzume-floodgate-2008.csa`, %CHUDAN,
//! an invalid %KACHI), #SENNICHITE, #OUTE_SENNICHITE, #JISHOGI, #MAX_MOVES;
//! plus rejection, the agree timeout, buoys, deferred moves and monitors.

use std::time::Duration;

use board_core::shogi::Position;
use csa_protocol::kifu::parse_kifu;
use csa_protocol::message::{EndReason, SpecialMove, X1Command, X1Reply};
use csa_protocol::session::{
    Client, ClientConfig, ClientState, CommandError, ConnId, Event, Outcome, Server, ServerConfig,
    ServerEvent,
};
use csa_protocol::types::*;

struct Net {
    server: Server<Duration>,
    clients: Vec<(ConnId, Client<Duration>)>,
    events: Vec<Vec<Event>>,
    /// Lines received by each client, as text.
    received: Vec<Vec<String>>,
    /// Extra raw connections (observers) and what they received.
    raw: Vec<(ConnId, Vec<String>)>,
    /// Simulated time since the start of the test: the sessions take any
    /// monotonic time stamp, and `Duration` is the one `no_std` users have.
    now: Duration,
}

fn cfg(name: &str, password: &str, x1: bool, game: Option<(&str, SidePreference)>) -> ClientConfig {
    let mut c = ClientConfig::new(
        UserName::new(name.to_string()).unwrap(),
        Password::new(password.to_string()).unwrap(),
    );
    c.x1 = x1;
    c.game = game.map(|(g, s)| (GameName::new(g.to_string()).unwrap(), s));
    c
}

impl Net {
    fn new(config: ServerConfig) -> Self {
        let now = Duration::ZERO;
        Net {
            server: Server::new(config, now, 1_795_964_195),
            clients: Vec::new(),
            events: Vec::new(),
            received: Vec::new(),
            raw: Vec::new(),
            now,
        }
    }

    fn conn(&mut self) -> ConnId {
        let id = ConnId((self.clients.len() + self.raw.len()) as u64 + 1);
        self.server.handle_connect(id, self.now);
        id
    }

    fn add(&mut self, c: ClientConfig) -> usize {
        let id = self.conn();
        self.clients.push((id, Client::new(c, self.now)));
        self.events.push(Vec::new());
        self.received.push(Vec::new());
        self.pump();
        self.clients.len() - 1
    }

    fn add_raw(&mut self) -> usize {
        let id = self.conn();
        self.raw.push((id, Vec::new()));
        self.raw.len() - 1
    }

    fn raw_send(&mut self, i: usize, line: &str) {
        let id = self.raw[i].0;
        self.server
            .handle_input(id, format!("{line}\n").as_bytes(), self.now);
        self.pump();
    }

    fn advance(&mut self, d: Duration) {
        self.now += d;
        if self.server.poll_timeout().is_some_and(|t| t <= self.now) {
            self.server.handle_timeout(self.now);
        }
        self.pump();
    }

    fn pump(&mut self) {
        loop {
            let mut progress = false;
            for (id, c) in &mut self.clients {
                while let Some(bytes) = c.poll_transmit() {
                    progress = true;
                    self.server.handle_input(*id, bytes.as_bytes(), self.now);
                }
            }
            while let Some((conn, t)) = self.server.poll_transmit() {
                progress = true;
                let data = t.as_bytes();
                if let Some(i) = self.clients.iter().position(|(id, _)| *id == conn) {
                    let text = String::from_utf8(data.to_vec()).unwrap();
                    self.received[i].extend(text.lines().map(String::from));
                    self.clients[i].1.handle_input(data, self.now);
                    if t.closes() {
                        self.clients[i].1.handle_close(self.now);
                    }
                } else if let Some(r) = self.raw.iter_mut().find(|(id, _)| *id == conn) {
                    r.1.extend(
                        String::from_utf8(data.to_vec())
                            .unwrap()
                            .lines()
                            .map(String::from),
                    );
                }
            }
            for (i, (_, c)) in self.clients.iter_mut().enumerate() {
                while let Some(e) = c.poll_event() {
                    progress = true;
                    if matches!(e, Event::GameSummary(_)) {
                        c.agree(self.now).unwrap();
                    }
                    self.events[i].push(e);
                }
            }
            if !progress {
                return;
            }
        }
    }

    fn client(&mut self, i: usize) -> &mut Client<Duration> {
        &mut self.clients[i].1
    }

    /// Client `i` acts now (the command must succeed); then [`pump`](Self::pump).
    fn act<E: std::fmt::Debug>(
        &mut self,
        i: usize,
        command: impl FnOnce(&mut Client<Duration>, Duration) -> Result<(), E>,
    ) {
        let now = self.now;
        command(self.client(i), now).unwrap();
        self.pump();
    }

    /// The last `n` lines client `i` received.
    fn last(&self, i: usize, n: usize) -> &[String] {
        &self.received[i][self.received[i].len() - n..]
    }

    /// Plays a USI move for client `i` (converted to CSA on its board).
    fn play_usi(&mut self, i: usize, usi: &str) {
        let now = self.now;
        let c = self.client(i);
        let pos = *c.position().unwrap();
        let mv = pos.usi_to_csa(usi).unwrap();
        let mv = csa_protocol::convert::to_board_move(&pos, &mv).unwrap();
        c.send_move(mv, now).unwrap();
        self.pump();
    }

    fn game_over(&self, i: usize) -> Option<(EndReason, Outcome)> {
        self.events[i].iter().rev().find_map(|e| match e {
            Event::GameEnded(end) => Some((end.reason?, end.outcome)),
            _ => None,
        })
    }
}

/// Two x1 clients matched on `game` (black asks for `+`).
fn x1_pair(config: ServerConfig, game: &str) -> Net {
    let mut net = Net::new(config);
    net.add(cfg(
        "sente",
        "pw",
        true,
        Some((game, SidePreference::Black)),
    ));
    net.add(cfg("gote", "pw", true, Some((game, SidePreference::White))));
    assert_eq!(net.client(0).state(), ClientState::Game);
    assert_eq!(net.client(1).state(), ClientState::Game);
    net
}

#[test]
fn resign_in_csa_mode_and_the_server_closes_both() {
    let mut net = Net::new(ServerConfig::default());
    net.add(cfg("dave", "g-300-0", false, None));
    net.add(cfg("erin", "g-300-0,secret", false, None));
    // The later arrival is Black when nobody asked for a side.
    assert_eq!(net.client(1).side(), Some(Side::Black));
    assert!(net.events[1].iter().any(
        |e| matches!(e, Event::OurTurn { remaining: Some(r), .. } if *r == Duration::from_secs(300))
    ));
    net.advance(Duration::from_millis(2500));
    net.play_usi(1, "7g7f");
    assert_eq!(net.received[0].last().unwrap(), "+7776FU,T2");
    assert_eq!(
        net.client(0).remaining(Side::Black),
        Some(Duration::from_secs(298))
    );
    net.play_usi(0, "3c3d");
    net.play_usi(1, "8h2b+");
    assert_eq!(net.received[0].last().unwrap(), "+8822UM,T0");
    net.act(0, |c, now| c.resign(now));
    assert_eq!(net.last(0, 3), ["%TORYO", "#RESIGN", "#LOSE"]);
    assert_eq!(net.last(1, 3), ["%TORYO", "#RESIGN", "#WIN"]);
    assert_eq!(net.game_over(0), Some((EndReason::Resign, Outcome::Lost)));
    assert_eq!(net.game_over(1), Some((EndReason::Resign, Outcome::Won)));
    assert_eq!(net.client(0).state(), ClientState::Disconnected);
    assert_eq!(net.client(1).state(), ClientState::Disconnected);
    let ended = std::iter::from_fn(|| net.server.poll_event())
        .find(|e| matches!(e, ServerEvent::GameEnded { .. }));
    assert_eq!(
        ended,
        Some(ServerEvent::GameEnded {
            game_id: net
                .client(0)
                .summary()
                .unwrap()
                .game_id
                .as_ref()
                .unwrap()
                .to_string(),
            reason: EndReason::Resign,
            winner: Some(Side::Black),
            moves: 3
        })
    );
}

#[test]
fn time_up_with_byoyomi_and_increment() {
    // 10 s + 5 s byoyomi: Black may think 15 s, not more.
    let mut net = x1_pair(ServerConfig::default(), "blitz-10-5");
    net.advance(Duration::from_millis(14_900));
    assert_eq!(net.game_over(0), None);
    net.advance(Duration::from_millis(200));
    assert_eq!(net.game_over(0), Some((EndReason::TimeUp, Outcome::Lost)));
    assert_eq!(net.game_over(1), Some((EndReason::TimeUp, Outcome::Won)));
    // x1 players return to `connected`.
    assert_eq!(net.client(0).state(), ClientState::Connected);

    // Fischer: 10 s + 3 s per move (`F`), added before each turn.
    let mut net = x1_pair(ServerConfig::default(), "fischer-10-3F");
    let s = net.client(0).summary().unwrap().time.clone().unwrap();
    assert_eq!(
        (s.total_time, s.byoyomi, s.increment),
        (Some(10), Some(0), Some(3))
    );
    net.advance(Duration::from_secs(12));
    net.play_usi(0, "7g7f");
    assert_eq!(net.received[1].last().unwrap(), "+7776FU,T12");
    assert_eq!(
        net.client(1).remaining(Side::Black),
        Some(Duration::from_secs(1))
    );
    assert_eq!(
        net.client(1).remaining(Side::White),
        Some(Duration::from_secs(13))
    );
    net.advance(Duration::from_millis(13_100));
    assert_eq!(net.game_over(1), Some((EndReason::TimeUp, Outcome::Lost)));
}

#[test]
fn delay_and_time_roundup_are_announced_and_applied() {
    // `Delay` (CSA protocol 1.2) and `Time_Roundup`: the first 3 s of each
    // turn are free, partial seconds are charged as whole ones.
    let config = ServerConfig {
        delay: 3,
        time_roundup: true,
        ..Default::default()
    };
    let mut net = x1_pair(config, "delayed-10-0");
    for i in 0..2 {
        let lines = &net.received[i];
        let begin = lines.iter().position(|l| l == "BEGIN Time").unwrap();
        let end = lines.iter().position(|l| l == "END Time").unwrap();
        let block = &lines[begin..=end];
        assert!(block.contains(&"Delay:3".to_string()), "{block:?}");
        assert!(block.contains(&"Time_Roundup:YES".to_string()), "{block:?}");
    }
    // The clients read both: 3 s delay + 10 s.
    assert_eq!(
        net.client(1).allowance(Side::Black),
        Some(Duration::from_secs(13))
    );
    net.advance(Duration::from_millis(2_500));
    net.play_usi(0, "7g7f");
    assert_eq!(net.received[1].last().unwrap(), "+7776FU,T0");
    net.advance(Duration::from_millis(4_200));
    net.play_usi(1, "3c3d");
    // 4.2 s - 3 s delay = 1.2 s, rounded up.
    assert_eq!(net.received[0].last().unwrap(), "-3334FU,T2");
    assert_eq!(
        net.client(0).remaining(Side::White),
        Some(Duration::from_secs(8))
    );
    // White may now think 3 + 8 s, and loses just after.
    net.play_usi(0, "2g2f");
    net.advance(Duration::from_millis(10_900));
    assert_eq!(net.game_over(1), None);
    net.advance(Duration::from_millis(200));
    assert_eq!(net.game_over(1), Some((EndReason::TimeUp, Outcome::Lost)));
}

#[test]
fn illegal_moves_lose() {
    for (line, who) in [
        ("+7775FU", 0), // a pawn moving two squares
        ("-3334FU", 0), // Black sending White's sign
        ("+2726KI", 0), // the piece named is not the piece there
        ("+7776XX", 0), // notation error
        ("%CHUDAN", 0), // shogi-server treats %CHUDAN as illegal
        ("%KACHI", 0),  // declaration not valid here
    ] {
        let mut net = x1_pair(ServerConfig::default(), "t-300-0");
        net.act(who, |c, now| c.send_raw_line(line.as_bytes(), now));
        assert_eq!(
            net.game_over(0),
            Some((EndReason::IllegalMove, Outcome::Lost)),
            "{line}"
        );
        assert_eq!(
            net.game_over(1),
            Some((EndReason::IllegalMove, Outcome::Won)),
            "{line}"
        );
    }
}

#[test]
fn real_uchifuzume_is_rejected_by_the_server() {
    // The 103 moves of the Floodgate record as a buoy, then the drop the
    // real server rejected: -0064FU (pawn-drop mate).
    let data = boardwire_vectors::data::KIFU_UCHIFUZUME;
    let records = parse_kifu(data).unwrap();
    let moves: Vec<CsaMove> = records[0].moves().iter().map(|m| m.mv).collect();
    assert_eq!(moves.len(), 103);
    let mut net = Net::new(ServerConfig::default());
    let setter = net.add(cfg("setter", "pw", true, None));
    let now = net.now;
    net.client(setter)
        .x1_command(
            X1Command::SetBuoy {
                name: GameName::new("buoy_uchi-600-0").unwrap(),
                moves: BuoyMoves::new(&moves).unwrap(),
                count: None,
            },
            now,
        )
        .unwrap();
    net.pump();
    assert!(net.received[setter].contains(&"##[SETBUOY] +OK".to_string()));
    let b = net.add(cfg(
        "usapyon",
        "pw",
        true,
        Some(("buoy_uchi-600-0", SidePreference::Black)),
    ));
    let w = net.add(cfg(
        "kshogi",
        "pw",
        true,
        Some(("buoy_uchi-600-0", SidePreference::White)),
    ));
    let s = net.client(w).summary().unwrap().clone();
    let p = s.position.as_ref().unwrap();
    assert_eq!(p.moves.len(), 103);
    assert!(
        p.moves
            .iter()
            .all(|(_, t)| *t == Some(MoveTime::from_secs(1))),
        "buoy moves are charged T1"
    );
    assert!(net.client(w).is_our_turn());
    // The buoy was used up (count 1).
    let now = net.now;
    net.client(setter)
        .x1_command(
            X1Command::GetBuoyCount(GameName::new("buoy_uchi-600-0").unwrap()),
            now,
        )
        .unwrap();
    net.pump();
    assert!(net.received[setter].contains(&"##[GETBUOYCOUNT] -1".to_string()));
    // Our own client refuses the move...
    let drop = CsaMove::parse(b"-0064FU").unwrap();
    let pos = *net.client(w).position().unwrap();
    assert!(csa_protocol::convert::to_board_move(&pos, &drop).is_err());
    // ...and the server rejects it when sent anyway.
    net.client(w).send_raw_line(b"-0064FU", now).unwrap();
    net.pump();
    assert_eq!(
        net.game_over(w),
        Some((EndReason::IllegalMove, Outcome::Lost))
    );
    assert_eq!(
        net.game_over(b),
        Some((EndReason::IllegalMove, Outcome::Won))
    );
}

#[test]
fn sennichite_is_a_draw() {
    let mut net = x1_pair(ServerConfig::default(), "rep-300-0");
    for _ in 0..3 {
        for (i, m) in [(0, "2h3h"), (1, "8b7b"), (0, "3h2h"), (1, "7b8b")] {
            net.play_usi(i, m);
        }
    }
    assert_eq!(
        net.game_over(0),
        Some((EndReason::Sennichite, Outcome::Drawn))
    );
    assert_eq!(
        net.game_over(1),
        Some((EndReason::Sennichite, Outcome::Drawn))
    );
    assert_eq!(net.last(0, 3), ["-7282HI,T0", "#SENNICHITE", "#DRAW"]);
}

/// White king 5a, Black rook 6h, Black king 9i: the rook can check the
/// king back and forth between files 5 and 4.
const PERPETUAL: &str = "P1 *  *  *  * -OU *  *  *  * 
P2 *  *  *  *  *  *  *  *  * 
P3 *  *  *  *  *  *  *  *  * 
P4 *  *  *  *  *  *  *  *  * 
P5 *  *  *  *  *  *  *  *  * 
P6 *  *  *  *  *  *  *  *  * 
P7 *  *  *  *  *  *  *  *  * 
P8 *  *  * +HI *  *  *  *  * 
P9+OU *  *  *  *  *  *  *  * 
+
";

#[test]
fn perpetual_check_loses() {
    let config = ServerConfig {
        initial_position: Some(Position::from_csa(PERPETUAL.as_bytes()).unwrap()),
        ..Default::default()
    };
    let mut net = x1_pair(config, "oute-300-0");
    // The Game_Summary carries the set position.
    let lines: Vec<String> = net
        .client(1)
        .summary()
        .unwrap()
        .position
        .as_ref()
        .unwrap()
        .lines()
        .map(String::from)
        .collect();
    assert_eq!(lines[0], "P1 *  *  *  * -OU *  *  *  * ");
    net.play_usi(0, "6h5h");
    for _ in 0..3 {
        for (i, m) in [(1, "5a4a"), (0, "5h4h"), (1, "4a5a"), (0, "4h5h")] {
            net.play_usi(i, m);
        }
    }
    assert_eq!(
        net.game_over(0),
        Some((EndReason::OuteSennichite, Outcome::Lost))
    );
    assert_eq!(
        net.game_over(1),
        Some((EndReason::OuteSennichite, Outcome::Won))
    );
}

/// Black king 1b in the enemy camp with 10 pieces there (2 rooks, 2
/// bishops: 20 points; 4 golds, 2 silvers: 6) and 2 pawns in hand: 28.
const KACHI: &str = "P1 *  *  *  *  *  *  *  *  * 
P2+GI+GI *  *  *  *  *  * +OU
P3+HI+HI+KA+KA+KI+KI+KI+KI * 
P4 *  *  *  *  *  *  *  *  * 
P5 *  *  *  *  *  *  *  *  * 
P6 *  *  *  *  *  *  *  *  * 
P7 *  *  *  *  *  *  *  *  * 
P8 *  *  *  *  *  *  *  *  * 
P9 *  *  *  * -OU *  *  *  * 
P+00FU00FU
+
";

#[test]
fn valid_declaration_wins_by_jishogi() {
    let config = ServerConfig {
        initial_position: Some(Position::from_csa(KACHI.as_bytes()).unwrap()),
        ..Default::default()
    };
    let mut net = x1_pair(config, "kachi-300-0");
    net.act(0, |c, now| c.declare_win(now));
    // spec/csa.md, *Results* (observed 2026-12-01): `%KACHI,T0`,
    // `%KACHI`, `#JISHOGI`, then the outcome.
    assert_eq!(net.last(1, 4), ["%KACHI,T0", "%KACHI", "#JISHOGI", "#LOSE"]);
    assert_eq!(net.game_over(0), Some((EndReason::Jishogi, Outcome::Won)));
}

#[test]
fn max_moves_is_censored() {
    let config = ServerConfig {
        max_moves: 4,
        ..Default::default()
    };
    let mut net = x1_pair(config, "short-300-0");
    assert_eq!(net.client(0).summary().unwrap().max_moves, Some(4));
    for (i, m) in [(0, "7g7f"), (1, "3c3d"), (0, "2g2f"), (1, "4c4d")] {
        net.play_usi(i, m);
    }
    assert_eq!(net.last(0, 3), ["-4344FU,T0", "#MAX_MOVES", "#CENSORED"]);
    assert_eq!(
        net.game_over(1),
        Some((EndReason::MaxMoves, Outcome::Unknown))
    );
}

#[test]
fn disconnect_and_logout_lose_at_once() {
    // Disconnect while the opponent is on move (shogi-server would wait).
    let mut net = x1_pair(ServerConfig::default(), "d-300-0");
    net.play_usi(0, "7g7f");
    let black = net.clients[0].0;
    let now = net.now;
    net.server.handle_close(black, now);
    net.pump();
    assert_eq!(net.last(1, 3), ["%TORYO", "#RESIGN", "#WIN"]);
    // LOGOUT during a game counts as resigning.
    let mut net = x1_pair(ServerConfig::default(), "l-300-0");
    net.act(1, |c, now| c.logout(now));
    assert_eq!(
        net.last(1, 4),
        ["LOGOUT:completed", "%TORYO", "#RESIGN", "#LOSE"]
    );
    assert_eq!(net.game_over(0), Some((EndReason::Resign, Outcome::Won)));
}

#[test]
fn out_of_turn_moves_are_deferred_and_retransmissions_ignored() {
    let mut net = x1_pair(ServerConfig::default(), "df-300-0");
    net.act(1, |c, now| c.send_raw_line(b"-3334FU", now));
    let id = net.client(0).summary().unwrap().game_id.clone().unwrap();
    assert_eq!(
        net.received[0].last().unwrap(),
        &format!("START:{id}"),
        "nothing sent to Black yet"
    );
    net.play_usi(0, "7g7f");
    // White's held move is played right after Black's.
    assert_eq!(net.last(0, 2), ["+7776FU,T0", "-3334FU,T0"]);
    // Black moves, then repeats the same line while White is on move: a
    // retransmission, ignored (not held for Black's next turn).
    net.play_usi(0, "2g2f");
    net.act(0, |c, now| c.send_raw_line(b"+2726FU", now)); // retransmission, ignored
    net.play_usi(1, "8c8d");
    assert_eq!(net.received[1].last().unwrap(), "-8384FU,T0");
    assert_eq!(net.game_over(0), None);
    assert!(net.client(0).is_our_turn());
}

#[test]
fn reject_and_agree_timeout() {
    let mut net = Net::new(ServerConfig::default());
    // A client that rejects: use a raw connection for White.
    net.add(cfg(
        "a",
        "pw",
        true,
        Some(("r-300-0", SidePreference::Black)),
    ));
    let r = net.add_raw();
    net.raw_send(r, "LOGIN b pw x1");
    net.raw_send(r, "%%GAME r-300-0 -");
    assert!(net.raw[r].1.contains(&"END Game_Summary".to_string()));
    net.raw_send(r, "REJECT");
    let id = net.client(0).summary().unwrap().game_id.clone().unwrap();
    assert!(net.received[0].contains(&format!("REJECT:{id} by b")));
    let rejected = |net: &mut Net| {
        std::iter::from_fn(|| net.server.poll_event())
            .filter_map(|e| match e {
                ServerEvent::GameRejected { game_id, by } => Some((game_id, by)),
                _ => None,
            })
            .collect::<Vec<_>>()
    };
    assert_eq!(rejected(&mut net), [(id.to_string(), "b".to_string())]);
    assert_eq!(net.client(0).state(), ClientState::Connected);
    // Now nobody answers: the server gives up after 120 s.
    net.raw_send(r, "%%GAME r-300-0 -");
    let now = net.now;
    net.client(0)
        .request_game(
            GameName::new("r-300-0").unwrap(),
            SidePreference::Black,
            now,
        )
        .unwrap();
    net.pump();
    // Our client agreed automatically; the raw one does not.
    net.advance(Duration::from_secs(119));
    assert!(
        !net.raw[r]
            .1
            .iter()
            .any(|l| l.ends_with("by the Server (timed out)"))
    );
    net.advance(Duration::from_secs(2));
    assert!(
        net.raw[r]
            .1
            .last()
            .unwrap()
            .ends_with(" by the Server (timed out)")
    );
    let id2 = net.client(0).summary().unwrap().game_id.clone().unwrap();
    assert_eq!(
        rejected(&mut net),
        [(id2.to_string(), "the Server (timed out)".to_string())]
    );
    assert_eq!(net.server.game_count(), 0);
}

#[test]
fn monitors_see_every_move_and_challenge_needs_a_rival() {
    let mut net = Net::new(ServerConfig::default());
    let o = net.add_raw();
    net.raw_send(o, "LOGIN observer pw x1");
    net.raw_send(o, "%%CHALLENGE m-300-0 +");
    assert_eq!(
        net.raw[o].1.last().unwrap(),
        "##[ERROR] can't find rival for m-300-0"
    );
    net.add(cfg(
        "s",
        "pw",
        true,
        Some(("m-300-0", SidePreference::Black)),
    ));
    net.add(cfg(
        "g",
        "pw",
        true,
        Some(("m-300-0", SidePreference::White)),
    ));
    let id = net.client(0).summary().unwrap().game_id.clone().unwrap();
    net.raw_send(o, &format!("%%MONITOR2ON {id}"));
    net.raw_send(o, &format!("%%MONITORON {id}"));
    net.play_usi(0, "7g7f");
    net.play_usi(1, "3c3d");
    let lines = &net.raw[o].1;
    let p2 = format!("##[MONITOR2][{id}] ");
    assert!(lines.contains(&format!("{p2}+7776FU")));
    assert!(lines.contains(&format!("{p2}-3334FU")));
    assert!(lines.contains(&format!("{p2}T0")));
    let p1 = format!("##[MONITOR][{id}] ");
    assert!(lines.contains(&format!("{p1}Last_Move:-3334FU,T0")));
    assert!(lines.contains(&format!("{p1}P3-FU-FU-FU-FU-FU-FU * -FU-FU")));
    // %%WHO shows no password hash.
    net.raw_send(o, "%%WHO");
    assert!(
        net.raw[o]
            .1
            .contains(&"##[WHO] s x1 game m-300-0 +".to_string())
    );
    assert!(
        net.raw[o]
            .1
            .contains(&"##[WHO] observer x1 connected".to_string())
    );
    net.act(0, |c, now| c.resign(now));
    assert_eq!(
        &net.raw[o].1[net.raw[o].1.len() - 2..],
        [format!("{p2}%TORYO"), format!("{p2}+OK")]
    );
}

#[test]
fn buoy_registry_follows_the_origin_document() {
    let mut net = Net::new(ServerConfig::default());
    let a = net.add_raw();
    let b = net.add_raw();
    net.raw_send(a, "LOGIN owner pw x1");
    net.raw_send(b, "LOGIN other pw x1");
    // Keep-alives: an empty line is echoed, a single space gets nothing.
    let before = net.raw[a].1.len();
    net.raw_send(a, "");
    net.raw_send(a, " ");
    assert_eq!(net.raw[a].1[before..], [String::new()]);
    for (who, line, reply) in [
        (
            a,
            "%%SETBUOY buoy_foo-1500-0 +7776FU-3334FU",
            "##[SETBUOY] +OK",
        ),
        (a, "%%GETBUOYCOUNT buoy_foo-1500-0", "##[GETBUOYCOUNT] +OK"),
        (
            b,
            "%%DELETEBUOY buoy_foo-1500-0",
            "##[ERROR] you are not allowed to delete a buoy game that you did not set: buoy_foo-1500-0",
        ),
        (a, "%%DELETEBUOY buoy_foo-1500-0", "##[DELETEBUOY] +OK"),
        (
            a,
            "%%DELETEBUOY hoge",
            "##[ERROR] buoy game not found: hoge",
        ),
        (
            a,
            "%%SETBUOY buoy_bad-300-0 +7775FU",
            "##[ERROR] wrong moves: +7775FU",
        ),
    ] {
        net.raw_send(who, line);
        let last = net
            .raw
            .iter()
            .find(|(id, _)| *id == net.raw[who].0)
            .unwrap()
            .1
            .last()
            .unwrap()
            .clone();
        assert_eq!(last, reply, "{line}");
    }
    assert!(net.raw[a].1.contains(&"##[GETBUOYCOUNT] 1".to_string()));
}

#[test]
fn confirmation_times_count_in_the_time_unit() {
    // `T` is a count of `Time_Unit`s: with `Time_Unit:1min`, `+7776FU,T3`
    // charges 3 minutes (CSA server protocol, Time block; ShogiLibSharp's
    // client reads it the same way).
    let mut c: Client<Duration> = Client::new(cfg("alice", "g-60-0", false, None), Duration::ZERO);
    let t = Duration::ZERO;
    c.handle_input(b"LOGIN:alice OK\n", t);
    c.handle_input(
        b"BEGIN Game_Summary\nProtocol_Version:1.2\nFormat:Shogi 1.0\nGame_ID:g1\n\
Name+:alice\nName-:bob\nYour_Turn:+\nTo_Move:+\nBEGIN Time\nTime_Unit:1min\n\
Total_Time:60\nByoyomi:1\nEND Time\nBEGIN Position\nPI\n+\nEND Position\nEND Game_Summary\n",
        t,
    );
    assert_eq!(c.state(), ClientState::AgreeWaiting);
    c.agree(t).unwrap();
    c.handle_input(b"START:g1\n", t);
    assert_eq!(c.allowance(Side::Black), Some(Duration::from_secs(61 * 60)));
    c.handle_input(b"+7776FU,T3\n-3334FU,T1.5\n", t);
    assert_eq!(c.remaining(Side::Black), Some(Duration::from_secs(57 * 60)));
    assert_eq!(
        c.remaining(Side::White),
        Some(Duration::from_secs(58 * 60 + 30))
    );
}

#[test]
fn rating_lists_every_rated_player_best_first_as_shogi_server() {
    // shogi-server's `RatingCommand` over `League#rated_players` (every
    // player of players.yaml, logged in or not): `"##[RATING] %s \t %4d
    // @%s"`, sorted by rate, highest first.
    let rating = |name: &str, rate| csa_protocol::session::server::Rating {
        name: UserName::new(name.to_string()).unwrap(),
        rate,
        // 2026-11-29 14:56:35 UTC
        updated_unix_secs: 1_795_964_195,
    };
    let config = ServerConfig {
        ratings: vec![
            rating("sente", 1700),
            rating("gote", 1850),
            rating("away", 2100),
        ],
        ..Default::default()
    };
    let mut net = x1_pair(config, "rated-300-0");
    net.act(0, |c, now| c.x1_command(X1Command::Rating, now));
    assert_eq!(
        *net.last(0, 4),
        [
            "##[RATING] away \t 2100 @2026-11-29",
            "##[RATING] gote \t 1850 @2026-11-29",
            "##[RATING] sente \t 1700 @2026-11-29",
            "##[RATING] +OK",
        ]
    );
    // Without ratings: `+OK` alone, as the recorded shogi-server answered.
    let mut net = x1_pair(ServerConfig::default(), "plain-300-0");
    net.act(1, |c, now| c.x1_command(X1Command::Rating, now));
    let lines = &net.received[1];
    assert_eq!(lines.last().unwrap(), "##[RATING] +OK");
    assert!(!lines[lines.len() - 2].starts_with("##[RATING]"));
}

#[test]
fn floodgate_games_need_side_star() {
    // Spec note spec/csa.md, *Extended mode (x1), shogi-server*:
    // `floodgate-` games, side must be `*`.
    // shogi-server's error text and behaviour (status unchanged).
    let mut net = Net::new(ServerConfig::default());
    let r = net.add_raw();
    net.raw_send(r, "LOGIN watcher pw x1");
    net.raw_send(r, "%%GAME floodgate-300-10F +");
    net.raw_send(r, "%%WHO");
    let lines = &net.raw[r].1;
    assert!(
        lines.contains(
            &"##[ERROR] You are not allowed to specify TEBAN + for the game floodgate-300-10F"
                .to_string()
        ),
        "{lines:?}"
    );
    assert!(
        lines.contains(&"##[WHO] watcher x1 connected".to_string()),
        "{lines:?}"
    );

    // CSA mode: `-B` is the same request, refused the same way; no game.
    let c = net.add(cfg("csa_b", "floodgate-300-10F-B", false, None));
    assert_eq!(
        net.received[c].last().unwrap(),
        "##[ERROR] You are not allowed to specify TEBAN + for the game floodgate-300-10F"
    );
    assert_eq!(net.server.game_count(), 0);

    // An x1 client refused this way asks again, with `*`.
    let x = net.add(cfg(
        "fx",
        "pw",
        true,
        Some(("floodgate-300-10F", SidePreference::Black)),
    ));
    assert!(
        net.events[x]
            .iter()
            .any(|e| matches!(e, Event::X1(X1Reply::Error(_))))
    );
    let now = net.now;
    let game = GameName::new("floodgate-600-0").unwrap();
    net.client(x)
        .request_game(game, SidePreference::Any, now)
        .unwrap();
    net.pump();
    assert_eq!(net.client(x).state(), ClientState::GameWaiting);
    net.raw_send(r, "%%GAME floodgate-600-0 *");
    assert_eq!(net.client(x).state(), ClientState::StartWaiting);
    net.raw_send(r, "AGREE");
    assert_eq!(net.client(x).state(), ClientState::Game);

    // With `*` two players are paired (at once: we have no Floodgate
    // schedule, a deliberate difference) and the server picks the sides.
    let a = net.add(cfg(
        "fa",
        "pw",
        true,
        Some(("floodgate-300-10F", SidePreference::Any)),
    ));
    let b = net.add(cfg(
        "fb",
        "pw",
        true,
        Some(("floodgate-300-10F", SidePreference::Any)),
    ));
    assert_eq!(net.client(a).state(), ClientState::Game);
    assert_eq!(net.client(b).state(), ClientState::Game);
    assert_ne!(net.client(a).side(), net.client(b).side());
}

/// A client that received a Game_Summary (`Max_Moves` as given, we play
/// `your_turn`) and `START:g1`.
fn started_client(max_moves: u32, your_turn: char) -> Client<Duration> {
    let mut c: Client<Duration> = Client::new(cfg("alice", "g-60-0", false, None), Duration::ZERO);
    let t = Duration::ZERO;
    c.handle_input(b"LOGIN:alice OK\n", t);
    let summary = format!(
        "BEGIN Game_Summary\nProtocol_Version:1.2\nGame_ID:g1\nName+:alice\nName-:bob\n\
Your_Turn:{your_turn}\nTo_Move:+\nMax_Moves:{max_moves}\nBEGIN Time\nTotal_Time:60\nEND Time\n\
BEGIN Position\nPI\n+\nEND Position\nEND Game_Summary\n"
    );
    c.handle_input(summary.as_bytes(), t);
    c.agree(t).unwrap();
    c.handle_input(b"START:g1\n", t);
    assert_eq!(c.state(), ClientState::Game);
    c
}

/// The board-core move a CSA move stands for on the client's position.
fn board_move(c: &Client<Duration>, csa: &str) -> board_core::shogi::Move {
    let pos = c.position().expect("a game");
    csa_protocol::convert::to_board_move(pos, &csa.parse().unwrap()).unwrap()
}

#[test]
fn one_move_per_turn_and_none_after_the_move_limit() {
    // docs/SHAPE.md, Sessions: a second move in one turn is `NotYourTurn`,
    // and `is_our_turn()` is false once our move is sent.
    let t = Duration::ZERO;
    let mut c = started_client(2, '+');
    assert!(c.is_our_turn());
    c.send_move(board_move(&c, "+7776FU"), t).unwrap();
    assert!(!c.is_our_turn());
    assert_eq!(
        c.send_move(board_move(&c, "+2726FU"), t),
        Err(csa_protocol::session::CommandError::NotYourTurn)
    );
    assert_eq!(
        c.special(SpecialMove::Toryo, t),
        Err(csa_protocol::session::CommandError::NotYourTurn)
    );
    let sent: Vec<Vec<u8>> = std::iter::from_fn(|| c.poll_transmit())
        .map(|t| t.into_bytes())
        .collect();
    assert_eq!(sent.last().unwrap(), b"+7776FU\n", "only one move went out");
    // The server confirms ours and the opponent's: with Max_Moves:2 the
    // limit is reached (spec/csa.md, *Game_Summary*: `Max_Moves`),
    // so it is not our turn again and no move is accepted.
    c.handle_input(b"+7776FU,T1\n-3334FU,T1\n", t);
    assert!(!c.is_our_turn());
    assert_eq!(
        c.send_move(board_move(&c, "+2726FU"), t),
        Err(csa_protocol::session::CommandError::MoveLimit)
    );
    let turns = std::iter::from_fn(|| c.poll_event())
        .filter(|e| matches!(e, Event::OurTurn { .. }))
        .count();
    assert_eq!(turns, 1, "OurTurn at move 1 only, not after the limit");
}

#[test]
fn game_ended_carries_the_game_before_it_is_cleared() {
    // spec/csa.md, *Results*: `#MAX_MOVES` then `#CENSORED`.
    let t = Duration::ZERO;
    let mut c = started_client(2, '-');
    c.handle_input(b"+7776FU,T1\n", t);
    c.send_move(board_move(&c, "-3334FU"), t).unwrap();
    c.handle_input(b"-3334FU,T0\n#MAX_MOVES\n#CENSORED\n", t);
    let ended = std::iter::from_fn(|| c.poll_event())
        .find_map(|e| match e {
            Event::GameEnded(end) => Some(end),
            _ => None,
        })
        .expect("GameEnded");
    assert_eq!(ended.outcome, Outcome::Unknown);
    assert_eq!(ended.reason, Some(EndReason::MaxMoves));
    assert_eq!(*ended.start, board_core::shogi::Position::startpos());
    let moves: Vec<String> = ended.moves.iter().map(|m| m.to_string()).collect();
    // Board-core moves (USI notation): +7776FU is 7g7f, -3334FU is 3c3d.
    assert_eq!(moves, ["7g7f", "3c3d"]);
    assert_eq!(ended.side, Some(Side::White));
    assert_eq!(ended.game_id.unwrap().as_str(), "g1");
    // CSA mode: back to game_waiting (the CSA protocol's state after a
    // game; shogi-server then closes the connection).
    assert_eq!(c.state(), ClientState::GameWaiting);
}

#[test]
fn a_login_reply_that_never_comes_is_peer_silent() {
    // docs/SHAPE.md, Sessions: the silence rule, `Event::PeerSilent`.
    let mut config = cfg("alice", "g-60-0", false, None);
    config.keep_alive = None;
    let mut c: Client<Duration> = Client::new(config, Duration::ZERO);
    let deadline = c.poll_timeout().unwrap();
    assert_eq!(deadline, Duration::from_secs(30));
    c.handle_timeout(deadline - Duration::from_millis(1));
    assert!(c.poll_event().is_none());
    c.handle_timeout(deadline);
    assert_eq!(
        c.poll_event(),
        Some(Event::PeerSilent {
            awaiting: csa_protocol::session::Awaited::LoginReply
        })
    );
    assert_eq!(c.poll_timeout(), None, "reported once");
}

#[test]
fn keep_alive_before_login_is_a_bad_login() {
    // spec/csa.md, *Transport and lexical rules*: before login an
    // empty line is answered `LOGIN:incorrect`; after login, with an empty
    // line; a single space with nothing.
    let mut net = Net::new(ServerConfig::default());
    let raw = net.add_raw();
    net.raw_send(raw, "");
    assert_eq!(net.raw[raw].1, ["LOGIN:incorrect"]);
    net.raw_send(raw, "LOGIN kai pw x1");
    net.raw_send(raw, "");
    net.raw_send(raw, " ");
    assert_eq!(
        net.raw[raw].1,
        ["LOGIN:incorrect", "LOGIN:kai OK", "##[LOGIN] +OK x1", ""]
    );
}

#[test]
fn an_unreadable_summary_position_is_reported_not_replaced_by_the_start_position() {
    // A Position block board-core refuses (a sente pawn put on square 11,
    // the last rank, where gote's lance stands;
    // spec/csa.md, *Game_Summary*: the Position block is a CSA
    // position): the client reports it and has no board.
    let t = Duration::ZERO;
    let mut c: Client<Duration> = Client::new(cfg("alice", "g-60-0", false, None), t);
    c.handle_input(b"LOGIN:alice OK\n", t);
    c.handle_input(
        b"BEGIN Game_Summary\nProtocol_Version:1.2\nGame_ID:g1\nName+:alice\nName-:bob\n\
Your_Turn:+\nTo_Move:+\nBEGIN Position\nPI\nP+11FU\n+\nEND Position\nEND Game_Summary\n",
        t,
    );
    let events: Vec<Event> = std::iter::from_fn(|| c.poll_event()).collect();
    assert!(
        events
            .iter()
            .any(|e| matches!(e, Event::BadStartPosition(_))),
        "{events:?}"
    );
    assert_eq!(c.position(), None);
    assert_eq!(c.start_position(), None);
}

#[test]
fn frame_errors_from_a_codec_are_reported_and_drop_an_open_summary_block() {
    // docs/SHAPE.md, Sessions and errors (second pass): what the codec
    // reported goes to handle_frame_error.
    use csa_protocol::error::FrameError;
    use csa_protocol::session::{ConnId, Server, ServerConfig};
    let t = Duration::ZERO;
    let mut c: Client<Duration> = Client::new(cfg("alice", "g-60-0", false, None), t);
    c.handle_input(
        b"LOGIN:alice OK\nBEGIN Game_Summary\nProtocol_Version:1.2\n",
        t,
    );
    let bad = csa_protocol::decode::<csa_protocol::ServerMessage>(b"START:").unwrap_err();
    c.handle_frame_error(&FrameError::Malformed(bad), t);
    c.handle_frame_error(
        &FrameError::Overlong {
            len: 9000,
            max: 8192,
        },
        t,
    );
    // The block was dropped: its END alone completes nothing.
    c.handle_input(b"END Game_Summary\n", t);
    let events: Vec<Event> = std::iter::from_fn(|| c.poll_event()).collect();
    assert!(events.contains(&Event::Malformed(bad)), "{events:?}");
    assert!(
        events.contains(&Event::Overlong { len: 9000 }),
        "{events:?}"
    );
    // Outside a block `END Game_Summary` is a stray line, not the end of a
    // (bad) summary.
    assert!(
        events.contains(&Event::Unrecognised(b"END Game_Summary".to_vec())),
        "{events:?}"
    );
    assert!(!events.iter().any(|e| matches!(e, Event::BadSummary(_))));
    assert_eq!(c.state(), ClientState::GameWaiting);

    // The server answers an over-long line as handle_input does.
    let mut s: Server<Duration> = Server::new(ServerConfig::default(), t, 0);
    s.handle_connect(ConnId(1), t);
    s.handle_frame_error(
        ConnId(1),
        &FrameError::Overlong {
            len: 9000,
            max: 8192,
        },
        t,
    );
    let (conn, out) = s.poll_transmit().expect("an answer");
    assert_eq!(conn, ConnId(1));
    assert!(
        out.as_bytes()
            .starts_with(b"##[ERROR] line too long: more than 8192 bytes"),
        "{:?}",
        String::from_utf8_lossy(out.as_bytes())
    );
}

#[test]
fn wrong_state_names_the_state_as_the_spec_does() {
    // spec/csa.md, *Extended mode (x1), shogi-server*: the states
    // `connected -> game_waiting -> agree_waiting -> start_waiting -> game`,
    // written so in shogi-server's "you are in <status> status" errors.
    let names = [
        (ClientState::Connected, "connected"),
        (ClientState::GameWaiting, "game_waiting"),
        (ClientState::AgreeWaiting, "agree_waiting"),
        (ClientState::StartWaiting, "start_waiting"),
        (ClientState::Game, "game"),
    ];
    for (state, name) in names {
        assert_eq!(
            CommandError::WrongState(state).to_string(),
            format!("not allowed in state {name}")
        );
    }
}
