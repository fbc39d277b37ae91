//! Attack tables, all computed at compile time by `const fn` (no build
//! script, no heap; the one `unsafe` instruction, `pext`, lives in the
//! crate's `simd` module).
//!
//! Sliding pieces use "fancy" magic bitboards: for each square, the
//! relevant occupancy (`occupied & mask`) is multiplied by a magic number
//! and shifted to index a shared table. The magic numbers below were found
//! by this crate's own search (xorshift64 seeded with
//! `0x9E37_79B9_7F4A_7C15`, sparse candidates `r & r & r`, squares in
//! order, rooks first; the unit test `magic_numbers_reproduce` re-runs it
//! and compares); the `const` table builder panics — a compile
//! error — if any magic maps two occupancies with different attack sets to
//! one slot, so a wrong constant cannot build.
//!
//! On x86-64 with BMI2 a second layout of the same table is indexed by
//! `pext` instead (slot = `pext(occupied, mask)`: one instruction, no
//! multiply). A build that targets BMI2 (`-C target-cpu=native` on a
//! recent x86-64, or `-C target-feature=+bmi2`) has only that layout. With
//! the `std` feature on x86-64 both are built and the CPU is asked once at
//! run time: move generation and `perft` then run on the `pext` layout in
//! code compiled for BMI1, BMI2 and POPCNT when the CPU has them (so a
//! plain `cargo build` gets the fast path), else on the magic layout.
//! `pext` is picked whenever BMI2 is present, also on AMD Zen 1 and Zen 2,
//! where it is microcoded and slow (the magic path would be faster there;
//! the CPU model is not checked). Without `std` only the compile-time
//! choice is made. The public [`rook_attacks`] and [`bishop_attacks`] use
//! the magic layout unless the build targets BMI2.
//!
//! Table sizes: 102 400 rook + 5 248 bishop entries, padded to 131 072
//! (8 bytes each: 1 MiB per layout, 2 MiB when both are built), plus 64x64
//! `between` and `line` tables (32 KiB each).

use super::bitboard::Bitboard;
use super::types::{Color, Square};

pub(crate) const ROOK_DIRS: [(i32, i32); 4] = [(1, 0), (-1, 0), (0, 1), (0, -1)];
pub(crate) const BISHOP_DIRS: [(i32, i32); 4] = [(1, 1), (1, -1), (-1, 1), (-1, -1)];

/// Magic multipliers for rooks, by square index (see the module docs).
pub(crate) const ROOK_MAGIC_NUMBERS: [u64; 64] = [
    0x2080_0020_8040_0010,
    0x00C0_0020_0140_1000,
    0x2100_1100_0840_2002,
    0x0880_0800_8104_1000,
    0x0200_0200_2004_1008,
    0x2300_0400_0801_0012,
    0x0C00_2830_0400_8201,
    0x0180_0100_0040_7A80,
    0x0168_8000_8040_0020,
    0x0010_4000_4020_1000,
    0x1001_0020_0100_1048,
    0x1001_0024_0810_0100,
    0x0801_0004_0801_0012,
    0x4001_0002_0900_0400,
    0x08A2_0004_C802_0001,
    0x2002_8011_4500_2280,
    0x0080_8600_2100_4200,
    0x0010_00C0_0940_2002,
    0x00B0_0020_0400_2800,
    0x100A_8080_1002_0800,
    0x8101_0100_0800_0410,
    0x0244_0080_0200_0480,
    0x0000_0400_1081_0208,
    0x2000_0200_0044_8534,
    0x4104_4004_8000_8033,
    0x0000_8101_0020_4000,
    0x0440_4309_0020_0010,
    0x4600_2409_0010_0100,
    0x0060_0800_8004_0080,
    0x0001_0003_0008_0400,
    0x0004_0844_0001_1002,
    0x0023_0402_0000_8041,
    0x0580_0500_4300_2080,
    0x0400_8040_0280_2008,
    0x0001_0020_0100_4010,
    0x1000_2009_0100_1000,
    0x4410_8008_0180_0C00,
    0xA012_0038_0600_1004,
    0x0020_1001_0400_8802,
    0x0004_8084_0200_0041,
    0x0010_4001_7089_8000,
    0x0080_5000_2000_4004,
    0x1040_4080_1202_0020,
    0x8010_0400_0800_4040,
    0x2001_0801_0011_0004,
    0x0000_0200_0400_8080,
    0x0021_0108_1004_0002,
    0x0800_008C_4302_0024,
    0x0000_8000_2100_5100,
    0x0070_2010_4000_8080,
    0x0000_D042_8200_6A00,
    0x0010_0144_0008_0240,
    0x0001_0801_1005_0100,
    0x0012_0008_1024_0600,
    0x0402_0008_0104_0200,
    0x0281_0010_8A00_4100,
    0x0050_8003_0010_2045,
    0x8208_2100_4012_0882,
    0x8010_6001_0118_3441,
    0x020B_0009_1000_6045,
    0x0241_0010_0248_0005,
    0x0081_0004_0088_0241,
    0x0000_0090_0802_4124,
    0x0048_1229_8041_0402,
];

