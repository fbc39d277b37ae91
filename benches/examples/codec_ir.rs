//! One pass of one codec over the stream `codec_streams` measures, for
//! instruction counts (the machine is shared, so wall clock cannot decide
//! between two versions of a codec; callgrind can):
//!
//! ```text
//! cargo build --release -p benches --example codec_ir
//! valgrind --tool=callgrind --toggle-collect='codec_ir::pass' \
//!     target/release/examples/codec_ir csas-dec 1
//! ```
//!
//! `codec_ir JOB [REPS]` prints `JOB bytes messages allocations`: the
//! stream's length, the messages decoded (or encoded) in one pass and the
//! allocations of one pass (a counting global allocator); instructions per
//! byte are callgrind's total inside `pass` over `REPS × bytes`. `JOB` is
//! a stream and a direction: `dxp`, `csac` (CSA client lines), `csas`
//! (server lines), `gs` (`Game_Summary`), `kifu` (decode only), `citr`
//! (Citrine replies), `citc` (commands), `uci` / `hub` (engine output,
//! decode only), `ucig` / `usig` / `hubg` (the GUI's commands, encode only),
//! then `-dec` or `-enc`; `uci-lines` and `hub-lines` decode lines split
//! beforehand (the decoder alone), `csas-frame` the framer alone.

use std::hint::black_box;

use benches::streams::{self, MIB, frames_of, random_game, stream_of, to_mib};

#[global_allocator]
static GLOBAL: boardwire_vectors::counting::Counting = boardwire_vectors::counting::Counting;

/// A pass: what is measured.
type Pass<'a> = Box<dyn FnMut() -> usize + 'a>;
/// Writes one game's GUI commands into the buffer.
type GameWriter = Box<dyn Fn(&mut Vec<u8>)>;

/// The engine lines' framer (LF, a CR before it dropped; 16 KiB as the
/// engine process reader).
type EngineLines = boardwire_proto::LineFramer<boardwire_proto::LfLines<{ 16 << 10 }>>;

/// The pass of `f`, not inlined so that callgrind can count it alone.
#[inline(never)]
fn pass(f: &mut Pass<'_>) -> usize {
    f()
}

fn main() {
    let args: Vec<String> = std::env::args().collect();
    let job = args.get(1).map_or("dxp-dec", String::as_str);
    let reps: usize = args.get(2).and_then(|r| r.parse().ok()).unwrap_or(1);
    let mut out: Vec<u8> = Vec::with_capacity(4 * MIB);
    let (bytes, mut f): (usize, Pass<'_>) = run(job, &mut out);
    let mut n = 0;
    let a = boardwire_vectors::counting::allocations_during(|| {
        for _ in 0..reps {
            n = black_box(pass(&mut f));
        }
    })
    .0;
    println!("{job} {bytes} {n} {a}");
}

/// Leaks `v` (the driver runs one job, then exits).
fn leak<T>(v: T) -> &'static T {
    Box::leak(Box::new(v))
}

/// The stream of `job` and its pass.
fn run<'o>(job: &str, out: &'o mut Vec<u8>) -> (usize, Pass<'o>) {
    use csa_protocol::message::{ClientMessage, GameSummary, ServerMessage};
    use novag_citrine::decode::Leniency;
    use novag_citrine::message::{Command, Reply};
    if job.ends_with("-lines") {
        return split_lines(job);
    }
    let (name, dir) = job.rsplit_once('-').unwrap_or((job, "dec"));
    macro_rules! framed {
        ($stream:expr, $framer:ty, $decode:expr, $encode:expr) => {{
            let stream: &'static [u8] = leak($stream);
            let decode = $decode;
            let len = stream.len();
            if dir == "dec" {
                (
                    len,
                    Box::new(move || {
                        let mut ok = 0;
                        frames_of(<$framer>::default(), stream, |f| {
                            ok += usize::from(decode(f).is_ok())
                        });
                        ok
                    }) as Pass<'o>,
                )
            } else if dir == "frame" {
                (
                    len,
                    Box::new(move || {
                        frames_of(<$framer>::default(), stream, |f| {
                            black_box(f);
                        })
                    }) as Pass<'o>,
                )
            } else {
                let mut messages = Vec::new();
                frames_of(<$framer>::default(), stream, |f| {
                    messages.extend(decode(f).ok())
                });
                let messages = leak(messages);
                (
                    len,
                    Box::new(move || {
                        out.clear();
                        for m in messages.iter() {
                            $encode(m, &mut *out);
                        }
                        out.len()
                    }) as Pass<'o>,
                )
            }
        }};
    }
    match name {
        "dxp" => framed!(
            to_mib(&streams::dxp_recorded()),
            damexchange::framer::Framer,
            |f| damexchange::decode::<damexchange::Message>(f),
            damexchange::Message::encode
        ),
        "csac" => framed!(
            streams::csa_side(" >> "),
            csa_protocol::framer::Framer,
            |f| csa_protocol::decode::decode::<ClientMessage>(f),
            ClientMessage::encode
        ),
        "csas" => framed!(
            streams::csa_side(" << "),
            csa_protocol::framer::Framer,
            |f| csa_protocol::decode::decode::<ServerMessage>(f),
            ServerMessage::encode
        ),
        "citr" => {
            let lines: Vec<Vec<u8>> = streams::CITRINE_REPLY_LINES
                .iter()
                .map(|l| l.to_vec())
                .collect();
            framed!(
                stream_of(&lines, b"\r\n"),
                novag_citrine::framer::Framer,
                |f| novag_citrine::decode::decode_with::<Reply>(f, &Leniency::DOCUMENT),
                Reply::encode
            )
        }
        "citc" => framed!(
            stream_of(&streams::citrine_commands(), b"\r\n"),
            novag_citrine::framer::Framer,
            |f| novag_citrine::decode::decode::<Command>(f),
            Command::encode
        ),
        "uci" => framed!(
            stream_of(&streams::stockfish_lines(), b"\n"),
            EngineLines,
            |f| boardwire_engines::uci::decode(f),
            |_: &_, _: &mut Vec<u8>| {}
        ),
        "hub" => framed!(
            stream_of(&streams::hub_engine_lines(), b"\n"),
            EngineLines,
            |f| boardwire_engines::hub::decode(f),
            |_: &_, _: &mut Vec<u8>| {}
        ),
        "gs" => {
            let summary = streams::csa_summary_block();
            let parsed = leak(GameSummary::parse(&summary).expect("the recorded summary parses"));
            let copies = MIB / summary.len() + 1;
            let blocks: &'static [u8] = leak(summary.repeat(copies));
            let len = summary.len();
            if dir == "dec" {
                (
                    blocks.len(),
                    Box::new(move || {
                        blocks
                            .chunks(len)
                            .filter(|b| GameSummary::parse(b).is_ok())
                            .count()
                    }),
                )
            } else {
                (
                    blocks.len(),
                    Box::new(move || {
                        out.clear();
                        for _ in 0..copies {
                            parsed.encode(out);
                        }
                        out.len()
                    }),
                )
            }
        }
        "kifu" => {
            let kifu = boardwire_vectors::data::KIFU_FLOODGATE_GPS;
            let copies = MIB / kifu.len() + 1;
            let many: &'static [u8] = leak(kifu.repeat(copies));
            (
                many.len(),
                Box::new(move || {
                    many.chunks(kifu.len())
                        .map(|k| {
                            csa_protocol::kifu::parse_kifu(k)
                                .map(|r| r[0].iter_moves().count())
                                .unwrap_or(0)
                        })
                        .sum()
                }),
            )
        }
        "ucig" | "usig" | "hubg" => gui(name, out),
        _ => panic!("unknown job {job}"),
    }
}

