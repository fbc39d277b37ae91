//! The messages of the CSA server protocol ([`spec::csa`](crate::spec::csa)): lines a
//! client sends ([`ClientMessage`], with the x1 commands [`X1Command`]),
//! lines a server sends ([`ServerMessage`], with the x1 replies
//! [`X1Reply`]) and the `Game_Summary` block ([`GameSummary`], read line by
//! line with [`GameSummaryReader`]).
//!
//! Every message encodes with `encode(&self, out)` (the line and its LF)
//! or `to_bytes()`, and cannot fail: values are validated when they are
//! constructed. `Display` is what a person reads in a transcript: the wire
//! line, with a `LOGIN` password shown as `*****`.

mod client_line;
mod server_line;
mod summary;
mod x1_block;

pub use client_line::{ClientMessage, GameRequest, SpecialMove, X1Command};
pub use server_line::{
    EndReason, GameResult, Raw, ServerMessage, ServerSpecial, SummaryLine, WhoEntry, X1Reply,
};
pub use summary::{
    FieldKey, GameSummary, GameSummaryReader, PositionSection, SummaryError, TimeBase, TimeSection,
    TimeUnit,
};
pub use x1_block::{X1Block, X1Push};

pub(crate) use client_line::decode_client_line;
pub(crate) use server_line::decode_server_line;
