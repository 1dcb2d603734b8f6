//! The lobby's handle and its seeks: made, listed, cancelled, accepted,
//! and paired into games through the games service. Its loops live beside
//! it (`housekeeping.rs`, `socket.rs`, `pools.rs`); `mod.rs` starts them.

pub use super::error::{LobbyError, Pause};
use crate::clock::{now_ms, ClockSettings};
use crate::games::{GameError, Games};
use crate::hub::LobbyHub;
use crate::kinds::SettingsFields;
use crate::model::Kind;
use crate::model::Seat;
use crate::ratings::PROVISIONAL_DEVIATION;
use crate::store::Store;
use crate::store::{LobbyNotice, SeatAccount, SeekRow};
use serde::Serialize;
use std::sync::Arc;

/// How long a seek stays without a lobby socket holding it (a program that
/// made it over HTTP alone has this long for someone to accept).
pub const SEEK_TTL_MS: i64 = 30_000;

/// Open seeks one player (an account, or a browser) may have at once.
pub const MAX_SEEKS_EACH: usize = 3;

/// The widest rating range a seek may ask for.
const RATING_BOUNDS: std::ops::RangeInclusive<f64> = 0.0..=4000.0;

/// A seek as everyone sees it (the lobby's list and socket).
#[derive(Serialize, Clone, Debug, PartialEq)]
pub struct SeekView {
    /// Its id.
    pub id: String,
    /// Which game.
    pub game: Kind,
    /// The rules string (Ringo) or the match header (Urgammon).
    pub settings: String,
    /// The clock, if live.
    pub clock: Option<ClockSettings>,
    /// The clock as players read it (`5+3`), if live.
    pub clock_label: Option<String>,
    /// Rated.
    pub rated: bool,
    /// The creator's side.
    pub side: &'static str,
    /// The creator's name, when signed in.
    pub name: Option<String>,
    /// The creator's rating in this game, when signed in.
    pub rating: Option<f64>,
    /// The rating is provisional (shown with `?`).
    pub provisional: bool,
    /// The lowest rating she accepts.
    pub rating_min: Option<f64>,
    /// The highest.
    pub rating_max: Option<f64>,
    /// When it was made, in milliseconds since the epoch.
    pub created_ms: i64,
}

impl SeekView {
    /// The public view of a stored seek.
    pub fn of(s: &SeekRow, provisional: bool) -> SeekView {
        SeekView {
            id: s.id.clone(),
            game: s.kind,
            settings: s.settings.clone(),
            clock: s.clock,
            clock_label: s.clock.map(ClockSettings::label),
            rated: s.rated,
            side: s.kind.seat_name(s.seat),
            name: s.account.as_ref().and_then(|a| a.name.clone()),
            rating: s.rating.map(f64::round),
            provisional,
            rating_min: s.rating_min,
            rating_max: s.rating_max,
            created_ms: s.created_ms,
        }
    }
}

/// What a new seek is to be (checked by [`Lobby::make_seek`]).
#[derive(Clone, Debug)]
pub struct SeekSpec {
    /// Which game.
    pub kind: Kind,
    /// Ringo's rules (a preset and changes).
    pub rules: Option<String>,
    /// Urgammon's match target.
    pub to: u32,
    /// The clock.
    pub clock: Option<ClockSettings>,
    /// Rated.
    pub rated: bool,
    /// The creator's seat; `None`: random.
    pub seat: Option<Seat>,
    /// The opponent's lowest rating.
    pub rating_min: Option<f64>,
    /// The opponent's highest.
    pub rating_max: Option<f64>,
}

/// A seek made: its id and the creator's seat token for the game to come.
#[derive(Serialize, Clone, Debug)]
pub struct Made {
    /// The seek's id.
    pub id: String,
    /// The creator's seat token (send it as `x-agon-token` in the game; it
    /// also cancels the seek).
    pub token: String,
}

/// A seek accepted: the game and the accepter's seat token.
#[derive(Serialize, Clone, Debug)]
pub struct Paired {
    /// The game's id.
    pub game: String,
    /// The accepter's seat token.
    pub token: String,
}

/// A player's rating in a game and whether it is provisional (1500, and
/// provisional, for a player without an account or without rated games).
pub(super) async fn rating_of(app: &Lobby, who: Option<&SeatAccount>, kind: Kind) -> (f64, bool) {
    let Some(account) = who else {
        return (1500.0, true);
    };
    let row = app
        .store()
        .ratings_of(account.id)
        .await
        .ok()
        .and_then(|r| r.into_iter().find(|(k, _)| *k == kind).map(|(_, r)| r))
        .unwrap_or(crate::store::RatingRow::NEW);
    (row.rating, row.deviation > PROVISIONAL_DEVIATION)
}