/// Magic multipliers for bishops, by square index (see the module docs).
pub(crate) const BISHOP_MAGIC_NUMBERS: [u64; 64] = [
    0x0848_0208_2204_0013,
    0x8010_A400_8582_1200,
    0x0008_0084_3084_0822,
    0x0808_0481_0804_0000,
    0x1304_0421_0000_8104,
    0x5001_0120_1020_4023,
    0x8104_8801_B820_0420,
    0x200A_0080_8401_2000,
    0x0040_1020_0104_2084,
    0x840A_5050_4242_8020,
    0x0000_7001_0220_2920,
    0x4410_1C0C_1080_0002,
    0x0040_0404_2200_0000,
    0x0180_0208_0209_0202,
    0x4020_0208_1104_1202,
    0x0001_0430_8C04_2000,
    0x4140_6610_0242_4400,
    0x0028_0120_0801_0460,
    0x0188_0621_0200_2A00,
    0x0014_0048_4010_2008,
    0x0105_0002_9040_0002,
    0x8001_0222_0041_0400,
    0x104A_0419_1801_3446,
    0x008A_0000_8200_8238,
    0x04A0_0600_0810_0430,
    0x0008_2200_0882_0801,
    0x2508_0412_0800_5010,
    0x4008_0802_0020_2020,
    0x2441_0010_1300_4000,
    0x0030_0080_6040_7000,
    0x4008_1080_0042_0800,
    0x0012_0210_5029_0100,
    0x0210_0804_8220_0500,
    0xCC01_1120_4810_0480,
    0x0020_4028_0650_0440,
    0x0004_8E00_8058_0080,
    0x0040_1020_2002_0080,
    0x0028_0104_4008_0807,
    0x4601_0411_0800_8800,
    0x8040_810E_0410_4200,
    0x9012_1011_0400_088A,
    0xA003_0802_1208_1050,
    0x00C1_0040_4840_1004,
    0x9000_00A0_1440_0800,
    0x0008_0210_4040_5401,
    0x4020_0082_0600_2090,
    0x0004_1904_2403_0100,
    0x0424_008A_0202_6250,
    0x8004_0882_5090_0040,
    0x1C00_4300_88A0_4200,
    0x0001_0200_9404_0001,
    0x8040_2100_2088_0061,
    0x2010_0404_5044_2032,
    0x0800_8408_5004_4001,
    0x0004_0408_0214_0004,
    0x0004_080A_0422_2020,
    0x8088_8021_1002_2000,
    0x1081_A104_1611_4400,
    0x0205_010A_2406_0820,
    0x0000_0007_2041_1080,
    0x1008_0002_0843_0400,
    0x580C_0260_2881_0840,
    0x8020_2044_1020_A110,
    0x12C0_0224_0102_0018,
];

/// Attacks of a slider on `sq` (index) moving in `dirs`, stopping at (and
/// including) the first occupied square in each direction.
pub(crate) const fn slider_attacks_slow(sq: usize, occupied: u64, dirs: &[(i32, i32); 4]) -> u64 {
    let (f0, r0) = ((sq % 8) as i32, (sq / 8) as i32);
    let mut attacks = 0u64;
    let mut d = 0;
    while d < 4 {
        let (df, dr) = dirs[d];
        let (mut f, mut r) = (f0 + df, r0 + dr);
        while f >= 0 && f < 8 && r >= 0 && r < 8 {
            let bit = 1u64 << (r * 8 + f);
            attacks |= bit;
            if occupied & bit != 0 {
                break;
            }
            f += df;
            r += dr;
        }
        d += 1;
    }
    attacks
}

/// The relevant-occupancy mask: the rays without their last square.
const fn relevant_mask(sq: usize, dirs: &[(i32, i32); 4]) -> u64 {
    let (f0, r0) = ((sq % 8) as i32, (sq / 8) as i32);
    let mut mask = 0u64;
    let mut d = 0;
    while d < 4 {
        let (df, dr) = dirs[d];
        let (mut f, mut r) = (f0 + df, r0 + dr);
        while f + df >= 0 && f + df < 8 && r + dr >= 0 && r + dr < 8 {
            mask |= 1u64 << (r * 8 + f);
            f += df;
            r += dr;
        }
        d += 1;
    }
    mask
}

