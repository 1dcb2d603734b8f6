//! The lobby benchmark's sockets, read by one thread: the load generator
//! shares the machine with the server it measures, and every cycle it
//! spends is taken from the server. A task per socket, woken for every
//! batch, cost it more than the reads themselves (tens of thousands of
//! wake-ups a second at 10,000 sockets), so one thread reads them all, by
//! hand (the server's frames are unmasked, whole and small).
//!
//! The sampled sockets time the changes they are told: they wait on the
//! operating system's readiness queue (mio) and are read the moment a
//! frame arrives. The others only count their frames and take as little
//! of the machine as they can (from another machine they would take none
//! of the server's): they are not in the readiness queue (no wake-up per
//! frame) and are read in turn, all of them every [`SWEEP`], a few hundred
//! between two looks at the queue so the sampled ones are never kept
//! waiting. The server's work is the
//! same either way: each frame reaches each socket's receive buffer the
//! moment it is written.

use anyhow::{Context, Result};
use serde::Deserialize;
use std::collections::{HashMap, HashSet};
use std::io::Read;
use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::{mpsc, Arc, Mutex};
use std::time::{Duration, Instant};

/// When each change was asked for, shared by the requests and the reader.
pub(crate) type Asked = Mutex<Changes>;

/// A change of a seek the benchmark asks for.
#[derive(Clone, Copy)]
pub(crate) enum Change {
    /// The seek was made.
    Made = 0,
    /// It was taken.
    Gone = 1,
}

/// The changes asked for, by seek id: each with its number (a sampled
/// socket notes the ones it has timed in a bit set, with no hashing) and
/// when it was asked for.
#[derive(Default)]
pub(crate) struct Changes {
    by_seek: HashMap<String, [Option<(usize, Instant)>; 2]>,
    count: usize,
}

impl Changes {
    /// Notes a change asked for at `at`.
    pub(crate) fn ask(&mut self, seek: &str, change: Change, at: Instant) {
        let n = self.count;
        self.count += 1;
        self.by_seek.entry(seek.to_string()).or_default()[change as usize] = Some((n, at));
    }

    fn get(&self, seek: &str, change: Change) -> Option<(usize, Instant)> {
        self.by_seek.get(seek)?[change as usize]
    }
}

/// What the sockets saw, once the reading stopped.
pub(crate) struct Outcome {
    /// Per change and sampled socket: from the request to its arrival, ms.
    pub(crate) pushes: Vec<f64>,
    /// Sockets closed or broken before the end.
    pub(crate) failed: usize,
    /// Frames received over all sockets.
    pub(crate) messages: u64,
}

/// The reading thread, and how to stop it.
pub(crate) struct Readers {
    hand: Hand,
    stop: Arc<AtomicBool>,
    thread: std::thread::JoinHandle<Outcome>,
}

/// Hands sockets to the reading thread: cloned into each task that opens
/// one.
#[derive(Clone)]
pub(crate) struct Hand {
    send: mpsc::Sender<(std::net::TcpStream, bool)>,
    waker: Arc<mio::Waker>,
}

/// The waker's token (sampled sockets take the numbers from 0).
const WAKE: mio::Token = mio::Token(usize::MAX);

/// How often each counting socket is read: a few batches gather in its
/// receive buffer meanwhile (a few KiB, far below the buffer's size, so
/// the server's writes never wait for the reader).
const SWEEP: Duration = Duration::from_millis(200);

/// Counting sockets read between two looks at the readiness queue (about
/// a millisecond of reads).
const STEP: usize = 200;

impl Readers {
    /// Starts the reading thread.
    ///
    /// # Errors
    /// The readiness queue cannot be made.
    pub(crate) fn start(asked: Arc<Asked>) -> Result<Readers> {
        let poll = mio::Poll::new().context("a readiness queue")?;
        let waker = Arc::new(mio::Waker::new(poll.registry(), WAKE)?);
        let (send, receive) = mpsc::channel();
        let stop = Arc::new(AtomicBool::new(false));
        let thread = {
            let stop = stop.clone();
            std::thread::spawn(move || read_all(poll, &receive, &stop, &asked))
        };
        Ok(Readers {
            hand: Hand { send, waker },
            stop,
            thread,
        })
    }

    /// What hands the thread its sockets.
    pub(crate) fn hand(&self) -> Hand {
        self.hand.clone()
    }

    /// Stops reading and answers what was seen.
    pub(crate) fn finish(self) -> Outcome {
        self.stop.store(true, Ordering::SeqCst);
        let _ = self.hand.waker.wake();
        self.thread.join().unwrap_or(Outcome {
            pushes: vec![],
            failed: 0,
            messages: 0,
        })
    }
}