/// The lobby service: it checks and keeps seeks and pools, pairs players
/// and opens their games through the games service (a caller of it, as
/// lila's lobby is of its rounds); its hub holds the lobby's sockets.
/// Clones share one service.
#[derive(Clone)]
pub struct Lobby {
    pub(super) inner: Arc<Inner>,
}

/// A weak handle on the lobby, for a loop that must not keep it alive.
#[derive(Clone)]
pub(crate) struct WeakLobby(pub(super) std::sync::Weak<Inner>);

impl WeakLobby {
    /// The lobby, while it lives.
    pub(crate) fn upgrade(&self) -> Option<Lobby> {
        self.0.upgrade().map(|inner| Lobby { inner })
    }
}

pub(super) struct Inner {
    /// Where paired players' games are opened.
    pub(super) games: Games,
    /// Who is here: challenges' players are told through it.
    pub(super) people: crate::people::People,
    /// The lobby's sockets and the seeks they hold.
    pub(super) hub: LobbyHub,
}

impl Lobby {
    /// The lobby's sockets and the seeks they hold.
    pub(crate) fn hub(&self) -> &LobbyHub {
        &self.inner.hub
    }

    pub(super) fn people(&self) -> &crate::people::People {
        &self.inner.people
    }

    pub(super) fn store(&self) -> &Store {
        self.inner.games.store()
    }

    pub(super) fn first_move_ms(&self) -> i64 {
        self.inner.games.first_move_ms()
    }

    pub(super) fn spawn(&self, task: impl std::future::Future<Output = ()> + Send + 'static) {
        self.inner.games.spawn(task);
    }

    pub(super) fn stopping(&self) -> crate::tasks::Stopping {
        self.inner.games.stopping()
    }

    pub(crate) fn downgrade(&self) -> WeakLobby {
        WeakLobby(Arc::downgrade(&self.inner))
    }

    /// Tells every lobby socket of a change: at once on a store no one
    /// shares; on PostgreSQL through the store's announcement, which every
    /// instance (this one too) hears.
    pub(super) fn lobby_changed(&self, change: LobbyNotice) {
        if !self.store().is_shared() {
            let hub: &LobbyHub = self.hub();
            hub.changed(&change);
        }
    }

    /// Checks and stores a new seek (`pool`: a quick-pairing pool's, not
    /// shown in the lobby).
    ///
    /// # Errors
    /// Bad settings, a rated seek without an account, a bad range.
    pub async fn make_seek(
        &self,
        spec: SeekSpec,
        who: Option<SeatAccount>,
        pool: Option<&str>,
    ) -> Result<Made, LobbyError> {
        let settings = crate::kinds::of(spec.kind).settings(&SettingsFields {
            rules: spec.rules.as_deref(),
            to: spec.to,
            draw: None,
            stake: None,
        })?;
        let clock = spec
            .clock
            .map(|c| c.check().map_err(LobbyError::BadClock))
            .transpose()?;
        if spec.rated && who.is_none() {
            return Err(LobbyError::NotSignedIn);
        }
        self.check_pause(who.as_ref().map(|a| a.id), spec.rated)
            .await?;
        for r in [spec.rating_min, spec.rating_max].into_iter().flatten() {
            if !RATING_BOUNDS.contains(&r) {
                return Err(LobbyError::BadRange(format!(
                    "invalid rating range: {r} is not a rating (0 to 4000)"
                )));
            }
        }
        if let (Some(lo), Some(hi)) = (spec.rating_min, spec.rating_max) {
            if lo > hi {
                return Err(LobbyError::BadRange(format!(
                    "invalid rating range: the lowest ({lo}) is above the highest ({hi})"
                )));
            }
        }
        if let Some(a) = &who {
            let now = now_ms();
            let open = self
                .store()
                .open_seeks(now)
                .await?
                .iter()
                .filter(|s| s.account.as_ref().is_some_and(|b| b.id == a.id))
                .count();
            if open >= MAX_SEEKS_EACH {
                return Err(LobbyError::TooMany(open));
            }
        }
        let (rating, provisional) = rating_of(self, who.as_ref(), spec.kind).await;
        let token = crate::secrets::secret()?;
        let now = now_ms();
        let row = SeekRow {
            id: crate::secrets::game_id()?,
            created_ms: now,
            expires_ms: now + SEEK_TTL_MS,
            kind: spec.kind,
            settings,
            clock,
            rated: spec.rated,
            seat: match spec.seat {
                Some(s) => s,
                None => crate::secrets::coin()?,
            },
            rating: who.as_ref().map(|_| rating),
            account: who,
            rating_min: spec.rating_min,
            rating_max: spec.rating_max,
            pool: pool.map(str::to_string),
            token_hash: crate::secrets::hash(&token),
            game: None,
        };
        let view = SeekView::of(&row, provisional);
        let json = serde_json::to_string(&view).map_err(|e| GameError::Internal(e.to_string()))?;
        let id = row.id.clone();
        self.store().add_seek(row, json.clone()).await?;
        // A pool's seek is not shown in the lobby.
        if pool.is_none() {
            self.lobby_changed(LobbyNotice::Added {
                id: id.clone(),
                view: json,
            });
        }
        Ok(Made { id, token })
    }

