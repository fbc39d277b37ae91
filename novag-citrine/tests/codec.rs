//! The tokio codecs (feature `tokio`): lines out of a byte stream, a bad or
//! over-long line as an item error that does not stop the stream, and
//! encoding of messages and session transmits. Expected values are the spec
//! note's lines (spec/citrine.md).
#![cfg(feature = "tokio")]

use bytes::BytesMut;
use novag_citrine::codec::{DeviceCodec, HostCodec};
use novag_citrine::error::{Field, FrameError, MessageKind};
use novag_citrine::message::{Command, Reply};
use novag_citrine::session::{Driver, DriverConfig};
use std::time::Duration;
use tokio_util::codec::{Decoder, Encoder};

fn items<C: Decoder<Error = std::io::Error>>(codec: &mut C, input: &[u8]) -> Vec<C::Item> {
    let mut buf = BytesMut::new();
    let mut out = Vec::new();
    // One byte at a time: partial lines wait.
    for &b in input {
        buf.extend_from_slice(&[b]);
        while let Some(item) = codec.decode(&mut buf).unwrap() {
            out.push(item);
        }
    }
    while let Some(item) = codec.decode_eof(&mut buf).unwrap() {
        out.push(item);
    }
    out
}

#[test]
fn host_codec_decodes_replies_and_skips_bad_lines() {
    let mut input = b"Xmit on\r\nM 1 e9-e4\r\n".to_vec();
    input.extend(std::iter::repeat_n(b'z', 300));
    input.extend_from_slice(b"\r\nM   1,  e7-e5 |\r\nt 2 g8-f6\r\nNew Game");
    let got = items(&mut HostCodec::default(), &input);
    assert_eq!(got.len(), 6, "{got:?}");
    assert_eq!(got[0], Ok(Reply::Xmit(true)));
    match &got[1] {
        Err(FrameError::Malformed(e)) => {
            assert_eq!(
                (e.message, e.field, e.offset),
                (MessageKind::MoveLine, Field::Square, 5)
            )
        }
        other => panic!("{other:?}"),
    }
    assert!(matches!(got[2], Err(FrameError::Overlong { max: 256, len }) if len > 256));
    assert!(matches!(&got[3], Ok(Reply::Move(m)) if m.black && m.bar));
    // The document's take-back spelling: the host codec decodes like the
    // driver (Leniency::DOCUMENT).
    assert!(matches!(&got[4], Ok(Reply::TakeBack(m)) if m.number.get() == 2));
    // The last line at the end of the stream, without terminator.
    assert_eq!(got[5], Ok(Reply::NewGame));
}

#[test]
fn device_codec_decodes_commands() {
    let got = items(&mut DeviceCodec::default(), b"X ON\r\nME2E4\r\nZZ\r\n");
    assert_eq!(got[0], Ok(Command::Xmit(Some(true))));
    assert!(matches!(&got[1], Ok(Command::Move(m)) if m.from.to_string() == "e2"));
    assert!(matches!(&got[2], Ok(Command::Unrecognised(r)) if r.as_bytes() == b"ZZ"));
}

#[test]
fn codecs_encode_messages_and_transmits() {
    let mut dst = BytesMut::new();
    HostCodec::default()
        .encode(&Command::NewGame, &mut dst)
        .unwrap();
    let mut driver = Driver::new(DriverConfig::default(), Duration::ZERO);
    let t = driver.poll_transmit().unwrap();
    HostCodec::default().encode(t, &mut dst).unwrap();
    DeviceCodec::default()
        .encode(&Reply::Xmit(true), &mut dst)
        .unwrap();
    assert_eq!(&dst[..], b"N\r\nX ON\r\nXmit on\r\n");
}
