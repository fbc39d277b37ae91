//! The codec alone: encode commands, decode replies, cut lines out of a
//! byte stream that arrives in pieces. No session, no port, no clock.
//!
//! `cargo run -p novag-citrine --example citrine_codec`

use novag_citrine::convert;
use novag_citrine::framer::{Frame, FrameBuffer, Framer};
use novag_citrine::vocab::Position;
use novag_citrine::{Command, Reply, decode};

fn main() -> Result<(), Box<dyn std::error::Error>> {
    // A command: the host's move, as the Citrine wants it (`M e2e4`).
    let start = Position::startpos();
    let e2e4 = start.parse_uci("e2e4")?;
    let cmd = Command::Move(convert::to_host_move(e2e4));
    assert_eq!(cmd.to_bytes(), b"M e2e4\r\n");
    println!("host -> device: {cmd}");

    // What the device prints, split at awkward places, as a serial port
    // delivers it: CR LF, LF alone, a line of garbage, a move line.
    let chunks: [&[u8]; 4] = [
        b"Xmit on\r\nM   1   e2",
        b"-e4 |\r\nM   1,  e7-e5\nHe",
        b"llo \x07there\r\n",
        b"ID. UCBII V1.09\r\n",
    ];
    let mut input = FrameBuffer::with_capacity(Framer::default(), 512);
    let mut position = start;
    for chunk in chunks {
        input.push(chunk);
        while let Some(frame) = input.next_frame() {
            let Frame::Complete(line) = frame else {
                println!("device -> host: (a line over the cap, skipped)");
                continue;
            };
            let reply = decode::<Reply>(line)?;
            // `Display` is the wire line; `describe()` the reading for a
            // person (unrecognised lines marked, control bytes escaped).
            assert_eq!(decode::<Reply>(reply.to_string().as_bytes())?, reply);
            println!("device -> host: {}", reply.describe());
            if let Reply::Move(m) = &reply {
                let mv = convert::to_move(&position, &m.text)?;
                println!("  = {mv} on the board");
                position = position.play(mv)?;
            }
        }
    }
    assert_eq!(
        position.to_string().split(' ').next(),
        Some("rnbqkbnr/pppp1ppp/8/4p3/4P3/8/PPPP1PPP/RNBQKBNR")
    );
    println!("position: {position}");
    Ok(())
}
