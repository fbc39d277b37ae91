//! Criterion benchmarks live in `benches/`; this library holds the CSA
//! load tool's core ([`csa_load`], run by the `csa_load` binary), the
//! side-by-side perft table's ([`compare`], run by the `compare` binary)
//! the Rust peers' perft ([`peers`]), a CSA server started for a load run
//! ([`server`]) and the message streams the codec
//! benchmarks share ([`streams`]).
//!
//! It compiles the repository's top-level README as doctests, so the
//! "Use it as a library" examples there are checked by `cargo test`.

#[cfg(doctest)]
#[doc = include_str!("../../README.md")]
pub struct ReadmeDoctests;

pub mod charts;
pub mod compare;
pub mod csa_load;
pub mod peers;
pub mod server;
pub mod streams;
