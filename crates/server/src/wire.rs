//! The lobby's sockets at the level of bytes: the upgrade's answer, the
//! server's frames, and an outbox written without waiting.
//!
//! Why not the WebSocket type the game sockets use: the lobby writes every
//! batch to every socket (10,000 sockets, 25 batches a second), and that
//! type's send path (a lock shared with the reader, a frame encoded per
//! socket, a reference count touched from every core, a waker registered
//! per send) cost as much as the write itself. Here a batch is encoded once
//! and handed to each socket's outbox, which writes it at once or keeps the
//! rest for a task of its own. What clients send is still read by
//! tungstenite (masking, fragments, control frames, sizes, UTF-8): its
//! writes (a pong, the answer to a close) go through the same outbox, so
//! frames never interleave.

use std::io;
use std::pin::Pin;
use std::sync::{Arc, Mutex};
use std::task::{Context, Poll};
use tokio::io::{AsyncRead, AsyncWrite, ReadBuf};

/// A text frame's opcode.
pub const TEXT: u8 = 0x1;
/// A close frame's opcode.
pub const CLOSE: u8 = 0x8;

/// How long a socket may take to take what it was sent before it is
/// treated as gone.
const FLUSH_TIMEOUT: std::time::Duration = std::time::Duration::from_secs(10);

/// The most a socket may have queued: a client that does not read while
/// it is sent more (its own pings' pongs, say) is treated as gone past it,
/// so no client can make the server hold its messages without bound.
pub const MAX_PENDING: usize = 16 << 20;

/// A whole, unmasked server frame (RFC 6455 §5.2): servers never mask, so
/// one encoding serves every socket.
pub fn frame(opcode: u8, payload: &[u8]) -> Vec<u8> {
    let mut f = Vec::with_capacity(payload.len() + 10);
    f.push(0x80 | (opcode & 0x0f));
    match payload.len() {
        n if n < 126 => f.push(n as u8),
        n if n <= 0xffff => {
            f.push(126);
            f.extend_from_slice(&(n as u16).to_be_bytes());
        }
        n => {
            f.push(127);
            f.extend_from_slice(&(n as u64).to_be_bytes());
        }
    }
    f.extend_from_slice(payload);
    f
}

/// A close frame with its code and reason (the reason cut to fit the 125
/// bytes a control frame may carry).
pub fn close_frame(code: u16, reason: &str) -> Vec<u8> {
    let mut payload = code.to_be_bytes().to_vec();
    let mut end = reason.len().min(123);
    while !reason.is_char_boundary(end) {
        end -= 1;
    }
    payload.extend_from_slice(&reason.as_bytes()[..end]);
    frame(CLOSE, &payload)
}

/// What became of a frame offered to a socket by the fan-out.
#[derive(Debug, PartialEq, Eq)]
pub enum Offer {
    /// Written whole.
    Sent,
    /// Partly written: the rest goes out from a task of its own.
    Queued,
    /// Not taken: the socket is still writing something else.
    Busy,
    /// The socket is gone.
    Broken,
}

/// A socket's connection, read and written.
pub trait Io: AsyncRead + AsyncWrite + Send {}
impl<T: AsyncRead + AsyncWrite + Send> Io for T {}

struct Out {
    /// The connection, not split: the fan-out's write and the reader's read
    /// take turns under one lock (a split would put a second lock, and a
    /// second pointer to follow, on every write).
    io: Pin<Box<dyn Io>>,
    /// Bytes accepted but not yet written (whole frames, in order).
    pending: Vec<u8>,
    /// A task is writing `pending`.
    flushing: bool,
    broken: bool,
}

/// A socket's outbox: frames are written at once when the socket takes
/// them, otherwise kept in order and written by a task of its own.
pub struct Outbox {
    out: Mutex<Out>,
    /// Told once the socket is found gone (a write failed or stalled).
    gone: tokio::sync::Notify,
    /// Told when the queue has been written (or the socket broke).
    drained: tokio::sync::Notify,
}

impl Outbox {
    /// An outbox over a socket's connection.
    pub fn new(io: impl Io + 'static) -> Arc<Outbox> {
        Arc::new(Outbox {
            out: Mutex::new(Out {
                io: Box::pin(io),
                pending: vec![],
                flushing: false,
                broken: false,
            }),
            gone: tokio::sync::Notify::new(),
            drained: tokio::sync::Notify::new(),
        })
    }

    /// Offers a frame without waiting, and without queueing it behind
    /// anything: the fan-out's write, which skips a busy socket (it is sent
    /// the whole lobby once it has caught up).
    pub fn offer(self: &Arc<Self>, frame: &[u8]) -> Offer {
        let Ok(mut out) = self.out.try_lock() else {
            return Offer::Busy;
        };
        if out.broken {
            return Offer::Broken;
        }
        if !out.pending.is_empty() {
            return Offer::Busy;
        }
        self.write(&mut out, frame)
    }

