//! The [`Session`] trait: the sans-IO contract of every session of the
//! family (DXP `Initiator` and `Follower`, CSA `Client` and `Server`,
//! Citrine `Driver` and the simulated `Device`).

use core::fmt::{Debug, Display};

use crate::error::FrameError;
use crate::framer::Framer;
use crate::transmit::Transmit;

/// A sans-IO protocol session: bytes and clock readings in, bytes to write,
/// events and a deadline out. It never reads a socket or a clock.
///
/// The contract, the same for every implementation:
/// 1. Inputs, in any order: [`handle_input`](Self::handle_input) (raw bytes
///    from the wire; the session frames and decodes them) or, for a caller
///    that frames and decodes itself (a codec),
///    [`handle_message`](Self::handle_message) and
///    [`handle_frame_error`](Self::handle_frame_error);
///    [`handle_timeout`](Self::handle_timeout) once
///    [`poll_timeout`](Self::poll_timeout) has passed;
///    [`handle_close`](Self::handle_close) when the peer closed the stream
///    (a game in progress ends, and its `GameEnded` event is delivered).
///    The session's own commands (`send_move`, ...) are inherent methods.
/// 2. Then, in this order: every [`poll_transmit`](Self::poll_transmit)
///    (write it), every [`poll_event`](Self::poll_event) (react: a reaction
///    may queue more to write, so go back to `poll_transmit`), then
///    [`poll_timeout`](Self::poll_timeout) (when to call `handle_timeout`).
///
/// `Conn` names the connection an input came from and a transmit goes to:
/// `()` for the sessions with one peer (everything but the CSA `Server`),
/// the server's connection id for the CSA `Server`. The one-peer sessions
/// also have inherent methods without it (`handle_input(bytes, now)`), which
/// concrete code calls; generic code calls these, with `()`.
///
/// [`drive::tokio`](crate::drive) and [`drive::blocking`](crate::drive) run
/// any one-peer session over a stream.
pub trait Session {
    /// The connection: `()` for a one-peer session.
    type Conn: Copy + Eq + Debug;
    /// The clock reading the session is driven by (the family's sessions take
    /// any `board_core::time::Timestamp`).
    type Time: Copy + Ord + Debug;
    /// A message the peer sends (borrowed from the frame).
    type Incoming<'a>;
    /// A message this session sends (borrowed from the frame).
    type Outgoing<'a>;
    /// What happened, for the application. `Display` is the reading for a
    /// person (the line a transcript or a log prints), so a generic harness
    /// can show the events of any session.
    type Event: Debug + Display;
    /// The protocol's decode error (`DecodeError { message, field, offset,
    /// problem }`).
    type DecodeError: Debug + Display;
    /// The protocol's framer (its terminator rule).
    type Framer: Framer;

    /// Raw bytes from `conn`, any chunking: framed (with the session's cap)
    /// and decoded by the session; bad frames are handled as
    /// [`handle_frame_error`](Self::handle_frame_error) would.
    fn handle_input(&mut self, conn: Self::Conn, bytes: &[u8], now: Self::Time);
    /// One message, already decoded (the caller framed it).
    fn handle_message(&mut self, conn: Self::Conn, msg: &Self::Incoming<'_>, now: Self::Time);
    /// What the caller's framer or decoder reported instead of a message:
    /// counts towards the peer's misbehaviour limit and is answered as the
    /// protocol says.
    fn handle_frame_error(
        &mut self,
        conn: Self::Conn,
        error: &FrameError<Self::DecodeError>,
        now: Self::Time,
    );
    /// The time returned by [`poll_timeout`](Self::poll_timeout) has come.
    fn handle_timeout(&mut self, now: Self::Time);
    /// `conn` closed its stream.
    fn handle_close(&mut self, conn: Self::Conn, now: Self::Time);

    /// 1. Bytes to write, and where.
    fn poll_transmit(&mut self) -> Option<(Self::Conn, Transmit)>;
    /// 2. What happened.
    fn poll_event(&mut self) -> Option<Self::Event>;
    /// 3. When to call [`handle_timeout`](Self::handle_timeout) next.
    fn poll_timeout(&self) -> Option<Self::Time>;

    /// The session's cap on an incoming frame, bytes without the terminator
    /// (what a driver's framer must use). By default the framer's own
    /// default cap ([`Framer::DEFAULT_MAX_LEN`]).
    fn max_frame_len(&self) -> usize {
        <Self::Framer as crate::Framer>::DEFAULT_MAX_LEN
    }
    /// Decodes a frame from the peer as the session would (its leniency).
    ///
    /// # Errors
    /// The frame is not a valid message.
    fn decode_incoming<'a>(&self, frame: &'a [u8])
    -> Result<Self::Incoming<'a>, Self::DecodeError>;
    /// Decodes a frame this session wrote (for transcripts and logs).
    ///
    /// # Errors
    /// The frame is not a valid message (never for the session's own
    /// output).
    fn decode_outgoing<'a>(&self, frame: &'a [u8])
    -> Result<Self::Outgoing<'a>, Self::DecodeError>;
    /// Whether `msg` is of a kind the protocol does not know (an
    /// `Unrecognised` frame): drivers count these with the malformed frames
    /// towards their limit.
    fn is_unrecognised(msg: &Self::Incoming<'_>) -> bool;
}

