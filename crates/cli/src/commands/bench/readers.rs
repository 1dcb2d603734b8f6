//! The lobby benchmark's sockets, read by one thread over the operating
//! system's readiness queue (mio): the load generator shares the machine
//! with the server it measures, and a task per socket, woken for every
//! batch, cost it more than the reads themselves (tens of thousands of
//! wake-ups a second at 10,000 sockets). Each socket's frames are read by
//! hand (the server's frames are unmasked, whole and small); most sockets
//! only count them, the sampled ones also parse each message and time the
//! changes it carries.

use anyhow::{Context, Result};
use serde::Deserialize;
use std::collections::{HashMap, HashSet};
use std::io::Read;
use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::{mpsc, Arc, Mutex};
use std::time::{Duration, Instant};

/// When each change was asked for: `+id` made, `-id` taken.
pub(crate) type Asked = Mutex<HashMap<String, Instant>>;

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

/// The waker's token (sockets take the numbers from 0).
const WAKE: mio::Token = mio::Token(usize::MAX);

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

/// A sampled socket: the current frame's payload, the seeks open as it was
/// told, and the changes already timed (a change may come twice: in a
/// batch, and in the whole lobby sent after a missed one).
#[derive(Default)]
struct Sample {
    payload: Vec<u8>,
    open: HashSet<String>,
    timed: HashSet<String>,
}

/// The part of a lobby message a sampled socket reads.
#[derive(Deserialize)]
struct Change {
    #[serde(rename = "type")]
    kind: String,
    #[serde(default)]
    added: Vec<Id>,
    #[serde(default)]
    gone: Vec<Id>,
    /// The whole lobby (a socket that missed a change is sent it again).
    #[serde(default)]
    seeks: Vec<Id>,
}

#[derive(Deserialize)]
struct Id {
    id: String,
}

fn read_all(
    mut poll: mio::Poll,
    receive: &mpsc::Receiver<(std::net::TcpStream, bool)>,
    stop: &AtomicBool,
    asked: &Asked,
) -> Outcome {
    let mut sockets: Vec<Socket> = vec![];
    let mut out = Outcome {
        pushes: vec![],
        failed: 0,
        messages: 0,
    };
    let mut events = mio::Events::with_capacity(1024);
    let mut buf = vec![0u8; 64 * 1024];
    loop {
        if poll
            .poll(&mut events, Some(Duration::from_millis(100)))
            .is_err()
        {
            continue;
        }
        for event in &events {
            let token = event.token();
            if token == WAKE {
                continue;
            }
            let Some(s) = sockets.get_mut(token.0) else {
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
        while let Ok((stream, sampled)) = receive.try_recv() {
            let mut stream = mio::net::TcpStream::from_std(stream);
            let token = mio::Token(sockets.len());
            if poll
                .registry()
                .register(&mut stream, token, mio::Interest::READABLE)
                .is_err()
            {
                out.failed += 1;
                continue;
            }
            let mut s = Socket {
                stream,
                head: Vec::with_capacity(10),
                skip: 0,
                done: false,
                sample: sampled.then(Sample::default),
            };
            // What came before it was registered (the whole lobby).
            read_socket(&mut s, &mut buf, &mut out, asked);
            if s.done {
                out.failed += 1;
            }
            sockets.push(s);
        }
        if stop.load(Ordering::SeqCst) {
            return out;
        }
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
    let Ok(c) = serde_json::from_slice::<Change>(&payload) else {
        return;
    };
    let (added, gone): (Vec<String>, Vec<String>) = match c.kind.as_str() {
        "lobby" => (
            c.added.into_iter().map(|s| s.id).collect(),
            c.gone.into_iter().map(|s| s.id).collect(),
        ),
        "seeks" => {
            let now_open: HashSet<String> = c.seeks.into_iter().map(|s| s.id).collect();
            let gone = sample.open.difference(&now_open).cloned().collect();
            (now_open.into_iter().collect(), gone)
        }
        _ => return,
    };
    for id in &added {
        sample.open.insert(id.clone());
    }
    for id in &gone {
        sample.open.remove(id);
    }
    let Ok(asked) = asked.lock() else { return };
    let keys = added
        .iter()
        .map(|id| format!("+{id}"))
        .chain(gone.iter().map(|id| format!("-{id}")));
    for key in keys {
        if let Some(t) = asked.get(&key) {
            if sample.timed.insert(key) {
                out.pushes
                    .push(now.saturating_duration_since(*t).as_secs_f64() * 1000.0);
            }
        }
    }
}
