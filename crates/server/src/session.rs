//! A game in play: its stored row, the rules state rebuilt from its tokens, its
//! dice ledger, and the actions players may take. Everything here is
//! synchronous and pure apart from the dice, which the caller passes in; an
//! action returns the next session and the change to store, and leaves this
//! one as it was, so a refused action or a failed write changes nothing.

use crate::dice::{self, Dice, DiceUnavailable, Die, Drawn, Ledger};
use crate::store::{Commit, GameRow, Loaded};
use crate::views;
use serde::Deserialize;
use serde_json::Value;
use std::fmt;
use std::str::FromStr;

/// Why an action or a stored game was refused.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
pub enum SessionError {
    /// The request is malformed: a die token sent as a move, an action that
    /// does not exist in this game.
    #[error("{0}")]
    BadRequest(String),
    /// Well-formed but not allowed now: an illegal move, not your turn,
    /// nothing to take back, the game is over.
    #[error("{0}")]
    Conflict(String),
    /// The seat asking is not a player of this game.
    #[error("{0}")]
    Forbidden(String),
    /// The stored record does not replay (it never should).
    #[error("stored game is damaged: {0}")]
    Corrupt(String),
    /// No die could be drawn.
    #[error(transparent)]
    Dice(#[from] DiceUnavailable),
}

/// The two games.
#[derive(Clone, Copy, PartialEq, Eq, Hash, Debug, Deserialize)]
#[serde(rename_all = "lowercase")]
pub enum Kind {
    /// Ringo.
    Ringo,
    /// Urgammon.
    Urgammon,
}

impl Kind {
    /// The name.
    pub const fn name(self) -> &'static str {
        match self {
            Kind::Ringo => "ringo",
            Kind::Urgammon => "urgammon",
        }
    }

    /// The seat names: attackers/defenders, light/dark.
    pub const fn seat_names(self) -> [&'static str; 2] {
        match self {
            Kind::Ringo => ["attackers", "defenders"],
            Kind::Urgammon => ["light", "dark"],
        }
    }

    /// The seat a side name stands for.
    pub fn seat_of(self, name: &str) -> Option<u8> {
        self.seat_names()
            .iter()
            .position(|n| *n == name)
            .map(|i| i as u8)
    }
}

impl fmt::Display for Kind {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.name())
    }
}

impl FromStr for Kind {
    type Err = SessionError;
    fn from_str(s: &str) -> Result<Kind, SessionError> {
        match s {
            "ringo" => Ok(Kind::Ringo),
            "urgammon" => Ok(Kind::Urgammon),
            other => Err(SessionError::BadRequest(format!(
                "unknown game '{other}'; the games are ringo and urgammon"
            ))),
        }
    }
}

/// Who plays the other seat.
#[derive(Clone, Copy, PartialEq, Eq, Hash, Debug, Deserialize)]
#[serde(rename_all = "lowercase")]
pub enum Mode {
    /// The computer.
    Engine,
    /// A friend, who joins with an invite code.
    Friend,
    /// Both seats on one screen.
    Local,
}

impl Mode {
    /// The name.
    pub const fn name(self) -> &'static str {
        match self {
            Mode::Engine => "engine",
            Mode::Friend => "friend",
            Mode::Local => "local",
        }
    }
}

impl fmt::Display for Mode {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.name())
    }
}

impl FromStr for Mode {
    type Err = SessionError;
    fn from_str(s: &str) -> Result<Mode, SessionError> {
        match s {
            "engine" => Ok(Mode::Engine),
            "friend" => Ok(Mode::Friend),
            "local" => Ok(Mode::Local),
            other => Err(SessionError::BadRequest(format!(
                "unknown opponent '{other}'; use engine, friend or local"
            ))),
        }
    }
}

/// The rules state.
#[derive(Clone, Debug)]
pub enum Rules {
    /// A Ringo game.
    Ringo(ringo::Game),
    /// An Urgammon match.
    Urgammon(urgammon::Match),
}

/// What a player asks for.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Action {
    /// Play a move in notation (Ringo: also `pass`). Never a die.
    Move(String),
    /// Urgammon: roll the chance die.
    Roll,
    /// Urgammon: roll the verdict die.
    Verdict,
    /// Take back the asking seat's last decision.
    Undo,
    /// Give up the game (Ringo) or the match (Urgammon).
    Resign,
    /// Urgammon: start the next game of the match after a game has ended.
    Next,
}

