//! Real PGN files (`tests/data/pgn/real/`, see PROVENANCE.md there): each
//! game reads to the main line python-chess 1.11.2 reads (`expected.tsv`,
//! written by `peers.py` there), or is refused with the typed error listed
//! here.

mod common;
use common::uci_line;

use board_records::pgn::{Game, ReadError, Reader};

fn dir() -> String {
    format!("{}/tests/data/pgn/real", env!("CARGO_MANIFEST_DIR"))
}

#[test]
fn every_game_reads_as_python_chess_reads_it_or_is_refused() {
    let expected = std::fs::read_to_string(format!("{}/expected.tsv", dir())).unwrap();
    let mut by_file: std::collections::BTreeMap<&str, Vec<(&str, &str)>> = Default::default();
    for line in expected.lines().filter(|l| !l.starts_with('#')) {
        let f: Vec<&str> = line.split('\t').collect();
        by_file
            .entry(f[0])
            .or_default()
            .push((f[2], f.get(3).copied().unwrap_or("")));
    }
    let (mut games, mut agreed, mut refused) = (0, 0, 0);
    let mut problems = Vec::new();
    for (name, theirs) in &by_file {
        let bytes = std::fs::read(format!("{}/{name}", dir())).unwrap();
        let ours: Vec<Result<Game, ReadError>> = Reader::new(&bytes).games().collect();
        if ours.len() != theirs.len() {
            problems.push(format!(
                "{name}: {} games, python-chess {}",
                ours.len(),
                theirs.len()
            ));
        }
        for (k, (g, (peer, moves))) in ours.iter().zip(theirs).enumerate() {
            games += 1;
            match g {
                // mliebelt/pgn-parser's `sampleGameThrow.pgn`: "Sf3 is
                // German and should be Nf3" (its own comment: a reader
                // must refuse it). python-chess reads `Sf3` as the pawn
                // move f2f3 without an error: a wrong game. Refused here,
                // naming the ply, the SAN and where it is.
                Err(e) if *name == "pp-sampleGameThrow.pgn" => {
                    let at = e.location();
                    assert_eq!((at.line, at.column), (2, 13), "{e}");
                    assert!(e.to_string().contains("ply 3: Sf3"), "{e}");
                    refused += 1;
                }
                Ok(g) if uci_line(g) == *moves => agreed += 1,
                Ok(g) => problems.push(format!(
                    "{name} game {}: {} vs {peer} {moves}",
                    k + 1,
                    uci_line(g)
                )),
                Err(e) => problems.push(format!("{name} game {}: {e} ({peer})", k + 1)),
            }
        }
    }
    assert_eq!(problems, Vec::<String>::new());
    assert_eq!((by_file.len(), games, agreed, refused), (26, 192, 191, 1));
}
