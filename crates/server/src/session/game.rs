//! The session itself: a game's stored row, its rules state rebuilt from
//! its tokens, its dice ledger, and the actions that move it on. Its clock,
//! its offers and its view are the files beside it.

use super::actions::{Action, Refusal, SessionError};
use super::moment::Moment;
use super::rules::{End, Rules};
use super::{ringo, urgammon};
use crate::model::{Kind, Mode, Status};
/// The pause between a rated pair's two games, in milliseconds: the first
/// game's page shows its result and counts down before both players go to
/// the second, and the second's first-move wait begins after it (the
/// finisher opens it so; the view tells the page).
pub const PAIR_PAUSE_MS: i64 = 5_000;

/// The longest record a game may have, in tokens: an action that would pass
/// it is refused, so every record the server exports stays importable.
pub const MAX_TOKENS: usize = 20_000;

use crate::dice::{self, Dice, Die, Drawn, Ledger};
use crate::model::Seat;
use crate::store::{Commit, GameRow, Loaded};

/// The record token that says a side resigned: `resign:defenders`.
use agon_views::RESIGN;

/// The rules state of a game of `kind` with these settings (a Ringo rules
/// string, an Urgammon match header), start position and move tokens: the
/// one place a game registers its session rules.
///
/// # Errors
/// The settings, the start or a token does not fit.
pub fn rules_for(
    kind: Kind,
    settings: &str,
    start: Option<&str>,
    moves: &[String],
) -> Result<Rules, String> {
    Ok(match kind {
        Kind::Ringo => Rules::Ringo(ringo::build(settings, start, moves)?),
        Kind::Urgammon => Rules::Urgammon(Box::new(urgammon::build(settings, moves)?)),
    })
}

/// A game in memory.
#[derive(Clone, Debug)]
pub struct Session {
    /// The stored row.
    pub row: GameRow,
    /// The record tokens, as stored.
    pub tokens: Vec<String>,
    /// The rules state after the tokens.
    pub rules: Rules,
    /// Every die drawn for this game.
    pub ledger: Ledger,
    /// The seat that resigned, if one did.
    pub resigned: Option<Seat>,
    /// A flag fell or the game was aborted (the stored `reason` says which;
    /// the flagged seat is the one the record leaves to act).
    pub stopped: Option<End>,
    pub(super) kind: Kind,
    pub(super) mode: Mode,
}

/// Splits a trailing `resign:SIDE` token off a record's tokens.
///
/// # Errors
/// The side is not one of this game's, or the token is not the last.
pub fn split_resignation(
    kind: Kind,
    tokens: &[String],
) -> Result<(&[String], Option<Seat>), String> {
    if let Some(i) = tokens.iter().position(|t| t.starts_with(RESIGN)) {
        if i + 1 != tokens.len() {
            return Err(format!(
                "token {i} ('{}'): a resignation ends the record",
                tokens[i]
            ));
        }
        let side = &tokens[i][RESIGN.len()..];
        let seat = kind.seat_of(side).ok_or_else(|| {
            let [a, b] = kind.seat_names();
            format!("token {i} ('{}'): the side is {a} or {b}", tokens[i])
        })?;
        return Ok((&tokens[..i], Some(seat)));
    }
    Ok((tokens, None))
}

impl Session {
    /// Rebuilds a game from what the store holds.
    ///
    /// # Errors
    /// The stored data does not replay (it never should: only legal tokens are
    /// stored).
    pub fn from_stored(loaded: Loaded) -> Result<Session, SessionError> {
        let ledger = Ledger::from_entries(loaded.dice);
        Session::build(loaded.row, loaded.tokens, ledger).map_err(SessionError::Corrupt)
    }

