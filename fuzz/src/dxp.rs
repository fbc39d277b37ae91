//! DamExchange (crate `damexchange`) properties.

use bytes::BytesMut;
use damexchange::codec::DxpCodec;
use damexchange::framer::{Framer, Status};
use damexchange::{FrameError, Leniency, MAX_MESSAGE_LEN, Message, decode, decode_with};
use tokio_util::codec::Decoder;

/// Any bytes: decoding never panics; decode -> encode -> decode agrees; strict
/// decoding accepts only canonical bytes (re-encoding gives them back).
pub fn decode_any(data: &[u8]) {
    match decode::<Message>(data) {
        Ok(msg) => {
            let enc = msg.encoded();
            assert_eq!(
                enc.as_bytes(),
                data,
                "strict decode accepted non-canonical bytes"
            );
            assert_eq!(decode::<Message>(enc.as_bytes()).unwrap(), msg);
        }
        Err(e) => {
            assert!(e.offset <= data.len());
            let _ = e.to_string();
        }
    }
    if let Ok(msg) = decode_with::<Message>(data, &Leniency::ALL) {
        let enc = msg.encoded();
        assert!(enc.as_bytes().len() <= MAX_MESSAGE_LEN);
        assert_eq!(
            decode::<Message>(enc.as_bytes()).unwrap(),
            msg,
            "lenient value does not round-trip"
        );
    }
}

/// What a stream should yield, as (frame start, item): the model splits on
/// NUL without any buffer limit, then applies the 127-byte rule. Over-long
/// frames are compared by their start only (how much of one has been seen
/// when it is reported depends on the chunking).
fn model(stream: &[u8]) -> Vec<Result<Message<'static>, ()>> {
    let mut out = Vec::new();
    let mut start = 0usize;
    for (i, &b) in stream.iter().enumerate() {
        if b == 0 {
            let frame = &stream[start..i];
            out.push(if frame.len() > MAX_MESSAGE_LEN {
                Err(())
            } else {
                decode::<Message>(frame)
                    .map(Message::into_owned)
                    .map_err(|_| ())
            });
            start = i + 1;
        }
    }
    let tail = &stream[start..];
    if !tail.is_empty() {
        out.push(Err(()));
    }
    out
}

/// Random chunking: the first bytes choose the chunk sizes, the rest is the
/// stream. The `Framer` (over a caller-owned buffer) and the tokio
/// `DxpCodec` must both yield what the model yields, however the stream is
/// cut, and never hold more than 128 bytes.
pub fn framer_chunks(data: &[u8]) {
    let Some((&n, rest)) = data.split_first() else {
        return;
    };
    let n = usize::from(n % 16) + 1;
    if rest.len() < n {
        return;
    }
    let (sizes, stream) = rest.split_at(n);
    let expected = model(stream);

    let mut framer = Framer::default();
    let mut own = Vec::new();
    let mut codec = DxpCodec::default();
    let mut buf = BytesMut::new();
    let (mut got, mut got_tokio) = (Vec::new(), Vec::new());
    let (mut pos, mut k) = (0, 0);
    while pos < stream.len() {
        let size = (usize::from(sizes[k % sizes.len()]) + 1).min(stream.len() - pos);
        k += 1;
        let input = &stream[pos..pos + size];
        pos += size;
        own.extend_from_slice(input);
        loop {
            let consumed = match framer.decode(&own) {
                Status::Complete { frame, consumed } => {
                    got.push(
                        decode::<Message>(frame)
                            .map(Message::into_owned)
                            .map_err(|_| ()),
                    );
                    consumed
                }
                Status::Partial { consumed } => consumed,
                Status::Overlong { consumed, .. } => {
                    got.push(Err(()));
                    consumed
                }
            };
            own.drain(..consumed);
            if consumed == 0 {
                break;
            }
        }
        assert!(own.len() <= MAX_MESSAGE_LEN + 1);
        buf.extend_from_slice(input);
        while let Some(item) = codec.decode(&mut buf).unwrap() {
            got_tokio.push(item.map_err(|_: FrameError| ()));
        }
        assert!(buf.len() <= MAX_MESSAGE_LEN + 1);
    }
    if !own.is_empty() && !framer.is_discarding() {
        got.push(Err(()));
    }
    while let Some(item) = codec.decode_eof(&mut buf).unwrap() {
        got_tokio.push(item.map_err(|_| ()));
    }
    // An over-long frame without its NUL at the end of the stream is
    // reported when it is seen; the model sees it at the end.
    assert_eq!(got, expected);
    assert_eq!(got_tokio, expected);
}

