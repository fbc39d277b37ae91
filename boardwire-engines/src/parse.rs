//! `nom` parsers of the USI and UCI engine output grammar (the two share
//! it: space-separated words, `info` keywords, `bestmove <move> [ponder
//! <move>]`), one public function per rule, composable by users
//! (`fn(&[u8]) -> IResult<&[u8], T, ParseError>`). Zero-copy, no heap
//! allocation. A failure is a [`ParseError`] (field, problem, the length
//! of the input left at the fault); [`ParseError::into_decode_error`] turns
//! it into a [`DecodeError`] with the 0-based offset in the line.
//!
//! Grammar: the engine-to-GUI commands of UCI and of USI, which copied
//! them (`info depth 3 score cp 30 pv 7g7f 3c3d`), read as shogi and chess
//! GUIs read them: words separated by spaces or tabs, unknown `info`
//! keywords skipped.
//!
//! ```
//! use boardwire_engines::parse::{info, Score};
//! let (rest, i) = info(&b" depth 3 score cp -30 pv 7g7f 3c3d"[..]).unwrap();
//! assert_eq!((i.depth, i.score, i.pv), (Some(3), Some(Score::Cp(-30)), Some(&b"7g7f 3c3d"[..])));
//! assert!(rest.is_empty());
//! ```

use nom::IResult;
use nom::bytes::complete::{take_while, take_while1};

use crate::error::{DecodeError, Expected, Field, MessageKind, Problem};
pub(crate) use boardwire_proto::parse::fail;

/// A parse failure: the field, what is wrong, and `remaining`, the length
/// of the input left at the fault (the offset in a line of `n` bytes is `n - remaining`). The family's one
/// [`boardwire_proto::parse::ParseError`] over this crate's [`Field`];
/// [`ParseError::into_decode_error`] gives the [`DecodeError`].
pub type ParseError = boardwire_proto::parse::ParseError<Field>;

impl boardwire_proto::parse::ParseField for Field {
    const TRAILING: Field = Field::Trailing;
}

/// The result of the parsers in this module.
pub type PResult<'a, T> = IResult<&'a [u8], T, ParseError>;

pub(crate) fn invalid<T>(at: &[u8], field: Field, expected: Expected) -> PResult<'_, T> {
    match at.first() {
        Some(&byte) => fail(at, field, Problem::Invalid { byte, expected }),
        None => fail(at, field, Problem::Missing),
    }
}

fn is_space(b: u8) -> bool {
    b == b' ' || b == b'\t'
}

/// Spaces or tabs, possibly none.
pub fn opt_spaces(i: &[u8]) -> PResult<'_, &[u8]> {
    take_while(is_space)(i)
}

/// One word: bytes up to the next space or tab (at least one); `field`
/// names it in the error.
pub fn word(field: Field) -> impl Fn(&[u8]) -> PResult<'_, &[u8]> {
    move |i: &[u8]| match take_while1::<_, _, ParseError>(|b| !is_space(b))(i) {
        Ok(r) => Ok(r),
        Err(_) => fail(i, field, Problem::Missing),
    }
}

/// Spaces, then one word ([`word`]).
pub fn next_word(field: Field) -> impl Fn(&[u8]) -> PResult<'_, &[u8]> {
    move |i: &[u8]| {
        let (i, _) = opt_spaces(i)?;
        word(field)(i)
    }
}

/// An unsigned decimal number (at most `u64::MAX`).
pub fn unsigned(i: &[u8]) -> PResult<'_, u64> {
    let (rest, digits) = match take_while1::<_, _, ParseError>(|b: u8| b.is_ascii_digit())(i) {
        Ok(r) => r,
        Err(_) => return invalid(i, Field::Number, Expected::Digit),
    };
    let mut v: u64 = 0;
    for &d in digits {
        v = match v
            .checked_mul(10)
            .and_then(|v| v.checked_add(u64::from(d - b'0')))
        {
            Some(v) => v,
            None => {
                return fail(
                    i,
                    Field::Number,
                    Problem::OutOfRange {
                        value: u32::MAX,
                        min: 0,
                        max: u32::MAX,
                    },
                );
            }
        };
    }
    end_of_word(rest, Field::Number)?;
    Ok((rest, v))
}

