//! Game records (`ServerEvent::Record`) against the records shogi-server
//! wrote for the same games (`boardwire_vectors::data::CSA_RECORDS`): the
//! games are replayed with the logins and moves of shogi-server's own
//! functional tests (the vectors' README), and our record must equal
//! shogi-server's byte for byte but for the times (`$START_TIME`,
//! `'$END_TIME`, the Game_ID stamp). Handicap start positions, and our kifu
//! reader on every vector and every record we write.

use std::time::Duration;

use boardwire_vectors::data::CSA_RECORDS;
use csa_protocol::kifu::parse_kifu;
use csa_protocol::session::{
    ConnId, GameRecord, RatingIds, Server, ServerConfig, ServerEvent, server::handicap,
};

struct Net {
    server: Server<Duration>,
    now: Duration,
    records: Vec<GameRecord>,
    events: Vec<ServerEvent>,
}

impl Net {
    fn new(rating_ids: RatingIds) -> Self {
        let config = ServerConfig {
            event: "ceotest".into(),
            records: true,
            rating_ids,
            ..Default::default()
        };
        Self {
            server: Server::new(config, Duration::ZERO, 1_796_113_623),
            now: Duration::ZERO,
            records: Vec::new(),
            events: Vec::new(),
        }
    }

    fn connect(&mut self, id: u64) -> ConnId {
        let c = ConnId(id);
        self.server.handle_connect(c, self.now);
        c
    }

    fn send(&mut self, c: ConnId, line: &[u8]) {
        let mut bytes = line.to_vec();
        bytes.push(b'\n');
        self.server.handle_input(c, &bytes, self.now);
        while self.server.poll_transmit().is_some() {}
        while let Some(e) = self.server.poll_event() {
            match e {
                ServerEvent::Record(r) => {
                    // Every record we write reads back, statement for
                    // statement.
                    let back = parse_kifu(&r.text).expect("our record reads back");
                    assert_eq!(csa_protocol::kifu::write_kifu(&back), r.text);
                    self.records.push(r);
                }
                e => self.events.push(e),
            }
        }
    }

    /// Two x1 players `<game>_<b>`/`<game>_<w>` (password `dummy`, as
    /// shogi-server's test clients) start `<game>-1500-0`.
    fn x1_game(&mut self, game: &str, b: &str, w: &str) -> (ConnId, ConnId) {
        self.x1_game_named(game, &format!("{game}-1500-0"), b, w)
    }

    fn x1_game_named(&mut self, game: &str, name: &str, b: &str, w: &str) -> (ConnId, ConnId) {
        let (p1, p2) = (self.connect(1), self.connect(2));
        self.send(p1, format!("LOGIN {game}_{b} dummy x1").as_bytes());
        self.send(p2, format!("LOGIN {game}_{w} dummy x1").as_bytes());
        self.send(p1, format!("%%GAME {name} +").as_bytes());
        self.send(p2, format!("%%GAME {name} -").as_bytes());
        self.send(p1, b"AGREE");
        self.send(p2, b"AGREE");
        (p1, p2)
    }

    fn only_record(&self) -> &GameRecord {
        assert_eq!(self.records.len(), 1, "{:?}", self.events);
        &self.records[0]
    }
}

fn vector(name_part: &str) -> &'static [u8] {
    CSA_RECORDS
        .iter()
        .find(|(n, _)| n.contains(name_part))
        .unwrap_or_else(|| panic!("no vector {name_part}"))
        .1
}

/// The record with its times replaced: `$START_TIME:`/`'$END_TIME:` values
/// and the 14-digit stamp at the end of `$EVENT:`.
fn without_times(text: &[u8]) -> Vec<Vec<u8>> {
    text.split(|&b| b == b'\n')
        .map(|l| {
            if l.starts_with(b"$START_TIME:") || l.starts_with(b"'$END_TIME:") {
                let (key, value) = l.split_at(l.iter().position(|&b| b == b':').unwrap() + 1);
                assert_time(value);
                [key, b"<time>"].concat()
            } else if l.starts_with(b"$EVENT:") {
                let (head, stamp) = l.split_at(l.len() - 14);
                assert!(stamp.iter().all(u8::is_ascii_digit), "{l:?}");
                [head, b"<stamp>"].concat()
            } else {
                l.to_vec()
            }
        })
        .collect()
}