/// The default per-game ply cap of every one-peer session of the family
/// (`max_game_plies` in DXP's `InitiatorConfig`/`FollowerConfig`, CSA's
/// `ClientConfig`, Citrine's `DriverConfig`), re-exported by each
/// protocol crate as `session::DEFAULT_MAX_GAME_PLIES`: a game never
/// holds more plies (half-moves, counted from its start position) than
/// the cap, so a peer that keeps moving cannot grow a session's memory
/// without bound; what happens at the cap is each crate's (its config
/// field says, with its bytes per ply).
///
/// 20,000 plies is above the longest game any of the three can
/// legitimately play: the longest possible chess game under FIDE's
/// automatic 75-move rule (Laws of Chess, art. 9.6.2) is 8,848.5 moves,
/// 17,697 plies (François Labelle, *The longest possible chess game*);
/// the Citrine numbers moves up to 9,999 (4 digits, 19,998 plies); DXP's
/// BACKREQ numbers moves up to 999 (3 digits, 1,998 plies); CSA servers
/// end games far earlier with `Max_Moves` (Floodgate: 256). The longest
/// tournament chess game on record (Nikolić–Arsović, Belgrade 1989) had
/// 269 moves, 538 plies.
pub const DEFAULT_MAX_GAME_PLIES: u32 = 20_000;

/// How a game ended, from our side: the `outcome` of every session's
/// `GameEnded` event in the family (DXP, CSA, Citrine), re-exported as
/// `session::Outcome` by each protocol crate, whose documentation says
/// what [`Unknown`](Outcome::Unknown) stands for there.
///
/// `Display` is the word for a person: `won`, `lost`, `drawn`, `no result`.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum Outcome {
    /// We won.
    Won,
    /// We lost.
    Lost,
    /// A draw.
    Drawn,
    /// No result: the game ended without one (what that means is the
    /// protocol's: see the crate that re-exports it).
    Unknown,
}

impl Display for Outcome {
    fn fmt(&self, f: &mut core::fmt::Formatter<'_>) -> core::fmt::Result {
        f.write_str(match self {
            Outcome::Won => "won",
            Outcome::Lost => "lost",
            Outcome::Drawn => "drawn",
            Outcome::Unknown => "no result",
        })
    }
}

