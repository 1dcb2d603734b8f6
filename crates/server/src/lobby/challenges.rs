//! Challenges by name: one signed-in player asks another for a game (the
//! game, its rules or match length, a clock or days, rated or casual, a
//! side). The challenged player hears of it on every page she has open
//! (the site socket) and by Web Push; she accepts (one game, made through
//! the games service as a seek's is) or declines; the sender may cancel.
//! A live-clock challenge lapses after [`LIVE_CHALLENGE_MS`]: its sender
//! is no longer waiting at the board.

use super::error::LobbyError;
use super::service::{Lobby, Paired, SeekSpec};
use crate::accounts::ChallengePolicy;
use crate::clock::{now_ms, ClockSettings};
use crate::games::talk;
use crate::kinds::SettingsFields;
use crate::model::Kind;
use crate::store::{Capped, Relation};
use crate::store::{ChallengeRow, ChallengeStatus, SeatAccount, SeekRow};
use serde::Serialize;

pub use crate::store::LIVE_CHALLENGE_MS;

/// How many challenges of each list one page of `GET /api/challenges`
/// holds (the next page from the cursor it answers).
pub const CHALLENGES_PAGE: usize = 100;

/// How long an answered challenge is still listed to its two players (so
/// its sender reads that it was declined).
pub const ANSWERED_SHOWN_MS: i64 = 10 * 60_000;

/// The most open challenges one player may have sent at once.
pub const MAX_CHALLENGES_EACH: usize = 10;

/// A challenge as its two players see it.
#[derive(Serialize, Clone, Debug, PartialEq)]
pub struct ChallengeView {
    /// Its id.
    pub id: String,
    /// Who sent it.
    pub from: Option<String>,
    /// Whom it asks (as the request's `user`).
    pub user: Option<String>,
    /// Which game.
    pub game: Kind,
    /// The rules string (Ringo) or the match header (Urgammon).
    pub settings: String,
    /// The clock, if any.
    pub clock: Option<ClockSettings>,
    /// The clock as players read it (`5+3`, `2 days`), if any.
    pub clock_label: Option<String>,
    /// Rated.
    pub rated: bool,
    /// The sender's side (`random` until it is accepted).
    pub side: &'static str,
    /// `open`, `accepted`, `declined` or `cancelled`.
    pub status: ChallengeStatus,
    /// Its game, once accepted.
    pub game_id: Option<String>,
    /// When it was sent, in milliseconds since the epoch.
    pub created_ms: i64,
    /// The sender's rating in this game, as the challenge bar shows it
    /// beside her name (it decides whether to accept); in the lists.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub from_rating: Option<ChallengerRating>,
}

/// A challenger's rating in the challenge's game.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize)]
pub struct ChallengerRating {
    /// Rounded.
    pub rating: i64,
    /// Too few rated games to be sure (shown with a `?`).
    pub provisional: bool,
}

impl ChallengeView {
    /// The view of a stored challenge.
    pub fn of(c: &ChallengeRow) -> ChallengeView {
        ChallengeView {
            id: c.id.clone(),
            from: c.from.name.clone(),
            user: c.to.name.clone(),
            game: c.kind,
            settings: c.settings.clone(),
            clock: c.clock,
            clock_label: c.clock.map(ClockSettings::label),
            rated: c.rated,
            side: c.seat.map_or("random", |s| c.kind.seat_name(s)),
            status: c.status,
            game_id: c.game.clone(),
            created_ms: c.created_ms,
            from_rating: None,
        }
    }
}

/// A player's challenges: received and sent, each list on its own (so
/// many received never hide those she sent), a page at a time.
#[derive(Serialize, Clone, Debug, Default)]
pub struct Challenges {
    /// Sent to her: the open ones, and those answered lately.
    pub incoming: Vec<ChallengeView>,
    /// Sent by her: likewise.
    pub outgoing: Vec<ChallengeView>,
    /// The cursor of `incoming`'s next page (`?incoming_before=`), when
    /// there is one.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub incoming_next: Option<String>,
    /// The cursor of `outgoing`'s next page (`?outgoing_before=`), when
    /// there is one.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub outgoing_next: Option<String>,
}

