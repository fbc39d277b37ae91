//! Batch mode (`moves GAME -`): every stdin line gets exactly one answer
//! line, in order, whatever the line holds (a caller reading
//! answers line by line must never lose count).
//! Expected moves: the 20 legal first moves of chess (any perft table,
//! depth 1) and the 9 of international draughts.

mod common;
use common::{assert_contains, batch, stdout, with_stdin};

#[test]
fn every_line_is_answered_once_even_blank_and_non_utf8_ones() {
    let input = b"startpos\n\xff\xfe\n\n   \nstartpos\r\n\x01bad\nstartpos";
    let (lines, err) = batch(&["moves", "chess", "-"], input, 2);
    assert_eq!(lines.len(), 7, "{lines:?}");
    for i in [0, 4, 6] {
        assert_eq!(
            lines[i].split(' ').count(),
            20,
            "line {}: {}",
            i + 1,
            lines[i]
        );
    }
    assert_eq!(lines[1], "error: line 2 is not UTF-8 (byte 0)");
    assert_eq!(lines[2], "error: line 3 is blank");
    assert_eq!(lines[3], "error: line 4 is blank");
    assert!(lines[5].starts_with("error: "), "{}", lines[5]);
    assert!(!lines[5].contains('\u{1}'), "a control byte reached stdout");
    assert_contains(&err, "4 stdin line(s) failed");
}

#[test]
fn json_batch_answers_every_line_too() {
    let o = with_stdin(&["moves", "draughts", "-", "--json"], b"\n\xff\nstartpos\n");
    let out = stdout(&o);
    let lines: Vec<&str> = out.lines().collect();
    assert_eq!(lines.len(), 3, "{out}");
    assert!(
        lines[0].contains("\"error\":\"line 1 is blank\""),
        "{}",
        lines[0]
    );
    assert!(
        lines[1].contains("\"error\":\"line 2 is not UTF-8 (byte 0)\""),
        "{}",
        lines[1]
    );
    assert_eq!(lines[2].matches("\"notation\"").count(), 9, "{}", lines[2]);
}

#[test]
fn an_overlong_line_is_answered_and_the_next_one_read() {
    let mut input = vec![b'x'; 100_000];
    input.extend_from_slice(b"\nstartpos\n");
    let o = with_stdin(&["moves", "chess", "-"], &input);
    let out = stdout(&o);
    let lines: Vec<&str> = out.lines().collect();
    assert_eq!(lines.len(), 2, "{}", &out[..out.len().min(300)]);
    assert_eq!(lines[0], "error: line 1 is longer than 65536 bytes");
    assert_eq!(lines[1].split(' ').count(), 20);
}
