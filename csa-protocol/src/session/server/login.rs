//! Logins and logouts ([`spec::csa`](crate::spec::csa), *Plain CSA mode*, *Extended mode (x1)*).

use alloc::format;
use alloc::string::{String, ToString};

use super::*;

impl<I: Timestamp> Server<I> {
    // ---- login / logout --------------------------------------------------

    pub(super) fn login(
        &mut self,
        conn: ConnId,
        name: &str,
        password: &str,
        x1: bool,
        line: &[u8],
        now: I,
    ) {
        // shogi-server (`login_loop`): a name already logged in may log in
        // again with the same password unless it is in a game; then the
        // new connection replaces the old. Otherwise the new one is
        // refused (`LOGIN:incorrect`, and `username <name> is already
        // connected` when the line has four words or more, as
        // shogi-server counts them) and closed 3 s later.
        let existing = self
            .conn_named(name)
            .filter(|id| *id != conn)
            .and_then(|id| self.conns.get(&id).map(|c| (id, c)))
            .map(|(id, c)| {
                let l = c.login.as_ref();
                (
                    id,
                    l.is_some_and(|l| l.password == password),
                    // shogi-server's `game` status: in play (an agree
                    // phase may be taken over; the game is rejected).
                    l.is_some_and(|l| match l.status {
                        Status::InGame(gk) => self
                            .games
                            .get(&gk)
                            .is_some_and(|g| matches!(g.phase, Phase::Play { .. })),
                        _ => false,
                    }),
                )
            });
        match existing {
            Some((_, true, false)) | None => {}
            Some(_) => {
                self.send_line(conn, "LOGIN:incorrect");
                if super::words(line).count() >= 4 {
                    self.send_line(conn, &format!("username {name} is already connected"));
                }
                let until = now.saturating_add(self.config.refused_login_close_after);
                if let Some(c) = self.conns.get_mut(&conn) {
                    c.refused_until = Some(until);
                }
                if self.refused.len() >= 2 * self.conns.len() + super::STALE_SLACK {
                    let conns = &self.conns;
                    self.refused.retain(|(t, id)| {
                        conns.get(id).is_some_and(|c| c.refused_until == Some(*t))
                    });
                }
                self.refused.push_back((until, conn));
                return;
            }
        }
        if let Some((old, true, false)) = existing {
            // The same player again, not in a game: the new connection
            // replaces the old (a waiting player stops waiting; a game in
            // its agree phase is rejected, `REJECT:<id> by <name>`).
            if let Status::InGame(gk) = self.status(old) {
                self.leave_game(old, gk, now, true);
            }
            self.close(old);
            self.conns.remove(&old);
        }
        if let Some(c) = self.conns.get_mut(&conn) {
            c.login = Some(Login {
                name: name.to_string(),
                password: password.to_string(),
                x1,
                status: Status::Connected,
                wait_seq: 0,
            });
            self.index_login(conn, name);
        }
        self.send_line(conn, &format!("LOGIN:{name} OK"));
        if x1 {
            self.send_line(conn, "##[LOGIN] +OK x1");
        } else {
            // CSA mode: the password names the game (`spec/csa.md`, *Plain CSA mode*).
            let (gamename, pref) = gamename_from_password(password);
            self.wait_for_game(conn, gamename, pref, false, now);
        }
    }

    pub(super) fn logout(&mut self, conn: ConnId, now: I) {
        self.send_line(conn, "LOGOUT:completed");
        if let Status::InGame(g) = self.status(conn) {
            self.leave_game(conn, g, now, true);
        }
        self.close(conn);
    }

    /// `conn` leaves game `g` (LOGOUT, disconnect, replaced login): in play it
    /// loses by resignation; in the agree phase the game is rejected.
    pub(super) fn leave_game(&mut self, conn: ConnId, gk: u64, _now: I, tell_leaver: bool) {
        let Some(g) = self.games.get(&gk) else { return };
        let Some(i) = g.players.iter().position(|p| *p == conn) else {
            return;
        };
        match g.phase {
            Phase::Agree { .. } => {
                let by = g.names[i].clone();
                let msg = format!("REJECT:{} by {by}", g.id);
                let other = g.players[1 - i];
                self.send_line(other, &msg);
                if tell_leaver {
                    self.send_line(conn, &msg);
                }
                self.abandon_game(gk, by);
            }
            Phase::Play { .. } => {
                let loser = side_of(i);
                let silent = if tell_leaver { None } else { Some(conn) };
                self.finish_owned(
                    gk,
                    &["%TORYO".into()],
                    EndReason::Resign,
                    Some(loser.opponent()),
                    silent,
                );
            }
        }
    }
}

/// CSA-mode password: `<gamename>`, `<gamename>-B|-W` (case-insensitive),
/// `<gamename>,<secret>`; anything else means `default-1500-0`.
pub(super) fn gamename_from_password(password: &str) -> (String, SidePreference) {
    let game = password.split(',').next().unwrap_or("");
    let (base, pref) = if let Some(b) = game.strip_suffix("-B").or_else(|| game.strip_suffix("-b"))
    {
        (b, SidePreference::Black)
    } else if let Some(w) = game.strip_suffix("-W").or_else(|| game.strip_suffix("-w")) {
        (w, SidePreference::White)
    } else {
        (game, SidePreference::Any)
    };
    match GameName::new(base) {
        Ok(g) if g.time_control().is_some() => (base.to_string(), pref),
        _ => ("default-1500-0".to_string(), pref),
    }
}
