//! `csa_league::operator`: players.yaml watched and reloaded, `%%RATING`'s
//! list, ratings recomputed from a record tree (against shogi-server's
//! mk_rate output, `tests/data/mk_rate`, see the crate README), files
//! replaced atomically, players handed to a running league.

use std::path::{Path, PathBuf};

use csa_league::operator::{
    PlayersFile, PlayersFileError, PlayersSlot, rate_records, ratings_of, write_atomic,
};
use csa_league::players::{Players, Stamp, Zone};

const JST: Zone = Zone::Fixed(9 * 3600);

fn data() -> PathBuf {
    PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("tests/data")
}

fn scratch(name: &str) -> PathBuf {
    let dir = PathBuf::from(env!("CARGO_TARGET_TMPDIR")).join(name);
    let _ = std::fs::remove_dir_all(&dir);
    std::fs::create_dir_all(&dir).unwrap();
    dir
}

fn mk_rate_yaml(case: &str) -> String {
    std::fs::read_to_string(data().join(format!("mk_rate/{case}.yaml"))).unwrap()
}

#[test]
fn rate_records_agrees_with_mk_game_results_piped_to_mk_rate() {
    // `mk_game_results tree | mk_rate --base-date 2026-06-01` (TZ=JST-9):
    // mk_rate/default.yaml.
    let base = Stamp::parse_time("2026-06-01", JST).unwrap();
    let ours = rate_records(&data().join("tree"), base, JST).unwrap();
    let ruby = Players::from_yaml(&mk_rate_yaml("default")).unwrap();
    assert_eq!(ours.players.entries.len(), ruby.entries.len());
    for (o, r) in ours.players.entries.iter().zip(&ruby.entries) {
        assert_eq!(
            (&o.player_id, o.rating_group),
            (&r.player_id, r.rating_group)
        );
        assert!((o.rate - r.rate).abs() <= 1, "{}", o.player_id);
        assert!((o.win - r.win).abs() < 0.01 && (o.loss - r.loss).abs() < 0.01);
    }
}

#[test]
fn players_file_reloads_on_change_and_keeps_nothing_of_a_bad_file() {
    let dir = scratch("operator_players_file");
    let path = dir.join("players.yaml");
    let mut file = PlayersFile::new(&path);
    // No file: no players; asked again, unchanged.
    assert_eq!(file.poll().unwrap(), Some(Players::default()));
    assert_eq!(file.poll().unwrap(), None);
    write_atomic(&path, mk_rate_yaml("default").as_bytes()).unwrap();
    let first = file.poll().unwrap().unwrap();
    assert_eq!(first.entries.len(), 20);
    assert_eq!(file.poll().unwrap(), None);
    // Another mk_rate output (a different size): read again.
    write_atomic(&path, mk_rate_yaml("half-life-30").as_bytes()).unwrap();
    let second = file.poll().unwrap().unwrap();
    assert_ne!(second, first);
    // A broken file: an error naming the file and the line, once.
    write_atomic(&path, b"---\nplayers:\n  0:\n    x:\n      rate: high\n").unwrap();
    match file.poll() {
        Err(e @ PlayersFileError::Yaml { .. }) => {
            let text = e.to_string();
            assert!(text.contains("players.yaml line 5"), "{text}");
        }
        other => panic!("{other:?}"),
    }
    assert_eq!(file.poll().unwrap(), None);
    // Not UTF-8.
    write_atomic(&path, b"---\nplayers:\n  0:\n    \xff:\n").unwrap();
    assert!(matches!(file.poll(), Err(PlayersFileError::NotUtf8 { .. })));
    // No temporary file left behind.
    let left: Vec<_> = std::fs::read_dir(&dir).unwrap().collect();
    assert_eq!(left.len(), 1);
}

