//! How cost grows (issue 28, item 6), behind the `charts` binary: board-core's
//! perft speed at every depth of the positions of `compare`'s table, and
//! the CSA server's throughput and move latency against the number of
//! games played at once, each drawn as an SVG chart (plotters' SVG
//! backend) with the data beside it as JSON.
//!
//! Every perft count is checked against the published count of its depth
//! (board-core's perft tables, `board-core/tests/data/perft-*.txt`, which
//! cite their sources); a count that differs is an error, never drawn.

use std::fmt::Write as _;
use std::time::Instant;

use plotters::prelude::*;

use crate::compare::{self, Case, Game, Runner as _};

/// A position whose perft speed is drawn at every depth from 1.
#[derive(Debug, Clone, Copy)]
pub struct Series {
    /// The game.
    pub game: Game,
    /// Its name in the legend.
    pub name: &'static str,
    /// PDN FEN, FEN or SFEN, exactly as in the perft table.
    pub position: &'static str,
    /// Deepest depth drawn.
    pub depth: u32,
    /// Deepest depth with `--quick`.
    pub quick_depth: u32,
}

const DRAUGHTS_TABLE: &str = include_str!("../../board-core/tests/data/perft-draughts.txt");
const CHESS_TABLE: &str = include_str!("../../board-core/tests/data/perft-chess.txt");
const SHOGI_TABLE: &str = include_str!("../../board-core/tests/data/perft-shogi.txt");

/// The positions of `compare`'s table, to the same depths.
pub const SERIES: &[Series] = &[
    series(Game::Draughts, "start", "W:W31-50:B1-20", 9, 6),
    series(
        Game::Draughts,
        "Woldouby",
        "W:B12,13,14,16,18,19,21,23,24,26:W25,27,28,30,32,33,34,35,37,38",
        15,
        10,
    ),
    series(
        Game::Draughts,
        "kings",
        "B:BK17,K24:W6,9,10,11,20,21,22,23,30,K31,33,37,41,42,43,44,46",
        8,
        4,
    ),
    series(
        Game::Chess,
        "start",
        "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1",
        6,
        4,
    ),
    series(
        Game::Chess,
        "Kiwipete",
        "r3k2r/p1ppqpb1/bn2pnp1/3PN3/1p2P3/2N2Q1p/PPPBBPPP/R3K2R w KQkq - 0 1",
        5,
        3,
    ),
    series(
        Game::Shogi,
        "start",
        "lnsgkgsnl/1r5b1/ppppppppp/9/9/9/PPPPPPPPP/1B5R1/LNSGKGSNL b - 1",
        5,
        3,
    ),
    series(
        Game::Shogi,
        "max593",
        "R8/2K1S1SSk/4B4/9/9/9/9/9/1L1L1L3 b RBGSNLP3g3n17p 1",
        3,
        2,
    ),
];

const fn series(
    game: Game,
    name: &'static str,
    position: &'static str,
    depth: u32,
    quick_depth: u32,
) -> Series {
    Series {
        game,
        name,
        position,
        depth,
        quick_depth,
    }
}

/// The published count of `position` at `depth` in a perft table
/// (`<position> ; D1 <n> ; D2 <n> …` lines, `#` comments).
pub fn published(table: &str, position: &str, depth: u32) -> Option<u64> {
    let line = table
        .lines()
        .filter(|l| !l.starts_with('#'))
        .find(|l| l.split(';').next().map(str::trim) == Some(position))?;
    let key = format!("D{depth}");
    line.split(';').skip(1).find_map(|f| {
        let mut w = f.split_whitespace();
        (w.next() == Some(key.as_str())).then(|| w.next()?.parse().ok())?
    })
}

fn table(game: Game) -> &'static str {
    match game {
        Game::Draughts => DRAUGHTS_TABLE,
        Game::Chess => CHESS_TABLE,
        Game::Shogi => SHOGI_TABLE,
    }
}

/// One measured depth.
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct Point {
    /// Plies.
    pub depth: u32,
    /// Leaves (checked against the published count).
    pub nodes: u64,
    /// Median seconds of one count.
    pub seconds: f64,
    /// Counts timed.
    pub runs: usize,
}

impl Point {
    /// Million leaves per second.
    pub fn mnps(&self) -> f64 {
        self.nodes as f64 / self.seconds / 1e6
    }
}

