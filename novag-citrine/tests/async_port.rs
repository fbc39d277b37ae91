//! `serial::AsyncPort` on a real pseudo-terminal pair (`TTYPort::pair`,
//! raw mode): the host's end is the async port, the device's end a blocking
//! `TTYPort` in a thread. Checks that bytes pass unchanged both ways (lines
//! from spec/citrine.md through `Framed<_, HostCodec>`), that a quiet
//! line or a full output buffer does not hold the runtime's only thread,
//! and that a hung-up line ends the stream. Every test is bounded in time:
//! a hang is a failure, not a stuck run.
#![cfg(all(unix, feature = "serial", feature = "tokio"))]

use std::io::{Read, Write};
use std::sync::mpsc;
use std::time::{Duration, Instant};

use futures_util::{SinkExt, StreamExt};
use novag_citrine::codec::HostCodec;
use novag_citrine::message::{Command, Reply};
use novag_citrine::serial::AsyncPort;
use serialport::{SerialPort, TTYPort};
use tokio::io::{AsyncReadExt, AsyncWriteExt};
use tokio_util::codec::Framed;

/// Runs `body` on a current-thread runtime (one thread: a blocking read or
/// write would stop its timers too) in its own thread; fails after `limit`.
fn bounded<F>(limit: Duration, body: impl FnOnce() -> F + Send + 'static)
where
    F: std::future::Future<Output = ()>,
{
    let (tx, rx) = mpsc::channel();
    let worker = std::thread::spawn(move || {
        let rt = tokio::runtime::Builder::new_current_thread()
            .enable_all()
            .build()
            .unwrap();
        rt.block_on(body());
        let _ = tx.send(());
    });
    match rx.recv_timeout(limit) {
        Ok(()) => worker.join().unwrap(),
        // The worker panicked (its assertion is in the join error).
        Err(mpsc::RecvTimeoutError::Disconnected) => {
            std::panic::resume_unwind(worker.join().unwrap_err())
        }
        Err(mpsc::RecvTimeoutError::Timeout) => panic!("no result within {limit:?}: a hang"),
    }
}

/// The device's end reads exactly `n` bytes (or fails after 5 s).
fn read_exactly(master: &mut TTYPort, n: usize) -> Vec<u8> {
    let mut got = vec![0u8; n];
    master.set_timeout(Duration::from_secs(5)).unwrap();
    master.read_exact(&mut got).unwrap();
    got
}

#[test]
fn lines_pass_unchanged_both_ways_and_a_quiet_line_does_not_block() {
    bounded(Duration::from_secs(20), || async {
        let (mut master, slave) = TTYPort::pair().unwrap();
        let mut framed = Framed::new(AsyncPort::new(slave).unwrap(), HostCodec::default());

        // Nothing sent yet: the read waits, and the runtime's timer still
        // fires on the same thread.
        let quiet = tokio::time::timeout(Duration::from_millis(50), framed.next()).await;
        assert!(quiet.is_err(), "a read on a quiet line returned {quiet:?}");

        // Host -> device: `N` and `M e2e4`, each ended with CR LF (spec,
        // *Link* and *Commands*).
        framed.send(&Command::NewGame).await.unwrap();
        assert_eq!(read_exactly(&mut master, 3), b"N\r\n");

        // Device -> host: the spec's reply lines, split across writes.
        master.write_all(b"New Game\r\nM   1   e2").unwrap();
        let first = framed.next().await.unwrap().unwrap();
        assert!(matches!(first, Ok(Reply::NewGame)), "{first:?}");
        master.write_all(b"-e4 |\r\n").unwrap();
        let second = framed.next().await.unwrap().unwrap();
        let Ok(Reply::Move(m)) = second else {
            panic!("{second:?}")
        };
        assert_eq!(m.text.to_string(), "e2-e4");
        assert!(m.bar);
    });
}

#[test]
fn a_full_output_buffer_waits_without_holding_the_thread() {
    // More than a pty's buffer holds (Linux: a few KiB to 64 KiB), so
    // writes must wait until the device's end reads.
    const LEN: usize = 512 * 1024;
    const STALL: Duration = Duration::from_millis(200);
    bounded(Duration::from_secs(30), || async {
        let (mut master, slave) = TTYPort::pair().unwrap();
        let mut port = AsyncPort::new(slave).unwrap();
        let data: Vec<u8> = (0..LEN).map(|i| (i % 251) as u8).collect();
        let expected = data.clone();
        // The device's end starts reading only after STALL.
        let reader = std::thread::spawn(move || {
            std::thread::sleep(STALL);
            read_exactly(&mut master, LEN)
        });
        let started = Instant::now();
        let mut ticks = 0u32;
        let mut ticker = tokio::time::interval(Duration::from_millis(10));
        let write = port.write_all(&data);
        tokio::pin!(write);
        loop {
            tokio::select! {
                r = &mut write => { r.unwrap(); break; }
                _ = ticker.tick() => ticks += 1,
            }
        }
        let elapsed = started.elapsed();
        assert!(
            elapsed >= STALL,
            "{LEN} bytes written in {elapsed:?} with nobody reading"
        );
        // A write that blocked the thread would have let no tick run while
        // the reader slept.
        assert!(ticks >= 10, "{ticks} ticks in {elapsed:?}");
        let got = tokio::task::spawn_blocking(move || reader.join().unwrap())
            .await
            .unwrap();
        assert!(got == expected, "bytes changed on the way");
    });
}

#[test]
fn a_hung_up_line_ends_the_stream() {
    bounded(Duration::from_secs(20), || async {
        let (mut master, slave) = TTYPort::pair().unwrap();
        let mut port = AsyncPort::new(slave).unwrap();
        master.write_all(b"Xmit on\r\n").unwrap();
        let mut buf = [0u8; 64];
        let n = port.read(&mut buf).await.unwrap();
        assert_eq!(&buf[..n], b"Xmit on\r\n");
        // The device's end goes away (as an unplugged adapter does).
        drop(master);
        match port.read(&mut buf).await {
            Ok(0) => {}
            // Linux reports EIO on a pty whose other end closed.
            Err(e) if e.raw_os_error() == Some(nix::libc::EIO) => {}
            other => panic!("read after hang-up: {other:?}"),
        }
    });
}

#[test]
fn without_a_runtime_it_is_an_error_not_a_panic() {
    let (_master, slave) = TTYPort::pair().unwrap();
    let err = AsyncPort::new(slave).unwrap_err();
    assert_eq!(err.kind(), std::io::ErrorKind::Other);
}

#[test]
fn open_names_the_path_it_could_not_open() {
    bounded(Duration::from_secs(5), || async {
        let path = "/dev/no-such-citrine-tty";
        let err = AsyncPort::open(path).unwrap_err();
        assert!(err.to_string().contains(path), "{err}");
    });
}

#[test]
fn open_gives_the_port_its_settings() {
    bounded(Duration::from_secs(5), || async {
        let (_master, slave) = TTYPort::pair().unwrap();
        let path = slave.name().unwrap();
        let port = AsyncPort::open(&path).unwrap();
        // spec/citrine.md, *Link*: 57600 8N1, no flow control.
        let p = port.get_ref();
        assert_eq!(p.data_bits().unwrap(), serialport::DataBits::Eight);
        assert_eq!(p.parity().unwrap(), serialport::Parity::None);
        assert_eq!(p.stop_bits().unwrap(), serialport::StopBits::One);
        assert_eq!(p.flow_control().unwrap(), serialport::FlowControl::None);
        assert_eq!(p.name().as_deref(), Some(path.as_str()));
    });
}
