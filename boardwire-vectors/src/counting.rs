//! A counting global allocator for the "never allocates" tests of the
//! family's crates: it forwards to [`System`] and counts allocations
//! (`alloc`, `alloc_zeroed`, `realloc`) per thread, since the test harness
//! runs tests on several threads and each test looks only at its own count.
//!
//! A test binary installs it and measures a closure:
//!
//! ```
//! use boardwire_vectors::counting::{Counting, allocations_during};
//!
//! #[global_allocator]
//! static GLOBAL: Counting = Counting;
//!
//! # fn main() {
//! let (n, sum) = allocations_during(|| [1, 2, 3].iter().sum::<i32>());
//! assert_eq!((n, sum), (0, 6));
//! let (n, v) = allocations_during(|| vec![1u8; 16]);
//! assert_eq!((n, v.len()), (1, 16));
//! # }
//! ```
#![allow(unsafe_code)]

use std::alloc::{GlobalAlloc, Layout, System};
use std::cell::Cell;

/// A global allocator that forwards to [`System`] and counts this thread's
/// allocations (read them with [`allocations`]).
#[derive(Debug, Clone, Copy, Default)]
pub struct Counting;

thread_local! {
    static ALLOCATIONS: Cell<u64> = const { Cell::new(0) };
}

fn count() {
    // `try_with`: the counter may already be gone while a thread exits.
    let _ = ALLOCATIONS.try_with(|c| c.set(c.get() + 1));
}

// SAFETY: forwards every call to the system allocator unchanged; the
// thread-local counter is a const-initialised `Cell` (no allocation, no
// re-entrancy into the allocator).
unsafe impl GlobalAlloc for Counting {
    unsafe fn alloc(&self, layout: Layout) -> *mut u8 {
        count();
        // SAFETY: same contract as ours.
        unsafe { System.alloc(layout) }
    }
    unsafe fn dealloc(&self, ptr: *mut u8, layout: Layout) {
        // SAFETY: same contract as ours.
        unsafe { System.dealloc(ptr, layout) }
    }
    unsafe fn alloc_zeroed(&self, layout: Layout) -> *mut u8 {
        count();
        // SAFETY: same contract as ours.
        unsafe { System.alloc_zeroed(layout) }
    }
    unsafe fn realloc(&self, ptr: *mut u8, layout: Layout, new_size: usize) -> *mut u8 {
        count();
        // SAFETY: same contract as ours.
        unsafe { System.realloc(ptr, layout, new_size) }
    }
}

/// How many heap allocations this thread has made so far (0 unless
/// [`Counting`] is the global allocator).
pub fn allocations() -> u64 {
    ALLOCATIONS.with(Cell::get)
}

/// Runs `f` and returns how many heap allocations this thread made during
/// it, with `f`'s result.
pub fn allocations_during<R>(f: impl FnOnce() -> R) -> (u64, R) {
    let before = allocations();
    let r = f();
    (allocations() - before, r)
}