/// Where a page of challenges starts: after the challenge created at
/// `created_ms` with this id (newest first), written `created_ms.id`.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct ChallengeCursor {
    /// When the last challenge of the page before was sent.
    pub created_ms: i64,
    /// Its id.
    pub id: String,
}

impl std::str::FromStr for ChallengeCursor {
    type Err = LobbyError;

    fn from_str(s: &str) -> Result<ChallengeCursor, LobbyError> {
        let bad = || LobbyError::BadCursor(s.chars().take(64).collect());
        let (ms, id) = s.split_once('.').ok_or_else(bad)?;
        let created_ms = ms.parse().map_err(|_| bad())?;
        if !crate::store::is_game_id(id) {
            return Err(bad());
        }
        Ok(ChallengeCursor {
            created_ms,
            id: id.to_string(),
        })
    }
}

impl std::fmt::Display for ChallengeCursor {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        write!(f, "{}.{}", self.created_ms, self.id)
    }
}

impl Lobby {
    /// Sends a challenge from `from` to the player named `to`.
    ///
    /// # Errors
    /// Bad settings, herself, no such player, a player who takes no such
    /// challenge (from her or at all), one open already to her, too many
    /// open.
    pub async fn challenge(
        &self,
        from: SeatAccount,
        to: &str,
        spec: SeekSpec,
    ) -> Result<ChallengeView, LobbyError> {
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
        let target = self
            .people()
            .named(to)
            .await?
            .ok_or_else(|| LobbyError::NoSuchPlayer(to.chars().take(40).collect()))?;
        if target.id == from.id {
            return Err(LobbyError::ChallengeYourself);
        }
        self.may_meet(from.id, target.id).await?;
        self.check_policy(&from, &target, spec.rated).await?;
        self.check_pause(Some(from.id), spec.rated).await?;
        let now = now_ms();
        let row = ChallengeRow {
            id: crate::secrets::game_id()?,
            from: from.clone(),
            to: target.clone(),
            kind: spec.kind,
            settings,
            clock,
            rated: spec.rated,
            seat: spec.seat,
            status: ChallengeStatus::Open,
            game: None,
            created_ms: now,
            changed_ms: now,
        };
        let view = ChallengeView::of(&row);
        // One open to her, and the cap of open ones: the store's to decide,
        // with the insert.
        match self.store().add_challenge(row, MAX_CHALLENGES_EACH).await? {
            Capped::Added => {}
            Capped::Already => return Err(LobbyError::ChallengeOpen),
            Capped::Full(n) => return Err(LobbyError::TooManyChallenges(n)),
        }
        self.people().person_changed(from.id);
        self.people().person_changed(target.id);
        self.push_challenge(&view, target.id);
        Ok(view)
    }

    /// Refuses a challenge the target does not take (her setting).
    async fn check_policy(
        &self,
        from: &SeatAccount,
        target: &SeatAccount,
        rated: bool,
    ) -> Result<(), LobbyError> {
        let settings = self
            .store()
            .account(target.id)
            .await?
            .and_then(|a| a.settings);
        let name = target.name.clone().unwrap_or_default();
        match crate::accounts::challenge_policy(settings.as_deref()) {
            ChallengePolicy::Everyone => Ok(()),
            ChallengePolicy::Nobody => Err(LobbyError::ChallengeRefused(format!(
                "{name} does not take challenges"
            ))),
            ChallengePolicy::Rated if !rated => Err(LobbyError::ChallengeRefused(format!(
                "{name} takes rated challenges only"
            ))),
            ChallengePolicy::Rated => Ok(()),
            ChallengePolicy::Followed => {
                let followed = self.store().related(Relation::Follow, target.id).await?;
                if followed.iter().any(|f| f.id == from.id) {
                    Ok(())
                } else {
                    Err(LobbyError::ChallengeRefused(format!(
                        "{name} takes challenges only from players she follows"
                    )))
                }
            }
        }
    }

