//! The host's side of a game against the device, shared by the in-memory
//! games (`session.rs`) and the games over a pty (`pty.rs`).

use board_core::player::Player;
use novag_citrine::session::{Driver, Timestamp};

/// The host's turn at `plies` plies: two plies taken back at each ply count
/// of `take_backs_at` (once each, recorded in `done`; not before ply 2),
/// else the move `host` chooses.
pub fn host_turn<T: Timestamp>(
    driver: &mut Driver<T>,
    host: &mut Player,
    take_backs_at: &[usize],
    done: &mut Vec<usize>,
    now: T,
) {
    let plies = driver.moves().len();
    if take_backs_at.contains(&plies) && !done.contains(&plies) && plies >= 2 {
        done.push(plies);
        driver.take_back(now).unwrap();
        driver.take_back(now).unwrap();
    } else {
        let mv = host.choose_chess(driver.position().unwrap()).unwrap();
        driver.send_move(mv, now).unwrap();
    }
}
