//! Shared by the perft benchmarks' ratio and speed passes: the calling
//! thread's CPU time (the machine may be shared: wall time would count the
//! time other processes had the core).

/// CPU time of the calling thread, in seconds (Linux
/// `CLOCK_THREAD_CPUTIME_ID`).
pub fn thread_cpu_seconds() -> f64 {
    let mut ts = libc::timespec {
        tv_sec: 0,
        tv_nsec: 0,
    };
    // SAFETY: `ts` is a valid, writable timespec; the clock id is a
    // constant supported on Linux.
    let rc = unsafe { libc::clock_gettime(libc::CLOCK_THREAD_CPUTIME_ID, &mut ts) };
    assert_eq!(rc, 0, "clock_gettime");
    ts.tv_sec as f64 + ts.tv_nsec as f64 * 1e-9
}
