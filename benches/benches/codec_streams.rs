//! Every codec of the family on a realistic stream, in bytes per second
//! (issue 28, item 4: the target is at least 1 GB/s each, with no
//! allocation per message): the framer and the decoder over a stream as it
//! arrives, and the encoder writing the same messages into one reused
//! buffer. Before timing, each stream's messages are counted and the
//! allocations of one decode pass and one encode pass are printed per
//! message (a counting global allocator).
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

#[global_allocator]
static GLOBAL: boardwire_vectors::counting::Counting = boardwire_vectors::counting::Counting;

/// Allocations made by `f`.
fn allocations(f: impl FnOnce()) -> u64 {
    boardwire_vectors::counting::allocations_during(f).0
}

const MIB: usize = 1 << 20;

/// `frames`, each followed by `end`, repeated to at least 1 MiB.
fn stream_of(frames: &[Vec<u8>], end: &[u8]) -> Vec<u8> {
    let mut one = Vec::new();
    for f in frames {
        one.extend_from_slice(f);
        one.extend_from_slice(end);
    }
    to_mib(&one)
}

/// `one` repeated to at least 1 MiB.
fn to_mib(one: &[u8]) -> Vec<u8> {
    one.repeat(MIB / one.len().max(1) + 1)
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

/// Frames the whole of `stream` with `framer` (as a reader holding all of
/// it would) and hands each frame to `each`; the number of frames.
fn frames_of<'s, F: boardwire_proto::Framer>(
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

/// [`pair`] for a framed protocol: the framer `F` and `decode` over the
/// stream (the messages that decode are counted), and `encode` writing each
/// of them.
fn framed<'s, F: boardwire_proto::Framer + Default, M>(
    g: &mut BenchmarkGroup<'_, WallTime>,
    name: &str,
    stream: &'s [u8],
    decode: impl Fn(&'s [u8]) -> Option<M>,
    encode: impl Fn(&M, &mut Vec<u8>),
) {
    let mut messages = Vec::new();
    frames_of(F::default(), stream, |f| messages.extend(decode(f)));
    pair(
        g,
        name,
        stream,
        |s| {
            let mut ok = 0;
            frames_of(F::default(), s, |f| ok += usize::from(decode(f).is_some()));
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

/// The payloads of a recorded transcript's lines `[time] who DIR payload`
/// in direction `dir` (` >> ` / ` << `).
fn transcript_side(text: &str, dir: &str) -> Vec<Vec<u8>> {
    text.lines()
        .filter(|l| l.starts_with('['))
        .filter_map(|l| l.find(dir).map(|i| l.as_bytes()[i + dir.len()..].to_vec()))
        .filter(|p| !p.starts_with(b"<EOF"))
        .collect()
}

fn dxp(c: &mut Criterion) {
    use damexchange::{Message, decode};
    let stream = to_mib(&benches::streams::dxp_recorded());
    let mut g = c.benchmark_group("codec_streams");
    framed::<damexchange::framer::Framer, _>(
        &mut g,
        "DXP recorded match",
        &stream,
        |f| decode::<Message>(f).ok(),
        Message::encode,
    );
    g.finish();
}

fn csa(c: &mut Criterion) {
    use csa_protocol::decode::decode;
    use csa_protocol::message::{ClientMessage, GameSummary, ServerMessage};
    let text = boardwire_vectors::data::CSA_SHOGI_SERVER;
    let client = stream_of(&transcript_side(text, " >> "), b"\n");
    let server = stream_of(&transcript_side(text, " << "), b"\n");
    let mut g = c.benchmark_group("codec_streams");
    framed::<csa_protocol::framer::Framer, _>(
        &mut g,
        "CSA client lines",
        &client,
        |f| decode::<ClientMessage>(f).ok(),
        ClientMessage::encode,
    );
    framed::<csa_protocol::framer::Framer, _>(
        &mut g,
        "CSA server lines",
        &server,
        |f| decode::<ServerMessage>(f).ok(),
        ServerMessage::encode,
    );

    // Game_Summary: the transcript's block, as one unit.
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
    framed::<novag_citrine::framer::Framer, _>(
        &mut g,
        "Citrine replies",
        &stream,
        |f| decode_with::<Reply>(f, &lenient).ok(),
        Reply::encode,
    );

    // A host's commands over a game: the moves of a real opening line
    // (the Ruy Lopez, Morphy Defence, main line) with a clock query after
    // each, after `X ON` and `N`.
    let moves = [
        "e2e4", "e7e5", "g1f3", "b8c6", "f1b5", "a7a6", "b5a4", "g8f6", "e1g1", "f8e7", "f1e1",
        "b7b5", "a4b3", "d7d6", "c2c3", "e8g8", "h2h3", "c6a5", "b3c2", "c7c5", "d2d4", "d8c7",
    ];
    let mut commands: Vec<Vec<u8>> = vec![b"X ON".to_vec(), b"N".to_vec()];
    for m in moves {
        commands.push(format!("M {m}").into_bytes());
        commands.push(b"C".to_vec());
    }
    let stream = stream_of(&commands, b"\r\n");
    framed::<novag_citrine::framer::Framer, _>(
        &mut g,
        "Citrine commands",
        &stream,
        |f| decode::<Command>(f).ok(),
        Command::encode,
    );
    g.finish();
}

/// LF-ended lines of `stream` (a CR before the LF dropped), each handed to
/// `each`; the number of lines.
fn lines_of(stream: &[u8], mut each: impl FnMut(&[u8])) -> usize {
    let mut n = 0;
    for line in stream.split(|&b| b == b'\n') {
        if line.is_empty() {
            continue;
        }
        each(line.strip_suffix(b"\r").unwrap_or(line));
        n += 1;
    }
    n
}

/// `count` plies of random legal play (xorshift, fixed seed) by `moves_of`
/// from `start` with `play`.
fn random_game<P: Clone, M: Copy>(
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
    let sf: Vec<Vec<u8>> = include_str!("../data/stockfish-15.1-depth-14.txt")
        .lines()
        .map(|l| l.as_bytes().to_vec())
        .collect();
    let stream = stream_of(&sf, b"\n");
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
    let hub_lines: Vec<Vec<u8>> = boardwire_vectors::data::HUB_SCAN31
        .lines()
        .filter_map(|l| l.strip_prefix("< "))
        .map(|l| l.as_bytes().to_vec())
        .collect();
    let stream = stream_of(&hub_lines, b"\n");
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
