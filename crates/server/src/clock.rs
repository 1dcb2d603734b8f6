//! Live games' clocks: Fischer time (a base and an increment per turn) kept
//! by the server. The stored clock holds each side's time left when the
//! current turn began (or resumed) and that moment, so any instance can say
//! how much is left now without a write per tick; the instance keeping the
//! clock (`clock_owner`) notes that it is alive, and a clock whose keeper
//! died is resumed by another instance from the keeper's last sign of life
//! (a restart costs nobody time). Pure arithmetic: the session decides who
//! runs, the games service when to look.

use crate::model::Seat;
use serde::{Deserialize, Serialize};

/// The most lag credited to a player per decision, in milliseconds: the
/// client reports the network delay it measures and is credited that much,
/// never more than this (so a client that lies gains at most this much).
pub const LAG_BOUND_MS: i64 = 500;

/// How long a live game waits for each side's first decision before the
/// server aborts it (the 30 seconds; `agon serve --first-move-secs`).
pub const FIRST_MOVE_MS: i64 = 30_000;

/// The longest base time, in seconds (three hours).
pub const MAX_BASE_SECS: u32 = 3 * 3600;

/// The longest increment, in seconds.
pub const MAX_INCREMENT_SECS: u32 = 180;

/// A clock's settings as a request gives them: `{"base_secs": 300,
/// "increment_secs": 3}`.
#[derive(Serialize, Deserialize, Clone, Copy, Debug, PartialEq, Eq)]
#[serde(deny_unknown_fields)]
pub struct ClockSettings {
    /// Each side's time at the start, in seconds (1 to three hours).
    pub base_secs: u32,
    /// Added to a side's time after each of its turns, in seconds.
    #[serde(default)]
    pub increment_secs: u32,
    /// A correspondence game: days per move (1, 2, 3 or 7), each side's
    /// time set back to them after each of its turns; 0 for a live clock.
    #[serde(default, skip_serializing_if = "is_zero")]
    pub days: u32,
}

fn is_zero(n: &u32) -> bool {
    *n == 0
}

/// The days per move a correspondence game may have.
pub const DAYS: [u32; 4] = [1, 2, 3, 7];

/// A day, in milliseconds.
pub const DAY_MS: i64 = 86_400_000;

impl ClockSettings {
    /// Checks the settings' range.
    ///
    /// # Errors
    /// A base of 0 or past three hours, an increment past three minutes.
    pub fn check(self) -> Result<ClockSettings, String> {
        if self.days != 0 {
            return if DAYS.contains(&self.days) {
                Ok(ClockSettings::days(self.days))
            } else {
                Err(format!(
                    "invalid days: a correspondence game has 1, 2, 3 or 7 days per move, not {}",
                    self.days
                ))
            };
        }
        if self.base_secs == 0 || self.base_secs > MAX_BASE_SECS {
            return Err(format!(
                "invalid clock: base_secs is 1 to {MAX_BASE_SECS} seconds, not {}",
                self.base_secs
            ));
        }
        if self.increment_secs > MAX_INCREMENT_SECS {
            return Err(format!(
                "invalid clock: increment_secs is 0 to {MAX_INCREMENT_SECS} seconds, not {}",
                self.increment_secs
            ));
        }
        Ok(self)
    }

    /// A correspondence game's settings: `days` per move.
    pub fn days(days: u32) -> ClockSettings {
        ClockSettings {
            base_secs: days * 86_400,
            increment_secs: 0,
            days,
        }
    }

    /// The short name players read: `5+3` (minutes and seconds), `0:30+2`
    /// for a base under a minute, `3d` for three days per move.
    pub fn label(self) -> String {
        if self.days != 0 {
            format!("{}d", self.days)
        } else if self.base_secs.is_multiple_of(60) {
            format!("{}+{}", self.base_secs / 60, self.increment_secs)
        } else {
            format!(
                "{}:{:02}+{}",
                self.base_secs / 60,
                self.base_secs % 60,
                self.increment_secs
            )
        }
    }

    /// A new game's clock, its first turn beginning at `now_ms`; each side
    /// has `first_move_ms` for its first decision.
    pub fn start(self, now_ms: i64, first_move_ms: i64) -> Clock {
        let base = i64::from(self.base_secs) * 1000;
        Clock {
            base_ms: base,
            increment_ms: i64::from(self.increment_secs) * 1000,
            remaining_ms: [base, base],
            since_ms: now_ms,
            // A correspondence game waits its days for each first move.
            first_move_ms: if self.days != 0 { base } else { first_move_ms },
            days: self.days,
        }
    }
}

