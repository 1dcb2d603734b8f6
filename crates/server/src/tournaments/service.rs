//! The tournaments service: events made by players or by the operator's
//! schedule, entering and withdrawing, and the standings counted from the
//! stored bouts. The director (`director.rs`) starts, pairs and ends them.

use super::arena::{self, Played};
pub use super::ask::{Ask, MAX_MINUTES, MAX_ROUNDS};
pub use super::error::{Refusal, TournamentError, Unmet};
use super::swiss;
use crate::clock::{now_ms, ClockSettings};
use crate::games::players;
use crate::lobby::Lobby;
use crate::model::{EventKind, EventStatus, Kind};
use crate::store::{BoutRow, Capped, EntrantRow, SeatAccount, Store, TournamentRow};
use serde::{Deserialize, Serialize};
use std::collections::{HashMap, HashSet};
use std::sync::Arc;

/// The furthest ahead an event may start, in milliseconds (30 days).
pub const MAX_AHEAD_MS: i64 = 30 * 86_400_000;

/// Events a player may have made and not yet finished.
pub const MAX_MADE_EACH: usize = 3;

/// How far in the past a start may be asked for: the request's own time
/// in flight, no more (a start in the past is refused).
pub const START_GRACE_MS: i64 = 1_000;

/// When players are told an event they entered is about to start, in
/// milliseconds before it.
pub const TELL_BEFORE_MS: i64 = 5 * 60_000;

/// Finished events listed.
const FINISHED_LISTED: usize = 20;

/// A bout's score meaning "void" (an aborted game: it counts for nobody).
pub const VOID: f64 = -1.0;

/// What an event is played with, as stored (JSON in its row).
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct Spec {
    /// The game's settings header (Ringo's rules, Urgammon's match).
    pub settings: String,
    /// Ringo's rules as asked (a preset and changes), for the page.
    #[serde(default)]
    pub rules: Option<String>,
    /// Urgammon's match target.
    #[serde(default)]
    pub to: Option<u32>,
    /// The clock (live or correspondence).
    pub clock: Option<ClockSettings>,
    /// An arena's length, in minutes.
    #[serde(default)]
    pub minutes: Option<u32>,
    /// A Swiss event's rounds.
    #[serde(default)]
    pub rounds: Option<u32>,
    /// Rated.
    pub rated: bool,
    /// The lowest rating that may enter.
    #[serde(default)]
    pub min_rating: Option<f64>,
    /// The highest.
    #[serde(default)]
    pub max_rating: Option<f64>,
    /// The fewest rated games (in this game) to enter.
    #[serde(default)]
    pub min_rated_games: Option<u32>,
    /// A private event's password, hashed.
    #[serde(default)]
    pub password_hash: Option<String>,
}

/// The event a game belongs to, as its finished game's page offers the
/// way back to it.
#[derive(Serialize, Clone, Debug, PartialEq)]
pub struct GameTournament {
    /// Its id.
    pub id: String,
    /// Its name.
    pub name: String,
    /// `arena` or `swiss`.
    pub kind: EventKind,
    /// `upcoming`, `running` or `finished`.
    pub status: EventStatus,
}

/// One line of the standings.
#[derive(Serialize, Clone, Debug, PartialEq)]
pub struct Standing {
    /// Place, from 1.
    pub rank: usize,
    /// Her name.
    pub name: Option<String>,
    /// Her score: arena points, or Swiss points (a win 1, a draw ½).
    pub score: f64,
    /// Games played: finished bouts with an opponent (a bye or a void,
    /// aborted bout is no game, as FIDE counts).
    pub games: usize,
    /// Arena: each bout's points, in order; Swiss: each round's result
    /// (`1`, `½`, `0`, `B` for a bye).
    pub sheet: Vec<String>,
    /// Arena: on fire (her next result counts double).
    pub fire: bool,
    /// Swiss: Buchholz.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub buchholz: Option<f64>,
    /// Swiss: Sonneborn–Berger.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub sonneborn_berger: Option<f64>,
    /// Her rating when she entered.
    pub rating: i64,
    /// She withdrew (or paused).
    pub withdrawn: bool,
    /// Her game now, if she is playing.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub playing: Option<String>,
    #[serde(skip)]
    pub(crate) account: i64,
}

/// A bout as the page lists it.
#[derive(Serialize, Clone, Debug, PartialEq)]
pub struct BoutView {
    /// Its game (a Ringo pair's first).
    pub id: String,
    /// The round (Swiss).
    pub round: i64,
    /// The first seat's player.
    pub first: Option<String>,
    /// The second's (none: a bye).
    pub second: Option<String>,
    /// Over.
    pub over: bool,
    /// The first seat's score (1, ½, 0), once over; void: none.
    pub score: Option<f64>,
    /// Over and void: it counts for nobody (its first game was aborted, or
    /// ended before each side had moved).
    pub void: bool,
    /// The turns its games took, both sides together, once over (none for
    /// a bye, or a bout ended before the server kept them).
    pub turns: Option<i64>,
    /// Each seat went berserk.
    pub berserk: [bool; 2],
}

/// The signed-in player's place in an event.
#[derive(Serialize, Clone, Debug, PartialEq)]
pub struct You {
    /// She entered.
    pub joined: bool,
    /// She withdrew.
    pub withdrawn: bool,
    /// Her game now, if one is in play.
    pub game: Option<String>,
    /// Her line of the standings (entered: also when the event's socket
    /// leaves it out of the first lines it pushes).
    #[serde(skip_serializing_if = "Option::is_none")]
    pub standing: Option<Standing>,
}

