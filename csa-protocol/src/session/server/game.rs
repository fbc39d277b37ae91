//! The agree phase and the game: moves, clocks, results
//! ([`spec::csa`](crate::spec::csa), *Agreement -> game*, *Moves*, *Results*, *Server-side legality*).

use alloc::format;
use alloc::string::{String, ToString};
use alloc::vec::Vec;
use core::fmt::Write as _;

use super::*;

impl<I: Timestamp> Server<I> {
    // ---- agree phase -------------------------------------------------------

    pub(super) fn agree(&mut self, conn: ConnId, gk: u64, now: I) {
        let Some(g) = self.games.get_mut(&gk) else {
            return;
        };
        let Some(i) = g.players.iter().position(|p| *p == conn) else {
            return;
        };
        let Phase::Agree { agreed, .. } = &mut g.phase else {
            return self.unknown(conn, b"AGREE");
        };
        agreed[i] = true;
        if agreed.iter().all(|a| *a) {
            g.phase = Phase::Play { turn_started: now };
            let side = g.board.side_to_move();
            g.clocks[idx(side)].start_turn();
            let msg = format!("START:{}", g.id);
            let players = g.players;
            let id = g.id.clone();
            let [black, white] = g.names.clone();
            for p in players {
                self.send_line(p, &msg);
            }
            self.events.push_back(ServerEvent::GameStarted {
                game_id: id,
                black,
                white,
            });
        }
    }

    pub(super) fn reject(&mut self, conn: ConnId, gk: u64) {
        let Some(g) = self.games.get(&gk) else { return };
        let name = self.name_of(conn);
        let msg = format!("REJECT:{} by {name}", g.id);
        let players = g.players;
        for p in players {
            self.send_line(p, &msg);
        }
        self.abandon_game(gk, name);
    }

    /// Removes a game that never started (rejected `by` a player or the
    /// server); players return to `connected` (x1) or are disconnected
    /// (CSA mode).
    pub(super) fn abandon_game(&mut self, gk: u64, by: String) {
        let Some(mut g) = self.games.remove(&gk) else {
            return;
        };
        self.index_game_removed(gk, &g);
        self.events.push_back(ServerEvent::GameRejected {
            game_id: g.id.clone(),
            by,
        });
        self.end_record(&mut g, None);
        for p in g.players {
            self.after_game(p);
        }
    }

    pub(super) fn after_game(&mut self, p: ConnId) {
        if self.is_x1(p) {
            self.set_status(p, Status::Connected);
        } else {
            self.set_status(p, Status::Connected);
            self.close(p);
        }
    }

    // ---- play ----------------------------------------------------------------

    pub(super) fn game_line(&mut self, conn: ConnId, gk: u64, line: &[u8], now: I) {
        let Some(g) = self.games.get_mut(&gk) else {
            return;
        };
        let Some(i) = g.players.iter().position(|p| *p == conn) else {
            return;
        };
        let Phase::Play { .. } = g.phase else {
            // Moves before START: held and played once the game starts
            // (shogi-server drops them without a word; README, *Remaining
            // differences*). Not noted in the record (shogi-server writes
            // nothing for them either).
            self.defer(conn, gk, i, line);
            return;
        };
        if g.board.side_to_move() != side_of(i) {
            // Out of turn: held and played when the turn comes, unless it
            // repeats the sender's previous move (a retransmission).
            let repeat = g
                .moves
                .iter()
                .rev()
                .find(|(m, _)| move_side(m) == side_of(i))
                .is_some_and(|(m, _)| m.to_string().as_bytes() == line);
            if !repeat && self.defer(conn, gk, i, line) {
                // shogi-server notes it in the record as it arrives.
                let mv = line.split(|&b| b == b',').next().unwrap_or(b"");
                let note = format!("Deferred {}", escape(mv));
                self.note(gk, note.as_bytes());
            }
            return;
        }
        self.play_line(gk, i, line, now);
        // The turn passed: play what the other side already sent.
        loop {
            let Some(g) = self.games.get_mut(&gk) else {
                return;
            };
            let Phase::Play { .. } = g.phase else { return };
            let j = idx(g.board.side_to_move());
            let Some(next) = g.deferred[j].pop_front() else {
                return;
            };
            self.play_line(gk, j, &next, now);
        }
    }