    /// Builds a game from a row, tokens and ledger, saying what is wrong with
    /// them (used for stored games and for imports and new games).
    ///
    /// # Errors
    /// The settings, a token, or a resignation does not fit.
    pub fn build(row: GameRow, tokens: Vec<String>, ledger: Ledger) -> Result<Session, String> {
        let (kind, mode) = (row.kind, row.mode);
        let (moves, resigned) = split_resignation(kind, &tokens)?;
        let rules = rules_for(kind, &row.settings, row.start_position.as_deref(), moves)?;
        let stopped = match row.reason.as_deref() {
            Some("time") if resigned.is_none() => {
                Some(End::Time(rules.to_act().unwrap_or(Seat::First)))
            }
            Some("abort") if resigned.is_none() => Some(End::Aborted),
            // The winner is in the status; the loser is the other seat.
            Some("claim") if resigned.is_none() => Some(End::Claimed(
                if row.status == crate::model::Status::won(kind, Seat::First) {
                    Seat::Second
                } else {
                    Seat::First
                },
            )),
            _ => None,
        };
        let session = Session {
            row,
            tokens,
            rules,
            ledger,
            resigned,
            stopped,
            kind,
            mode,
        };
        if resigned.is_some() && session.rules_over() {
            return Err("a resignation after the end of the game".into());
        }
        Ok(session)
    }

    /// The game kind.
    pub fn kind(&self) -> Kind {
        self.kind
    }

    /// Who plays the other seat.
    pub fn mode(&self) -> Mode {
        self.mode
    }

    /// The revision: it rises with every change.
    pub fn revision(&self) -> i64 {
        self.row.revision
    }

    fn rules_over(&self) -> bool {
        self.rules.over()
    }

    /// True once the game (Ringo) or match (Urgammon) is over, by the rules or
    /// by a resignation.
    pub fn is_over(&self) -> bool {
        self.resigned.is_some() || self.stopped.is_some() || self.rules_over()
    }

    /// How the game ended other than by its rules, if it did.
    pub fn end(&self) -> Option<End> {
        self.resigned.map(End::Resigned).or(self.stopped)
    }

    /// Urgammon: a game of the match has ended and the next has not begun.
    pub fn between_games(&self) -> bool {
        self.end().is_none() && self.rules.between_games()
    }

    /// The seat (0 or 1) whose turn it is, if any.
    pub fn seat_to_act(&self) -> Option<Seat> {
        if self.is_over() {
            return None;
        }
        self.rules.to_act()
    }

    /// True when the computer should act now.
    pub fn engine_to_act(&self) -> bool {
        self.mode == Mode::Engine
            && self.seat_to_act().is_some()
            && self.seat_to_act() == self.row.engine_seat
    }

    /// The winner's seat once the game or match is over (`None` for a draw).
    pub fn winner(&self) -> Option<Seat> {
        match self.end() {
            Some(End::Aborted) => None,
            Some(end) => end.loser().map(Seat::other),
            None => self.rules.winner(),
        }
    }

    /// The short status stored for game lists: `ongoing`, `attackers-win`,
    /// `defenders-win`, `light-wins`, `dark-wins` or `draw`.
    pub fn status(&self) -> Status {
        match (self.is_over(), self.winner()) {
            _ if self.stopped == Some(End::Aborted) => Status::Aborted,
            (false, _) => Status::Ongoing,
            (true, None) => Status::Draw,
            (true, Some(w)) => Status::won(self.kind, w),
        }
    }

    /// The match score for lists, light's then dark's (Urgammon only).
    pub fn score(&self) -> Option<[u32; 2]> {
        self.rules.score()
    }

    /// The stored end reason that the record alone would not give.
    pub fn reason(&self) -> Option<String> {
        self.end().map(|e| e.reason().to_string())
    }

    /// Draws the opening roll(s) of a new Urgammon game, from the ledger:
    /// `start:L-D` until the tie is broken. Returns the tokens.
    pub(super) fn opening(
        &mut self,
        drawn: &mut Vec<Drawn>,
        dice: &mut dyn Dice,
    ) -> Result<Vec<String>, SessionError> {
        let mut new = vec![];
        while self.rules.opening_due() {
            let n = dice::used(&self.tokens)[Die::Opening as usize];
            let value = self.ledger.nth(Die::Opening, n, dice, drawn)?;
            let token = dice::token(Die::Opening, value);
            self.rules
                .apply_die(&token)
                .map_err(|e| SessionError::Corrupt(format!("opening roll {token}: {e}")))?;
            self.tokens.push(token.clone());
            new.push(token);
        }
        Ok(new)
    }