/// An event as the API answers it.
#[derive(Serialize, Clone, Debug, PartialEq)]
pub struct TournamentView {
    /// Its id.
    pub id: String,
    /// `arena` or `swiss`.
    pub kind: EventKind,
    /// The game.
    pub game: Kind,
    /// Its name.
    pub name: String,
    /// `upcoming`, `running` or `finished`.
    pub status: EventStatus,
    /// When it starts.
    pub starts_ms: i64,
    /// When an arena ends (a Swiss event once finished).
    pub ends_ms: Option<i64>,
    /// Swiss: the round under way.
    pub round: i64,
    /// Swiss: rounds in all.
    pub rounds: Option<u32>,
    /// Arena: minutes.
    pub minutes: Option<u32>,
    /// Ringo's rules.
    pub rules: Option<String>,
    /// Urgammon's match.
    pub to: Option<u32>,
    /// The clock.
    pub clock: Option<ClockSettings>,
    /// Rated.
    pub rated: bool,
    /// A password is needed.
    pub private: bool,
    /// Entry conditions.
    pub min_rating: Option<f64>,
    /// Entry conditions.
    pub max_rating: Option<f64>,
    /// Entry conditions.
    pub min_rated_games: Option<u32>,
    /// Who made it (none: the schedule).
    pub created_by: Option<String>,
    /// Players entered (not withdrawn).
    pub players: usize,
    /// The standings, best first.
    pub standings: Vec<Standing>,
    /// Lines of the standings left out of `standings` (the event's socket
    /// pushes the first [`PUSHED_LINES`]; `GET` answers them all).
    #[serde(skip_serializing_if = "is_none_left")]
    pub standings_left: usize,
    /// The bouts, newest first.
    pub games: Vec<BoutView>,
    /// The first three once finished.
    pub podium: Vec<String>,
    /// The signed-in player's place.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub you: Option<You>,
    /// The time on the server (for the countdown).
    pub now_ms: i64,
}

/// An event in a list.
#[derive(Serialize, Clone, Debug, PartialEq)]
pub struct Listed {
    /// Its id.
    pub id: String,
    /// `arena` or `swiss`.
    pub kind: EventKind,
    /// The game.
    pub game: Kind,
    /// Its name.
    pub name: String,
    /// `upcoming`, `running` or `finished`.
    pub status: EventStatus,
    /// When it starts.
    pub starts_ms: i64,
    /// When it ends or ended.
    pub ends_ms: Option<i64>,
    /// Rated.
    pub rated: bool,
    /// Private.
    pub private: bool,
    /// The clock.
    pub clock: Option<ClockSettings>,
    /// Swiss: rounds.
    pub rounds: Option<u32>,
    /// Arena: minutes.
    pub minutes: Option<u32>,
}

/// A player's result in an event, for her profile.
#[derive(Serialize, Clone, Debug, PartialEq)]
pub struct Placing {
    /// The event's id.
    pub id: String,
    /// Its name.
    pub name: String,
    /// `arena` or `swiss`.
    pub kind: EventKind,
    /// The game.
    pub game: Kind,
    /// `upcoming`, `running` or `finished`.
    pub status: EventStatus,
    /// When it started.
    pub starts_ms: i64,
    /// Her place (so far), from 1.
    pub rank: usize,
    /// Players in its standings.
    pub of: usize,
    /// Her score.
    pub score: f64,
}

/// One event's view as last counted (by its feed, `live`): its text,
/// made once for every socket, and the count each socket reads its
/// player's place from.
pub(super) struct Published {
    pub(super) text: axum::extract::ws::Utf8Bytes,
    /// Counts the views that differed: a socket that skipped some still
    /// knows whether the view it last sent is the newest.
    pub(super) seq: u64,
    pub(super) counted: Arc<Counted>,
}

/// An event's feed: the view each of its sockets reads.
pub(super) type Latest = tokio::sync::watch::Sender<Option<Arc<Published>>>;

/// The tournaments service. Clones share one.
#[derive(Clone)]
pub struct Tournaments {
    pub(super) inner: Arc<Inner>,
}

pub(super) struct Inner {
    pub(super) lobby: Lobby,
    pub(super) people: crate::people::People,
    pub(super) store: Store,
    /// Told when an event's standings or bouts change (its id), for the
    /// pages that follow it.
    pub(super) changed: tokio::sync::broadcast::Sender<String>,
    /// The operator's schedule.
    pub(super) schedule: Vec<super::schedule::Entry>,
    /// The scheduled events this instance made or found made (their
    /// schedule keys), so each is written once.
    pub(super) made: std::sync::Mutex<HashSet<String>>,
    /// Each event's entrants, bouts and standings as last counted, and
    /// when.
    pub(super) counted: std::sync::Mutex<CountCache<Arc<Counted>>>,
    /// The events whose pages are open here, each pushed to them by one
    /// feed (see `live`).
    pub(super) feeds: std::sync::Mutex<HashMap<String, Arc<Latest>>>,
    /// Told when a player of an event is given a game here (the event,
    /// the player, the game): her event's sockets on this instance tell
    /// her at once, before the next count.
    pub(super) placed: tokio::sync::broadcast::Sender<(String, i64, String)>,
    /// The events this instance holds the lease of, and until when (so
    /// the lease is written once a second, not at every tick).
    pub(super) leases: std::sync::Mutex<HashMap<String, i64>>,
    /// When the director last saw each player online (for its grace).
    pub(super) seen: std::sync::Mutex<HashMap<i64, i64>>,
}