/// One square's magic entry.
#[derive(Clone, Copy)]
pub(crate) struct Magic {
    mask: u64,
    magic: u64,
    shift: u32,
    offset: u32,
}

const fn build_magics(numbers: &[u64; 64], dirs: &[(i32, i32); 4], start: u32) -> [Magic; 64] {
    let mut out = [Magic {
        mask: 0,
        magic: 0,
        shift: 0,
        offset: 0,
    }; 64];
    let mut offset = start;
    let mut sq = 0;
    while sq < 64 {
        let mask = relevant_mask(sq, dirs);
        let bits = mask.count_ones();
        out[sq] = Magic {
            mask,
            magic: numbers[sq],
            shift: 64 - bits,
            offset,
        };
        offset += 1 << bits;
        sq += 1;
    }
    out
}

const fn table_len(magics: &[Magic; 64]) -> usize {
    magics[63].offset as usize + (1usize << (64 - magics[63].shift))
}

const ROOK_MAGICS_C: [Magic; 64] = build_magics(&ROOK_MAGIC_NUMBERS, &ROOK_DIRS, 0);
const ROOK_TABLE_LEN: usize = table_len(&ROOK_MAGICS_C);
const BISHOP_MAGICS_C: [Magic; 64] =
    build_magics(&BISHOP_MAGIC_NUMBERS, &BISHOP_DIRS, ROOK_TABLE_LEN as u32);
/// Total entries of the shared slider table (rooks then bishops).
pub(crate) const SLIDER_TABLE_LEN: usize = table_len(&BISHOP_MAGICS_C);
/// The table's allocated length: [`SLIDER_TABLE_LEN`] rounded up to a
/// power of two, so that a lookup masks its index instead of testing it
/// (every slot a lookup can form is below `SLIDER_TABLE_LEN` anyway: the
/// mask only lets the compiler drop the bounds check and its branch).
const SLIDER_TABLE_SLOTS: usize = SLIDER_TABLE_LEN.next_power_of_two();

/// The table slot of the `n`-th occupancy subset `sub` of square `m`
/// (in carry-rippler order): the magic index, or in the `pext` layout `n`
/// itself (the carry-rippler counts through the subsets in the order of
/// their packed bits). Same slot count per square either way, so the
/// offsets are shared.
const fn slot(m: &Magic, sub: u64, n: usize, pext: bool) -> usize {
    let index = if pext {
        n
    } else {
        (sub.wrapping_mul(m.magic) >> m.shift) as usize
    };
    m.offset as usize + index
}

const fn fill(
    table: &mut [u64; SLIDER_TABLE_SLOTS],
    magics: &[Magic; 64],
    dirs: &[(i32, i32); 4],
    pext: bool,
) {
    let mut sq = 0;
    while sq < 64 {
        let m = magics[sq];
        // Carry-rippler enumeration of every subset of the mask.
        let mut sub = 0u64;
        let mut n = 0;
        loop {
            let attacks = slider_attacks_slow(sq, sub, dirs);
            let index = slot(&m, sub, n, pext);
            n += 1;
            if table[index] == 0 {
                table[index] = attacks;
            } else if table[index] != attacks {
                panic!("magic number maps two different attack sets to one slot");
            }
            sub = sub.wrapping_sub(m.mask) & m.mask;
            if sub == 0 {
                break;
            }
        }
        sq += 1;
    }
}

const fn build_slider_table(pext: bool) -> [u64; SLIDER_TABLE_SLOTS] {
    let mut table = [0u64; SLIDER_TABLE_SLOTS];
    fill(&mut table, &ROOK_MAGICS_C, &ROOK_DIRS, pext);
    fill(&mut table, &BISHOP_MAGICS_C, &BISHOP_DIRS, pext);
    table
}

/// Rook (`ROOK`) and bishop (`BISHOP`) rows of the per-square slider
/// entries in [`Tables`].
const ROOK: usize = 0;
const BISHOP: usize = 1;

/// The per-square slider entries of [`Magic`] as separate arrays
/// (`[rook, bishop]` rows), so that a lookup indexes each by the square
/// (scaled by the element size, no multiply by the entry size).
#[derive(Clone, Copy)]
struct SliderEntries {
    mask: [[u64; 64]; 2],
    magic: [[u64; 64]; 2],
    offset: [[u32; 64]; 2],
    shift: [[u32; 64]; 2],
}

