//! Text encodings of KIF/KI2 files ([`spec::shogi_records`](crate::spec::shogi_records) §1.1):
//! UTF-8 (`.kifu`, `.ki2u`, with or without a BOM) and Shift_JIS, read as
//! its Windows superset cp932 (`.kif`, `.ki2`), through `encoding_rs`
//! (no_std with its `alloc` feature, so this crate stays no_std + alloc).
//!
//! [`decode`] borrows UTF-8 input (zero copy, the BOM sliced off) and owns
//! a buffer only when it converts Shift_JIS.

use alloc::borrow::Cow;
use alloc::string::String;
use alloc::vec::Vec;
use core::fmt;

/// A text encoding of a KIF/KI2 file.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum TextEncoding {
    /// UTF-8 (`.kifu`, `.ki2u`).
    Utf8,
    /// Shift_JIS, read and written as cp932 (Windows-31J: `encoding_rs`'s
    /// `Shift_JIS`, which is the WHATWG superset) (`.kif`, `.ki2`).
    ShiftJis,
}

impl TextEncoding {
    /// The encoding a file extension implies (§1.1): `kif`/`ki2` Shift_JIS,
    /// `kifu`/`ki2u` UTF-8 (ASCII case ignored, without the dot); `None`
    /// for other extensions.
    pub fn from_extension(ext: &str) -> Option<TextEncoding> {
        if ext.eq_ignore_ascii_case("kif") || ext.eq_ignore_ascii_case("ki2") {
            Some(TextEncoding::ShiftJis)
        } else if ext.eq_ignore_ascii_case("kifu") || ext.eq_ignore_ascii_case("ki2u") {
            Some(TextEncoding::Utf8)
        } else {
            None
        }
    }

    /// The name written in `#KIF version=2.0 encoding=…`: `UTF-8` or
    /// `Shift_JIS`.
    pub const fn name(self) -> &'static str {
        match self {
            TextEncoding::Utf8 => "UTF-8",
            TextEncoding::ShiftJis => "Shift_JIS",
        }
    }

    /// The encoding named in an `encoding=` value (`UTF-8`, `utf8`,
    /// `Shift_JIS`, `SJIS`, `cp932`, `Windows-31J`; ASCII case ignored).
    pub fn from_label(label: &str) -> Option<TextEncoding> {
        let l = label.trim();
        let eq = |s: &str| l.eq_ignore_ascii_case(s);
        if eq("UTF-8") || eq("UTF8") {
            Some(TextEncoding::Utf8)
        } else if eq("Shift_JIS")
            || eq("Shift-JIS")
            || eq("SJIS")
            || eq("cp932")
            || eq("Windows-31J")
            || eq("MS932")
        {
            Some(TextEncoding::ShiftJis)
        } else {
            None
        }
    }
}

impl fmt::Display for TextEncoding {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.name())
    }
}

/// Why [`decode`] chose its encoding.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum EncodingSource {
    /// The first line `#KIF version=2.0 encoding=…` named it.
    Declaration,
    /// A UTF-8 byte order mark.
    Bom,
    /// The caller's hint (e.g. from the extension), and the bytes agree.
    Hint,
    /// Neither: valid UTF-8 is UTF-8, anything else is read as cp932 (the
    /// order ShogiHome follows, §1.1). Also when the bytes contradict the
    /// hint (81Dojo's UTF-8 `.kif` files).
    Detected,
}

/// Decoded text and how its encoding was chosen.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Decoded<'a> {
    /// The text, BOM removed: borrowed for UTF-8, owned after Shift_JIS.
    pub text: Cow<'a, str>,
    /// The encoding.
    pub encoding: TextEncoding,
    /// Why.
    pub source: EncodingSource,
    /// Bytes skipped at the start (3 for a BOM, else 0): add it to an
    /// offset in `text` to get one in the input (exact for UTF-8 input).
    pub skipped: usize,
}