/// `YYYY/MM/DD HH:MM:SS`.
fn assert_time(v: &[u8]) {
    let shape = v
        .iter()
        .map(|b| if b.is_ascii_digit() { b'9' } else { *b })
        .collect::<Vec<_>>();
    assert_eq!(
        shape,
        b"9999/99/99 99:99:99",
        "{}",
        String::from_utf8_lossy(v)
    );
}

fn assert_same(ours: &GameRecord, theirs: &[u8]) {
    let (a, b) = (without_times(&ours.text), without_times(theirs));
    for (i, (x, y)) in a.iter().zip(&b).enumerate() {
        assert_eq!(
            String::from_utf8_lossy(x),
            String::from_utf8_lossy(y),
            "line {}",
            i + 1
        );
    }
    assert_eq!(a.len(), b.len());
    // Our reader reads it back, with the moves of the vector.
    let ours_read = parse_kifu(&ours.text).expect("our record reads back");
    let theirs_read = parse_kifu(theirs).unwrap();
    let moves = |r: &csa_protocol::kifu::Record<'_>| {
        r.moves().iter().map(|m| (m.mv, m.time)).collect::<Vec<_>>()
    };
    assert_eq!(moves(&ours_read[0]), moves(&theirs_read[0]));
}

#[test]
fn atmark_names_and_resignation() {
    let mut net = Net::new(RatingIds::Md5);
    let (p1, p2) = net.x1_game("atmark", "B@p1", "W@p2");
    net.send(p1, b"+2726FU");
    net.send(p2, b"-3334FU");
    net.send(p1, b"%TORYO");
    let r = net.only_record();
    assert_same(r, vector("atmark"));
    assert!(
        r.path
            .ends_with("/ceotest+atmark-1500-0+atmark_B@p1+atmark_W@p2+20261201082703.csa"),
        "{}",
        r.path
    );
    assert!(r.path.starts_with("2026/12/01/"), "{}", r.path);
}

#[test]
fn game_id_stamp_and_record_date_are_local_time() {
    // shogi-server stamps Game_ID with its local time (`Time.now`), the
    // same clock that dates the record directory: 08:27:03 UTC is 00:27:03
    // the next day at UTC+16.
    let mut net = Net::new(RatingIds::Names);
    let config = ServerConfig {
        event: "ceotest".into(),
        records: true,
        utc_offset_secs: 16 * 3600,
        ..Default::default()
    };
    net.server = Server::new(config, Duration::ZERO, 1_796_113_623);
    let (p1, _) = net.x1_game("atmark", "B@p1", "W@p2");
    net.send(p1, b"%TORYO");
    let r = net.only_record();
    assert!(
        r.path.ends_with("+atmark_W@p2+20261202002703.csa"),
        "{}",
        r.path
    );
    assert!(r.path.starts_with("2026/12/02/"), "{}", r.path);
}

#[test]
fn handicap_two_pieces_black_moves_first() {
    let mut net = Net::new(RatingIds::Md5);
    let (p1, p2) = net.x1_game("hc2p_hoge", "B", "W");
    net.send(p1, b"+2726FU");
    net.send(p2, b"-3334FU");
    net.send(p1, b"%TORYO");
    assert_same(net.only_record(), vector("hc2p_hoge"));
}

#[test]
fn white_plays_a_black_move_illegal() {
    let mut net = Net::new(RatingIds::Md5);
    let (p1, p2) = net.x1_game("TestWhiteMovesBlack", "sente", "gote");
    net.send(p1, b"+2726FU");
    net.send(p2, b"-3334FU");
    net.send(p1, b"+9796FU");
    net.send(p2, b"+1716FU");
    assert_same(net.only_record(), vector("TestWhiteMovesBlack"));
}

#[test]
fn comment_with_a_move() {
    let mut net = Net::new(RatingIds::Md5);
    let (p1, p2) = net.x1_game("TestComment", "sente", "gote");
    net.send(p1, b"+2726FU");
    net.send(p2, b"-3334FU");
    net.send(p1, "+2625FU,'日本語UTF8".as_bytes());
    net.send(p2, b"-2233KA");
    net.send(p1, b"%TORYO");
    let ours = net.only_record();
    // shogi-server converts comments to EUC-JP (Kconv); we write the bytes
    // as the player sent them (a deliberate difference). The vector's line
    // is the EUC-JP form of the same text.
    let mut theirs = vector("TestComment").to_vec();
    let euc: &[u8] = b"'*\xc6\xfc\xcb\xdc\xb8\xecUTF8\n";
    let at = theirs.windows(euc.len()).position(|w| w == euc).unwrap();
    theirs.splice(at..at + euc.len(), "'*日本語UTF8\n".bytes());
    assert_same(ours, &theirs);
}