const fn slider_entries(rook: &[Magic; 64], bishop: &[Magic; 64]) -> SliderEntries {
    let mut out = SliderEntries {
        mask: [[0; 64]; 2],
        magic: [[0; 64]; 2],
        offset: [[0; 64]; 2],
        shift: [[0; 64]; 2],
    };
    let mut sq = 0;
    while sq < 64 {
        let (r, b) = (rook[sq], bishop[sq]);
        out.mask[ROOK][sq] = r.mask;
        out.mask[BISHOP][sq] = b.mask;
        out.magic[ROOK][sq] = r.magic;
        out.magic[BISHOP][sq] = b.magic;
        out.offset[ROOK][sq] = r.offset;
        out.offset[BISHOP][sq] = b.offset;
        out.shift[ROOK][sq] = r.shift;
        out.shift[BISHOP][sq] = b.shift;
        sq += 1;
    }
    out
}

/// The attack set of the slider of row `slider` ([`ROOK`] or [`BISHOP`])
/// on square index `sq` given `occupied`, at run time: the `pext` layout
/// when `P` is `true` (see [`simd`]; only code that [`simd::dispatch`]
/// chose runs with `P = true`) or when the whole build targets BMI2, the
/// magic layout otherwise.
#[inline(always)]
fn lookup<const P: bool>(slider: usize, sq: usize, occupied: u64) -> u64 {
    let e = &TABLES.sliders;
    let (mask, offset) = (e.mask[slider][sq], e.offset[slider][sq] as usize);
    #[cfg(all(target_arch = "x86_64", target_feature = "bmi2"))]
    {
        let _ = P;
        let index = super::simd::pext(occupied, mask);
        TABLES.pext[(offset + index as usize) & (SLIDER_TABLE_SLOTS - 1)]
    }
    #[cfg(not(all(target_arch = "x86_64", target_feature = "bmi2")))]
    {
        #[cfg(all(target_arch = "x86_64", feature = "std"))]
        if P {
            let index = super::simd::pext(occupied, mask);
            return TABLES.pext[(offset + index as usize) & (SLIDER_TABLE_SLOTS - 1)];
        }
        let index = (occupied & mask).wrapping_mul(e.magic[slider][sq]) >> e.shift[slider][sq];
        TABLES.magic[(offset + index as usize) & (SLIDER_TABLE_SLOTS - 1)]
    }
}

/// The magic-layout lookup, whatever the build (tests and fuzz hook).
#[cfg(any(test, feature = "arbitrary"))]
fn magic_lookup(slider: usize, sq: usize, occupied: u64) -> u64 {
    let e = &TABLES.sliders;
    let index =
        (occupied & e.mask[slider][sq]).wrapping_mul(e.magic[slider][sq]) >> e.shift[slider][sq];
    TABLES.magic[(e.offset[slider][sq] as usize + index as usize) & (SLIDER_TABLE_SLOTS - 1)]
}

/// The `pext`-layout lookup if this CPU can run it (tests and fuzz hook).
#[cfg(any(test, feature = "arbitrary"))]
fn pext_lookup(slider: usize, sq: usize, occupied: u64) -> Option<u64> {
    #[cfg(all(target_arch = "x86_64", target_feature = "bmi2"))]
    {
        Some(lookup::<true>(slider, sq, occupied))
    }
    #[cfg(all(target_arch = "x86_64", feature = "std", not(target_feature = "bmi2")))]
    {
        // `P = true` code only after the CPU check (see `simd`).
        super::simd::pext_available().then(|| lookup::<true>(slider, sq, occupied))
    }
    #[cfg(not(all(target_arch = "x86_64", any(target_feature = "bmi2", feature = "std"))))]
    {
        let _ = (slider, sq, occupied);
        None
    }
}

/// The rook and bishop attacks from `sq` with `occupied` by each way of
/// computing them: `[ray walking, magic table, pext table]` (the last
/// `None` when this CPU or build has no `pext` path), each
/// `[rook, bishop]`. For the fuzz target that checks the `pext` path
/// against the portable ones; not part of the stable API.
#[cfg(feature = "arbitrary")]
#[doc(hidden)]
pub fn slider_lookups(sq: Square, occupied: Bitboard) -> [Option<[Bitboard; 2]>; 3] {
    let (s, occ) = (sq.index(), occupied.0);
    [
        Some([
            Bitboard(slider_attacks_slow(s, occ, &ROOK_DIRS)),
            Bitboard(slider_attacks_slow(s, occ, &BISHOP_DIRS)),
        ]),
        Some([
            Bitboard(magic_lookup(ROOK, s, occ)),
            Bitboard(magic_lookup(BISHOP, s, occ)),
        ]),
        pext_lookup(ROOK, s, occ)
            .zip(pext_lookup(BISHOP, s, occ))
            .map(|(r, b)| [Bitboard(r), Bitboard(b)]),
    ]
}