    /// A new game's first tokens, drawn by the server: Urgammon's opening
    /// roll. Returns the dice drawn, to store with the game.
    ///
    /// # Errors
    /// No die could be drawn.
    pub fn start(&mut self, dice: &mut dyn Dice) -> Result<Vec<Drawn>, SessionError> {
        let mut drawn = self
            .ledger
            .extend_from_tokens(self.tokens.iter().map(String::as_str));
        if !self.is_over() && !self.between_games() {
            self.opening(&mut drawn, dice)?;
        }
        Ok(drawn)
    }

    /// The seat among `seats` that acts now: the seat to act when the token
    /// holds it (a same-screen token holds both).
    fn acting_seat(&self, seats: &[Seat]) -> Result<Seat, SessionError> {
        match self.seat_to_act() {
            Some(s) if seats.contains(&s) => Ok(s),
            Some(s) => Err(SessionError::Conflict(
                Refusal::NotYourTurn,
                format!(
                    "it is not your turn: the {} are to act",
                    self.kind.seat_name(s)
                ),
            )),
            None if self.between_games() => Err(SessionError::Conflict(
                Refusal::BetweenGames,
                "this game is over: start the next game with {\"type\": \"next\"}".into(),
            )),
            None => Err(SessionError::Conflict(
                Refusal::GameOver,
                "the game is over".into(),
            )),
        }
    }

    /// A friend game whose invited seat is still empty: it has not begun.
    pub fn waiting_for_friend(&self) -> bool {
        self.row.mode == Mode::Friend
            && !self.is_over()
            && (self.row.token0.is_none() || self.row.token1.is_none())
    }

    /// Applies a player's action for the seats a token holds. Returns the next
    /// session and the change to store; `self` is left as it was.
    ///
    /// # Errors
    /// Not this seat's turn, an illegal move, a die sent as a move, nothing to
    /// take back, or an action that does not fit this moment.
    pub fn act(
        &self,
        seats: &[Seat],
        action: &Action,
        dice: &mut dyn Dice,
    ) -> Result<(Session, Commit), SessionError> {
        let keeper = self.row.clock_owner.clone().unwrap_or_default();
        self.act_at(seats, action, dice, &Moment::now(&keeper, 0))
    }

