//! Framing and decoding one CSA line never allocate on the heap (the claim
//! of `csa_protocol::decode`: "borrows from the line and never allocates"),
//! and the kifu reader's streaming parts do not either (`kifu::Statements`,
//! "one by one, without allocating"; `Record::iter_moves`, "without
//! allocating"; `check_file_rules`, "does not allocate"). `kifu::Records` allocates only a record's item list.
//!
//! Input: every line of the recorded shogi-server conversation
//! (`boardwire_vectors::data::CSA_SHOGI_SERVER`: logins, `Game_Summary`
//! blocks, moves and their confirmations, `#WIN`/`#LOSE`, x1 commands and
//! malformed lines) through `Framer` and `decode`, the Floodgate move
//! comments of spec/csa.md (*Moves*) and of shogi-server's
//! TC_functional, and the recorded kifu files.

mod common;

use boardwire_vectors::counting::{Counting, allocations};
use common::{Dir, lines};
use csa_protocol::decode::decode;
use csa_protocol::framer::{Framer, Status};
use csa_protocol::kifu::{Records, Statement, Statements, check_file_rules, parse_kifu};
use csa_protocol::message::{ClientMessage, ServerMessage};

#[global_allocator]
static GLOBAL: Counting = Counting;

/// Kinds of decoded lines counted by the test.
#[derive(Default, Debug)]
struct Seen {
    lines: usize,
    client_moves: usize,
    client_moves_commented: usize,
    server_moves: usize,
    results: usize,
    summary_lines: usize,
    errors: usize,
}

/// Frames `stream` and decodes every line as `dir` says.
fn frame_and_decode(stream: &[u8], dir: Dir, seen: &mut Seen) {
    let mut framer = Framer::default();
    let mut rest = stream;
    loop {
        match framer.decode(rest) {
            Status::Complete { frame, consumed } => {
                seen.lines += 1;
                match dir {
                    Dir::Sent => match decode::<ClientMessage>(frame) {
                        Ok(ClientMessage::Move { comment, .. }) => {
                            seen.client_moves += 1;
                            seen.client_moves_commented += usize::from(comment.is_some());
                        }
                        Ok(m) => drop(std::hint::black_box(m)),
                        Err(_) => seen.errors += 1,
                    },
                    Dir::Received => match decode::<ServerMessage>(frame) {
                        Ok(ServerMessage::Move { .. }) => seen.server_moves += 1,
                        Ok(ServerMessage::GameResult(_)) => seen.results += 1,
                        Ok(ServerMessage::Summary(_)) => seen.summary_lines += 1,
                        Ok(m) => drop(std::hint::black_box(m)),
                        Err(_) => seen.errors += 1,
                    },
                }
                rest = &rest[consumed..];
            }
            Status::Partial { consumed: 0 } => break,
            Status::Partial { consumed } | Status::Overlong { consumed, .. } => {
                rest = &rest[consumed..];
            }
        }
    }
}

#[test]
fn framing_and_decoding_lines_does_not_allocate() {
    // Set up outside the counted part: one stream of CR LF lines per
    // direction, as the recorder wrote them.
    let mut sent = Vec::new();
    let mut received = Vec::new();
    let mut count = 0;
    for (_, dir, line) in lines() {
        let stream = match dir {
            Dir::Sent => &mut sent,
            Dir::Received => &mut received,
        };
        stream.extend_from_slice(&line);
        stream.extend_from_slice(b"\r\n");
        count += 1;
    }
    // spec/csa.md, *Moves*: the Floodgate comment; shogi-server's
    // TC_functional: an empty comment and one in EUC-JP ("Japanese EUC").
    sent.extend_from_slice(
        b"+7776FU,'* 30 -3334FU\n+2625FU,'\n-3334FU,'\xc6\xfc\xcb\xdc\xb8\xec\n",
    );
    count += 3;

    let mut seen = Seen::default();
    let before = allocations();
    frame_and_decode(&sent, Dir::Sent, &mut seen);
    frame_and_decode(&received, Dir::Received, &mut seen);
    let n = allocations() - before;

    assert_eq!(seen.lines, count);
    assert!(seen.client_moves > 0 && seen.server_moves > 0, "{seen:?}");
    assert_eq!(seen.client_moves_commented, 3, "{seen:?}");
    // `#WIN`/`#LOSE` ×6 each in the recording (and `#DRAW`s).
    assert!(seen.results >= 12, "{seen:?}");
    // 16 Game_Summary blocks of at least 30 lines each.
    assert!(seen.summary_lines >= 16 * 30, "{seen:?}");
    assert!(seen.errors > 0, "the recording's malformed lines: {seen:?}");
    eprintln!("{seen:?}, {n} allocations");
    assert_eq!(
        n, 0,
        "heap allocations while framing and decoding {count} lines"
    );
}

