//! The standings page: one static HTML5 file like Floodgate's rating page
//! (shogi-server's `mk_html`), without JavaScript or external files.
//!
//! As mk_html: one table per rating group in group order, captioned
//! `Group: 0`, `Group: 1`, ..., `Group: Not-Yet-Rated Players` (999); the
//! players of a group by rate, highest first (players of rate 0 by last
//! game, latest first); a rate of 0 shown as `N/A`; wins and losses
//! truncated to integers; the win ratio `wins / (wins + losses)` with three
//! decimals; the last game as `on line` when less than 30 minutes before
//! `now`, otherwise its date (`YYYY-MM-DD`, in the zone it was written
//! in); players of group 999 whose last game is more than 30 days before
//! `now` left out. Added here: a rank column and, for each rated group, a
//! small inline SVG chart of rate against rank. mk_html's wdoor options,
//! tooltips and player links are not reproduced. Every text is escaped.
//!
//! Each row is `<tr class="player">` with cells of classes `rank`, `name`
//! (the player id in its `title`), `rate`, `win`, `loss`, `win_rate` and
//! `last_modified`, so that a program can read the page back.

use std::fmt::Write as _;

use crate::players::{PlayerEntry, Players, Stamp, UNRATED_GROUP};

/// Escapes text for HTML element content and quoted attribute values.
pub fn escape(s: &str) -> String {
    let mut out = String::with_capacity(s.len());
    for c in s.chars() {
        match c {
            '&' => out.push_str("&amp;"),
            '<' => out.push_str("&lt;"),
            '>' => out.push_str("&gt;"),
            '"' => out.push_str("&quot;"),
            '\'' => out.push_str("&#39;"),
            // Characters HTML does not allow in text, shown as U+FFFD.
            c if (c.is_control() && !matches!(c, '\t' | '\n')) => out.push('\u{fffd}'),
            c => out.push(c),
        }
    }
    out
}

/// mk_html's `show_date`.
fn show_date(t: &Option<Stamp>, now: &Stamp) -> String {
    match t {
        None => "-".into(),
        Some(t) => {
            if now.seconds_since(t) < 30.0 * 60.0 {
                "on line".into()
            } else {
                let (y, m, d) = t.local_date();
                format!("{y:04}-{m:02}-{d:02}")
            }
        }
    }
}

/// Ruby's `"%d" % float` (truncation toward zero).
fn int(x: f64) -> String {
    if x.is_finite() {
        format!("{}", x.trunc() as i64)
    } else {
        "-".into()
    }
}

/// A chart of rate against rank (rank 1 on the left).
fn chart(rows: &[&PlayerEntry], group: u32) -> String {
    const W: f64 = 480.0;
    const H: f64 = 160.0;
    const PAD: f64 = 24.0;
    let rates: Vec<i64> = rows.iter().map(|e| e.rate).collect();
    let (Some(&lo), Some(&hi)) = (rates.iter().min(), rates.iter().max()) else {
        return String::new();
    };
    let span = (hi - lo).max(1) as f64;
    let n = rows.len();
    let x = |i: usize| {
        if n <= 1 {
            W / 2.0
        } else {
            PAD + (W - 2.0 * PAD) * i as f64 / (n - 1) as f64
        }
    };
    let y = |r: i64| H - PAD - (H - 2.0 * PAD) * (r - lo) as f64 / span;
    let mut s = String::new();
    let _ = write!(
        s,
        "<svg class=\"chart\" width=\"{W}\" height=\"{H}\" viewBox=\"0 0 {W} {H}\" role=\"img\" aria-labelledby=\"chart-title-{group}\">\n<title id=\"chart-title-{group}\">Group {group}: rate against rank</title>\n"
    );
    let _ = writeln!(
        s,
        "<line x1=\"{PAD}\" y1=\"{b}\" x2=\"{r}\" y2=\"{b}\" stroke=\"#888\"/><line x1=\"{PAD}\" y1=\"{PAD}\" x2=\"{PAD}\" y2=\"{b}\" stroke=\"#888\"/>",
        b = H - PAD,
        r = W - PAD
    );
    let _ = writeln!(
        s,
        "<text x=\"2\" y=\"{:.1}\" font-size=\"10\">{hi}</text><text x=\"2\" y=\"{:.1}\" font-size=\"10\">{lo}</text>",
        PAD - 6.0,
        H - 4.0
    );
    let points: Vec<String> = rows
        .iter()
        .enumerate()
        .map(|(i, e)| format!("{:.1},{:.1}", x(i), y(e.rate)))
        .collect();
    let _ = writeln!(
        s,
        "<polyline fill=\"none\" stroke=\"#36c\" points=\"{}\"/>",
        points.join(" ")
    );
    for (i, e) in rows.iter().enumerate() {
        let _ = writeln!(
            s,
            "<circle cx=\"{:.1}\" cy=\"{:.1}\" r=\"3\" fill=\"#36c\"><title>{} {}</title></circle>",
            x(i),
            y(e.rate),
            i + 1,
            escape(&format!("{} {}", e.name, e.rate))
        );
    }
    s.push_str("</svg>\n");
    s
}