/// How long an event's count is served before the store is read again.
const COUNTED_FOR: std::time::Duration = std::time::Duration::from_secs(1);

/// How long the cache remembers that an event changed here; a count begun
/// longer ago than this is never kept (so forgetting a change can never
/// let a count from before it be kept).
const FORGOTTEN_AFTER: std::time::Duration = std::time::Duration::from_secs(60);

/// When a count began: the cache's change number then, and the time.
#[derive(Clone, Copy, Debug, PartialEq)]
pub(super) struct Begun {
    seq: u64,
    at: std::time::Instant,
}

/// Each event's last count, served for [`COUNTED_FOR`], and when each
/// event last changed here: a count begun before a change is answered to
/// its reader but never kept, so nobody is served a view older than a
/// change this instance made (a count read from the store just before a
/// pairing was written used to be kept for a second after it). Both maps
/// forget what is old, so a server that runs for months holds only the
/// events of the last minute.
pub(super) struct CountCache<T> {
    counts: HashMap<String, (std::time::Instant, T)>,
    /// Each event's latest change: its number and when.
    changes: HashMap<String, (u64, std::time::Instant)>,
    /// Changes made so far, all events together.
    seq: u64,
}

impl<T> Default for CountCache<T> {
    fn default() -> Self {
        CountCache {
            counts: HashMap::new(),
            changes: HashMap::new(),
            seq: 0,
        }
    }
}

impl<T: Clone> CountCache<T> {
    /// The event's count when fresh; otherwise when a count begun now
    /// begins, to hand back to [`CountCache::put`] with it.
    pub(super) fn fresh(&self, id: &str) -> Result<T, Begun> {
        match self.counts.get(id) {
            Some((at, c)) if at.elapsed() < COUNTED_FOR => Ok(c.clone()),
            _ => Err(Begun {
                seq: self.seq,
                at: std::time::Instant::now(),
            }),
        }
    }

    /// Keeps a count `begun` then, unless the event changed since.
    pub(super) fn put(&mut self, id: &str, begun: Begun, count: T) {
        if begun.at.elapsed() >= FORGOTTEN_AFTER
            || self
                .changes
                .get(id)
                .is_some_and(|(seq, _)| *seq > begun.seq)
        {
            return;
        }
        // Finished events leave the cache as they are read no more.
        self.counts
            .retain(|_, (at, _)| at.elapsed() < COUNTED_FOR * 10);
        self.counts
            .insert(id.to_string(), (std::time::Instant::now(), count));
    }

    /// The event changed here: its count is read again.
    pub(super) fn changed(&mut self, id: &str) {
        self.counts.remove(id);
        self.seq += 1;
        self.changes
            .retain(|_, (_, at)| at.elapsed() < FORGOTTEN_AFTER);
        self.changes
            .insert(id.to_string(), (self.seq, std::time::Instant::now()));
    }
}

fn is_none_left(n: &usize) -> bool {
    *n == 0
}

/// The lines of the standings the event's socket pushes: every page is
/// sent the leaders (each player her own line besides), so a large arena's
/// push stays small whatever its size.
pub const PUSHED_LINES: usize = 50;

/// The bouts the event's socket pushes, newest first.
pub const PUSHED_BOUTS: usize = 30;

/// An event's entrants, bouts and standings, counted once.
pub(super) struct Counted {
    entrants: Vec<EntrantRow>,
    bouts: Vec<BoutRow>,
    standings: Vec<Standing>,
}

impl Counted {
    /// A player's place in the event as counted.
    pub(super) fn you(&self, me: i64) -> You {
        let entry = self.entrants.iter().find(|e| e.account.id == me);
        let standing = self.standings.iter().find(|s| s.account == me).cloned();
        You {
            joined: entry.is_some_and(|e| !e.withdrawn),
            withdrawn: entry.is_some_and(|e| e.withdrawn),
            // Her line says her game now (a Ringo pair's second game once
            // the first is over).
            game: standing.as_ref().and_then(|s| s.playing.clone()),
            standing,
        }
    }
}

/// A name from the settings: "Ringo arena", "Urgammon Swiss".
fn default_name(kind: EventKind, game: Kind) -> String {
    let g = crate::kinds::of(game).title();
    match kind {
        EventKind::Arena => format!("{g} arena"),
        EventKind::Swiss => format!("{g} Swiss"),
    }
}

impl Tournaments {
    pub(super) fn store(&self) -> &Store {
        &self.inner.store
    }

    pub(super) fn lobby(&self) -> &Lobby {
        &self.inner.lobby
    }

    /// Events changed from now on (their ids).
    pub fn changes(&self) -> tokio::sync::broadcast::Receiver<String> {
        self.inner.changed.subscribe()
    }

    pub(super) fn changed(&self, id: &str) {
        if let Ok(mut c) = self.inner.counted.lock() {
            c.changed(id);
        }
        let _ = self.inner.changed.send(id.to_string());
    }