/// The decoder alone, over lines split beforehand.
fn split_lines<'o>(job: &str) -> (usize, Pass<'o>) {
    let uci = job == "uci-lines";
    let lines = match job {
        "uci-lines" => streams::stockfish_lines(),
        "hub-lines" => streams::hub_engine_lines(),
        _ => panic!("unknown job {job}"),
    };
    let copies = MIB / lines.iter().map(|l| l.len() + 1).sum::<usize>() + 1;
    let all: &'static Vec<Vec<u8>> =
        leak((0..copies).flat_map(|_| lines.iter().cloned()).collect());
    let bytes = all.iter().map(|l| l.len() + 1).sum();
    (
        bytes,
        Box::new(move || {
            all.iter()
                .filter(|l| {
                    if uci {
                        boardwire_engines::uci::decode(l).is_ok()
                    } else {
                        boardwire_engines::hub::decode(l).is_ok()
                    }
                })
                .count()
        }),
    )
}

/// The GUI's commands at every ply of a 100-ply game, as many games as
/// make 1 MiB (what `codec_streams` encodes).
fn gui<'o>(name: &str, out: &'o mut Vec<u8>) -> (usize, Pass<'o>) {
    use boardwire_engines::{hub, uci, usi};
    let game: GameWriter = match name {
        "ucig" => {
            use board_core::chess::Position;
            let start = leak(Position::startpos());
            let moves = leak(random_game(
                start,
                100,
                |p| p.legal_moves().to_vec(),
                |p, m| p.play_unchecked(m),
            ));
            Box::new(move |out| {
                for ply in 0..=moves.len() {
                    uci::Command::Position {
                        start,
                        moves: &moves[..ply],
                    }
                    .encode(out);
                    uci::Command::GoMovetime(1000).encode(out);
                }
            })
        }
        "usig" => {
            use board_core::shogi::Position;
            let start = leak(Position::startpos());
            let moves = leak(random_game(
                start,
                100,
                |p| p.legal_moves().to_vec(),
                |p, m| p.play_unchecked(m),
            ));
            let go = usi::Go {
                btime: 600_000,
                wtime: 600_000,
                byoyomi: Some(10_000),
                ..usi::Go::default()
            };
            Box::new(move |out| {
                for ply in 0..=moves.len() {
                    usi::Command::Position {
                        start,
                        moves: &moves[..ply],
                    }
                    .encode(out);
                    usi::Command::Go(go).encode(out);
                }
            })
        }
        _ => {
            use board_core::draughts::Position;
            let start = leak(Position::startpos());
            let moves = leak(random_game(
                start,
                100,
                |p| p.legal_moves().to_vec(),
                |p, m| p.play_unchecked(m),
            ));
            Box::new(move |out| {
                for ply in 0..=moves.len() {
                    hub::Command::Pos {
                        start,
                        moves: &moves[..ply],
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
            })
        }
    };
    let mut one = Vec::new();
    game(&mut one);
    let games = MIB / one.len() + 1;
    (
        one.len() * games,
        Box::new(move || {
            out.clear();
            for _ in 0..games {
                game(out);
            }
            out.len()
        }),
    )
}
