//! The only `unsafe` code of the crate: the BMI2 `pext` instruction for
//! the slider tables, and the run-time choice of the code path that uses
//! it.
//!
//! Three builds:
//! - **the build targets BMI2** (`-C target-cpu=native` on a recent
//!   x86-64, or `-C target-feature=+bmi2`): `pext` always; the magic
//!   table is not built (the CPU is known to have BMI2 at compile time).
//! - **x86-64 with the `std` feature, BMI2 not targeted**: the CPU is
//!   asked once (`std::is_x86_feature_detected!`, whose answer `std`
//!   caches) whether it has BMI1, BMI2 and POPCNT. [`dispatch`] then runs
//!   the hot code (move generation, `perft`) compiled a second time with
//!   those three features enabled (`#[target_feature]`), on the `pext`
//!   table; otherwise the portable code on the magic table.
//! - **anything else** (other architectures, or `no_std` without BMI2
//!   targeted): the magic table only; no detection (it needs `std`).
//!
//! `pext` is picked whenever BMI2 is present. On AMD Zen 1 and Zen 2
//! `pext` is microcoded (latency about 18 cycles and more, depending on
//! the mask), so there the magic path would be faster; the CPU model is
//! not checked.

#![allow(unsafe_code)]

use super::movegen::Sink;
use super::perft::inner;
use super::position::Position;

/// `true` when the CPU has what the `pext` path needs (BMI1, BMI2,
/// POPCNT): asked of the CPU the first time, then `std`'s cached answer.
#[cfg(all(target_arch = "x86_64", feature = "std", not(target_feature = "bmi2")))]
#[inline(always)]
pub(crate) fn pext_available() -> bool {
    std::is_x86_feature_detected!("bmi2")
        && std::is_x86_feature_detected!("bmi1")
        && std::is_x86_feature_detected!("popcnt")
}

/// The cfg of the run-time choice (x86-64, `std`, BMI2 not targeted).
macro_rules! cfg_detect {
    ($($item:item)*) => {
        $(
            #[cfg(all(target_arch = "x86_64", feature = "std", not(target_feature = "bmi2")))]
            $item
        )*
    };
}

/// Every legal move into `sink`: [`Position::generate_with`] with the
/// `pext` layout (`P = true`) if [`pext_available`], else the portable one.
///
/// This module is the one way into `P = true` code when BMI2 is not
/// targeted: every function taking the const parameter `P` (the slider
/// lookups of `attacks`, the generator, `perft`) is called with
/// `P = true` only from the BMI2 functions below, and from code they call.
#[inline(always)]
pub(crate) fn generate<S: Sink>(position: &Position, sink: &mut S) {
    #[cfg(all(target_arch = "x86_64", feature = "std", not(target_feature = "bmi2")))]
    if pext_available() {
        // SAFETY: `generate_bmi2` needs BMI1, BMI2 and POPCNT, which
        // `pext_available` has just found.
        return unsafe { generate_bmi2(position, sink) };
    }
    position.generate_with::<S, PEXT_TARGETED>(sink);
}

/// The number of legal moves ([`Position::count_with`]): the `pext`
/// layout if [`pext_available`], else the portable one.
#[inline(always)]
pub(crate) fn count(position: &Position) -> u64 {
    #[cfg(all(target_arch = "x86_64", feature = "std", not(target_feature = "bmi2")))]
    if pext_available() {
        // SAFETY: as in `generate`.
        return unsafe { count_bmi2(position) };
    }
    position.count_with::<PEXT_TARGETED>()
}

/// `perft` below the root for `depth >= 2`: the `pext` path if
/// [`pext_available`], else the portable one.
#[inline(always)]
pub(crate) fn perft(position: &Position, depth: u32) -> u64 {
    #[cfg(all(target_arch = "x86_64", feature = "std", not(target_feature = "bmi2")))]
    if pext_available() {
        // SAFETY: as in `generate`.
        return unsafe { perft_bmi2(position, depth) };
    }
    inner::<PEXT_TARGETED>(position, depth)
}

/// The recursive call of `perft`'s `P = true` code: back into a function
/// compiled for BMI2 (so that `pext` is inlined in the recursion too).
/// Called only from `P = true` code, that is after [`perft`] found BMI2.
#[inline(always)]
pub(crate) fn perft_reenter(position: &Position, depth: u32) -> u64 {
    #[cfg(all(target_arch = "x86_64", feature = "std", not(target_feature = "bmi2")))]
    {
        debug_assert!(pext_available());
        // SAFETY: only reached from `P = true` code, which runs only
        // after `perft` or `generate` found BMI1, BMI2 and POPCNT.
        unsafe { perft_bmi2(position, depth) }
    }
    #[cfg(not(all(target_arch = "x86_64", feature = "std", not(target_feature = "bmi2"))))]
    {
        super::perft::inner_plain::<true>(position, depth)
    }
}

/// `true` when the build itself targets BMI2 (then `P = false` code uses
/// the `pext` table too: there is no other).
const PEXT_TARGETED: bool = cfg!(all(target_arch = "x86_64", target_feature = "bmi2"));

cfg_detect! {
    /// [`Position::generate_with`] (`P = true`) compiled with BMI1, BMI2
    /// and POPCNT.
    ///
    /// # Safety
    /// The CPU must have BMI1, BMI2 and POPCNT.
    #[target_feature(enable = "bmi1,bmi2,popcnt")]
    unsafe fn generate_bmi2<S: Sink>(position: &Position, sink: &mut S) {
        position.generate_with::<S, true>(sink);
    }

    /// [`Position::count_with`] (`P = true`) compiled with BMI1, BMI2
    /// and POPCNT.
    ///
    /// # Safety
    /// The CPU must have BMI1, BMI2 and POPCNT.
    #[target_feature(enable = "bmi1,bmi2,popcnt")]
    unsafe fn count_bmi2(position: &Position) -> u64 {
        position.count_with::<true>()
    }

    /// `inner::<true>` compiled with BMI1, BMI2 and POPCNT.
    ///
    /// # Safety
    /// The CPU must have BMI1, BMI2 and POPCNT.
    #[target_feature(enable = "bmi1,bmi2,popcnt")]
    unsafe fn perft_bmi2(position: &Position, depth: u32) -> u64 {
        inner::<true>(position, depth)
    }
}

/// `pext(value, mask)`: the bits of `value` selected by `mask`, packed
/// into the low bits (BMI2 `pext`). Only reached from code that runs
/// after [`dispatch`] chose the `pext` path, or in a build that targets
/// BMI2.
#[cfg(all(target_arch = "x86_64", any(target_feature = "bmi2", feature = "std")))]
#[inline(always)]
pub(crate) fn pext(value: u64, mask: u64) -> u64 {
    // SAFETY: `_pext_u64` needs BMI2 and nothing else (no memory access:
    // integers in, an integer out). In a build that targets BMI2 every CPU
    // it runs on has it; otherwise this is reached only from `P = true`
    // code, which runs only after `pext_available()` was `true` (see
    // `dispatch`).
    unsafe { core::arch::x86_64::_pext_u64(value, mask) }
}
