//! Novag Citrine (crate `novag-citrine`): reply and command decoding, value
//! round trips, driver input.

use core::time::Duration;

use novag_citrine::decode::{Leniency, decode, decode_with};
use novag_citrine::framer::{Framer, Status};
use novag_citrine::message::{Command, Reply};
use novag_citrine::session::{Driver, DriverConfig};

/// Frames `data` into lines (cap 64 bytes); every line decodes (as a reply,
/// strictly and with the document's spellings, and as a command) without
/// panicking, errors point inside the line, and what decodes re-encodes to
/// a line that decodes strictly to the same value.
pub fn reply_decode(data: &[u8]) {
    let mut framer = Framer::new(64);
    let mut rest = data;
    loop {
        let consumed = match framer.decode(rest) {
            Status::Complete { frame, consumed } => {
                assert!(!frame.is_empty() && frame.len() <= 64);
                for leniency in [Leniency::STRICT, Leniency::DOCUMENT] {
                    match decode_with::<Reply>(frame, &leniency) {
                        Ok(reply) => {
                            let bytes = reply.to_bytes();
                            let again = decode::<Reply>(&bytes[..bytes.len() - 2]);
                            assert_eq!(again, Ok(reply), "{frame:?}");
                        }
                        Err(e) => assert!(e.offset <= frame.len(), "{e:?} {frame:?}"),
                    }
                }
                match decode::<Command>(frame) {
                    Ok(cmd) => {
                        let bytes = cmd.to_bytes();
                        let again = decode::<Command>(&bytes[..bytes.len() - 2]);
                        assert_eq!(again, Ok(cmd), "{frame:?}");
                    }
                    Err(e) => assert!(e.offset <= frame.len(), "{e:?} {frame:?}"),
                }
                consumed
            }
            Status::Overlong { len, consumed } => {
                assert!(len > 64);
                consumed
            }
            Status::Partial { consumed } => {
                assert!(consumed <= rest.len());
                rest = &rest[consumed..];
                break;
            }
        };
        assert!(consumed > 0 && consumed <= rest.len());
        rest = &rest[consumed..];
    }
    // What is left is an unfinished line within the cap.
    assert!(rest.len() <= 64 + 1 || rest.iter().all(|b| !matches!(b, b'\r' | b'\n')));
}

/// Asserts that `bytes` is one line ending in CR LF (no other CR or LF).
fn one_line(bytes: &[u8]) -> &[u8] {
    assert!(bytes.ends_with(b"\r\n"), "{bytes:?}");
    let line = &bytes[..bytes.len() - 2];
    assert!(
        !line.iter().any(|b| matches!(b, b'\r' | b'\n')),
        "{bytes:?}"
    );
    line
}

/// Any command value (feature `arbitrary`) encodes to one line ending in
/// CR LF that decodes back to itself.
pub fn command_value(cmd: &Command<'_>) {
    let bytes = cmd.to_bytes();
    assert_eq!(decode::<Command>(one_line(&bytes)).as_ref(), Ok(cmd));
}

/// Any reply value (feature `arbitrary`) encodes to one line ending in
/// CR LF that decodes back to itself, strictly and leniently.
pub fn reply_value(reply: &Reply<'_>) {
    let bytes = reply.to_bytes();
    let line = one_line(&bytes);
    assert_eq!(decode::<Reply>(line).as_ref(), Ok(reply), "{line:?}");
    assert_eq!(
        decode_with::<Reply>(line, &Leniency::DOCUMENT).as_ref(),
        Ok(reply),
        "{line:?}"
    );
}

/// Arbitrary device output never makes the driver panic, and its input
/// buffer stays bounded.
pub fn driver_input(data: &[u8]) {
    let mut now = Duration::ZERO;
    let mut driver: Driver<Duration> = Driver::new(
        DriverConfig {
            max_line_len: 64,
            ..DriverConfig::default()
        },
        now,
    );
    for chunk in data.chunks(7) {
        driver.handle_input(chunk, now);
        while driver.poll_transmit().is_some() {}
        while driver.poll_event().is_some() {}
        now += Duration::from_millis(50);
    }
}