const fn leaper_table(deltas: &[(i32, i32)]) -> [u64; 64] {
    let mut out = [0u64; 64];
    let mut sq = 0;
    while sq < 64 {
        let (f0, r0) = ((sq % 8) as i32, (sq / 8) as i32);
        let mut i = 0;
        while i < deltas.len() {
            let (f, r) = (f0 + deltas[i].0, r0 + deltas[i].1);
            if f >= 0 && f < 8 && r >= 0 && r < 8 {
                out[sq] |= 1u64 << (r * 8 + f);
            }
            i += 1;
        }
        sq += 1;
    }
    out
}

/// A knight's steps as (file, rank) deltas.
const KNIGHT_STEPS: [(i32, i32); 8] = [
    (1, 2),
    (2, 1),
    (2, -1),
    (1, -2),
    (-1, -2),
    (-2, -1),
    (-2, 1),
    (-1, 2),
];
/// A king's steps as (file, rank) deltas.
const KING_STEPS: [(i32, i32); 8] = [
    (1, 0),
    (1, 1),
    (0, 1),
    (-1, 1),
    (-1, 0),
    (-1, -1),
    (0, -1),
    (1, -1),
];

const fn empty_board_rays(dirs: &[(i32, i32); 4]) -> [u64; 64] {
    let mut out = [0u64; 64];
    let mut sq = 0;
    while sq < 64 {
        out[sq] = slider_attacks_slow(sq, 0, dirs);
        sq += 1;
    }
    out
}

/// The union of the empty-board rays (`dirs`) of the squares of `set`:
/// the squares from which a slider moving along `dirs` could attack some
/// square of `set`.
pub(crate) const fn rays_of_set(set: u64, dirs: &[(i32, i32); 4]) -> u64 {
    let mut out = 0;
    let mut sq = 0;
    while sq < 64 {
        if set & (1 << sq) != 0 {
            out |= slider_attacks_slow(sq, 0, dirs);
        }
        sq += 1;
    }
    out
}

/// The squares from which a knight attacks some square of `set`.
pub(crate) const fn knight_sources(set: u64) -> u64 {
    let knight = leaper_table(&KNIGHT_STEPS);
    let mut out = 0;
    let mut sq = 0;
    while sq < 64 {
        if set & (1 << sq) != 0 {
            out |= knight[sq];
        }
        sq += 1;
    }
    out
}

/// `[rook, bishop, knight]` zones of each king square: [`rays_of_set`]
/// and [`knight_sources`] of the king's neighbourhood (the only sliders
/// and knights that can attack a square next to the king stand there).
/// Two more entries, [`CASTLING_ZONES`], for a king on e1 (resp. e8)
/// whose side may still castle: its zones together with those of the
/// squares castling crosses or lands on (c, d, f, g).
const fn build_king_zones() -> [[u64; 3]; 66] {
    let king = leaper_table(&KING_STEPS);
    let mut out = [[0u64; 3]; 66];
    let mut sq = 0;
    while sq < 64 {
        out[sq] = [
            rays_of_set(king[sq], &ROOK_DIRS),
            rays_of_set(king[sq], &BISHOP_DIRS),
            knight_sources(king[sq]),
        ];
        sq += 1;
    }
    let mut color = 0;
    while color < 2 {
        let (e, crossed) = if color == 0 {
            (4, 0x6c)
        } else {
            (60, 0x6c << 56)
        };
        let set = king[e] | crossed;
        out[CASTLING_ZONES[color]] = [
            rays_of_set(set, &ROOK_DIRS),
            rays_of_set(set, &BISHOP_DIRS),
            knight_sources(set),
        ];
        color += 1;
    }
    out
}

/// The [`king_zones`] indices of White's and Black's king on its start
/// square while its side may still castle.
pub(crate) const CASTLING_ZONES: [usize; 2] = [64, 65];

/// `[rook, bishop, knight]`: the squares from which a rook (resp. a
/// bishop, a knight) could attack some square next to the king square of
/// index `index` (on an empty board), or one of the castling squares too
/// for the indices [`CASTLING_ZONES`].
#[inline(always)]
pub(crate) fn king_zones(index: usize) -> [Bitboard; 3] {
    let [r, b, n] = TABLES.king_zones[index];
    [Bitboard(r), Bitboard(b), Bitboard(n)]
}

