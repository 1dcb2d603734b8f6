//! A chat line's rules, apart from any game: plain visible text of at most
//! 140 characters without bidirectional overrides, and a rate limit per
//! writer. `talk.rs` applies them to a game's rooms.

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
    #[error("a moderator muted your chat until {0} (milliseconds since the epoch)")]
    Muted(i64),
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

/// The bidirectional formatting characters: embeddings, overrides and
/// isolates. They reorder what follows them (U+202E shows `gnp.exe` as
/// `exe.png`), so a line loses them; the plain marks (U+200E, U+200F),
/// which only nudge neutral characters, stay.
fn reorders(c: char) -> bool {
    matches!(c, '\u{202A}'..='\u{202E}' | '\u{2066}'..='\u{2069}')
}

/// Whether a character shows nothing: white space, and Unicode's default
/// ignorable code points (zero-width spaces and joiners, the soft hyphen,
/// the byte-order mark, variation selectors, fillers, tags) with the blank
/// Braille pattern and the Hangul fillers that render as blanks.
fn invisible(c: char) -> bool {
    c.is_whitespace()
        || matches!(c,
            '\u{00AD}' | '\u{034F}' | '\u{061C}' | '\u{115F}' | '\u{1160}'
            | '\u{17B4}' | '\u{17B5}' | '\u{180B}'..='\u{180F}'
            | '\u{200B}'..='\u{200F}' | '\u{202A}'..='\u{202E}'
            | '\u{2060}'..='\u{206F}' | '\u{2800}' | '\u{3164}'
            | '\u{FE00}'..='\u{FE0F}' | '\u{FEFF}' | '\u{FFA0}'
            | '\u{1BCA0}'..='\u{1BCA3}' | '\u{1D173}'..='\u{1D17A}'
            | '\u{E0000}'..='\u{E0FFF}')
}

/// A line's text checked: without bidirectional overrides, trimmed, with
/// something visible, at most [`MAX_CHAT_CHARS`] characters, no control
/// characters (a line is one line of plain text).
///
/// # Errors
/// What is wrong with it.
pub fn check_text(text: &str) -> Result<String, ChatRefusal> {
    let text: String = text.chars().filter(|&c| !reorders(c)).collect();
    let text = text.trim();
    if text.is_empty() {
        return Err(ChatRefusal::Bad("a chat line needs some text".into()));
    }
    if text.chars().all(invisible) {
        return Err(ChatRefusal::Bad(
            "a chat line needs some visible text".into(),
        ));
    }
    let n = text.chars().count();
    if n > MAX_CHAT_CHARS {
        return Err(ChatRefusal::Bad(format!(
            "a chat line is at most {MAX_CHAT_CHARS} characters, not {n}"
        )));
    }
    if text.chars().any(char::is_control) {
        return Err(ChatRefusal::Bad(
            "a chat line is one line of text: no control characters".into(),
        ));
    }
    Ok(text.to_string())
}
