//! The director: once a second, and at once when a game ends, it moves
//! every event on. Any instance tells players an event is about to start
//! and starts it (the store's conditional writes make each happen once);
//! a running event is paired by the one instance holding its lease, which
//! another takes over within [`LEASE_MS`] if it goes quiet. Every game is
//! opened through the lobby's door for a game, never a second path; what
//! the director keeps is in the store, so a restart loses nothing.

use super::ask::Spec;
use super::bout::{self, GameEnd};
use super::pairing;
use super::service::{spec_of, TournamentError, Tournaments};
use super::standings::VOID;
use crate::clock::now_ms;
use crate::model::{EventKind, EventStatus, Kind, Status};
use crate::push::TournamentNews;
use crate::session::Session;
use crate::store::{BoutRow, TournamentRow};
use std::time::Duration;
use EventStatus::{Finished, Running, Upcoming};

/// How long a lease to pair an event lasts without being renewed.
pub const LEASE_MS: i64 = 5_000;

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
        pairing::pair_arena(self, t, spec, t.game, bouts).await
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
            if !pairing::pair_swiss(self, t, spec, kind, t.round, bouts).await? {
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
            if !pairing::pair_swiss(self, t, spec, kind, t.round + 1, bouts).await? {
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
                pairing::tell(self, e.account.id, TournamentNews::Starting, t).await;
            }
        }
        Ok(())
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
}
