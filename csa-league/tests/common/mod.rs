//! Shared helpers: local civil time to seconds since 1970.

/// Seconds since 1970 (UTC) of the local time `y-m-d h:mi:s` in the zone
/// `off` (seconds east of UTC).
pub fn at(y: i64, m: i64, d: i64, h: i64, mi: i64, s: i64, off: i32) -> i64 {
    let y2 = if m <= 2 { y - 1 } else { y };
    let era = y2.div_euclid(400);
    let yoe = y2 - era * 400;
    let mp = (m + 9) % 12;
    let doy = (153 * mp + 2) / 5 + d - 1;
    let doe = yoe * 365 + yoe / 4 - yoe / 100 + doy;
    let days = era * 146_097 + doe - 719_468;
    days * 86_400 + h * 3600 + mi * 60 + s - i64::from(off)
}
