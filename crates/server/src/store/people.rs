//! What the store keeps for players meeting each other: challenges by name
//! (one player asks another for a game), follows (a player keeps an eye on
//! another's games and online state), and who is online (each instance
//! notes its signed-in players with a socket open, so every instance
//! counts the same players).

use super::accounts::SeatAccount;
use super::error::Stored;
use crate::clock::ClockSettings;
use crate::model::{Kind, Seat};

/// Where a challenge stands.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, serde::Serialize)]
#[serde(rename_all = "lowercase")]
pub enum ChallengeStatus {
    /// Waiting for the challenged player's answer.
    Open,
    /// Accepted: its game is made.
    Accepted,
    /// Declined by the challenged player.
    Declined,
    /// Withdrawn by its sender (or lapsed).
    Cancelled,
}

impl ChallengeStatus {
    /// Every status.
    pub const ALL: [ChallengeStatus; 4] = [
        ChallengeStatus::Open,
        ChallengeStatus::Accepted,
        ChallengeStatus::Declined,
        ChallengeStatus::Cancelled,
    ];

    /// The word stored and sent.
    pub const fn name(self) -> &'static str {
        match self {
            ChallengeStatus::Open => "open",
            ChallengeStatus::Accepted => "accepted",
            ChallengeStatus::Declined => "declined",
            ChallengeStatus::Cancelled => "cancelled",
        }
    }
}

impl std::fmt::Display for ChallengeStatus {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str(self.name())
    }
}

impl std::str::FromStr for ChallengeStatus {
    type Err = String;
    fn from_str(s: &str) -> Result<ChallengeStatus, String> {
        ChallengeStatus::ALL
            .into_iter()
            .find(|c| c.name() == s)
            .ok_or_else(|| format!("unknown challenge status '{s}'"))
    }
}

/// One player's relation to another.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Relation {
    /// She follows her (her games and online state on her home page).
    Follow,
    /// She blocks her (see `crate::safety`).
    Block,
}

impl Relation {
    /// The word stored.
    pub const fn name(self) -> &'static str {
        match self {
            Relation::Follow => "follow",
            Relation::Block => "block",
        }
    }
}

impl std::fmt::Display for Relation {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str(self.name())
    }
}

/// A challenge as stored.
#[derive(Clone, Debug, PartialEq)]
pub struct ChallengeRow {
    /// Its id (public).
    pub id: String,
    /// Who sent it.
    pub from: SeatAccount,
    /// Whom it asks.
    pub to: SeatAccount,
    /// Which game.
    pub kind: Kind,
    /// The rules string or match header.
    pub settings: String,
    /// The clock (live or correspondence), if any.
    pub clock: Option<ClockSettings>,
    /// Rated.
    pub rated: bool,
    /// The sender's seat; `None`: drawn when it is accepted.
    pub seat: Option<Seat>,
    /// Where it stands.
    pub status: ChallengeStatus,
    /// Its game, once accepted.
    pub game: Option<String>,
    /// When it was sent, in milliseconds since the epoch.
    pub created_ms: i64,
    /// When its status last changed.
    pub changed_ms: i64,
}

/// How long a live-clock challenge stays open (a correspondence one stays
/// until answered or cancelled): its sender is no longer waiting at the
/// board after that.
pub const LIVE_CHALLENGE_MS: i64 = 30 * 60_000;

impl ChallengeRow {
    /// Whether a live-clock challenge lapsed by `now` (answered or not).
    pub fn lapsed(&self, now: i64) -> bool {
        self.clock.is_some_and(|k| k.days == 0) && now - self.created_ms > LIVE_CHALLENGE_MS
    }

    /// Whether it is still open at `now`: not answered, and (with a live
    /// clock) not lapsed.
    pub fn open_at(&self, now: i64) -> bool {
        self.status == ChallengeStatus::Open && !self.lapsed(now)
    }
}

