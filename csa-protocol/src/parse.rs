//! Parsers of the grammar rules of `docs/specs/csa.md`, public so that
//! users can embed them: each takes the rest of a line and returns the
//! value and the rest, or a [`DecodeError`]-shaped failure.