impl Hand {
    /// Hands over an upgraded socket (its frames not read yet); `sampled`
    /// ones time the changes they are told.
    ///
    /// # Errors
    /// The reading thread has ended.
    pub(crate) fn add(&self, stream: std::net::TcpStream, sampled: bool) -> Result<()> {
        stream.set_nonblocking(true)?;
        self.send
            .send((stream, sampled))
            .map_err(|_| anyhow::anyhow!("the reading thread has ended"))?;
        self.waker.wake()?;
        Ok(())
    }
}

/// One socket as the reader follows it.
struct Socket {
    stream: mio::net::TcpStream,
    /// The frame head read so far (2 to 10 bytes).
    head: Vec<u8>,
    /// Payload bytes of the current frame still to come.
    skip: usize,
    /// Closed or broken.
    done: bool,
    /// What a sampled socket keeps.
    sample: Option<Sample>,
}

/// A sampled socket: the current frame's payload and the changes already
/// timed, by number (a change may come twice: in a batch, and in the
/// whole lobby sent after falling behind).
#[derive(Default)]
struct Sample {
    payload: Vec<u8>,
    timed: Vec<u64>,
}

impl Sample {
    /// Notes a change timed; false if it was already.
    fn first(&mut self, n: usize) -> bool {
        let (word, bit) = (n / 64, 1u64 << (n % 64));
        if self.timed.len() <= word {
            self.timed.resize(word + 1, 0);
        }
        let first = self.timed[word] & bit == 0;
        self.timed[word] |= bit;
        first
    }
}

/// The part of a lobby message a sampled socket reads.
#[derive(Deserialize)]
struct Message<'a> {
    #[serde(rename = "type", borrow)]
    kind: &'a str,
    #[serde(default, borrow)]
    added: Vec<Id<'a>>,
    #[serde(default, borrow)]
    gone: Vec<Id<'a>>,
    /// The whole lobby (sent to a socket that fell behind).
    #[serde(default, borrow)]
    seeks: Vec<Id<'a>>,
}

#[derive(Deserialize)]
struct Id<'a> {
    #[serde(borrow)]
    id: &'a str,
}

fn read_all(
    mut poll: mio::Poll,
    receive: &mpsc::Receiver<(std::net::TcpStream, bool)>,
    stop: &AtomicBool,
    asked: &Asked,
) -> Outcome {
    let mut sampled: Vec<Socket> = vec![];
    let mut counting = Sweep {
        sockets: vec![],
        next: 0,
        round: Instant::now(),
    };
    let mut out = Outcome {
        pushes: vec![],
        failed: 0,
        messages: 0,
    };
    let mut events = mio::Events::with_capacity(1024);
    let mut buf = vec![0u8; 64 * 1024];
    loop {
        let wait = if counting.sockets.is_empty() {
            Duration::from_millis(100)
        } else {
            Duration::from_millis(2)
        };
        if poll.poll(&mut events, Some(wait)).is_err() {
            continue;
        }
        for event in &events {
            let token = event.token();
            if token == WAKE {
                continue;
            }
            let Some(s) = sampled.get_mut(token.0) else {
                continue;
            };
            if s.done {
                continue;
            }
            read_socket(s, &mut buf, &mut out, asked);
            if s.done {
                out.failed += 1;
                let _ = poll.registry().deregister(&mut s.stream);
            }
        }
        counting.step(&mut buf, &mut out, asked);
        while let Ok((stream, is_sampled)) = receive.try_recv() {
            let mut stream = mio::net::TcpStream::from_std(stream);
            if is_sampled {
                let token = mio::Token(sampled.len());
                if poll
                    .registry()
                    .register(&mut stream, token, mio::Interest::READABLE)
                    .is_err()
                {
                    out.failed += 1;
                    continue;
                }
            }
            let mut s = Socket {
                stream,
                head: Vec::with_capacity(10),
                skip: 0,
                done: false,
                sample: is_sampled.then(Sample::default),
            };
            // What came before it was registered (the whole lobby).
            read_socket(&mut s, &mut buf, &mut out, asked);
            if s.done {
                out.failed += 1;
            }
            if is_sampled {
                sampled.push(s);
            } else {
                counting.sockets.push(s);
            }
        }
        if stop.load(Ordering::SeqCst) {
            // The frames still in the counting sockets' buffers.
            counting.next = 0;
            counting.read(counting.sockets.len(), &mut buf, &mut out, asked);
            return out;
        }
    }
}

/// The counting sockets, read in turn.
struct Sweep {
    sockets: Vec<Socket>,
    /// The next one to read.
    next: usize,
    /// When this round began.
    round: Instant,
}

