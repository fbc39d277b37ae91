//! Matching waiting players and starting games: the `Game_Summary` each
//! player receives ([`spec::csa`](crate::spec::csa), *Game_Summary*, *Extended mode (x1)*).

use alloc::collections::VecDeque;
use alloc::format;
use alloc::string::{String, ToString};
use alloc::vec::Vec;

use super::*;

impl<I: Timestamp> Server<I> {
    // ---- matching ----------------------------------------------------------

    pub(super) fn wait_for_game(
        &mut self,
        conn: ConnId,
        gamename: String,
        pref: SidePreference,
        challenge: bool,
        now: I,
    ) {
        // Floodgate games: the server decides the sides, so the side must be
        // `*` (`spec/csa.md`, *Extended mode (x1)*). shogi-server answers this
        // error and leaves the player's status as it was; in CSA mode, where
        // `floodgate-...-B` becomes `%%GAME floodgate-... +`, the same.
        if crate::types::is_floodgate_game(&gamename) && pref != SidePreference::Any {
            let side = pref.as_char();
            return self.error(
                conn,
                &format!("You are not allowed to specify TEBAN {side} for the game {gamename}"),
            );
        }
        // A game a league schedules: wait for its pairing (shogi-server
        // looks for no rival for a Floodgate game; `%%CHALLENGE` finds none).
        if self.league_schedules(&gamename) {
            if challenge {
                return self.error(conn, &format!("can't find rival for {gamename}"));
            }
            return self.set_status(conn, Status::GameWaiting { gamename, pref });
        }
        // A rival waiting for the same game with a compatible side: the
        // lowest connection id.
        let rival = self
            .waiters(&gamename)
            .and_then(|w| w.first(pref, |c| c != conn));
        // A buoy game before its `%%SETBUOY` (or after it was used up or
        // deleted): both players wait; `%%SETBUOY` starts it
        // (`spec/csa.md`, *Extended mode (x1)*).
        let buoy_missing =
            super::x1::is_buoy_name(&gamename) && !self.buoys.contains_key(&gamename);
        match rival {
            Some(_) if buoy_missing => {
                self.set_status(conn, Status::GameWaiting { gamename, pref })
            }
            Some((other, other_pref)) => {
                // The newcomer is Black unless a preference says otherwise.
                let me_black = match (pref, other_pref) {
                    (SidePreference::Black, _) | (_, SidePreference::White) => true,
                    (SidePreference::White, _) | (_, SidePreference::Black) => false,
                    _ => true,
                };
                let (b, w) = if me_black {
                    (conn, other)
                } else {
                    (other, conn)
                };
                self.start_game(b, w, &gamename, now);
            }
            None if challenge => {
                self.error(conn, &format!("can't find rival for {gamename}"));
            }
            None => self.set_status(conn, Status::GameWaiting { gamename, pref }),
        }
    }

    pub(super) fn start_game(&mut self, black: ConnId, white: ConnId, gamename: &str, now: I) {
        let (max_moves, least) = (self.config.max_moves, self.config.least_time_per_move);
        self.start_game_with(black, white, gamename, now, max_moves, least);
    }

