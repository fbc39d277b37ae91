//! The protocol's own vocabulary: colours, squares, pieces, names, chat text.
//!
//! These are wire types: they know the DXP letters and ranges and nothing of
//! the rules of draughts (that is `board-core`'s job, used by the sessions).
//! Every value that exists is valid on the wire, so encoding never fails.

use core::fmt;

use board_core::draughts as board;

pub use boardwire_proto::text::{CheckedText, TextRule};

use crate::error::{Field, ValueError};

/// A side, as DXP spells it: `W` white, `Z` black (Dutch *zwart*).
///
/// White moves first from the standard start position; Black's men start on
/// squares 1..=20, White's on 31..=50.
#[cfg_attr(feature = "arbitrary", derive(arbitrary::Arbitrary))]
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub enum Color {
    /// White, letter `W`.
    White,
    /// Black, letter `Z` (*zwart*).
    Black,
}

impl Color {
    /// The wire letter: `b'W'` or `b'Z'`.
    #[inline]
    pub const fn letter(self) -> u8 {
        match self {
            Color::White => b'W',
            Color::Black => b'Z',
        }
    }

    /// Parses a strict wire letter (`W` or `Z`); anything else is `None`.
    #[inline]
    pub const fn from_letter(letter: u8) -> Option<Color> {
        match letter {
            b'W' => Some(Color::White),
            b'Z' => Some(Color::Black),
            _ => None,
        }
    }

    /// The other side.
    #[inline]
    pub const fn opposite(self) -> Color {
        match self {
            Color::White => Color::Black,
            Color::Black => Color::White,
        }
    }
}

impl fmt::Display for Color {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(match self {
            Color::White => "white",
            Color::Black => "black",
        })
    }
}

/// A playable square of the 10x10 board, numbered 1..=50 as in PDN.
///
/// Square 1 is at the top left seen from White (Black's side); Black's men
/// start on 1..=20 and White's on 31..=50. On the wire a square is two
/// decimal digits, `01`..=`50`. It is board-core's draughts square
/// ([`board_core::draughts::Square`], whose range rule it uses) with the
/// wire's API; `Debug` shows `Square(32)`, `Display` the number.
///
/// ```
/// use damexchange::wire::Square;
/// assert_eq!(Square::new(32).map(Square::number), Some(32));
/// assert!(Square::new(0).is_none());
/// assert!(Square::new(51).is_none());
/// assert_eq!(format!("{:?}", Square::new(32).unwrap()), "Square(32)");
/// ```
#[derive(Clone, Copy, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub struct Square(board::Square);

impl Square {
    /// The lowest square number, 1.
    pub const MIN: u8 = 1;
    /// The highest square number, 50.
    pub const MAX: u8 = 50;

    /// The square numbered `number`, or `None` outside 1..=50.
    #[inline]
    pub const fn new(number: u8) -> Option<Square> {
        match board::Square::new(number) {
            Some(square) => Some(Square(square)),
            None => None,
        }
    }

    /// The square number, 1..=50.
    #[inline]
    pub const fn number(self) -> u8 {
        self.0.number()
    }

    /// Every square, 1..=50 in order.
    pub fn all() -> impl Iterator<Item = Square> + Clone {
        (Self::MIN..=Self::MAX).filter_map(Square::new)
    }
}

impl TryFrom<u8> for Square {
    type Error = ValueError;
    fn try_from(number: u8) -> Result<Square, ValueError> {
        Square::new(number).ok_or(ValueError::OutOfRange {
            field: Field::Square,
            value: u32::from(number),
            min: 1,
            max: 50,
        })
    }
}

impl fmt::Debug for Square {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        fmt::Debug::fmt(&self.0, f)
    }
}

impl fmt::Display for Square {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        fmt::Display::fmt(&self.0, f)
    }
}

/// Man or king.
#[cfg_attr(feature = "arbitrary", derive(arbitrary::Arbitrary))]
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum PieceKind {
    /// A man (lower-case letter on the wire: `w`, `z`).
    Man,
    /// A king (upper-case letter on the wire: `W`, `Z`).
    King,
}

