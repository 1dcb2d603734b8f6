//! The director: once a second, and at once when a game ends, it moves
//! every event on. Any instance tells players an event is about to start
//! and starts it (the store's conditional writes make each happen once);
//! a running event is paired by the one instance holding its lease, which
//! another takes over within [`LEASE_MS`] if it goes quiet. Every game is
//! opened through the lobby's door for a game, never a second path; what
//! the director keeps is in the store, so a restart loses nothing.

use super::ask::Spec;
use super::bout::{self, GameEnd};
use super::service::{spec_of, TournamentError, Tournaments};
use super::standings::{standings, VOID};
use super::{arena, swiss};
use crate::clock::now_ms;
use crate::games::talk;
use crate::model::{EventKind, EventStatus, Kind, Status};
use crate::push::TournamentNews;
use crate::session::Session;
use crate::store::{BoutRow, SeatAccount, TournamentRow};
use std::collections::{HashMap, HashSet};
use std::time::Duration;
use EventStatus::{Finished, Running, Upcoming};

/// How long a lease to pair an event lasts without being renewed.
pub const LEASE_MS: i64 = 5_000;

/// A player whose pages all closed this lately still counts as there for
/// pairing: a reload (or a moment offline) does not cost her a game.
pub const ONLINE_GRACE_MS: i64 = 10_000;

/// How often the director looks at every event.
pub const TICK: Duration = Duration::from_secs(1);

/// Every so many ticks, every open bout is looked at.
pub const SWEEP_EVERY: u32 = 10;

impl Tournaments {
    /// Runs the director until the app stops: a tick each second, and at
    /// once when games end (those games' bouts settled first); every
    /// [`SWEEP_EVERY`] ticks, every open bout looked at (a game that ended
    /// on an instance that did not say so here).
    pub(super) async fn direct(
        weak: std::sync::Weak<super::service::Inner>,
        instance: String,
        mut endings: tokio::sync::broadcast::Receiver<String>,
        mut stopping: crate::tasks::Stopping,
    ) {
        let mut ticks: u32 = 0;
        loop {
            let mut ended = vec![];
            tokio::select! {
                () = stopping.wait() => return,
                () = tokio::time::sleep(TICK) => {}
                got = endings.recv() => match got {
                    Ok(id) => ended.push(id),
                    // Missed some: the sweep finds them.
                    Err(_) => ticks = SWEEP_EVERY,
                },
            }
            // Games that ended together are settled together.
            while let Ok(id) = endings.try_recv() {
                ended.push(id);
            }
            ticks += 1;
            let sweep = ticks >= SWEEP_EVERY;
            if sweep {
                ticks = 0;
            }
            let Some(inner) = weak.upgrade() else { return };
            let t = Tournaments { inner };
            if let Err(e) = t.tick(&instance, &ended, sweep).await {
                tracing::warn!(error = %e, "the tournament director could not look at the events");
            }
        }
    }

    /// Moves every upcoming and running event on, once: first the bouts of
    /// the games in `ended`; with `sweep`, every open bout.
    ///
    /// # Errors
    /// The store failed.
    pub async fn tick(
        &self,
        instance: &str,
        ended: &[String],
        sweep: bool,
    ) -> Result<(), TournamentError> {
        let began = std::time::Instant::now();
        self.make_scheduled().await;
        // Games that ended together are settled together (the store joins
        // their writes in one commit).
        let settled =
            futures_util::future::join_all(ended.iter().map(|g| self.settle_game(g))).await;
        for (game, r) in ended.iter().zip(settled) {
            if let Err(e) = r {
                tracing::warn!(game = %game, error = %e, "a tournament bout could not be settled");
            }
        }
        let settling = began.elapsed();
        for t in self.store().tournaments(0).await? {
            if let Err(e) = self.step(&t, instance, sweep).await {
                tracing::warn!(tournament = %t.id, error = %e, "a tournament could not move on");
            }
        }
        // Where a busy arena's time goes (`--log-level agon_server::tournaments=debug`).
        tracing::debug!(
            ended = ended.len(),
            settle_ms = settling.as_millis() as u64,
            total_ms = began.elapsed().as_millis() as u64,
            "the tournament director's tick"
        );
        Ok(())
    }

