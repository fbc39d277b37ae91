//! The codec alone, no session and no I/O: cut lines out of a byte stream
//! with a capped `FrameBuffer`, decode each, show it as the wire line
//! (`Display`), in words (`describe()`), and encode a reply.
//!
//! `cargo run -p csa-protocol --example csa_codec`

use csa_protocol::decode;
use csa_protocol::framer::{Frame, FrameBuffer, Framer};
use csa_protocol::message::{ClientMessage, ServerMessage, SpecialMove};

fn main() {
    // What a server might send, in chunks that split lines anywhere.
    let stream: &[&[u8]] = &[
        b"LOGIN:alice OK\r\nBEGIN Game_Summary\nGame_ID:g1\nEND Game_",
        b"Summary\n+7776FU,T12\n\n#RESIGN\n#WIN\nWHAT IS THIS\n",
    ];
    // The cap is mandatory: a peer that never ends a line costs 258 bytes.
    let mut input = FrameBuffer::new(Framer::new(256), [0u8; 258]);
    for chunk in stream {
        input.feed(chunk, |frame| match frame {
            Frame::Complete(line) => match decode::<ServerMessage>(line) {
                Ok(msg) => println!("{:<20} | {}", msg.to_string(), msg.describe()),
                Err(e) => println!("malformed: {e}"),
            },
            Frame::Overlong { len, max } => println!("skipped {len} > {max} bytes"),
        });
    }
    // Encoding cannot fail: the value was validated when it was made.
    let resign = ClientMessage::Special(SpecialMove::Toryo);
    assert_eq!(resign.to_bytes(), b"%TORYO\n");
    assert_eq!(
        decode::<ClientMessage>(resign.to_string().as_bytes()),
        Ok(resign.clone())
    );
    println!("we send {:?}: {}", resign.to_string(), resign.describe());
}
