//! Tokio adapters (feature `tokio`): the sans-IO sessions on real TCP.
//!
//! - [`serve`]: one task owns the [`Server`] session; each connection has a
//!   reader task (bytes in) and a writer task (bytes out); the session's
//!   timers run on `tokio::time`.
//! - [`play`]: drives a [`Client`] session on a stream with a move-choosing
//!   function and an event callback.

use std::collections::HashMap;
use std::io;
use std::time::{Instant, SystemTime, UNIX_EPOCH};
use std::vec;
use std::vec::Vec;

use tokio::io::{AsyncReadExt, AsyncWriteExt};
use tokio::net::{TcpListener, TcpStream};
use tokio::sync::mpsc;

use crate::session::client::{Client, ClientConfig, ClientEvent};
use crate::session::server::{ConnId, Output, Server, ServerConfig};

enum Input {
    Accepted(TcpStream),
    Data(ConnId, Vec<u8>),
    Closed(ConnId),
}

fn unix_now() -> u64 {
    SystemTime::now()
        .duration_since(UNIX_EPOCH)
        .map_or(0, |d| d.as_secs())
}

/// Runs a CSA server on `listener` until the listener fails.
///
/// # Errors
/// The listener's accept error.
pub async fn serve(listener: TcpListener, config: ServerConfig) -> io::Result<()> {
    let (tx, mut rx) = mpsc::unbounded_channel::<Input>();
    let accept_tx = tx.clone();
    let acceptor = tokio::spawn(async move {
        loop {
            match listener.accept().await {
                Ok((stream, _)) => {
                    let _ = stream.set_nodelay(true);
                    if accept_tx.send(Input::Accepted(stream)).is_err() {
                        return Ok(());
                    }
                }
                Err(e) => return Err(e),
            }
        }
    });
    let mut server = Server::new(config, Instant::now(), unix_now());
    let mut writers: HashMap<ConnId, mpsc::UnboundedSender<Option<Vec<u8>>>> = HashMap::new();
    loop {
        let deadline = server.poll_timeout();
        let input = match deadline {
            Some(d) => {
                tokio::select! {
                    i = rx.recv() => i,
                    () = tokio::time::sleep_until(tokio::time::Instant::from_std(d)) => {
                        server.handle_timeout(Instant::now());
                        flush(&mut server, &mut writers);
                        continue;
                    }
                }
            }
            None => rx.recv().await,
        };
        let Some(input) = input else { break };
        let now = Instant::now();
        match input {
            Input::Accepted(stream) => {
                let id = server.handle_connect(now);
                let (mut read, mut write) = stream.into_split();
                let (wtx, mut wrx) = mpsc::unbounded_channel::<Option<Vec<u8>>>();
                writers.insert(id, wtx);
                let rtx = tx.clone();
                tokio::spawn(async move {
                    let mut buf = vec![0u8; 4096];
                    loop {
                        match read.read(&mut buf).await {
                            Ok(0) | Err(_) => {
                                let _ = rtx.send(Input::Closed(id));
                                return;
                            }
                            Ok(n) => {
                                if rtx.send(Input::Data(id, buf[..n].to_vec())).is_err() {
                                    return;
                                }
                            }
                        }
                    }
                });
                tokio::spawn(async move {
                    while let Some(msg) = wrx.recv().await {
                        match msg {
                            Some(bytes) => {
                                if write.write_all(&bytes).await.is_err() {
                                    return;
                                }
                            }
                            None => {
                                let _ = write.shutdown().await;
                                return;
                            }
                        }
                    }
                });
            }
            Input::Data(id, bytes) => server.handle_data(id, &bytes, now),
            Input::Closed(id) => {
                server.handle_disconnect(id, now);
                writers.remove(&id);
            }
        }
        flush(&mut server, &mut writers);
    }
    acceptor.abort();
    Ok(())
}

fn flush(
    server: &mut Server<Instant>,
    writers: &mut HashMap<ConnId, mpsc::UnboundedSender<Option<Vec<u8>>>>,
) {
    while let Some(o) = server.poll_output() {
        match o {
            Output::Send { conn, data } => {
                if let Some(w) = writers.get(&conn) {
                    let _ = w.send(Some(data));
                }
            }
            Output::Close { conn } => {
                if let Some(w) = writers.remove(&conn) {
                    let _ = w.send(None);
                }
            }
        }
    }
}

/// Drives a client session on `stream` until the connection closes or the
/// session is disconnected (CSA mode: after the game; x1 mode: call
/// [`Client::logout`] from `on_event` to finish).
///
/// `choose` is asked for a move whenever it is our turn (`None` resigns);
/// `on_event` sees every event and may act on the session (e.g. log out).
/// Games are agreed to automatically.
///
/// # Errors
/// I/O errors of the stream.
pub async fn play(
    stream: TcpStream,
    config: ClientConfig,
    mut choose: impl FnMut(&Client<Instant>) -> Option<crate::CsaMove>,
    mut on_event: impl FnMut(&mut Client<Instant>, &ClientEvent),
) -> io::Result<Client<Instant>> {
    let _ = stream.set_nodelay(true);
    let (mut read, mut write) = stream.into_split();
    let mut client = Client::new(config, Instant::now());
    let mut buf = vec![0u8; 8192];
    loop {
        // Events and actions.
        while let Some(e) = client.poll_event() {
            let now = Instant::now();
            match &e {
                ClientEvent::Summary(_) => {
                    let _ = client.agree(now);
                }
                ClientEvent::OurTurn { .. } => match choose(&client) {
                    Some(mv) => {
                        let _ = client.play(mv, None, now);
                    }
                    None => {
                        let _ = client.special(crate::SpecialMove::Toryo, now);
                    }
                },
                _ => {}
            }
            on_event(&mut client, &e);
        }
        while let Some(bytes) = client.poll_transmit() {
            write.write_all(&bytes).await?;
        }
        let deadline = client.poll_timeout();
        let n = match deadline {
            Some(d) => {
                tokio::select! {
                    r = read.read(&mut buf) => r?,
                    () = tokio::time::sleep_until(tokio::time::Instant::from_std(d)) => {
                        client.handle_timeout(Instant::now());
                        continue;
                    }
                }
            }
            None => read.read(&mut buf).await?,
        };
        if n == 0 {
            client.handle_close();
            while let Some(e) = client.poll_event() {
                on_event(&mut client, &e);
            }
            return Ok(client);
        }
        client.handle_data(&buf[..n], Instant::now());
    }
}
