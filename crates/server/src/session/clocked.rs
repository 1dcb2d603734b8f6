//! A session's clock: whose clock runs, when a flag falls or a live game is
//! aborted for want of a first move, what a change costs each side, and the
//! decisions a clocked game makes by itself because they are no choice.
//! The arithmetic is `crate::clock`'s; this file says when it applies.

use super::actions::{Action, Refusal, SessionError};
use super::game::Session;
use super::moment::{Deadline, Moment};
use super::rules::End;
use crate::clock::{Clock, ClockView};
use crate::dice::{Dice, Drawn};
use crate::model::Mode;
use crate::model::Seat;
use crate::store::Commit;

impl Session {
    /// True for a game with a clock.
    pub fn clocked(&self) -> bool {
        self.row.clock.is_some()
    }

    /// True for a correspondence game (days per move).
    pub fn correspondence(&self) -> bool {
        self.row.clock.is_some_and(|c| c.days != 0)
    }

    /// True while the game waits for no one's decision: over, between two
    /// games of a match, or waiting for the invited friend.
    fn idle(&self) -> bool {
        self.is_over() || self.between_games() || self.waiting_for_friend()
    }

    /// The seat whose clock runs now: the side to act, once both sides have
    /// made their first decision, unless the decision due is no choice.
    pub fn running(&self) -> Option<Seat> {
        if !self.clocked() || self.row.moved != 3 || self.idle() || self.rules.forced() {
            return None;
        }
        self.seat_to_act()
    }

    /// True while the game may be aborted: a game between two people before
    /// both have made a decision. A rated pair's second game may not be
    /// (the pair has begun).
    pub fn abortable(&self) -> bool {
        self.mode() == Mode::Friend
            && !self.is_over()
            && self.row.moved != 3
            && self
                .row
                .pair_first
                .as_ref()
                .is_none_or(|f| *f == self.row.id)
    }

    /// What happens next by the clock, and when: a flag, or an abort for
    /// want of a first move (the clock's `first_move_ms` after the turn
    /// began).
    pub fn deadline(&self) -> Option<Deadline> {
        let clock = self.row.clock?;
        if let Some(r) = self.running() {
            return Some(Deadline::Flag(r, clock.flag_at(r)));
        }
        if self.awaiting_first_move() {
            return Some(Deadline::FirstMove(clock.since_ms + clock.first_move_ms));
        }
        None
    }

    /// True while a live game between people waits for a side's first
    /// decision. Its wait ends in an abort while the game may be aborted;
    /// in a rated pair's second game (the pair has begun) it ends in the
    /// loss of that game by the side that did not begin.
    fn awaiting_first_move(&self) -> bool {
        self.mode() == Mode::Friend
            && self.row.moved != 3
            && !self.idle()
            && self.seat_to_act().is_some()
    }

    /// The game ended by `end` at `at`, as a change to store.
    pub(super) fn stop_with(&self, end: End, at: &Moment<'_>) -> (Session, Commit) {
        let mut next = self.clone();
        next.stopped = Some(end);
        next.row.offer = None;
        self.wind(&mut next, at);
        let keep = self.tokens.len();
        next.sealed(self, keep, vec![])
    }

    /// The clock after the change from `self` to `next` at `at`: the side
    /// whose clock ran is charged (less its lag when it made the change)
    /// and, if its turn passed, gets the increment; the next turn begins
    /// now, kept by `at.instance`. A game with no clock is left as it is.
    pub(super) fn wind(&self, next: &mut Session, at: &Moment<'_>) {
        let Some(clock) = self.row.clock else { return };
        let running = self.running();
        let passed = running.is_some_and(|r| next.running() != Some(r) && !next.is_over());
        next.row.clock = Some(clock.after(running, at.now_ms, at.lag_ms, passed));
        next.row.clock_owner = Some(at.instance.to_string());
    }