    /// An event's entrants, bouts and standings: counted from the store at
    /// most once a second per event (and again at once after a change
    /// here), however many pages read them.
    async fn counted(&self, row: &TournamentRow) -> Result<Arc<Counted>, TournamentError> {
        let cached = self
            .inner
            .counted
            .lock()
            .map_or(Err(None), |c| c.fresh(&row.id).map_err(Some));
        let begun = match cached {
            Ok(c) => return Ok(c),
            Err(begun) => begun,
        };
        let entrants = self.store().entrants(&row.id).await?;
        let bouts = self.store().bouts(&row.id).await?;
        let now_game = self.games_now(row, &bouts).await?;
        let mut table = standings(row.kind, &entrants, &bouts);
        for s in &mut table {
            let second = s.playing.as_ref().and_then(|g| now_game.get(g)).cloned();
            if second.is_some() {
                s.playing = second;
            }
        }
        let c = Arc::new(Counted {
            entrants,
            bouts,
            standings: table,
        });
        if let (Some(begun), Ok(mut all)) = (begun, self.inner.counted.lock()) {
            all.put(&row.id, begun, c.clone());
        }
        Ok(c)
    }

    /// The event game `game` was played in, if any (a Ringo pair's second
    /// game by its first, which the bout is stored by).
    ///
    /// # Errors
    /// The store.
    pub async fn of_game(&self, game: &str) -> Result<Option<GameTournament>, TournamentError> {
        let rows = self
            .store()
            .list(&crate::store::ListQuery {
                limit: 1,
                ids: Some(vec![game.to_string()]),
                ..Default::default()
            })
            .await?;
        let Some((row, _)) = rows.into_iter().next() else {
            return Ok(None);
        };
        let first = row.pair_first.unwrap_or(row.id);
        let Some(bout) = self.store().bout_of(&first).await? else {
            return Ok(None);
        };
        Ok(self
            .store()
            .tournament(&bout.tournament)
            .await?
            .map(|t| GameTournament {
                id: t.id,
                name: t.name,
                kind: t.kind,
                status: t.status,
            }))
    }

    /// The game each bout in play is at now, by its first game, where they
    /// differ: a Ringo bout is a pair, and once its first game is over its
    /// players are in the second (the first's `rematch`). A bout is stored
    /// by its first game.
    ///
    /// # Errors
    /// The store.
    async fn games_now(
        &self,
        row: &TournamentRow,
        bouts: &[BoutRow],
    ) -> Result<HashMap<String, String>, TournamentError> {
        let mut now_game = HashMap::new();
        // Only a bout of two games has a game other than its first.
        let pairs = crate::kinds::of(row.game).plays_pairs();
        if !pairs {
            return Ok(now_game);
        }
        let ids: Vec<String> = bouts
            .iter()
            .filter(|b| b.score0.is_none() && b.account1.is_some())
            .map(|b| b.game.clone())
            .collect();
        if ids.is_empty() {
            return Ok(now_game);
        }
        let rows = self
            .store()
            .list(&crate::store::ListQuery {
                limit: ids.len(),
                ids: Some(ids),
                ..Default::default()
            })
            .await?;
        for (g, _) in rows {
            if g.status != crate::model::Status::Ongoing {
                if let Some(second) = g.rematch {
                    now_game.insert(g.id, second);
                }
            }
        }
        Ok(now_game)
    }

    /// Makes an event: by a signed-in player (`by`), or by the operator's
    /// schedule (`None`, `ask.schedule` set). Answers it, or `None` when
    /// its schedule entry made it already.
    ///
    /// # Errors
    /// A request out of range, too many events made, the store.
    pub async fn create(
        &self,
        ask: Ask,
        by: Option<SeatAccount>,
    ) -> Result<Option<TournamentView>, TournamentError> {
        let now = now_ms();
        match ask.kind {
            EventKind::Arena => {
                let m = ask.minutes.ok_or(Refusal::NoMinutes)?;
                if !(1..=MAX_MINUTES).contains(&m) {
                    return Err(Refusal::Minutes(m).into());
                }
                if ask.rounds.is_some() {
                    return Err(Refusal::RoundsInArena.into());
                }
                if ask.clock.is_none_or(|c| c.days > 0) {
                    return Err(Refusal::NotLive.into());
                }
            }
            EventKind::Swiss => {
                let r = ask.rounds.ok_or(Refusal::NoRounds)?;
                if !(1..=MAX_ROUNDS).contains(&r) {
                    return Err(Refusal::Rounds(r).into());
                }
                if ask.minutes.is_some() {
                    return Err(Refusal::MinutesInSwiss.into());
                }
            }
        }
        // A second's grace for the request in flight: "now" sent by a
        // client is a little in the past when it lands.
        if ask.starts_ms < now - START_GRACE_MS || ask.starts_ms > now + MAX_AHEAD_MS {
            return Err(Refusal::Start.into());
        }
        for r in [ask.min_rating, ask.max_rating].into_iter().flatten() {
            if !(0.0..=4000.0).contains(&r) {
                return Err(Refusal::Rating(r).into());
            }
        }
        if let (Some(lo), Some(hi)) = (ask.min_rating, ask.max_rating) {
            if lo > hi {
                return Err(Refusal::RatingsCrossed.into());
            }
        }
        if ask.min_rated_games.is_some_and(|n| n > 1000) {
            return Err(Refusal::RatedGames.into());
        }
        let name = match ask.name.as_deref() {
            // No name, or only spaces: the default one.
            Some(n) if !n.trim().is_empty() => crate::text::TOURNAMENT_NAME
                .check(n)
                .map_err(Refusal::Name)?,
            _ => default_name(ask.kind, ask.game),
        };
        if let Some(p) = &ask.password {
            if p.is_empty() || p.chars().count() > 100 {
                return Err(Refusal::Password.into());
            }
        }
        // A game of several rule sets is played by the set asked, or the
        // most even one; a game of one set has none to name.
        let rules = crate::kinds::of(ask.game)
            .even_rules()
            .map(|even| ask.rules.clone().unwrap_or_else(|| even.to_string()));
        let (settings, clock) =
            Lobby::checked_settings(ask.game, rules.as_deref(), ask.to, ask.clock)?;
        if ask.rated && by.is_none() && ask.schedule.is_none() {
            return Err(TournamentError::NotSignedIn);
        }
        let spec = Spec {
            to: crate::kinds::of(ask.game).match_target(&settings),
            settings,
            rules,
            clock,
            minutes: ask.minutes,
            rounds: ask.rounds,
            rated: ask.rated,
            min_rating: ask.min_rating,
            max_rating: ask.max_rating,
            min_rated_games: ask.min_rated_games,
            password_hash: ask.password.as_deref().map(crate::secrets::hash),
        };
        let row = TournamentRow {
            id: crate::secrets::game_id().map_err(|e| TournamentError::Broken(e.to_string()))?,
            kind: ask.kind,
            game: ask.game,
            name,
            spec: serde_json::to_string(&spec)
                .map_err(|e| TournamentError::Broken(e.to_string()))?,
            status: EventStatus::Upcoming,
            starts_ms: ask.starts_ms.max(now),
            ends_ms: ask
                .minutes
                .map(|m| ask.starts_ms.max(now) + i64::from(m) * 60_000),
            round: 0,
            created_by: by,
            created_ms: now,
            schedule: ask.schedule,
        };
        // The cap of events made is the store's to decide, with the insert.
        match self
            .store()
            .add_tournament(row.clone(), MAX_MADE_EACH)
            .await?
        {
            Capped::Added => {}
            Capped::Already => return Ok(None),
            Capped::Full(made) => return Err(TournamentError::TooMany(made)),
        }
        Ok(Some(self.view(&row, None).await?))
    }