/// The recorded kifu files: two Floodgate games and shogi-server's
/// TC_functional records.
fn kifu_files() -> Vec<&'static [u8]> {
    let mut v = vec![
        boardwire_vectors::data::KIFU_FLOODGATE_GPS,
        boardwire_vectors::data::KIFU_UCHIFUZUME,
    ];
    v.extend(boardwire_vectors::data::CSA_RECORDS.iter().map(|(_, b)| *b));
    v
}

#[test]
fn kifu_statements_and_moves_do_not_allocate() {
    let files = kifu_files();
    let parsed: Vec<_> = files.iter().map(|f| parse_kifu(f).unwrap()).collect();

    let before = allocations();
    let mut statements = 0;
    for f in &files {
        for s in Statements::new(f) {
            statements += usize::from(matches!(s, Ok(Statement::Item(_))));
        }
    }
    // The rules check, which plays every move (`check_file_rules`: "does not
    // allocate").
    let legal = files.iter().filter(|f| check_file_rules(f).is_ok()).count();
    let mut moves = 0;
    let mut comments = 0;
    for records in &parsed {
        for r in records {
            for m in r.iter_moves() {
                moves += 1;
                comments += m.comments().count();
            }
        }
    }
    let n = allocations() - before;

    let items: usize = parsed.iter().flatten().map(|r| r.items.len()).sum();
    assert_eq!(statements, items);
    assert_eq!(legal, files.len());
    // The Floodgate game gps_normal vs gps_l (2010-05-07): 158 move lines.
    assert_eq!(parsed[0][0].iter_moves().count(), 158);
    assert!(comments > 0);
    eprintln!("{statements} statements, {moves} moves, {comments} comments, {n} allocations");
    assert_eq!(
        n, 0,
        "heap allocations while streaming kifu statements and moves"
    );
}

#[test]
fn kifu_records_allocate_their_item_list_only() {
    for f in kifu_files() {
        let before = allocations();
        let mut records = 0;
        for r in Records::new(f) {
            std::hint::black_box(&r);
            records += 1;
        }
        let n = allocations() - before;
        assert!(records >= 1);
        // The item list: reserved from a guess of 24 bytes per statement,
        // grown when the statements are shorter (two reallocs for the
        // MaxMovesTest and OuteSennichiteTest records: 3 allocations each;
        // 1 for the others), or trimmed once. Nothing per statement.
        assert!(n <= 3 * records, "{n} allocations for {records} records");
    }
}

/// `GameSummary::parse` of the recorded shogi-server block (the first
/// `BEGIN Game_Summary` of `CSA_SHOGI_SERVER`) allocates the texts the
/// summary owns and nothing per line: its `Game_ID`, `Name+` and `Name-`
/// (one each), and the nine position lines (one buffer for all). The
/// values every shogi-server summary carries (`Protocol_Version:1.2`,
/// `Protocol_Mode:Server`, `Format:Shogi 1.0`, `Declaration:Jishogi 1.1`,
/// spec/csa.md, *Game_Summary*) take none.
#[test]
fn a_game_summary_allocates_only_its_own_texts() {
    use csa_protocol::message::GameSummary;
    let text = boardwire_vectors::data::CSA_SHOGI_SERVER;
    let start = text
        .find("alice  << BEGIN Game_Summary")
        .expect("a summary");
    let mut block = Vec::new();
    for l in text[start..].lines() {
        let (_, line) = l.split_once(" << ").expect("server lines");
        block.extend_from_slice(line.as_bytes());
        block.push(b'\n');
        if line == "END Game_Summary" {
            break;
        }
    }
    let before = allocations();
    let summary = GameSummary::parse(&block).expect("the recorded summary parses");
    let n = allocations() - before;
    assert_eq!(
        summary.protocol_version.as_ref().map(|t| t.as_str()),
        Some("1.2")
    );
    assert_eq!(
        summary.format.as_ref().map(|t| t.as_str()),
        Some("Shogi 1.0")
    );
    assert_eq!(
        summary.name_black.as_ref().map(|t| t.as_str()),
        Some("alice")
    );
    assert_eq!(
        summary.position.as_ref().map(|p| p.lines().count()),
        Some(9)
    );
    assert_eq!(n, 4, "allocations of one summary");
}
