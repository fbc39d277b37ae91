//! The protocol's own vocabulary: colours, squares, pieces, names, chat text.
//!
//! These are wire types: they know the DXP letters and ranges and nothing of
//! the rules of draughts (that is `board-core`'s job, used by the sessions).
//! Every value that exists is valid on the wire, so encoding never fails.

use alloc::borrow::Cow;
use core::fmt;

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
/// decimal digits, `01`..=`50`.
///
/// ```
/// use damexchange::wire::Square;
/// assert_eq!(Square::new(32).map(Square::number), Some(32));
/// assert!(Square::new(0).is_none());
/// assert!(Square::new(51).is_none());
/// ```
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub struct Square(u8);

impl Square {
    /// The lowest square number, 1.
    pub const MIN: u8 = 1;
    /// The highest square number, 50.
    pub const MAX: u8 = 50;

    /// The square numbered `number`, or `None` outside 1..=50.
    #[inline]
    pub const fn new(number: u8) -> Option<Square> {
        if number >= Self::MIN && number <= Self::MAX {
            Some(Square(number))
        } else {
            None
        }
    }

    /// The square number, 1..=50.
    #[inline]
    pub const fn number(self) -> u8 {
        self.0
    }

    /// Every square, 1..=50 in order.
    pub fn all() -> impl Iterator<Item = Square> + Clone {
        (Self::MIN..=Self::MAX).map(Square)
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
/// name is right-padded with spaces to 32 bytes, and the decoder removes that
/// padding, so a trailing space could not survive a round trip.
///
/// ```
/// use damexchange::Name;
/// assert_eq!(Name::new("Scan 3.1").unwrap().as_str(), "Scan 3.1");
/// assert!(Name::new(" leading").is_err());
/// assert!(Name::new("x".repeat(33)).is_err());
/// ```
#[derive(Clone, Debug, PartialEq, Eq, Hash)]
pub struct Name<'a>(pub(crate) Cow<'a, str>);

impl<'a> Name<'a> {
    /// Width of the name field on the wire, in bytes.
    pub const WIRE_LEN: usize = 32;

    /// Validates a name (see the type's docs for the rules).
    ///
    /// # Errors
    /// [`ValueError::Length`] for an empty or over-long name,
    /// [`ValueError::InvalidByte`] for a byte outside `0x20..=0x7E`,
    /// [`ValueError::EdgeSpace`] for a leading or trailing space.
    pub fn new(name: impl Into<Cow<'a, str>>) -> Result<Name<'a>, ValueError> {
        let name = name.into();
        check_name(name.as_bytes(), Field::Name)?;
        Ok(Name(name))
    }

    /// Builds a name from bytes already checked by [`check_name`].
    pub(crate) fn from_checked(bytes: &'a [u8]) -> Name<'a> {
        // check_name only lets ASCII through, so this cannot fail; the
        // fallback keeps the decoder panic-free regardless.
        Name(Cow::Borrowed(core::str::from_utf8(bytes).unwrap_or("?")))
    }

    /// The name without padding.
    #[inline]
    pub fn as_str(&self) -> &str {
        &self.0
    }

    /// The same name, owning its text (`'static`).
    pub fn into_owned(self) -> Name<'static> {
        Name(Cow::Owned(self.0.into_owned()))
    }
}

impl fmt::Display for Name<'_> {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(&self.0)
    }
}

/// Checks the name rules on raw bytes; errors carry indexes into `bytes`.
pub(crate) fn check_name(bytes: &[u8], field: Field) -> Result<(), ValueError> {
    if bytes.is_empty() || bytes.len() > Name::WIRE_LEN {
        return Err(ValueError::Length {
            field,
            len: bytes.len(),
            min: 1,
            max: Name::WIRE_LEN,
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
/// ```
/// use damexchange::ChatText;
/// assert!(ChatText::new("What do you think about move 35?").is_ok());
/// assert!(ChatText::new("").is_err());
/// assert!(ChatText::new("caf\u{e9}").is_err());
/// ```
#[derive(Clone, Debug, PartialEq, Eq, Hash)]
pub struct ChatText<'a>(pub(crate) Cow<'a, str>);

impl<'a> ChatText<'a> {
    /// Longest chat text, in bytes (127 minus the header byte).
    pub const MAX_LEN: usize = 126;

    /// Validates chat text.
    ///
    /// # Errors
    /// [`ValueError::Length`] outside 1..=126 bytes, [`ValueError::InvalidByte`]
    /// for NUL or a byte above 127.
    pub fn new(text: impl Into<Cow<'a, str>>) -> Result<ChatText<'a>, ValueError> {
        let text = text.into();
        check_chat(text.as_bytes())?;
        Ok(ChatText(text))
    }

    pub(crate) fn from_checked(bytes: &'a [u8]) -> ChatText<'a> {
        ChatText(Cow::Borrowed(core::str::from_utf8(bytes).unwrap_or("?")))
    }

    /// The text.
    #[inline]
    pub fn as_str(&self) -> &str {
        &self.0
    }

    /// The same text, owning it (`'static`).
    pub fn into_owned(self) -> ChatText<'static> {
        ChatText(Cow::Owned(self.0.into_owned()))
    }
}

impl fmt::Display for ChatText<'_> {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(&self.0)
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
