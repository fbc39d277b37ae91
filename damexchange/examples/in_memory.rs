//! An `Initiator` and a `Follower` wired together in memory, no sockets:
//! what one side transmits is fed to the other's `handle_input`. Both play
//! with board-core's built-in `Player` until the game ends (a side with no
//! legal move loses, and resigns with GAMEEND) or a ply limit is reached.
//!
//! `cargo run -p damexchange --example in_memory`

use core::time::Duration;

use board_core::draughts::Color;
use board_core::player::Player;
use damexchange::session::memory::{Side, handle_timeouts, next_deadline, pump};
use damexchange::session::{
    Event, Follower, FollowerConfig, GameOffer, Initiator, InitiatorConfig,
};
use damexchange::{GameEndReason, Name};

/// A game still running after this many plies is ended without result.
const MAX_PLIES: usize = 120;

fn main() -> Result<(), Box<dyn std::error::Error>> {
    // A clock of our own: the sessions never read one.
    let mut now = Duration::ZERO;
    let mut init = Initiator::new(InitiatorConfig::new(Name::new("Init")?), now);
    let mut config = FollowerConfig::new(Name::new("Follow")?);
    config.first_move_delay = Duration::ZERO;
    let mut follow = Follower::new(config, now);
    let (mut p1, mut p2) = (Player::new(1), Player::new(2));

    init.request_game(
        GameOffer {
            our_color: Color::White,
            minutes: 5,
            moves: 0,
            start: None,
        },
        now,
    )?;
    // The loop that works for every session of the family
    // (`session::memory`): deliver everything, act, and move the clock to
    // the next deadline only when nothing moved and nobody acted.
    let mut ended = false;
    loop {
        let moved = pump(&mut init, &mut follow, now, |e| {
            let (who, e) = match e {
                Side::A(e) => ("initiator", e),
                Side::B(e) => ("follower", e),
            };
            println!("{who}: {e}");
            ended |= matches!(e, Event::GameEnded(_));
        });
        let acted = if let Some(pos) = init.position().copied()
            && init.is_our_turn()
        {
            match p1.choose_draughts(&pos) {
                Some(mv) => init.send_move(mv, now)?,
                None => init.end_game(GameEndReason::SenderLoses, now)?,
            }
            true
        } else if let Some(pos) = follow.position().copied()
            && follow.is_our_turn()
        {
            if init.moves().len() >= MAX_PLIES {
                follow.end_game(GameEndReason::Unknown, now)?;
            } else {
                match p2.choose_draughts(&pos) {
                    Some(mv) => follow.send_move(mv, now)?,
                    None => follow.end_game(GameEndReason::SenderLoses, now)?,
                }
            }
            true
        } else {
            false
        };
        if moved || acted {
            continue;
        }
        // Quiet: the game is over, or a session waits for its clock (the
        // follower's first-move delay, a peer's silence).
        match next_deadline(&init, &follow) {
            Some(t) if !ended => {
                now = now.max(t);
                handle_timeouts(&mut init, &mut follow, now);
            }
            _ => break,
        }
    }
    // The finished game stays readable until the next one starts.
    println!(
        "{} plies played; final position: {}",
        init.moves().len(),
        init.position().ok_or("no game")?
    );
    assert_eq!(init.moves(), follow.moves());
    Ok(())
}
