//! Real CSA files (`board-records/tests/data/csa/real/`, see PROVENANCE.md
//! there): each record of each file is read by `boardwire convert FILE -
//! --to moves` to the start position and the moves real peers read
//! (`expected.tsv`, written by `peers.py` there from cshogi 1.1.0 and
//! python-shogi 1.1.1), or the file is refused with the error listed here.

mod common;

use std::collections::BTreeMap;

use common::{boardwire, stderr, stdout};

const DIR: &str = concat!(
    env!("CARGO_MANIFEST_DIR"),
    "/../board-records/tests/data/csa/real"
);

/// The even start, as `startpos` stands for it (SFEN board, side, hands).
const STARTPOS: &str = "lnsgkgsnl/1r5b1/ppppppppp/9/9/9/PPPPPPPPP/1B5R1/LNSGKGSNL b -";

/// One game of our `--to moves` output: the start (SFEN board, side and
/// hands) and the USI moves.
fn game(line: &str) -> (String, String) {
    let (start, moves) = match line.split_once(" moves ") {
        Some((s, m)) => (s, m.to_string()),
        None => (line, String::new()),
    };
    let start = match start.strip_prefix("sfen ") {
        Some(sfen) => sfen.split(' ').take(3).collect::<Vec<_>>().join(" "),
        None => {
            assert_eq!(start, "startpos", "{line}");
            STARTPOS.to_string()
        }
    };
    (start, moves)
}

#[test]
fn every_record_reads_as_the_peers_read_it_or_is_refused() {
    let tsv = std::fs::read_to_string(format!("{DIR}/expected.tsv")).unwrap();
    // file -> [(peer, start, moves)] in record order.
    let mut files: BTreeMap<&str, Vec<(&str, &str, &str)>> = BTreeMap::new();
    for line in tsv.lines().filter(|l| !l.starts_with('#')) {
        let f: Vec<&str> = line.split('\t').collect();
        files.entry(f[0]).or_default().push((f[2], f[3], f[4]));
    }
    let (mut records, mut both) = (0, 0);
    let mut refused = 0;
    for (name, expected) in &files {
        let path = format!("{DIR}/{name}");
        let o = boardwire(&["convert", &path, "-", "--to", "moves"]);
        let refusal = match *name {
            // GPS将棋's 2005 record pads its statements with spaces
            // (`+7776FU  ,T0       ,'T0`); V2.2 separates statements by
            // `,` alone, and a move is 7 bytes (shogi-records §3.2, §3.5).
            // cshogi and python-shogi read it.
            "jkf-2005_YAMADA_GPS.csa" => Some(
                "CSA syntax error at line 18, column 8 (byte 391): a move is 7 bytes like +7776FU",
            ),
            // The nine-pawn tsume diagram (two White pawns on file 2 and
            // more): refused as its KIF twin is (tests/kif_corpus.rs);
            // python-shogi refuses both, cshogi reads the first and
            // crashes on the second (a segmentation fault).
            // The error is found at the side-to-move line ending the
            // position (shogi-records §3.4), which it names.
            "jkf-9fu.csa" => Some(
                "CSA game error at line 19, column 1 (byte 495): record 1: start position: \
                 impossible position: two white pawns on file 2 (nifu)",
            ),
            "jkf-9fu_komabetsu.csa" => Some(
                "CSA game error at line 11, column 1 (byte 268): record 1: start position: \
                 impossible position: two white pawns on file 2 (nifu)",
            ),
            _ => None,
        };
        if let Some(why) = refusal {
            assert_eq!(o.status.code(), Some(2), "{name}");
            let err = stderr(&o);
            assert!(err.contains(why), "{name}: {err}");
            refused += 1;
            continue;
        }
        assert_eq!(o.status.code(), Some(0), "{name}: {}", stderr(&o));
        let out = stdout(&o);
        let ours: Vec<(String, String)> = out.lines().map(game).collect();
        assert_eq!(ours.len(), expected.len(), "{name}: {out}");
        for ((start, moves), (peer, their_start, their_moves)) in ours.iter().zip(expected) {
            assert_eq!(start, their_start, "{name} ({peer})");
            assert_eq!(moves, their_moves, "{name} ({peer})");
            records += 1;
            both += usize::from(*peer == "python-shogi+cshogi");
        }
    }
    assert_eq!((files.len(), refused, records, both), (28, 3, 25, 25));
}