/// A piece: its colour and kind.
#[cfg_attr(feature = "arbitrary", derive(arbitrary::Arbitrary))]
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct Piece {
    /// Whose piece it is.
    pub color: Color,
    /// Man or king.
    pub kind: PieceKind,
}

impl Piece {
    /// A white man, `w`.
    pub const WHITE_MAN: Piece = Piece {
        color: Color::White,
        kind: PieceKind::Man,
    };
    /// A black man, `z`.
    pub const BLACK_MAN: Piece = Piece {
        color: Color::Black,
        kind: PieceKind::Man,
    };
    /// A white king, `W`.
    pub const WHITE_KING: Piece = Piece {
        color: Color::White,
        kind: PieceKind::King,
    };
    /// A black king, `Z`.
    pub const BLACK_KING: Piece = Piece {
        color: Color::Black,
        kind: PieceKind::King,
    };
}

/// The board letter of a square's content in a GAMEREQ set-up position:
/// `e` empty, `w` white man, `z` black man, `W` white king, `Z` black king.
#[inline]
pub const fn board_letter(content: Option<Piece>) -> u8 {
    match content {
        None => b'e',
        Some(Piece {
            color: Color::White,
            kind: PieceKind::Man,
        }) => b'w',
        Some(Piece {
            color: Color::Black,
            kind: PieceKind::Man,
        }) => b'z',
        Some(Piece {
            color: Color::White,
            kind: PieceKind::King,
        }) => b'W',
        Some(Piece {
            color: Color::Black,
            kind: PieceKind::King,
        }) => b'Z',
    }
}

/// Parses a board letter (see [`board_letter`]); `Err(())` for anything else.
#[inline]
#[allow(clippy::result_unit_err)]
pub const fn parse_board_letter(letter: u8) -> Result<Option<Piece>, ()> {
    match letter {
        b'e' => Ok(None),
        b'w' => Ok(Some(Piece::WHITE_MAN)),
        b'z' => Ok(Some(Piece::BLACK_MAN)),
        b'W' => Ok(Some(Piece::WHITE_KING)),
        b'Z' => Ok(Some(Piece::BLACK_KING)),
        _ => Err(()),
    }
}

/// A program name as carried by GAMEREQ (initiator) and GAMEACC (follower).
///
/// Valid names have 1..=32 bytes of printable ASCII (`0x20..=0x7E`), do not
/// start with a space ([`spec::damexchange`](crate::spec::damexchange), *GAMEREQ*) and do not end with one: on the wire the
/// name is right-padded with spaces to 32 bytes (`Name::MAX_LEN`, the
/// field's width), and the decoder removes that padding, so a trailing
/// space could not survive a round trip.
///
/// `new` returns [`ValueError::Length`] for an empty or over-long name,
/// [`ValueError::InvalidByte`] for a byte outside `0x20..=0x7E`,
/// [`ValueError::EdgeSpace`] for a leading or trailing space; `new`,
/// `as_str` (the name without padding), `into_owned`, `MAX_LEN` and
/// `Display` are the family's [`CheckedText`]; `Debug` shows
/// `Name("Scan 3.1")`.
///
/// ```
/// use damexchange::Name;
/// assert_eq!(Name::new("Scan 3.1").unwrap().as_str(), "Scan 3.1");
/// assert!(Name::new(" leading").is_err());
/// assert!(Name::new("x".repeat(33)).is_err());
/// assert_eq!(Name::MAX_LEN, 32);
/// assert_eq!(format!("{:?}", Name::new("Scan").unwrap()), r#"Name("Scan")"#);
/// ```
pub type Name<'a> = CheckedText<'a, NameRule>;

/// The rule of [`Name`].
#[derive(Debug)]
pub struct NameRule(());

