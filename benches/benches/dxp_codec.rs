//! DamExchange codec throughput: decode and encode per message type, a
//! realistic MOVE mix (target: at least 50 M MOVE messages/s decoded and
//! validated), and the framer over a long captured stream.
//!
//! The MOVE mix is the moves of random legal games (board-core draughts),
//! encoded as MOVE messages: mostly quiet moves (11 bytes), captures of 1..n
//! pieces in the proportions random play produces.

use std::hint::black_box;
use std::time::Duration;

use board_core::draughts::Position;
use criterion::measurement::{Measurement, ValueFormatter};
use criterion::{Criterion, Throughput, criterion_group, criterion_main};
use damexchange::convert::move_to_wire;
use damexchange::framer::{Framer, Status};
use damexchange::{Message, decode};

/// MOVE frames from random games (xorshift, fixed seed).
fn move_mix(count: usize) -> Vec<Vec<u8>> {
    let mut rng = 0x2545_F491_4F6C_DD1Du64;
    let mut next = move || {
        rng ^= rng >> 12;
        rng ^= rng << 25;
        rng ^= rng >> 27;
        rng.wrapping_mul(0x2545_F491_4F6C_DD1D)
    };
    let mut out = Vec::with_capacity(count);
    while out.len() < count {
        let mut pos = Position::startpos();
        for _ in 0..200 {
            let moves = pos.legal_moves();
            if moves.is_empty() || out.len() == count {
                break;
            }
            let mv = moves[(next() % moves.len() as u64) as usize];
            let time = (next() % 120) as u16;
            out.push(
                Message::Move(move_to_wire(mv, time))
                    .encoded()
                    .as_bytes()
                    .to_vec(),
            );
            pos.play_unchecked(mv);
        }
    }
    out
}

fn per_type(c: &mut Criterion<ThreadCpuTime>) {
    let samples: [(&str, &[u8]); 10] = [
        ("GAMEREQ A", b"R01Tornado voor Windows 4.0        W060065A"),
        (
            "GAMEREQ B",
            b"R01DXP Client                      Z005000BWzzzzzzzzzzzzzzzzzzzzeeeeeeeeeewwwwwwwwwwwwwwwwwwww",
        ),
        ("GAMEACC", b"ATornado voor Windows 4.0        0"),
        ("MOVE quiet", b"M0012061100"),
        ("MOVE 4 captures", b"M001205250422122320"),
        ("GAMEEND", b"E00"),
        ("CHAT", b"CWhat do you think about move 35?"),
        ("BACKREQ", b"B005Z"),
        ("BACKACC", b"K1"),
        ("MOVE 20 captures", b"M99995050202122232425262728293031323334353637383940"),
    ];
    let mut g = c.benchmark_group("dxp_decode");
    for (name, bytes) in samples {
        g.throughput(Throughput::Bytes(bytes.len() as u64));
        g.bench_function(name, |b| {
            b.iter(|| decode::<Message>(black_box(bytes)).is_ok())
        });
    }
    g.finish();
    let mut g = c.benchmark_group("dxp_encode");
    for (name, bytes) in samples {
        let msg: Message = decode(bytes).unwrap();
        g.throughput(Throughput::Bytes(bytes.len() as u64));
        g.bench_function(name, |b| {
            b.iter(|| black_box(&msg).encoded().as_bytes().len())
        });
    }
    g.finish();
}

fn move_mix_bench(c: &mut Criterion<ThreadCpuTime>) {
    let frames = move_mix(10_000);
    let bytes: usize = frames.iter().map(Vec::len).sum();
    let captures = frames.iter().filter(|f| &f[9..11] != b"00").count();
    eprintln!(
        "MOVE mix: {} messages, {:.1} bytes each, {:.1}% captures",
        frames.len(),
        bytes as f64 / frames.len() as f64,
        100.0 * captures as f64 / frames.len() as f64
    );
    let mut g = c.benchmark_group("dxp_move_mix");
    g.throughput(Throughput::Elements(frames.len() as u64));
    g.bench_function("decode 10k MOVE (messages/s)", |b| {
        b.iter(|| {
            let mut ok = 0usize;
            for f in &frames {
                ok += usize::from(decode::<Message>(black_box(f)).is_ok());
            }
            ok
        })
    });
    g.throughput(Throughput::Bytes(bytes as u64));
    g.bench_function("decode 10k MOVE (bytes/s)", |b| {
        b.iter(|| {
            let mut ok = 0usize;
            for f in &frames {
                ok += usize::from(decode::<Message>(black_box(f)).is_ok());
            }
            ok
        })
    });
    let msgs: Vec<Message<'_>> = frames.iter().map(|f| decode(f).unwrap()).collect();
    g.throughput(Throughput::Elements(msgs.len() as u64));
    g.bench_function("encode 10k MOVE (messages/s)", |b| {
        b.iter(|| {
            let mut n = 0usize;
            for m in &msgs {
                n += black_box(m).encoded().as_bytes().len();
            }
            n
        })
    });
    // The same moves as one NUL-separated stream through the framer.
    let mut stream = Vec::with_capacity(bytes + frames.len());
    for f in &frames {
        stream.extend_from_slice(f);
        stream.push(0);
    }
    g.throughput(Throughput::Elements(frames.len() as u64));
    g.bench_function(
        "framer+decode 10k MOVE stream, 1460-byte reads (messages/s)",
        |b| b.iter(|| framer_pass(&stream, 1460)),
    );
    g.finish();
}