/// `(between, line)`: squares strictly between two aligned squares, and the
/// whole line through them (edge to edge, both included); 0 when the
/// squares are not on a common rank, file or diagonal.
const fn build_between_line() -> ([[u64; 64]; 64], [[u64; 64]; 64]) {
    let dirs: [(i32, i32); 8] = [
        (1, 0),
        (-1, 0),
        (0, 1),
        (0, -1),
        (1, 1),
        (1, -1),
        (-1, 1),
        (-1, -1),
    ];
    let mut between = [[0u64; 64]; 64];
    let mut line = [[0u64; 64]; 64];
    let mut a = 0;
    while a < 64 {
        let (f0, r0) = ((a % 8) as i32, (a / 8) as i32);
        let mut d = 0;
        while d < 8 {
            let (df, dr) = dirs[d];
            // The full line through `a` in this direction (both ways).
            let mut full = 1u64 << a;
            let (mut f, mut r) = (f0 + df, r0 + dr);
            while f >= 0 && f < 8 && r >= 0 && r < 8 {
                full |= 1u64 << (r * 8 + f);
                f += df;
                r += dr;
            }
            let (mut f, mut r) = (f0 - df, r0 - dr);
            while f >= 0 && f < 8 && r >= 0 && r < 8 {
                full |= 1u64 << (r * 8 + f);
                f -= df;
                r -= dr;
            }
            let mut acc = 0u64;
            let (mut f, mut r) = (f0 + df, r0 + dr);
            while f >= 0 && f < 8 && r >= 0 && r < 8 {
                let b = (r * 8 + f) as usize;
                between[a][b] = acc;
                line[a][b] = full;
                acc |= 1u64 << b;
                f += df;
                r += dr;
            }
            d += 1;
        }
        a += 1;
    }
    (between, line)
}

/// Every attack table in one static, so that the generator reaches all of
/// them from one base address (one register; with separate statics each
/// needs its own address, and in position-independent code its own
/// load of that address).
#[repr(C)]
struct Tables {
    knight: [u64; 64],
    king: [u64; 64],
    pawn: [[u64; 64]; 2],
    rook_rays: [u64; 64],
    bishop_rays: [u64; 64],
    king_zones: [[u64; 3]; 66],
    sliders: SliderEntries,
    between: [[u64; 64]; 64],
    line: [[u64; 64]; 64],
    /// The slider table in the `pext` layout: built for x86-64 when the
    /// build targets BMI2 or when `std` can detect it at run time.
    #[cfg(all(target_arch = "x86_64", any(target_feature = "bmi2", feature = "std")))]
    pext: [u64; SLIDER_TABLE_SLOTS],
    /// The slider table in the magic layout: built unless the whole build
    /// targets BMI2 (and then still for the tests and the fuzz hook, which
    /// compare both layouts).
    #[cfg(any(
        not(all(target_arch = "x86_64", target_feature = "bmi2")),
        test,
        feature = "arbitrary"
    ))]
    magic: [u64; SLIDER_TABLE_SLOTS],
}

const BETWEEN_LINE: ([[u64; 64]; 64], [[u64; 64]; 64]) = build_between_line();

#[allow(long_running_const_eval)]
static TABLES: Tables = Tables {
    knight: leaper_table(&KNIGHT_STEPS),
    king: leaper_table(&KING_STEPS),
    pawn: [
        leaper_table(&[(-1, 1), (1, 1)]),
        leaper_table(&[(-1, -1), (1, -1)]),
    ],
    rook_rays: empty_board_rays(&ROOK_DIRS),
    bishop_rays: empty_board_rays(&BISHOP_DIRS),
    king_zones: build_king_zones(),
    sliders: slider_entries(&ROOK_MAGICS_C, &BISHOP_MAGICS_C),
    between: BETWEEN_LINE.0,
    line: BETWEEN_LINE.1,
    #[cfg(all(target_arch = "x86_64", any(target_feature = "bmi2", feature = "std")))]
    pext: build_slider_table(true),
    #[cfg(any(
        not(all(target_arch = "x86_64", target_feature = "bmi2")),
        test,
        feature = "arbitrary"
    ))]
    magic: build_slider_table(false),
};

/// Squares a knight on `sq` attacks.
#[inline]
pub fn knight_attacks(sq: Square) -> Bitboard {
    Bitboard(TABLES.knight[sq.index()])
}

/// Squares a king on `sq` attacks.
#[inline]
pub fn king_attacks(sq: Square) -> Bitboard {
    Bitboard(TABLES.king[sq.index()])
}