impl TextRule for NameRule {
    type Error = ValueError;
    const MAX_LEN: usize = 32;
    const DEBUG_NAME: Option<&'static str> = Some("Name");

    fn check(text: &str) -> Result<(), ValueError> {
        check_name(text.as_bytes(), Field::Name)
    }
}

/// Wraps bytes the crate's parsers have already checked (decoder use
/// only); the rules' proofs are made here.
pub(crate) trait FromChecked<'a> {
    /// `bytes` (ASCII), not checked again.
    fn from_checked(bytes: &'a [u8]) -> Self;
}

impl<'a> FromChecked<'a> for Name<'a> {
    #[inline]
    fn from_checked(bytes: &'a [u8]) -> Self {
        CheckedText::checked_by(ascii(bytes), NameRule(()))
    }
}

impl<'a> FromChecked<'a> for ChatText<'a> {
    #[inline]
    fn from_checked(bytes: &'a [u8]) -> Self {
        CheckedText::checked_by(ascii(bytes), ChatRule(()))
    }
}

/// Checked bytes as text: the checks only let ASCII through, so this cannot
/// fail; the fallback keeps the decoder panic-free regardless.
#[inline]
fn ascii(bytes: &[u8]) -> &str {
    core::str::from_utf8(bytes).unwrap_or("?")
}

/// Checks the name rules on raw bytes; errors carry indexes into `bytes`.
pub(crate) fn check_name(bytes: &[u8], field: Field) -> Result<(), ValueError> {
    if bytes.is_empty() || bytes.len() > Name::MAX_LEN {
        return Err(ValueError::Length {
            field,
            len: bytes.len(),
            min: 1,
            max: Name::MAX_LEN,
        });
    }
    if let Some(index) = bytes.iter().position(|b| !(0x20..=0x7e).contains(b)) {
        return Err(ValueError::InvalidByte {
            field,
            index,
            byte: bytes[index],
        });
    }
    if bytes[0] == b' ' {
        return Err(ValueError::EdgeSpace { field, index: 0 });
    }
    if bytes[bytes.len() - 1] == b' ' {
        return Err(ValueError::EdgeSpace {
            field,
            index: bytes.len() - 1,
        });
    }
    Ok(())
}

/// The text of a CHAT message: 1..=126 bytes, each in 1..=127 (7-bit ASCII
/// without NUL; control characters are allowed, the spec restricts nothing
/// else).
///
/// `new` returns [`ValueError::Length`] outside 1..=126 bytes,
/// [`ValueError::InvalidByte`] for NUL or a byte above 127; the rest is the
/// family's [`CheckedText`], as for [`Name`] (`Debug`: `ChatText("...")`).
///
/// ```
/// use damexchange::ChatText;
/// assert!(ChatText::new("What do you think about move 35?").is_ok());
/// assert!(ChatText::new("").is_err());
/// assert!(ChatText::new("caf\u{e9}").is_err());
/// ```
pub type ChatText<'a> = CheckedText<'a, ChatRule>;

/// The rule of [`ChatText`]; its `MAX_LEN`, 126, is 127 minus the header
/// byte.
#[derive(Debug)]
pub struct ChatRule(());

impl TextRule for ChatRule {
    type Error = ValueError;
    const MAX_LEN: usize = 126;
    const DEBUG_NAME: Option<&'static str> = Some("ChatText");

    fn check(text: &str) -> Result<(), ValueError> {
        check_chat(text.as_bytes())
    }
}

pub(crate) fn check_chat(bytes: &[u8]) -> Result<(), ValueError> {
    if bytes.is_empty() || bytes.len() > ChatText::MAX_LEN {
        return Err(ValueError::Length {
            field: Field::Text,
            len: bytes.len(),
            min: 1,
            max: ChatText::MAX_LEN,
        });
    }
    if let Some(index) = bytes.iter().position(|&b| b == 0 || b > 0x7f) {
        return Err(ValueError::InvalidByte {
            field: Field::Text,
            index,
            byte: bytes[index],
        });
    }
    Ok(())
}