    /// Settles the bout a game that just ended belongs to, if it is over.
    async fn settle_game(&self, game: &str) -> Result<(), TournamentError> {
        let Some(b) = self.store().bout_of(game).await? else {
            return Ok(());
        };
        if b.score0.is_some() || b.account1.is_none() {
            return Ok(());
        }
        let Some(t) = self.store().tournament(&b.tournament).await? else {
            return Ok(());
        };
        if let Some((score, turns)) = self.result_of(&b, t.game).await? {
            if self
                .store()
                .end_bout(&b.game, score, turns, now_ms())
                .await?
            {
                self.changed(&t.id);
            }
        }
        Ok(())
    }

    async fn step(
        &self,
        t: &TournamentRow,
        instance: &str,
        sweep: bool,
    ) -> Result<(), TournamentError> {
        let now = now_ms();
        let spec = spec_of(t)?;
        if t.status == EventStatus::Upcoming {
            if t.starts_ms - now <= super::service::TELL_BEFORE_MS {
                self.tell_starting(t).await?;
            }
            if now >= t.starts_ms
                && self
                    .store()
                    .advance_tournament(&t.id, (Upcoming, 0), (Running, 0), None)
                    .await?
            {
                self.changed(&t.id);
            }
            return Ok(());
        }
        if !self.hold_lease(&t.id, instance, now).await? {
            return Ok(());
        }
        let kind = t.game;
        // Bouts are settled as their games end (`settle_game`); the sweep
        // looks at every open one.
        let bouts = if sweep {
            self.settle(t, kind).await?
        } else {
            self.store().bouts(&t.id).await?
        };
        let open = bouts
            .iter()
            .any(|b| b.score0.is_none() && b.account1.is_some());
        match t.kind {
            EventKind::Arena => self.step_arena(t, &spec, &bouts, open, now).await,
            EventKind::Swiss => self.step_swiss(t, &spec, &bouts, open, now).await,
        }
    }

    /// An arena under way: pairs whoever waits, until its end; finished
    /// once its end has passed and its last game ended.
    async fn step_arena(
        &self,
        t: &TournamentRow,
        spec: &Spec,
        bouts: &[BoutRow],
        open: bool,
        now: i64,
    ) -> Result<(), TournamentError> {
        if t.ends_ms.is_some_and(|e| now >= e) {
            // Past its end: no new games; finished once the last ends.
            if !open
                && self
                    .store()
                    .advance_tournament(&t.id, (Running, 0), (Finished, 0), None)
                    .await?
            {
                self.changed(&t.id);
            }
            return Ok(());
        }
        self.pair_arena(t, spec, t.game, bouts).await
    }

    /// A Swiss event under way: once every game of the round has ended, the
    /// next round paired (by whoever moves the round on), or the event
    /// finished after its last.
    async fn step_swiss(
        &self,
        t: &TournamentRow,
        spec: &Spec,
        bouts: &[BoutRow],
        open: bool,
        now: i64,
    ) -> Result<(), TournamentError> {
        let kind = t.game;
        let rounds = i64::from(spec.rounds.unwrap_or(1));
        if open {
            return Ok(());
        }
        let active = self
            .store()
            .entrants(&t.id)
            .await?
            .iter()
            .filter(|e| !e.withdrawn)
            .count();
        if t.round >= rounds || (t.round == 0 && active < 2) {
            if self
                .store()
                .advance_tournament(&t.id, (Running, t.round), (Finished, t.round), Some(now))
                .await?
            {
                self.changed(&t.id);
            }
            return Ok(());
        }
        // A round moved on whose pairing was lost (the instance that
        // moved it stopped): paired now.
        if t.round >= 1 && !bouts.iter().any(|b| b.round == t.round) && active >= 2 {
            if !self.pair_swiss(t, spec, kind, t.round, bouts).await? {
                self.end_unpairable(t, t.round, now).await?;
            }
            self.changed(&t.id);
            return Ok(());
        }
        // The next round: whoever moves the round on pairs it.
        if self
            .store()
            .advance_tournament(&t.id, (Running, t.round), (Running, t.round + 1), None)
            .await?
        {
            if !self.pair_swiss(t, spec, kind, t.round + 1, bouts).await? {
                self.end_unpairable(t, t.round + 1, now).await?;
            }
            self.changed(&t.id);
        }
        Ok(())
    }