/// Squares a pawn of `color` on `sq` attacks (diagonally forward).
#[inline]
pub fn pawn_attacks(color: Color, sq: Square) -> Bitboard {
    Bitboard(TABLES.pawn[color.index()][sq.index()])
}

/// Squares a rook on `sq` attacks given the `occupied` squares (blockers
/// are included; colour is not considered).
#[inline]
pub fn rook_attacks(sq: Square, occupied: Bitboard) -> Bitboard {
    rook_attacks_with::<false>(sq, occupied)
}

/// [`rook_attacks`] in the `pext` layout when `P` (see [`lookup`]).
#[inline(always)]
pub(crate) fn rook_attacks_with<const P: bool>(sq: Square, occupied: Bitboard) -> Bitboard {
    Bitboard(lookup::<P>(ROOK, sq.index(), occupied.0))
}

/// Squares a bishop on `sq` attacks given the `occupied` squares.
#[inline]
pub fn bishop_attacks(sq: Square, occupied: Bitboard) -> Bitboard {
    bishop_attacks_with::<false>(sq, occupied)
}

/// [`bishop_attacks`] in the `pext` layout when `P` (see [`lookup`]).
#[inline(always)]
pub(crate) fn bishop_attacks_with<const P: bool>(sq: Square, occupied: Bitboard) -> Bitboard {
    Bitboard(lookup::<P>(BISHOP, sq.index(), occupied.0))
}

/// Squares a queen on `sq` attacks given the `occupied` squares.
#[inline]
pub fn queen_attacks(sq: Square, occupied: Bitboard) -> Bitboard {
    rook_attacks(sq, occupied) | bishop_attacks(sq, occupied)
}

/// Rook attacks from `sq` on an empty board.
#[inline]
pub fn rook_rays(sq: Square) -> Bitboard {
    Bitboard(TABLES.rook_rays[sq.index()])
}

/// Bishop attacks from `sq` on an empty board.
#[inline]
pub fn bishop_rays(sq: Square) -> Bitboard {
    Bitboard(TABLES.bishop_rays[sq.index()])
}

/// Squares strictly between `a` and `b` if they share a rank, file or
/// diagonal; empty otherwise.
#[inline]
pub fn between(a: Square, b: Square) -> Bitboard {
    Bitboard(TABLES.between[a.index()][b.index()])
}