/// Times board-core's perft of `s` at every depth from 1 to `depth`: each
/// depth counted until `min_secs` have passed and at least 3 times
/// (at most 10,000), the median kept.
///
/// # Errors
/// The position does not read, the table has no count for a depth, or
/// a count differs from the published one.
pub fn measure(s: &Series, depth: u32, min_secs: f64) -> Result<Vec<Point>, String> {
    let mut points = Vec::new();
    for d in 1..=depth {
        let nodes = published(table(s.game), s.position, d).ok_or_else(|| {
            format!(
                "{} {}: no published count at depth {d}",
                s.game.name(),
                s.name
            )
        })?;
        let case = Case {
            game: s.game,
            name: s.name,
            position: s.position,
            depth: d,
            nodes,
        };
        let mut runner = compare::ours(&case)?;
        let mut times = Vec::new();
        let t = Instant::now();
        while times.len() < 3 || (t.elapsed().as_secs_f64() < min_secs && times.len() < 10_000) {
            let (n, secs) = runner.run()?;
            if n != nodes {
                return Err(format!(
                    "{} {} depth {d}: counted {n}, published {nodes}",
                    s.game.name(),
                    s.name
                ));
            }
            times.push(secs);
        }
        let seconds = compare::median(&times).unwrap_or(f64::NAN);
        points.push(Point {
            depth: d,
            nodes,
            seconds,
            runs: times.len(),
        });
    }
    Ok(points)
}

/// The CSA server at one number of games played at once.
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct LoadPoint {
    /// Games played at once (two clients each).
    pub games: usize,
    /// Moves confirmed per second over the play phase.
    pub moves_per_sec: f64,
    /// Move round trip p50, p99, max, microseconds.
    pub latency_us: [u64; 3],
}

fn draw_err<E: std::fmt::Display>(e: E) -> String {
    format!("drawing: {e}")
}

