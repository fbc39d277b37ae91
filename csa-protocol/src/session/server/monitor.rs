//! What watchers see: `%%SHOW`, `%%MONITORON` and `%%MONITOR2ON` output
//! ([`spec::csa`](crate::spec::csa), *Extended mode (x1)*).

use alloc::format;
use alloc::string::String;
use alloc::vec::Vec;

use super::*;

impl<I: Timestamp> Server<I> {
    /// The `%%SHOW` text: the game's summary with the current position and
    /// remaining times ([`spec::csa`](crate::spec::csa), *Extended mode (x1)*).
    pub(super) fn show_summary(&self, g: &Game<I>) -> GameSummary {
        let mut s = self.summary_for(g, None);
        s.time = Some(self.time_section(g, true));
        let mut position = PositionSection::default();
        for l in g.board.csa_text().lines() {
            if l == "+" || l == "-" {
                position.side_to_move = Some(if l == "+" { Side::Black } else { Side::White });
            } else {
                let _ = position.push_line(l);
            }
        }
        s.position = Some(position);
        s
    }

    pub(super) fn send_monitor1(&mut self, gk: u64) {
        let Some(g) = self.games.get(&gk) else { return };
        if g.monitors.is_empty() {
            return;
        }
        let pre = format!("##[MONITOR][{}] ", g.id);
        let mut data = Vec::new();
        self.show_summary(g)
            .encode_with_prefix(pre.as_bytes(), &mut data);
        data.extend_from_slice(pre.as_bytes());
        data.extend_from_slice(b"+OK\n");
        for m in g.monitors.clone() {
            self.send_bytes(m, data.clone());
        }
    }

    /// `%%MONITOR2ON` reply: the game record so far, as shogi-server sends
    /// its record file ([`spec::csa`](crate::spec::csa), *Extended mode (x1)*): the
    /// header (with `'Increment:` for Fischer games), the start position,
    /// the `'rating:` line (login names here, where shogi-server writes
    /// `<name>+<MD5 of the password>`; none when a player has no password),
    /// a buoy's set-up moves, then every move and its time with the
    /// comment lines between them (a move's `'*<comment>`, `'Deferred
    /// <move>`), each line prefixed `##[MONITOR2][<id>] `, then `+OK`.
    /// Comments are the bytes the players sent.
    pub(super) fn monitor2_record(&self, g: &Game<I>) -> Vec<u8> {
        let pre = format!("##[MONITOR2][{}] ", g.id);
        let mut t = Vec::with_capacity(1024);
        let line = |t: &mut Vec<u8>, bytes: &[u8]| {
            t.extend_from_slice(pre.as_bytes());
            t.extend_from_slice(bytes);
            t.push(b'\n');
        };
        let mut header = alloc::vec![
            String::from("V2"),
            format!("N+{}", g.names[0]),
            format!("N-{}", g.names[1]),
            format!("'Max_Moves:{}", g.max_moves),
            format!("'Least_Time_Per_Move:{}", g.least_time_per_move),
        ];
        if g.time.increment_ms > 0 {
            header.push(format!("'Increment:{}", g.time.increment_ms / 1000));
        }
        header.push(format!("$EVENT:{}", g.id));
        let start = super::record::local_time(g.start_unix, self.config.utc_offset_secs);
        header.push(format!("$START_TIME:{start}"));
        for l in &header {
            line(&mut t, l.as_bytes());
        }
        for l in g.initial_csa.lines() {
            line(&mut t, l.as_bytes());
        }
        // shogi-server's record has the players' rating ids here; ours
        // names only (no password hash leaves the server).
        if self.rating_id(g.players[0]).is_some() && self.rating_id(g.players[1]).is_some() {
            line(
                &mut t,
                format!("'rating:{}:{}", g.names[0], g.names[1]).as_bytes(),
            );
        }
        if g.setup_moves > 0 {
            let buoy = format!("'buoy game starting with {} moves", g.setup_moves);
            line(&mut t, buoy.as_bytes());
        }
        let mut notes = g.notes.iter().peekable();
        for k in 0..=g.moves.len() {
            while let Some((_, note)) = notes.next_if(|(at, _)| *at <= k) {
                let mut l = alloc::vec![b'\''];
                l.extend_from_slice(note);
                line(&mut t, &l);
            }
            if let Some((m, secs)) = g.moves.get(k) {
                line(&mut t, format!("{m}").as_bytes());
                line(&mut t, format!("T{secs}").as_bytes());
            }
        }
        t.extend_from_slice(pre.as_bytes());
        t.extend_from_slice(b"+OK\n");
        t
    }
}
