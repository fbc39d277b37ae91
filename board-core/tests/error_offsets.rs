//! One position convention in every notation: a syntax error's `offset` is
//! a 0-based byte offset into the text as given, never past its end, and
//! where the error names the character found, that character is at the
//! offset. Property tests over texts made of each notation's own alphabet
//! (so that parsing gets deep), plus a few bytes from outside it.

use board_core::{chess, draughts, shogi};
use proptest::prelude::*;

/// Texts of up to `max` characters drawn from `alphabet` (and now and then
/// a non-ASCII character, to check that offsets count bytes).
fn text(alphabet: &'static str, max: usize) -> impl Strategy<Value = String> {
    let chars: Vec<char> = alphabet.chars().chain(['é', '\u{3042}']).collect();
    proptest::collection::vec(proptest::sample::select(chars), 0..=max)
        .prop_map(|v| v.into_iter().collect())
}

/// The character at byte `offset` of `s`, if `offset` is a character
/// boundary inside `s`.
fn char_at(s: &str, offset: usize) -> Option<char> {
    s.get(offset..).and_then(|rest| rest.chars().next())
}

proptest! {
    #![proptest_config(ProptestConfig { cases: 2000, ..ProptestConfig::default() })]

    #[test]
    fn pdn_fen_offsets(s in text("WBK0123456789:,-xHF \t", 40)) {
        use draughts::ParseFenError as E;
        if let Err(e) = s.parse::<draughts::Position>() {
            if let Some(offset) = e.offset() {
                assert!(offset <= s.len(), "{s:?}: {e}");
            }
            match e {
                E::InvalidSide { offset } => {
                    assert!(!matches!(char_at(&s, offset), Some('W' | 'B')), "{s:?}: {e}");
                }
                E::ExpectedColon { offset } => {
                    assert_ne!(char_at(&s, offset), Some(':'), "{s:?}: {e}");
                }
                E::SquareOutOfRange { offset, .. } => {
                    assert!(char_at(&s, offset).is_some_and(|c| c.is_ascii_digit()), "{s:?}: {e}");
                }
                _ => {}
            }
            assert!(e.to_string().contains(&match e.offset() {
                Some(o) => format!("at byte {o}:"),
                None => String::new(),
            }));
        }
    }

    #[test]
    fn pdn_move_offsets(s in text("0123456789-xX /", 30)) {
        use draughts::ParseMoveError as E;
        if let Err(e) = s.parse::<draughts::PdnMove>() {
            if let Some(offset) = e.offset() {
                assert!(offset <= s.len(), "{s:?}: {e}");
                assert!(e.to_string().contains(&format!("at byte {offset}:")));
            }
            match e {
                E::ExpectedSquare { offset } => {
                    assert!(!char_at(&s, offset).is_some_and(|c| c.is_ascii_digit()), "{s:?}: {e}");
                }
                E::InvalidSeparator { offset } => {
                    assert!(char_at(&s, offset).is_some(), "{s:?}: {e}");
                }
                _ => {}
            }
        }
    }

    #[test]
    fn fen_offsets(s in text("rnbqkpRNBQKP12345678/ wb-KQkqeh36 0123456789", 70)) {
        if let Err(e) = s.parse::<chess::Position>() {
            assert!(e.offset <= s.len(), "{s:?}: {e}");
            if let chess::FenErrorKind::UnexpectedChar(c) | chess::FenErrorKind::DuplicateCastling(c) = e.kind {
                assert_eq!(char_at(&s, e.offset), Some(c), "{:?}: {}", s, e);
            }
            assert!(e.to_string().contains(&format!("at byte {}:", e.offset)));
        }
    }

    #[test]
    fn uci_offsets(s in text("abcdefghi0123456789nbrqk", 7)) {
        if let Err(e) = s.parse::<chess::UciMove>() {
            assert!(e.offset <= s.len(), "{s:?}: {e}");
        }
    }

    #[test]
    fn sfen_offsets(s in text("lnsgkrbpLNSGKRBP+/123456789 bw-", 80)) {
        use shogi::ParseSfenError as E;
        if let Err(e) = shogi::Position::from_sfen(&s) {
            if let Some(offset) = e.offset() {
                assert!(offset <= s.len(), "{s:?}: {e}");
                assert!(e.to_string().contains(&format!("at byte {offset}:")));
            }
            match e {
                E::UnexpectedChar { offset, found, .. } => {
                    assert_eq!(char_at(&s, offset), Some(found), "{:?}: {}", s, e);
                }
                E::BadPromotion { offset } => {
                    assert_eq!(char_at(&s, offset), Some('+'), "{:?}: {}", s, e);
                }
                _ => {}
            }
        }
    }

    #[test]
    fn usi_offsets(bytes in proptest::collection::vec(any::<u8>(), 0..7)) {
        if let Err(shogi::ParseUsiMoveError::UnexpectedChar { offset, found, .. }) =
            shogi::Move::from_usi_bytes(&bytes)
        {
            assert!(offset < bytes.len());
            assert_eq!(u32::from(bytes[offset]), u32::from(found));
        }
    }

    #[test]
    fn csa_move_offsets(bytes in proptest::collection::vec(any::<u8>(), 7)) {
        if let Err(e) = shogi::CsaMove::parse(&bytes) {
            assert!(e.offset().is_some_and(|o| o < 7), "{bytes:?}: {e}");
            if let shogi::ParseCsaMoveError::UnexpectedChar { offset, found, .. } = e {
                assert_eq!(u32::from(bytes[offset]), u32::from(found));
            }
        }
    }

    #[test]
    fn csa_position_offsets(line in text("P123456789I+-*FUKYKEGIKIKAHIOUTONYNKNGUMRYAL0 '", 40)) {
        let mut parser = shogi::CsaPositionParser::new();
        if let Err(e) = parser.feed_line(line.as_bytes()) {
            assert_eq!(e.line, 1);
            assert!(e.offset <= line.len(), "{line:?}: {e}");
        }
    }
}
