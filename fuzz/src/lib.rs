//! Property checks run by the fuzz targets (`fuzz_targets/*.rs` are two-line
//! wrappers around these functions). The protocol crates' decode and value
//! targets are made by one macro each ([`decode_target!`], [`value_target!`]),
//! the same property for every message type of the three crates.

// The board-core targets need only board-core; the others need the
// crate's features (on by default; see Cargo.toml).
pub mod chess;
#[cfg(feature = "differential")]
pub mod chess_differential;
#[cfg(feature = "protocols")]
pub mod citrine;
#[cfg(feature = "protocols")]
pub mod csa;
pub mod draughts;
pub mod draughts_reference;
#[cfg(feature = "protocols")]
pub mod dxp;
#[cfg(feature = "protocols")]
pub mod pair;
#[cfg(feature = "protocols")]
pub mod records;
pub mod shogi;
#[cfg(feature = "differential")]
pub mod shogi_differential;

/// The differential targets' move-set check: board-core's moves (`ours`,
/// as text, in its order) hold no move twice and are, sorted, the peer's
/// (`theirs`, sorted keys); the panic names `pos` and the moves that led
/// there (`trail`).
#[cfg(feature = "differential")]
pub(crate) fn same_move_set<'a>(
    ours: &[String],
    theirs: impl Iterator<Item = &'a String>,
    pos: &dyn core::fmt::Display,
    trail: &str,
) {
    let mut sorted: Vec<&String> = ours.iter().collect();
    sorted.sort();
    sorted.dedup();
    assert_eq!(
        sorted.len(),
        ours.len(),
        "{trail}: board-core lists a move twice"
    );
    assert_eq!(
        sorted,
        theirs.collect::<Vec<_>>(),
        "{trail}: legal move sets differ at {pos}"
    );
}

/// Splits fuzz input into a position (its first line, parsed as `P`) and
/// the rest: `None` when the input is not UTF-8 or the first line does not
/// parse. Returns the position, its text and the rest (empty when there is
/// no second line).
pub fn position_and_rest<P: core::str::FromStr>(data: &[u8]) -> Option<(P, &str, &str)> {
    let text = core::str::from_utf8(data).ok()?;
    let (position, rest) = text.split_once('\n').unwrap_or((text, ""));
    Some((position.parse().ok()?, position, rest))
}

/// Calls `check` on one value of `T` made by `arbitrary` from each of
/// `rounds` fixed-seed byte strings (round `i` has `16 * i` bytes): the
/// unit tests of the board games' value properties ([`chess::value`],
/// [`draughts::value`], [`shogi::value`]) run this way without the fuzzer.
pub fn for_fixed_values<T: for<'a> arbitrary::Arbitrary<'a>>(
    rounds: usize,
    mut check: impl FnMut(T),
) {
    let mut rng = board_core::player::Player::new(12);
    for round in 0..rounds {
        let bytes: Vec<u8> = (0..round * 16).map(|_| rng.next_u64() as u8).collect();
        check(T::arbitrary(&mut arbitrary::Unstructured::new(&bytes)).unwrap());
    }
}

/// Every frame a crate's default [`Framer`](damexchange::framer::Framer)
/// cuts from `bytes` (given whole), as owned byte vectors; over-long frames
/// are left out. Used by the target macros for all three protocol crates,
/// whose framers share one shape.
#[macro_export]
macro_rules! frames_of {
    ($krate:ident, $bytes:expr) => {{
        use $krate::framer::{Framer, Status};
        let mut framer = Framer::default();
        let mut rest: &[u8] = $bytes;
        let mut out: Vec<Vec<u8>> = Vec::new();
        loop {
            match framer.decode(rest) {
                Status::Complete { frame, consumed } => {
                    out.push(frame.to_vec());
                    rest = &rest[consumed..];
                }
                Status::Overlong { consumed, .. } => rest = &rest[consumed..],
                Status::Partial { consumed } => {
                    rest = &rest[consumed..];
                    if rest.is_empty() || consumed == 0 {
                        break;
                    }
                }
            }
        }
        out
    }};
}