/// The Citrine session target: the host [`Driver`] and the simulated
/// [`Device`] wired in memory ([`crate::pair::Wire`]), driven by the
/// fuzzer's bytes: the first bytes choose the driver's settings (Xmit,
/// referee, auto-resync, resend, a small ply cap) and the device's
/// misbehaviour (duplicate acknowledgements, an unprompted new game, a move
/// out of turn, cut move lines, mute, garbage), then each op chooses a host
/// command (one of the legal moves, take-backs, `N`, `P`, adopting the
/// device's position, any command decoded from the fuzzer's bytes), a
/// device input (its engine's move, a move on the board, pieces set up),
/// delivering one or every line in flight, dropping one, injecting any
/// bytes, closing, or a clock step.
///
/// Checks: no panic; every line written is one CR LF line that its writer
/// decodes; both sides' `moves()` replay legally from `start_position()`
/// to `position()`; when the host only moved and lines were only
/// delivered (no misbehaviour, nothing injected) and all is delivered,
/// both show the same position; at the end, after any bytes, each side
/// that was not closed reads an unknown line after a line end as
/// `Unrecognised` (a rejected frame leaves the session usable).
pub fn session(data: &[u8]) {
    use board_core::chess::{Move, Position};
    use novag_citrine::session::{
        Device, DeviceConfig, DeviceEvent, Event as DriverEvent, Misbehaviour,
    };

    use crate::pair::{Ops, Wire};

    let mut ops = Ops::new(data);
    let flags = ops.byte();
    let bad = ops.byte();
    let cap = ops.byte();
    let now = Duration::ZERO;
    let mut dc = DriverConfig {
        xmit: Some(flags & 1 != 0),
        referee: Some(flags & 2 != 0),
        auto_resync: flags & 4 != 0,
        resend: (flags & 8 != 0).then_some(Duration::from_millis(300)),
        take_back_out_of_turn: flags & 16 != 0,
        flip: flags & 32 != 0,
        ..DriverConfig::default()
    };
    if cap != 0 {
        dc.max_game_plies = u32::from(cap);
    }
    let mut vc = DeviceConfig {
        seed: u64::from(flags),
        ..DeviceConfig::default()
    };
    let misbehaving = bad & 0x80 != 0;
    if misbehaving {
        vc.misbehaviour = Misbehaviour {
            duplicate_ack_every: u32::from(bad & 3),
            new_game_at_ply: (bad & 4 != 0).then_some(usize::from(cap % 8)),
            out_of_turn_at_ply: (bad & 8 != 0).then_some(usize::from(cap % 6)),
            truncate_every: u32::from((bad >> 4) & 3),
            mute: bad & 0x40 != 0,
            garbage: bad == 0xff,
        };
    }
    let mut w = Wire::new(Driver::new(dc, now), Device::new(vc, now), now);
    // The misbehaving device writes cut and garbage lines on purpose.
    w.check_b = !misbehaving;
    // The host only moved and lines were only delivered.
    let mut simple = !misbehaving;
    let mut closed = false;
    let mut steps = 0;
    let drain = |w: &mut Wire<Driver<Duration>, Device<Duration>>| {
        while let Some(e) = w.a.poll_event() {
            let _ = e.to_string();
        }
        while let Some(e) = w.b.poll_event() {
            let _ = e.to_string();
        }
    };
    while !ops.is_empty() && steps < 400 {
        steps += 1;
        let op = ops.byte();
        let arg = ops.byte();
        let now = w.now;
        let legal = |pos: Option<&Position>| -> Option<Move> {
            let moves = pos?.legal_moves();
            (!moves.is_empty()).then(|| moves[usize::from(arg) % moves.len()])
        };
        match op % 16 {
            0 | 1 => {
                let ours = w.a.is_our_turn();
                if let Some(mv) = legal(w.a.position()) {
                    let r = w.a.send_move(mv, now);
                    if ours {
                        assert_eq!(r, Ok(()), "our turn, a legal move");
                    }
                }
            }
            2 => {
                simple = false;
                let _ = w.a.take_back_plies(usize::from(arg % 4), now);
            }
            3 => {
                simple = false;
                let _ = w.a.new_game(now);
            }
            4 => {
                simple = false;
                let _ = w.a.request_position(now);
            }
            5 => {
                simple = false;
                if let Some(pos) = w.b.position().copied() {
                    let _ = w.a.adopt(pos, now);
                }
            }
            6 => {
                simple = false;
                // A frame, as the framer delivers one: no CR or LF.
                let line = ops.bytes();
                if !line.iter().any(|b| matches!(b, b'\r' | b'\n'))
                    && let Ok(cmd) = decode::<Command>(line)
                {
                    let _ = w.a.send(cmd, now);
                }
            }
            7 => {
                simple = false;
                if let Some(mv) = legal(w.b.position()) {
                    let _ = if arg & 1 != 0 {
                        w.b.handle_board_move(mv, now)
                    } else {
                        w.b.send_move(mv, now)
                    };
                }
            }
            8 => {
                simple = false;
                w.b.handle_start_position_set_up(now);
            }
            9 | 10 => {
                w.deliver_one(op & 1 != 0);
            }
            11 => {
                simple = false;
                w.drop_one(arg & 1 != 0);
            }
            12 => {
                simple = false;
                let bytes = ops.bytes();
                w.inject(arg & 1 != 0, bytes);
            }
            13 if arg < 8 => {
                simple = false;
                closed = true;
                w.close(arg & 1 != 0);
            }
            14 => {
                let limit = w.now + Duration::from_millis(u64::from(arg) * 40);
                let step = w.now + Duration::from_millis(u64::from(arg) + 1);
                w.advance(limit, step);
            }
            _ => {
                for _ in 0..64 {
                    let moved = w.round();
                    drain(&mut w);
                    if !moved {
                        let limit = w.now + Duration::from_secs(2);
                        let step = w.now + Duration::from_millis(10);
                        if !w.advance(limit, step) {
                            break;
                        }
                    }
                }
            }
        }
        drain(&mut w);
        for (start, position, moves) in [
            (w.a.start_position(), w.a.position(), w.a.moves()),
            (w.b.start_position(), w.b.position(), w.b.moves()),
        ] {
            match (start, position) {
                (Some(start), Some(position)) => {
                    let mut pos = *start;
                    for &mv in moves {
                        pos = pos
                            .play(mv)
                            .unwrap_or_else(|e| panic!("{mv} illegal at {pos}: {e:?}"));
                    }
                    assert_eq!(&pos, position, "moves do not lead to the position");
                }
                _ => assert!(moves.is_empty()),
            }
        }
        if simple && w.is_quiet() && w.a.is_idle() && w.a.pending().is_none() {
            assert_eq!(w.a.position(), w.b.position(), "host and device disagree");
        }
    }
    // A rejected frame leaves the session usable.
    if !closed && !w.closed() {
        let now = w.now;
        // `?` is no command letter and starts no reply.
        w.a.handle_input(b"\r\n?fuzzping\r\n", now);
        w.b.handle_input(b"\r\n?fuzzping\r\n", now);
        let mut got = (false, false);
        while let Some(e) = w.a.poll_event() {
            got.0 |= matches!(e, DriverEvent::Unrecognised(_));
        }
        while let Some(e) = w.b.poll_event() {
            got.1 |= matches!(e, DeviceEvent::Unrecognised(_));
        }
        assert!(got.0, "the driver did not read a line after bad input");
        assert!(got.1, "the device did not read a line after bad input");
    }
}
