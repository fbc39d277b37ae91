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
    let fail = |e: std::io::Error| format!("cannot listen on {addr}: {e}");
    let mut last = None;
    let mut bound = None;
    for a in tokio::net::lookup_host(addr).await.map_err(fail)? {
        match bind(a) {
            Ok(l) => {
                bound = Some(l);
                break;
            }
            Err(e) => last = Some(e),
        }
    }
    let listener =
        bound.ok_or_else(|| fail(last.unwrap_or_else(|| std::io::Error::other("no address"))))?;
    let local = listener
        .local_addr()
        .map_err(|e| format!("cannot listen on {addr}: {e}"))?;
    eprintln!("listening on {local}");
    Ok(listener)
}

/// Connections the kernel may hold before `accept` (`listen(2)`'s backlog;
/// the kernel caps it at `net.core.somaxconn`). `TcpListener::bind` asks
/// for 128, which a burst of connecting clients overflows (lost SYNs are
/// sent again after 1 s).
const BACKLOG: u32 = 1024;

/// `addr` bound and listening with [`BACKLOG`] (address reuse on, as
/// `TcpListener::bind` sets it on Unix).
fn bind(addr: std::net::SocketAddr) -> std::io::Result<TcpListener> {
    let socket = if addr.is_ipv4() {
        tokio::net::TcpSocket::new_v4()?
    } else {
        tokio::net::TcpSocket::new_v6()?
    };
    #[cfg(unix)]
    socket.set_reuseaddr(true)?;
    socket.bind(addr)?;
    socket.listen(BACKLOG)
}