/// Bytes that are not text in the chosen encoding.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, thiserror::Error)]
#[error("malformed {encoding} text at byte {offset}")]
pub struct DecodeError {
    /// The encoding the input was read in.
    pub encoding: TextEncoding,
    /// 0-based byte offset of the first bad byte in the input.
    pub offset: usize,
    /// How it was chosen.
    pub chosen_by: EncodingSource,
}

/// The encoding named by a `#KIF version=… encoding=…` first line (after
/// an optional BOM); the line is ASCII in both encodings.
fn declared(bytes: &[u8]) -> Option<TextEncoding> {
    let line_end = bytes
        .iter()
        .position(|&b| b == b'\n' || b == b'\r')
        .unwrap_or(bytes.len());
    let line = core::str::from_utf8(&bytes[..line_end.min(256)]).ok()?;
    let rest = line
        .strip_prefix("#KIF")
        .or_else(|| line.strip_prefix("#KI2"))?;
    let at = rest.find("encoding=")?;
    let value = rest[at + "encoding=".len()..]
        .split_ascii_whitespace()
        .next()?;
    TextEncoding::from_label(value)
}

/// Decodes a KIF/KI2 file: the `#KIF … encoding=` line first (when the
/// bytes are not text in the declared encoding but are in the other one,
/// the other, [`EncodingSource::Detected`]), then a BOM,
/// then the bytes (valid UTF-8 is UTF-8; otherwise cp932), the `hint`
/// (from [`TextEncoding::from_extension`]) naming the source when it
/// agrees. A BOM is removed.
///
/// # Errors
/// [`DecodeError`] with the byte offset of the first malformed sequence
/// when the declared encoding does not fit the bytes, or when bytes that
/// are not UTF-8 are not cp932 either.
///
/// ```
/// use board_records::kif::{decode, EncodingSource, TextEncoding};
/// let sjis = b"\x90\xe6\x8e\xe8\x81\x46A\n"; // 先手：A in Shift_JIS
/// let d = decode(sjis, Some(TextEncoding::ShiftJis))?;
/// assert_eq!(d.text, "先手：A\n");
/// assert_eq!((d.encoding, d.source), (TextEncoding::ShiftJis, EncodingSource::Hint));
/// # Ok::<(), board_records::kif::DecodeError>(())
/// ```
pub fn decode(bytes: &[u8], hint: Option<TextEncoding>) -> Result<Decoded<'_>, DecodeError> {
    let (body, bom) = match bytes.strip_prefix(b"\xEF\xBB\xBF") {
        Some(rest) => (rest, true),
        None => (bytes, false),
    };
    let skipped = bytes.len() - body.len();
    if let Some(enc) = declared(body) {
        // Files that declare one encoding and are in the other occur (KIF
        // test files of json-kifu-format and shogi-kifu-converter declare
        // UTF-8 and are Shift_JIS): then the other encoding, if the bytes
        // are text in it, reported as detected; else the declared one's
        // error.
        return decode_as(body, enc, EncodingSource::Declaration, skipped).or_else(|e| {
            let other = match enc {
                TextEncoding::Utf8 => TextEncoding::ShiftJis,
                TextEncoding::ShiftJis => TextEncoding::Utf8,
            };
            decode_as(body, other, EncodingSource::Detected, skipped).map_err(|_| e)
        });
    }
    if bom {
        return decode_as(body, TextEncoding::Utf8, EncodingSource::Bom, skipped);
    }
    let source = |enc| {
        if hint == Some(enc) {
            EncodingSource::Hint
        } else {
            EncodingSource::Detected
        }
    };
    match core::str::from_utf8(body) {
        Ok(text) => {
            let enc = if body.is_ascii() && hint == Some(TextEncoding::ShiftJis) {
                TextEncoding::ShiftJis
            } else {
                TextEncoding::Utf8
            };
            Ok(Decoded {
                text: Cow::Borrowed(text),
                encoding: enc,
                source: source(enc),
                skipped,
            })
        }
        Err(_) => decode_as(
            body,
            TextEncoding::ShiftJis,
            source(TextEncoding::ShiftJis),
            skipped,
        ),
    }
}

