//! The value types' documented contracts (`types`): ranges, conversions and
//! the arithmetic they do, checked at their boundaries with values from the
//! spec note (spec/citrine.md) and the chess conventions it relies on.

use novag_citrine::decode::decode;
use novag_citrine::error::ValueError;
use novag_citrine::message::Reply;
use novag_citrine::types::{ClockTime, MoveNumber, Token};

/// Ply `n` (0-based half-moves from the start, White first) belongs to
/// move `n / 2 + 1` in chess numbering (White's and Black's half-moves
/// share a number: the spec note's `M   7   g1-f3` / `M   7,  c5xd4`);
/// past move 9999 (the documented range `1..=9999`) there is none.
#[test]
fn move_number_of_ply_is_chess_numbering() {
    let of = |ply| MoveNumber::of_ply(ply).map(MoveNumber::get);
    assert_eq!(of(0), Some(1));
    assert_eq!(of(1), Some(1));
    assert_eq!(of(2), Some(2));
    assert_eq!(of(3), Some(2));
    assert_eq!(of(12), Some(7));
    assert_eq!(of(13), Some(7));
    assert_eq!(of(19_997), Some(9999));
    assert_eq!(of(19_998), None);
    assert_eq!(of(usize::MAX), None);
}

/// The spec note's clock reading `Clock 00:06:27 00:00:01` (white, black;
/// hh:mm:ss): its parts, and 6 min 27 s = 387 s.
#[test]
fn clock_reading_parts_and_seconds() {
    let Reply::Clock { white, black } = decode::<Reply>(b"Clock 00:06:27 00:00:01").unwrap() else {
        panic!()
    };
    assert_eq!(
        (white.hours(), white.minutes(), white.seconds()),
        (0, 6, 27)
    );
    assert_eq!((black.hours(), black.minutes(), black.seconds()), (0, 0, 1));
    assert_eq!(white.total_seconds(), 387);
    assert_eq!(black.total_seconds(), 1);
    // Two-digit hours (`hh`): 12:34:56 is 12 h 34 min 56 s = 45 296 s.
    let t = ClockTime::new(12, 34, 56).unwrap();
    assert_eq!((t.hours(), t.minutes(), t.seconds()), (12, 34, 56));
    assert_eq!(t.total_seconds(), 12 * 3600 + 34 * 60 + 56);
    assert_eq!(ClockTime::from_total_seconds(45_296), t);
    assert_eq!(ClockTime::from_total_seconds(387), white);
    // The largest reading, 99:59:59, is 359 999 s; more saturates there.
    let max = ClockTime::new(99, 59, 59).unwrap();
    assert_eq!(max.total_seconds(), 359_999);
    assert_eq!(ClockTime::from_total_seconds(359_999), max);
    assert_eq!(ClockTime::from_total_seconds(360_000), max);
    assert_eq!(ClockTime::from_total_seconds(u32::MAX), max);
    assert_eq!(ClockTime::from_total_seconds(0).total_seconds(), 0);
}

/// `hh:mm:ss`: hours `0..=99` (two digits), minutes and seconds `0..=59`.
#[test]
fn clock_time_ranges() {
    assert!(ClockTime::new(99, 59, 59).is_ok());
    assert!(ClockTime::new(100, 0, 0).is_err());
    assert!(ClockTime::new(0, 60, 0).is_err());
    assert!(ClockTime::new(0, 0, 60).is_err());
}

/// A token (the identity's `UCBII`, `V1.09`; a set-up text) is 1..=64
/// printable ASCII bytes (`types::Token`'s documented rule).
#[test]
fn token_is_one_to_sixty_four_printable_bytes() {
    let a64 = "A".repeat(64);
    assert_eq!(Token::new(&a64).map(|t| t.as_str().len()), Ok(64));
    assert_eq!(
        Token::new("A".repeat(65)),
        Err(ValueError::TooLong {
            what: "token",
            len: 65,
            max: 64
        })
    );
    assert_eq!(Token::new(""), Err(ValueError::Empty { what: "token" }));
    assert_eq!(
        Token::new("V1 09"),
        Err(ValueError::BadByte {
            what: "token",
            byte: b' ',
            offset: 2
        })
    );
    assert!(Token::new("pcpa2ka1bkh8-").is_ok());
}