/// The whole rank, file or diagonal through `a` and `b` (edge to edge,
/// both included); empty if they are not aligned or equal.
#[inline]
pub fn line(a: Square, b: Square) -> Bitboard {
    Bitboard(TABLES.line[a.index()][b.index()])
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn magic_lookups_match_ray_walking() {
        // A deterministic sample of occupancies for every square.
        let mut x: u64 = 0x1234_5678_9abc_def1;
        for sq in 0..64u32 {
            let s = Square::new(sq).unwrap();
            for _ in 0..200 {
                x ^= x << 13;
                x ^= x >> 7;
                x ^= x << 17;
                let occ = x & x.rotate_left(17);
                assert_eq!(
                    rook_attacks(s, Bitboard(occ)).0,
                    slider_attacks_slow(sq as usize, occ, &ROOK_DIRS)
                );
                assert_eq!(
                    bishop_attacks(s, Bitboard(occ)).0,
                    slider_attacks_slow(sq as usize, occ, &BISHOP_DIRS)
                );
            }
        }
        assert_eq!(SLIDER_TABLE_LEN, 102_400 + 5_248);
    }

    /// The `pext` layout and the magic layout agree with ray walking on
    /// every square for many occupancies (random, sparse and dense, and
    /// every subset of a few relevant masks).
    #[test]
    fn pext_and_magic_paths_agree() {
        let mut x: u64 = 0x0bad_5eed_1234_5678;
        let mut next = || {
            x ^= x << 13;
            x ^= x >> 7;
            x ^= x << 17;
            x
        };
        let pext_runs = pext_lookup(ROOK, 0, 0).is_some();
        let mut compared = 0u32;
        for sq in 0..64usize {
            for (slider, magics, dirs) in [
                (ROOK, &ROOK_MAGICS_C, &ROOK_DIRS),
                (BISHOP, &BISHOP_MAGICS_C, &BISHOP_DIRS),
            ] {
                let m = &magics[sq];
                let mut occs = [0u64; 3000];
                for (i, occ) in occs.iter_mut().enumerate() {
                    let r = next();
                    *occ = match i % 3 {
                        0 => r,
                        1 => r & next() & next(),
                        _ => r | next(),
                    };
                }
                // Plus every subset of the square's relevant mask, with
                // noise outside the mask (which the lookup must ignore).
                let mut sub = 0u64;
                let mut subsets = 0;
                loop {
                    let occ = sub | (next() & !m.mask);
                    let want = slider_attacks_slow(sq, occ, dirs);
                    assert_eq!(
                        magic_lookup(slider, sq, occ),
                        want,
                        "magic sq {sq} occ {occ:#x}"
                    );
                    if let Some(got) = pext_lookup(slider, sq, occ) {
                        assert_eq!(got, want, "pext sq {sq} occ {occ:#x}");
                        compared += 1;
                    }
                    subsets += 1;
                    sub = sub.wrapping_sub(m.mask) & m.mask;
                    if sub == 0 {
                        break;
                    }
                }
                assert_eq!(subsets, 1u32 << m.mask.count_ones());
                for occ in occs {
                    let want = slider_attacks_slow(sq, occ, dirs);
                    assert_eq!(
                        magic_lookup(slider, sq, occ),
                        want,
                        "magic sq {sq} occ {occ:#x}"
                    );
                    if let Some(got) = pext_lookup(slider, sq, occ) {
                        assert_eq!(got, want, "pext sq {sq} occ {occ:#x}");
                        compared += 1;
                    }
                }
            }
        }
        // 107 648 subsets plus 384 000 random occupancies, when this CPU
        // has the `pext` path (every x86-64 CPU since Haswell/Excavator).
        if pext_runs {
            assert_eq!(compared, 107_648 + 384_000);
        }
    }

    /// Re-runs the search that produced the magic numbers (see the module
    /// docs) and checks it finds exactly the constants in this file.
    #[test]
    fn magic_numbers_reproduce() {
        let mut state: u64 = 0x9E37_79B9_7F4A_7C15;
        let mut next = || {
            state ^= state << 13;
            state ^= state >> 7;
            state ^= state << 17;
            state
        };
        let mut used = [0u64; 4096];
        let mut seen = [0u32; 4096];
        let mut epoch = 0u32;
        for (dirs, expected) in [
            (&ROOK_DIRS, &ROOK_MAGIC_NUMBERS),
            (&BISHOP_DIRS, &BISHOP_MAGIC_NUMBERS),
        ] {
            for (sq, &want) in expected.iter().enumerate() {
                let mask = relevant_mask(sq, dirs);
                let bits = mask.count_ones();
                let found = 'search: loop {
                    let magic = next() & next() & next();
                    if (mask.wrapping_mul(magic) >> 56).count_ones() < 6 {
                        continue;
                    }
                    epoch += 1;
                    let mut sub = 0u64;
                    loop {
                        let attacks = slider_attacks_slow(sq, sub, dirs);
                        let i = (sub.wrapping_mul(magic) >> (64 - bits)) as usize;
                        if seen[i] != epoch {
                            seen[i] = epoch;
                            used[i] = attacks;
                        } else if used[i] != attacks {
                            continue 'search;
                        }
                        sub = sub.wrapping_sub(mask) & mask;
                        if sub == 0 {
                            break 'search magic;
                        }
                    }
                };
                assert_eq!(found, want, "square {sq}");
            }
        }
    }

    #[test]
    fn known_attack_sets() {
        // Knight on a1 attacks b3 and c2; on e4 eight squares.
        assert_eq!(
            knight_attacks(Square::A1),
            Bitboard::from_square(Square::B3) | Bitboard::from_square(Square::C2)
        );
        assert_eq!(knight_attacks(Square::E4).count(), 8);
        assert_eq!(king_attacks(Square::H8).count(), 3);
        assert_eq!(
            pawn_attacks(Color::White, Square::E4),
            Bitboard::from_square(Square::D5) | Bitboard::from_square(Square::F5)
        );
        assert_eq!(
            pawn_attacks(Color::Black, Square::A7),
            Bitboard::from_square(Square::B6)
        );
        assert_eq!(rook_rays(Square::D4).count(), 14);
        assert_eq!(bishop_rays(Square::D4).count(), 13);
        assert_eq!(
            between(Square::A1, Square::D4),
            Bitboard::from_square(Square::B2) | Bitboard::from_square(Square::C3)
        );
        assert_eq!(between(Square::A1, Square::B3), Bitboard::EMPTY);
        assert_eq!(line(Square::A1, Square::B3), Bitboard::EMPTY);
        assert_eq!(line(Square::B2, Square::C3).count(), 8);
        assert_eq!(
            line(Square::E1, Square::E5),
            Bitboard(0x1010_1010_1010_1010)
        );
    }
}