    /// Upcoming and running events, and the latest finished.
    ///
    /// # Errors
    /// The store.
    pub async fn list(&self) -> Result<Vec<Listed>, TournamentError> {
        Ok(self
            .store()
            .tournaments(FINISHED_LISTED)
            .await?
            .iter()
            .map(listed)
            .collect())
    }

    /// The events a player entered, newest first.
    ///
    /// # Errors
    /// The store.
    pub async fn of_player(&self, account: i64) -> Result<Vec<Listed>, TournamentError> {
        Ok(self
            .store()
            .tournaments_of(account, 20)
            .await?
            .iter()
            .map(listed)
            .collect())
    }

    /// A player's tournaments, newest first (10 at most), with her place.
    ///
    /// # Errors
    /// The store.
    pub async fn results_of(&self, account: i64) -> Result<Vec<Placing>, TournamentError> {
        let mut out = vec![];
        for t in self.store().tournaments_of(account, 10).await? {
            let entrants = self.store().entrants(&t.id).await?;
            let bouts = self.store().bouts(&t.id).await?;
            let table = standings(t.kind, &entrants, &bouts);
            if let Some(me) = table.iter().find(|s| s.account == account) {
                out.push(Placing {
                    id: t.id.clone(),
                    name: t.name.clone(),
                    kind: t.kind,
                    game: t.game,
                    status: t.status,
                    starts_ms: t.starts_ms,
                    rank: me.rank,
                    of: table.len(),
                    score: me.score,
                });
            }
        }
        Ok(out)
    }

    /// An event, its standings and bouts, and the viewer's place.
    ///
    /// # Errors
    /// No such event, the store.
    pub async fn get(
        &self,
        id: &str,
        viewer: Option<i64>,
    ) -> Result<TournamentView, TournamentError> {
        let row = self.row(id).await?;
        self.view(&row, viewer).await
    }

    pub(super) async fn row(&self, id: &str) -> Result<TournamentRow, TournamentError> {
        if !crate::store::is_game_id(id) {
            return Err(TournamentError::NotFound(id.chars().take(64).collect()));
        }
        self.store()
            .tournament(id)
            .await?
            .ok_or_else(|| TournamentError::NotFound(id.to_string()))
    }

    /// Enters a player (again, after a withdrawal or a pause).
    ///
    /// # Errors
    /// Over, in already, an entry condition, a wrong password, a pause or
    /// a ban from rated play, the store.
    pub async fn join(
        &self,
        id: &str,
        who: &SeatAccount,
        password: Option<&str>,
    ) -> Result<TournamentView, TournamentError> {
        let row = self.row(id).await?;
        let spec = spec_of(&row)?;
        let kind = row.game;
        if row.status == EventStatus::Finished || is_closing(&row, &spec) {
            return Err(TournamentError::Over);
        }
        if let Some(hash) = &spec.password_hash {
            let given = password.map(crate::secrets::hash).unwrap_or_default();
            if !crate::secrets::same(&given, hash) {
                return Err(TournamentError::WrongPassword);
            }
        }
        self.lobby().may_play(who.id, spec.rated).await?;
        let (rating, _) = self.lobby().rating(who, kind).await;
        let games = self
            .store()
            .ratings_of(who.id)
            .await?
            .into_iter()
            .find(|(k, _)| *k == kind)
            .map_or(0, |(_, r)| r.games);
        if let Some(lowest) = spec.min_rating.filter(|&lo| rating < lo) {
            let rating = rating.round();
            return Err(Unmet::RatingBelow { rating, lowest }.into());
        }
        if let Some(highest) = spec.max_rating.filter(|&hi| rating > hi) {
            let rating = rating.round();
            return Err(Unmet::RatingAbove { rating, highest }.into());
        }
        if let Some(needed) = spec.min_rated_games.filter(|&n| games < n) {
            return Err(Unmet::RatedGames {
                needed,
                game: row.game,
                games,
            }
            .into());
        }
        if !self.store().enter(id, who.id, rating, now_ms()).await? {
            return Err(TournamentError::AlreadyIn);
        }
        self.changed(id);
        self.get(id, Some(who.id)).await
    }