/// The standings page of `players` as of `now` (see the module docs).
/// `title` is the page's title and heading.
pub fn standings_html(players: &Players, now: &Stamp, title: &str) -> String {
    let mut groups: Vec<u32> = players.entries.iter().map(|e| e.rating_group).collect();
    groups.sort_unstable();
    groups.dedup();
    let mut out = String::new();
    let _ = write!(
        out,
        "<!DOCTYPE html>\n<html lang=\"en\">\n<head>\n<meta charset=\"utf-8\">\n<title>{t}</title>\n<style>\ntable {{ margin: 1em auto; border-collapse: collapse; }}\ncaption {{ font-weight: bold; }}\ntd, th {{ padding: 0.1em 0.6em; }}\n.rank, .rate, .win, .loss, .win_rate {{ text-align: right; }}\n.last_modified {{ text-align: center; }}\n.chart {{ display: block; margin: 0 auto; }}\nbody {{ font-family: sans-serif; text-align: center; }}\n</style>\n</head>\n<body>\n<h1>{t}</h1>\n",
        t = escape(title)
    );
    for g in groups {
        let mut rows: Vec<&PlayerEntry> = players
            .entries
            .iter()
            .filter(|e| e.rating_group == g)
            .filter(|e| {
                g != UNRATED_GROUP
                    || e.last_modified
                        .is_some_and(|t| now.seconds_since(&t) <= 30.0 * 86_400.0)
            })
            .collect();
        rows.sort_by(|a, b| {
            if a.rate == 0 && b.rate == 0 {
                let key = |e: &PlayerEntry| e.last_modified.map(|t| (t.unix_secs, t.nanos));
                key(b).cmp(&key(a))
            } else {
                b.rate.cmp(&a.rate)
            }
        });
        let caption = if g == UNRATED_GROUP {
            "Not-Yet-Rated Players".to_string()
        } else {
            g.to_string()
        };
        let _ = write!(
            out,
            "<section>\n<table class=\"group\" id=\"group-{g}\">\n<caption>Group: {}</caption>\n<thead>\n<tr><th>rank</th><th>name</th><th>rate</th><th>win</th><th>loss</th><th>&#37;</th><th>last game</th></tr>\n</thead>\n<tbody>\n",
            escape(&caption)
        );
        for (i, e) in rows.iter().enumerate() {
            let total = e.win + e.loss;
            let ratio = if total > 0.0 {
                format!("{:.3}", e.win / total)
            } else {
                "-".into()
            };
            let rate = if e.rate != 0 {
                e.rate.to_string()
            } else {
                "N/A".into()
            };
            let _ = writeln!(
                out,
                "<tr class=\"player\"><td class=\"rank\">{}</td><td class=\"name\" title=\"{}\">{}</td><td class=\"rate\">{}</td><td class=\"win\">{}</td><td class=\"loss\">{}</td><td class=\"win_rate\">{}</td><td class=\"last_modified\">{}</td></tr>",
                i + 1,
                escape(&e.player_id),
                escape(&e.name),
                rate,
                int(e.win),
                int(e.loss),
                ratio,
                escape(&show_date(&e.last_modified, now))
            );
        }
        out.push_str("</tbody>\n</table>\n");
        if g != UNRATED_GROUP && !rows.is_empty() {
            out.push_str(&chart(&rows, g));
        }
        out.push_str("</section>\n<hr>\n");
    }
    let _ = write!(
        out,
        "<p>Groups are independently rated. You can not compare rates across them.</p>\n<p>Last modified at {}</p>\n</body>\n</html>\n",
        escape(&now.to_yaml())
    );
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn escapes_every_text() {
        assert_eq!(
            escape("<a href=\"x\">&'"),
            "&lt;a href=&quot;x&quot;&gt;&amp;&#39;"
        );
        let now = Stamp {
            unix_secs: 1_000_000,
            nanos: 0,
            utc_offset_secs: 0,
        };
        let players = Players {
            entries: vec![PlayerEntry {
                player_id: "<b>+x".into(),
                name: "<b>".into(),
                rating_group: 0,
                rate: 1000,
                last_modified: Some(now),
                win: 3.9,
                loss: 1.2,
            }],
        };
        let page = standings_html(&players, &now, "T&T");
        assert!(!page.contains("<b>"));
        assert!(page.contains("<td class=\"name\" title=\"&lt;b&gt;+x\">&lt;b&gt;</td><td class=\"rate\">1000</td><td class=\"win\">3</td><td class=\"loss\">1</td><td class=\"win_rate\">0.765</td><td class=\"last_modified\">on line</td>"));
        assert!(page.contains("<title>T&amp;T</title>"));
        assert!(!page.contains("<script"));
    }
}
