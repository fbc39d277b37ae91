//! Feature `arbitrary`: every message value it makes encodes to one line
//! and decodes back to itself (what the `citrine_command_value` and
//! `citrine_reply_value` fuzz targets check, here over a fixed set of
//! pseudo-random inputs so that `cargo test` covers it too).
#![cfg(feature = "arbitrary")]

use arbitrary::{Arbitrary, Unstructured};
use novag_citrine::decode::{Leniency, decode, decode_with};
use novag_citrine::message::{Command, Reply};

/// Deterministic pseudo-random bytes (xorshift64).
fn bytes(seed: u64, len: usize) -> Vec<u8> {
    let mut x = seed.wrapping_mul(0x9E37_79B9_7F4A_7C15) | 1;
    (0..len)
        .map(|_| {
            x ^= x << 13;
            x ^= x >> 7;
            x ^= x << 17;
            (x >> 24) as u8
        })
        .collect()
}

fn line(bytes: &[u8]) -> &[u8] {
    let line = bytes.strip_suffix(b"\r\n").expect("CR LF");
    assert!(
        !line.iter().any(|b| matches!(b, b'\r' | b'\n')),
        "{bytes:?}"
    );
    line
}

#[test]
fn arbitrary_replies_and_commands_round_trip() {
    let (mut replies, mut commands) = (0, 0);
    for seed in 0..4000 {
        let data = bytes(seed, 96);
        if let Ok(r) = Reply::arbitrary(&mut Unstructured::new(&data)) {
            let b = r.to_bytes();
            assert_eq!(decode::<Reply>(line(&b)).as_ref(), Ok(&r), "{r:?}");
            assert_eq!(
                decode_with::<Reply>(line(&b), &Leniency::DOCUMENT).as_ref(),
                Ok(&r)
            );
            replies += 1;
        }
        if let Ok(c) = Command::arbitrary(&mut Unstructured::new(&data)) {
            let b = c.to_bytes();
            assert_eq!(decode::<Command>(line(&b)).as_ref(), Ok(&c), "{c:?}");
            commands += 1;
        }
    }
    // Nearly every input makes a value (only unrecognised lines that do not
    // decode as such are rejected).
    assert!(replies > 3000 && commands > 3000, "{replies} {commands}");
}
