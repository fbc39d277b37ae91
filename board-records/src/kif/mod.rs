//! KIF and KI2, the shogi record files of Kifu for Windows and the tools
//! that follow it (ShogiGUI, ShogiHome, Shogidokoro, Kifu for iPhone,
//! 81Dojo, ぴよ将棋), as [`spec::shogi_records`](crate::spec::shogi_records)
//! §1 (KIF) and §2 (KI2) describe them.
//!
//! | item | what |
//! |---|---|
//! | [`decode`], [`encode`], [`TextEncoding`] | UTF-8 (BOM or not) and Shift_JIS/cp932 via `encoding_rs`, chosen by the `#KIF … encoding=` line, the BOM, the bytes and the caller's extension hint (§1.1); the choice is reported ([`EncodingSource`]) |
//! | [`reader::Reader`] | streaming, zero-copy: one [`Item`] per line (one per KI2 move), `&str`s borrowing the text; [`Limits`] cap what a file can grow |
//! | [`read`], [`read_str`] | the owned [`Game`]: headers, named [`Handicap`] or board diagram, the main line and `変化` variations of checked [`Node`]s (move, [`MoveTime`] in seconds, comments `*`/`**`/`*#`, bookmarks `&`), [`Ending`] and summary line |
//! | [`Game::to_kif`], [`Game::to_ki2`], [`Game::to_bytes`] | infallible writers (KfW's layout; KI2 with exactly the 右左直上寄引打 words the position needs, §2.1) |
//! | [`Recorder`] | a game being played kept as a KIF record complete after every move (time column summed per side, ending and a reason comment), capped at [`MAX_RECORDED_PLIES`] (then closed with 中断 and a comment); the twin of `pgn::writer::Recorder` and `pdn::Recorder` |
//! | [`unencodable`] | the characters Shift_JIS lacks and their lines (what [`encode`] writes as `&#NNNN;`), for a warning |
//! | [`SyntaxError`], [`GameError`], [`DecodeError`], [`ReadError`] | what and where (line, column in characters, byte offset: [`Location`]), the format read as (`KIF` or `KI2`); an illegal move names its ply, pieces and squares in KIF's words (`歩`, `７六`); an ambiguous KI2 move lists its candidates |
//!
//! Moves are checked with board-core: a KIF move's origin must hold the
//! piece named, the move must be legal ([`IllegalReason`](board_core::shogi::IllegalReason));
//! a KI2 move is resolved among the legal moves by its words, and none or
//! several fitting is a [`MoveProblem`].
//!
//! ## What is read
//! Headers `key：value` (ASCII `:` too, trailing full-width spaces
//! trimmed), `#` lines, `手合割：` with the sixteen named handicaps
//! ([`Handicap`]; an unknown name without a diagram is
//! [`GameProblem::UnsupportedHandicap`]), board diagrams with both hands
//! (spaced, unspaced, `なし`) and the turn line (a diagram wins over
//! `手合割`), move lines with any padding and every time-column shape
//! (`( 0:01/00:00:01)`, `( 0:12/)`, `(00:01 / 00:00:01)`, none), `打`,
//! `成`, `不成` (KIF writers never write it; read as "does not promote"),
//! `同` with or without `　`, the piece names of §0 including 王 竜 全 圭 杏,
//! `*` comments before move 1 (also before the headers) as the start's,
//! `**` and `*#` kept apart, `&` bookmarks, `変化：N手` as variations
//! (a `変化` before any move ignored, §1.2), the ending words of §1.7
//! (`入玉宣言`, `勝ち宣言` read as 入玉勝ち, `詰` as 詰み), `まで…` lines; KI2
//! marks `▲△▼▽☗☖`, destinations `７六`/`７６`/`76`, endings from the
//! summary line.
//!
//! ## What is not (and why)
//! - One game per input: the formats have no game separator.
//! - Unknown ending words (`不戦勝`, `不戦敗`: their meaning is unconfirmed,
//!   §1.7) are a [`SyntaxProblem::UnknownMoveText`], not a kept word.
//! - Header values are kept as text: dates and `持ち時間` have no one form
//!   in real files (§1.3).
//! - Times are whole seconds; totals are kept as written, not recomputed.
//! - 三枚落ち removes `11KY` as python-shogi and cshogi do (json-kifu-format
//!   removes `91KY`; the spec marks it unconfirmed, §1.4).
//! - `封じ手` is kept as an ending; in KI2 (no ending words) it reads back as
//!   中断, as KfW and ShogiGUI show it.
//! - The writer writes 玉 for both kings and ▲△ (☗☖ are not in Shift_JIS).
//! - What the writer cannot say: a plain comment whose text starts with `*`
//!   or `#` reads back as a `**`/`*#` line (the format has no escape); a
//!   comment of several lines is written as several `*` lines (read back as
//!   several comments, [`Notes::text`] joins them); line breaks in header
//!   values, bookmarks and `#` lines are written as the two characters
//!   `\n`, as KfW does in `備考`; a header key holding `：` or spaces reads
//!   back differently. Characters cp932 lacks become `&#NNNN;` in
//!   Shift_JIS output ([`encode`]; [`unencodable`] lists them).
//! - Lines that are no item (`手数----`, the board frame, `盤面回転`, text
//!   that is no `key：value`) are skipped, as §1.2 says; the reader does
//!   not report them. Text in which every line is skipped (or none is
//!   there) is no record: [`SyntaxProblem::NoItem`].
//!
//! ```
//! use board_records::kif::{read_str, Ending, Format};
//!
//! let kif = "開始日時：2023/06/03 17:57:05\n手合割：平手　　\n先手：A\n後手：B\n\
//!            手数----指手---------消費時間--\n\
//!            &開始局面\n   1 ２六歩(27)   ( 0:03/00:00:03)\n*a comment on move 1\n\
//!               2 ８四歩(83)   ( 0:02/00:00:02)\n   3 投了         ( 0:05/00:00:08)\n\
//!            まで2手で後手の勝ち\n";
//! let game = read_str(kif)?;
//! assert_eq!(game.black(), Some("A"));
//! assert_eq!(game.main.moves[0].mv.to_string(), "2g2f");
//! assert_eq!(game.main.moves[0].notes.text(), "a comment on move 1");
//! assert_eq!(game.main.end.map(|e| e.0), Some(Ending::Resign));
//! let ki2 = game.to_ki2(None);
//! assert!(ki2.ends_with("▲２六歩\n*a comment on move 1\n△８四歩\nまで2手で後手の勝ち\n"));
//! let again = read_str(&ki2)?;
//! assert_eq!((again.format, again.moves().count()), (Format::Ki2, 2));
//! # Ok::<(), board_records::kif::ReadError>(())
//! ```

mod encoding;
mod error;
mod game;
mod ki2;
mod notation;
pub mod reader;
mod recorder;
mod writer;

pub use encoding::{
    DecodeError, Decoded, EncodingSource, TextEncoding, decode, encode, unencodable,
};
pub use error::{
    Candidate, GameError, GameProblem, Located, Location, MoveProblem, ReadError, RecordFormat,
    SyntaxError, SyntaxProblem,
};
pub use game::{
    Comment, Format, Game, Node, Notes, Variation, ending_from_summary, read, read_str,
    read_str_with, read_with,
};
pub use notation::Handicap;
pub use reader::{CommentKind, Dest, Ending, Item, Limits, MoveText, MoveTime, Origin, Reader};
pub use recorder::{IllegalMove, MAX_RECORDED_PLIES, Recorder};
pub use writer::{summary, write_diagram};