impl Sweep {
    /// Reads the sockets due by now (their share of [`SWEEP`]), at most
    /// [`STEP`] of them; a round that has read them all and lasted a
    /// [`SWEEP`] starts again.
    fn step(&mut self, buf: &mut [u8], out: &mut Outcome, asked: &Asked) {
        let n = self.sockets.len();
        if self.next >= n {
            if self.round.elapsed() < SWEEP {
                return;
            }
            self.next = 0;
            self.round = Instant::now();
        }
        let share = self.round.elapsed().as_secs_f64() / SWEEP.as_secs_f64();
        let due = ((n as f64 * share).ceil() as usize).clamp(self.next, n);
        self.read(due.min(self.next + STEP), buf, out, asked);
    }

    /// Reads the sockets from the next one up to `end`.
    fn read(&mut self, end: usize, buf: &mut [u8], out: &mut Outcome, asked: &Asked) {
        for s in &mut self.sockets[self.next..end] {
            if !s.done {
                read_socket(s, buf, out, asked);
                if s.done {
                    out.failed += 1;
                }
            }
        }
        self.next = end;
    }
}

/// Reads what a socket has now (until a read comes back short: the next
/// bytes to arrive raise a new event).
fn read_socket(s: &mut Socket, buf: &mut [u8], out: &mut Outcome, asked: &Asked) {
    loop {
        match s.stream.read(buf) {
            Ok(0) => {
                s.done = true;
                return;
            }
            Ok(n) => {
                let now = Instant::now();
                if !frames(s, &buf[..n], now, out, asked) {
                    s.done = true;
                    return;
                }
                if n < buf.len() {
                    return;
                }
            }
            Err(e) if e.kind() == std::io::ErrorKind::Interrupted => {}
            Err(e) if e.kind() == std::io::ErrorKind::WouldBlock => return,
            Err(_) => {
                s.done = true;
                return;
            }
        }
    }
}

/// Follows the frames in `bytes`; false once the server closed the socket.
fn frames(s: &mut Socket, bytes: &[u8], now: Instant, out: &mut Outcome, asked: &Asked) -> bool {
    let mut i = 0;
    while i < bytes.len() {
        if s.skip > 0 {
            let k = s.skip.min(bytes.len() - i);
            if let Some(sample) = &mut s.sample {
                sample.payload.extend_from_slice(&bytes[i..i + k]);
            }
            s.skip -= k;
            i += k;
            if s.skip == 0 {
                frame_done(s, now, out, asked);
            }
            continue;
        }
        s.head.push(bytes[i]);
        i += 1;
        if s.head.len() < 2 {
            continue;
        }
        let extra = match s.head[1] & 0x7f {
            126 => 2,
            127 => 8,
            _ => 0,
        };
        if s.head.len() < 2 + extra {
            continue;
        }
        if s.head[0] & 0x0f == 8 {
            return false;
        }
        s.skip = match extra {
            0 => (s.head[1] & 0x7f) as usize,
            2 => u16::from_be_bytes([s.head[2], s.head[3]]) as usize,
            _ => s.head[2..10]
                .iter()
                .fold(0usize, |a, b| (a << 8) | *b as usize),
        };
        s.head.clear();
        if s.skip == 0 {
            frame_done(s, now, out, asked);
        }
    }
    true
}

/// A whole frame has come: counted, and on a sampled socket each change it
/// tells is timed against its request.
fn frame_done(s: &mut Socket, now: Instant, out: &mut Outcome, asked: &Asked) {
    out.messages += 1;
    let Some(sample) = &mut s.sample else {
        return;
    };
    let payload = std::mem::take(&mut sample.payload);
    if let Ok(m) = serde_json::from_slice::<Message<'_>>(&payload) {
        time(sample, &m, now, out, asked);
    }
    sample.payload = payload;
    sample.payload.clear();
}

/// Times the changes a message tells a sampled socket.
fn time(sample: &mut Sample, m: &Message<'_>, now: Instant, out: &mut Outcome, asked: &Asked) {
    let Ok(asked) = asked.lock() else { return };
    let mut note = |change: Option<(usize, Instant)>| {
        if let Some((n, t)) = change {
            if sample.first(n) {
                out.pushes
                    .push(now.saturating_duration_since(t).as_secs_f64() * 1000.0);
            }
        }
    };
    match m.kind {
        "lobby" => {
            for s in &m.added {
                note(asked.get(s.id, Change::Made));
            }
            for s in &m.gone {
                note(asked.get(s.id, Change::Gone));
            }
        }
        "seeks" => {
            // The whole lobby: what is in it was made, what was taken and
            // is not in it is gone.
            let open: HashSet<&str> = m.seeks.iter().map(|s| s.id).collect();
            for (id, changes) in &asked.by_seek {
                let change = if open.contains(id.as_str()) {
                    Change::Made
                } else {
                    Change::Gone
                };
                note(changes[change as usize]);
            }
        }
        _ => {}
    }
}