    /// Sends a frame after whatever is queued (answers, the whole lobby, a
    /// close): never waits; what the socket does not take now is written by
    /// a task of its own ([`Outbox::flushed`] waits for it).
    pub fn send(self: &Arc<Self>, frame: &[u8]) {
        let Ok(mut out) = self.out.lock() else { return };
        self.push(&mut out, frame);
    }

    /// Sends the frame `make` answers, made while the outbox is held (the
    /// fan-out finds it busy meanwhile); answers the rest of what `make`
    /// answers.
    pub fn send_with<T>(self: &Arc<Self>, make: impl FnOnce() -> (T, Vec<u8>)) -> T {
        let mut out = self.out.lock().unwrap_or_else(|p| p.into_inner());
        let (value, frame) = make();
        self.push(&mut out, &frame);
        value
    }

    fn push(self: &Arc<Self>, out: &mut Out, frame: &[u8]) {
        if out.broken {
            return;
        }
        if !out.pending.is_empty() {
            if out.pending.len() + frame.len() > MAX_PENDING {
                out.broken = true;
                out.pending = Vec::new();
                self.gone.notify_one();
                return;
            }
            out.pending.extend_from_slice(frame);
            return;
        }
        self.write(out, frame);
    }

    /// Writes a frame to a socket with nothing queued: what it does not
    /// take now is queued for the outbox's task.
    fn write(self: &Arc<Self>, out: &mut Out, frame: &[u8]) -> Offer {
        match write_now(out, frame) {
            Ok(0) => Offer::Sent,
            Ok(_) => {
                self.start_flushing(out);
                Offer::Queued
            }
            Err(()) => {
                self.gone.notify_one();
                Offer::Broken
            }
        }
    }

    /// Waits until everything sent has been written (false: the socket is
    /// gone, or took more than ten seconds). Only the outbox's own task
    /// polls the socket (a socket wakes one writer): this waits for it.
    pub async fn flushed(&self) -> bool {
        let wait = async {
            loop {
                let drained = self.drained.notified();
                tokio::pin!(drained);
                drained.as_mut().enable();
                match self.out.lock() {
                    Ok(out) if out.broken => return false,
                    Ok(out) if out.pending.is_empty() => return true,
                    Ok(_) => {}
                    Err(_) => return false,
                }
                drained.await;
            }
        };
        tokio::time::timeout(FLUSH_TIMEOUT, wait)
            .await
            .unwrap_or(false)
    }

    /// Resolves once the socket is found gone.
    pub async fn gone(&self) {
        self.gone.notified().await;
    }

    /// Bytes are queued: a task writes them (one at a time; whatever is
    /// queued while it writes, it writes too).
    fn start_flushing(self: &Arc<Self>, out: &mut Out) {
        if out.flushing {
            return;
        }
        out.flushing = true;
        let this = self.clone();
        tokio::spawn(async move {
            loop {
                let polled = this.clone();
                let written = std::future::poll_fn(move |cx| polled.poll_pending(cx));
                let ok = matches!(tokio::time::timeout(FLUSH_TIMEOUT, written).await, Ok(true));
                let Ok(mut out) = this.out.lock() else { return };
                if ok && !out.pending.is_empty() {
                    continue;
                }
                out.flushing = false;
                out.broken |= !ok;
                drop(out);
                this.drained.notify_waiters();
                if !ok {
                    this.gone.notify_one();
                }
                return;
            }
        });
    }

    /// Writes what is queued; ready when nothing is (true) or the socket
    /// broke (false).
    fn poll_pending(&self, cx: &mut Context<'_>) -> Poll<bool> {
        let Ok(mut out) = self.out.lock() else {
            return Poll::Ready(false);
        };
        let out = &mut *out;
        loop {
            if out.broken {
                return Poll::Ready(false);
            }
            if out.pending.is_empty() {
                // A socket that once fell behind does not keep the room.
                out.pending = Vec::new();
                return Poll::Ready(true);
            }
            match out.io.as_mut().poll_write(cx, &out.pending) {
                Poll::Ready(Ok(n)) if n > 0 => {
                    out.pending.drain(..n);
                }
                Poll::Ready(_) => {
                    out.broken = true;
                    return Poll::Ready(false);
                }
                Poll::Pending => return Poll::Pending,
            }
        }
    }
}

/// Writes as much of `frame` as the socket takes now; the rest is queued.
/// Answers how many bytes were queued, or `Err` when the socket is gone.
fn write_now(out: &mut Out, frame: &[u8]) -> Result<usize, ()> {
    // Nothing is woken by this poll: when the socket is full, the task
    // that writes the rest polls it again with a waker of its own.
    let mut cx = Context::from_waker(std::task::Waker::noop());
    let mut at = 0;
    while at < frame.len() {
        match out.io.as_mut().poll_write(&mut cx, &frame[at..]) {
            Poll::Ready(Ok(n)) if n > 0 => at += n,
            Poll::Ready(_) => {
                out.broken = true;
                return Err(());
            }
            Poll::Pending => break,
        }
    }
    out.pending.extend_from_slice(&frame[at..]);
    Ok(frame.len() - at)
}

