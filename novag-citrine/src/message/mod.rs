//! The messages: host-to-device [`Command`]s and device-to-host [`Reply`]
//! lines, one type per kind ([`spec::citrine`](crate::spec::citrine), *Commands (host ->
//! device) and replies (device -> host)*).
//!
//! Every message encodes with `encode(&self, out)` (the line and CR LF; it
//! cannot fail: values are validated when constructed) and `to_bytes()`;
//! `Display` is the wire line without its terminator
//! (`decode(x.to_string().as_bytes()) == x`), `describe()` the line as a
//! person reads it in a transcript (unrecognised lines marked and escaped); `into_owned()` gives a `'static` value.
//! Decoding is [`decode::<Reply>`](crate::decode::decode) /
//! [`decode::<Command>`](crate::decode::decode).

mod command;
mod reply;

pub use command::{Command, HostMove, LevelTarget};
pub use reply::{DiagramRow, Escaped, MoveLine, RawLine, Reply};