    /// Holds (or takes) the lease to pair an event: written to the store
    /// when less than [`LEASE_MS`] minus a second of it is left (not at
    /// every tick: a busy arena ticks many times a second), so it never
    /// runs out while this instance lives.
    async fn hold_lease(
        &self,
        id: &str,
        instance: &str,
        now: i64,
    ) -> Result<bool, TournamentError> {
        let held = self
            .inner
            .leases
            .lock()
            .ok()
            .and_then(|l| l.get(id).copied());
        if held.is_some_and(|until| until - now > LEASE_MS - 1_000) {
            return Ok(true);
        }
        let ok = self
            .store()
            .lease_tournament(id, instance, now, now + LEASE_MS)
            .await?;
        if let Ok(mut l) = self.inner.leases.lock() {
            if ok {
                l.insert(id.to_string(), now + LEASE_MS);
            } else {
                l.remove(id);
            }
        }
        Ok(ok)
    }

    /// Makes each scheduled event coming within its entry's time ahead
    /// (once: its schedule key is unique in the store).
    async fn make_scheduled(&self) {
        let now = now_ms();
        for entry in &self.inner.schedule {
            let start = entry.next_start(now);
            if start - now > entry.ahead_ms() {
                continue;
            }
            let ask = entry.at(start);
            let key = ask.schedule.clone().unwrap_or_default();
            if self.inner.made.lock().is_ok_and(|m| m.contains(&key)) {
                continue;
            }
            match self.create(ask, None).await {
                Ok(_) => {
                    if let Ok(mut m) = self.inner.made.lock() {
                        m.insert(key);
                    }
                }
                Err(e) => {
                    tracing::warn!(entry = %entry.key, error = %e, "a scheduled tournament could not be made");
                }
            }
        }
    }

    /// Tells each player entered that the event is about to start, once
    /// (in her pages, and by Web Push when she is away).
    async fn tell_starting(&self, t: &TournamentRow) -> Result<(), TournamentError> {
        for e in self.store().entrants(&t.id).await? {
            if e.withdrawn || e.told_ms.is_some() {
                continue;
            }
            if self
                .store()
                .mark_told(&t.id, e.account.id, now_ms())
                .await?
            {
                self.tell(e.account.id, TournamentNews::Starting, t).await;
            }
        }
        Ok(())
    }

    /// Tells a player of her tournament: her pages on every instance look
    /// again (the site's socket), and Web Push reaches her when away.
    async fn tell(&self, account: i64, news: TournamentNews, t: &TournamentRow) {
        if let Err(e) = self.inner.people.announce(account).await {
            tracing::warn!(error = %e, "could not announce a tournament's news");
        }
        let name = t.name.clone();
        talk::push_account(
            self.inner.people.games(),
            account,
            move |lang| crate::push::tournament_words(lang, news, &name),
            format!("/t/{}", t.id),
            format!("agon-tournament-{}", t.id),
        );
    }

    /// Notes every bout whose games are over; answers the bouts as they
    /// stand.
    async fn settle(&self, t: &TournamentRow, kind: Kind) -> Result<Vec<BoutRow>, TournamentError> {
        let mut bouts = self.store().bouts(&t.id).await?;
        let mut any = false;
        for b in bouts.iter_mut() {
            if b.score0.is_some() || b.account1.is_none() {
                continue;
            }
            if let Some((score, turns)) = self.result_of(b, kind).await? {
                if self
                    .store()
                    .end_bout(&b.game, score, turns, now_ms())
                    .await?
                {
                    any = true;
                }
                b.score0 = Some(score);
                b.turns = Some(turns);
                b.ended_ms = Some(now_ms());
            }
        }
        if any {
            self.changed(&t.id);
        }
        Ok(bouts)
    }