/// An SVG of `size` pixels (width, height): `title` on top, `note` in the
/// 50-pixel foot, the rest drawn by `body`.
fn framed_svg(
    size: (u32, u32),
    title: &str,
    note: &str,
    body: impl FnOnce(&DrawingArea<SVGBackend<'_>, plotters::coord::Shift>) -> Result<(), String>,
) -> Result<String, String> {
    let mut svg = String::new();
    {
        let root = SVGBackend::with_string(&mut svg, size).into_drawing_area();
        root.fill(&WHITE).map_err(draw_err)?;
        let root = root.titled(title, ("sans-serif", 18)).map_err(draw_err)?;
        let (area, foot) = root.split_vertically(size.1 - 50);
        foot.draw(&Text::new(note.to_owned(), (10, 10), ("sans-serif", 12)))
            .map_err(draw_err)?;
        body(&area)?;
        root.present().map_err(draw_err)?;
    }
    Ok(svg)
}

/// The perft chart: one panel per game, M leaves/s against depth, one
/// line per position. `note` goes under the title (the machine).
///
/// # Errors
/// plotters failed to lay out the chart.
pub fn perft_svg(data: &[(Series, Vec<Point>)], note: &str) -> Result<String, String> {
    framed_svg(
        (1200, 440),
        "board-core perft: million leaves per second against depth (single thread, bulk counting)",
        note,
        |body| {
            // One y range for the three panels (log scale, whole decades), so
            // that the games compare at a glance.
            let speeds = || data.iter().flat_map(|(_, p)| p.iter().map(Point::mnps));
            let top = 10f64.powf(speeds().fold(1.0f64, f64::max).log10().ceil());
            let bottom = 10f64.powf(speeds().fold(top, f64::min).max(0.01).log10().floor());
            let panels = body.split_evenly((1, 3));
            for (panel, game) in panels
                .iter()
                .zip([Game::Draughts, Game::Chess, Game::Shogi])
            {
                let mine: Vec<&(Series, Vec<Point>)> =
                    data.iter().filter(|(s, _)| s.game == game).collect();
                let max_depth = mine
                    .iter()
                    .flat_map(|(_, p)| p.iter().map(|p| p.depth))
                    .max()
                    .unwrap_or(1);
                let mut chart = ChartBuilder::on(panel)
                    .caption(game.name(), ("sans-serif", 16))
                    .margin(12)
                    .x_label_area_size(36)
                    .y_label_area_size(64)
                    .build_cartesian_2d(1u32..max_depth.max(2), (bottom..top).log_scale())
                    .map_err(draw_err)?;
                chart
                    .configure_mesh()
                    .x_desc("depth (plies)")
                    .y_desc("M leaves/s (log scale)")
                    .y_labels(12)
                    .y_label_formatter(&|v| format!("{v:.0}"))
                    .draw()
                    .map_err(draw_err)?;
                for (i, (s, points)) in mine.iter().enumerate() {
                    let color = Palette99::pick(i).to_rgba();
                    chart
                        .draw_series(LineSeries::new(
                            points.iter().map(|p| (p.depth, p.mnps())),
                            color.stroke_width(2),
                        ))
                        .map_err(draw_err)?
                        .label(s.name)
                        .legend(move |(x, y)| {
                            PathElement::new([(x, y), (x + 16, y)], color.stroke_width(2))
                        });
                    chart
                        .draw_series(
                            points
                                .iter()
                                .map(|p| Circle::new((p.depth, p.mnps()), 3, color.filled())),
                        )
                        .map_err(draw_err)?;
                }
                chart
                    .configure_series_labels()
                    .position(SeriesLabelPosition::UpperRight)
                    .background_style(WHITE.mix(0.8))
                    .border_style(BLACK)
                    .draw()
                    .map_err(draw_err)?;
            }
            Ok(())
        },
    )
}

/// The CSA server chart: moves per second, and the p50/p99 move round
/// trip, against games played at once (log scale).
///
/// # Errors
/// plotters failed to lay out the chart, or `points` is empty.
pub fn load_svg(points: &[LoadPoint], note: &str) -> Result<String, String> {
    let (Some(first), Some(last)) = (points.first(), points.last()) else {
        return Err("no load points".into());
    };
    let (lo, hi) = (first.games as f64 * 0.8, last.games as f64 * 1.25);
    framed_svg(
        (1000, 440),
        "boardwire csa serve on 127.0.0.1: games played at once (two clients each)",
        note,
        |body| {
            let (left, right) = body.split_horizontally(500);
            let top = points.iter().map(|p| p.moves_per_sec).fold(0.0, f64::max) * 1.1;
            let mut chart = ChartBuilder::on(&left)
                .caption("throughput", ("sans-serif", 16))
                .margin(12)
                .x_label_area_size(36)
                .y_label_area_size(72)
                .build_cartesian_2d((lo..hi).log_scale(), 0f64..top.max(1.0))
                .map_err(draw_err)?;
            chart
                .configure_mesh()
                .x_desc("games at once")
                .x_label_formatter(&|v| format!("{v:.0}"))
                .y_label_formatter(&|v| format!("{v:.0}"))
                .y_desc("moves per second")
                .draw()
                .map_err(draw_err)?;
            let blue = BLUE.to_rgba();
            chart
                .draw_series(LineSeries::new(
                    points.iter().map(|p| (p.games as f64, p.moves_per_sec)),
                    blue.stroke_width(2),
                ))
                .map_err(draw_err)?;
            chart
                .draw_series(
                    points
                        .iter()
                        .map(|p| Circle::new((p.games as f64, p.moves_per_sec), 3, blue.filled())),
                )
                .map_err(draw_err)?;
            let ms = |us: u64| us as f64 / 1e3;
            let top = points
                .iter()
                .map(|p| ms(p.latency_us[1]))
                .fold(0.0, f64::max)
                * 1.1;
            let mut chart = ChartBuilder::on(&right)
                .caption("move round trip", ("sans-serif", 16))
                .margin(12)
                .x_label_area_size(36)
                .y_label_area_size(72)
                .build_cartesian_2d((lo..hi).log_scale(), 0f64..top.max(0.1))
                .map_err(draw_err)?;
            chart
                .configure_mesh()
                .x_desc("games at once")
                .x_label_formatter(&|v| format!("{v:.0}"))
                .y_desc("milliseconds")
                .draw()
                .map_err(draw_err)?;
            for (i, (name, k)) in [("p50", 0usize), ("p99", 1)].into_iter().enumerate() {
                let color = Palette99::pick(i).to_rgba();
                chart
                    .draw_series(LineSeries::new(
                        points.iter().map(|p| (p.games as f64, ms(p.latency_us[k]))),
                        color.stroke_width(2),
                    ))
                    .map_err(draw_err)?
                    .label(name)
                    .legend(move |(x, y)| {
                        PathElement::new([(x, y), (x + 16, y)], color.stroke_width(2))
                    });
                chart
                    .draw_series(points.iter().map(|p| {
                        Circle::new((p.games as f64, ms(p.latency_us[k])), 3, color.filled())
                    }))
                    .map_err(draw_err)?;
            }
            chart
                .configure_series_labels()
                .position(SeriesLabelPosition::UpperLeft)
                .background_style(WHITE.mix(0.8))
                .border_style(BLACK)
                .draw()
                .map_err(draw_err)?;
            Ok(())
        },
    )
}

/// The data of both charts as JSON.
pub fn json(
    perft: &[(Series, Vec<Point>)],
    load: &[LoadPoint],
    machine: &compare::Machine,
) -> serde_json::Value {
    use serde_json::json;
    json!({
        "machine": {
            "cpu": machine.cpu,
            "cpus": machine.cpus,
            "flags": machine.flags,
            "compiled_for": machine.compiled,
            "load_before": machine.load.0,
            "load_after": machine.load.1,
        },
        "perft": perft.iter().map(|(s, points)| json!({
            "game": s.game.name(),
            "position": s.name,
            "fen": s.position,
            "points": points.iter().map(|p| json!({
                "depth": p.depth,
                "leaves": p.nodes,
                "median_seconds": p.seconds,
                "counts": p.runs,
                "million_leaves_per_second": p.mnps(),
            })).collect::<Vec<_>>(),
        })).collect::<Vec<_>>(),
        "csa_server": load.iter().map(|p| json!({
            "games": p.games,
            "moves_per_second": p.moves_per_sec,
            "latency_us": { "p50": p.latency_us[0], "p99": p.latency_us[1], "max": p.latency_us[2] },
        })).collect::<Vec<_>>(),
    })
}

/// The machine line under each chart.
pub fn machine_note(machine: &compare::Machine, when: &str) -> String {
    let mut s = String::new();
    let _ = write!(
        s,
        "{when}; {} ({} logical CPUs; compiled for: {}); load average {:.2} before, {:.2} after",
        if machine.cpu.is_empty() {
            "unknown CPU"
        } else {
            &machine.cpu
        },
        machine.cpus,
        if machine.compiled.is_empty() {
            "baseline x86-64".to_owned()
        } else {
            machine.compiled.join(", ")
        },
        machine.load.0,
        machine.load.1,
    );
    s
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn every_series_has_published_counts_to_its_depth() {
        for s in SERIES {
            for d in 1..=s.depth {
                assert!(
                    published(table(s.game), s.position, d).is_some(),
                    "{} {} depth {d}",
                    s.game.name(),
                    s.name
                );
            }
        }
    }

    #[test]
    fn published_counts_read_from_the_tables() {
        // Chess Programming Wiki, "Perft Results": start position d5.
        assert_eq!(
            published(CHESS_TABLE, SERIES[3].position, 5),
            Some(4_865_609)
        );
        // Woldouby d15 (issue 28; Moby Dam's test suite).
        assert_eq!(
            published(DRAUGHTS_TABLE, SERIES[1].position, 15),
            Some(346_184_885)
        );
        // Shogi start position d4 (the published even-game table).
        assert_eq!(published(SHOGI_TABLE, SERIES[5].position, 4), Some(719_731));
        assert_eq!(published(SHOGI_TABLE, SERIES[5].position, 9), None);
        assert_eq!(published(SHOGI_TABLE, "9/9/9/9/9/9/9/9/9 b - 1", 1), None);
    }

    #[test]
    fn quick_measure_checks_counts_and_draws() {
        let data: Vec<(Series, Vec<Point>)> = SERIES
            .iter()
            .map(|s| (*s, measure(s, 2, 0.0).expect("counts match")))
            .collect();
        // Depth 2 of the chess start position: 400 leaves (published).
        assert_eq!(data[3].1[1].nodes, 400);
        assert!(data.iter().all(|(_, p)| p.iter().all(|p| p.runs >= 3)));
        let svg = perft_svg(&data, "test").expect("draws");
        assert!(svg.starts_with("<svg"));
        for name in [
            "draughts", "chess", "shogi", "Woldouby", "Kiwipete", "max593",
        ] {
            assert!(svg.contains(name), "{name} missing");
        }
        let load = [
            LoadPoint {
                games: 10,
                moves_per_sec: 1000.0,
                latency_us: [100, 900, 2000],
            },
            LoadPoint {
                games: 100,
                moves_per_sec: 5000.0,
                latency_us: [300, 3000, 9000],
            },
        ];
        let svg = load_svg(&load, "test").expect("draws");
        assert!(svg.contains("p99") && svg.contains("games at once"));
        assert!(load_svg(&[], "test").is_err());
    }

    #[test]
    fn a_wrong_table_count_is_an_error() {
        let s = Series {
            game: Game::Chess,
            name: "start",
            position: "8/8/8/8/8/8/8/8 w - - 0 1",
            depth: 1,
            quick_depth: 1,
        };
        assert!(
            measure(&s, 1, 0.0)
                .unwrap_err()
                .contains("no published count")
        );
    }
}
