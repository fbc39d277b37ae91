//! Every codec of the family on a realistic stream, in bytes per second
//! (issue 28, item 4: the target is at least 1 GB/s each, with no
//! allocation per message): the framer and the decoder over a stream as it
//! arrives, and the encoder writing the same messages into one reused
//! buffer. Before timing, each stream's messages are counted and the
//! allocations of one decode pass and one encode pass are printed per
//! message (a counting global allocator). A decode pass frames the stream
//! with the family's framer (engine lines too: LF, as the engine process
//! reads them) and counts the frames that decode (`is_ok`, the message
//! dropped where it was built). `examples/codec_ir.rs` runs one pass of
//! each for instruction counts (callgrind).
//!
//! The streams (each repeated to about 1 MiB, so a pass is long enough to
//! time and the framer sees every split):
//! - DXP: the recorded conversation with Scan (`dxp-scan-follower.txt`),
//!   NUL-ended frames;
//! - CSA client and server lines: the two sides of the recorded
//!   shogi-server transcript (x1 and CSA mode), LF-ended lines;
//! - `Game_Summary`: the transcript's summary block;
//! - CSA kifu: the Floodgate record of a 158-move game (parse only: the
//!   kifu reader has no writer);
//! - Citrine replies: the lines the spec note and captured device output
//!   show (CR LF); Citrine commands: a host's commands over a game (`X ON`,
//!   `N`, then `M e2e4`-style moves and a `C` after each);
//! - engine side: Stockfish 15.1's output for `go depth 14`
//!   (`data/stockfish-15.1-depth-14.txt`, recorded on loopback) decoded as
//!   UCI; the Hub engine lines of the recorded Scan 3.1 session; and the
//!   GUI's side encoded: `position startpos moves …` + `go` for every ply of
//!   a 100-ply chess game (UCI), shogi game (USI) and draughts game (Hub
//!   `pos` + `level` + `go think`).

use std::hint::black_box;
use std::time::Duration;

use criterion::measurement::WallTime;
use criterion::{BenchmarkGroup, Criterion, Throughput, criterion_group, criterion_main};

use benches::streams::{MIB, frames_of, random_game, stream_of, to_mib};

#[global_allocator]
static GLOBAL: boardwire_vectors::counting::Counting = boardwire_vectors::counting::Counting;

/// Allocations made by `f`.
fn allocations(f: impl FnOnce()) -> u64 {
    boardwire_vectors::counting::allocations_during(f).0
}

/// An encoder pass: writes every message into the buffer, returns its length.
type Encode<'a> = dyn Fn(&mut Vec<u8>) -> usize + 'a;

/// One codec's pair of benchmarks: `decode` passes over the whole stream
/// (framer + decoder, returning the messages decoded), `encode` writes all
/// of them into `out` (returning the bytes written). Both are
/// `Throughput::Bytes` of the stream; the allocations of one pass are
/// printed per message.
fn pair<'s>(
    g: &mut BenchmarkGroup<'_, WallTime>,
    name: &str,
    stream: &'s [u8],
    decode: impl Fn(&'s [u8]) -> usize,
    encode: Option<&Encode<'_>>,
) {
    let messages = decode(stream);
    assert!(messages > 0, "{name}: no message decoded");
    let a = allocations(|| {
        black_box(decode(black_box(stream)));
    });
    let mut out = Vec::with_capacity(2 * stream.len());
    let mut line = format!(
        "{name}: {} bytes, {messages} messages ({:.1} bytes each); allocations per message: decode {:.3}",
        stream.len(),
        stream.len() as f64 / messages as f64,
        a as f64 / messages as f64
    );
    if let Some(encode) = encode {
        out.clear();
        encode(&mut out);
        out.clear();
        let a = allocations(|| {
            black_box(encode(&mut out));
        });
        line += &format!(", encode {:.3}", a as f64 / messages as f64);
    }
    eprintln!("{line}");
    g.throughput(Throughput::Bytes(stream.len() as u64));
    g.bench_function(format!("{name} decode"), |b| {
        b.iter(|| decode(black_box(stream)))
    });
    if let Some(encode) = encode {
        g.bench_function(format!("{name} encode"), |b| {
            b.iter(|| {
                out.clear();
                encode(&mut out)
            })
        });
    }
}