/// A game's clock as stored.
#[derive(Serialize, Deserialize, Clone, Copy, Debug, PartialEq, Eq)]
pub struct Clock {
    /// Each side's time at the start.
    pub base_ms: i64,
    /// Added after each turn.
    pub increment_ms: i64,
    /// Each seat's time left when the current turn began (or resumed).
    pub remaining_ms: [i64; 2],
    /// When the current turn began or resumed, in milliseconds since the
    /// epoch.
    pub since_ms: i64,
    /// How long each side has for its first decision before the game is
    /// aborted (the server's setting when the game began).
    #[serde(default = "first_move_default")]
    pub first_move_ms: i64,
    /// A correspondence game's days per move (0: a live clock).
    #[serde(default, skip_serializing_if = "is_zero")]
    pub days: u32,
}

fn first_move_default() -> i64 {
    FIRST_MOVE_MS
}

impl Clock {
    /// The settings this clock was made from.
    pub fn settings(&self) -> ClockSettings {
        if self.days != 0 {
            return ClockSettings::days(self.days);
        }
        ClockSettings {
            base_secs: (self.base_ms / 1000) as u32,
            increment_secs: (self.increment_ms / 1000) as u32,
            days: 0,
        }
    }

    /// The time `seat` has used of its turn by `now_ms`, less the lag
    /// credited (at most [`LAG_BOUND_MS`], and never below zero).
    pub fn used(&self, now_ms: i64, lag_ms: i64) -> i64 {
        let credit = lag_ms.clamp(0, LAG_BOUND_MS);
        (now_ms - self.since_ms - credit).max(0)
    }

    /// Each seat's time left at `now_ms` when `running` runs (never below
    /// zero).
    pub fn remaining_at(&self, running: Option<Seat>, now_ms: i64) -> [i64; 2] {
        let mut left = self.remaining_ms;
        if let Some(r) = running {
            left[r.index()] = (left[r.index()] - self.used(now_ms, 0)).max(0);
        }
        left
    }

    /// The clock after a change at `now_ms`: `running` is charged its time
    /// (less `lag_ms` when it made the change), gets the increment if its
    /// turn `passed`, and the next turn begins now.
    pub fn after(&self, running: Option<Seat>, now_ms: i64, lag_ms: i64, passed: bool) -> Clock {
        let mut next = *self;
        if let Some(r) = running {
            let left = &mut next.remaining_ms[r.index()];
            // A flag that fell shows zero, not how far past it the end came.
            *left = (*left - self.used(now_ms, lag_ms)).max(0);
            if passed {
                // Correspondence: each turn has the days afresh.
                *left = if self.days != 0 {
                    self.base_ms
                } else {
                    *left + self.increment_ms
                };
            }
        }
        next.since_ms = now_ms;
        next
    }

    /// The clock resumed at `now_ms` by another instance after its keeper
    /// stopped: `running` is charged only up to `alive_until_ms`, the
    /// keeper's last sign of life, so the time nobody kept is nobody's.
    pub fn resumed(&self, running: Option<Seat>, alive_until_ms: i64, now_ms: i64) -> Clock {
        let mut next = *self;
        if let Some(r) = running {
            let until = alive_until_ms.clamp(self.since_ms, now_ms);
            next.remaining_ms[r.index()] -= until - self.since_ms;
        }
        next.since_ms = now_ms;
        next
    }

    /// When `running`'s flag falls, in milliseconds since the epoch.
    pub fn flag_at(&self, running: Seat) -> i64 {
        self.since_ms + self.remaining_ms[running.index()]
    }
}