/// The record token that says a side resigned: `resign:defenders`.
const RESIGN: &str = "resign:";

/// The reason stored for a game that ended by resignation.
pub const RESIGNATION: &str = "resignation";

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
    pub resigned: Option<u8>,
    kind: Kind,
    mode: Mode,
}

/// Splits a trailing `resign:SIDE` token off a record's tokens.
///
/// # Errors
/// The side is not one of this game's, or the token is not the last.
pub fn split_resignation(kind: Kind, tokens: &[String]) -> Result<(&[String], Option<u8>), String> {
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
        let kind: Kind = row.kind.parse().map_err(|e: SessionError| e.to_string())?;
        let mode: Mode = row.mode.parse().map_err(|e: SessionError| e.to_string())?;
        let (moves, resigned) = split_resignation(kind, &tokens)?;
        let rules = match kind {
            Kind::Ringo => {
                let r: ringo::Rules = row.settings.parse().map_err(|e| format!("rules: {e}"))?;
                let game = ringo::Game::from_moves(
                    r,
                    row.start_position.as_deref(),
                    moves.iter().map(String::as_str),
                )
                .map_err(|e| e.to_string())?;
                Rules::Ringo(game)
            }
            Kind::Urgammon => {
                let settings = urgammon::MatchSettings::parse_header(&row.settings)
                    .map_err(|e| format!("settings: {e}"))?;
                let mut m = urgammon::Match::new(settings);
                for (i, t) in moves.iter().enumerate() {
                    m.apply_text(t)
                        .map_err(|e| format!("token {i} ('{t}'): {e}"))?;
                }
                Rules::Urgammon(m)
            }
        };
        let session = Session {
            row,
            tokens,
            rules,
            ledger,
            resigned,
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
        match &self.rules {
            Rules::Ringo(g) => g.is_over(),
            Rules::Urgammon(m) => m.result().is_some(),
        }
    }

    /// True once the game (Ringo) or match (Urgammon) is over, by the rules or
    /// by a resignation.
    pub fn is_over(&self) -> bool {
        self.resigned.is_some() || self.rules_over()
    }

    /// Urgammon: a game of the match has ended and the next has not begun.
    pub fn between_games(&self) -> bool {
        match &self.rules {
            Rules::Urgammon(m) => self.resigned.is_none() && m.between_games(),
            Rules::Ringo(_) => false,
        }
    }

    /// The seat (0 or 1) whose turn it is, if any.
    pub fn seat_to_act(&self) -> Option<u8> {
        if self.is_over() {
            return None;
        }
        match &self.rules {
            Rules::Ringo(g) => Some(g.position().to_move().index() as u8),
            Rules::Urgammon(m) => m.current().state().to_act().map(|s| s.index() as u8),
        }
    }

    /// True when the computer should act now.
    pub fn engine_to_act(&self) -> bool {
        self.mode == Mode::Engine
            && self.seat_to_act().is_some()
            && self.seat_to_act() == self.row.engine_seat
    }

    /// The winner's seat once the game or match is over (`None` for a draw).
    pub fn winner(&self) -> Option<u8> {
        if let Some(r) = self.resigned {
            return Some(1 - r);
        }
        match &self.rules {
            Rules::Ringo(g) => g.outcome().and_then(|o| o.winner).map(|s| s.index() as u8),
            Rules::Urgammon(m) => m.result().and_then(|r| r.winner).map(|s| s.index() as u8),
        }
    }

    /// The short status stored for game lists: `ongoing`, `attackers-win`,
    /// `defenders-win`, `light-wins`, `dark-wins` or `draw`.
    pub fn status(&self) -> String {
        if !self.is_over() {
            return "ongoing".into();
        }
        match (self.kind, self.winner()) {
            (_, None) => "draw".into(),
            (Kind::Ringo, Some(w)) => format!("{}-win", self.kind.seat_names()[w as usize]),
            (Kind::Urgammon, Some(w)) => format!("{}-wins", self.kind.seat_names()[w as usize]),
        }
    }

    /// The stored end reason that the record alone would not give.
    pub fn reason(&self) -> Option<String> {
        self.resigned.map(|_| RESIGNATION.to_string())
    }

    /// Draws the opening roll(s) of a new Urgammon game, from the ledger:
    /// `start:L-D` until the tie is broken. Returns the tokens.
    fn opening(
        &mut self,
        drawn: &mut Vec<Drawn>,
        dice: &mut dyn Dice,
    ) -> Result<Vec<String>, SessionError> {
        let mut new = vec![];
        while let Rules::Urgammon(m) = &mut self.rules {
            if m.result().is_some() || m.next_state().phase() != urgammon::Phase::Opening {
                break;
            }
            let n = dice::used(&self.tokens)[Die::Opening as usize];
            let value = self.ledger.nth(Die::Opening, n, dice, drawn)?;
            let token = dice::token(Die::Opening, value);
            m.apply_text(&token)
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
    fn acting_seat(&self, seats: &[u8]) -> Result<u8, SessionError> {
        match self.seat_to_act() {
            Some(s) if seats.contains(&s) => Ok(s),
            Some(s) => Err(SessionError::Conflict(format!(
                "it is not your turn: the {} are to act",
                self.kind.seat_names()[s as usize]
            ))),
            None if self.between_games() => Err(SessionError::Conflict(
                "this game is over: start the next game with {\"type\": \"next\"}".into(),
            )),
            None => Err(SessionError::Conflict("the game is over".into())),
        }
    }

    /// Applies a player's action for the seats a token holds. Returns the next
    /// session and the change to store; `self` is left as it was.
    ///
    /// # Errors
    /// Not this seat's turn, an illegal move, a die sent as a move, nothing to
    /// take back, or an action that does not fit this moment.
    pub fn act(
        &self,
        seats: &[u8],
        action: &Action,
        dice: &mut dyn Dice,
    ) -> Result<(Session, Commit), SessionError> {
        if seats.is_empty() {
            return Err(SessionError::Forbidden(
                "this link is for watching: only the players' links can act".into(),
            ));
        }
        let mut next = self.clone();
        let mut drawn = vec![];
        let keep;
        match action {
            Action::Undo => {
                keep = self
                    .undo_point(seats)
                    .ok_or_else(|| SessionError::Conflict(self.undo_refusal().to_string()))?;
                next = Session::build(
                    self.row.clone(),
                    self.tokens[..keep].to_vec(),
                    self.ledger.clone(),
                )
                .map_err(SessionError::Corrupt)?;
            }
            Action::Resign => {
                if self.is_over() {
                    return Err(SessionError::Conflict("the game is over".into()));
                }
                // A same-screen token resigns for the side to act.
                let seat = match self.seat_to_act() {
                    Some(s) if seats.contains(&s) => s,
                    _ => seats[0],
                };
                keep = self.tokens.len();
                next.tokens
                    .push(format!("{RESIGN}{}", self.kind.seat_names()[seat as usize]));
                next.resigned = Some(seat);
            }
            Action::Next => {
                if !self.between_games() {
                    return Err(SessionError::Conflict(match self.kind {
                        Kind::Ringo => "Ringo is one game: there is no next game".into(),
                        Kind::Urgammon if self.is_over() => "the match is over".into(),
                        Kind::Urgammon => "the game is still in play".into(),
                    }));
                }
                keep = self.tokens.len();
                next.opening(&mut drawn, dice)?;
            }
            Action::Move(text) => {
                let seat = self.acting_seat(seats)?;
                keep = self.tokens.len();
                let token = match &mut next.rules {
                    Rules::Ringo(g) => {
                        let legal = g.legal_moves();
                        let m = g
                            .play_text(text)
                            .map_err(|e| SessionError::Conflict(e.to_string()))?;
                        m.to_notation(&legal)
                    }
                    Rules::Urgammon(m) => {
                        match urgammon::TokenText::parse(text) {
                            Ok(urgammon::TokenText::Move { .. }) => {}
                            Ok(_) => {
                                return Err(SessionError::BadRequest(format!(
                                    "'{text}' is a die, not a move: the server rolls every die; send {{\"type\": \"roll\"}} or {{\"type\": \"verdict\"}}"
                                )))
                            }
                            Err(e) => return Err(SessionError::BadRequest(format!("'{text}' is not a move: {e}"))),
                        }
                        let phase = m.current().state().phase();
                        if !matches!(phase, urgammon::Phase::Decide | urgammon::Phase::Move) {
                            return Err(SessionError::Conflict(match phase {
                                urgammon::Phase::Roll => "roll the chance die first".into(),
                                urgammon::Phase::Verdict => {
                                    "no move with this roll: the verdict die must be rolled".into()
                                }
                                _ => "that does not fit this moment of the turn".into(),
                            }));
                        }
                        let side = urgammon::Side::ALL[seat as usize];
                        m.apply_text(text).map_err(SessionError::Conflict)?;
                        let last = m.current().tokens().last().copied();
                        match last {
                            Some(urgammon::Token::Move(mv)) => mv.notation(side),
                            _ => text.clone(),
                        }
                    }
                };
                next.tokens.push(token);
            }
            Action::Roll | Action::Verdict => {
                self.acting_seat(seats)?;
                keep = self.tokens.len();
                let Rules::Urgammon(m) = &mut next.rules else {
                    return Err(SessionError::BadRequest(
                        "Ringo has no dice: send a move".into(),
                    ));
                };
                let phase = m.current().state().phase();
                let die = match (phase, action) {
                    (urgammon::Phase::Roll, Action::Roll) => Die::Chance,
                    (urgammon::Phase::Decide | urgammon::Phase::Verdict, Action::Verdict) => {
                        Die::Verdict
                    }
                    (urgammon::Phase::Roll, _) => {
                        return Err(SessionError::Conflict("roll the chance die first".into()))
                    }
                    (urgammon::Phase::Verdict, _) => {
                        return Err(SessionError::Conflict(
                            "no move with this roll: the verdict die must be rolled".into(),
                        ))
                    }
                    (urgammon::Phase::Move, Action::Verdict) => {
                        return Err(SessionError::Conflict(
                            "the verdict die may not be rolled now".into(),
                        ))
                    }
                    _ => {
                        return Err(SessionError::Conflict(
                            "the chance die is already rolled: play a move".into(),
                        ))
                    }
                };
                let n = dice::used(&self.tokens)[die as usize];
                let value = next.ledger.nth(die, n, dice, &mut drawn)?;
                let token = dice::token(die, value);
                m.apply_text(&token)
                    .map_err(|e| SessionError::Corrupt(format!("die {token}: {e}")))?;
                next.tokens.push(token);
            }
        }
        if next.tokens.len() > crate::app::MAX_TOKENS
            && !matches!(action, Action::Undo | Action::Resign)
        {
            return Err(SessionError::Conflict(format!(
                "this game has reached the longest record the server keeps ({} tokens): resign or start a new game",
                crate::app::MAX_TOKENS
            )));
        }
        let commit = Commit {
            from_revision: self.row.revision,
            keep,
            append: next.tokens[keep.min(next.tokens.len())..].to_vec(),
            dice: drawn,
            status: next.status(),
            reason: next.reason(),
        };
        next.row.revision += 1;
        next.row.status = commit.status.clone();
        next.row.reason = commit.reason.clone();
        Ok((next, commit))
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
    pub fn undo_point(&self, seats: &[u8]) -> Option<usize> {
        if self.mode == Mode::Friend || self.is_over() || self.between_games() {
            return None;
        }
        match &self.rules {
            Rules::Ringo(g) => (0..g.ply()).rev().find(|&i| {
                g.position_at(i)
                    .is_some_and(|p| seats.contains(&(p.to_move().index() as u8)))
            }),
            Rules::Urgammon(m) => {
                let game_start = self.tokens.len() - m.current().tokens().len();
                let mut g = urgammon::Game::new();
                let mut last = None;
                for (i, t) in m.current().tokens().iter().enumerate() {
                    let state = *g.state();
                    let decision = match t {
                        urgammon::Token::Move(_) => true,
                        urgammon::Token::Verdict(_) => state.phase() == urgammon::Phase::Decide,
                        _ => false,
                    };
                    if decision
                        && state
                            .to_act()
                            .is_some_and(|s| seats.contains(&(s.index() as u8)))
                    {
                        last = Some(game_start + i);
                    }
                    let _ = g.apply(*t);
                }
                last
            }
        }
    }

    /// Which seats have a decision to take back now.
    pub fn undoable(&self) -> [bool; 2] {
        [0u8, 1].map(|s| self.undo_point(&[s]).is_some())
    }

    /// The public state as JSON (the same for every viewer; no secrets).
    pub fn view(&self) -> Value {
        let mut v = match &self.rules {
            Rules::Ringo(g) => views::ringo_game_json(g),
            Rules::Urgammon(m) => views::urgammon_match_view(m),
        };
        let names = self.kind.seat_names();
        let resigned = self.resigned.map(|s| names[s as usize]);
        if let Some(seat) = self.resigned {
            let winner = names[1 - seat as usize];
            match &self.rules {
                Rules::Ringo(_) => {
                    v["status"] = Value::from(self.status());
                    v["reason"] = Value::from(RESIGNATION);
                    v["moves"] = serde_json::json!([]);
                }
                Rules::Urgammon(m) => {
                    // The match is forfeited as if the winner had reached the
                    // target: the loser pays for the points still missing.
                    let loser_points = m.score()[urgammon::Side::ALL[seat as usize]];
                    let to = m.settings().to;
                    v["match"]["over"] = Value::from(true);
                    v["match"]["winner"] = Value::from(winner);
                    v["match"]["resigned"] = Value::from(names[seat as usize]);
                    v["match"]["payout"] = m
                        .settings()
                        .stake
                        .map(|s| {
                            urgammon::Stake(s.0 * u64::from(to.saturating_sub(loser_points)))
                                .to_string()
                        })
                        .map_or(Value::Null, Value::from);
                    v["moves"] = serde_json::json!([]);
                    v["promoted_moves"] = serde_json::json!([]);
                    v["to_act"] = Value::Null;
                    v["verdict_allowed"] = Value::from(false);
                    v["verdict_forced"] = Value::from(false);
                }
            }
        }
        v["id"] = Value::from(self.row.id.clone());
        v["game"] = Value::from(self.kind.name());
        v["mode"] = Value::from(self.mode.name());
        v["level"] = self.row.level.map_or(Value::Null, Value::from);
        v["engine_seat"] = self.row.engine_seat.map_or(Value::Null, Value::from);
        v["version"] = Value::from(self.tokens.len());
        v["revision"] = Value::from(self.row.revision);
        v["seat_to_act"] = self.seat_to_act().map_or(Value::Null, Value::from);
        v["seat_names"] = serde_json::json!(names);
        v["over"] = Value::from(self.is_over());
        v["between_games"] = Value::from(self.between_games());
        v["undoable"] = serde_json::json!(self.undoable());
        v["resigned"] = resigned.map_or(Value::Null, Value::from);
        v["winner"] = self
            .winner()
            .filter(|_| self.is_over())
            .map(|w| names[w as usize])
            .map_or(Value::Null, Value::from);
        v["rematch"] = self.row.rematch.clone().map_or(Value::Null, Value::from);
        v["seated"] = serde_json::json!([
            self.row.token0.is_some() || self.row.engine_seat == Some(0),
            self.row.token1.is_some() || self.row.engine_seat == Some(1)
        ]);
        v
    }

    /// The record: Ringo's game record, or Urgammon's match record, ending
    /// with `resign:SIDE` when a side resigned.
    pub fn record(&self) -> String {
        let mut s = match &self.rules {
            Rules::Ringo(g) => g.record(),
            Rules::Urgammon(m) => m.record(),
        };
        if let Some(seat) = self.resigned {
            s.push(if self.kind == Kind::Urgammon {
                '\n'
            } else {
                ' '
            });
            s.push_str(RESIGN);
            s.push_str(self.kind.seat_names()[seat as usize]);
        }
        s
    }

    /// The seats a token holds (both, for a same-screen token).
    pub fn seats_for(&self, token: Option<&str>) -> Vec<u8> {
        let Some(token) = token.filter(|t| !t.is_empty()) else {
            return vec![];
        };
        // The row holds each seat token's hash; compare hashes in constant time.
        let hash = crate::secrets::hash(token);
        let held =
            |t: &Option<String>| t.as_deref().is_some_and(|t| crate::secrets::same(t, &hash));
        let mut seats = vec![];
        if held(&self.row.token0) {
            seats.push(0);
        }
        if held(&self.row.token1) {
            seats.push(1);
        }
        seats
    }
}