/// [`pair`] for a framed protocol: the framer `F` and `decode` over the
/// stream (the messages that decode are counted), and `encode` writing each
/// of them.
fn framed<'s, F: boardwire_proto::Framer + Default, M, E>(
    g: &mut BenchmarkGroup<'_, WallTime>,
    name: &str,
    stream: &'s [u8],
    decode: impl Fn(&'s [u8]) -> Result<M, E>,
    encode: impl Fn(&M, &mut Vec<u8>),
) {
    let mut messages = Vec::new();
    frames_of(F::default(), stream, |f| messages.extend(decode(f).ok()));
    pair(
        g,
        name,
        stream,
        |s| {
            let mut ok = 0;
            frames_of(F::default(), s, |f| ok += usize::from(decode(f).is_ok()));
            ok
        },
        Some(&|out: &mut Vec<u8>| {
            for m in &messages {
                encode(m, out);
            }
            out.len()
        }),
    );
}

fn dxp(c: &mut Criterion) {
    use damexchange::{Message, decode};
    let stream = to_mib(&benches::streams::dxp_recorded());
    let mut g = c.benchmark_group("codec_streams");
    framed::<damexchange::framer::Framer, _, _>(
        &mut g,
        "DXP recorded match",
        &stream,
        decode::<Message>,
        Message::encode,
    );
    g.finish();
}

fn csa(c: &mut Criterion) {
    use csa_protocol::decode::decode;
    use csa_protocol::message::{ClientMessage, GameSummary, ServerMessage};
    let client = benches::streams::csa_side(" >> ");
    let server = benches::streams::csa_side(" << ");
    let mut g = c.benchmark_group("codec_streams");
    framed::<csa_protocol::framer::Framer, _, _>(
        &mut g,
        "CSA client lines",
        &client,
        decode::<ClientMessage>,
        ClientMessage::encode,
    );
    framed::<csa_protocol::framer::Framer, _, _>(
        &mut g,
        "CSA server lines",
        &server,
        decode::<ServerMessage>,
        ServerMessage::encode,
    );

    // Game_Summary: the transcript's block, as one unit.
    let summary = benches::streams::csa_summary_block();
    let parsed = GameSummary::parse(&summary).expect("the recorded summary parses");
    let copies = MIB / summary.len() + 1;
    let mut blocks = Vec::with_capacity(copies * summary.len());
    for _ in 0..copies {
        blocks.extend_from_slice(&summary);
    }
    let len = summary.len();
    pair(
        &mut g,
        "Game_Summary",
        &blocks,
        |s| {
            s.chunks(len)
                .filter(|b| GameSummary::parse(b).is_ok())
                .count()
        },
        Some(&|out: &mut Vec<u8>| {
            for _ in 0..copies {
                parsed.encode(out);
            }
            out.len()
        }),
    );

    // CSA kifu: the Floodgate record, parsed with its moves typed.
    let kifu = boardwire_vectors::data::KIFU_FLOODGATE_GPS;
    let copies = MIB / kifu.len() + 1;
    let mut many = Vec::with_capacity(copies * kifu.len());
    for _ in 0..copies {
        many.extend_from_slice(kifu);
    }
    let klen = kifu.len();
    pair(
        &mut g,
        "CSA kifu (Floodgate, 158 moves)",
        &many,
        |s| {
            s.chunks(klen)
                .map(|k| {
                    csa_protocol::kifu::parse_kifu(k)
                        .map(|r| r[0].iter_moves().count())
                        .unwrap_or(0)
                })
                .sum()
        },
        None,
    );
    g.finish();
}

fn citrine(c: &mut Criterion) {
    use novag_citrine::decode::{Leniency, decode, decode_with};
    use novag_citrine::message::{Command, Reply};
    let replies: Vec<Vec<u8>> = benches::streams::CITRINE_REPLY_LINES
        .iter()
        .map(|l| l.to_vec())
        .collect();
    let stream = stream_of(&replies, b"\r\n");
    let lenient = Leniency::DOCUMENT;
    let mut g = c.benchmark_group("codec_streams");
    framed::<novag_citrine::framer::Framer, _, _>(
        &mut g,
        "Citrine replies",
        &stream,
        |f| decode_with::<Reply>(f, &lenient),
        Reply::encode,
    );

    // A host's commands over a game (`X ON`, `N`, then moves of a real
    // opening line with a clock query after each).
    let stream = stream_of(&benches::streams::citrine_commands(), b"\r\n");
    framed::<novag_citrine::framer::Framer, _, _>(
        &mut g,
        "Citrine commands",
        &stream,
        decode::<Command>,
        Command::encode,
    );
    g.finish();
}

