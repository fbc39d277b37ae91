//! Zobrist keys, generated at compile time with splitmix64.

const fn splitmix(state: u64) -> (u64, u64) {
    let s = state.wrapping_add(0x9e37_79b9_7f4a_7c15);
    let mut z = s;
    z = (z ^ (z >> 30)).wrapping_mul(0xbf58_476d_1ce4_e5b9);
    z = (z ^ (z >> 27)).wrapping_mul(0x94d0_49bb_1331_11eb);
    (s, z ^ (z >> 31))
}

/// Fills `keys` with successive splitmix64 values from `state`; returns
/// the state after them.
const fn fill(keys: &mut [u64], mut state: u64) -> u64 {
    let mut i = 0;
    while i < keys.len() {
        let (next, key) = splitmix(state);
        state = next;
        keys[i] = key;
        i += 1;
    }
    state
}

const fn build_piece() -> [[u64; 81]; 29] {
    let mut t = [[0u64; 81]; 29];
    let mut st = 0x5348_4f47_4900_0001u64;
    let mut p = 1;
    while p < 29 {
        st = fill(&mut t[p], st);
        p += 1;
    }
    t
}

const fn build_hand() -> [[[u64; 32]; 7]; 2] {
    let mut t = [[[0u64; 32]; 7]; 2];
    let mut st = 0x4841_4e44_0000_0002u64;
    let mut c = 0;
    while c < 2 {
        let mut k = 0;
        while k < 7 {
            // Count 0 keeps key 0 so an empty hand contributes nothing.
            let (_, counts) = t[c][k].split_at_mut(1);
            st = fill(counts, st);
            k += 1;
        }
        c += 1;
    }
    t
}

/// Key per piece code (1..=28) and square.
pub(crate) static PIECE: [[u64; 81]; 29] = build_piece();
/// Key per colour, hand index and count (0..=31; only 0..=18 occur).
pub(crate) static HAND: [[[u64; 32]; 7]; 2] = build_hand();
/// Key toggled when White is to move.
pub(crate) const SIDE: u64 = 0x9d1c_4f5e_2b7a_3c61;