    /// Withdraws a player (in an arena, a pause: her points stay, and she
    /// may join again; in a Swiss event, no more pairings).
    ///
    /// # Errors
    /// Not in, over, the store.
    pub async fn withdraw(
        &self,
        id: &str,
        who: &SeatAccount,
    ) -> Result<TournamentView, TournamentError> {
        let row = self.row(id).await?;
        if row.status == EventStatus::Finished {
            return Err(TournamentError::Over);
        }
        if !self.store().withdraw(id, who.id).await? {
            return Err(TournamentError::NotIn);
        }
        self.changed(id);
        self.get(id, Some(who.id)).await
    }

    /// A closed account leaves every event not finished that she entered,
    /// at once, as a withdrawal: no director pairs her again.
    ///
    /// # Errors
    /// The store.
    pub async fn account_closed(&self, account: i64) -> Result<(), TournamentError> {
        for t in self
            .store()
            .tournaments_of(account, usize::MAX >> 1)
            .await?
        {
            if t.status != EventStatus::Finished && self.store().withdraw(&t.id, account).await? {
                self.changed(&t.id);
            }
        }
        Ok(())
    }

    /// A player goes berserk in her arena game: her clock halved before
    /// her first move, for one point more if she wins the bout. A Ringo
    /// bout's berserk is in its first game.
    ///
    /// # Errors
    /// Not an arena under way, no game of hers in play, a moment when she
    /// may not (moved already, berserk already), the store.
    pub async fn berserk(
        &self,
        id: &str,
        who: &SeatAccount,
    ) -> Result<TournamentView, TournamentError> {
        let row = self.row(id).await?;
        if row.kind != EventKind::Arena || row.status != EventStatus::Running {
            return Err(Refusal::BerserkNotNow.into());
        }
        let bouts = self.store().bouts(id).await?;
        let game = playing(&bouts, who.id).ok_or(Refusal::NoGameInPlay)?;
        let bout = bouts
            .iter()
            .find(|b| b.game == game)
            .ok_or(Refusal::NoGameInPlay)?;
        // The game's refusal keeps its own code; a store failure is a 5xx.
        players::berserk(self.inner.people.games(), &game, who.id).await?;
        let seat = usize::from(bout.account0 != who.id);
        self.store().berserk(&game, seat).await?;
        self.changed(id);
        self.get(id, Some(who.id)).await
    }

    /// The events where a player has a game in play, and those she entered
    /// that start within [`TELL_BEFORE_MS`]: what every page shows her.
    ///
    /// # Errors
    /// The store.
    pub async fn mine_now(&self, account: i64) -> Result<Vec<TournamentView>, TournamentError> {
        let now = now_ms();
        let mut out = vec![];
        for t in self.store().tournaments_of(account, 10).await? {
            let soon = t.status == EventStatus::Upcoming && t.starts_ms - now <= TELL_BEFORE_MS;
            if t.status == EventStatus::Running || soon {
                let v = self.view(&t, Some(account)).await?;
                if soon || v.you.as_ref().is_some_and(|y| y.game.is_some()) {
                    out.push(v);
                }
            }
        }
        Ok(out)
    }

    /// The view of an event: its standings counted from its bouts.
    pub(super) async fn view(
        &self,
        row: &TournamentRow,
        viewer: Option<i64>,
    ) -> Result<TournamentView, TournamentError> {
        Ok(self.view_counted(row, viewer).await?.0)
    }

    /// The view of an event, and the count it was made from.
    pub(super) async fn view_counted(
        &self,
        row: &TournamentRow,
        viewer: Option<i64>,
    ) -> Result<(TournamentView, Arc<Counted>), TournamentError> {
        let spec = spec_of(row)?;
        let counted = self.counted(row).await?;
        let (entrants, bouts) = (&counted.entrants, &counted.bouts);
        let standings = counted.standings.clone();
        let names: HashMap<i64, Option<String>> = entrants
            .iter()
            .map(|e| (e.account.id, e.account.name.clone()))
            .collect();
        let name = |a: i64| names.get(&a).cloned().flatten();
        let games = bouts
            .iter()
            .rev()
            .take(100)
            .map(|b| BoutView {
                id: b.game.clone(),
                round: b.round,
                first: name(b.account0),
                second: b.account1.and_then(name),
                over: b.score0.is_some(),
                score: b.score0.filter(|s| *s >= 0.0),
                void: b.score0 == Some(VOID),
                turns: b.turns,
                berserk: b.berserk,
            })
            .collect();
        let podium = if row.status == EventStatus::Finished {
            standings
                .iter()
                .take(3)
                .filter_map(|s| s.name.clone())
                .collect()
        } else {
            vec![]
        };
        let you = viewer.map(|me| counted.you(me));
        Ok((
            TournamentView {
                id: row.id.clone(),
                kind: row.kind,
                game: row.game,
                name: row.name.clone(),
                status: row.status,
                starts_ms: row.starts_ms,
                ends_ms: row.ends_ms,
                round: row.round,
                rounds: spec.rounds,
                minutes: spec.minutes,
                rules: spec.rules.clone(),
                to: spec.to,
                clock: spec.clock,
                rated: spec.rated,
                private: spec.password_hash.is_some(),
                min_rating: spec.min_rating,
                max_rating: spec.max_rating,
                min_rated_games: spec.min_rated_games,
                created_by: row.created_by.as_ref().and_then(|a| a.name.clone()),
                players: entrants.iter().filter(|e| !e.withdrawn).count(),
                standings,
                standings_left: 0,
                games,
                podium,
                you,
                now_ms: now_ms(),
            },
            counted,
        ))
    }
}