/// The lines of an engine's output or input as the family's framer cuts
/// them (LF, a CR before it dropped; 16 KiB, the engine process's cap),
/// each handed to `each`; the number of lines.
fn lines_of<'s>(stream: &'s [u8], each: impl FnMut(&'s [u8])) -> usize {
    type EngineLines = boardwire_proto::LineFramer<boardwire_proto::LfLines<{ 16 << 10 }>>;
    frames_of(EngineLines::default(), stream, each)
}

/// The GUI's side of a game as [`pair`] measures it: `encode_game` writes
/// the lines of one game; the stream is as many games as make 1 MiB, and
/// the encoder writes that many (the decode side only counts the lines: a
/// GUI never reads them).
fn gui_side(
    g: &mut BenchmarkGroup<'_, WallTime>,
    name: &str,
    encode_game: impl Fn(&mut Vec<u8>) -> usize,
) {
    let mut one = Vec::new();
    encode_game(&mut one);
    let games = MIB / one.len() + 1;
    let stream = one.repeat(games);
    let encode = |out: &mut Vec<u8>| {
        for _ in 0..games {
            encode_game(out);
        }
        out.len()
    };
    pair(g, name, &stream, |s| lines_of(s, |_| {}), Some(&encode));
}

fn engines(c: &mut Criterion) {
    use boardwire_engines::{hub, uci, usi};
    let mut g = c.benchmark_group("codec_streams");

    // Engine → GUI: decoders.
    let stream = stream_of(&benches::streams::stockfish_lines(), b"\n");
    pair(
        &mut g,
        "UCI engine output (Stockfish 15.1)",
        &stream,
        |s| {
            let mut ok = 0;
            lines_of(s, |l| ok += usize::from(uci::decode(l).is_ok()));
            ok
        },
        None,
    );
    let stream = stream_of(&benches::streams::hub_engine_lines(), b"\n");
    pair(
        &mut g,
        "Hub engine output (Scan 3.1)",
        &stream,
        |s| {
            let mut ok = 0;
            lines_of(s, |l| ok += usize::from(hub::decode(l).is_ok()));
            ok
        },
        None,
    );

    // GUI → engine: encoders, `position … moves …` and `go` at every ply of
    // a 100-ply game. The decode side counts the lines (a GUI never reads
    // these), so the figure of interest is the encode one.
    {
        use board_core::chess::Position;
        let start = Position::startpos();
        let game = random_game(
            &start,
            100,
            |p| p.legal_moves().to_vec(),
            |p, m| p.play_unchecked(m),
        );
        let encode = |out: &mut Vec<u8>| {
            for ply in 0..=game.len() {
                uci::Command::Position {
                    start: &start,
                    moves: &game[..ply],
                }
                .encode(out);
                uci::Command::GoMovetime(1000).encode(out);
            }
            out.len()
        };
        gui_side(&mut g, "UCI GUI commands (100-ply game)", encode);
    }
    {
        use board_core::shogi::Position;
        let start = Position::startpos();
        let game = random_game(
            &start,
            100,
            |p| p.legal_moves().to_vec(),
            |p, m| p.play_unchecked(m),
        );
        let go = usi::Go {
            btime: 600_000,
            wtime: 600_000,
            byoyomi: Some(10_000),
            ..usi::Go::default()
        };
        let encode = |out: &mut Vec<u8>| {
            for ply in 0..=game.len() {
                usi::Command::Position {
                    start: &start,
                    moves: &game[..ply],
                }
                .encode(out);
                usi::Command::Go(go).encode(out);
            }
            out.len()
        };
        gui_side(&mut g, "USI GUI commands (100-ply game)", encode);
    }
    {
        use board_core::draughts::Position;
        let start = Position::startpos();
        let game = random_game(
            &start,
            100,
            |p| p.legal_moves().to_vec(),
            |p, m| p.play_unchecked(m),
        );
        let encode = |out: &mut Vec<u8>| {
            for ply in 0..=game.len() {
                hub::Command::Pos {
                    start: &start,
                    moves: &game[..ply],
                }
                .encode(out);
                hub::Command::Level(hub::Level::Time {
                    moves: Some(40),
                    time: 120.0,
                    inc: Some(1.0),
                })
                .encode(out);
                hub::Command::GoThink.encode(out);
            }
            out.len()
        };
        gui_side(&mut g, "Hub GUI commands (100-ply game)", encode);
    }
    g.finish();
}

criterion_group! {
    name = benches;
    config = Criterion::default()
        .warm_up_time(Duration::from_millis(500))
        .measurement_time(Duration::from_secs(2))
        .sample_size(20);
    targets = dxp, csa, citrine, engines
}
criterion_main!(benches);
