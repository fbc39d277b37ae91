//! csa-protocol properties: decode -> encode -> decode agrees for client
//! lines, server lines, Game_Summary blocks and kifu files; the framer
//! never loses sync; the server session fed random lines from strangers
//! never panics and never disturbs a game between two other players.

use std::time::{Duration, Instant};

use csa_protocol::decode::decode;
use csa_protocol::framer::{Framer, Status};
use csa_protocol::kifu::{Statement, Statements, parse_kifu, write_kifu};
use csa_protocol::message::{ClientMessage, GameSummary, ServerMessage};
use csa_protocol::session::{ConnId, Server, ServerConfig};

fn decode_client_line(line: &[u8]) -> Result<ClientMessage<'_>, csa_protocol::error::DecodeError> {
    decode(line)
}

fn decode_server_line(line: &[u8]) -> Result<ServerMessage<'_>, csa_protocol::error::DecodeError> {
    decode(line)
}

/// Asserts that `line`, the encoding of `m`, decodes (strictly) to `m`.
fn assert_decodes_to<'a, M>(line: &'a [u8], m: &M)
where
    M: csa_protocol::decode::Decode<'a, Error = csa_protocol::error::DecodeError>
        + PartialEq
        + core::fmt::Debug,
{
    assert_eq!(
        decode::<M>(line).as_ref(),
        Ok(m),
        "{:?}",
        String::from_utf8_lossy(line)
    );
}

