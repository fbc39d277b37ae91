//! What watchers see: `%%SHOW`, `%%MONITORON` and `%%MONITOR2ON` output
//! (`docs/specs/csa.md`, *Extended mode (x1)*).

use alloc::format;
use alloc::string::String;
use alloc::vec::Vec;
use core::fmt::Write as _;

use super::*;

impl<I: Timestamp> Server<I> {
    /// The `%%SHOW` text: the game's summary with the current position and
    /// remaining times (`docs/specs/csa.md`, *Extended mode (x1)*).
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

    /// `%%MONITOR2ON` reply: the game record so far (CSA kifu V2 lines).
    pub(super) fn monitor2_record(&self, g: &Game<I>) -> String {
        let pre = format!("##[MONITOR2][{}] ", g.id);
        let (y, mo, d, h, mi, s) = civil(g.start_unix);
        let mut t = String::new();
        let _ = writeln!(t, "{pre}V2");
        let _ = writeln!(t, "{pre}N+{}", g.names[0]);
        let _ = writeln!(t, "{pre}N-{}", g.names[1]);
        let _ = writeln!(t, "{pre}'Max_Moves:{}", self.config.max_moves);
        let _ = writeln!(
            t,
            "{pre}'Least_Time_Per_Move:{}",
            self.config.least_time_per_move
        );
        let _ = writeln!(t, "{pre}$EVENT:{}", g.id);
        let _ = writeln!(
            t,
            "{pre}$START_TIME:{y:04}/{mo:02}/{d:02} {h:02}:{mi:02}:{s:02}"
        );
        for l in g.initial_csa.lines() {
            let _ = writeln!(t, "{pre}{l}");
        }
        // shogi-server's record has the players' rating ids here; ours
        // names only (no password hash leaves the server).
        let _ = writeln!(t, "{pre}'rating:{}:{}", g.names[0], g.names[1]);
        for (m, secs) in &g.moves {
            let _ = writeln!(t, "{pre}{m}");
            let _ = writeln!(t, "{pre}T{secs}");
        }
        let _ = write!(t, "{pre}+OK");
        t
    }
}