/// Arbitrary valid value -> bytes -> value, alone and as a framed stream.
pub fn value_roundtrip(msgs: &[Message<'_>]) {
    let mut stream = Vec::new();
    for msg in msgs {
        let enc = msg.encoded();
        assert!(!enc.as_bytes().is_empty() && enc.as_bytes().len() <= MAX_MESSAGE_LEN);
        assert_eq!(enc.as_bytes().len(), msg.encoded_len());
        assert_eq!(&decode::<Message>(enc.as_bytes()).unwrap(), msg);
        msg.encode(&mut stream);
    }
    let mut framer = Framer::default();
    let mut at = 0;
    let mut k = 0;
    while let Status::Complete { frame, consumed } = framer.decode(&stream[at..]) {
        assert_eq!(decode::<Message>(frame).unwrap(), msgs[k]);
        k += 1;
        at += consumed;
    }
    assert_eq!(k, msgs.len());
}

/// The DXP session target: an [`Initiator`] and a [`Follower`] wired in
/// memory ([`crate::pair::Wire`]), driven by the fuzzer's bytes: the first
/// bytes choose the configs (take-backs, stop codes, leniency, a small
/// ply cap, the first-move delay, a minutes limit), then each op byte
/// chooses a command of either side (GAMEREQ with any settings and start,
/// one of the legal moves, GAMEEND with any reason, CHAT, BACKREQ to any
/// move, take-backs on or off, a stale GAMEEND), delivering one or every
/// frame in flight, dropping one, injecting any bytes or a frame error,
/// closing a stream, or moving the clock to the next deadline.
///
/// Checks (the session module's documented contract): no panic; every
/// frame written is one NUL-terminated message that decodes; each side's
/// `moves()` replay legally from `start_position()` to `position()`;
/// `is_our_turn()` only when the position has our colour to move, and then
/// a legal `send_move` is accepted; when only the sessions' own frames were
/// exchanged and all were delivered, both sides in a game show the same
/// game; and at the end, after any bytes, a side that is not closing still
/// reads a CHAT after a NUL (a rejected frame leaves the session usable).
pub fn session(data: &[u8]) {
    use core::time::Duration;

    use board_core::draughts::{Color, Position};
    use damexchange::message::Chat;
    use damexchange::session::{
        Event, Follower, FollowerConfig, GameOffer, Initiator, InitiatorConfig,
    };
    use damexchange::{ChatText, GameEndReason, Name, StopCode};

    use crate::pair::{Ops, Wire};

    /// The next event of side `side` of the wire (0: the initiator, 1: the
    /// follower).
    fn poll_event(
        w: &mut Wire<Initiator<Duration>, Follower<Duration>>,
        side: usize,
    ) -> Option<Event> {
        if side == 0 {
            w.a.poll_event()
        } else {
            w.b.poll_event()
        }
    }

    let mut ops = Ops::new(data);
    let flags = ops.byte();
    let cap = u32::from(ops.byte());
    let now = Duration::ZERO;
    let mut ic = InitiatorConfig::new(Name::new("Init").unwrap());
    ic.take_backs = flags & 1 != 0;
    ic.stop = if flags & 2 != 0 {
        StopCode::NoMoreGames
    } else {
        StopCode::PlayOn
    };
    ic.leniency = if flags & 4 != 0 {
        Leniency::ALL
    } else {
        Leniency::STRICT
    };
    ic.max_game_plies = if cap == 0 { 20_000 } else { cap };
    let mut fc = FollowerConfig::new(Name::new("Follow").unwrap());
    fc.take_backs = flags & 8 != 0;
    fc.first_move_delay = Duration::from_millis(if flags & 16 != 0 { 500 } else { 0 });
    fc.accept_games = flags & 32 != 0 || flags == 0;
    fc.max_minutes = (flags & 64 != 0).then_some(10);
    fc.leniency = ic.leniency;
    fc.max_game_plies = ic.max_game_plies;
    if flags & 128 != 0 {
        ic.max_bad_frames = Some(3);
        fc.max_bad_frames = Some(3);
        fc.handshake_timeout = Some(Duration::from_secs(30));
    }
    let bad_frames_close = flags & 128 != 0;
    let delay = flags & 16 != 0;
    let mut w = Wire::new(Initiator::new(ic, now), Follower::new(fc, now), now);
    // Set-up starts: the spec note's and board-core's test positions.
    let starts: [Option<Position>; 3] = [
        None,
        "W:W28:B23,14".parse().ok(),
        "B:WK46,28:BK3,19,20".parse().ok(),
    ];
    // Whether each side is in a game (between its GameStarted and
    // GameEnded events) and whether a side closes.
    let mut in_game = [false, false];
    let mut closing = [false, false];
    let seen = |w: &mut Wire<Initiator<Duration>, Follower<Duration>>,
                in_game: &mut [bool; 2],
                closing: &mut [bool; 2]| {
        let mut any = false;
        for side in 0..2 {
            while let Some(e) = poll_event(w, side) {
                any = true;
                let _ = e.to_string();
                match e {
                    Event::GameStarted(_) => in_game[side] = true,
                    Event::GameEnded(_) => in_game[side] = false,
                    Event::Closing(_) => closing[side] = true,
                    _ => {}
                }
            }
        }
        any
    };
    let mut steps = 0;
    while !ops.is_empty() && steps < 400 {
        steps += 1;
        let op = ops.byte();
        let arg = ops.byte();
        let side_b = op & 1 != 0;
        let now = w.now;
        match (op >> 1) % 16 {
            0 => {
                let offer = GameOffer {
                    our_color: if arg & 1 != 0 {
                        Color::Black
                    } else {
                        Color::White
                    },
                    minutes: if arg & 2 != 0 {
                        1000
                    } else {
                        u16::from(arg >> 2)
                    },
                    moves: u16::from(arg % 3) * 20,
                    start: starts[usize::from(arg >> 6) % 3],
                };
                let _ = w.a.request_game(offer, now);
            }
            1 => {
                let (pos, ours) = if side_b {
                    (w.b.position().copied(), w.b.is_our_turn())
                } else {
                    (w.a.position().copied(), w.a.is_our_turn())
                };
                if let Some(pos) = pos {
                    let moves = pos.legal_moves();
                    if !moves.is_empty() {
                        let mv = moves[usize::from(arg) % moves.len()];
                        let r = if side_b {
                            w.b.send_move_with(mv, u16::from(arg) * 50, now)
                        } else {
                            w.a.send_move(mv, now)
                        };
                        if ours {
                            assert_eq!(r, Ok(()), "our turn, a legal move, at {pos}");
                        }
                    }
                }
            }
            2 => {
                let reason = [
                    GameEndReason::Unknown,
                    GameEndReason::SenderLoses,
                    GameEndReason::Draw,
                    GameEndReason::SenderWins,
                ][usize::from(arg % 4)];
                let _ = if side_b {
                    w.b.end_game(reason, now)
                } else {
                    w.a.end_game(reason, now)
                };
            }
            3 => {
                let text = String::from_utf8_lossy(ops.bytes()).into_owned();
                let _ = if side_b {
                    w.b.send_chat(&text, now)
                } else {
                    w.a.send_chat(&text, now)
                };
            }
            4 => {
                let color = if arg & 1 != 0 {
                    Color::Black
                } else {
                    Color::White
                };
                let n = u16::from(arg >> 1);
                let _ = if side_b {
                    w.b.request_take_back(n, color, now)
                } else {
                    w.a.request_take_back(n, color, now)
                };
            }
            5 => {
                if side_b {
                    w.b.set_take_backs(arg & 1 != 0);
                } else {
                    w.a.set_take_backs(arg & 1 != 0);
                }
            }
            6 => {
                let _ = w.a.end_stale_game(now);
            }
            7 | 8 => {
                w.deliver_one(side_b);
            }
            9 => {
                let bytes = ops.bytes();
                w.inject(side_b, bytes);
            }
            10 => w.drop_one(side_b),
            11 => {
                let overlong = FrameError::Overlong {
                    len: 128 + usize::from(arg),
                    max: MAX_MESSAGE_LEN,
                };
                // A GAMEREQ, BACKREQ or GAMEEND with a bad field, or a
                // frame over the cap.
                let bad: [&[u8]; 3] = [b"R01Fuzz", b"B0x1W", b"E9"];
                let error = match decode::<Message>(bad[usize::from(arg % 4).min(2)]) {
                    Err(e) if arg % 4 != 3 => FrameError::Malformed(e),
                    _ => overlong,
                };
                w.dirty = true;
                if side_b {
                    w.b.handle_frame_error(&error, now);
                } else {
                    w.a.handle_frame_error(&error, now);
                }
            }
            12 if arg < 16 => w.close(side_b),
            13 => {
                let limit = w.now + Duration::from_secs(u64::from(arg) * 10);
                let step = w.now + Duration::from_millis(u64::from(arg) * 20);
                w.advance(limit, step);
            }
            _ => {
                // Everything in flight, both ways, until quiet.
                for _ in 0..64 {
                    let moved = w.round();
                    if !seen(&mut w, &mut in_game, &mut closing) && !moved {
                        break;
                    }
                }
            }
        }
        seen(&mut w, &mut in_game, &mut closing);
        check_side(w.a.start_position(), w.a.position(), w.a.moves());
        check_side(w.b.start_position(), w.b.position(), w.b.moves());
        for (turn, color, pos) in [
            (w.a.is_our_turn(), w.a.our_color(), w.a.position()),
            (w.b.is_our_turn(), w.b.our_color(), w.b.position()),
        ] {
            if turn {
                let pos = pos.expect("our turn in a game");
                assert_eq!(Some(pos.side_to_move()), color, "our turn at {pos}");
            }
        }
        // (Not with the follower's first-move delay: its first MOVE is held
        // back, played on its side and not yet on the wire.)
        if !w.dirty && !delay && in_game == [true, true] && w.is_quiet() {
            assert_eq!(w.a.moves(), w.b.moves(), "the two ends disagree");
            assert_eq!(w.a.start_position(), w.b.start_position());
        }
    }
    // A rejected frame leaves the session usable: after a NUL (ending any
    // unfinished frame), a CHAT is read as one.
    let chat = Message::Chat(Chat {
        text: ChatText::new("fuzz ping").unwrap(),
    });
    let mut frame = b"\0".to_vec();
    frame.extend_from_slice(chat.encoded().as_bytes());
    frame.push(0);
    let now = w.now;
    for (side, closing) in closing.into_iter().enumerate() {
        if closing || bad_frames_close || w.closed() {
            continue;
        }
        if side == 0 {
            w.a.handle_input(&frame, now);
        } else {
            w.b.handle_input(&frame, now);
        }
        let mut got = false;
        while let Some(e) = poll_event(&mut w, side) {
            got |= matches!(&e, Event::Chat(t) if t == "fuzz ping");
        }
        assert!(got, "side {side}: a CHAT after bad input was not read");
    }
}

/// A session's game: `moves` replay legally from `start` to `position`.
fn check_side(
    start: Option<&board_core::draughts::Position>,
    position: Option<&board_core::draughts::Position>,
    moves: &[board_core::draughts::Move],
) {
    let (Some(start), Some(position)) = (start, position) else {
        assert!(moves.is_empty());
        return;
    };
    let mut pos = *start;
    for &mv in moves {
        pos = pos
            .play(mv)
            .unwrap_or_else(|e| panic!("{mv:?} illegal at {pos}: {e:?}"));
    }
    assert_eq!(&pos, position, "moves do not lead to the position");
}