/// Comments in EUC-JP, Shift_JIS and ISO-2022-JP (with its ESC bytes),
/// as Floodgate clients send them, are written byte for byte, not escaped
/// (a server must not rewrite what a player said; `csa-protocol/README.md`, the comments row of *Deliberate
/// differences from shogi-server*: the bytes the player sent).
#[test]
fn non_utf8_comments_are_written_as_sent() {
    // EUC-JP: shogi-server's `TestComment` record has this very line
    // (`'*` and "日本語UTF8" in EUC-JP, what its Kconv.toeuc writes), so
    // the bytes we keep give its record unchanged.
    let mut net = Net::new(RatingIds::Md5);
    let (p1, p2) = net.x1_game("TestComment", "sente", "gote");
    net.send(p1, b"+2726FU");
    net.send(p2, b"-3334FU");
    net.send(p1, b"+2625FU,'\xc6\xfc\xcb\xdc\xb8\xecUTF8");
    net.send(p2, b"-2233KA");
    net.send(p1, b"%TORYO");
    let ours = net.only_record();
    assert_same(ours, vector("TestComment"));
    // Byte for byte (`assert_same` compares lines as lossy text).
    assert_eq!(
        without_times(&ours.text),
        without_times(vector("TestComment"))
    );

    // Shift_JIS and ISO-2022-JP ("日本語" in each): the bytes after `,'`.
    let sjis: &[u8] = b"\x93\xfa\x96\x7b\x8c\xea";
    let jis: &[u8] = b"\x1b$BF|K\\8l\x1b(B";
    let mut net = Net::new(RatingIds::Names);
    let (p1, p2) = net.x1_game("t", "sente", "gote");
    net.send(p1, &[b"+7776FU,'".as_slice(), sjis].concat());
    net.send(p2, &[b"-3334FU,'".as_slice(), jis].concat());
    net.send(p1, b"%TORYO");
    let text = &net.only_record().text;
    let moves: &[u8] = &[
        b"\n+7776FU\nT0\n'*".as_slice(),
        sjis,
        b"\n-3334FU\nT0\n'*",
        jis,
        b"\n%TORYO\n",
    ]
    .concat();
    assert!(
        text.windows(moves.len()).any(|w| w == moves),
        "{}",
        String::from_utf8_lossy(text).escape_debug()
    );
    assert!(!text.windows(4).any(|w| w == b"\\x1b" || w == b"\\x1B"));
}

/// A comment holding a comma is kept whole after `,'` (a deliberate
/// difference, csa-protocol README: shogi-server splits the move line at
/// every comma and records `'*a` only).
#[test]
fn a_comment_with_commas_is_kept_whole() {
    let mut net = Net::new(RatingIds::Names);
    let (p1, p2) = net.x1_game("t", "sente", "gote");
    net.send(p1, b"+7776FU,'* 30 a,b,c");
    net.send(p2, b"-3334FU");
    net.send(p1, b"%TORYO");
    let text = &net.only_record().text;
    let moves: &[u8] = b"\n+7776FU\nT0\n'** 30 a,b,c\n-3334FU\nT0\n%TORYO\n";
    assert!(
        text.windows(moves.len()).any(|w| w == moves),
        "{}",
        String::from_utf8_lossy(text).escape_debug()
    );
}

#[test]
fn plain_csa_mode_trips() {
    let mut net = Net::new(RatingIds::Md5);
    let (p1, p2) = (net.connect(1), net.connect(2));
    // shogi-server's TestLoginCSAWithTripGoodGamename: `dummy` is no game
    // name, so the game is `default-1500-0`; the ids hash the trips.
    net.send(p1, b"LOGIN csawtrip_p1 dummy,atrip");
    net.send(p2, b"LOGIN csawtrip_p2 dummy,anothertrip");
    net.send(p1, b"AGREE");
    net.send(p2, b"AGREE");
    // The later arrival is Black (here as in the vector).
    net.send(p2, b"+7776FU");
    net.send(p1, b"-3334FU");
    net.send(p2, b"%TORYO");
    assert_same(net.only_record(), vector("csawtrip"));
}

