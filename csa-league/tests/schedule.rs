//! Schedules: known answers of shogi-server's
//! test/TC_floodgate_next_time_generator.rb (Time.mktime in the local zone:
//! here JST, +09:00, and UTC).

mod common;
use common::at;
use csa_league::schedule::{Generator, LineProblem, Schedule, Weekday};

const JST: i32 = 9 * 3600;

fn next(g: &Generator, now: (i64, i64, i64, i64, i64, i64), off: i32) -> i64 {
    let (y, m, d, h, mi, s) = now;
    g.next_after(at(y, m, d, h, mi, s, off), off).unwrap()
}

#[test]
fn floodgate_900_0_every_30_minutes() {
    let g = Generator::new("floodgate-900-0", None).unwrap();
    assert_eq!(g, Generator::Every30Minutes);
    for off in [JST, 0, -5 * 3600] {
        let cases = [
            ((2009, 12, 25, 22, 0), (2009, 12, 25, 22, 30)),
            ((2009, 12, 25, 22, 20), (2009, 12, 25, 22, 30)),
            ((2009, 12, 25, 22, 30), (2009, 12, 25, 23, 0)),
            ((2009, 12, 25, 22, 50), (2009, 12, 25, 23, 0)),
            ((2009, 12, 25, 23, 50), (2009, 12, 26, 0, 0)),
            ((2010, 7, 25, 23, 30), (2010, 7, 26, 0, 0)),
            ((2010, 7, 26, 23, 30), (2010, 7, 27, 0, 0)),
            ((2010, 7, 27, 23, 30), (2010, 7, 28, 0, 0)),
            ((2010, 7, 28, 23, 30), (2010, 7, 29, 0, 0)),
            ((2010, 7, 29, 23, 30), (2010, 7, 30, 0, 0)),
            ((2009, 11, 30, 23, 50), (2009, 12, 1, 0, 0)),
            ((2009, 12, 31, 23, 50), (2010, 1, 1, 0, 0)),
            ((2012, 1, 1, 0, 0), (2012, 1, 1, 0, 30)),
        ];
        for ((y, m, d, h, mi), (ey, em, ed, eh, emi)) in cases {
            assert_eq!(
                next(&g, (y, m, d, h, mi, 0), off),
                at(ey, em, ed, eh, emi, 0, off),
                "{y}-{m}-{d} {h}:{mi}"
            );
        }
    }
    // Seconds are ignored (Ruby's Time.mktime(..., now.hour, 30)).
    assert_eq!(
        next(&g, (2009, 12, 25, 22, 29, 59), JST),
        at(2009, 12, 25, 22, 30, 0, JST)
    );
}

#[test]
fn floodgate_3600_0_every_odd_hour() {
    let g = Generator::new("floodgate-3600-0", None).unwrap();
    let cases = [
        ((2009, 12, 25, 22, 0), (2009, 12, 25, 23, 0)),
        ((2009, 12, 25, 23, 0), (2009, 12, 26, 1, 0)),
        ((2009, 12, 25, 23, 30), (2009, 12, 26, 1, 0)),
        ((2009, 12, 26, 0, 0), (2009, 12, 26, 1, 0)),
        ((2009, 11, 30, 23, 30), (2009, 12, 1, 1, 0)),
        ((2009, 12, 31, 23, 30), (2010, 1, 1, 1, 0)),
        ((2012, 1, 1, 0, 0), (2012, 1, 1, 1, 0)),
    ];
    for off in [JST, 0] {
        for ((y, m, d, h, mi), (ey, em, ed, eh, emi)) in cases {
            assert_eq!(
                next(&g, (y, m, d, h, mi, 0), off),
                at(ey, em, ed, eh, emi, 0, off)
            );
        }
    }
}

#[test]
fn other_games_need_a_file() {
    assert_eq!(Generator::new("floodgate-600-10", None), None);
    // An existing (even empty) file wins over the built-in
    // (test_factory_from_config_file).
    assert!(matches!(
        Generator::new("floodgate-3600-0", Some("")),
        Some(Generator::Config(_))
    ));
}

fn cfg(lines: &[&str], now: (i64, i64, i64, i64, i64, i64)) -> i64 {
    let s = Schedule::parse(&lines.join("\n"));
    let (y, m, d, h, mi, sec) = now;
    s.next_after(at(y, m, d, h, mi, sec, JST), JST).unwrap()
}

#[test]
fn config_read() {
    let now = (2010, 6, 10, 21, 20, 15); // Thu
    assert_eq!(cfg(&["Thu 22:00"], now), at(2010, 6, 10, 22, 0, 0, JST));
    assert_eq!(cfg(&["Thu 22:15"], now), at(2010, 6, 10, 22, 15, 0, JST));
    assert_eq!(cfg(&["Fri 22:00"], now), at(2010, 6, 11, 22, 0, 0, JST));
    assert_eq!(cfg(&["Sat 22:00"], now), at(2010, 6, 12, 22, 0, 0, JST));
    assert_eq!(cfg(&["Sun 22:00"], now), at(2010, 6, 13, 22, 0, 0, JST));
    assert_eq!(cfg(&["Mon 22:00"], now), at(2010, 6, 14, 22, 0, 0, JST));
    assert_eq!(cfg(&["Thu 20:00"], now), at(2010, 6, 17, 20, 0, 0, JST));
    // Long day names.
    assert_eq!(
        cfg(&["Thursday 20:00"], now),
        at(2010, 6, 17, 20, 0, 0, JST)
    );
}

