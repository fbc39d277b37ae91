//! The `pext` slider tables (the crate's only `unsafe` code) against the
//! portable magic tables and plain ray walking, for fuzzed occupancies on
//! every square. Run it with BMI2 enabled so that the `pext` path is
//! built (`RUSTFLAGS="-C target-feature=+bmi2"`); on a plain build it
//! still runs through the run-time dispatch when the CPU has BMI2.
#![no_main]

use board_core::chess::{Bitboard, Square, attacks};

libfuzzer_sys::fuzz_target!(|data: &[u8]| {
    for chunk in data.chunks_exact(8) {
        let occupied = Bitboard(u64::from_le_bytes(chunk.try_into().unwrap()));
        for index in 0..64u32 {
            let sq = Square::new(index).unwrap();
            let [reference, magic, pext] = attacks::slider_lookups(sq, occupied);
            let reference = reference.unwrap();
            assert_eq!(magic.unwrap(), reference, "magic, {sq}, {occupied:?}");
            if let Some(pext) = pext {
                assert_eq!(pext, reference, "pext, {sq}, {occupied:?}");
            }
            // The public lookups agree too (pext or magic, per the build).
            assert_eq!(attacks::rook_attacks(sq, occupied), reference[0]);
            assert_eq!(attacks::bishop_attacks(sq, occupied), reference[1]);
        }
    }
});
