//! CSA protocol codec throughput: client and server line decoding over the
//! recorded shogi-server transcript, `Game_Summary` parse and build, and CSA
//! kifu parsing side by side with the `csa` crate (crates.io, MIT; target:
//! ours at least 3x faster) on a real Floodgate record.

use std::hint::black_box;
use std::time::Duration;

use criterion::{Criterion, Throughput, criterion_group, criterion_main};
use csa_protocol::decode::decode;
use csa_protocol::kifu::parse_kifu;
use csa_protocol::message::{ClientMessage, GameSummary, ServerMessage};

const TRANSCRIPT: &str = boardwire_vectors::data::CSA_SHOGI_SERVER;
const KIFU_BYTES: &[u8] = boardwire_vectors::data::KIFU_FLOODGATE_GPS;

fn kifu_text() -> &'static str {
    std::str::from_utf8(KIFU_BYTES).expect("the Floodgate record is ASCII")
}

/// `(client lines, server lines)` of the transcript (shortened long lines as
/// they are in the file).
fn lines() -> (Vec<Vec<u8>>, Vec<Vec<u8>>) {
    let (mut c, mut s) = (Vec::new(), Vec::new());
    for l in TRANSCRIPT.lines().filter(|l| l.starts_with('[')) {
        if let Some(i) = l.find(" >> ") {
            c.push(l.as_bytes()[i + 4..].to_vec());
        } else if let Some(i) = l.find(" << ")
            && !l[i + 4..].starts_with("<EOF")
        {
            s.push(l.as_bytes()[i + 4..].to_vec());
        }
    }
    (c, s)
}

fn summary_text() -> String {
    let start = TRANSCRIPT.find("alice  << BEGIN Game_Summary").unwrap();
    let mut out = String::new();
    for l in TRANSCRIPT[start..].lines() {
        let (_, line) = l.split_once(" << ").unwrap();
        out.push_str(line);
        out.push('\n');
        if line == "END Game_Summary" {
            break;
        }
    }
    out
}

fn bench(c: &mut Criterion) {
    let (client, server) = lines();
    let mut g = c.benchmark_group("csa_lines");
    g.throughput(Throughput::Elements(client.len() as u64));
    g.bench_function("decode_client_transcript", |b| {
        b.iter(|| {
            for l in &client {
                let _ = black_box(decode::<ClientMessage>(black_box(l)));
            }
        })
    });
    g.throughput(Throughput::Elements(server.len() as u64));
    g.bench_function("decode_server_transcript", |b| {
        b.iter(|| {
            for l in &server {
                let _ = black_box(decode::<ServerMessage>(black_box(l)));
            }
        })
    });
    g.throughput(Throughput::Elements(1));
    g.bench_function("decode_move_confirmation", |b| {
        b.iter(|| black_box(decode::<ServerMessage>(black_box(b"+7776FU,T12"))))
    });
    g.finish();

    let text = summary_text();
    let summary = GameSummary::parse(text.as_bytes()).unwrap();
    let mut g = c.benchmark_group("game_summary");
    g.bench_function("parse", |b| {
        b.iter(|| black_box(GameSummary::parse(black_box(text.as_bytes())).unwrap()))
    });
    g.bench_function("build", |b| {
        let mut out = Vec::with_capacity(1024);
        b.iter(|| {
            out.clear();
            black_box(&summary).encode(&mut out);
            black_box(out.len())
        })
    });
    g.finish();

    let kifu = kifu_text();
    // Both parsers must accept the record (checked once, outside timing).
    let theirs = csa::parse_csa(kifu).expect("the csa crate parses the Floodgate record");
    let ours = parse_kifu(kifu.as_bytes()).unwrap();
    assert_eq!(
        theirs.moves.len(),
        ours[0].moves().len() + 1,
        "158 moves + %TORYO"
    );
    let mut g = c.benchmark_group("kifu_parse_floodgate_158_moves");
    g.throughput(Throughput::Bytes(kifu.len() as u64));
    g.bench_function("csa-protocol (items)", |b| {
        b.iter(|| black_box(parse_kifu(black_box(kifu.as_bytes())).unwrap()))
    });
    g.bench_function("csa-protocol (items + typed moves)", |b| {
        b.iter(|| {
            let r = parse_kifu(black_box(kifu.as_bytes())).unwrap();
            black_box(r[0].moves().len())
        })
    });
    g.bench_function("csa crate 1.0.2", |b| {
        b.iter(|| black_box(csa::parse_csa(black_box(kifu)).unwrap()))
    });
    g.finish();
}

criterion_group! {
    name = benches;
    config = Criterion::default().warm_up_time(Duration::from_millis(500)).measurement_time(Duration::from_secs(2));
    targets = bench
}
criterion_main!(benches);
