//! Property checks run by the fuzz targets (`fuzz_targets/*.rs` are two-line
//! wrappers around these functions).

pub mod chess;
pub mod citrine;
pub mod csa;
pub mod draughts;
pub mod dxp;
pub mod shogi;