    /// [`Session::act`] at a moment: a clocked game charges the side whose
    /// clock ran (less the lag credited), and the instance at `at` keeps
    /// the clock from now on. A decision that comes after its side's flag
    /// fell ends the game on time instead.
    ///
    /// # Errors
    /// As [`Session::act`].
    ///
    /// Why one function of 120 lines: it is one dispatch over every action a
    /// player may take, between what every action is checked for first (a
    /// watcher's link, a friend awaited, a flag fallen before it) and what
    /// follows every action (an offer lapsing, the plays a clock forces, the
    /// record's limit, the clock wound, the commit sealed), in that order;
    /// each arm is a few lines or a call.
    pub fn act_at(
        &self,
        seats: &[Seat],
        action: &Action,
        dice: &mut dyn Dice,
        at: &Moment<'_>,
    ) -> Result<(Session, Commit), SessionError> {
        if seats.is_empty() {
            return Err(SessionError::Forbidden(
                Refusal::WatchOnly,
                "this link is for watching: only the players' links can act".into(),
            ));
        }
        if self.waiting_for_friend() && !matches!(action, Action::Resign) {
            return Err(SessionError::Conflict(
                Refusal::WaitingForFriend,
                "the game starts when your friend joins: send her the invite link".into(),
            ));
        }
        // A decision that comes too late: the flag fell first.
        if let Some(r) = self.running() {
            let late = self
                .row
                .clock
                .is_some_and(|c| c.used(at.now_ms, at.lag_ms) >= c.remaining_ms[r.index()]);
            if late && seats.contains(&r) && !matches!(action, Action::Resign) {
                return Ok(self.stop_with(End::Time(r), at));
            }
        }
        let mut next = self.clone();
        let mut drawn = vec![];
        // How many of the stored tokens stay: all, except after an Undo.
        let mut keep = self.tokens.len();
        match action {
            Action::Abort => {
                if !self.abortable() || self.is_over() {
                    return Err(SessionError::Conflict(
                        Refusal::CannotAbort,
                        "a game can be aborted only between two people, before both have moved"
                            .into(),
                    ));
                }
                next.stopped = Some(End::Aborted);
            }
            Action::Offer(kind) => return self.offer(seats, *kind, at),
            Action::Accept(kind) => return self.accept(seats, *kind, at),
            Action::Decline(kind) => return self.decline(seats, *kind, at),
            Action::Claim {
                absent_ms,
                needed_ms,
            } => return self.claim(seats, *absent_ms, *needed_ms, at),
            Action::Undo => {
                keep = self.undo_point(seats).ok_or_else(|| {
                    SessionError::Conflict(Refusal::CannotUndo, self.undo_refusal().to_string())
                })?;
                next = Session::build(
                    self.row.clone(),
                    self.tokens[..keep].to_vec(),
                    self.ledger.clone(),
                )
                .map_err(SessionError::Corrupt)?;
            }
            Action::Resign => {
                if self.is_over() {
                    return Err(SessionError::Conflict(
                        Refusal::GameOver,
                        "the game is over".into(),
                    ));
                }
                // A same-screen token resigns for the side to act.
                let seat = match self.seat_to_act() {
                    Some(s) if seats.contains(&s) => s,
                    _ => seats[0],
                };
                next.tokens
                    .push(format!("{RESIGN}{}", self.kind.seat_name(seat)));
                next.resigned = Some(seat);
            }
            Action::Next => {
                if !self.between_games() {
                    return Err(SessionError::Conflict(
                        Refusal::NoNextGame,
                        self.rules.no_next_game(self.is_over()),
                    ));
                }
                next.opening(&mut drawn, dice)?;
            }
            Action::Move(text) => {
                // A die or a malformed token is refused as such in every
                // phase, even between games, before whose turn it is.
                self.rules.check_move_text(text)?;
                let seat = self.acting_seat(seats)?;
                let token = next.rules.play_move(seat, text)?;
                next.tokens.push(token);
                next.row.moved |= seat.bit();
            }
            Action::Roll | Action::Verdict => {
                let seat = self.acting_seat(seats)?;
                let token = next.roll(action, dice, &mut drawn)?;
                next.tokens.push(token);
                next.row.moved |= seat.bit();
            }
        }
        // The position moves on: an offer waiting lapses.
        next.row.offer = None;
        if next.row.clock.is_some() {
            next.play_forced(dice, &mut drawn)?;
        }
        if next.tokens.len() > MAX_TOKENS && !matches!(action, Action::Undo | Action::Resign) {
            return Err(SessionError::Conflict(Refusal::RecordTooLong, format!(
                "this game has reached the longest record the server keeps ({} tokens): resign or start a new game",
                MAX_TOKENS
            )));
        }
        self.wind(&mut next, at);
        Ok(next.sealed(self, keep, drawn))
    }

    /// The change from `before` to this session as one commit, with the row
    /// brought up to date.
    pub(super) fn sealed(
        mut self,
        before: &Session,
        keep: usize,
        drawn: Vec<Drawn>,
    ) -> (Session, Commit) {
        let commit = Commit {
            from_revision: before.row.revision,
            keep,
            append: self.tokens[keep.min(self.tokens.len())..].to_vec(),
            dice: drawn,
            status: self.status(),
            reason: self.reason(),
            score: self.score(),
            clock: self.row.clock,
            clock_owner: self.row.clock_owner.clone(),
            moved: self.row.moved,
            offer: self.row.offer,
        };
        self.row.revision += 1;
        self.row.status = commit.status;
        self.row.reason = commit.reason.clone();
        self.row.score = commit.score;
        (self, commit)
    }