/// What tungstenite reads a socket through: reads from the connection
/// (under the outbox's lock, for the moment of the read), and writes (its
/// pongs and close answers) into the outbox, which takes every byte at once,
/// so a frame is never split between writes.
pub struct Wire {
    out: Arc<Outbox>,
}

impl Wire {
    /// The reading side of an outbox's connection.
    pub fn new(out: Arc<Outbox>) -> Wire {
        Wire { out }
    }
}

impl AsyncRead for Wire {
    fn poll_read(
        self: Pin<&mut Self>,
        cx: &mut Context<'_>,
        buf: &mut ReadBuf<'_>,
    ) -> Poll<io::Result<()>> {
        match self.out.out.lock() {
            Ok(mut out) => out.io.as_mut().poll_read(cx, buf),
            Err(_) => Poll::Ready(Err(io::Error::other("the socket's lock was poisoned"))),
        }
    }
}

impl AsyncWrite for Wire {
    fn poll_write(
        self: Pin<&mut Self>,
        _: &mut Context<'_>,
        buf: &[u8],
    ) -> Poll<io::Result<usize>> {
        self.out.send(buf);
        Poll::Ready(Ok(buf.len()))
    }

    fn poll_flush(self: Pin<&mut Self>, _: &mut Context<'_>) -> Poll<io::Result<()>> {
        Poll::Ready(Ok(()))
    }

    fn poll_shutdown(self: Pin<&mut Self>, _: &mut Context<'_>) -> Poll<io::Result<()>> {
        Poll::Ready(Ok(()))
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use tokio::io::AsyncReadExt;

    #[test]
    fn frames_carry_their_length_in_the_shortest_form() {
        assert_eq!(frame(TEXT, b"hi"), [0x81, 2, b'h', b'i']);
        let mid = frame(TEXT, &[b'x'; 300]);
        assert_eq!(&mid[..4], &[0x81, 126, 1, 44]);
        assert_eq!(mid.len(), 304);
        let big = frame(TEXT, &vec![b'x'; 70_000]);
        assert_eq!(&big[..2], &[0x81, 127]);
        assert_eq!(u64::from_be_bytes(big[2..10].try_into().unwrap()), 70_000);
        // A close frame's reason is cut to fit, on a character boundary.
        let close = close_frame(1012, &"é".repeat(100));
        assert_eq!(close[0], 0x88);
        assert!(close[1] <= 125);
        assert!(std::str::from_utf8(&close[4..]).is_ok());
    }

    #[tokio::test]
    async fn a_full_socket_keeps_the_rest_in_order_and_a_busy_one_is_skipped() {
        let (near, mut far) = tokio::io::duplex(64);
        let out = Outbox::new(near);
        assert_eq!(out.offer(b"0123456789"), Offer::Sent);
        // More than the pipe holds: the rest is queued, and the next batch
        // is not taken meanwhile (it would come in the middle of a frame).
        let long: Vec<u8> = (0..200u8).collect();
        assert_eq!(out.offer(&long), Offer::Queued);
        assert_eq!(out.offer(b"skipped"), Offer::Busy);
        out.send(b"after");
        let mut got = vec![];
        let mut buf = [0u8; 32];
        while got.len() < 10 + 200 + 5 {
            let n = far.read(&mut buf).await.unwrap();
            got.extend_from_slice(&buf[..n]);
        }
        assert!(out.flushed().await);
        let mut want = b"0123456789".to_vec();
        want.extend_from_slice(&long);
        want.extend_from_slice(b"after");
        assert_eq!(got, want);
        assert_eq!(out.offer(b"again"), Offer::Sent);
    }

    #[tokio::test]
    async fn a_client_that_never_reads_cannot_make_the_queue_grow_without_bound() {
        let (near, _far) = tokio::io::duplex(64);
        let out = Outbox::new(near);
        let pong = frame(0xA, &[b'p'; 125]);
        let mut sent = 0;
        while out.offer(b"x") != Offer::Broken {
            out.send(&pong);
            sent += pong.len();
            assert!(sent <= MAX_PENDING + 2 * pong.len(), "stopped at the bound");
        }
        tokio::time::timeout(std::time::Duration::from_secs(1), out.gone())
            .await
            .unwrap();
        assert!(!out.flushed().await);
    }

    #[tokio::test]
    async fn a_socket_gone_is_told() {
        let (near, far) = tokio::io::duplex(64);
        let out = Outbox::new(near);
        drop(far);
        assert_eq!(out.offer(b"x"), Offer::Broken);
        tokio::time::timeout(std::time::Duration::from_secs(1), out.gone())
            .await
            .unwrap();
        assert!(!out.flushed().await);
    }
}
