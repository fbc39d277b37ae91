//! The line framer: CR, LF, CR LF (and LF CR) terminators, length cap,
//! resynchronisation after an overlong line, split reads.

use novag_citrine::decode::decode;
use novag_citrine::framer::{Framer, Status};
use novag_citrine::message::Reply;

/// Feeds `input` in chunks of `chunk` bytes; returns the frames as owned
/// values (`Err(cap)` for an overlong report, whose `len` must exceed the
/// cap).
fn run(framer: &mut Framer, input: &[u8], chunk: usize) -> Vec<Result<Vec<u8>, usize>> {
    let mut buf = Vec::new();
    let mut out = Vec::new();
    for piece in input.chunks(chunk.max(1)) {
        buf.extend_from_slice(piece);
        loop {
            let (consumed, done) = match framer.decode(&buf) {
                Status::Complete { frame, consumed } => {
                    out.push(Ok(frame.to_vec()));
                    (consumed, false)
                }
                Status::Overlong { len, consumed } => {
                    assert!(len > framer.max_frame_len());
                    out.push(Err(framer.max_frame_len()));
                    (consumed, false)
                }
                Status::Partial { consumed } => (consumed, true),
            };
            assert!(consumed <= buf.len());
            buf.drain(..consumed);
            if done {
                break;
            }
        }
        assert!(
            buf.len() <= framer.max_frame_len() + 1,
            "buffer stays capped"
        );
    }
    out
}

fn lines(v: &[&str]) -> Vec<Result<Vec<u8>, usize>> {
    v.iter().map(|s| Ok(s.as_bytes().to_vec())).collect()
}

#[test]
fn all_terminators() {
    let input = b"New Game\r\nXmit on\rM 1 e2-e4 |\nM 1, e7-e5 |\n\r.Referee on\r\n";
    let want = lines(&[
        "New Game",
        "Xmit on",
        "M 1 e2-e4 |",
        "M 1, e7-e5 |",
        ".Referee on",
    ]);
    for chunk in [1, 2, 3, 5, 7, 64] {
        assert_eq!(
            run(&mut Framer::new(80), input, chunk),
            want,
            "chunk {chunk}"
        );
    }
}

#[test]
fn overlong_line_is_reported_once_and_skipped() {
    let mut input = b"Xmit on\r\n".to_vec();
    input.extend(std::iter::repeat_n(b'z', 1000));
    input.extend_from_slice(b"\r\nNew Game\r\n");
    for chunk in [1, 7, 100, 4096] {
        let got = run(&mut Framer::new(32), &input, chunk);
        assert_eq!(
            got,
            vec![Ok(b"Xmit on".to_vec()), Err(32), Ok(b"New Game".to_vec())],
            "chunk {chunk}"
        );
    }
}

#[test]
fn exactly_at_cap_is_a_line() {
    let got = run(&mut Framer::new(4), b"abcd\r\nabcde\r\nab\n", 64);
    assert_eq!(got, vec![Ok(b"abcd".to_vec()), Err(4), Ok(b"ab".to_vec())]);
}

#[test]
fn truncated_line_then_good_line_stays_in_sync() {
    // A truncated reply (the device lost bytes) decodes as an error or an
    // unrecognised line; the next line decodes normally.
    let got = run(
        &mut Framer::default(),
        b"M   7,  c5x\r\nM   8   g1-f3\r\n",
        3,
    );
    assert_eq!(got.len(), 2);
    assert!(decode::<Reply>(got[0].as_ref().unwrap()).is_err());
    assert!(matches!(
        decode::<Reply>(got[1].as_ref().unwrap()),
        Ok(Reply::Move(_))
    ));
}

// A partial line waits, and an over-long line is reported as soon as the
// cap is passed: step by step with the other framings, in
// `boardwire_proto::framer`'s tests (the Citrine framer is its
// `LineFramer<CrLfLines<256>>`).
