//! The caller's clock, as the sans-IO driver and device take it.

/// A point in time on the caller's monotonic clock, passed to the
/// [`Driver`](crate::driver::Driver) and the [`Device`](crate::device::Device)
/// (they never read a clock themselves): `core::time::Duration` (time since
/// any origin the caller picks; works without `std`) or, with the `std`
/// feature, `std::time::Instant`. Shared by the whole crate family; see
/// [`board_core::time`].
pub use board_core::time::Timestamp;
