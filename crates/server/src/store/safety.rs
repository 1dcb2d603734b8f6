//! What the store keeps for safety between strangers: reports (with the
//! evidence the server attached), moderators, the log of what they did,
//! and chat mutes. Blocks are relations (`super::people::Relation`).

use super::accounts::SeatAccount;
use super::error::Stored;

/// What a moderator puts on a player for a time.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Sanction {
    /// Her chat lines are refused.
    Mute,
    /// She may not play rated games.
    RatedBan,
    /// Marked for cheating: her ratings leave the leaderboards.
    Cheat,
}

impl Sanction {
    /// The word stored.
    pub const fn name(self) -> &'static str {
        match self {
            Sanction::Mute => "mute",
            Sanction::RatedBan => "rated-ban",
            Sanction::Cheat => "cheat",
        }
    }
}

/// A report as stored.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct ReportRow {
    /// Its number (given by the store).
    pub id: i64,
    /// Who filed it (none: the server itself).
    pub reporter: Option<SeatAccount>,
    /// Whom it is about.
    pub target: SeatAccount,
    /// Why: `chat`, `cheat`, `boost`, `name` or `other`.
    pub reason: String,
    /// The reporter's words.
    pub text: String,
    /// The game it names, if any.
    pub game: Option<String>,
    /// What the server attached (JSON: the game, the target's lines).
    pub evidence: String,
    /// `open` or `closed`.
    pub status: String,
    /// When it was filed, in milliseconds since the epoch.
    pub created_ms: i64,
}

/// One thing a moderator did, as logged.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct ModActionRow {
    /// Its number (given by the store).
    pub id: i64,
    /// The moderator (none: the command line).
    pub moderator: Option<SeatAccount>,
    /// The player it was done to.
    pub target: SeatAccount,
    /// What: `warn`, `mute`, `unmute`, `close-report`, `grant`.
    pub action: String,
    /// Why, in the moderator's words.
    pub reason: String,
    /// Until when it holds (a mute), in milliseconds since the epoch.
    pub until_ms: Option<i64>,
    /// The report it answered, if any.
    pub report: Option<i64>,
    /// When.
    pub created_ms: i64,
}

/// What every store keeps for safety.
#[async_trait::async_trait]
pub trait SafetyBackend: Send + Sync {
    /// Files a report (its `id` is given by the store); `None` when the
    /// reporter has one open about the target already.
    async fn add_report(&self, report: ReportRow) -> Stored<Option<i64>>;

    /// The reports with this status (`open` or `closed`), oldest first, at
    /// most `limit`.
    async fn reports(&self, status: &str, limit: usize) -> Stored<Vec<ReportRow>>;

    /// Closes an open report: true when it was open.
    async fn close_report(&self, id: i64, by: Option<i64>, now_ms: i64) -> Stored<bool>;

    /// Whether an account is a moderator.
    async fn is_moderator(&self, account: i64) -> Stored<bool>;

    /// Makes an account a moderator: true when it was not one.
    async fn grant_moderator(&self, account: i64, now_ms: i64) -> Stored<bool>;

    /// Logs what a moderator did; answers its number.
    async fn log_action(&self, action: ModActionRow) -> Stored<i64>;

    /// The log, newest first, at most `limit` (of one player, or of all).
    async fn actions(&self, target: Option<i64>, limit: usize) -> Stored<Vec<ModActionRow>>;

    /// The warnings and mutes a player has not been shown yet, oldest
    /// first; marked shown.
    async fn unseen_actions(&self, target: i64) -> Stored<Vec<ModActionRow>>;

    /// Puts `sanction` on a player until `until_ms` (0: lifts it).
    async fn set_sanction(&self, account: i64, sanction: Sanction, until_ms: i64) -> Stored<()>;

    /// Until when `sanction` is on a player (milliseconds since the
    /// epoch), if it was put on her.
    async fn sanction_until(&self, account: i64, sanction: Sanction) -> Stored<Option<i64>>;

    /// Every account under `sanction` at `now_ms`.
    async fn sanctioned(&self, sanction: Sanction, now_ms: i64) -> Stored<Vec<i64>>;

    /// Renames an account (`key`: the name as compared): false when
    /// another account has the name.
    async fn rename_account(&self, account: i64, name: &str, key: &str) -> Stored<bool>;

    /// The other accounts signed in from one of this account's devices
    /// (its known devices), not deleted ones.
    async fn same_devices(&self, account: i64) -> Stored<Vec<SeatAccount>>;
}