/// Plays the moves of a vector record alternately from two x1 players.
fn replay(game: &str) -> Net {
    let mut net = Net::new(RatingIds::Md5);
    let (p1, p2) = net.x1_game(game, "sente", "gote");
    let theirs = parse_kifu(vector(game)).unwrap();
    for m in theirs[0].moves() {
        let line = m.mv.to_string();
        let who = if line.starts_with('+') { p1 } else { p2 };
        net.send(who, line.as_bytes());
    }
    net
}

#[test]
fn max_moves_draw() {
    let net = replay("MaxMovesTest");
    assert_same(net.only_record(), vector("MaxMovesTest"));
}

#[test]
fn oute_sennichite_final_position_is_before_the_last_move() {
    let net = replay("OuteSennichiteTest");
    assert_same(net.only_record(), vector("OuteSennichiteTest"));
}

#[test]
fn fork_buoy_game() {
    let mut net = Net::new(RatingIds::Md5);
    let admin = net.connect(9);
    net.send(admin, b"LOGIN admin dummy x1");
    let (p1, p2) = net.x1_game("TestFork", "sente", "gote");
    net.send(p1, b"+2726FU");
    net.send(p2, b"-3334FU");
    let source = match &net.events[0] {
        ServerEvent::GameStarted { game_id, .. } => game_id.clone(),
        e => panic!("{e:?}"),
    };
    net.send(
        admin,
        format!("%%FORK {source} buoy_Fork-1500-0").as_bytes(),
    );
    net.send(p1, b"%TORYO");
    net.records.clear();
    let (q1, q2) = (net.connect(3), net.connect(4));
    net.send(q1, b"LOGIN buoy_Fork_p1 dummy x1");
    net.send(q2, b"LOGIN buoy_Fork_p2 dummy x1");
    net.send(q1, b"%%GAME buoy_Fork-1500-0 +");
    net.send(q2, b"%%GAME buoy_Fork-1500-0 -");
    net.send(q1, b"AGREE");
    net.send(q2, b"AGREE");
    net.send(q2, b"-3334FU");
    net.send(q1, b"%TORYO");
    let ours = net.only_record();
    // shogi-server keeps the source game's times in a fork (`T0`); our
    // buoy games charge every set-up move `T1`, as shogi-server does for
    // `%%SETBUOY` buoys.
    let mut theirs = vector("buoy_Fork").to_vec();
    let from: &[u8] = b"moves\n+2726FU\nT0\n";
    let at = theirs.windows(from.len()).position(|w| w == from).unwrap();
    theirs.splice(at..at + from.len(), b"moves\n+2726FU\nT1\n".iter().copied());
    assert_same(ours, &theirs);
}

#[test]
fn rating_names_by_default_and_none_for_unrated_logins() {
    let mut net = Net::new(RatingIds::Names);
    let (p1, p2) = net.x1_game("atmark", "B@p1", "W@p2");
    net.send(p1, b"%TORYO");
    let text = String::from_utf8(net.only_record().text.clone()).unwrap();
    assert!(
        text.contains("\n'rating:atmark_B@p1:atmark_W@p2\n"),
        "{text}"
    );
    assert!(!text.contains("275876e3"), "{text}");
    let _ = p2;
    // A plain CSA login whose password is the game name carries no
    // password: shogi-server writes no `'rating:` line then.
    let mut net = Net::new(RatingIds::Md5);
    let (a, b) = (net.connect(1), net.connect(2));
    net.send(a, b"LOGIN a game-1500-0");
    net.send(b, b"LOGIN b game-1500-0");
    net.send(a, b"AGREE");
    net.send(b, b"AGREE");
    net.send(b, b"%TORYO");
    let text = String::from_utf8(net.only_record().text.clone()).unwrap();
    assert!(!text.contains("'rating:"), "{text}");
    assert!(text.contains("'summary:toryo:b lose:a win\n"), "{text}");
}

#[test]
fn rejected_game_has_header_and_end_time_only() {
    let mut net = Net::new(RatingIds::Md5);
    let (p1, p2) = (net.connect(1), net.connect(2));
    net.send(p1, b"LOGIN x_sente dummy x1");
    net.send(p2, b"LOGIN x_gote dummy x1");
    net.send(p1, b"%%GAME x-300-10F +");
    net.send(p2, b"%%GAME x-300-10F -");
    net.send(p2, b"REJECT");
    let text = String::from_utf8(net.only_record().text.clone()).unwrap();
    let lines: Vec<&str> = text.lines().collect();
    assert_eq!(
        &lines[..5],
        [
            "V2",
            "N+x_sente",
            "N-x_gote",
            "'Max_Moves:256",
            "'Least_Time_Per_Move:0"
        ]
    );
    // A Fischer game: shogi-server adds `'Increment:`.
    assert_eq!(lines[5], "'Increment:10");
    assert!(lines[6].starts_with("$EVENT:ceotest+x-300-10F+x_sente+x_gote+"));
    assert!(lines.last().unwrap().starts_with("'$END_TIME:"));
    assert!(!text.contains("'summary"));
}

