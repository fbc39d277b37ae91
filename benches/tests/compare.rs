//! The `compare` binary end to end, at the `--quick` depths: every runner's
//! count is checked against the published count (a Rust peer or board-core
//! that counted differently would make it exit 1), and stand-ins for the
//! external peers that answer in each peer's documented output format are
//! timed — or reported, when they count differently.

use std::path::{Path, PathBuf};
use std::process::Command;

fn compare() -> Command {
    Command::new(env!("CARGO_BIN_EXE_compare"))
}

fn scratch(name: &str) -> PathBuf {
    let dir = std::env::temp_dir().join(format!("boardwire-compare-{}-{name}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    dir
}

fn script(dir: &Path, name: &str, body: &str) -> String {
    use std::os::unix::fs::PermissionsExt;
    let path = dir.join(name);
    std::fs::write(&path, format!("#!/bin/sh\n{body}")).unwrap();
    std::fs::set_permissions(&path, std::fs::Permissions::from_mode(0o755)).unwrap();
    path.to_str().unwrap().to_owned()
}

#[test]
fn quick_run_agrees_with_the_published_counts() {
    let dir = scratch("quick");
    let json = dir.join("out.json");
    let out = compare()
        .args(["--quick", "--rounds", "1", "--reps", "1", "--json"])
        .arg(&json)
        .output()
        .unwrap();
    let table = String::from_utf8(out.stdout).unwrap();
    assert!(
        out.status.success(),
        "{table}\n{}",
        String::from_utf8_lossy(&out.stderr)
    );
    // Chess start position d4: 197,281 (Chess Programming Wiki), counted by
    // board-core, cozy-chess and shakmaty; shogi start d3: 25,470.
    for row in [
        "| chess | startpos | 4 | 197281 |",
        "cozy-chess 0.3",
        "shakmaty 0.30.1",
        "| shogi | startpos | 3 | 25470 |",
        "haitaka 0.3.2",
        "shogi_legality_lite 0.1.3",
        "| draughts | woldouby | 10 | 88050 |",
    ] {
        assert!(table.contains(row), "{row} missing:\n{table}");
    }
    assert!(!table.contains("error"), "{table}");
    let json = std::fs::read_to_string(&json).unwrap();
    assert!(json.contains("\"leaves\": 197281"), "{json}");
    std::fs::remove_dir_all(&dir).unwrap();
}

#[test]
fn external_peers_in_their_output_formats() {
    let dir = scratch("external");
    // Moby Dam's test/perft prints every depth up to -c (perft.c's printf).
    let mobydam = script(
        &dir,
        "perft",
        r#"[ "$1" = -b ] && [ "$2" = -c ] || exit 1
echo "board"
echo "perft(9) 22369 nodes, 0.01 sec, 2237 kN/s, bulk"
echo "perft(10) 88050 nodes, 0.02 sec, 4402 kN/s, bulk"
"#,
    );
    // Gigantua exits 0 when its count is the third argument, 9 otherwise.
    let gigantua = script(
        &dir,
        "gigantua",
        r#"[ "$3" = 97862 ] || [ "$3" = 197281 ] && exit 0; exit 9"#,
    );
    // A USI engine answering `go perft N` in YaneuraOu's format
    // (source/perft.h and usi.cpp): one `<move>: <count>` line per root move,
    // `Elapsed Time = <ms> [ms]`, `<nodes per second> NPS`, an empty line,
    // `Nodes searched: <total>`, an empty line. Only that line is the total:
    // at the start d3 the NPS figure here equals the leaf count, and at
    // max593 d1 the elapsed time is 593 while the total is 594 (wrong).
    let yaneuraou = script(
        &dir,
        "yaneuraou",
        r#"while read -r line; do
  case "$line" in
    usi) echo "id name stand-in"; echo "id author nobody"
         echo "option name USI_Hash type spin default 1024 min 1 max 33554432"; echo usiok ;;
    isready) echo readyok ;;
    "go perft 3") echo "1g1f: 900"; echo "2g2f: 25470"; echo "Elapsed Time = 1000 [ms]"
                  echo "25470 NPS"; echo; echo "Nodes searched: 25470"; echo ;;
    "go perft 1") echo "R*1a: 1"; echo "Elapsed Time = 593 [ms]"; echo "1 NPS"; echo
                  echo "Nodes searched: 594"; echo ;;
    quit) exit 0 ;;
  esac
done
"#,
    );
    let out = compare()
        .args(["--quick", "--rounds", "2", "--reps", "1", "--no-rust-peers"])
        .args([
            "--mobydam",
            &mobydam,
            "--gigantua",
            &gigantua,
            "--yaneuraou",
            &yaneuraou,
        ])
        .args([
            "--position",
            "woldouby",
            "--position",
            "kiwipete",
            "--position",
            "startpos",
            "--position",
            "max593",
        ])
        .arg("--json")
        .arg(dir.join("out.json"))
        .output()
        .unwrap();
    let table = String::from_utf8(out.stdout).unwrap();
    let stderr = String::from_utf8_lossy(&out.stderr);
    // Moby Dam's own time for the last depth is taken: 0.02 s.
    assert!(
        table.contains("| draughts | woldouby | 10 | 88050 |"),
        "{table}"
    );
    assert!(
        table.contains("| Moby Dam | 20.0 ms (20.0 ms) |"),
        "{table}"
    );
    // Moby Dam printed no perft(6) line for the start position.
    assert!(stderr.contains("Moby Dam printed no `perft(6)"), "{stderr}");
    assert!(
        table.contains("| chess | kiwipete | 3 | 97862 |"),
        "{table}"
    );
    assert!(!table.contains("Gigantua | error"), "{table}");
    assert!(
        table.contains("| shogi | startpos | 3 | 25470 |"),
        "{table}"
    );
    let shogi_start = table
        .lines()
        .find(|l| l.starts_with("| shogi | startpos | 3 | 25470 |") && l.contains("| YaneuraOu |"))
        .unwrap_or_else(|| panic!("no YaneuraOu row at the shogi start:\n{table}"));
    assert!(!shogi_start.contains("error"), "{shogi_start}");
    // The stand-in counts 594 at max593 d1 (593 is right): reported, not timed.
    assert!(
        stderr.contains("YaneuraOu answered `Nodes searched: 594`, not 593 leaves"),
        "{stderr}"
    );
    assert!(!out.status.success());
    std::fs::remove_dir_all(&dir).unwrap();
}