/// The clock as every state shows it: `{"remaining_ms": [a, b], "running":
/// seat or null, "increment_ms": n}`, with the base beside it.
#[derive(Serialize, Clone, Debug, PartialEq, Eq)]
pub struct ClockView {
    /// Each seat's time left now.
    pub remaining_ms: [i64; 2],
    /// The seat whose clock runs, if one does.
    pub running: Option<Seat>,
    /// Added after each turn.
    pub increment_ms: i64,
    /// Each side's time at the start.
    pub base_ms: i64,
    /// Before both sides' first decisions, the clock does not run: the
    /// moment (milliseconds since the epoch) the game is aborted if the side
    /// to act has not acted by then.
    pub first_move_deadline_ms: Option<i64>,
    /// The server's time when it made this view (milliseconds since the
    /// epoch), so a page can count the first-move wait down on its own
    /// clock.
    pub now_ms: i64,
    /// The instance keeping this clock has not been heard of lately: the
    /// clock is shown stopped where its keeper was last seen alive (where
    /// another instance resumes it if the keeper is gone), `running` is
    /// null, and no page counts it down. Absent otherwise.
    #[serde(skip_serializing_if = "std::ops::Not::not")]
    pub paused: bool,
}

/// The current time in milliseconds since the epoch.
pub fn now_ms() -> i64 {
    std::time::SystemTime::now()
        .duration_since(std::time::UNIX_EPOCH)
        .map_or(0, |d| d.as_millis() as i64)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_turn_costs_its_time_less_the_bounded_lag_and_earns_the_increment() {
        let c = ClockSettings {
            base_secs: 60,
            increment_secs: 2,
            days: 0,
        }
        .start(1_000, FIRST_MOVE_MS);
        let next = c.after(Some(Seat::First), 11_000, 100, true);
        assert_eq!(next.remaining_ms, [60_000 - 9_900 + 2_000, 60_000]);
        assert_eq!(next.since_ms, 11_000);
        // A lag past the bound is credited only up to it.
        let lied = c.after(Some(Seat::Second), 11_000, 60_000, false);
        assert_eq!(lied.remaining_ms[1], 60_000 - (10_000 - LAG_BOUND_MS));
        // Never a gain from lag beyond the time used.
        assert_eq!(c.used(1_050, 400), 0);
    }

    #[test]
    fn a_resumed_clock_charges_only_the_time_its_keeper_was_alive() {
        let c = ClockSettings {
            base_secs: 10,
            increment_secs: 0,
            days: 0,
        }
        .start(0, FIRST_MOVE_MS);
        let r = c.resumed(Some(Seat::Second), 2_000, 60_000);
        assert_eq!(r.remaining_ms, [10_000, 8_000]);
        assert_eq!(r.since_ms, 60_000);
        assert_eq!(r.flag_at(Seat::Second), 68_000);
        assert_eq!(c.remaining_at(Some(Seat::First), 12_000), [0, 10_000]);
    }

    #[test]
    fn settings_are_checked_and_labelled() {
        let ok = ClockSettings {
            base_secs: 300,
            increment_secs: 3,
            days: 0,
        };
        assert_eq!(ok.check().unwrap().label(), "5+3");
        assert_eq!(
            ClockSettings {
                base_secs: 30,
                increment_secs: 2,
                days: 0
            }
            .label(),
            "0:30+2"
        );
        assert!(ClockSettings {
            base_secs: 0,
            increment_secs: 0,
            days: 0
        }
        .check()
        .is_err());
        assert!(ClockSettings {
            base_secs: 60,
            increment_secs: 181,
            days: 0
        }
        .check()
        .is_err());
    }

    #[test]
    fn a_correspondence_turn_has_its_days_afresh_and_a_flag_when_they_run_out() {
        let c = ClockSettings::days(3)
            .check()
            .unwrap()
            .start(0, FIRST_MOVE_MS);
        assert_eq!(c.remaining_ms, [3 * DAY_MS, 3 * DAY_MS]);
        // The first move is awaited for the days too, not 30 seconds.
        assert_eq!(c.first_move_ms, 3 * DAY_MS);
        // Two days spent on a move: the next turn of that side has three.
        let next = c.after(Some(Seat::First), 2 * DAY_MS, 0, true);
        assert_eq!(next.remaining_ms, [3 * DAY_MS, 3 * DAY_MS]);
        assert_eq!(next.flag_at(Seat::Second), 2 * DAY_MS + 3 * DAY_MS);
        assert_eq!(next.settings(), ClockSettings::days(3));
        assert_eq!(ClockSettings::days(7).label(), "7d");
        for bad in [0, 4, 5, 6, 8, 30] {
            let d = ClockSettings {
                base_secs: 1,
                increment_secs: 0,
                days: bad,
            };
            assert_eq!(d.check().is_err(), bad != 0, "{bad}");
        }
    }
}