/// What an insert under a cap did. The cap is decided in the store, in
/// the insert's own transaction, so twenty requests at once admit exactly
/// as many as the cap leaves room for.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Capped {
    /// Stored.
    Added,
    /// Stored already (a relation held, one open challenge to the same
    /// player, a schedule entry's event made): nothing changed.
    Already,
    /// The cap is reached: this many are held now.
    Full(usize),
}

/// Who is online, as every instance together sees it.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct OnlineNow {
    /// The signed-in players with a socket open on a live instance, by
    /// name (never a deleted account), sorted.
    pub names: Vec<String>,
    /// Their account ids, in the same order.
    pub ids: Vec<i64>,
    /// Sockets of players not signed in, on every live instance.
    pub anonymous: i64,
}

/// What every store keeps for meeting.
#[async_trait::async_trait]
pub trait PeopleBackend: Send + Sync {
    /// Stores a new challenge unless its sender has one still open to the
    /// same player ([`Capped::Already`]) or `cap` still open in all
    /// ([`Capped::Full`]), decided in one transaction (and, on a shared
    /// store, tells every instance that both players' challenges changed).
    async fn add_challenge(&self, row: ChallengeRow, cap: usize) -> Stored<Capped>;

    /// One challenge by id.
    async fn challenge(&self, id: &str) -> Stored<Option<ChallengeRow>>;

    /// An account's challenges, sent by her (`sent`) or to her: the open
    /// ones, and the others whose status changed at or after `since_ms` (so
    /// a sender hears that hers was declined); newest first, those created
    /// before `before` (a page's cursor: created_ms and id), at most
    /// `limit`.
    async fn challenges_of(
        &self,
        account: i64,
        sent: bool,
        since_ms: i64,
        before: Option<(i64, String)>,
        limit: usize,
    ) -> Stored<Vec<ChallengeRow>>;

    /// Moves an open challenge to `status` (with its game, when accepted):
    /// true for the one caller that did (a challenge answered twice at
    /// once is answered once).
    async fn settle_challenge(
        &self,
        id: &str,
        status: ChallengeStatus,
        game: Option<&str>,
        now_ms: i64,
    ) -> Stored<bool>;

    /// Gives back a challenge accepted for `game` when the game could not
    /// be opened: open again, as before.
    async fn unsettle_challenge(&self, id: &str, game: &str) -> Stored<()>;

    /// `from` takes up `relation` to `to`, unless she holds it already or
    /// holds it to `cap` accounts (not deleted ones) already, decided in
    /// one transaction.
    async fn relate(
        &self,
        relation: Relation,
        from: i64,
        to: i64,
        now_ms: i64,
        cap: usize,
    ) -> Stored<Capped>;

    /// `from` drops `relation` to `to`: true when she had it.
    async fn unrelate(&self, relation: Relation, from: i64, to: i64) -> Stored<bool>;

    /// The accounts (not deleted ones) `from` has `relation` to, by name.
    async fn related(&self, relation: Relation, from: i64) -> Stored<Vec<SeatAccount>>;

    /// How many accounts (not deleted ones) have `relation` to `to`.
    async fn related_to(&self, relation: Relation, to: i64) -> Stored<i64>;

    /// Whether either of two accounts has `relation` to the other.
    async fn related_either(&self, relation: Relation, a: i64, b: i64) -> Stored<bool>;

    /// Notes the signed-in players with a socket open on `instance` (each
    /// account once) and its sockets of players not signed in, replacing
    /// what it noted before.
    async fn set_online(&self, instance: &str, accounts: Vec<i64>, anonymous: i64) -> Stored<()>;

    /// Who is online on the instances heard from at or after `since_ms`.
    async fn online(&self, since_ms: i64) -> Stored<OnlineNow>;

    /// Tells every instance that `account`'s challenges or follows changed
    /// (on a store no one shares: nothing to do, the one instance knows).
    async fn announce_person(&self, account: i64) -> Stored<()> {
        let _ = account;
        Ok(())
    }
}