    /// Holds `line` of player `i` until its turn ([`MAX_DEFERRED_LINES`]
    /// at most; one more is answered with an error and dropped, the game
    /// goes on). `true` when it is held.
    fn defer(&mut self, conn: ConnId, gk: u64, i: usize, line: &[u8]) -> bool {
        let Some(g) = self.games.get_mut(&gk) else {
            return false;
        };
        if g.deferred[i].len() < MAX_DEFERRED_LINES {
            g.deferred[i].push_back(line.to_vec());
            true
        } else {
            let l = escape(line);
            self.error(
                conn,
                &format!("a move is already waiting for its turn: {l}"),
            );
            false
        }
    }

    pub(super) fn play_line(&mut self, gk: u64, i: usize, line: &[u8], now: I) {
        let side = side_of(i);
        let decoded = crate::decode::decode::<ClientMessage>(line);
        let Some(g) = self.games.get_mut(&gk) else {
            return;
        };
        let Phase::Play { turn_started } = g.phase else {
            return;
        };
        let elapsed = now.saturating_duration_since(turn_started);
        if super::time_up(&g.clocks[i], elapsed) {
            return self.finish(gk, &[], EndReason::TimeUp, Some(side.opponent()));
        }
        match decoded {
            Ok(ClientMessage::Special(SpecialMove::Toryo)) => {
                self.record_line(gk, "%TORYO");
                self.record_summary(gk, "toryo");
                self.finish(gk, &["%TORYO"], EndReason::Resign, Some(side.opponent()));
            }
            Ok(ClientMessage::Special(SpecialMove::Kachi)) => {
                // Observed from shogi-server, valid or not: `%KACHI,T<n>`,
                // `%KACHI`, then `#JISHOGI` or `#ILLEGAL_MOVE`
                // (`spec/csa.md`, *Results*).
                let valid = g.board.can_declare_win();
                let t = g.clocks[i].charge(elapsed);
                let echo = format!("%KACHI,T{t}");
                let (reason, winner) = if valid {
                    (EndReason::Jishogi, side)
                } else {
                    (EndReason::IllegalMove, side.opponent())
                };
                // shogi-server records the declaration as a move and its
                // time, then the result `%KACHI`.
                self.record_line(gk, "%KACHI");
                self.record_line(gk, &format!("T{t}"));
                self.record_line(gk, "%KACHI");
                self.record_summary(gk, if valid { "kachi" } else { "illegal kachi" });
                self.finish_owned(gk, &[echo, "%KACHI".into()], reason, Some(winner), None);
            }
            Ok(ClientMessage::Special(SpecialMove::Chudan)) => {
                // shogi-server treats %CHUDAN as an illegal move (`spec/csa.md`, *Moves*).
                self.record_illegal(gk, line, None);
                self.finish(gk, &[], EndReason::IllegalMove, Some(side.opponent()));
            }
            Ok(ClientMessage::Move { mv, comment }) if move_side(&mv) == side => {
                match g.board.play(&mv) {
                    Err(e) => {
                        self.record_illegal(gk, line, Some(&e.0));
                        self.finish(gk, &[], EndReason::IllegalMove, Some(side.opponent()));
                    }
                    Ok(outcome) => {
                        let t = g.clocks[i].charge(elapsed);
                        g.moves.push((mv, t));
                        let echo = format!("{mv},T{t}");
                        let players = g.players;
                        let monitors2 = g.monitors2.clone();
                        let id = g.id.clone();
                        let plies = g.moves.len();
                        let g_max_moves = g.max_moves;
                        g.phase = Phase::Play { turn_started: now };
                        let next = g.board.side_to_move();
                        g.clocks[idx(next)].start_turn();
                        for p in players {
                            self.send_line(p, &echo);
                        }
                        self.record_move(gk, mv, t);
                        for m in monitors2 {
                            let pre = format!("##[MONITOR2][{id}] ");
                            self.send_line(m, &format!("{pre}{mv}\n{pre}T{t}\n{pre}+OK"));
                        }
                        self.send_monitor1(gk);
                        match outcome {
                            PlayOutcome::Sennichite => {
                                self.finish(gk, &[], EndReason::Sennichite, None)
                            }
                            PlayOutcome::OuteSennichite { loser } => {
                                self.finish(
                                    gk,
                                    &[],
                                    EndReason::OuteSennichite,
                                    Some(loser.opponent()),
                                );
                            }
                            PlayOutcome::HistoryFull => {
                                self.finish(gk, &[], EndReason::MaxMoves, None)
                            }
                            PlayOutcome::Continue
                                if g_max_moves > 0 && plies >= g_max_moves as usize =>
                            {
                                self.finish(gk, &[], EndReason::MaxMoves, None);
                            }
                            PlayOutcome::Continue => {}
                        }
                        // A comment sent with a move that did not end the
                        // game: `'*` and the comment (shogi-server).
                        if let Some(c) = comment
                            && self.games.contains_key(&gk)
                        {
                            let mut note = alloc::vec![b'*'];
                            note.extend_from_slice(c.as_bytes());
                            self.note(gk, &note);
                        }
                    }
                }
            }
            // Wrong sign, malformed move, or anything else: illegal.
            _ => {
                self.record_illegal(gk, line, None);
                self.finish(gk, &[], EndReason::IllegalMove, Some(side.opponent()));
            }
        }
    }

