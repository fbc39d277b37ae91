//! Validated values sent to engines.

use std::borrow::Cow;
use std::fmt;

use crate::error::ValueError;

/// Text that fits on one command line: not empty, no CR, LF or NUL
/// (option names and values, Hub parameter values).
#[derive(Debug, Clone, PartialEq, Eq, Hash)]
pub struct Text<'a>(Cow<'a, str>);

impl<'a> Text<'a> {
    /// # Errors
    /// [`ValueError::Empty`], [`ValueError::Byte`] for CR, LF or NUL.
    pub fn new(s: impl Into<Cow<'a, str>>) -> Result<Self, ValueError> {
        let s = s.into();
        if s.is_empty() {
            return Err(ValueError::Empty);
        }
        if let Some(offset) = s.bytes().position(|b| matches!(b, b'\r' | b'\n' | 0)) {
            return Err(ValueError::Byte {
                byte: s.as_bytes()[offset],
                offset,
            });
        }
        Ok(Self(s))
    }

    /// The text.
    pub fn as_str(&self) -> &str {
        &self.0
    }

    /// An owned copy.
    pub fn into_owned(self) -> Text<'static> {
        Text(Cow::Owned(self.0.into_owned()))
    }
}

impl fmt::Display for Text<'_> {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(&self.0)
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