    /// A bout's result once its games are over: the first seat's score
    /// (1, ½, 0; a Ringo pair's two games halved; [`VOID`] for a first game
    /// ended before each side moved) and the turns its games took
    /// ([`bout::result`]).
    async fn result_of(
        &self,
        b: &BoutRow,
        kind: Kind,
    ) -> Result<Option<(f64, i64)>, TournamentError> {
        let Some(first) = self.load(&b.game).await? else {
            return Ok(Some((VOID, 0)));
        };
        if !first.is_over() {
            return Ok(None);
        }
        let one = GameEnd::of(&first, b.account0);
        // A bout of one game (an Urgammon match) is over with it; a first
        // game of a pair that was no game voids the pair: no second game
        // is opened for it.
        if !crate::kinds::of(kind).plays_pairs() || !one.begun || first.status() == Status::Aborted
        {
            return Ok(Some(bout::result(one, None)));
        }
        let Some(second) = first.row.rematch.clone() else {
            return Ok(None);
        };
        let Some(second) = self.load(&second).await? else {
            return Ok(None);
        };
        if !second.is_over() {
            return Ok(None);
        }
        Ok(Some(bout::result(
            one,
            Some(GameEnd::of(&second, b.account0)),
        )))
    }

    async fn load(&self, id: &str) -> Result<Option<Session>, TournamentError> {
        let Some(loaded) = self.store().load(id).await? else {
            return Ok(None);
        };
        Ok(Some(Session::from_stored(loaded).map_err(|e| {
            TournamentError::Broken(format!("a damaged game {id}: {e}"))
        })?))
    }

    /// Who is there to be paired: entered, not withdrawn, not in a game,
    /// online (a page open on any instance, or closed less than
    /// [`ONLINE_GRACE_MS`] ago: nobody is paired while away),
    /// and free to play (no pause, no ban from rated play).
    /// Also answers how many entrants are in a game now (not withdrawn).
    async fn ready(
        &self,
        t: &TournamentRow,
        spec: &Spec,
        bouts: &[BoutRow],
    ) -> Result<(Vec<crate::store::EntrantRow>, usize), TournamentError> {
        let online = self.online_or_just_left().await?;
        let mut candidates = vec![];
        let mut playing = 0;
        for e in self.store().entrants(&t.id).await? {
            let a = e.account.id;
            if e.withdrawn {
                continue;
            }
            if super::standings::playing(bouts, a).is_some() {
                playing += 1;
                continue;
            }
            if online.contains(&a) {
                candidates.push(e);
            }
        }
        // Each free to play (no pause, no ban from rated play), asked
        // together: a busy arena has hundreds waiting at a tick.
        let free = futures_util::future::join_all(
            candidates
                .iter()
                .map(|e| self.lobby().may_play(e.account.id, spec.rated)),
        )
        .await;
        let out = candidates
            .into_iter()
            .zip(free)
            .filter_map(|(e, f)| f.is_ok().then_some(e))
            .collect();
        Ok((out, playing))
    }

    /// The players online now, and those seen online here within
    /// [`ONLINE_GRACE_MS`].
    async fn online_or_just_left(&self) -> Result<HashSet<i64>, TournamentError> {
        let now = now_ms();
        let online = self.inner.people.online().await?.ids;
        let Ok(mut seen) = self.inner.seen.lock() else {
            return Ok(online.into_iter().collect());
        };
        for &a in &online {
            seen.insert(a, now);
        }
        seen.retain(|_, at| now - *at <= ONLINE_GRACE_MS);
        Ok(seen.keys().copied().collect())
    }