/// Any client message value (feature `arbitrary`): encodes to a line that
/// decodes to the same value.
pub fn client_value(msgs: &[ClientMessage<'_>]) {
    for m in msgs {
        let line = m.to_line();
        assert_decodes_to(&line, m);
        let mut with_lf = Vec::new();
        m.encode(&mut with_lf);
        assert_eq!(with_lf.pop(), Some(b'\n'));
        assert_eq!(with_lf, line);
    }
}

/// Any server message value (feature `arbitrary`): the same property.
pub fn server_value(msgs: &[ServerMessage<'_>]) {
    for m in msgs {
        assert_decodes_to(&m.to_line(), m);
    }
}

/// Any bytes as one client line: a decoded value re-encodes to a line that
/// decodes to the same value and re-encodes to itself; known lines
/// re-encode byte for byte, except the two lenient forms the decoder
/// accepts as shogi-server does: a bare `%%CHAT` (empty chat text, written
/// `%%CHAT `) and numbers with leading zeros (`%%SETBUOY` count, `%%FORK`
/// nth: `02` is written `2`).
pub fn client_line(data: &[u8]) {
    if let Ok(m) = decode_client_line(data) {
        let line = m.to_line();
        let back = decode_client_line(&line).expect("re-encoded client line decodes");
        assert_eq!(back, m);
        assert_eq!(back.to_line(), line, "the encoding is a fixpoint");
        let lenient = data == b"%%CHAT"
            || data
                .windows(3)
                .any(|w| w[0] == b' ' && w[1] == b'0' && w[2].is_ascii_digit());
        if !lenient && !matches!(m, ClientMessage::Unrecognised(_)) {
            assert_eq!(line, data, "known client lines re-encode byte for byte");
        }
    }
}

/// Any bytes as one server line (same property).
pub fn server_line(data: &[u8]) {
    if let Ok(m) = decode_server_line(data) {
        let line = m.to_line();
        let back = decode_server_line(&line).expect("re-encoded server line decodes");
        assert_eq!(back, m);
        if matches!(m, ServerMessage::Unrecognised(_)) {
            assert_eq!(line, data);
        }
    }
}

/// Any `Game_Summary` value (feature `arbitrary`): encodes to a block that
/// parses back to it.
pub fn summary_value(s: &GameSummary) {
    assert_eq!(GameSummary::parse(&s.to_bytes()).as_ref(), Ok(s));
}

/// Any bytes as a Game_Summary block: parse -> encode -> parse is equal.
pub fn game_summary(data: &[u8]) {
    if let Ok(s) = GameSummary::parse(data) {
        let again = GameSummary::parse(&s.to_bytes()).expect("encoded summary parses");
        assert_eq!(again, s);
    }
}

/// Any bytes as a kifu file: parse -> write -> parse gives the same records;
/// every error points inside the file, at its line; the statement iterator
/// sees the same items and the same first error.
pub fn kifu(data: &[u8]) {
    let mut items = Vec::new();
    let mut first_error = None;
    for s in Statements::new(data) {
        match s {
            Ok(Statement::Item(i)) => items.push(i),
            Ok(Statement::RecordEnd) => {}
            Err(e) => {
                assert!(e.offset <= data.len(), "{e}");
                assert_eq!(e.offset - e.column, line_start(data, e.line), "{e}");
                first_error.get_or_insert(e);
            }
        }
    }
    match parse_kifu(data) {
        Ok(records) => {
            assert_eq!(first_error, None);
            let all: Vec<_> = records
                .iter()
                .flat_map(|r| r.items.iter().copied())
                .collect();
            assert_eq!(all, items);
            let written = write_kifu(&records);
            let again = parse_kifu(&written).expect("written kifu parses");
            assert_eq!(again, records);
        }
        Err(e) => assert_eq!(Some(e), first_error),
    }
}

/// The 0-based byte where 1-based line `line` starts.
fn line_start(data: &[u8], line: usize) -> usize {
    data.split_inclusive(|&b| b == b'\n')
        .take(line - 1)
        .map(<[u8]>::len)
        .sum()
}

/// The framer on any input split anywhere: the lines found equal those of
/// a one-shot split, overlong lines are reported, nothing panics.
pub fn framer(data: &[u8]) {
    let Some((&cut, body)) = data.split_first() else {
        return;
    };
    let max = 16;
    // Over-long lines are compared as markers: `len` is the bytes seen
    // when the cap was passed, which depends on how the input was split.
    let frames = |chunks: &[&[u8]]| {
        let mut framer = Framer::new(max);
        let mut buf: Vec<u8> = Vec::new();
        let mut out: Vec<Result<Vec<u8>, ()>> = Vec::new();
        for c in chunks {
            buf.extend_from_slice(c);
            loop {
                match framer.decode(&buf) {
                    Status::Complete { frame, consumed } => {
                        out.push(Ok(frame.to_vec()));
                        buf.drain(..consumed);
                    }
                    Status::Overlong { len, consumed } => {
                        assert!(len > max, "reported only past the cap");
                        out.push(Err(()));
                        buf.drain(..consumed);
                    }
                    Status::Partial { consumed } => {
                        buf.drain(..consumed);
                        if consumed == 0 {
                            // All the framer keeps waiting is one line
                            // within the cap (and a CR that may end it);
                            // after a discard the buffer may still hold the
                            // next lines, so the bound holds only here.
                            assert!(buf.len() <= max + 1, "buffer bounded");
                            break;
                        }
                    }
                }
            }
        }
        out
    };
    let at = (cut as usize) % (body.len() + 1);
    let split = frames(&[&body[..at], &body[at..]]);
    let whole = frames(&[body]);
    assert_eq!(split, whole);
    // Expected from a plain split on LF.
    let mut expected = Vec::new();
    let mut parts: Vec<&[u8]> = body.split(|&b| b == b'\n').collect();
    let tail = parts.pop().unwrap_or(b""); // the unterminated tail is not a frame yet
    for p in parts {
        let p = p.strip_suffix(b"\r").unwrap_or(p);
        expected.push(if p.len() > max {
            Err(())
        } else {
            Ok(p.to_vec())
        });
    }
    // An unterminated tail past the cap is reported already.
    let tail_body = tail.strip_suffix(b"\r").unwrap_or(tail);
    if tail_body.len() > max {
        expected.push(Err(()));
    }
    assert_eq!(whole, expected);
}

/// Two players start a game; strangers on two other connections send any
/// bytes (split by the input into lines, disconnects and small time steps).
/// The server must not panic, and the game between the two players must go
/// on: Black's next move is confirmed to both.
pub fn server_session(data: &[u8]) {
    let t0 = Instant::now();
    let mut now = t0;
    let mut server = Server::new(ServerConfig::default(), now, 1_800_000_000);
    let (a, b) = (ConnId(1), ConnId(2));
    server.handle_connect(a, now);
    server.handle_connect(b, now);
    let secret = "x7Qp-secret-Zr4";
    server.handle_input(
        a,
        format!("LOGIN fz_a {secret} x1\n%%GAME fz-300-0 +\n").as_bytes(),
        now,
    );
    server.handle_input(
        b,
        format!("LOGIN fz_b {secret} x1\n%%GAME fz-300-0 -\n").as_bytes(),
        now,
    );
    server.handle_input(a, b"AGREE\n", now);
    server.handle_input(b, b"AGREE\n", now);
    let drain = |server: &mut Server<Instant>| {
        let mut got: Vec<(ConnId, Vec<u8>)> = Vec::new();
        while let Some((conn, t)) = server.poll_transmit() {
            got.push((conn, t.into_bytes()));
        }
        got
    };
    let setup = drain(&mut server);
    assert!(
        setup
            .iter()
            .any(|(c, d)| *c == a && d.starts_with(b"START:"))
    );
    let mut next = 3;
    let mut connect = |server: &mut Server<Instant>, now| {
        next += 1;
        server.handle_connect(ConnId(next), now);
        ConnId(next)
    };
    let mut strangers = [connect(&mut server, now), connect(&mut server, now)];
    let mut elapsed = Duration::ZERO;
    for chunk in data.split(|&b| b == 0xff) {
        let Some((&op, rest)) = chunk.split_first() else {
            continue;
        };
        let who = usize::from(op & 1);
        match op >> 1 {
            0 => {
                server.handle_close(strangers[who], now);
                strangers[who] = connect(&mut server, now);
            }
            1 if elapsed < Duration::from_secs(100) => {
                let step = Duration::from_millis(u64::from(rest.first().copied().unwrap_or(0)) * 4);
                now += step;
                elapsed += step;
                server.handle_timeout(now);
            }
            _ => server.handle_input(strangers[who], rest, now),
        }
        let _ = drain(&mut server);
    }
    server.handle_input(a, b"+7776FU\n", now);
    let got = drain(&mut server);
    for p in [a, b] {
        assert!(
            got.iter()
                .any(|(c, d)| *c == p && d.starts_with(b"+7776FU,T")),
            "the players' game was disturbed: {got:?}"
        );
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn seeds() {
        client_line(b"LOGIN a b x1");
        client_line(b"%%SETBUOY buoy_a-1-0 +7776FU-3334FU 3");
        server_line(b"##[MONITOR2][g] +7776FU");
        server_line(b"-3334FU,T1.5");
        game_summary(b"BEGIN Game_Summary\nName+:a\nBEGIN Time\nTime_Unit:1min\nEND Time\nEND Game_Summary\n");
        kifu(b"V2.2\nPI\n+\n+7776FU,T1\n%TORYO\n/\nV3.0\n");
        framer(b"\x05ab\r\ncdefghijklmnopqrstuvwxyz\nx\n\ny");
        use arbitrary::{Arbitrary, Unstructured};
        let bytes: Vec<u8> = (0..4096u32)
            .map(|i| (i.wrapping_mul(2_654_435_761) >> 13) as u8)
            .collect();
        let mut u = Unstructured::new(&bytes);
        client_value(&Vec::<ClientMessage<'static>>::arbitrary(&mut u).unwrap());
        let mut u = Unstructured::new(&bytes);
        server_value(&Vec::<ServerMessage<'static>>::arbitrary(&mut u).unwrap());
        let mut u = Unstructured::new(&bytes);
        summary_value(&GameSummary::arbitrary(&mut u).unwrap());
        server_session(b"\x04LOGIN fz_a wrong x1\n\xff\x04LOGIN c p x1\n%%CHAT hi\n%%LIST\n+7776FU\n\xff\x00\xff\x02\x80\xff\x05%%GAME fz-300-0 +\n");
    }
}