    /// The open seeks, oldest first (not the pools').
    ///
    /// # Errors
    /// The store failed.
    pub async fn seeks(&self) -> Result<Vec<SeekView>, LobbyError> {
        let rows = self.store().open_seeks(now_ms()).await?;
        let mut out = vec![];
        for s in rows.iter().filter(|s| s.pool.is_none()) {
            let provisional = match &s.account {
                Some(a) => rating_of(self, Some(a), s.kind).await.1,
                None => true,
            };
            out.push(SeekView::of(s, provisional));
        }
        Ok(out)
    }

    /// Cancels a seek: its creator's token (or account) says it is hers.
    ///
    /// # Errors
    /// No such open seek, or not hers.
    pub async fn cancel_seek(
        &self,
        id: &str,
        token: Option<&str>,
        account: Option<i64>,
    ) -> Result<(), LobbyError> {
        let seek = self
            .store()
            .seek(id)
            .await?
            .filter(|s| s.game.is_none())
            .ok_or_else(|| LobbyError::NoSuchSeek(id.to_string()))?;
        if !owns(&seek, token, account) {
            return Err(LobbyError::NotYours);
        }
        self.drop_seek(id).await
    }

    /// Removes an open seek and tells the lobby.
    pub(crate) async fn drop_seek(&self, id: &str) -> Result<(), LobbyError> {
        if self.store().drop_seek(id).await? {
            self.lobby_changed(LobbyNotice::Gone {
                id: id.to_string(),
                game: None,
            });
        }
        Ok(())
    }

    /// Accepts a seek for `who` (none: a player without an account): one
    /// game, whoever else accepts at the same moment.
    ///
    /// # Errors
    /// No such open seek, taken, one's own, out of range, a rated seek
    /// without an account.
    pub async fn accept_seek(
        &self,
        id: &str,
        who: Option<SeatAccount>,
        token: Option<&str>,
    ) -> Result<Paired, LobbyError> {
        let seek = self
            .store()
            .seek(id)
            .await?
            .ok_or_else(|| LobbyError::NoSuchSeek(id.to_string()))?;
        if seek.game.is_some() {
            return Err(LobbyError::Taken);
        }
        if seek.expires_ms <= now_ms() {
            return Err(LobbyError::NoSuchSeek(id.to_string()));
        }
        if owns(&seek, token, who.as_ref().map(|a| a.id)) {
            return Err(LobbyError::Own);
        }
        if seek.rated && who.is_none() {
            return Err(LobbyError::NotSignedIn);
        }
        self.check_pause(who.as_ref().map(|a| a.id), seek.rated)
            .await?;
        if seek.rating_min.is_some() || seek.rating_max.is_some() {
            if who.is_none() {
                return Err(LobbyError::OutOfRange(
                    "this seek asks for a rating range: sign in to accept it".into(),
                ));
            }
            let (r, _) = rating_of(self, who.as_ref(), seek.kind).await;
            let lo = seek.rating_min.unwrap_or(f64::MIN);
            let hi = seek.rating_max.unwrap_or(f64::MAX);
            if r < lo || r > hi {
                return Err(LobbyError::OutOfRange(format!(
                    "your rating ({}) is outside this seek's range",
                    r.round()
                )));
            }
        }
        let mine = crate::secrets::secret()?;
        let game = self
            .pair(&seek, crate::secrets::hash(&mine), who, None)
            .await?;
        Ok(Paired { game, token: mine })
    }