/// A signed decimal number (`-30`, `+5`, `12`) within `i32`.
pub fn signed(i: &[u8]) -> PResult<'_, i32> {
    let (neg, body) = match i.first() {
        Some(b'-') => (true, &i[1..]),
        Some(b'+') => (false, &i[1..]),
        _ => (false, i),
    };
    let (rest, v) = unsigned(body)?;
    let limit = if neg { 1u64 << 31 } else { (1u64 << 31) - 1 };
    if v > limit {
        return fail(
            i,
            Field::Number,
            Problem::OutOfRange {
                value: u32::try_from(v).unwrap_or(u32::MAX),
                min: 0,
                max: limit as u32,
            },
        );
    }
    let v = if neg { -(v as i64) } else { v as i64 } as i32;
    Ok((rest, v))
}

fn end_of_word(rest: &[u8], field: Field) -> Result<(), nom::Err<ParseError>> {
    match rest.first() {
        None => Ok(()),
        Some(&b) if is_space(b) => Ok(()),
        Some(&byte) => Err(nom::Err::Error(ParseError {
            field,
            problem: Problem::Invalid {
                byte,
                expected: Expected::Space,
            },
            remaining: rest.len(),
        })),
    }
}

/// The evaluation of an `info` line.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum Score {
    /// `score cp N`: centipawns (USI: 1/100 of a pawn) from the side to
    /// move.
    Cp(i32),
    /// `score mate N`: mate in `N` plies (USI) or moves (UCI); negative:
    /// the side to move is mated.
    Mate(i32),
    /// USI `score mate +`: the side to move mates, distance not given.
    MateWinning,
    /// USI `score mate -`: the side to move is mated, distance not given.
    MateLosing,
}

/// After `score`: `cp N` or `mate N` (USI also `mate +` / `mate -`), with an
/// optional `lowerbound` / `upperbound` word after it (read and dropped).
pub fn score(i: &[u8]) -> PResult<'_, Score> {
    let (i, _) = opt_spaces(i)?;
    let (rest, kind) = word(Field::Score)(i)?;
    let (rest, _) = opt_spaces(rest)?;
    let (rest, s) = match kind {
        b"cp" => {
            let (r, v) = signed(rest)?;
            (r, Score::Cp(v))
        }
        b"mate" => match rest {
            [b'+', tail @ ..] if tail.first().is_none_or(|&b| is_space(b)) => {
                (tail, Score::MateWinning)
            }
            [b'-', tail @ ..] if tail.first().is_none_or(|&b| is_space(b)) => {
                (tail, Score::MateLosing)
            }
            _ => {
                let (r, v) = signed(rest)?;
                (r, Score::Mate(v))
            }
        },
        _ => return invalid(i, Field::Score, Expected::ScoreKind),
    };
    let (after, _) = opt_spaces(rest)?;
    if let Ok((r, w)) = word(Field::Score)(after)
        && (w == b"lowerbound" || w == b"upperbound")
    {
        return Ok((r, s));
    }
    Ok((rest, s))
}

/// An `info` line after its keyword. Keywords read: `depth`, `seldepth`,
/// `time` (ms), `nodes`, `nps`, `multipv`, `score`, `pv` (the rest of the
/// line), `string` (the rest of the line); every other word is skipped
/// (`hashfull 12`, `currmove 7g7f`: their values are skipped as words too).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default)]
pub struct Info<'a> {
    /// `depth`.
    pub depth: Option<u32>,
    /// `seldepth`.
    pub seldepth: Option<u32>,
    /// `time`, milliseconds.
    pub time_ms: Option<u64>,
    /// `nodes`.
    pub nodes: Option<u64>,
    /// `nps`.
    pub nps: Option<u64>,
    /// `multipv` (1 = the best line).
    pub multipv: Option<u32>,
    /// `score`.
    pub score: Option<Score>,
    /// `pv`: the moves, as written (space-separated; see [`Info::pv_moves`]).
    pub pv: Option<&'a [u8]>,
    /// `string`: free text.
    pub string: Option<&'a [u8]>,
}

