//! The driver on loopback: `net::serve` on an ephemeral port of 127.0.0.1
//! and two `Client`s, each run over TCP by `net::run` (the family's one
//! tokio driver, `boardwire_proto::drive::tokio`, which any `Session` of
//! `damexchange`, `csa-protocol` and `novag-citrine` runs on). The callback
//! sees every line sent and received, the session's events, and `Idle`
//! (the moment to move); it returns `ControlFlow::Break` to end the run.
//! Bounded: the whole example gives up after 20 seconds.
//!
//! `cargo run -p csa-protocol --features tokio --example csa_loopback`

use std::error::Error;
use std::ops::ControlFlow;
use std::time::{Duration, Instant};

use board_core::player::Player;
use csa_protocol::net::{self, Activity, Config, Ended};
use csa_protocol::session::{ClientConfig, Event, Outcome, ServerConfig};
use csa_protocol::types::{Password, UserName};
use tokio::net::{TcpListener, TcpStream};

const MAX_PLIES: usize = 10;

#[tokio::main(flavor = "current_thread")]
async fn main() -> Result<(), Box<dyn Error>> {
    let listener = TcpListener::bind("127.0.0.1:0").await?;
    let addr = listener.local_addr()?;
    tokio::spawn(net::serve(
        listener,
        Config::new(ServerConfig::default()),
        |_| ControlFlow::Continue(()),
    ));
    let game = async { tokio::join!(play(addr, "alice", 1), play(addr, "bob", 2)) };
    let (a, b) = tokio::time::timeout(Duration::from_secs(20), game).await?;
    let (a, b) = (a?, b?);
    println!("alice {a}, bob {b}");
    assert!(matches!(
        (a, b),
        (Outcome::Won, Outcome::Lost) | (Outcome::Lost, Outcome::Won)
    ));
    Ok(())
}

async fn play(
    addr: std::net::SocketAddr,
    name: &str,
    seed: u64,
) -> Result<Outcome, Box<dyn Error>> {
    let stream = TcpStream::connect(addr).await?;
    let config = ClientConfig::new(
        UserName::new(name.to_owned())?,
        Password::new("example-600-10")?,
    );
    let mut player = Player::new(seed);
    let ended = net::run(stream, Config::new(config), |client, activity| {
        match activity {
            Activity::Sent { frame, .. } => {
                println!("{name} -> {}", String::from_utf8_lossy(frame))
            }
            Activity::Received { message, .. } => println!("{name} <- {}", message.shown()),
            Activity::Event(Event::GameSummary(_)) => client.agree(Instant::now()).unwrap(),
            Activity::Event(Event::GameEnded(end)) => return ControlFlow::Break(end.outcome),
            Activity::Idle if client.is_our_turn() => {
                let now = Instant::now();
                let position = *client.position().unwrap();
                match player.choose_shogi(&position) {
                    Some(mv) if client.moves().len() < MAX_PLIES => {
                        client.send_move(mv, now).unwrap()
                    }
                    _ => client.resign(now).unwrap(),
                }
            }
            _ => {}
        }
        ControlFlow::Continue(())
    })
    .await?;
    match ended {
        Ended::Break(outcome) => Ok(outcome),
        Ended::Closed(why) => Err(format!("{name}: {why}").into()),
    }
}
