//! The messages of the CSA server protocol ([`spec::csa`](crate::spec::csa)): lines a
//! client sends ([`ClientMessage`], with the x1 commands [`X1Command`]),
//! lines a server sends ([`ServerMessage`], with the x1 replies
//! [`X1Reply`]) and the `Game_Summary` block ([`GameSummary`], read line by
//! line with [`GameSummaryReader`]).
//!
//! Every message encodes with `encode(&self, out)` (the line and its LF)
//! or `to_bytes()`, and cannot fail: values are validated when they are
//! constructed. `Display` is the wire line without its LF (for every message
//! type, `Game_Summary` lines and blocks and x1 replies included); `shown()`
//! is the line as a transcript shows it (a `LOGIN` password as `*****`,
//! control bytes escaped); `describe()` is the message in words.

mod client_line;
mod server_line;
mod summary;
mod x1_block;

pub use client_line::{ClientMessage, GameRequest, SpecialMove, X1Command};
pub use server_line::{
    EndReason, GameResult, Raw, ServerMessage, ServerSpecial, SummaryLine, WhoEntry, X1Reply,
};
pub use summary::{
    FieldKey, GameSummary, GameSummaryReader, PositionSection, SummaryError, SummaryLimit,
    TimeBase, TimeSection, TimeUnit,
};
pub use x1_block::{X1Block, X1Push};

pub(crate) use client_line::decode_client_line;
pub(crate) use server_line::decode_server_line;
