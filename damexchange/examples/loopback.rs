//! The drivers on loopback: `net::serve` runs a follower on 127.0.0.1 and
//! `net::connect` an initiator against it, both on the family's one loop,
//! both playing the built-in player. One short game (stopped without
//! result after a few plies), every frame printed as it crosses the wire;
//! the whole run is bounded by a 10 s timeout.
//!
//! `cargo run -p damexchange --example loopback --features tokio`

use std::error::Error;
use std::ops::ControlFlow;
use std::time::{Duration, Instant};

use board_core::draughts::Color;
use board_core::player::Player;
use damexchange::net::{self, Activity, Config};
use damexchange::session::{Event, Follower, FollowerConfig, GameOffer, InitiatorConfig};
use damexchange::{GameEndReason, Name};
use tokio::net::TcpListener;

/// The game is stopped (GAMEEND reason 0, no result) at our first turn
/// after this many plies.
const MAX_PLIES: usize = 20;

#[tokio::main(flavor = "current_thread")]
async fn main() -> Result<(), Box<dyn Error>> {
    // The follower: one callback per connection, moving on `Idle`.
    let listener = TcpListener::bind("127.0.0.1:0").await?;
    let addr = listener.local_addr()?;
    let mut follower = Config::new(FollowerConfig::new(Name::new("loopback follower")?));
    follower.session.first_move_delay = Duration::ZERO;
    let server = tokio::spawn(net::serve(
        listener,
        follower,
        |n, _peer| {
            let mut player = Player::new(n);
            move |f: &mut Follower<Instant>, a: Activity<'_, '_, Follower<Instant>>| {
                if matches!(a, Activity::Idle) && f.is_our_turn() {
                    let now = Instant::now();
                    let _ = match f.position().and_then(|p| player.choose_draughts(p)) {
                        Some(mv) => f.send_move(mv, now),
                        None => f.end_game(GameEndReason::SenderLoses, now),
                    };
                }
                ControlFlow::<()>::Continue(())
            }
        },
        |n, how| println!("follower: connection {n} {how}"),
    ));

    // The initiator: GAMEREQ on the first `Idle`, a move on every later
    // `Idle` of our turn, the run ends with the game.
    let mut player = Player::new(7);
    let mut asked = false;
    let config = Config::new(InitiatorConfig::new(Name::new("loopback initiator")?));
    let run = net::connect(addr, config, |i, a| {
        let now = Instant::now();
        match a {
            Activity::Sent { frame, .. } => println!("-> {}", String::from_utf8_lossy(frame)),
            Activity::Received { message, .. } => println!("<- {}", message.describe()),
            Activity::Event(Event::GameEnded(g)) => return ControlFlow::Break(g),
            Activity::Event(e) => println!(":: {e}"),
            Activity::Idle if !asked => {
                asked = true;
                let offer = GameOffer {
                    our_color: Color::White,
                    minutes: 1,
                    moves: 0,
                    start: None,
                };
                i.request_game(offer, now).expect("a first GAMEREQ");
            }
            Activity::Idle if i.is_our_turn() => {
                let _ = match i.position().and_then(|p| player.choose_draughts(p)) {
                    _ if i.moves().len() >= MAX_PLIES => i.end_game(GameEndReason::Unknown, now),
                    Some(mv) => i.send_move(mv, now),
                    None => i.end_game(GameEndReason::SenderLoses, now),
                };
            }
            _ => {}
        }
        ControlFlow::Continue(())
    });
    let ended = tokio::time::timeout(Duration::from_secs(10), run).await??;
    server.abort();
    match ended {
        net::Ended::Break(game) => {
            println!("{}", Event::GameEnded(game));
            Ok(())
        }
        net::Ended::Closed(why) => Err(format!("the connection ended first: {why}").into()),
    }
}