    /// Pairs the arena's waiting players (see [`arena::pair`]).
    async fn pair_arena(
        &self,
        t: &TournamentRow,
        spec: &Spec,
        kind: Kind,
        bouts: &[BoutRow],
    ) -> Result<(), TournamentError> {
        let (ready, playing) = self.ready(t, spec, bouts).await?;
        if ready.len() < 2 {
            return Ok(());
        }
        let entrants = self.store().entrants(&t.id).await?;
        let standing: HashMap<i64, f64> = standings(t.kind, &entrants, bouts)
            .iter()
            .map(|s| (s.account, s.score))
            .collect();
        let waiting: Vec<arena::Waiting> = ready
            .iter()
            .map(|e| {
                let a = e.account.id;
                let mine: Vec<&BoutRow> = bouts
                    .iter()
                    .filter(|b| b.account1.is_some() && (b.account0 == a || b.account1 == Some(a)))
                    .collect();
                let seat = |b: &BoutRow| usize::from(b.account0 != a);
                let mut seats = [0u32; 2];
                for b in &mine {
                    seats[seat(b)] += 1;
                }
                arena::Waiting {
                    account: a,
                    points: standing.get(&a).copied().unwrap_or(0.0) as u32,
                    rating: e.rating,
                    last_opponent: mine.last().and_then(|b| {
                        if b.account0 == a {
                            b.account1
                        } else {
                            Some(b.account0)
                        }
                    }),
                    seats,
                    last_seat: mine.last().map(|b| seat(b)),
                }
            })
            .collect();
        let ids: Vec<i64> = waiting.iter().map(|w| w.account).collect();
        let blocked = self.lobby().kept_apart(&ids).await?;
        let names: HashMap<i64, SeatAccount> = ready
            .iter()
            .map(|e| (e.account.id, e.account.clone()))
            .collect();
        let pairs = arena::pair(&waiting, &blocked, playing);
        let began = std::time::Instant::now();
        let opened = self.open_bouts(t, spec, kind, 0, &pairs, &names).await;
        tracing::debug!(
            waiting = waiting.len(),
            paired = pairs.len(),
            open_ms = began.elapsed().as_millis() as u64,
            "an arena paired"
        );
        opened
    }

    /// A Swiss round that could pair nobody (every pair left blocks each
    /// other or has met, and no bye is allowed): no later round could
    /// either, so the event ends with the standings it has, rather than
    /// wait for ever (docs/tournaments.md).
    async fn end_unpairable(
        &self,
        t: &TournamentRow,
        round: i64,
        now: i64,
    ) -> Result<(), TournamentError> {
        tracing::info!(tournament = %t.id, round, "a Swiss round could pair nobody: the event ends");
        self.store()
            .advance_tournament(&t.id, (Running, round), (Finished, round), Some(now))
            .await?;
        Ok(())
    }

    /// Pairs a Swiss round (see [`swiss::pair`]); the bye scores a point.
    /// Answers whether it paired anyone (a board or the bye).
    async fn pair_swiss(
        &self,
        t: &TournamentRow,
        spec: &Spec,
        kind: Kind,
        round: i64,
        bouts: &[BoutRow],
    ) -> Result<bool, TournamentError> {
        let entrants = self.store().entrants(&t.id).await?;
        // Withdrawn players are paired no more; a player paused by fair
        // play (or banned from rated play, in a rated event) sits this
        // round out.
        let mut active: Vec<&crate::store::EntrantRow> = vec![];
        for e in entrants.iter().filter(|e| !e.withdrawn) {
            if self
                .lobby()
                .may_play(e.account.id, spec.rated)
                .await
                .is_ok()
            {
                active.push(e);
            }
        }
        let players: Vec<(i64, f64)> = active.iter().map(|e| (e.account.id, e.rating)).collect();
        let field = swiss_field(&players, bouts, round);
        let ids: Vec<i64> = field.iter().map(|e| e.account).collect();
        let blocked = self.lobby().kept_apart(&ids).await?;
        let rules = swiss::Rules {
            colours: crate::kinds::of(kind).seats_are_colours(),
            final_round: i64::from(spec.rounds.unwrap_or(1)) == round,
            // The top seed takes the first seat in round one.
            initial: 0,
        };
        // A large field's search takes a while: off the runtime's threads.
        let pairing = tokio::task::spawn_blocking(move || swiss::pair(&field, &blocked, rules))
            .await
            .unwrap_or_default();
        if pairing.limited {
            // Common in large or lopsided brackets and not an error: the
            // pairing meets every absolute criterion; the metric counts them.
            tracing::info!(
                tournament = %t.id,
                round,
                players = ids.len(),
                "the Swiss pairing's search stopped at its bound: this round's pairing may be worse than the Dutch system's best"
            );
        }
        crate::metrics::swiss_round(if pairing.limited { "limited" } else { "best" });
        let names: HashMap<i64, SeatAccount> = active
            .iter()
            .map(|e| (e.account.id, e.account.clone()))
            .collect();
        self.open_bouts(t, spec, kind, round, &pairing.boards, &names)
            .await?;
        let paired = !pairing.boards.is_empty() || pairing.bye.is_some();
        if let Some(bye) = pairing.bye {
            let now = now_ms();
            self.store()
                .add_bout(BoutRow {
                    tournament: t.id.clone(),
                    game: format!("bye-{round}-{bye}"),
                    round,
                    account0: bye,
                    account1: None,
                    berserk: [false; 2],
                    score0: Some(1.0),
                    created_ms: now,
                    ended_ms: Some(now),
                    turns: None,
                })
                .await?;
        }
        Ok(paired)
    }