/// A decode target for one message type of one protocol crate:
/// `decode_target!(damexchange, Message)`, optionally followed by a
/// crate-specific property `fn(&[u8])` run on the same input.
///
/// The property, the same in every crate: decoding any bytes never panics;
/// an error points inside the frame (`offset <= len`) and displays; a
/// decoded value displays, and — when the input holds no terminator, as
/// every frame the framer delivers — encodes to exactly one frame that
/// decodes to the same value.
#[macro_export]
macro_rules! decode_target {
    ($krate:ident, $ty:ident $(, $extra:expr)? $(,)?) => {
        libfuzzer_sys::fuzz_target!(|data: &[u8]| {
            use $krate::decode::decode;
            use $krate::message::$ty;
            match decode::<$ty>(data) {
                Ok(msg) => {
                    let _ = msg.to_string();
                    // `data` is a frame the framer could deliver when
                    // appending some one-byte terminator makes it exactly one.
                    let deliverable = [b'\0', b'\n', b'\r'].iter().any(|&t| {
                        let mut terminated = data.to_vec();
                        terminated.push(t);
                        $crate::frames_of!($krate, &terminated) == [data.to_vec()]
                    });
                    if deliverable {
                        let bytes = msg.to_bytes();
                        let frames = $crate::frames_of!($krate, &bytes);
                        assert_eq!(frames.len(), 1, "{bytes:?} is not one frame");
                        assert_eq!(
                            decode::<$ty>(&frames[0]).as_ref(),
                            Ok(&msg),
                            "{data:?} re-encoded as {bytes:?}"
                        );
                    }
                }
                Err(e) => {
                    assert!(e.offset <= data.len(), "{e:?} for {data:?}");
                    let _ = e.to_string();
                }
            }
            $( ($extra)(data); )?
        });
    };
}

/// A value target for one message type of one protocol crate (feature
/// `arbitrary`): `value_target!(damexchange, Message)`, optionally followed
/// by a crate-specific property `fn(&[T])` run on the same values.
///
/// The property, the same in every crate: every valid value displays and
/// encodes to exactly one frame that decodes (strictly) to the same value,
/// and all of them written one after another come out of one framer in
/// order.
#[macro_export]
macro_rules! value_target {
    ($krate:ident, $ty:ident $(, $extra:expr)? $(,)?) => {
        libfuzzer_sys::fuzz_target!(|msgs: Vec<$krate::message::$ty<'_>>| {
            use $krate::decode::decode;
            use $krate::message::$ty;
            let mut stream = Vec::new();
            for msg in &msgs {
                let _ = msg.to_string();
                let bytes = msg.to_bytes();
                let frames = $crate::frames_of!($krate, &bytes);
                assert_eq!(frames.len(), 1, "{msg:?} encodes as {bytes:?}");
                assert_eq!(decode::<$ty>(&frames[0]).as_ref(), Ok(msg), "{bytes:?}");
                stream.extend_from_slice(&bytes);
            }
            let frames = $crate::frames_of!($krate, &stream);
            assert_eq!(frames.len(), msgs.len(), "{stream:?}");
            for (frame, msg) in frames.iter().zip(&msgs) {
                assert_eq!(decode::<$ty>(frame).as_ref(), Ok(msg), "{frame:?}");
            }
            $( ($extra)(&msgs[..]); )?
        });
    };
}

#[cfg(all(test, feature = "differential"))]
mod regressions {
    /// Every input saved under `regressions/<target>/` (the minimal inputs
    /// of past findings) replays through its target's property without a
    /// panic.
    #[test]
    fn replay() {
        let dir = std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("regressions");
        let mut n = 0;
        for target in std::fs::read_dir(&dir).unwrap() {
            let target = target.unwrap().path();
            let run: fn(&[u8]) = match target.file_name().unwrap().to_str().unwrap() {
                "chess_differential" => crate::chess_differential::run,
                "shogi_differential" => crate::shogi_differential::run,
                "csa_client_session" => crate::csa::client_session,
                "pgn_read" => crate::records::pgn_read,
                other => panic!("no replay for target {other}"),
            };
            for input in std::fs::read_dir(&target).unwrap() {
                run(&std::fs::read(input.unwrap().path()).unwrap());
                n += 1;
            }
        }
        assert!(n > 0);
    }
}