#[test]
fn deferred_move_kachi_and_time_up_lines() {
    let mut net = Net::new(RatingIds::Md5);
    let (p1, p2) = net.x1_game("t", "sente", "gote");
    // White sends first: held, noted as shogi-server notes it.
    net.send(p2, b"-3334FU");
    net.send(p1, b"+7776FU");
    net.now += Duration::from_secs(3);
    net.send(p1, b"%KACHI");
    let text = String::from_utf8(net.only_record().text.clone()).unwrap();
    let tail: Vec<&str> = text.lines().skip(18).collect();
    assert_eq!(
        &tail[..8],
        [
            "'Deferred -3334FU",
            "+7776FU",
            "T0",
            "-3334FU",
            "T0",
            "%KACHI",
            "T3",
            "%KACHI"
        ],
        "{text}"
    );
    assert!(text.contains("'summary:illegal kachi:t_sente lose:t_gote win\n"));
    let back = parse_kifu(text.as_bytes()).unwrap();
    assert_eq!(back[0].moves().len(), 2);

    // Time up: no special line, reason `time up`.
    let mut net = Net::new(RatingIds::Md5);
    let _ = net.x1_game_named("u", "u-10-0", "a", "b");
    net.now += Duration::from_secs(11);
    let now = net.now;
    net.server.handle_timeout(now);
    while let Some(e) = net.server.poll_event() {
        if let ServerEvent::Record(r) = e {
            net.records.push(r);
        }
    }
    let text = String::from_utf8(net.only_record().text.clone()).unwrap();
    assert!(
        text.contains("\n'+\n'summary:time up:u_a lose:u_b win\n"),
        "{text}"
    );
}

/// The nine handicap prefixes, each position as shogi-server's boards set
/// it up (`shogi_server/handicapped_boards.rb`, `HCKYBoard`..`HC10PBoard`:
/// Black loses the pieces and moves first), written as SFEN.
#[test]
fn handicap_positions() {
    let expected = [
        (
            "hclance_",
            "lnsgkgsnl/1r5b1/ppppppppp/9/9/9/PPPPPPPPP/1B5R1/1NSGKGSNL b - 1",
        ),
        (
            "hcbishop_",
            "lnsgkgsnl/1r5b1/ppppppppp/9/9/9/PPPPPPPPP/7R1/LNSGKGSNL b - 1",
        ),
        (
            "hcrook_",
            "lnsgkgsnl/1r5b1/ppppppppp/9/9/9/PPPPPPPPP/1B7/LNSGKGSNL b - 1",
        ),
        (
            "hcrooklance_",
            "lnsgkgsnl/1r5b1/ppppppppp/9/9/9/PPPPPPPPP/1B7/1NSGKGSNL b - 1",
        ),
        (
            "hc2p_",
            "lnsgkgsnl/1r5b1/ppppppppp/9/9/9/PPPPPPPPP/9/LNSGKGSNL b - 1",
        ),
        (
            "hc4p_",
            "lnsgkgsnl/1r5b1/ppppppppp/9/9/9/PPPPPPPPP/9/1NSGKGSN1 b - 1",
        ),
        (
            "hc6p_",
            "lnsgkgsnl/1r5b1/ppppppppp/9/9/9/PPPPPPPPP/9/2SGKGS2 b - 1",
        ),
        (
            "hc8p_",
            "lnsgkgsnl/1r5b1/ppppppppp/9/9/9/PPPPPPPPP/9/3GKG3 b - 1",
        ),
        (
            "hc10p_",
            "lnsgkgsnl/1r5b1/ppppppppp/9/9/9/PPPPPPPPP/9/4K4 b - 1",
        ),
    ];
    assert_eq!(handicap::PREFIXES.len(), expected.len());
    for (prefix, sfen) in expected {
        let pos = handicap::position(&format!("{prefix}x-600-10")).unwrap();
        let mut ours = String::new();
        pos.write_sfen(&mut ours).unwrap();
        assert_eq!(ours, sfen, "{prefix}");
    }
    assert!(handicap::position("hc3p_x-600-10").is_none());
    assert!(handicap::position("x_hc2p_-600-10").is_none());
}