    /// Opens the bouts of one pairing together: each player waits for her
    /// own game only, and the store joins their writes in few commits.
    async fn open_bouts(
        &self,
        t: &TournamentRow,
        spec: &Spec,
        kind: Kind,
        round: i64,
        pairs: &[[i64; 2]],
        names: &HashMap<i64, SeatAccount>,
    ) -> Result<(), TournamentError> {
        let opened = futures_util::future::join_all(
            pairs
                .iter()
                .map(|[a, b]| self.open_bout(t, spec, kind, round, [&names[a], &names[b]])),
        )
        .await;
        opened.into_iter().collect()
    }

    /// Opens one bout's game through the lobby's door (a Ringo bout is a
    /// pair of games), notes it, and tells both players.
    async fn open_bout(
        &self,
        t: &TournamentRow,
        spec: &Spec,
        kind: Kind,
        round: i64,
        seats: [&SeatAccount; 2],
    ) -> Result<(), TournamentError> {
        let game = match self
            .lobby()
            .open_bout(
                kind,
                &spec.settings,
                spec.clock,
                spec.rated,
                [seats[0].clone(), seats[1].clone()],
            )
            .await
        {
            Ok(g) => g,
            Err(e) => {
                tracing::warn!(tournament = %t.id, error = %e, "a tournament game could not be opened");
                return Ok(());
            }
        };
        self.store()
            .add_bout(BoutRow {
                tournament: t.id.clone(),
                game: game.clone(),
                round,
                account0: seats[0].id,
                account1: Some(seats[1].id),
                berserk: [false; 2],
                score0: None,
                created_ms: now_ms(),
                ended_ms: None,
                turns: None,
            })
            .await?;
        // The event's pages first (her place there shows her game: at once
        // on this instance's sockets), then each player wherever she is.
        for s in seats {
            let _ = self.inner.placed.send((t.id.clone(), s.id, game.clone()));
        }
        self.changed(&t.id);
        futures_util::future::join_all(
            seats
                .iter()
                .map(|s| self.tell(s.id, TournamentNews::GameReady, t)),
        )
        .await;
        Ok(())
    }
}

/// Account `a`'s score in bout `b` once over (a bye is a point); `None`
/// while it is played or when it was called off.
fn scored(b: &BoutRow, a: i64) -> Option<f64> {
    let s = b.score0.filter(|s| *s >= 0.0)?;
    Some(match b.account1 {
        None => 1.0,
        Some(_) if b.account0 == a => s,
        Some(_) => 1.0 - s,
    })
}

