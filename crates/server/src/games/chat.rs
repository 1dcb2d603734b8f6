//! A chat line's rules, apart from any game: plain visible text of at most
//! 140 characters (the site's one text policy, [`crate::text`]), a rate
//! limit per writer, and the one decision of who may read a line
//! ([`may_read`]), which every channel that carries a line asks: the HTTP
//! list, the game's socket, `/api/turns` and Web Push. `talk.rs` applies
//! them to a game's rooms.

use crate::model::Seat;
use crate::store::{ChatLine, Relation, Room, SeatAccount, Store, StoreError};
use std::collections::{HashMap, VecDeque};
use std::time::{Duration, Instant};

/// The longest chat line, in characters.
pub const MAX_CHAT_CHARS: usize = 140;

/// How many lines one writer may send to one game within [`CHAT_WINDOW`].
pub const CHAT_BURST: usize = 5;

/// The window of the chat's rate limit.
pub const CHAT_WINDOW: Duration = Duration::from_secs(10);

/// How many lines of a room a game keeps showing.
pub const CHAT_SHOWN: usize = 200;

/// Why a chat line is refused.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub enum ChatRefusal {
    /// Empty, too long, or with control characters.
    #[error("{0}")]
    Bad(String),
    /// A player in the spectators' room or a spectator in the players'.
    #[error("{0}")]
    WrongRoom(String),
    /// Too many lines at once.
    #[error("you are writing too fast: at most {CHAT_BURST} lines in {} seconds", CHAT_WINDOW.as_secs())]
    Flood,
    /// A moderator muted the writer's chat until this time (milliseconds
    /// since the epoch).
    #[error("a moderator muted your chat until {} (milliseconds since the epoch): {}", .0.until_ms, .0.reason)]
    Muted(crate::safety::Mute),
}

/// Each writer's recent lines, per game, for the rate limit.
#[derive(Default)]
pub(crate) struct ChatLimiter {
    recent: std::sync::Mutex<HashMap<String, VecDeque<Instant>>>,
}

impl ChatLimiter {
    /// Notes a line by `writer`, or refuses it past the limit.
    pub(super) fn take(&self, writer: String) -> Result<(), ChatRefusal> {
        let mut recent = self.recent.lock().map_err(|_| ChatRefusal::Flood)?;
        let now = Instant::now();
        let lines = recent.entry(writer).or_default();
        while lines.front().is_some_and(|t| now - *t > CHAT_WINDOW) {
            lines.pop_front();
        }
        if lines.len() >= CHAT_BURST {
            return Err(ChatRefusal::Flood);
        }
        lines.push_back(now);
        Ok(())
    }

    /// Forgets writers quiet for a window (the sweep).
    pub(crate) fn sweep(&self) {
        if let Ok(mut recent) = self.recent.lock() {
            let now = Instant::now();
            recent.retain(|_, l| l.back().is_some_and(|t| now - *t <= CHAT_WINDOW));
        }
    }
}

/// A line's text checked by the site's text policy for a chat line: NFC,
/// without direction controls, trimmed, with something visible, at most
/// [`MAX_CHAT_CHARS`] characters, one line (no control characters, no line
/// or paragraph separators).
///
/// # Errors
/// What is wrong with it.
pub fn check_text(text: &str) -> Result<String, ChatRefusal> {
    crate::text::CHAT
        .check(text)
        .map_err(|e| ChatRefusal::Bad(e.to_string()))
}

/// Each account's blocks as read in one request, so a list of games
/// reads them once per account.
#[derive(Debug, Default)]
pub(crate) struct BlocksRead(HashMap<i64, Vec<SeatAccount>>);

/// Who asks to read a game's chat: the seats her token or account holds
/// (none: she watches), her account, and the players she blocks, with
/// whether the game is over (the players' room is then everyone's).
#[derive(Debug, Clone, Default)]
pub(crate) struct Reader {
    /// The seats she holds in the game.
    pub(crate) seats: Vec<Seat>,
    /// Her account, when signed in.
    pub(crate) account: Option<SeatAccount>,
    /// The accounts she blocks.
    pub(crate) blocks: Vec<SeatAccount>,
    /// Whether the game is over.
    pub(crate) over: bool,
}

impl Reader {
    /// A reader with her blocks read from the store now (a block takes
    /// effect on the next line, on every channel).
    ///
    /// # Errors
    /// The store failed.
    pub(crate) async fn load(
        store: &Store,
        seats: &[Seat],
        account: Option<SeatAccount>,
        over: bool,
    ) -> Result<Reader, StoreError> {
        Reader::load_with(&mut BlocksRead::default(), store, seats, account, over).await
    }

    /// [`Reader::load`], her blocks taken from `read` when they were read
    /// already in this request (a list of games asks once per account).
    ///
    /// # Errors
    /// The store failed.
    pub(crate) async fn load_with(
        read: &mut BlocksRead,
        store: &Store,
        seats: &[Seat],
        account: Option<SeatAccount>,
        over: bool,
    ) -> Result<Reader, StoreError> {
        let blocks = match &account {
            Some(a) => match read.0.get(&a.id) {
                Some(b) => b.clone(),
                None => {
                    let b = store.related(Relation::Block, a.id).await?;
                    read.0.insert(a.id, b.clone());
                    b
                }
            },
            None => vec![],
        };
        Ok(Reader {
            seats: seats.to_vec(),
            account,
            blocks,
            over,
        })
    }

    /// Whether she wrote `line` (by her seat, her account, or for lines
    /// stored before accounts were kept, her name).
    fn wrote(&self, line: &ChatLine) -> bool {
        let me = self.account.as_ref();
        line.seat.is_some_and(|s| self.seats.contains(&s))
            || (line.writer.is_some() && line.writer == me.map(|a| a.id))
            || (line.writer.is_none()
                && line.name.is_some()
                && line.name == me.and_then(|a| a.name.clone()))
    }

    /// Whether she blocks `line`'s writer.
    fn blocks_writer(&self, line: &ChatLine) -> bool {
        self.blocks.iter().any(|b| match line.writer {
            Some(w) => b.id == w,
            None => line.name.is_some() && b.name == line.name,
        })
    }
}

/// Whether `reader` may read `line`: the one place that decides it, for
/// every channel (the moderators' view of a report's evidence excepted).
/// Her own lines always; a hidden line (a listed word) never anyone
/// else's; the players' room only its players until the game ends; never
/// a line of a player she blocks.
pub(crate) fn may_read(line: &ChatLine, reader: &Reader) -> bool {
    if reader.wrote(line) {
        return true;
    }
    if line.hidden || reader.blocks_writer(line) {
        return false;
    }
    line.room == Room::Spectators || !reader.seats.is_empty() || reader.over
}