/// Writes the [`Session`] impl of a session of the family whose inherent
/// methods have the trait's names: each of `handle_input`,
/// `handle_message`, `handle_frame_error`, `handle_timeout`,
/// `handle_close`, `poll_transmit`, `poll_event` and `poll_timeout`
/// forwards to the inherent method of the same name (which stays plain,
/// documented source a reader finds on the type). A one-peer session's
/// inherent methods have no connection argument (`Conn = ()`, the
/// default); a session with many peers names its `type Conn` first and
/// its inherent methods take the connection as the trait's do.
///
/// The family's conventions fill in the protocol's types, from the
/// invoking crate: `type DecodeError = crate::error::DecodeError` and
/// `type Framer = crate::framer::Framer`. The session-specific methods
/// (`decode_incoming`, `decode_outgoing`, `is_unrecognised`, and
/// `max_frame_len` unless the framer's default cap is the session's) are
/// written in the invocation, as in an ordinary impl. The macro writes the
/// impl's doc line; attributes given before `impl` are added to it.
///
/// The type's parameters each take one bound. With one parameter, it is
/// the clock reading (`impl<T: Timestamp> Session for Driver<T>`); with
/// more, or with a `type Conn`, the invocation names the clock, `type Time
/// = T;` (`impl<R: Role, T: Timestamp> Session for Endpoint<R, T> { type
/// Time = T; .. }`), after `type Conn` if there is one.
///
/// ```
/// use std::collections::VecDeque;
/// use boardwire_proto::framer::{LineFramer, LineRules};
/// use boardwire_proto::{FrameError, Transmit};
///
/// // The conventions' names, as a protocol crate has them.
/// mod error {
///     pub type DecodeError = &'static str;
/// }
/// mod framer {
///     pub enum Lf {}
///     impl boardwire_proto::framer::LineRules for Lf {
///         const DEFAULT_MAX_LEN: usize = 64;
///         const BARE_CR_ENDS_LINE: bool = false;
///     }
///     pub type Framer = boardwire_proto::framer::LineFramer<Lf>;
/// }
///
/// /// The clock readings this example is driven by.
/// trait Clock: Copy + Ord + core::fmt::Debug {}
/// impl Clock for u64 {}
///
/// /// Counts the bytes it is given.
/// struct Counter<T> { seen: usize, last: Option<T> }
///
/// impl<T: Clock> Counter<T> {
///     fn handle_input(&mut self, bytes: &[u8], now: T) { self.seen += bytes.len(); self.last = Some(now); }
///     fn handle_message(&mut self, msg: &&[u8], now: T) { self.handle_input(msg, now) }
///     fn handle_frame_error(&mut self, _: &FrameError<&'static str>, _: T) {}
///     fn handle_timeout(&mut self, _: T) {}
///     fn handle_close(&mut self, _: T) {}
///     fn poll_transmit(&mut self) -> Option<Transmit> { None }
///     fn poll_event(&mut self) -> Option<usize> { None }
///     fn poll_timeout(&self) -> Option<T> { None }
/// }
///
/// boardwire_proto::forward_session! {
///     impl<T: Clock> Session for Counter<T> {
///         type Incoming<'a> = &'a [u8];
///         type Outgoing<'a> = &'a [u8];
///         type Event = usize;
///
///         fn decode_incoming<'a>(&self, frame: &'a [u8]) -> Result<&'a [u8], &'static str> { Ok(frame) }
///         fn decode_outgoing<'a>(&self, frame: &'a [u8]) -> Result<&'a [u8], &'static str> { Ok(frame) }
///         fn is_unrecognised(_: &&[u8]) -> bool { false }
///     }
/// }
///
/// fn main() {
///     use boardwire_proto::Session;
///     let mut c = Counter { seen: 0, last: None };
///     Session::handle_input(&mut c, (), b"abc", 7);
///     assert_eq!((c.seen, c.last), (3, Some(7)));
///     assert_eq!(c.max_frame_len(), 64);
///     assert_eq!(c.decode_outgoing(b"xy"), Ok(&b"xy"[..]));
/// }
/// ```
#[macro_export]
// `crate::` names the invoking crate's types on purpose: the family's
// conventions (`crate::error::DecodeError`, `crate::framer::Framer`).
#[allow(clippy::crate_in_macro_def)]
macro_rules! forward_session {
    (
        $(#[$attr:meta])*
        impl<$($g:ident: $bound:path),+> Session for $ty:ident<$($g2:ident),+> {
            type Conn = $conn:ty;
            $($rest:tt)*
        }
    ) => {
        $crate::forward_session! {
            @many $conn;
            $(#[$attr])*
            impl<$($g: $bound),+> Session for $ty<$($g2),+> { $($rest)* }
        }
    };
    (
        $(@many $conn:ty;)?
        $(#[$attr:meta])*
        impl<$($g:ident: $bound:path),+> Session for $ty:ident<$($g2:ident),+> {
            type Time = $t:ty;
            type Incoming<$la:lifetime> = $incoming:ty;
            type Outgoing<$lb:lifetime> = $outgoing:ty;
            type Event = $event:ty;

            $($rest:tt)*
        }
    ) => {
        $crate::forward_session! {
            @peers [$($conn)?]
            [$(#[$attr])*] [$($g: $bound),+] $ty [$($g2),+]
            types: $t; $la $incoming; $lb $outgoing; $event;
            [$($rest)*]
        }
    };
    (
        $(#[$attr:meta])*
        impl<$t:ident: $bound:path> Session for $ty:ident<$t2:ident> {
            $($rest:tt)*
        }
    ) => {
        $crate::forward_session! {
            $(#[$attr])*
            impl<$t: $bound> Session for $ty<$t2> {
                type Time = $t;
                $($rest)*
            }
        }
    };
    (@peers [] $($tail:tt)*) => {
        $crate::forward_session! {
            @impl "The family's [`Session`](boardwire_proto::Session) contract: one peer \
                   (`Conn = ()`); each method forwards to the inherent one of the same name."
            conn: (), (), [], [.map(|t| ((), t))]; $($tail)*
        }
    };
    (@peers [$conn:ty] $($tail:tt)*) => {
        $crate::forward_session! {
            @impl "The family's [`Session`](boardwire_proto::Session) contract with many \
                   peers; each method forwards to the inherent one of the same name."
            conn: $conn, conn, [conn], []; $($tail)*
        }
    };
    // The impl. `$p` is the connection parameter (`conn`, or `()` for one
    // peer), `$c` the connection argument of the inherent methods (none for
    // one peer), `$wrap` what makes the inherent `poll_transmit`'s answer
    // the trait's. The family's conventions come from the invoking crate
    // (`crate::` is its root here).
    (
        @impl $doc:literal
        conn: $conn:ty, $p:pat, [$($c:ident)?], [$($wrap:tt)*];
        [$(#[$attr:meta])*] [$($g:ident: $bound:path),+] $ty:ident [$($g2:ident),+]
        types: $t:ty; $la:lifetime $incoming:ty; $lb:lifetime $outgoing:ty; $event:ty;
        [$($rest:tt)*]
    ) => {
        #[doc = $doc]
        $(#[$attr])*
        impl<$($g: $bound),+> $crate::Session for $ty<$($g2),+> {
            type Conn = $conn;
            type Time = $t;
            type Incoming<$la> = $incoming;
            type Outgoing<$lb> = $outgoing;
            type Event = $event;
            type DecodeError = crate::error::DecodeError;
            type Framer = crate::framer::Framer;

            fn handle_input(&mut self, $p: $conn, bytes: &[u8], now: $t) {
                <$ty<$($g2),+>>::handle_input(self, $($c,)? bytes, now);
            }
            fn handle_message(&mut self, $p: $conn, msg: &Self::Incoming<'_>, now: $t) {
                <$ty<$($g2),+>>::handle_message(self, $($c,)? msg, now);
            }
            fn handle_frame_error(
                &mut self,
                $p: $conn,
                error: &$crate::FrameError<Self::DecodeError>,
                now: $t,
            ) {
                <$ty<$($g2),+>>::handle_frame_error(self, $($c,)? error, now);
            }
            fn handle_timeout(&mut self, now: $t) {
                <$ty<$($g2),+>>::handle_timeout(self, now);
            }
            fn handle_close(&mut self, $p: $conn, now: $t) {
                <$ty<$($g2),+>>::handle_close(self, $($c,)? now);
            }
            fn poll_transmit(&mut self) -> Option<($conn, $crate::Transmit)> {
                <$ty<$($g2),+>>::poll_transmit(self) $($wrap)*
            }
            fn poll_event(&mut self) -> Option<$event> {
                <$ty<$($g2),+>>::poll_event(self)
            }
            fn poll_timeout(&self) -> Option<$t> {
                <$ty<$($g2),+>>::poll_timeout(self)
            }

            $($rest)*
        }
    };
}

#[cfg(test)]
mod tests {
    extern crate std;
    use std::string::ToString;

    use super::Outcome;

    /// The words `Outcome`'s documentation gives for `Display`.
    #[test]
    fn outcomes_read_as_words() {
        assert_eq!(Outcome::Won.to_string(), "won");
        assert_eq!(Outcome::Lost.to_string(), "lost");
        assert_eq!(Outcome::Drawn.to_string(), "drawn");
        assert_eq!(Outcome::Unknown.to_string(), "no result");
    }
}