/// Every handicap game starts from its position: the Game_Summary shows it
/// and Black moves first.
#[test]
fn handicap_game_summary() {
    for prefix in handicap::PREFIXES {
        let mut net = Net::new(RatingIds::Names);
        let game = format!("{prefix}g");
        let (p1, p2) = net.x1_game(&game, "b", "w");
        net.send(p2, b"-3334FU");
        net.send(p1, b"+2726FU");
        net.send(p1, b"%TORYO");
        let text = String::from_utf8(net.only_record().text.clone()).unwrap();
        let start = handicap::position(&game).unwrap().csa().to_string();
        assert!(text.contains(&format!("\n{start}'rating:")), "{text}");
        assert!(
            text.contains("\n'Deferred -3334FU\n+2726FU\nT0\n-3334FU\nT0\n"),
            "{text}"
        );
    }
}

/// Our reader reads every record shogi-server wrote.
#[test]
fn reader_reads_every_vector() {
    for (name, bytes) in CSA_RECORDS {
        let records = parse_kifu(bytes).unwrap_or_else(|e| panic!("{name}: {e}"));
        assert_eq!(records.len(), 1, "{name}");
        let r = &records[0];
        assert_eq!(r.version(), Some("2"), "{name}");
        assert!(!r.moves().is_empty(), "{name}");
        assert_eq!(csa_protocol::kifu::write_kifu(&records), *bytes, "{name}");
    }
}

/// Stop-watch game names (`name-600-060`, byoyomi written with a leading
/// zero): shogi-server announces `Time_Unit:1min` (with `Total_Time:600`,
/// `Byoyomi:60` still in seconds) and charges whole multiples of the
/// byoyomi (61 s → `T60`). We keep 1 s units (a deliberate difference): the
/// summary says seconds and a move is charged its whole seconds.
#[test]
fn stop_watch_names_keep_one_second_units() {
    let mut net = Net::new(RatingIds::Names);
    let (p1, p2) = (net.connect(1), net.connect(2));
    net.send(p1, b"LOGIN sw_b dummy x1");
    net.send(p2, b"LOGIN sw_w dummy x1");
    net.send(p1, b"%%GAME sw-600-060 +");
    net.server
        .handle_input(p2, b"%%GAME sw-600-060 -\n", net.now);
    let mut sent = Vec::new();
    while let Some((c, t)) = net.server.poll_transmit() {
        if c == p2 {
            sent.extend_from_slice(t.as_bytes());
        }
    }
    let summary = String::from_utf8(sent).unwrap();
    for line in ["\nTime_Unit:1sec\n", "\nTotal_Time:600\n", "\nByoyomi:60\n"] {
        assert!(summary.contains(line), "{line:?} in {summary}");
    }
    net.send(p1, b"AGREE");
    net.send(p2, b"AGREE");
    net.now += Duration::from_secs(61);
    net.send(p1, b"+7776FU");
    net.send(p2, b"%TORYO");
    let text = String::from_utf8(net.only_record().text.clone()).unwrap();
    assert!(text.contains("\n+7776FU\nT61\n"), "{text}");
}

/// Two games of the same players and game name within one second get
/// different ids (the second takes the next second), so neither record
/// file replaces the other (a newcomer's `--games 3` lost a record so).
#[test]
fn same_players_twice_in_one_second_get_two_ids() {
    let mut net = Net::new(RatingIds::Names);
    let (p1, p2) = net.x1_game("atmark", "B@p1", "W@p2");
    net.send(p1, b"%TORYO");
    net.send(p1, b"%%GAME atmark-1500-0 +");
    net.send(p2, b"%%GAME atmark-1500-0 -");
    net.send(p1, b"AGREE");
    net.send(p2, b"AGREE");
    net.send(p1, b"%TORYO");
    assert_eq!(net.records.len(), 2, "{:?}", net.events);
    let paths: Vec<&str> = net.records.iter().map(|r| r.path.as_str()).collect();
    assert!(
        paths[0].ends_with("+atmark_W@p2+20261201082703.csa"),
        "{paths:?}"
    );
    assert!(
        paths[1].ends_with("+atmark_W@p2+20261201082704.csa"),
        "{paths:?}"
    );
}
