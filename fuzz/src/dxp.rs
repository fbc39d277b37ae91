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
