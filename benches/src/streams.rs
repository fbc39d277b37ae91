//! Recorded and spec-given message streams the codec benchmarks share
//! (`benches/dxp_codec.rs`, `benches/citrine_decode.rs`,
//! `benches/codec_streams.rs`).

/// Every message of the recorded conversation with Scan
/// (`dxp-scan-follower.txt` in boardwire-vectors), in order, each with its
/// NUL: one pass of a DXP stream as it arrives.
pub fn dxp_recorded() -> Vec<u8> {
    let text = boardwire_vectors::data::DXP_SCAN_FOLLOWER;
    let mut stream = Vec::new();
    for line in text.lines().filter(|l| l.starts_with('[')) {
        let Some((_, rest)) = line.split_once("] ") else {
            continue;
        };
        let Some((_, payload)) = rest.split_once(' ') else {
            continue;
        };
        if payload.starts_with("<EOF") {
            continue;
        }
        stream.extend(payload.replace("\\0", "\0").into_bytes());
    }
    stream
}

/// Citrine reply lines as the spec note (novag-citrine's spec/citrine.md,
/// *Move text the Citrine prints*) and captured device output show them,
/// including the document's spellings (`t 2 g8-f6`), so they are decoded
/// with `Leniency::DOCUMENT` (what the host driver uses).
pub const CITRINE_REPLY_LINES: &[&[u8]] = &[
    b"M   7   g1-f3",
    b"M   7,  c5xd4",
    b"M   5   d7-d8/N",
    b"M   7   e5xd6ep",
    b"M   4   O-O",
    b"M 1 e2-e4 |",
    b"M 1, d7-d6 |",
    b"T   1,  e7-e5",
    b"t 2 g8-f6",
    b"Clock 00:06:27 00:00:01",
    b"Game   6",
    b".      white       black",
    b".   3  f4xe5       d8-h4",
    b"ID. UCBII V1.09",
    b"Level tr 1",
    b"New Game",
    b"Position Board",
    b"8 br bn bb bq bk bb bn br",
    b"4    ::    :: WP ::    ::",
    b"Xmit on",
    b".Referee off",
    b"Flip --> Black",
];

/// Bytes in a mebibyte: each codec stream is repeated to at least this.
pub const MIB: usize = 1 << 20;

/// `frames`, each followed by `end`, repeated to at least 1 MiB.
pub fn stream_of(frames: &[Vec<u8>], end: &[u8]) -> Vec<u8> {
    let mut one = Vec::new();
    for f in frames {
        one.extend_from_slice(f);
        one.extend_from_slice(end);
    }
    to_mib(&one)
}

/// `one` repeated to at least 1 MiB.
pub fn to_mib(one: &[u8]) -> Vec<u8> {
    one.repeat(MIB / one.len().max(1) + 1)
}

/// The payloads of a recorded transcript's lines `[time] who DIR payload`
/// in direction `dir` (` >> ` / ` << `).
pub fn transcript_side(text: &str, dir: &str) -> Vec<Vec<u8>> {
    text.lines()
        .filter(|l| l.starts_with('['))
        .filter_map(|l| l.find(dir).map(|i| l.as_bytes()[i + dir.len()..].to_vec()))
        .filter(|p| !p.starts_with(b"<EOF"))
        .collect()
}

/// The client's (` >> `) or the server's (` << `) lines of the recorded
/// shogi-server transcript (x1 and CSA mode), each with its LF, repeated
/// to 1 MiB.
pub fn csa_side(dir: &str) -> Vec<u8> {
    stream_of(
        &transcript_side(boardwire_vectors::data::CSA_SHOGI_SERVER, dir),
        b"\n",
    )
}

/// The first `Game_Summary` block the recorded shogi-server sent (to
/// alice), its lines LF-ended.
pub fn csa_summary_block() -> Vec<u8> {
    let text = boardwire_vectors::data::CSA_SHOGI_SERVER;
    let start = text
        .find("alice  << BEGIN Game_Summary")
        .expect("a summary");
    let mut summary = Vec::new();
    for l in text[start..].lines() {
        let (_, line) = l.split_once(" << ").expect("server lines");
        summary.extend_from_slice(line.as_bytes());
        summary.push(b'\n');
        if line == "END Game_Summary" {
            break;
        }
    }
    summary
}

/// A host's commands over a game: the moves of a real opening line (the
/// Ruy Lopez, Morphy Defence, main line) with a clock query after each,
/// after `X ON` and `N` (the lines without their terminator).
pub fn citrine_commands() -> Vec<Vec<u8>> {
    let moves = [
        "e2e4", "e7e5", "g1f3", "b8c6", "f1b5", "a7a6", "b5a4", "g8f6", "e1g1", "f8e7", "f1e1",
        "b7b5", "a4b3", "d7d6", "c2c3", "e8g8", "h2h3", "c6a5", "b3c2", "c7c5", "d2d4", "d8c7",
    ];
    let mut commands: Vec<Vec<u8>> = vec![b"X ON".to_vec(), b"N".to_vec()];
    for m in moves {
        commands.push(format!("M {m}").into_bytes());
        commands.push(b"C".to_vec());
    }
    commands
}

/// Stockfish 15.1's output for `go depth 14` (`data/stockfish-15.1-depth-14.txt`,
/// recorded on loopback), one line each, without the LF.
pub fn stockfish_lines() -> Vec<Vec<u8>> {
    include_str!("../data/stockfish-15.1-depth-14.txt")
        .lines()
        .map(|l| l.as_bytes().to_vec())
        .collect()
}

/// The engine's (`< `) lines of the recorded Scan 3.1 Hub session, without
/// the LF.
pub fn hub_engine_lines() -> Vec<Vec<u8>> {
    boardwire_vectors::data::HUB_SCAN31
        .lines()
        .filter_map(|l| l.strip_prefix("< "))
        .map(|l| l.as_bytes().to_vec())
        .collect()
}

/// `count` plies of random legal play (xorshift, fixed seed) by `moves_of`
/// from `start` with `play`.
pub fn random_game<P: Clone, M: Copy>(
    start: &P,
    count: usize,
    moves_of: impl Fn(&P) -> Vec<M>,
    play: impl Fn(&mut P, M),
) -> Vec<M> {
    let mut rng = 0x2545_F491_4F6C_DD1Du64;
    let mut p = start.clone();
    let mut out = Vec::new();
    while out.len() < count {
        let moves = moves_of(&p);
        if moves.is_empty() {
            break;
        }
        rng ^= rng >> 12;
        rng ^= rng << 25;
        rng ^= rng >> 27;
        let m = moves[(rng.wrapping_mul(0x2545_F491_4F6C_DD1D) % moves.len() as u64) as usize];
        play(&mut p, m);
        out.push(m);
    }
    out
}

/// Frames the whole of `stream` with `framer` (as a reader holding all of
/// it would) and hands each frame to `each`; the number of frames. Bytes
/// the framer skips (empty lines, over-long frames) are passed over.
#[inline(always)]
pub fn frames_of<'s, F: boardwire_proto::Framer>(
    mut framer: F,
    stream: &'s [u8],
    mut each: impl FnMut(&'s [u8]),
) -> usize {
    use boardwire_proto::Status;
    let mut rest = stream;
    let mut n = 0;
    loop {
        match framer.decode(rest) {
            Status::Complete { frame, consumed } => {
                each(frame);
                n += 1;
                rest = &rest[consumed..];
            }
            Status::Partial { consumed: 0 } => return n,
            Status::Partial { consumed } | Status::Overlong { consumed, .. } => {
                rest = &rest[consumed..];
            }
        }
    }
}