/// An arena past its end, or a Swiss event in its last round: nobody new
/// may enter.
fn is_closing(row: &TournamentRow, spec: &Spec) -> bool {
    match row.kind {
        EventKind::Arena => row.ends_ms.is_some_and(|e| now_ms() >= e),
        EventKind::Swiss => spec.rounds.is_some_and(|r| row.round >= i64::from(r)),
    }
}

/// An event's spec.
pub(super) fn spec_of(row: &TournamentRow) -> Result<Spec, TournamentError> {
    serde_json::from_str(&row.spec)
        .map_err(|e| TournamentError::Broken(format!("a damaged tournament {}: {e}", row.id)))
}

fn listed(t: &TournamentRow) -> Listed {
    let spec = spec_of(t).ok();
    Listed {
        id: t.id.clone(),
        kind: t.kind,
        game: t.game,
        name: t.name.clone(),
        status: t.status,
        starts_ms: t.starts_ms,
        ends_ms: t.ends_ms,
        rated: spec.as_ref().is_some_and(|s| s.rated),
        private: spec.as_ref().is_some_and(|s| s.password_hash.is_some()),
        clock: spec.as_ref().and_then(|s| s.clock),
        rounds: spec.as_ref().and_then(|s| s.rounds),
        minutes: spec.as_ref().and_then(|s| s.minutes),
    }
}

/// A player's bout in play, if any.
pub(super) fn playing(bouts: &[BoutRow], account: i64) -> Option<String> {
    bouts
        .iter()
        .rev()
        .find(|b| {
            b.score0.is_none()
                && b.account1.is_some()
                && (b.account0 == account || b.account1 == Some(account))
        })
        .map(|b| b.game.clone())
}

/// A player's score in a finished bout (none: void or in play).
fn score_in(b: &BoutRow, account: i64) -> Option<f64> {
    let s = b.score0.filter(|s| *s >= 0.0)?;
    if b.account1.is_none() {
        return Some(1.0);
    }
    Some(if b.account0 == account { s } else { 1.0 - s })
}

/// The standings counted from the bouts: an arena's points (streaks and
/// berserk, in the order bouts ended), or a Swiss event's score with its
/// tie-breaks; ties by the rating at entry.
pub fn standings(kind: EventKind, entrants: &[EntrantRow], bouts: &[BoutRow]) -> Vec<Standing> {
    let mut ended: Vec<&BoutRow> = bouts.iter().filter(|b| b.score0.is_some()).collect();
    ended.sort_by_key(|b| (b.ended_ms.unwrap_or(0), b.created_ms));
    // Each player's finished bouts in order, and her bout in play: one
    // pass over the bouts, so a large arena's standings cost what its
    // bouts do.
    let mut per: HashMap<i64, Vec<&BoutRow>> = HashMap::new();
    for b in &ended {
        per.entry(b.account0).or_default().push(b);
        if let Some(a1) = b.account1 {
            per.entry(a1).or_default().push(b);
        }
    }
    let mut in_play: HashMap<i64, &str> = HashMap::new();
    for b in bouts.iter().filter(|b| b.score0.is_none()) {
        if let Some(a1) = b.account1 {
            in_play.insert(b.account0, &b.game);
            in_play.insert(a1, &b.game);
        }
    }
    let none: Vec<&BoutRow> = vec![];
    let mine = |a: i64| per.get(&a).unwrap_or(&none).iter().copied();
    let scores: HashMap<i64, f64> = per
        .iter()
        .map(|(&a, list)| (a, list.iter().filter_map(|b| score_in(b, a)).sum()))
        .collect();
    let swiss_score = |a: i64| scores.get(&a).copied().unwrap_or(0.0);
    let mut out: Vec<Standing> = entrants
        .iter()
        .map(|e| {
            let a = e.account.id;
            let (score, sheet, fire, buchholz, sb) = if kind == EventKind::Arena {
                let played: Vec<Played> = mine(a)
                    .filter_map(|b| {
                        Some(Played {
                            score: score_in(b, a)?,
                            berserk: b.berserk[usize::from(b.account0 != a)],
                            turns: b.turns,
                        })
                    })
                    .collect();
                let (total, sheet) = arena::points(&played);
                (
                    f64::from(total),
                    sheet.iter().map(u32::to_string).collect(),
                    arena::on_fire(&played),
                    None,
                    None,
                )
            } else {
                let results: Vec<swiss::Result> = mine(a)
                    .filter_map(|b| {
                        Some(swiss::Result {
                            opponent: if b.account0 == a {
                                b.account1
                            } else {
                                Some(b.account0)
                            },
                            score: score_in(b, a)?,
                        })
                    })
                    .collect();
                let sheet = mine(a)
                    .map(|b| match (b.account1, score_in(b, a)) {
                        (None, _) => "B".to_string(),
                        (_, Some(1.0)) => "1".into(),
                        (_, Some(0.5)) => "½".into(),
                        (_, Some(_)) => "0".into(),
                        (_, None) => "–".into(),
                    })
                    .collect();
                (
                    swiss_score(a),
                    sheet,
                    false,
                    Some(swiss::buchholz(&results, &swiss_score)),
                    Some(swiss::sonneborn_berger(&results, &swiss_score)),
                )
            };
            Standing {
                rank: 0,
                name: e.account.name.clone(),
                score,
                // Games played, as FIDE counts them: not a bye, not a
                // void (aborted) bout.
                games: mine(a)
                    .filter(|b| b.account1.is_some() && score_in(b, a).is_some())
                    .count(),
                sheet,
                fire,
                buchholz,
                sonneborn_berger: sb,
                rating: e.rating.round() as i64,
                withdrawn: e.withdrawn,
                playing: in_play.get(&a).map(|g| g.to_string()),
                account: a,
            }
        })
        .collect();
    out.sort_by(|x, y| {
        y.score
            .total_cmp(&x.score)
            .then(
                y.buchholz
                    .unwrap_or(0.0)
                    .total_cmp(&x.buchholz.unwrap_or(0.0)),
            )
            .then(
                y.sonneborn_berger
                    .unwrap_or(0.0)
                    .total_cmp(&x.sonneborn_berger.unwrap_or(0.0)),
            )
            .then(y.rating.cmp(&x.rating))
            .then(x.name.cmp(&y.name))
    });
    for (i, s) in out.iter_mut().enumerate() {
        s.rank = i + 1;
    }
    out
}

