//! Validated values sent to engines.

use std::fmt;

pub use boardwire_proto::text::{CheckedText, TextRule};

use crate::error::ValueError;

/// Text that fits on one command line: not empty, no CR, LF or NUL
/// (option names and values, Hub parameter values). `Text::new(s)`
/// returns [`ValueError::Empty`], or [`ValueError::Byte`] for CR, LF or
/// NUL; `as_str`, `into_owned` and `Display` are the family's
/// ([`CheckedText`]).
pub type Text<'a> = CheckedText<'a, CommandLine>;

/// The rule of [`Text`]: one command line's text.
#[derive(Debug)]
pub struct CommandLine(());

impl TextRule for CommandLine {
    type Error = ValueError;
    const MAX_LEN: usize = usize::MAX;

    fn check(s: &str) -> Result<(), ValueError> {
        if s.is_empty() {
            return Err(ValueError::Empty);
        }
        if let Some(offset) = s.bytes().position(|b| matches!(b, b'\r' | b'\n' | 0)) {
            return Err(ValueError::Byte {
                byte: s.as_bytes()[offset],
                offset,
            });
        }
        Ok(())
    }

    fn fmt_debug(text: &str, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.debug_tuple("Text").field(&text).finish()
    }
}

/// `--option NAME=VALUE`: an engine option to set (`setoption name NAME
/// value VALUE` in USI and UCI; `set-param name=NAME value=VALUE` in Hub).
#[derive(Debug, Clone, PartialEq, Eq, Hash)]
pub struct EngineOption {
    /// The name.
    pub name: Text<'static>,
    /// The value (`NAME=` with nothing after it: none, a USI/UCI button).
    pub value: Option<Text<'static>>,
}

impl std::str::FromStr for EngineOption {
    type Err = String;
    /// `NAME=VALUE` (the first `=` splits; `NAME=` has no value).
    fn from_str(s: &str) -> Result<Self, String> {
        let (name, value) = s
            .split_once('=')
            .ok_or_else(|| format!("{s:?}: expected NAME=VALUE"))?;
        let name = Text::new(name.trim().to_string()).map_err(|e| format!("option name: {e}"))?;
        let value = match value {
            "" => None,
            v => Some(Text::new(v.to_string()).map_err(|e| format!("option value: {e}"))?),
        };
        Ok(Self { name, value })
    }
}
