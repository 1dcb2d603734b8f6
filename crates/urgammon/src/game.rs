//! A game with its record: the state plus the tokens that led to it, so it can
//! be written out, replayed and taken back.

use crate::error::TokenError;
use crate::notation::{RecordError, RecordReason, TokenText};
use crate::state::{State, Token};

/// One game of Urgammon with its record.
///
/// ```
/// use urgammon::Game;
/// let game = Game::parse("start:3-3 start:2-3 P-2a r3 P-3b r4 P-4a r1 2a-3a").unwrap();
/// assert_eq!(game.state().phase().name(), "roll");
/// assert_eq!(game.record(), "start:3-3 start:2-3 P-2a r3 P-3b r4 P-4a r1 2a-3a");
/// ```
#[derive(Clone, Debug, Default)]
pub struct Game {
    /// Where the record starts: the opening, or a set-up position.
    start: State,
    state: State,
    tokens: Vec<Token>,
    texts: Vec<String>,
}

impl Game {
    /// A new game, waiting for the opening roll.
    pub fn new() -> Game {
        Game::default()
    }

    /// A game from a set-up position ([`crate::parse_setup`]): its record
    /// holds the tokens played after it.
    pub fn from_state(start: State) -> Game {
        Game {
            start,
            state: start,
            tokens: vec![],
            texts: vec![],
        }
    }

    /// The state the record starts from.
    pub fn start(&self) -> &State {
        &self.start
    }

    /// Reads a game record (tokens separated by spaces).
    ///
    /// # Errors
    /// The first bad token with its index and the reason.
    pub fn parse(record: &str) -> Result<Game, RecordError> {
        let mut game = Game::new();
        game.apply_all(record, 0)?;
        Ok(game)
    }

    /// Applies every token of `text`; token indices in errors start at `offset`.
    ///
    /// # Errors
    /// As [`Game::parse`].
    pub fn apply_all(&mut self, text: &str, offset: usize) -> Result<(), RecordError> {
        for (i, token) in text.split_whitespace().enumerate() {
            self.apply_text(token).map_err(|e| RecordError {
                index: offset + i,
                token: token.to_string(),
                reason: RecordReason::Token(e),
            })?;
        }
        Ok(())
    }

    /// Parses and applies one token.
    ///
    /// # Errors
    /// Why the token is malformed or does not fit here; nothing changes.
    pub fn apply_text(&mut self, text: &str) -> Result<Token, TokenError> {
        let token = TokenText::parse(text)?.resolve(&self.state)?;
        self.apply(token)?;
        Ok(token)
    }

    /// Applies one token.
    ///
    /// # Errors
    /// Why it does not fit here; nothing changes.
    pub fn apply(&mut self, token: Token) -> Result<(), TokenError> {
        let side = self.state.to_act();
        self.state.apply(token)?;
        self.texts
            .push(token.notation(side.unwrap_or(crate::board::Side::Light)));
        self.tokens.push(token);
        Ok(())
    }

    /// The current state.
    pub fn state(&self) -> &State {
        &self.state
    }

    /// The tokens so far.
    pub fn tokens(&self) -> &[Token] {
        &self.tokens
    }

    /// The tokens as written.
    pub fn token_texts(&self) -> &[String] {
        &self.texts
    }

    /// The record: the tokens separated by spaces.
    pub fn record(&self) -> String {
        self.texts.join(" ")
    }

    /// The game after only its first `n` tokens (for replays and undo).
    pub fn truncated(&self, n: usize) -> Game {
        let mut game = Game::from_state(self.start);
        for &t in self.tokens.iter().take(n) {
            // These tokens were legal in this order before.
            let _ = game.apply(t);
        }
        game
    }

    /// True once the game is over.
    pub fn is_over(&self) -> bool {
        self.state.result().is_some()
    }
}