#[cfg(test)]
mod tests {
    use super::CountCache;

    /// The Games column counts games played: not a void (aborted) bout,
    /// not a bye (issue 86: an arena's column counted voids; issue 90: a
    /// Swiss's counted byes).
    #[test]
    fn games_played_leave_out_voids_and_byes() {
        use crate::store::{BoutRow, EntrantRow, SeatAccount};
        let entrant = |id: i64| EntrantRow {
            account: SeatAccount {
                id,
                name: Some(format!("p{id}")),
            },
            joined_ms: 0,
            withdrawn: false,
            rating: 1500.0,
            told_ms: None,
        };
        let bout = |n: i64, a: i64, b: Option<i64>, score: f64| BoutRow {
            tournament: "t".into(),
            game: format!("g{n}"),
            round: n,
            account0: a,
            account1: b,
            berserk: [false, false],
            score0: Some(score),
            created_ms: n,
            ended_ms: Some(n),
            turns: Some(30),
        };
        let entrants = [entrant(1), entrant(2), entrant(3)];
        let bouts = [
            bout(1, 1, Some(2), 1.0),
            bout(2, 1, Some(2), super::VOID),
            bout(3, 1, Some(3), 0.5),
            bout(4, 2, None, 1.0),
        ];
        for kind in crate::model::EventKind::ALL {
            let table = super::standings(kind, &entrants, &bouts);
            let games = |id: i64| {
                table
                    .iter()
                    .find(|s| s.account == id)
                    .map(|s| s.games)
                    .unwrap()
            };
            assert_eq!((games(1), games(2), games(3)), (2, 1, 1), "{kind}");
        }
    }

    #[test]
    fn a_count_begun_before_a_change_is_never_kept() {
        let mut cache = CountCache::default();
        // A count begins; the event changes (a pairing written) before it
        // ends: its answer is not kept, so the next reader counts again.
        let Err(begun) = cache.fresh("t") else {
            panic!("nothing counted yet")
        };
        cache.changed("t");
        cache.put("t", begun, "before the pairing");
        let Err(after) = cache.fresh("t") else {
            panic!("the count from before the change was kept")
        };
        // A count begun after the change is kept and served.
        cache.put("t", after, "after the pairing");
        assert_eq!(cache.fresh("t"), Ok("after the pairing"));
        // Another change forgets it at once.
        cache.changed("t");
        assert!(cache.fresh("t").is_err());
        // Other events are not touched by this one's changes.
        let Err(u) = cache.fresh("u") else { panic!() };
        cache.changed("t");
        cache.put("u", u, "u");
        assert_eq!(cache.fresh("u"), Ok("u"));
    }

    /// Changes are forgotten after a minute, so the map stays small; a
    /// count begun longer ago than that is never kept, so forgetting can
    /// never let a count from before a change be kept.
    #[test]
    fn old_changes_are_forgotten_without_letting_a_stale_count_in() {
        let mut cache = CountCache::default();
        // (A machine up for less than a minute has no such past.)
        let Some(long_ago) = std::time::Instant::now().checked_sub(super::FORGOTTEN_AFTER) else {
            return;
        };
        for n in 0..1000 {
            cache.changes.insert(format!("old{n}"), (0, long_ago));
        }
        cache.changed("t");
        assert_eq!(cache.changes.len(), 1, "the old events' changes forgotten");
        let stale = super::Begun {
            seq: cache.seq,
            at: long_ago,
        };
        cache.put("v", stale, "a count begun a minute ago");
        assert!(cache.fresh("v").is_err());
    }
}