fn decode_as(
    body: &[u8],
    enc: TextEncoding,
    source: EncodingSource,
    skipped: usize,
) -> Result<Decoded<'_>, DecodeError> {
    match enc {
        TextEncoding::Utf8 => match core::str::from_utf8(body) {
            Ok(text) => Ok(Decoded {
                text: Cow::Borrowed(text),
                encoding: enc,
                source,
                skipped,
            }),
            Err(e) => Err(DecodeError {
                encoding: enc,
                offset: skipped + e.valid_up_to(),
                chosen_by: source,
            }),
        },
        TextEncoding::ShiftJis => {
            let mut decoder = encoding_rs::SHIFT_JIS.new_decoder_without_bom_handling();
            let cap = decoder
                .max_utf8_buffer_length_without_replacement(body.len())
                .unwrap_or(body.len().saturating_mul(3));
            let mut out = String::with_capacity(cap);
            let (result, read) = decoder.decode_to_string_without_replacement(body, &mut out, true);
            match result {
                encoding_rs::DecoderResult::InputEmpty => Ok(Decoded {
                    text: Cow::Owned(out),
                    encoding: enc,
                    source,
                    skipped,
                }),
                encoding_rs::DecoderResult::Malformed(bad, extra) => Err(DecodeError {
                    encoding: enc,
                    offset: skipped + read.saturating_sub(bad as usize + extra as usize),
                    chosen_by: source,
                }),
                // The buffer is as large as encoding_rs says it needs.
                encoding_rs::DecoderResult::OutputFull => Err(DecodeError {
                    encoding: enc,
                    offset: skipped + read,
                    chosen_by: source,
                }),
            }
        }
    }
}

/// Encodes text for a file: UTF-8 as is; Shift_JIS (cp932) with
/// characters it cannot hold written as HTML numeric character references
/// (`&#9751;` for ☗), which is `encoding_rs`'s rule. Infallible. No BOM.
pub fn encode(text: &str, encoding: TextEncoding) -> Vec<u8> {
    match encoding {
        TextEncoding::Utf8 => text.as_bytes().to_vec(),
        TextEncoding::ShiftJis => {
            let (bytes, _, _) = encoding_rs::SHIFT_JIS.encode(text);
            bytes.into_owned()
        }
    }
}

/// The characters of `text` that `encoding` cannot hold, with the 1-based
/// line each is on, in text order: what [`encode`] writes as `&#NNNN;`
/// in Shift_JIS (cp932 lacks ☗☖, many emoji and rarer kanji). Empty for
/// UTF-8. Lines end at LF (a CR before it is part of no character
/// reported).
///
/// ```
/// use board_records::kif::{TextEncoding, unencodable};
///
/// let text = "先手：A\n後手：☖B\n";
/// assert_eq!(unencodable(text, TextEncoding::ShiftJis), [('☖', 2)]);
/// assert!(unencodable(text, TextEncoding::Utf8).is_empty());
/// ```
pub fn unencodable(text: &str, encoding: TextEncoding) -> Vec<(char, u32)> {
    let mut found = Vec::new();
    if encoding == TextEncoding::Utf8 || !encoding_rs::SHIFT_JIS.encode(text).2 {
        return found;
    }
    let mut buf = [0u8; 4];
    for (n, line) in text.split('\n').enumerate() {
        if line.is_ascii() {
            continue;
        }
        for c in line.chars().filter(|c| !c.is_ascii()) {
            if encoding_rs::SHIFT_JIS.encode(c.encode_utf8(&mut buf)).2 {
                found.push((c, u32::try_from(n + 1).unwrap_or(u32::MAX)));
            }
        }
    }
    found
}
