//! DamExchange (crate `damexchange`) properties.

use bytes::BytesMut;
use damexchange::{
    DxpCodec, FrameError, Framer, Leniency, MAX_MESSAGE_LEN, Message, decode, decode_with,
};
use tokio_util::codec::Decoder;

/// Any bytes: decoding never panics; decode -> encode -> decode agrees; strict
/// decoding accepts only canonical bytes (re-encoding gives them back).
pub fn decode_any(data: &[u8]) {
    if let Ok(msg) = decode(data) {
        let enc = msg.encode();
        assert_eq!(
            enc.as_bytes(),
            data,
            "strict decode accepted non-canonical bytes"
        );
        assert_eq!(decode(enc.as_bytes()).unwrap(), msg);
    } else if let Err(e) = decode(data) {
        assert!(e.offset() <= data.len());
        let _ = e.to_string();
    }
    if let Ok(msg) = decode_with(data, &Leniency::ALL) {
        let enc = msg.encode();
        assert!(enc.as_bytes().len() <= MAX_MESSAGE_LEN);
        assert_eq!(
            decode(enc.as_bytes()).unwrap(),
            msg,
            "lenient value does not round-trip"
        );
    }
}

/// What a stream should yield: the model splits on NUL without any buffer
/// limit, then applies the 127-byte rule.
fn model(stream: &[u8]) -> Vec<Result<Message<'static>, FrameError>> {
    let mut out = Vec::new();
    let mut start = 0usize;
    for (i, &b) in stream.iter().enumerate() {
        if b == 0 {
            let frame = &stream[start..i];
            out.push(if frame.len() > MAX_MESSAGE_LEN {
                Err(FrameError::TooLong {
                    stream_offset: start as u64,
                })
            } else {
                decode(frame)
                    .map(Message::into_owned)
                    .map_err(|error| FrameError::Decode {
                        stream_offset: start as u64,
                        error,
                    })
            });
            start = i + 1;
        }
    }
    let tail = &stream[start..];
    if tail.len() > MAX_MESSAGE_LEN {
        out.push(Err(FrameError::TooLong {
            stream_offset: start as u64,
        }));
    } else if !tail.is_empty() {
        out.push(Err(FrameError::Unterminated {
            stream_offset: start as u64,
            len: tail.len(),
        }));
    }
    out
}

/// Random chunking: the first bytes choose the chunk sizes, the rest is the
/// stream. The `Framer` and the tokio `DxpCodec` must both yield exactly what
/// the model yields, however the stream is cut.
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

    let mut framer = Framer::new();
    let mut codec = DxpCodec::new();
    let mut buf = BytesMut::new();
    let (mut got, mut got_tokio) = (Vec::new(), Vec::new());
    let (mut pos, mut k) = (0, 0);
    while pos < stream.len() {
        let size = (usize::from(sizes[k % sizes.len()]) + 1).min(stream.len() - pos);
        k += 1;
        let mut input = &stream[pos..pos + size];
        pos += size;
        buf.extend_from_slice(input);
        while let Some(item) = framer.next_message(&mut input) {
            got.push(item.map(Message::into_owned));
        }
        assert!(input.is_empty());
        assert!(framer.buffered() <= MAX_MESSAGE_LEN);
        while let Some(item) = codec.decode(&mut buf).unwrap() {
            got_tokio.push(item);
        }
        assert!(buf.len() <= MAX_MESSAGE_LEN);
    }
    if let Some(e) = framer.finish() {
        got.push(Err(e));
    }
    while let Some(item) = codec.decode_eof(&mut buf).unwrap() {
        got_tokio.push(item);
    }
    assert_eq!(got, expected);
    assert_eq!(got_tokio, expected);
}

/// Arbitrary valid value -> bytes -> value, alone and as a framed stream.
pub fn value_roundtrip(msgs: &[Message<'_>]) {
    let mut stream = Vec::new();
    for msg in msgs {
        let enc = msg.encode();
        assert!(!enc.as_bytes().is_empty() && enc.as_bytes().len() <= MAX_MESSAGE_LEN);
        assert_eq!(enc.as_bytes().len(), msg.encoded_len());
        assert_eq!(&decode(enc.as_bytes()).unwrap(), msg);
        stream.extend_from_slice(enc.as_frame());
    }
    let mut framer = Framer::new();
    let mut input = &stream[..];
    let mut k = 0;
    while let Some(item) = framer.next_message(&mut input) {
        assert_eq!(item.unwrap(), msgs[k]);
        k += 1;
    }
    assert_eq!(k, msgs.len());
}
