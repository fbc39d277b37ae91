//! The line framer: CR, LF, CR LF (and LF CR) terminators, length cap,
//! resynchronisation after an overlong line, split reads.

use novag_citrine::{Frame, LineFramer, Reply};

/// Feeds `input` in chunks of `chunk` bytes; returns the frames as owned
/// values (`Err(())` for an overlong report).
fn run(framer: &mut LineFramer, input: &[u8], chunk: usize) -> Vec<Result<Vec<u8>, usize>> {
    let mut buf = Vec::new();
    let mut out = Vec::new();
    for piece in input.chunks(chunk.max(1)) {
        buf.extend_from_slice(piece);
        loop {
            let step = framer.next(&buf);
            match step.frame {
                Some(Frame::Line(l)) => out.push(Ok(l.to_vec())),
                Some(Frame::Overlong { max_len }) => out.push(Err(max_len)),
                None => {}
            }
            let done = step.frame.is_none();
            buf.drain(..step.consumed);
            if done {
                break;
            }
        }
        assert!(buf.len() <= framer.max_len() + 1, "buffer stays capped");
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
            run(&mut LineFramer::new(80), input, chunk),
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
        let got = run(&mut LineFramer::new(32), &input, chunk);
        assert_eq!(
            got,
            vec![Ok(b"Xmit on".to_vec()), Err(32), Ok(b"New Game".to_vec())],
            "chunk {chunk}"
        );
    }
}

#[test]
fn exactly_at_cap_is_a_line() {
    let got = run(&mut LineFramer::new(4), b"abcd\r\nabcde\r\nab\n", 64);
    assert_eq!(got, vec![Ok(b"abcd".to_vec()), Err(4), Ok(b"ab".to_vec())]);
}

#[test]
fn partial_line_waits() {
    let mut f = LineFramer::default();
    let step = f.next(b"M   7,  c5");
    assert_eq!((step.frame, step.consumed), (None, 0));
    let step = f.next(b"M   7,  c5xd4\r\n");
    assert_eq!(step.frame, Some(Frame::Line(b"M   7,  c5xd4")));
}

#[test]
fn truncated_line_then_good_line_stays_in_sync() {
    // A truncated reply (the device lost bytes) decodes as an error or an
    // unrecognised line; the next line decodes normally.
    let got = run(
        &mut LineFramer::default(),
        b"M   7,  c5x\r\nM   8   g1-f3\r\n",
        3,
    );
    assert_eq!(got.len(), 2);
    assert!(Reply::decode(got[0].as_ref().unwrap()).is_err());
    assert!(matches!(
        Reply::decode(got[1].as_ref().unwrap()),
        Ok(Reply::Move(_))
    ));
}
