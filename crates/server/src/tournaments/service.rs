//! The tournaments service: events made by players or by the operator's
//! schedule, entering and withdrawing, and the standings counted from the
//! stored bouts. The director (`director.rs`) starts, pairs and ends them.

pub use super::ask::{Ask, Spec, MAX_AHEAD_MS, MAX_MINUTES, MAX_ROUNDS};
use super::counted::{CountCache, Counted, Latest};
pub use super::error::{Refusal, TournamentError, Unmet};
use super::standings::{playing, standings, VOID};
use super::views::{BoutView, GameTournament, Listed, Placing, TournamentView};
use crate::clock::now_ms;
use crate::games::players;
use crate::lobby::Lobby;
use crate::model::{EventKind, EventStatus};
use crate::store::{BoutRow, Capped, SeatAccount, Store, TournamentRow};
use std::collections::{HashMap, HashSet};
use std::sync::Arc;

/// Events a player may have made and not yet finished.
pub const MAX_MADE_EACH: usize = 3;

/// When players are told an event they entered is about to start, in
/// milliseconds before it.
pub const TELL_BEFORE_MS: i64 = 5 * 60_000;

/// Finished events listed.
const FINISHED_LISTED: usize = 20;

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
        let name = ask.check(now)?;
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

/// An event as a list shows it.
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

/// An event's spec.
pub(super) fn spec_of(row: &TournamentRow) -> Result<Spec, TournamentError> {
    serde_json::from_str(&row.spec)
        .map_err(|e| TournamentError::Broken(format!("a damaged tournament {}: {e}", row.id)))
}
