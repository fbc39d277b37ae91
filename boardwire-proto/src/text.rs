//! Validated text of a wire field, written once for the family: a
//! [`CheckedText`] is text that a [`TextRule`] accepted when the value was
//! made, borrowed from the frame it was decoded from or owned.
//!
//! A protocol crate names its field type as an alias,
//! `pub type Text<'a> = CheckedText<'a, TextLine>;`, and writes only the
//! rule: the constructor, the accessors, `Display`, `Debug`, equality,
//! ordering and hashing are these. With the `arbitrary` feature, a rule
//! that also implements `ArbitraryRule` (its generator) gives its type
//! `arbitrary::Arbitrary`.
//!
//! ```
//! use boardwire_proto::text::{CheckedText, TextRule};
//!
//! /// Text without a space.
//! #[derive(Debug)]
//! pub struct NoSpace(());
//! impl TextRule for NoSpace {
//!     type Error = usize;
//!     const MAX_LEN: usize = 8;
//!     fn check(text: &str) -> Result<(), usize> {
//!         match text.bytes().position(|b| b == b' ') {
//!             Some(offset) => Err(offset),
//!             None if text.len() > Self::MAX_LEN => Err(Self::MAX_LEN),
//!             None => Ok(()),
//!         }
//!     }
//! }
//! pub type Word<'a> = CheckedText<'a, NoSpace>;
//!
//! assert_eq!(Word::new("two words").unwrap_err(), 3);
//! let w = Word::new("one").unwrap();
//! assert_eq!((w.as_str(), w.to_string()), ("one", "one".to_string()));
//! let owned: Word<'static> = w.into_owned();
//! assert_eq!(format!("{owned:?}"), r#""one""#);
//! ```

use alloc::borrow::Cow;
use core::cmp::Ordering;
use core::fmt;
use core::hash::{Hash, Hasher};
use core::marker::PhantomData;

/// What a field's text may hold: the one thing a protocol crate writes for
/// a [`CheckedText`].
///
/// Give the rule type a private field (`pub struct Rule(());`): a value of
/// it is then the proof, only the rule's own crate can make, that a text
/// was checked ([`CheckedText::checked_by`]).
pub trait TextRule {
    /// Why a text breaks the rule (the crate's `ValueError`).
    type Error;
    /// The longest text, in bytes ([`usize::MAX`]: no bound of its own).
    const MAX_LEN: usize;
    /// Checks `text` against the rule.
    ///
    /// # Errors
    /// What is wrong with `text`, as the crate reports it.
    fn check(text: &str) -> Result<(), Self::Error>;
    /// The type's name for `Debug`: `Some("Name")` shows `Name("text")`;
    /// `None` (the default) shows the string literal alone (`"text"`).
    const DEBUG_NAME: Option<&'static str> = None;
    /// How `Debug` shows a valid text; by default as [`DEBUG_NAME`](Self::DEBUG_NAME)
    /// says.
    ///
    /// # Errors
    /// The formatter's.
    fn fmt_debug(text: &str, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match Self::DEBUG_NAME {
            Some(name) => f.debug_tuple(name).field(&text).finish(),
            None => fmt::Debug::fmt(text, f),
        }
    }
}

/// Text that rule `R` accepted when the value was made, borrowed (`'a`) or
/// owned (`'static` after [`into_owned`](Self::into_owned)). `Display` is
/// the text as it goes on the wire.
pub struct CheckedText<'a, R> {
    text: Cow<'a, str>,
    rule: PhantomData<fn() -> R>,
}

impl<'a, R: TextRule> CheckedText<'a, R> {
    /// The longest text, in bytes: `R::MAX_LEN`.
    pub const MAX_LEN: usize = R::MAX_LEN;

    /// Checks `text` against the rule.
    ///
    /// # Errors
    /// The rule's error ([`TextRule::check`]).
    pub fn new(text: impl Into<Cow<'a, str>>) -> Result<Self, R::Error> {
        let text = text.into();
        R::check(&text)?;
        Ok(Self::wrap(text))
    }