    /// Tells the challenged player by Web Push (she may have no page open).
    fn push_challenge(&self, view: &ChallengeView, target: i64) {
        let from = view.from.clone().unwrap_or_default();
        let game = view.game.title();
        let clock = view.clock_label.clone();
        talk::push_account(
            self.people().games(),
            target,
            move |lang| crate::push::challenge_words(lang, &from, game, clock.as_deref()),
            "/".into(),
            "agon-challenge".into(),
        );
    }

    /// A player's challenges, received and sent, each its own list (open
    /// ones, and those answered in the last [`ANSWERED_SHOWN_MS`]; lapsed
    /// live ones show as cancelled), a page of each from its cursor.
    ///
    /// # Errors
    /// The store failed.
    pub async fn challenges(
        &self,
        me: i64,
        incoming_before: Option<ChallengeCursor>,
        outgoing_before: Option<ChallengeCursor>,
    ) -> Result<Challenges, LobbyError> {
        let now = now_ms();
        let (incoming, incoming_next) =
            self.challenge_page(me, false, incoming_before, now).await?;
        let (outgoing, outgoing_next) = self.challenge_page(me, true, outgoing_before, now).await?;
        Ok(Challenges {
            incoming,
            outgoing,
            incoming_next,
            outgoing_next,
        })
    }

    /// One page of a player's challenges sent (`sent`) or received, and
    /// the cursor of the next page when there is one.
    async fn challenge_page(
        &self,
        me: i64,
        sent: bool,
        before: Option<ChallengeCursor>,
        now: i64,
    ) -> Result<(Vec<ChallengeView>, Option<String>), LobbyError> {
        let rows = self
            .store()
            .challenges_of(
                me,
                sent,
                now - ANSWERED_SHOWN_MS,
                before.map(|c| (c.created_ms, c.id)),
                CHALLENGES_PAGE,
            )
            .await?;
        let next = (rows.len() == CHALLENGES_PAGE)
            .then(|| rows.last())
            .flatten()
            .map(|c| {
                ChallengeCursor {
                    created_ms: c.created_ms,
                    id: c.id.clone(),
                }
                .to_string()
            });
        let mut views = Vec::with_capacity(rows.len());
        // Each sender's rating read once a page (received lists name many
        // players, a sent list one).
        let mut ratings = std::collections::HashMap::new();
        for c in rows.iter().filter(|c| {
            !(c.lapsed(now) && now - c.created_ms > LIVE_CHALLENGE_MS + ANSWERED_SHOWN_MS)
        }) {
            let mut view = ChallengeView::of(c);
            if c.status == ChallengeStatus::Open && c.lapsed(now) {
                view.status = ChallengeStatus::Cancelled;
            }
            let key = (c.from.id, c.kind);
            let (rating, provisional) = match ratings.get(&key) {
                Some(r) => *r,
                None => {
                    let r = self.rating(&c.from, c.kind).await;
                    ratings.insert(key, r);
                    r
                }
            };
            view.from_rating = Some(ChallengerRating {
                rating: rating.round() as i64,
                provisional,
            });
            views.push(view);
        }
        Ok((views, next))
    }

    /// One open challenge `me` may answer as `role` (its sender or its
    /// target).
    async fn open_challenge(
        &self,
        id: &str,
        me: i64,
        sender: bool,
    ) -> Result<ChallengeRow, LobbyError> {
        let c = self
            .store()
            .challenge(id)
            .await?
            .filter(|c| c.from.id == me || c.to.id == me)
            .ok_or_else(|| LobbyError::NoSuchChallenge(id.chars().take(64).collect()))?;
        if (c.from.id == me) != sender {
            return Err(LobbyError::NotYourChallenge(if sender {
                "only its sender cancels a challenge"
            } else {
                "only the challenged player accepts or declines a challenge"
            }));
        }
        if c.status != ChallengeStatus::Open {
            return Err(LobbyError::ChallengeAnswered(c.status));
        }
        if c.lapsed(now_ms()) {
            return Err(LobbyError::ChallengeAnswered(ChallengeStatus::Cancelled));
        }
        Ok(c)
    }

