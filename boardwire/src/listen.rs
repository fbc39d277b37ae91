//! Where `dxp serve` and `csa serve` listen: `--listen HOST:PORT`, the
//! host a name (`localhost`) or an IP address (`127.0.0.1`, `[::1]`),
//! resolved when the server starts.

use tokio::net::TcpListener;

/// Binds `addr` (HOST:PORT): a host name is resolved and the addresses it
/// gives are tried in order until one binds (`localhost` binds
/// 127.0.0.1 or ::1, as the resolver lists them). Prints `listening on
/// <IP>:<PORT>` (the port chosen for port 0) to stderr.
///
/// # Errors
/// `cannot listen on ADDR: <why>` (no port, a name that does not
/// resolve, an address in use or not ours).
pub(crate) async fn listen(addr: &str) -> Result<TcpListener, String> {
    let listener = TcpListener::bind(addr)
        .await
        .map_err(|e| format!("cannot listen on {addr}: {e}"))?;
    let local = listener
        .local_addr()
        .map_err(|e| format!("cannot listen on {addr}: {e}"))?;
    eprintln!("listening on {local}");
    Ok(listener)
}