    /// Makes the decisions that are no choice, as a clocked game must (a
    /// player's clock may not run on them): Urgammon's verdict die when the
    /// chance die gave no move, and the next game of a match.
    pub(super) fn play_forced(
        &mut self,
        dice: &mut dyn Dice,
        drawn: &mut Vec<Drawn>,
    ) -> Result<(), SessionError> {
        // Each round adds a token, and a match ends: the bound only guards
        // against a rules bug looping for ever.
        for _ in 0..64 {
            if self.is_over() {
                return Ok(());
            }
            if self.rules.forced() {
                let token = self.roll(&Action::Verdict, dice, drawn)?;
                self.tokens.push(token);
            } else if self.between_games() {
                self.opening(drawn, dice)?;
            } else {
                return Ok(());
            }
        }
        Ok(())
    }

    /// The game's end by the clock at `at`, if its deadline has passed: the
    /// running side loses on time, or a game still waiting for a first
    /// decision is aborted (a pair's second game, which cannot be, is lost
    /// by the side that did not begin).
    pub fn time_out(&self, at: &Moment<'_>) -> Option<(Session, Commit)> {
        let end = match self.deadline()? {
            Deadline::Flag(r, t) if at.now_ms >= t => End::Time(r),
            Deadline::FirstMove(t) if at.now_ms >= t => match self.seat_to_act() {
                Some(late) if !self.abortable() => End::Time(late),
                _ => End::Aborted,
            },
            _ => return None,
        };
        Some(self.stop_with(end, at))
    }

    /// The clock taken over at `at` from a keeper last seen alive at
    /// `alive_until_ms`: the time nobody kept is nobody's.
    pub fn resume(&self, alive_until_ms: i64, at: &Moment<'_>) -> Option<(Session, Commit)> {
        let clock: Clock = self.row.clock?;
        if self.is_over() {
            return None;
        }
        let mut next = self.clone();
        next.row.clock = Some(clock.resumed(self.running(), alive_until_ms, at.now_ms));
        next.row.clock_owner = Some(at.instance.to_string());
        let keep = self.tokens.len();
        Some(next.sealed(self, keep, vec![]))
    }

    /// A tournament player goes berserk (lichess's arena): before her first
    /// decision on a live clock, her own time is halved (her opponent's is
    /// untouched); once only.
    ///
    /// # Errors
    /// No live clock, over, she has moved already, or went berserk already
    /// ([`Refusal::WrongMoment`]).
    pub fn berserk(&self, seat: Seat, at: &Moment<'_>) -> Result<(Session, Commit), Refusal> {
        let Some(clock) = self.row.clock.filter(|c| c.days == 0) else {
            return Err(Refusal::WrongMoment);
        };
        if self.is_over() {
            return Err(Refusal::GameOver);
        }
        let i = seat.index();
        if self.row.moved & seat.bit() != 0 || clock.remaining_ms[i] < clock.base_ms {
            return Err(Refusal::WrongMoment);
        }
        let mut next = self.clone();
        let mut c = clock;
        c.remaining_ms[i] = clock.base_ms / 2;
        next.row.clock = Some(c);
        next.row.clock_owner = Some(at.instance.to_string());
        let keep = self.tokens.len();
        Ok(next.sealed(self, keep, vec![]))
    }

    /// The clock as the state shows it at `now_ms`.
    pub fn clock_view(&self, now_ms: i64) -> Option<ClockView> {
        let clock = self.row.clock?;
        let running = self.running();
        Some(ClockView {
            remaining_ms: clock.remaining_at(running, now_ms),
            running,
            increment_ms: clock.increment_ms,
            base_ms: clock.base_ms,
            first_move_deadline_ms: match self.deadline() {
                Some(Deadline::FirstMove(t)) => Some(t),
                _ => None,
            },
            now_ms,
            paused: false,
        })
    }

    /// The clock as the state shows it while its keeper has not been heard
    /// of since `seen_ms`: stopped where the keeper was last seen alive,
    /// which is where another instance resumes it (the time nobody kept is
    /// nobody's), so the page neither counts on nor jumps back when it is
    /// taken over.
    pub fn clock_view_paused(&self, seen_ms: i64, now_ms: i64) -> Option<ClockView> {
        let clock = self.row.clock?;
        let running = self.running();
        let mut view = self.clock_view(now_ms)?;
        view.remaining_ms = clock.remaining_at(running, seen_ms.clamp(clock.since_ms, now_ms));
        view.running = None;
        view.paused = true;
        Some(view)
    }
}