    /// Accepts a challenge sent to `me`: its game is made (the sender in
    /// her seat, by her account; `me` in the other, with a seat token too).
    ///
    /// # Errors
    /// No such challenge, not hers to accept, answered already.
    pub async fn accept_challenge(&self, id: &str, me: SeatAccount) -> Result<Paired, LobbyError> {
        let c = self.open_challenge(id, me.id, false).await?;
        // A block made after the challenge was sent holds too: asked
        // before the challenge is settled, so a refusal leaves it open.
        self.may_meet(c.from.id, me.id).await?;
        self.check_pause(Some(me.id), c.rated).await?;
        let game_id = crate::secrets::game_id()?;
        let seat = match c.seat {
            Some(s) => s,
            None => crate::secrets::coin()?,
        };
        if !self
            .store()
            .settle_challenge(id, ChallengeStatus::Accepted, Some(&game_id), now_ms())
            .await?
        {
            return Err(LobbyError::ChallengeAnswered(ChallengeStatus::Accepted));
        }
        // The sender plays by her account: her seat's token is one nobody
        // holds (each of her signed-in browsers holds the seat).
        let sender_token = crate::secrets::secret()?;
        let mine = crate::secrets::secret()?;
        let as_seek = SeekRow {
            id: c.id.clone(),
            created_ms: c.created_ms,
            expires_ms: c.created_ms,
            kind: c.kind,
            settings: c.settings.clone(),
            clock: c.clock,
            rated: c.rated,
            seat,
            account: Some(c.from.clone()),
            rating: None,
            rating_min: None,
            rating_max: None,
            pool: None,
            token_hash: crate::secrets::hash(&sender_token),
            game: None,
        };
        // A game that could not be opened gives the challenge back, open,
        // as a seek taken for a game that failed is given back.
        if let Err(e) = self
            .open_paired(&as_seek, &game_id, crate::secrets::hash(&mine), Some(me))
            .await
        {
            self.store().unsettle_challenge(id, &game_id).await?;
            return Err(e);
        }
        self.people().person_changed(c.from.id);
        self.people().person_changed(c.to.id);
        Ok(Paired {
            game: game_id,
            token: mine,
        })
    }

    /// An account was closed (by its owner or a moderator): its open
    /// challenges, sent and received, are cancelled (each player told), and
    /// its open seeks go.
    ///
    /// # Errors
    /// The store failed.
    pub async fn account_closed(&self, account: i64) -> Result<(), LobbyError> {
        let now = now_ms();
        for sent in [true, false] {
            // Every page: however many she received.
            let mut before = None;
            loop {
                let page = self
                    .store()
                    .challenges_of(account, sent, now, before, CHALLENGES_PAGE)
                    .await?;
                for c in &page {
                    if c.status == ChallengeStatus::Open
                        && self
                            .store()
                            .settle_challenge(&c.id, ChallengeStatus::Cancelled, None, now)
                            .await?
                    {
                        self.people().person_changed(c.from.id);
                        self.people().person_changed(c.to.id);
                    }
                }
                match page.last() {
                    Some(c) if page.len() == CHALLENGES_PAGE => {
                        before = Some((c.created_ms, c.id.clone()));
                    }
                    _ => break,
                }
            }
        }
        for s in self.store().open_seeks(now).await? {
            if s.account.as_ref().is_some_and(|a| a.id == account) {
                self.drop_seek(&s.id).await?;
            }
        }
        Ok(())
    }

    /// Declines a challenge sent to `me` (`decline`), or cancels one she
    /// sent; its sender (or target) is told.
    ///
    /// # Errors
    /// No such challenge, not hers to answer so, answered already.
    pub async fn drop_challenge(
        &self,
        id: &str,
        me: i64,
        decline: bool,
    ) -> Result<ChallengeView, LobbyError> {
        let mut c = self.open_challenge(id, me, !decline).await?;
        let status = if decline {
            ChallengeStatus::Declined
        } else {
            ChallengeStatus::Cancelled
        };
        if !self
            .store()
            .settle_challenge(id, status, None, now_ms())
            .await?
        {
            return Err(LobbyError::ChallengeAnswered(status));
        }
        c.status = status;
        self.people().person_changed(c.from.id);
        self.people().person_changed(c.to.id);
        Ok(ChallengeView::of(&c))
    }
}
