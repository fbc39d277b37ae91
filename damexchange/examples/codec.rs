//! The codec alone, no session and no I/O: build messages, encode them,
//! cut a byte stream into frames with the `Framer` (in a capped
//! `FrameBuffer`), decode each frame, and read the errors.
//!
//! `cargo run -p damexchange --example codec`

use damexchange::framer::{Frame, FrameBuffer, Framer};
use damexchange::wire::{Color, GameReq, Move, Name, Square, StartPosition};
use damexchange::{DecodeError, GameEnd, GameEndReason, Message, StopCode, decode};

fn main() -> Result<(), Box<dyn std::error::Error>> {
    // Values are validated when built, so encoding cannot fail.
    let req = GameReq::new(
        Name::new("Example")?,
        Color::Black,
        5,
        0,
        StartPosition::Initial,
    )?;
    let sq = |n| Square::new(n).ok_or("square");
    let mv = Move::new(3, sq(32)?, sq(28)?, &[])?;
    let end = GameEnd {
        reason: GameEndReason::SenderLoses,
        stop: StopCode::PlayOn,
    };
    let mut stream = Vec::new();
    for msg in [
        Message::GameReq(req),
        Message::Move(mv),
        Message::GameEnd(end),
    ] {
        // `Display` is the wire form (no NUL), `describe()` the words.
        println!("{:<45} {}", msg.to_string(), msg.describe());
        msg.encode(&mut stream); // frame + NUL
    }
    // A frame that does not decode, then one of an unknown kind.
    stream.extend_from_slice(b"M00003228xx\0X hello\0");

    // Cut the stream in uneven reads, as a socket delivers it.
    let mut input = FrameBuffer::new(Framer::default(), [0u8; 128]);
    for chunk in stream.chunks(7) {
        input.feed(chunk, |frame| match frame {
            Frame::Complete(bytes) => match decode::<Message>(bytes) {
                Ok(Message::Unrecognised(u)) => {
                    println!("unrecognised: {}", Message::Unrecognised(u).describe());
                }
                Ok(msg) => println!("decoded: {}", msg.describe()),
                Err(e) => report(&e),
            },
            Frame::Overlong { len, max } => println!("over-long: {len} > {max}"),
        });
    }
    Ok(())
}

fn report(e: &DecodeError) {
    // Which message, which field, where, and what is wrong.
    println!(
        "malformed: {e} ({:?} {:?} at {}: {:?})",
        e.message, e.field, e.offset, e.problem
    );
}