    /// Text the rule's crate has already checked (its decoder): `_rule`, a
    /// value only that crate can make, vouches for it. Not checked again.
    #[inline]
    pub fn checked_by(text: impl Into<Cow<'a, str>>, _rule: R) -> Self {
        Self::wrap(text.into())
    }

    const fn wrap(text: Cow<'a, str>) -> Self {
        CheckedText {
            text,
            rule: PhantomData,
        }
    }

    /// The text.
    #[inline]
    pub fn as_str(&self) -> &str {
        &self.text
    }

    /// The same value, owning its text (`'static`).
    pub fn into_owned(self) -> CheckedText<'static, R> {
        CheckedText::wrap(Cow::Owned(self.text.into_owned()))
    }

    /// The text itself, borrowed or owned as it was held.
    pub fn into_cow(self) -> Cow<'a, str> {
        self.text
    }
}

impl<R: TextRule> fmt::Display for CheckedText<'_, R> {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.as_str())
    }
}

impl<R: TextRule> fmt::Debug for CheckedText<'_, R> {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        R::fmt_debug(self.as_str(), f)
    }
}

// By hand, not derived: a derive would ask `R` for the trait as well.
impl<R> Clone for CheckedText<'_, R> {
    fn clone(&self) -> Self {
        CheckedText {
            text: self.text.clone(),
            rule: PhantomData,
        }
    }
}

impl<R> PartialEq for CheckedText<'_, R> {
    fn eq(&self, other: &Self) -> bool {
        self.text == other.text
    }
}

impl<R> Eq for CheckedText<'_, R> {}

impl<R> PartialOrd for CheckedText<'_, R> {
    fn partial_cmp(&self, other: &Self) -> Option<Ordering> {
        Some(self.cmp(other))
    }
}

impl<R> Ord for CheckedText<'_, R> {
    fn cmp(&self, other: &Self) -> Ordering {
        self.text.cmp(&other.text)
    }
}

impl<R> Hash for CheckedText<'_, R> {
    fn hash<H: Hasher>(&self, state: &mut H) {
        self.text.hash(state);
    }
}

/// A rule's generator of valid texts, for `arbitrary::Arbitrary` (feature
/// `arbitrary`): with it, [`CheckedText<'_, R>`](CheckedText) implements
/// `Arbitrary` once for every rule, and every value it makes passes the
/// rule (a text the generator gets wrong is `IncorrectFormat`, never an
/// invalid value).
#[cfg(feature = "arbitrary")]
#[cfg_attr(docsrs, doc(cfg(feature = "arbitrary")))]
pub trait ArbitraryRule: TextRule {
    /// A text the rule accepts, made from `u` (see [`ascii_text`] for
    /// the usual shape).
    ///
    /// # Errors
    /// `u`'s, when it runs out or a draw fails.
    fn arbitrary_text(
        u: &mut arbitrary::Unstructured<'_>,
    ) -> arbitrary::Result<alloc::string::String>;
}

/// `len` ASCII bytes, `len` drawn from `lens`, each byte drawn by
/// `byte(u, index, len)` (the position lets a rule keep, say, spaces off
/// the ends); a byte above `0x7F` that `byte` returns is taken as `?`.
///
/// # Errors
/// `u`'s or `byte`'s.
#[cfg(feature = "arbitrary")]
#[cfg_attr(docsrs, doc(cfg(feature = "arbitrary")))]
pub fn ascii_text(
    u: &mut arbitrary::Unstructured<'_>,
    lens: core::ops::RangeInclusive<usize>,
    mut byte: impl FnMut(&mut arbitrary::Unstructured<'_>, usize, usize) -> arbitrary::Result<u8>,
) -> arbitrary::Result<alloc::string::String> {
    let len = u.int_in_range(lens)?;
    let mut text = alloc::string::String::with_capacity(len);
    for index in 0..len {
        let b = byte(u, index, len)?;
        text.push(if b.is_ascii() { char::from(b) } else { '?' });
    }
    Ok(text)
}

#[cfg(feature = "arbitrary")]
#[cfg_attr(docsrs, doc(cfg(feature = "arbitrary")))]
impl<'u, R: ArbitraryRule> arbitrary::Arbitrary<'u> for CheckedText<'_, R> {
    fn arbitrary(u: &mut arbitrary::Unstructured<'u>) -> arbitrary::Result<Self> {
        Self::new(R::arbitrary_text(u)?).map_err(|_| arbitrary::Error::IncorrectFormat)
    }
}

