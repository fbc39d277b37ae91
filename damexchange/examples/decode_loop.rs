//! Decodes a fixed MOVE mix in a loop: for instruction counts under
//! `valgrind --tool=callgrind` (load-independent, unlike wall time).
//!
//! `cargo run --release -p damexchange --example decode_loop -- ROUNDS`
fn main() {
    let frames: [&[u8]; 8] = [
        b"M0012061100",
        b"M0000322800",
        b"M0003172200",
        b"M000028170122",
        b"M0000114203172737",
        b"M0001343000",
        b"M001205250422122320",
        b"M0000192400",
    ];
    let rounds: usize = std::env::args()
        .nth(1)
        .and_then(|a| a.parse().ok())
        .unwrap_or(1_000_000);
    let mut ok = 0usize;
    for _ in 0..rounds {
        for f in frames {
            ok += usize::from(damexchange::decode(std::hint::black_box(f)).is_ok());
        }
    }
    println!("{ok} MOVE messages decoded");
}