/// The stream in `read`-byte reads through a caller-owned buffer, as a
/// socket reader would hold it: frame, decode, drop what was consumed.
fn framer_pass(stream: &[u8], read: usize) -> usize {
    let mut framer = Framer::default();
    let mut buf: Vec<u8> = Vec::with_capacity(read + 128);
    let mut ok = 0usize;
    for chunk in stream.chunks(read) {
        buf.extend_from_slice(chunk);
        let mut start = 0;
        loop {
            let consumed = match framer.decode(&buf[start..]) {
                Status::Complete { frame, consumed } => {
                    ok += usize::from(decode::<Message>(frame).is_ok());
                    consumed
                }
                Status::Partial { consumed } | Status::Overlong { consumed, .. } => consumed,
            };
            start += consumed;
            if consumed == 0 {
                break;
            }
        }
        buf.drain(..start);
    }
    ok
}

fn captured_stream(c: &mut Criterion<ThreadCpuTime>) {
    // The recorded conversations (all message types, a few malformed
    // frames) repeated to about 1 MB.
    let one = benches::streams::dxp_recorded();
    let mut stream = Vec::new();
    while stream.len() < 1 << 20 {
        stream.extend_from_slice(&one);
    }
    let mut g = c.benchmark_group("dxp_framer");
    g.throughput(Throughput::Bytes(stream.len() as u64));
    for read in [64usize, 1460, 65536] {
        g.bench_function(format!("recorded stream 1 MB, {read}-byte reads"), |b| {
            b.iter(|| framer_pass(black_box(&stream), read))
        });
    }
    g.finish();
}

/// CPU time of the benchmark thread (`clock_gettime(CLOCK_THREAD_CPUTIME_ID)`,
/// nanoseconds). The machine these numbers come from is shared with other
/// jobs: wall time then measures the load, CPU time measures the code.
/// Unix only.
struct ThreadCpuTime;

fn thread_cpu_ns() -> u64 {
    let mut ts = libc::timespec {
        tv_sec: 0,
        tv_nsec: 0,
    };
    // SAFETY: `ts` is a valid, writable timespec; the clock id is a constant
    // the C library defines.
    let rc = unsafe { libc::clock_gettime(libc::CLOCK_THREAD_CPUTIME_ID, &mut ts) };
    if rc != 0 {
        return 0;
    }
    ts.tv_sec as u64 * 1_000_000_000 + ts.tv_nsec as u64
}

impl Measurement for ThreadCpuTime {
    type Intermediate = u64;
    type Value = u64;
    fn start(&self) -> u64 {
        thread_cpu_ns()
    }
    fn end(&self, start: u64) -> u64 {
        thread_cpu_ns().saturating_sub(start)
    }
    fn add(&self, a: &u64, b: &u64) -> u64 {
        a + b
    }
    fn zero(&self) -> u64 {
        0
    }
    fn to_f64(&self, v: &u64) -> f64 {
        *v as f64
    }
    fn formatter(&self) -> &dyn ValueFormatter {
        &CpuFormatter
    }
}

struct CpuFormatter;

impl ValueFormatter for CpuFormatter {
    fn scale_values(&self, typical_ns: f64, values: &mut [f64]) -> &'static str {
        let (factor, unit) = if typical_ns < 1e3 {
            (1.0, "ns cpu")
        } else if typical_ns < 1e6 {
            (1e-3, "µs cpu")
        } else {
            (1e-6, "ms cpu")
        };
        values.iter_mut().for_each(|v| *v *= factor);
        unit
    }
    fn scale_throughputs(
        &self,
        _typical: f64,
        throughput: &Throughput,
        values: &mut [f64],
    ) -> &'static str {
        // values are ns per iteration -> per second of CPU.
        match *throughput {
            Throughput::Bytes(b) | Throughput::BytesDecimal(b) => {
                values
                    .iter_mut()
                    .for_each(|v| *v = b as f64 * 1e9 / *v / 1e6);
                "MB/s cpu"
            }
            Throughput::Elements(e) => {
                values
                    .iter_mut()
                    .for_each(|v| *v = e as f64 * 1e9 / *v / 1e6);
                "M elem/s cpu"
            }
            _ => "",
        }
    }
    fn scale_for_machines(&self, _values: &mut [f64]) -> &'static str {
        "ns"
    }
}

fn config() -> Criterion<ThreadCpuTime> {
    // The machine is shared: short, repeated measurements of CPU time.
    Criterion::default()
        .with_measurement(ThreadCpuTime)
        .measurement_time(Duration::from_secs(2))
        .warm_up_time(Duration::from_millis(500))
        .sample_size(30)
}

fn wall_config() -> Criterion {
    Criterion::default()
        .measurement_time(Duration::from_secs(2))
        .warm_up_time(Duration::from_millis(500))
        .sample_size(30)
}

/// The MOVE mix once more in wall time, to compare with the CPU-time figures.
fn move_mix_wall(c: &mut Criterion) {
    let frames = move_mix(10_000);
    let mut g = c.benchmark_group("dxp_move_mix_wall");
    g.throughput(Throughput::Elements(frames.len() as u64));
    g.bench_function("decode 10k MOVE (messages/s, wall time)", |b| {
        b.iter(|| {
            frames
                .iter()
                .filter(|f| decode::<Message>(black_box(f)).is_ok())
                .count()
        })
    });
    g.finish();
}

criterion_group! {
    name = benches;
    config = config();
    targets = per_type, move_mix_bench, captured_stream
}
criterion_group! {
    name = wall;
    config = wall_config();
    targets = move_mix_wall
}
criterion_main!(benches, wall);