#[cfg(test)]
mod tests {
    extern crate std;
    use std::collections::hash_map::DefaultHasher;
    use std::string::String;

    use super::*;

    /// Text without a space, at most 8 bytes.
    #[derive(Debug)]
    struct NoSpace(());
    impl TextRule for NoSpace {
        type Error = usize;
        const MAX_LEN: usize = 8;
        fn check(text: &str) -> Result<(), usize> {
            match text.bytes().position(|b| b == b' ') {
                Some(offset) => Err(offset),
                None if text.len() > Self::MAX_LEN => Err(Self::MAX_LEN),
                None => Ok(()),
            }
        }
    }
    type Word<'a> = CheckedText<'a, NoSpace>;

    fn hash_of(x: &impl Hash) -> u64 {
        let mut h = DefaultHasher::new();
        x.hash(&mut h);
        h.finish()
    }

    /// `into_cow` gives the text back as it was held.
    #[test]
    fn into_cow_is_the_text() {
        let w = Word::new("one").unwrap();
        assert!(matches!(w.into_cow(), Cow::Borrowed("one")));
        let w = Word::new(String::from("two")).unwrap();
        assert!(matches!(w.into_cow(), Cow::Owned(s) if s == "two"));
    }

    /// Equality, ordering and hashing are the text's (`str`'s), whether
    /// it is borrowed or owned.
    #[test]
    fn equality_ordering_and_hash_are_the_texts() {
        let a = Word::new("abc").unwrap();
        let a2 = Word::new(String::from("abc")).unwrap();
        let b = Word::new("abd").unwrap();
        assert!(a == a2);
        assert!(a != b);
        assert_eq!(a.partial_cmp(&b), "abc".partial_cmp("abd"));
        assert_eq!(b.partial_cmp(&a), Some(Ordering::Greater));
        assert_eq!(a.partial_cmp(&a2), Some(Ordering::Equal));
        assert!(a < b && b > a2);
        assert_eq!(hash_of(&a), hash_of(&a2));
        assert_eq!(hash_of(&a), hash_of(&"abc"));
        assert_eq!(hash_of(&b), hash_of(&"abd"));
    }

    #[cfg(feature = "arbitrary")]
    impl ArbitraryRule for NoSpace {
        /// Bytes as drawn: a space or a byte above 0x7F (`?`) may come.
        fn arbitrary_text(u: &mut arbitrary::Unstructured<'_>) -> arbitrary::Result<String> {
            ascii_text(u, 0..=4, |u, _, _| u.arbitrary::<u8>())
        }
    }

    /// `ascii_text`: `len` bytes from `byte`, a byte above 0x7F taken as
    /// `?`; `Arbitrary` gives texts the rule accepts, else
    /// `IncorrectFormat`.
    #[cfg(feature = "arbitrary")]
    #[test]
    fn arbitrary_texts_pass_the_rule() {
        use arbitrary::{Arbitrary, Unstructured};
        let mut u = Unstructured::new(&[]);
        let text = ascii_text(&mut u, 3..=3, |_, i, len| {
            assert_eq!(len, 3);
            Ok(b"a\xFFc"[i])
        });
        assert_eq!(text.unwrap(), "a?c");
        let made = |bytes: &[u8]| Word::arbitrary(&mut Unstructured::new(bytes));
        // `int_in_range(0..=4)` takes the first byte for the length (2
        // here); the next two are the text.
        let w = made(b"\x02ab").unwrap();
        assert_eq!(w.as_str(), "ab");
        assert!(matches!(
            made(b"\x02a "),
            Err(arbitrary::Error::IncorrectFormat)
        ));
    }
}
