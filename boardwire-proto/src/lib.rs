//! The protocol core of the boardwire family: what `damexchange` (DXP),
//! `csa-protocol` (CSA) and `novag-citrine` (the Novag Citrine's RS-232
//! protocol) share, defined once so that code written for one of them works
//! for the others.
//!
//! - [`error`]: the decode error vocabulary, [`Problem`] and [`Expected`]
//!   (what is wrong with a field, what it takes), and [`FrameError`] (what a
//!   stream of frames reports: an over-long frame, a frame that does not
//!   decode, a stream that ends inside a frame).
//! - [`framer`]: the framer's answer [`Status`] (the httparse shape), the
//!   [`Framer`] trait each protocol's terminator rule implements, and
//!   [`FrameBuffer`], one capped buffer the caller owns that fills, cuts
//!   frames and compacts: the "buffer + framer" loop written once.
//! - [`decode`](mod@decode): [`decode::decode`] / [`decode::decode_with`] over
//!   the [`decode::Decode`] trait every crate's message types implement
//!   (with the crate's `Leniency` and `DecodeError`); `parse` (feature
//!   `nom`): the nom parsers' `ParseError`.
//! - [`Transmit`]: the bytes of one or more frames a session wants written
//!   (inline up to 128 bytes, no allocation), and whether to close after.
//! - [`Session`]: the sans-IO contract every session of the family
//!   implements (`handle_*` inputs, then `poll_transmit`, `poll_event`,
//!   `poll_timeout` in that order), and [`Outcome`], how a game ended from
//!   our side (every session's `GameEnded`).
//! - [`sink`]: [`sink::Sink`], the byte writer every encoder of the family
//!   writes its text into (`Vec<u8>`, or a formatter through
//!   [`sink::fmt_with`] for `Display`), with the decimal numbers written
//!   without `fmt`.
//! - `text` (feature `alloc`): `CheckedText`, a wire field's text checked
//!   once by the field's `TextRule`: the protocol crates' validated text
//!   types.
//! - [`drive`]: one driver over any [`Session`]: `drive::tokio` (feature
//!   `tokio`, any `AsyncRead + AsyncWrite`) and `drive::blocking` (feature
//!   `std`, any `Read + Write` whose reads time out, e.g. a serial port).
//!
//! The name: `proto` as in quinn-proto, the sans-IO protocol layer the
//! family's sessions are modelled on; `boardwire-` because it is the
//! family's, not a general-purpose crate. Users of one protocol crate never
//! need to name it: each crate re-exports what it uses (`damexchange::error::Problem`
//! is this crate's [`Problem`]). Generic code over the three names it.
//!
//! `no_std`; no dependency but `core` (and `alloc` with the `alloc` feature,
//! tokio, tokio-util and bytes with `tokio`; arbitrary with `arbitrary`; nom with `nom`).
//!
//! # Features
//!
//! | feature | default | what it adds |
//! |---|---|---|
//! | `std` | yes | the blocking driver, `std::error::Error` impls; implies `alloc` |
//! | `alloc` | yes (via `std`) | [`Transmit`] frames longer than 128 bytes (heap); `text` |
//! | `tokio` | no | the tokio driver `drive::tokio`; the tokio-util codec `codec::Codec` |
//! | `nom` | no | `parse::ParseError`, the nom parsers' error (field, problem, bytes left) and its `DecodeError` |
//! | `arbitrary` | no | `arbitrary::Arbitrary` for `text::CheckedText` (rules with a generator, `text::ArbitraryRule`); implies `alloc` |
#![no_std]
#![cfg_attr(docsrs, feature(doc_cfg))]

#[cfg(feature = "alloc")]
extern crate alloc;
#[cfg(feature = "std")]
extern crate std;

#[cfg(feature = "tokio")]
#[cfg_attr(docsrs, doc(cfg(feature = "tokio")))]
pub mod codec;
pub mod decode;
pub mod drive;
pub mod error;
pub mod framer;
pub mod memory;
#[cfg(feature = "nom")]
#[cfg_attr(docsrs, doc(cfg(feature = "nom")))]
pub mod parse;
pub mod session;
pub mod sink;
#[cfg(feature = "alloc")]
pub mod text;
pub mod transmit;

pub use error::{DecodeError, Expected, FrameError, Problem};
pub use framer::{
    CrLfLines, Frame, FrameBuffer, Framer, LfLines, LineFramer, LineRules, NulFrames, Status,
};
pub use session::{DEFAULT_MAX_GAME_PLIES, Outcome, Session};
pub use transmit::{INLINE_CAP, Transmit};

/// The README's examples, compiled as doctests.
#[cfg(doctest)]
#[doc = include_str!("../README.md")]
pub struct ReadmeDoctests;
