//! A game in play: its stored row, the rules state rebuilt from its tokens, and
//! the actions players may take. Everything here is synchronous and pure apart
//! from the dice, which the caller passes in.

use crate::error::ApiError;
use crate::store::GameRow;
use crate::views;
use serde_json::Value;

/// The two games.
#[derive(Clone, Copy, PartialEq, Eq, Debug)]
pub enum Kind {
    /// Ringo.
    Ringo,
    /// Urgammon.
    Urgammon,
}

impl Kind {
    /// Parses `ringo` or `urgammon`.
    ///
    /// # Errors
    /// Any other name.
    pub fn parse(s: &str) -> Result<Kind, ApiError> {
        match s {
            "ringo" => Ok(Kind::Ringo),
            "urgammon" => Ok(Kind::Urgammon),
            other => Err(ApiError::BadRequest(format!(
                "unknown game '{other}'; the games are ringo and urgammon"
            ))),
        }
    }

    /// The name.
    pub fn name(self) -> &'static str {
        match self {
            Kind::Ringo => "ringo",
            Kind::Urgammon => "urgammon",
        }
    }

    /// The seat names: attackers/defenders, light/dark.
    pub fn seat_names(self) -> [&'static str; 2] {
        match self {
            Kind::Ringo => ["attackers", "defenders"],
            Kind::Urgammon => ["light", "dark"],
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
    /// Play a move in notation (Ringo: also `pass`).
    Move(String),
    /// Urgammon: roll the chance die.
    Roll,
    /// Urgammon: roll the verdict die.
    Verdict,
    /// Take back the last own move (games against the engine).
    Undo,
}

/// A source of dice: the server passes the secure generator, tests a fixed one.
pub trait Dice {
    /// A chance die: 1, 1, 2, 2, 3, 4.
    fn chance(&mut self) -> u8;
    /// The verdict die: true for YES (4 faces of 6).
    fn verdict(&mut self) -> bool;
}

/// A game in memory.
#[derive(Clone, Debug)]
pub struct Live {
    /// The stored row.
    pub row: GameRow,
    /// The record tokens, as stored.
    pub tokens: Vec<String>,
    /// The rules state after the tokens.
    pub rules: Rules,
}

impl Live {
    /// The game kind.
    pub fn kind(&self) -> Kind {
        match self.rules {
            Rules::Ringo(_) => Kind::Ringo,
            Rules::Urgammon(_) => Kind::Urgammon,
        }
    }

    /// Rebuilds the rules state from a stored row and its tokens.
    ///
    /// # Errors
    /// The stored data does not replay (it never should: only legal tokens are
    /// stored).
    pub fn from_stored(row: GameRow, tokens: Vec<String>) -> Result<Live, ApiError> {
        let rules = match Kind::parse(&row.kind)? {
            Kind::Ringo => {
                let r: ringo::Rules = row
                    .settings
                    .parse()
                    .map_err(|e| ApiError::Internal(format!("stored rules: {e}")))?;
                let game = ringo::Game::from_moves(
                    r,
                    row.start_position.as_deref(),
                    tokens.iter().map(String::as_str),
                )
                .map_err(|e| ApiError::Internal(format!("stored record: {e}")))?;
                Rules::Ringo(game)
            }
            Kind::Urgammon => {
                let settings = urgammon::MatchSettings::parse_header(&row.settings)
                    .map_err(|e| ApiError::Internal(format!("stored settings: {e}")))?;
                let mut m = urgammon::Match::new(settings);
                for t in &tokens {
                    m.apply_text(t)
                        .map_err(|e| ApiError::Internal(format!("stored token {t}: {e}")))?;
                }
                Rules::Urgammon(m)
            }
        };
        Ok(Live { row, tokens, rules })
    }

    /// The seat (0 or 1) whose turn it is, if any.
    pub fn seat_to_act(&self) -> Option<u8> {
        match &self.rules {
            Rules::Ringo(g) => (!g.is_over()).then(|| g.position().to_move().index() as u8),
            Rules::Urgammon(m) => {
                if m.result().is_some() {
                    return None;
                }
                m.current().state().to_act().map(|s| s.index() as u8)
            }
        }
    }

    /// True once the game (Ringo) or match (Urgammon) is over.
    pub fn is_over(&self) -> bool {
        match &self.rules {
            Rules::Ringo(g) => g.is_over(),
            Rules::Urgammon(m) => m.result().is_some(),
        }
    }

    /// The seats a token controls.
    pub fn seats_for(&self, token: Option<&str>) -> Vec<u8> {
        let Some(token) = token.filter(|t| !t.is_empty()) else {
            return vec![];
        };
        let mut seats = vec![];
        if self.row.token0.as_deref() == Some(token) {
            seats.push(0);
        }
        if self.row.token1.as_deref() == Some(token) {
            seats.push(1);
        }
        seats
    }

    /// The short status stored for game lists.
    pub fn status(&self) -> String {
        match &self.rules {
            Rules::Ringo(g) => g.status_name().to_string(),
            Rules::Urgammon(m) => match m.result() {
                Some(r) => match r.winner {
                    Some(w) => format!("{}-wins", w.name()),
                    None => "draw".into(),
                },
                None => "ongoing".into(),
            },
        }
    }

    /// Applies the tokens the server adds on its own: the opening roll of each
    /// Urgammon game. Returns the new tokens.
    pub fn auto_tokens(&mut self, dice: &mut dyn Dice) -> Vec<String> {
        let mut new = vec![];
        if let Rules::Urgammon(m) = &mut self.rules {
            while m.result().is_none() && m.current().state().phase() == urgammon::Phase::Opening {
                let token = format!("start:{}-{}", dice.chance(), dice.chance());
                if m.apply_text(&token).is_err() {
                    break;
                }
                new.push(token);
            }
        }
        self.tokens.extend(new.iter().cloned());
        new
    }

    /// Applies a player's action for `seat`. Returns the new tokens; on error
    /// nothing changes.
    ///
    /// # Errors
    /// Not this seat's turn, an illegal move, or an action that does not fit.
    pub fn act(
        &mut self,
        seat: u8,
        action: &Action,
        dice: &mut dyn Dice,
    ) -> Result<Vec<String>, ApiError> {
        if self.is_over() {
            return Err(ApiError::Conflict("the game is over".into()));
        }
        if self.seat_to_act() != Some(seat) {
            return Err(ApiError::Conflict(format!(
                "it is not the {}' turn",
                self.kind().seat_names()[seat as usize]
            )));
        }
        let mut next = self.rules.clone();
        let mut new = vec![];
        match (&mut next, action) {
            (Rules::Ringo(g), Action::Move(text)) => {
                let m = g
                    .play_text(text)
                    .map_err(|e| ApiError::Conflict(e.to_string()))?;
                new.push(m.to_notation(&self.ringo_legal()));
            }
            (Rules::Ringo(_), _) => {
                return Err(ApiError::BadRequest(
                    "Ringo has no dice: send a move".into(),
                ))
            }
            (Rules::Urgammon(m), action) => {
                let phase = m.current().state().phase();
                let token = match (phase, action) {
                    (urgammon::Phase::Roll, Action::Roll) => format!("r{}", dice.chance()),
                    (urgammon::Phase::Decide | urgammon::Phase::Verdict, Action::Verdict) => {
                        if dice.verdict() {
                            "v+".into()
                        } else {
                            "v-".into()
                        }
                    }
                    (urgammon::Phase::Decide | urgammon::Phase::Move, Action::Move(text)) => {
                        text.clone()
                    }
                    (urgammon::Phase::Roll, _) => {
                        return Err(ApiError::Conflict("roll the chance die first".into()))
                    }
                    (urgammon::Phase::Verdict, _) => {
                        return Err(ApiError::Conflict(
                            "no move with this roll: the verdict die must be rolled".into(),
                        ))
                    }
                    (urgammon::Phase::Move, Action::Verdict) => {
                        return Err(ApiError::Conflict(
                            "the verdict die may not be rolled now".into(),
                        ))
                    }
                    _ => {
                        return Err(ApiError::Conflict(
                            "that does not fit this moment of the turn".into(),
                        ))
                    }
                };
                m.apply_text(&token).map_err(ApiError::Conflict)?;
                new.push(token);
            }
        }
        self.rules = next;
        self.tokens.extend(new.iter().cloned());
        new.extend(self.auto_tokens(dice));
        Ok(new)
    }

    fn ringo_legal(&self) -> ringo::MoveList {
        match &self.rules {
            Rules::Ringo(g) => g.legal_moves(),
            Rules::Urgammon(_) => ringo::MoveList::new(),
        }
    }

    /// Undo in games against the engine: back to before `seat`'s last move,
    /// keeping the dice already rolled (Urgammon), so nothing can be re-rolled.
    /// Returns how many tokens remain.
    ///
    /// # Errors
    /// Not an engine game, or nothing to take back.
    pub fn undo(&mut self, seat: u8) -> Result<usize, ApiError> {
        if self.row.mode != "engine" {
            return Err(ApiError::Conflict(
                "undo is only for games against the engine".into(),
            ));
        }
        let keep = match &self.rules {
            Rules::Ringo(g) => {
                // The human's last move: the last ply where the human's side moved.
                let moves = g.moves();
                (0..moves.len())
                    .rev()
                    .find(|&i| g.position_at(i).map(|p| p.to_move().index() as u8) == Some(seat))
            }
            Rules::Urgammon(m) => {
                // Replay to find the last move token played by `seat` in the
                // current game; dice before it stay.
                let game_start = self.tokens.len() - m.current().tokens().len();
                let mut g = urgammon::Game::new();
                let mut last = None;
                for (i, t) in self.tokens[game_start..].iter().enumerate() {
                    let side = g.state().to_act();
                    if let Ok(urgammon::Token::Move(_)) = g.apply_text(t) {
                        if side.map(|s| s.index() as u8) == Some(seat) {
                            last = Some(game_start + i);
                        }
                    }
                }
                last
            }
        };
        let keep = keep
            .ok_or_else(|| ApiError::Conflict("there is no move of yours to take back".into()))?;
        let rebuilt = Live::from_stored(self.row.clone(), self.tokens[..keep].to_vec())?;
        *self = rebuilt;
        Ok(keep)
    }

    /// The public state as JSON (the same for every viewer).
    pub fn view(&self) -> Value {
        let mut v = match &self.rules {
            Rules::Ringo(g) => views::ringo_game_json(g),
            Rules::Urgammon(m) => views::urgammon_match_view(m),
        };
        v["id"] = Value::from(self.row.id.clone());
        v["game"] = Value::from(self.kind().name());
        v["mode"] = Value::from(self.row.mode.clone());
        v["level"] = self.row.level.map_or(Value::Null, Value::from);
        v["engine_seat"] = self.row.engine_seat.map_or(Value::Null, Value::from);
        v["version"] = Value::from(self.tokens.len());
        v["seat_to_act"] = self.seat_to_act().map_or(Value::Null, Value::from);
        v["seat_names"] = serde_json::json!(self.kind().seat_names());
        v["over"] = Value::from(self.is_over());
        v
    }

    /// The record: Ringo's game record, or Urgammon's match record.
    pub fn record(&self) -> String {
        match &self.rules {
            Rules::Ringo(g) => g.record(),
            Rules::Urgammon(m) => m.record(),
        }
    }
}
