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