impl<'a> Info<'a> {
    /// The words of the principal variation.
    pub fn pv_moves(&self) -> impl Iterator<Item = &'a [u8]> + 'a {
        self.pv
            .unwrap_or_default()
            .split(|&b| is_space(b))
            .filter(|w| !w.is_empty())
    }
}

fn small(i: &[u8]) -> PResult<'_, u32> {
    let (r, v) = unsigned(i)?;
    match u32::try_from(v) {
        Ok(v) => Ok((r, v)),
        Err(_) => fail(
            i,
            Field::Number,
            Problem::OutOfRange {
                value: u32::MAX,
                min: 0,
                max: u32::MAX,
            },
        ),
    }
}

fn trim_end(b: &[u8]) -> &[u8] {
    let n = b.iter().rposition(|&c| !is_space(c)).map_or(0, |p| p + 1);
    &b[..n]
}

/// An `info` line after the word `info` (see [`Info`]).
pub fn info(mut i: &[u8]) -> PResult<'_, Info<'_>> {
    let mut out = Info::default();
    loop {
        let (r, _) = opt_spaces(i)?;
        if r.is_empty() {
            return Ok((r, out));
        }
        let (r, key) = word(Field::Keyword)(r)?;
        let (v, _) = opt_spaces(r)?;
        i = match key {
            b"depth" => {
                let (r, n) = small(v)?;
                out.depth = Some(n);
                r
            }
            b"seldepth" => {
                let (r, n) = small(v)?;
                out.seldepth = Some(n);
                r
            }
            b"multipv" => {
                let (r, n) = small(v)?;
                out.multipv = Some(n);
                r
            }
            b"time" => {
                let (r, n) = unsigned(v)?;
                out.time_ms = Some(n);
                r
            }
            b"nodes" => {
                let (r, n) = unsigned(v)?;
                out.nodes = Some(n);
                r
            }
            b"nps" => {
                let (r, n) = unsigned(v)?;
                out.nps = Some(n);
                r
            }
            b"score" => {
                let (r, s) = score(v)?;
                out.score = Some(s);
                r
            }
            b"pv" => {
                out.pv = Some(trim_end(v));
                &v[v.len()..]
            }
            b"string" => {
                out.string = Some(trim_end(v));
                &v[v.len()..]
            }
            _ => r,
        };
    }
}

/// `bestmove <move> [ponder <move>]` after the word `bestmove`: the two
/// words, unread (the USI and UCI modules read them as moves).
pub fn bestmove_words(i: &[u8]) -> PResult<'_, (&[u8], Option<&[u8]>)> {
    let (i, mv) = next_word(Field::Move)(i)?;
    let (r, _) = opt_spaces(i)?;
    if r.is_empty() {
        return Ok((r, (mv, None)));
    }
    let (r2, w) = word(Field::Ponder)(r)?;
    if w != b"ponder" {
        return fail(r, Field::Trailing, Problem::Trailing { count: r.len() });
    }
    let (r2, p) = next_word(Field::Ponder)(r2)?;
    Ok((r2, (mv, Some(p))))
}

/// What follows a keyword that takes no fields: spaces only, else
/// [`Problem::Trailing`].
pub fn end(i: &[u8]) -> PResult<'_, ()> {
    let (r, _) = opt_spaces(i)?;
    if r.is_empty() {
        Ok((r, ()))
    } else {
        fail(r, Field::Trailing, Problem::Trailing { count: r.len() })
    }
}