    /// Rolls the chance die or the verdict die from the ledger; returns the
    /// token.
    pub(super) fn roll(
        &mut self,
        action: &Action,
        dice: &mut dyn Dice,
        drawn: &mut Vec<Drawn>,
    ) -> Result<String, SessionError> {
        let die = self.rules.die_for(action)?;
        let used = dice::used(&self.tokens);
        let value = self.ledger.nth(die, used[die as usize], dice, drawn)?;
        let token = dice::token(die, value);
        self.rules
            .apply_die(&token)
            .map_err(|e| SessionError::Corrupt(format!("die {token}: {e}")))?;
        Ok(token)
    }

    /// Why Undo is refused now, in words.
    fn undo_refusal(&self) -> &'static str {
        if self.mode == Mode::Friend {
            "undo is for games against the computer and on one screen"
        } else if self.is_over() {
            "the game is over: nothing can be taken back"
        } else if self.between_games() {
            "this game is over: its result stands"
        } else {
            "there is no move of yours to take back"
        }
    }

    /// Where Undo by these seats would cut the record: before the last
    /// decision (a move, or a verdict die rolled by choice) of one of them in
    /// the game in play. `None` when there is nothing to take back: a friend
    /// game, no decision yet, or the game (Ringo), a game of the match or the
    /// match (Urgammon) is over.
    pub fn undo_point(&self, seats: &[Seat]) -> Option<usize> {
        if self.mode == Mode::Friend || self.is_over() || self.between_games() {
            return None;
        }
        self.rules.undo_point(self.tokens.len(), seats)
    }

    /// Which seats have a decision to take back now.
    pub fn undoable(&self) -> [bool; 2] {
        Seat::BOTH.map(|s| self.undo_point(&[s]).is_some())
    }

    /// The record: Ringo's game record, or Urgammon's match record, ending
    /// with `resign:SIDE` when a side resigned.
    pub fn record(&self) -> String {
        let mut s = self.rules.record();
        if let Some(seat) = self.resigned {
            s.push(self.rules.resignation_separator());
            s.push_str(RESIGN);
            s.push_str(self.kind.seat_name(seat));
        }
        s
    }

    /// The seats an account holds in this game (claimed from any browser).
    pub fn seats_of(&self, account: Option<i64>) -> Vec<Seat> {
        let Some(account) = account else {
            return vec![];
        };
        Seat::BOTH
            .into_iter()
            .filter(|&s| {
                self.row.accounts[s.index()]
                    .as_ref()
                    .is_some_and(|a| a.id == account)
            })
            .collect()
    }

    /// The seats a request holds: its token's and its account's.
    pub fn seats_held(&self, token: Option<&str>, account: Option<i64>) -> Vec<Seat> {
        let mut seats = self.seats_for(token);
        for s in self.seats_of(account) {
            if !seats.contains(&s) {
                seats.push(s);
            }
        }
        seats.sort_unstable();
        seats
    }

    /// The seats a token holds (both, for a same-screen token).
    pub fn seats_for(&self, token: Option<&str>) -> Vec<Seat> {
        let Some(token) = token.filter(|t| !t.is_empty()) else {
            return vec![];
        };
        // The row holds each seat token's hash; compare hashes in constant time.
        let hash = crate::secrets::hash(token);
        let held =
            |t: &Option<String>| t.as_deref().is_some_and(|t| crate::secrets::same(t, &hash));
        let mut seats = vec![];
        if held(&self.row.token0) {
            seats.push(Seat::First);
        }
        if held(&self.row.token1) {
            seats.push(Seat::Second);
        }
        seats
    }
}