#[test]
fn ratings_of_lists_every_entry_with_its_name_rate_and_date() {
    // shogi-server's %%RATING: every player of every group (the unrated
    // group 999 included), `name`, the integer rate, last_modified.
    let players = Players::from_yaml(&mk_rate_yaml("default")).unwrap();
    let (ratings, skipped) = ratings_of(&players, 0);
    assert!(skipped.is_empty());
    assert_eq!(ratings.len(), 20);
    // From mk_rate/default.yaml: theta, 991.0, 2026-05-31 14:33:40 +09:00;
    // rookie (group 999), 0, 2026-05-30 20:58:24 +09:00.
    let theta = ratings.iter().find(|r| r.name.as_str() == "theta").unwrap();
    assert_eq!((theta.rate, theta.updated_unix_secs), (991, 1_780_205_620));
    let rookie = ratings
        .iter()
        .find(|r| r.name.as_str() == "rookie")
        .unwrap();
    assert_eq!((rookie.rate, rookie.updated_unix_secs), (0, 1_780_142_304));
    // A name that is no login name is left out; no date means now.
    let text =
        "players:\n  0:\n    \"a b\":\n      name: a b\n      rate: 1\n    c:\n      rate: 2\n";
    let (ratings, skipped) = ratings_of(&Players::from_yaml(text).unwrap(), 77);
    assert_eq!(skipped, ["a b"]);
    assert_eq!(ratings.len(), 1);
    assert_eq!(
        (
            ratings[0].name.as_str(),
            ratings[0].rate,
            ratings[0].updated_unix_secs
        ),
        ("c", 2, 77)
    );
}

#[test]
fn a_slot_hands_the_newest_players_once() {
    let slot = PlayersSlot::new();
    let mut source = slot.source();
    assert!(source().is_none());
    let p = |id: &str| {
        Players::from_yaml(&format!("players:\n  0:\n    {id}:\n      rate: 1\n")).unwrap()
    };
    slot.offer(p("a"));
    slot.offer(p("b"));
    assert_eq!(source().unwrap().entries[0].player_id, "b");
    assert!(source().is_none());
}

#[test]
fn write_atomic_fails_cleanly_in_a_missing_directory() {
    let dir = scratch("operator_atomic");
    let path: &Path = &dir.join("no/such/players.yaml");
    assert!(write_atomic(path, b"x").is_err());
    assert_eq!(std::fs::read_dir(&dir).unwrap().count(), 0);
}

/// A FIFO (as `/dev/null` or `/dev/stdout`) is written into, not renamed
/// over: renaming would replace it with a regular file, which, run as root,
/// once turned a CI machine's `/dev/null` into a file every later program
/// read garbage from.
#[cfg(unix)]
#[test]
fn write_atomic_writes_into_a_fifo_and_leaves_it_a_fifo() {
    use std::io::Read;
    use std::os::unix::fs::FileTypeExt;
    let dir = scratch("write-atomic-fifo");
    let fifo = dir.join("pipe");
    let made = std::process::Command::new("mkfifo")
        .arg(&fifo)
        .status()
        .unwrap();
    assert!(made.success());
    let reader = {
        let fifo = fifo.clone();
        std::thread::spawn(move || {
            let mut got = Vec::new();
            std::fs::File::open(fifo)
                .unwrap()
                .read_to_end(&mut got)
                .unwrap();
            got
        })
    };
    write_atomic(&fifo, b"players:\n").unwrap();
    // Checked before joining: a FIFO renamed over leaves the reader waiting.
    assert!(std::fs::metadata(&fifo).unwrap().file_type().is_fifo());
    assert_eq!(reader.join().unwrap(), b"players:\n");
    // No temporary file is left beside it.
    assert_eq!(std::fs::read_dir(&dir).unwrap().count(), 1);
}

/// A symbolic link stays a link: the file it names gets the new bytes.
#[cfg(unix)]
#[test]
fn write_atomic_through_a_symlink_replaces_the_file_it_names() {
    let dir = scratch("write-atomic-symlink");
    let file = dir.join("players.yaml");
    let link = dir.join("current.yaml");
    std::fs::write(&file, b"old\n").unwrap();
    std::os::unix::fs::symlink(&file, &link).unwrap();
    write_atomic(&link, b"new\n").unwrap();
    assert!(
        std::fs::symlink_metadata(&link)
            .unwrap()
            .file_type()
            .is_symlink()
    );
    assert_eq!(std::fs::read(&file).unwrap(), b"new\n");
}