/// A USI or UCI engine line, its moves read by the protocol's parsers
/// (`B` for `bestmove`, `P` for `ponder`): what [`crate::usi::decode`] and
/// [`crate::uci::decode`] share.
pub(crate) enum EngineLine<'a, B, P> {
    /// `usiok` / `uciok`.
    HandshakeOk,
    /// `readyok`.
    ReadyOk,
    /// `id name <text>`.
    IdName(&'a [u8]),
    /// `id author <text>`.
    IdAuthor(&'a [u8]),
    /// `option ...`: the words after `option`.
    Option(&'a [u8]),
    /// `bestmove <move> [ponder <move>]`.
    BestMove(B, Option<P>),
    /// `info ...`.
    Info(Info<'a>),
    /// A line of another first word, or `id` of another kind: verbatim.
    Unrecognised(&'a [u8]),
}

/// Decodes one USI/UCI engine line (no line end): `ok` is the handshake's
/// answer (`usiok`, `uciok`) and its kind, `best` and `ponder` read
/// `bestmove`'s two moves. Leading spaces are skipped.
///
/// # Errors
/// A known line with a bad field: [`DecodeError`] with the byte offset;
/// an empty line is [`Problem::Empty`].
pub(crate) fn engine_line<'a, B, P>(
    line: &'a [u8],
    ok: (&[u8], MessageKind),
    best: impl Fn(&'a [u8]) -> PResult<'a, B>,
    ponder: impl Fn(&'a [u8]) -> PResult<'a, P>,
) -> Result<EngineLine<'a, B, P>, DecodeError> {
    let n = line.len();
    let (body, _) = opt_spaces(line).map_err(|e| line_error(e, MessageKind::Line, n))?;
    if body.is_empty() {
        return Err(DecodeError::new(
            MessageKind::Line,
            Field::Keyword,
            0,
            Problem::Empty,
        ));
    }
    let (rest, key) =
        word(Field::Keyword)(body).map_err(|e| line_error(e, MessageKind::Line, n))?;
    let kind = match key {
        k if k == ok.0 => ok.1,
        b"readyok" => MessageKind::ReadyOk,
        b"id" => MessageKind::Id,
        b"option" => MessageKind::Option,
        b"bestmove" => MessageKind::BestMove,
        b"info" => MessageKind::Info,
        _ => return Ok(EngineLine::Unrecognised(line)),
    };
    let r: PResult<'a, EngineLine<'a, B, P>> = (|| match kind {
        MessageKind::ReadyOk => end(rest).map(|(r, ())| (r, EngineLine::ReadyOk)),
        MessageKind::Id => {
            let (r, which) = next_word(Field::Keyword)(rest)?;
            let (r, _) = opt_spaces(r)?;
            let text = trim_end(r);
            let end = &r[r.len()..];
            match which {
                b"name" => Ok((end, EngineLine::IdName(text))),
                b"author" => Ok((end, EngineLine::IdAuthor(text))),
                _ => Ok((end, EngineLine::Unrecognised(line))),
            }
        }
        MessageKind::Option => {
            let (r, _) = opt_spaces(rest)?;
            Ok((&r[r.len()..], EngineLine::Option(trim_end(r))))
        }
        MessageKind::BestMove => {
            let (r, _) = opt_spaces(rest)?;
            let (r, b) = best(r)?;
            let (r, _) = opt_spaces(r)?;
            if r.is_empty() {
                return Ok((r, EngineLine::BestMove(b, None)));
            }
            let (r2, w) = word(Field::Ponder)(r)?;
            if w != b"ponder" {
                return fail(r, Field::Trailing, Problem::Trailing { count: r.len() });
            }
            let (r2, _) = opt_spaces(r2)?;
            let (r2, p) = ponder(r2)?;
            let (r2, ()) = end(r2)?;
            Ok((r2, EngineLine::BestMove(b, Some(p))))
        }
        MessageKind::Info => {
            let (r, i) = info(rest)?;
            Ok((r, EngineLine::Info(i)))
        }
        _ => end(rest).map(|(r, ())| (r, EngineLine::HandshakeOk)),
    })();
    r.map(|(_, m)| m).map_err(|e| line_error(e, kind, n))
}

/// A parser's failure on a line of `len` bytes as a [`DecodeError`].
fn line_error(e: nom::Err<ParseError>, kind: MessageKind, len: usize) -> DecodeError {
    match e {
        nom::Err::Error(e) | nom::Err::Failure(e) => e.into_decode_error(kind, len),
        nom::Err::Incomplete(_) => DecodeError::new(kind, Field::Trailing, len, Problem::Missing),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// The line grammar USI and UCI share ([`engine_line`]), through both
    /// decoders: `bestmove <move> [ponder <move>]` and nothing after it
    /// (the trailing word named at its byte), `id` of another kind kept
    /// verbatim, an `option` line's words with trailing blanks cut.
    /// [`bestmove_words`], the public rule for users' own parsers: the
    /// USI description's `bestmove 7g7f ponder 3c3d` gives both words and
    /// leaves what follows to the caller; another word than `ponder` is
    /// trailing input at its byte.
    #[test]
    fn bestmove_words_reads_the_move_and_ponder() {
        let (rest, (mv, ponder)) = bestmove_words(b"7g7f ponder 3c3d x").unwrap();
        assert_eq!(
            (mv, ponder, rest),
            (&b"7g7f"[..], Some(&b"3c3d"[..]), &b" x"[..])
        );
        let (rest, (mv, ponder)) = bestmove_words(b"e2e4").unwrap();
        assert_eq!((mv, ponder, rest), (&b"e2e4"[..], None, &b""[..]));
        let e = bestmove_words(b"e2e4 hint e7e5").unwrap_err();
        let nom::Err::Error(e) = e else {
            panic!("{e:?}")
        };
        let e = e.into_decode_error(MessageKind::BestMove, 14);
        assert_eq!((e.field, e.offset), (Field::Trailing, 5)); // "hint" starts at byte 5
    }

    #[test]
    fn usi_and_uci_share_the_line_grammar() {
        // `x` is byte 26 of both lines.
        let usi = crate::usi::decode(b"bestmove 7g7f ponder 3c3d x").unwrap_err();
        let uci = crate::uci::decode(b"bestmove e2e4 ponder e7e5 x").unwrap_err();
        for e in [usi, uci] {
            assert_eq!(
                (e.message, e.field, e.offset, e.problem),
                (
                    MessageKind::BestMove,
                    Field::Trailing,
                    26,
                    Problem::Trailing { count: 1 }
                )
            );
        }
        assert!(matches!(
            crate::uci::decode(b"id version 1").unwrap(),
            crate::uci::EngineMessage::Unrecognised(b"id version 1")
        ));
        assert!(matches!(
            crate::usi::decode(b"id version 1").unwrap(),
            crate::usi::EngineMessage::Unrecognised(b"id version 1")
        ));
        assert!(matches!(
            crate::usi::decode(b"option name USI_Hash type spin \t").unwrap(),
            crate::usi::EngineMessage::Option(b"name USI_Hash type spin")
        ));
    }

    #[test]
    fn info_lines_of_real_engines() {
        // gpsusi and stockfish write lines of this shape.
        let (_, i) = info(b" depth 10 seldepth 14 multipv 1 score cp 34 nodes 1200 nps 90000 hashfull 3 time 13 pv e2e4 e7e5 g1f3").unwrap();
        assert_eq!(i.depth, Some(10));
        assert_eq!(i.seldepth, Some(14));
        assert_eq!(i.time_ms, Some(13));
        assert_eq!(i.nodes, Some(1200));
        assert_eq!(i.score, Some(Score::Cp(34)));
        assert_eq!(
            i.pv_moves().collect::<Vec<_>>(),
            [&b"e2e4"[..], b"e7e5", b"g1f3"]
        );
        let (_, i) = info(b" score mate -3 lowerbound pv 5b5a").unwrap();
        assert_eq!(i.score, Some(Score::Mate(-3)));
        let (_, i) = info(b" score mate + string checkmate found").unwrap();
        assert_eq!(i.score, Some(Score::MateWinning));
        assert_eq!(i.string, Some(&b"checkmate found"[..]));
    }

    #[test]
    fn bad_numbers_name_their_byte() {
        let line = b" depth 1x";
        let e = info(line).unwrap_err();
        let nom::Err::Error(e) = e else { panic!() };
        let d = e.into_decode_error(MessageKind::Info, line.len());
        assert_eq!(d.offset, 8);
        assert_eq!(
            d.problem,
            Problem::Invalid {
                byte: b'x',
                expected: Expected::Space
            }
        );
        let line = b" score cp";
        let nom::Err::Error(e) = info(line).unwrap_err() else {
            panic!()
        };
        assert_eq!(e.into_decode_error(MessageKind::Info, 9).offset, 9);
        let line = b" score cp 99999999999";
        let nom::Err::Error(e) = info(line).unwrap_err() else {
            panic!()
        };
        assert!(matches!(e.problem, Problem::OutOfRange { .. }));
    }
}