/// The Swiss field of round `round` as the Dutch system sees it: each of
/// `players` (account, rating) with her score, opponents, seats, bye, the
/// float of each past round and the rounds she did not play, from the
/// event's stored `bouts`.
fn swiss_field(players: &[(i64, f64)], bouts: &[BoutRow], round: i64) -> Vec<swiss::Entrant> {
    // Each player's score in each round, for the scores before a round
    // (A.4: a float is a game against a different score).
    let mut won: HashMap<(i64, i64), f64> = HashMap::new();
    for b in bouts {
        for a in std::iter::once(b.account0).chain(b.account1) {
            if let Some(s) = scored(b, a) {
                *won.entry((a, b.round)).or_default() += s;
            }
        }
    }
    let before = |a: i64, r: i64| -> f64 { (1..r).filter_map(|k| won.get(&(a, k))).sum() };
    players
        .iter()
        .map(|&(a, rating)| {
            // A void bout (an aborted game) was not played: it keeps
            // nobody apart, gives no colour and no float (FIDE counts only
            // games played).
            let mut mine: Vec<&BoutRow> = bouts
                .iter()
                .filter(|b| b.account0 == a || b.account1 == Some(a))
                .filter(|b| b.score0 != Some(VOID))
                .collect();
            // Oldest first: the seats' order is the colour history.
            mine.sort_by_key(|b| (b.round, b.created_ms));
            let opponent = |b: &BoutRow| {
                if b.account0 == a {
                    b.account1
                } else {
                    Some(b.account0)
                }
            };
            let floats = (1..round)
                .map(|r| match mine.iter().find(|b| b.round == r) {
                    None => swiss::Float::None,
                    Some(b) => match opponent(b) {
                        None => swiss::Float::Down,
                        Some(o) => match before(a, r).total_cmp(&before(o, r)) {
                            std::cmp::Ordering::Greater => swiss::Float::Down,
                            std::cmp::Ordering::Less => swiss::Float::Up,
                            std::cmp::Ordering::Equal => swiss::Float::None,
                        },
                    },
                })
                .collect();
            let played = (1..round)
                .filter(|r| mine.iter().any(|b| b.round == *r && b.account1.is_some()))
                .count();
            swiss::Entrant {
                account: a,
                rating,
                score: mine.iter().filter_map(|b| scored(b, a)).sum(),
                opponents: mine.iter().filter_map(|b| opponent(b)).collect(),
                seats: mine
                    .iter()
                    .filter(|b| b.account1.is_some())
                    .map(|b| usize::from(b.account0 != a))
                    .collect(),
                had_bye: mine.iter().any(|b| b.account1.is_none()),
                floats,
                unplayed: (round as usize).saturating_sub(1 + played),
            }
        })
        .collect()
}

#[cfg(test)]
mod tests {
    use super::*;

    fn bout(round: i64, a: i64, b: Option<i64>, score0: f64) -> BoutRow {
        BoutRow {
            tournament: "t".into(),
            game: format!("g{round}{a}"),
            round,
            account0: a,
            account1: b,
            berserk: [false; 2],
            score0: Some(score0),
            created_ms: round,
            ended_ms: Some(round),
            turns: Some(30),
        }
    }

    /// Three rounds played by 1–5: round 1 1–2 (1 wins), 3–4 (drawn), 5
    /// the bye; round 2 1–3 (1 wins: 1 had 1 point, 3 ½: 1 floats down, 3
    /// up), 5–2 (2 wins), 4 absent; round 3 4–5 (4 wins), stored first,
    /// and 1–2 again, aborted (void: not played, so not a meeting).
    #[test]
    fn the_swiss_field_is_read_from_the_stored_bouts() {
        let bouts = vec![
            bout(3, 4, Some(5), 1.0),
            bout(1, 1, Some(2), 1.0),
            bout(1, 3, Some(4), 0.5),
            bout(1, 5, None, 1.0),
            bout(2, 1, Some(3), 1.0),
            bout(2, 5, Some(2), 0.0),
            bout(3, 1, Some(2), VOID),
        ];
        let players: Vec<(i64, f64)> = (1..=5).map(|a| (a, 2000.0 - a as f64)).collect();
        let field = swiss_field(&players, &bouts, 4);
        let of = |a: i64| field.iter().find(|e| e.account == a).unwrap();
        use swiss::Float::{Down, Up};
        let none = swiss::Float::None;
        assert_eq!(of(1).score, 2.0);
        assert_eq!(of(1).seats, vec![0, 0]);
        assert_eq!(of(1).floats, vec![none, Down, none]);
        assert_eq!(of(1).unplayed, 1, "1 did not play round 3");
        assert_eq!(of(1).opponents, vec![2, 3], "the void bout is no meeting");
        assert_eq!(of(2).seats, vec![1, 1]);
        assert_eq!(of(3).floats, vec![none, Up, none]);
        assert_eq!(of(5).opponents, vec![2, 4]);
        assert_eq!(
            of(5).floats,
            vec![Down, Down, Down],
            "a bye is a downfloat; then 1 point against 0, and 1 against ½"
        );
        assert!(of(5).had_bye);
        assert_eq!(of(5).seats, vec![0, 1], "oldest first");
        assert_eq!(of(5).unplayed, 1);
        assert_eq!(of(4).floats, vec![none, none, Up]);
        assert_eq!(of(4).score, 1.5);
    }
}