    /// Opens the game of a seek taken by a player whose seat token's hash is
    /// `theirs` (and, from a pool, of her own seek `other`, taken too): the
    /// seek's creator in her seat, the other player in the other. Answers
    /// the game's id.
    pub(crate) async fn pair(
        &self,
        seek: &SeekRow,
        theirs: String,
        who: Option<SeatAccount>,
        other: Option<&SeekRow>,
    ) -> Result<String, LobbyError> {
        // Never two players one of whom blocks the other, however they
        // meet (a seek accepted, a pool's pairing): asked before the seek
        // is taken, so a refused taker leaves it as it was.
        if let (Some(a), Some(b)) = (&seek.account, &who) {
            self.may_meet(a.id, b.id).await?;
        }
        let game_id = crate::secrets::game_id()?;
        if !self.store().take_seek(&seek.id, &game_id, now_ms()).await? {
            return Err(LobbyError::Taken);
        }
        if let Some(o) = other {
            if !self.store().take_seek(&o.id, &game_id, now_ms()).await? {
                self.store().untake_seek(&seek.id, &game_id).await?;
                return Err(LobbyError::Taken);
            }
        }
        let opened = self.open_paired(seek, &game_id, theirs, who).await;
        if let Err(e) = opened {
            self.store().untake_seek(&seek.id, &game_id).await?;
            if let Some(o) = other {
                self.store().untake_seek(&o.id, &game_id).await?;
            }
            return Err(e);
        }
        for s in std::iter::once(seek).chain(other) {
            self.store().announce_taken(&s.id, &game_id).await?;
            self.lobby_changed(LobbyNotice::Gone {
                id: s.id.clone(),
                game: Some(game_id.clone()),
            });
        }
        Ok(game_id)
    }

    /// Checks a game's settings as a seek's are checked (the rules or the
    /// match's length, and the clock): the settings header and the clock.
    ///
    /// # Errors
    /// Settings or a clock out of range.
    pub(crate) fn checked_settings(
        kind: Kind,
        rules: Option<&str>,
        to: u32,
        clock: Option<crate::clock::ClockSettings>,
    ) -> Result<(String, Option<crate::clock::ClockSettings>), LobbyError> {
        let settings = crate::kinds::of(kind).settings(&SettingsFields {
            rules,
            to,
            draw: None,
            stake: None,
        })?;
        let clock = clock
            .map(|c| c.check().map_err(LobbyError::BadClock))
            .transpose()?;
        Ok((settings, clock))
    }

    /// A player's rating in a game, and whether it is provisional.
    pub(crate) async fn rating(&self, who: &SeatAccount, kind: Kind) -> (f64, bool) {
        rating_of(self, Some(who), kind).await
    }

    /// Whether a player may be paired now (not paused for abandoning
    /// games; for a rated game, not banned from rated play).
    ///
    /// # Errors
    /// Her pause or ban, in words; the store failed.
    pub(crate) async fn may_play(&self, account: i64, rated: bool) -> Result<(), LobbyError> {
        self.check_pause(Some(account), rated).await
    }

    /// A lobby socket holds a seek (its creator is in the lobby): true when
    /// the token is the seek's.
    pub async fn hold_seek(&self, id: &str, token: &str) -> bool {
        let Ok(Some(seek)) = self.store().seek(id).await else {
            return false;
        };
        if seek.game.is_some() || !owns(&seek, Some(token), None) {
            return false;
        }
        if let Ok(mut held) = self.hub().held.lock() {
            *held.entry(id.to_string()).or_insert(0) += 1;
        }
        true
    }

    /// A lobby socket that held a seek closed: when no socket holds it any
    /// more, its creator has left, and the seek goes.
    pub async fn release_seek(&self, id: &str) {
        let last = self
            .hub()
            .held
            .lock()
            .is_ok_and(|mut held| match held.get_mut(id) {
                Some(n) if *n > 1 => {
                    *n -= 1;
                    false
                }
                Some(_) => {
                    held.remove(id);
                    true
                }
                None => false,
            });
        if last {
            if let Err(e) = self.drop_seek(id).await {
                tracing::warn!(seek = %id, error = %e, "could not remove a seek");
            }
        }
    }
}

/// Whether the request's seat token or account is the seek's creator's.
pub(super) fn owns(seek: &SeekRow, token: Option<&str>, account: Option<i64>) -> bool {
    let by_token = token
        .filter(|t| !t.is_empty())
        .is_some_and(|t| crate::secrets::same(&crate::secrets::hash(t), &seek.token_hash));
    let by_account = account.is_some_and(|a| seek.account.as_ref().is_some_and(|b| b.id == a));
    by_token || by_account
}