    pub(super) fn finish(
        &mut self,
        gk: u64,
        pre: &[&str],
        reason: EndReason,
        winner: Option<Side>,
    ) {
        let pre: Vec<String> = pre.iter().map(|s| (*s).to_string()).collect();
        self.finish_owned(gk, &pre, reason, winner, None);
    }

    /// Ends a game: `pre` lines, the reason, then each player's outcome.
    /// `silent`: a player who left and gets no result lines.
    pub(super) fn finish_owned(
        &mut self,
        gk: u64,
        pre: &[String],
        reason: EndReason,
        winner: Option<Side>,
        silent: Option<ConnId>,
    ) {
        let Some(mut g) = self.games.remove(&gk) else {
            return;
        };
        self.index_game_removed(gk, &g);
        for (i, p) in g.players.into_iter().enumerate() {
            if Some(p) == silent || self.conns.get(&p).is_none_or(|c| c.closed) {
                continue;
            }
            let outcome = match (winner, reason) {
                (None, EndReason::MaxMoves) => "#CENSORED",
                (None, _) => "#DRAW",
                (Some(w), _) if w == side_of(i) => "#WIN",
                _ => "#LOSE",
            };
            let mut text = String::new();
            for l in pre {
                let _ = writeln!(text, "{l}");
            }
            let _ = write!(text, "{}\n{outcome}", reason.as_str());
            self.send_line(p, &text);
        }
        let special = match reason {
            EndReason::Resign => "%TORYO",
            EndReason::TimeUp => "%TIME_UP",
            EndReason::IllegalMove => "%ILLEGAL_MOVE",
            EndReason::Sennichite => "%SENNICHITE",
            EndReason::OuteSennichite => "%SENNICHITE",
            EndReason::Jishogi => "%KACHI",
            EndReason::MaxMoves => "%MAX_MOVES",
            _ => "%CHUDAN",
        };
        for m in &g.monitors2 {
            let pre = format!("##[MONITOR2][{}] ", g.id);
            self.send_line(*m, &format!("{pre}{special}\n{pre}+OK"));
        }
        self.events.push_back(ServerEvent::GameEnded {
            game_id: g.id.clone(),
            reason,
            winner,
            moves: g.moves.len(),
        });
        self.league_game_ended(&g, winner);
        self.end_record(&mut g, Some((reason, winner)));
        for p in g.players {
            if Some(p) != silent && self.conns.contains_key(&p) {
                self.after_game(p);
            }
        }
    }
}