    /// Starts a game with its own `Max_Moves` and `Least_Time_Per_Move`
    /// (seconds): the `Game_Summary` to both players, both in its agree
    /// phase.
    pub(super) fn start_game_with(
        &mut self,
        black: ConnId,
        white: ConnId,
        gamename: &str,
        now: I,
        max_moves: u32,
        least_time_per_move: u64,
    ) {
        let gk = self.next_game;
        self.next_game += 1;
        let names = [self.name_of(black), self.name_of(white)];
        let unix = self.unix_at(now);
        let prefix = format!("{}+{gamename}+{}+{}", self.config.event, names[0], names[1]);
        // Unique ids: the same players and game name twice in one second
        // (short games, `--games N`) take the next free second.
        let stamp = match self.id_stamps.get(&prefix) {
            Some(&last) if last >= unix => last + 1,
            _ => unix,
        };
        // Swept when it doubled since the last sweep (entries older than
        // this second change no id), so a round of many games in one
        // second costs no sweep per game.
        if self.id_stamps.len() >= self.id_stamps_sweep_at {
            self.id_stamps.retain(|_, last| *last >= unix);
            self.id_stamps_sweep_at = (2 * self.id_stamps.len()).max(64);
        }
        // Local time, as shogi-server stamps its ids (and dates its record
        // directories).
        let local = stamp.saturating_add_signed(i64::from(self.config.utc_offset_secs));
        let (y, mo, d, h, mi, s) = civil(local);
        let id = format!("{prefix}+{y:04}{mo:02}{d:02}{h:02}{mi:02}{s:02}");
        self.id_stamps.insert(prefix, stamp);
        let tc = GameName::new(gamename)
            .ok()
            .and_then(|g| g.time_control().map(|(_, t)| t))
            .unwrap_or(crate::types::GameNameTime {
                total_sec: 1500,
                byoyomi_sec: 0,
                fischer: false,
            });
        let time = TimeControl {
            total_ms: u64::from(tc.total_sec) * 1000,
            byoyomi_ms: if tc.fischer {
                0
            } else {
                u64::from(tc.byoyomi_sec) * 1000
            },
            increment_ms: if tc.fischer {
                u64::from(tc.byoyomi_sec) * 1000
            } else {
                0
            },
            least_time_per_move_ms: least_time_per_move.saturating_mul(1000),
            delay_ms: self.config.delay.saturating_mul(1000),
            round_up: self.config.time_roundup,
        };
        // A handicap game name wins over the configured start position.
        let mut board = handicap::position(gamename)
            .or(self.config.initial_position)
            .map_or_else(GameBoard::startpos, GameBoard::new);
        let initial_csa = board.csa_text();
        let mut moves = Vec::new();
        if let Some(buoy) = self.buoys.get_mut(gamename) {
            for m in &buoy.moves {
                if board.play(m).is_ok() {
                    moves.push((*m, 1));
                }
            }
            buoy.count = buoy.count.saturating_sub(1);
            if buoy.count == 0 {
                self.buoys.remove(gamename);
            }
        }
        let setup_moves = moves.len();
        let game = Game {
            id: id.clone(),
            gamename: gamename.to_string(),
            players: [black, white],
            names,
            phase: Phase::Agree {
                agreed: [false, false],
                deadline: now.saturating_add(self.config.agree_timeout),
            },
            board,
            initial_csa,
            moves,
            clocks: [Clock::new(time), Clock::new(time)],
            time,
            deferred: [VecDeque::new(), VecDeque::new()],
            monitors: Vec::new(),
            monitors2: Vec::new(),
            setup_moves,
            notes: Vec::new(),
            start_unix: unix,
            record: None,
            max_moves,
            least_time_per_move,
            deadline: None,
        };
        let game = self.with_record(game);
        for (i, p) in [black, white].into_iter().enumerate() {
            let summary = self.summary_for(&game, Some(side_of(i)));
            let mut data = Vec::new();
            summary.encode(&mut data);
            self.send_bytes(p, data);
            self.set_status(p, Status::InGame(gk));
        }
        self.games.insert(gk, game);
        self.index_game_added(gk);
    }

    pub(super) fn summary_for(&self, g: &Game<I>, your_turn: Option<Side>) -> GameSummary {
        let t = |s: &str| Text::new(s.to_string()).ok();
        let mut position = PositionSection::default();
        for l in g.initial_csa.lines() {
            if l == "+" || l == "-" {
                position.side_to_move = Some(if l == "+" { Side::Black } else { Side::White });
            } else {
                let _ = position.push_line(l);
            }
        }
        position.moves = g
            .moves
            .iter()
            .map(|(m, t)| (*m, Some(MoveTime::from_secs(*t))))
            .collect();
        GameSummary {
            protocol_version: t("1.2"),
            protocol_mode: t("Server"),
            format: t("Shogi 1.0"),
            declaration: t("Jishogi 1.1"),
            game_id: GameId::new(g.id.clone()).ok(),
            name_black: t(&g.names[0]),
            name_white: t(&g.names[1]),
            your_turn,
            rematch_on_draw: Some(false),
            to_move: position.side_to_move,
            max_moves: Some(u64::from(g.max_moves)),
            time: Some(self.time_section(g, false)),
            position: Some(position),
            ..Default::default()
        }
    }

    pub(super) fn time_section(&self, g: &Game<I>, show: bool) -> TimeSection {
        let mut ts = TimeSection {
            time_unit: Some(TimeUnit::SECOND),
            total_time: Some(g.time.total_ms / 1000),
            byoyomi: Some(g.time.byoyomi_ms / 1000),
            increment: Some(g.time.increment_ms / 1000),
            least_time_per_move: Some(g.least_time_per_move),
            // Sent only when set: shogi-server never sends them, and absent
            // means 0 / NO.
            delay: (self.config.delay > 0).then_some(self.config.delay),
            time_roundup: self.config.time_roundup.then_some(true),
            ..Default::default()
        };
        if show {
            // The time on each clock as shogi-server shows it: the player
            // on move has not earned this turn's Fischer increment yet
            // (our clock credits it when the turn starts; shogi-server
            // adds it with the move).
            let mut remaining = [g.clocks[0].remaining_ms, g.clocks[1].remaining_ms];
            if let Phase::Play { .. } = g.phase {
                let i = idx(g.board.side_to_move());
                remaining[i] = remaining[i].saturating_sub(g.time.increment_ms);
            }
            ts.remaining_time_black = Some(remaining[0] / 1000);
            ts.remaining_time_white = Some(remaining[1] / 1000);
            // shogi-server's `Last_Move:` is empty before the first move.
            ts.last_move = match g.moves.last() {
                Some((m, t)) => Text::new(format!("{m},T{t}")).ok(),
                None => Text::new(String::new()).ok(),
            };
            ts.current_turn = Some(g.moves.len() as u64);
        }
        ts
    }
}

/// `+`/`-`/`*` preferences that can meet.
pub(super) fn compatible(a: SidePreference, b: SidePreference) -> bool {
    !matches!(
        (a, b),
        (SidePreference::Black, SidePreference::Black)
            | (SidePreference::White, SidePreference::White)
    )
}
