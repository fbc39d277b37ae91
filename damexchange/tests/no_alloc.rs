//! Framing and decoding one DXP message never allocate on the heap (the
//! claim of `damexchange::decode` and `damexchange::parse`: "never
//! allocates: names and chat text borrow the input"), and neither does
//! `Message::encoded` ("a stack buffer (no heap allocation)").
//!
//! Input: every chunk of the recorded conversations with Scan 3.1, Scan 2.0
//! and pydraughts (`boardwire_vectors::data::DXP_SCAN_FOLLOWER`), which hold
//! all seven message kinds, a malformed MOVE and GAMEREQ and an unknown
//! header, run through `Framer` and `decode` as a reader would.

mod common;

use boardwire_vectors::counting::{Counting, allocations};
use common::{Dir, conversations};
use damexchange::framer::{Framer, Status};
use damexchange::{Leniency, Message, decode, decode_with};

#[global_allocator]
static GLOBAL: Counting = Counting;

/// Index of a decode result: 0..=6 the seven kinds in header order R A M E
/// C B K, 7 an unknown header, 8 an error.
fn slot(decoded: &Result<Message<'_>, damexchange::DecodeError>) -> usize {
    match decoded {
        Ok(Message::GameReq(_)) => 0,
        Ok(Message::GameAcc(_)) => 1,
        Ok(Message::Move(_)) => 2,
        Ok(Message::GameEnd(_)) => 3,
        Ok(Message::Chat(_)) => 4,
        Ok(Message::BackReq(_)) => 5,
        Ok(Message::BackAcc(_)) => 6,
        Ok(_) => 7,
        Err(_) => 8,
    }
}

#[test]
fn framing_and_decoding_the_recording_does_not_allocate() {
    // Set up outside the counted part: one byte stream per direction of
    // each recorded connection (the recv() chunks in order).
    let mut streams: Vec<Vec<u8>> = Vec::new();
    for conv in conversations(common::SCAN_TRANSCRIPT) {
        for dir in [Dir::Initiator, Dir::Follower] {
            let bytes: Vec<u8> = conv
                .chunks
                .iter()
                .filter(|c| c.dir == dir)
                .flat_map(|c| c.bytes.iter().copied())
                .collect();
            streams.push(bytes);
        }
    }
    // Every recorded message ends with its NUL (the recording's own count).
    let nuls: usize = streams
        .iter()
        .map(|s| s.iter().filter(|&&b| b == 0).count())
        .sum();
    let mut lenient = Leniency::STRICT;
    lenient.b_for_black = true;

    let mut kinds = [0usize; 9];
    let mut frames = 0;
    let mut lenient_ok = 0;
    let mut encoded_same = 0;
    let before = allocations();
    for stream in &streams {
        let mut framer = Framer::default();
        let mut rest = &stream[..];
        loop {
            match framer.decode(rest) {
                Status::Complete { frame, consumed } => {
                    frames += 1;
                    let decoded = decode::<Message>(frame);
                    kinds[slot(&decoded)] += 1;
                    if let Ok(msg) = &decoded {
                        encoded_same += usize::from(msg.encoded().as_bytes() == frame);
                    }
                    lenient_ok += usize::from(decode_with::<Message>(frame, &lenient).is_ok());
                    rest = &rest[consumed..];
                }
                Status::Partial { consumed: 0 } => break,
                Status::Partial { consumed } | Status::Overlong { consumed, .. } => {
                    rest = &rest[consumed..];
                }
            }
        }
        std::hint::black_box(rest);
    }
    let allocs = allocations() - before;

    assert_eq!(frames, nuls, "one frame per recorded NUL");
    for (k, n) in kinds[..8].iter().enumerate() {
        assert!(*n > 0, "the recording has message kind {k}");
    }
    // The recording's two malformed messages ("scan malformed 4: truncated
    // MOVE", "scan extra 10: follower colour B"); the second decodes with
    // `b_for_black`.
    assert_eq!(kinds[8], 2, "decode errors");
    assert_eq!(lenient_ok, frames - 1);
    // Every valid message re-encodes byte for byte (transcript.rs checks
    // which); here it only must not allocate.
    assert_eq!(encoded_same, frames - 2);
    eprintln!("{frames} frames, kinds {kinds:?}, {allocs} allocations");
    assert_eq!(
        allocs, 0,
        "heap allocations while framing and decoding {frames} frames"
    );
}