#[test]
fn config_comment_and_empty_lines() {
    let now = (2010, 6, 10, 21, 59, 59);
    assert_eq!(
        cfg(&["# comment1", "Thu 22:00", "# comment2"], now),
        at(2010, 6, 10, 22, 0, 0, JST)
    );
    let s = Schedule::parse(" \nThu 22:00\n \nhoge");
    assert_eq!(
        s.next_after(at(2010, 6, 10, 21, 59, 59, JST), JST),
        Some(at(2010, 6, 10, 22, 0, 0, JST))
    );
    // shogi-server logs "hoge" as unsupported syntax.
    assert_eq!(s.problems.len(), 1);
    assert_eq!(
        (s.problems[0].line, s.problems[0].text.as_str()),
        (4, "hoge")
    );
    assert_eq!(s.problems[0].problem, LineProblem::Unsupported);
}

#[test]
fn config_next_year_and_new_year() {
    let fri = (2011, 12, 30, 21, 20, 15);
    assert_eq!(cfg(&["Sun 00:00"], fri), at(2012, 1, 1, 0, 0, 0, JST));
    assert_eq!(cfg(&["Sun 01:00"], fri), at(2012, 1, 1, 1, 0, 0, JST));
    assert_eq!(cfg(&["Mon 00:00"], fri), at(2012, 1, 2, 0, 0, 0, JST));
    assert_eq!(cfg(&["Mon 01:00"], fri), at(2012, 1, 2, 1, 0, 0, JST));
    let sun = (2012, 1, 1, 1, 0, 0);
    assert_eq!(cfg(&["Mon 00:00"], sun), at(2012, 1, 2, 0, 0, 0, JST));
    assert_eq!(cfg(&["Sat 00:00"], sun), at(2012, 1, 7, 0, 0, 0, JST));
}

#[test]
fn config_exactly_at_the_time_means_next_week() {
    assert_eq!(
        cfg(&["Thu 22:00"], (2010, 6, 10, 21, 59, 59)),
        at(2010, 6, 10, 22, 0, 0, JST)
    );
    assert_eq!(
        cfg(&["Thu 22:00"], (2010, 6, 10, 22, 0, 0)),
        at(2010, 6, 17, 22, 0, 0, JST)
    );
}

#[test]
fn config_settings() {
    let s = Schedule::parse("Thu 22:00");
    assert_eq!(s.settings.pairing_factory, "default_factory");
    assert_eq!(
        s.settings.sacrifice,
        "gps500+e293220e3f8a3e59f79f6b0efffaa931"
    );
    assert_eq!(s.settings.max_moves, 256);
    assert_eq!(s.settings.least_time_per_move, 0);
    let s = Schedule::parse(
        "set pairing_factory least_diff_pairing\nset sacrifice yowai_gps+95908f6c18338f5340371f71523fc5e3\nset max_moves 200\nset least_time_per_move 1\nThu 22:00",
    );
    assert!(s.problems.is_empty());
    assert_eq!(s.settings.pairing_factory, "least_diff_pairing");
    assert_eq!(
        s.settings.sacrifice,
        "yowai_gps+95908f6c18338f5340371f71523fc5e3"
    );
    assert_eq!(s.settings.max_moves, 200);
    assert_eq!(s.settings.least_time_per_move, 1);
    assert_eq!(s.times[0].weekday, Weekday::Thursday);
}

#[test]
fn config_sample_file() {
    // shogi-server's floodgate-0-240.conf.sample (LF endings), the trailing
    // tabs and blanks of its comment lines included; and the same with CRLF.
    let text = "## This is a sample configuration file for a Floodgate game, setting\r\n## starting times.\r\n##\r\n## This is a comment line\t        \r\nSat 13:00\r\n## This is a comment line\t        \r\nSun 13:00\r\n";
    assert_eq!(
        Schedule::parse(text),
        Schedule::parse(&text.replace("\r\n", "\n"))
    );
    let s = Schedule::parse(text);
    assert!(s.problems.is_empty(), "{:?}", s.problems);
    assert_eq!(s.times.len(), 2);
    // From Thu 2010-06-10: Sat 12th 13:00.
    assert_eq!(
        s.next_after(at(2010, 6, 10, 21, 0, 0, JST), JST),
        Some(at(2010, 6, 12, 13, 0, 0, JST))
    );
    // From Sat 13:00 exactly: Sun 13:00.
    assert_eq!(
        s.next_after(at(2010, 6, 12, 13, 0, 0, JST), JST),
        Some(at(2010, 6, 13, 13, 0, 0, JST))
    );
}

#[test]
fn config_bad_lines_are_reported_and_skipped() {
    let s = Schedule::parse(
        "Foo 10:00\nMon 24:00\nMon 10:60\nset max_moves x\nMon 10:00 extra words\nset max_moves 99999999999\n",
    );
    let got: Vec<(usize, LineProblem)> = s
        .problems
        .iter()
        .map(|p| (p.line, p.problem.clone()))
        .collect();
    assert_eq!(
        got,
        [
            (1, LineProblem::UnknownDay("Foo".into())),
            (2, LineProblem::HourOutOfRange(24)),
            (3, LineProblem::MinuteOutOfRange(60)),
            (4, LineProblem::Unsupported),
            (6, LineProblem::ValueOutOfRange),
        ]
    );
    // Ruby's regexp ignores what follows HH:MM.
    assert_eq!(s.times.len(), 1);
    assert_eq!(s.settings.max_moves, 256);
    assert_eq!(Schedule::parse("").next_after(0, 0), None);
}
