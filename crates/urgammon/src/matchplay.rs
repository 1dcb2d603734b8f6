//! Matches: games to a target score, the `draw` setting, and stakes (section 6).

use crate::board::{BySide, Side};
use crate::error::{SettingsError, TokenError};
use crate::game::Game;
use crate::notation::{RecordError, RecordReason};
use crate::state::State;
use std::fmt;
use std::str::FromStr;

/// What a drawn game means for the match (`draw`).
#[derive(Clone, Copy, PartialEq, Eq, Hash, Debug)]
pub enum DrawRule {
    /// Play a deciding game; the match goes on (the default).
    Replay,
    /// The match ends as a draw.
    End,
}

impl DrawRule {
    /// Both rules.
    pub const ALL: [DrawRule; 2] = [DrawRule::Replay, DrawRule::End];

    /// The name in records and settings: `replay` or `end`.
    pub const fn name(self) -> &'static str {
        match self {
            DrawRule::Replay => "replay",
            DrawRule::End => "end",
        }
    }
}

impl fmt::Display for DrawRule {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.name())
    }
}

impl FromStr for DrawRule {
    type Err = SettingsError;
    /// Parses `replay` or `end`.
    fn from_str(s: &str) -> Result<DrawRule, SettingsError> {
        DrawRule::ALL
            .into_iter()
            .find(|d| d.name() == s)
            .ok_or_else(|| SettingsError::Draw(s.to_string()))
    }
}

/// An amount of money per point, kept exactly in hundredths.
#[derive(Clone, Copy, PartialEq, Eq, Hash, Debug, Default)]
pub struct Stake(pub u64);

impl FromStr for Stake {
    type Err = SettingsError;
    /// Parses `10`, `12.5` or `0.25` (at most two decimals, at most 10^12).
    fn from_str(s: &str) -> Result<Stake, SettingsError> {
        let bad = || SettingsError::Stake(s.to_string());
        // `5.` is refused like `.5`: a point stands between digits.
        let (whole, frac) = match s.split_once('.') {
            Some((_, "")) => return Err(bad()),
            Some(parts) => parts,
            None => (s, ""),
        };
        if whole.is_empty() || !whole.bytes().all(|b| b.is_ascii_digit()) || whole.len() > 12 {
            return Err(bad());
        }
        if frac.len() > 2 || !frac.bytes().all(|b| b.is_ascii_digit()) {
            return Err(bad());
        }
        let w: u64 = whole.parse().map_err(|_| bad())?;
        let f: u64 = format!("{frac:0<2}").parse().map_err(|_| bad())?;
        Ok(Stake(w * 100 + f))
    }
}

impl fmt::Display for Stake {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        if self.0.is_multiple_of(100) {
            write!(f, "{}", self.0 / 100)
        } else {
            write!(f, "{}.{:02}", self.0 / 100, self.0 % 100)
        }
    }
}

/// Match settings.
#[derive(Clone, Copy, PartialEq, Eq, Hash, Debug)]
pub struct MatchSettings {
    /// The target score (7 by default).
    pub to: u32,
    /// What a drawn game means.
    pub draw: DrawRule,
    /// The optional amount per point.
    pub stake: Option<Stake>,
}

impl Default for MatchSettings {
    fn default() -> MatchSettings {
        MatchSettings {
            to: 7,
            draw: DrawRule::Replay,
            stake: None,
        }
    }
}

impl MatchSettings {
    /// The header line: `urgammon match to=7 draw=replay` (with `stake=` if set).
    pub fn header(&self) -> String {
        let mut s = format!("urgammon match to={} draw={}", self.to, self.draw);
        if let Some(stake) = self.stake {
            s.push_str(&format!(" stake={stake}"));
        }
        s
    }

    /// Parses a header line.
    ///
    /// # Errors
    /// What is wrong with it.
    pub fn parse_header(line: &str) -> Result<MatchSettings, SettingsError> {
        let mut words = line.split_whitespace();
        if words.next() != Some("urgammon") || words.next() != Some("match") {
            return Err(SettingsError::NotAHeader);
        }
        let mut settings = MatchSettings::default();
        for word in words {
            match word.split_once('=') {
                Some(("to", v)) => {
                    settings.to = v
                        .parse()
                        .ok()
                        .filter(|n| (1..=99).contains(n))
                        .ok_or_else(|| SettingsError::Target(v.to_string()))?
                }
                Some(("draw", v)) => settings.draw = v.parse()?,
                Some(("stake", v)) => settings.stake = Some(v.parse()?),
                _ => return Err(SettingsError::Unknown(word.to_string())),
            }
        }
        Ok(settings)
    }
}

/// How a match ended.
#[derive(Clone, Copy, PartialEq, Eq, Hash, Debug)]
pub struct MatchResult {
    /// The winner (`None` when a drawn game ended it under `draw=end`).
    pub winner: Option<Side>,
    /// The final score.
    pub score: BySide<u32>,
    /// What the loser pays: (winner's points − loser's points) × stake. A drawn
    /// match pays nothing.
    pub payout: Option<Stake>,
}

/// A match: finished games, the game in play, and the score.
#[derive(Clone, Debug)]
pub struct Match {
    settings: MatchSettings,
    finished: Vec<Game>,
    current: Game,
    score: BySide<u32>,
    result: Option<MatchResult>,
}

impl Match {
    /// A new match.
    pub fn new(settings: MatchSettings) -> Match {
        Match {
            settings,
            finished: vec![],
            current: Game::new(),
            score: BySide::default(),
            result: None,
        }
    }

    /// A match taken up at a score, its game in play from `game` (a set-up,
    /// say): the end of a match to study, where only the earlier games'
    /// points are known, not their records. A score that already reaches
    /// the target is over before `game` is played.
    pub fn resume(settings: MatchSettings, score: BySide<u32>, game: Game) -> Match {
        let mut m = Match {
            settings,
            finished: vec![],
            current: game,
            score,
            result: None,
        };
        m.check_target();
        m
    }

    /// The settings.
    pub fn settings(&self) -> &MatchSettings {
        &self.settings
    }

    /// The game in play. A game that has just ended stays current, with its
    /// final position and result, until the next game's first token (see
    /// [`Match::between_games`]); once the match is over it is the last game.
    pub fn current(&self) -> &Game {
        &self.current
    }

    /// True when the current game has ended and the match goes on: the next
    /// token (an opening roll, `start:L-D`) starts the next game.
    pub fn between_games(&self) -> bool {
        self.result.is_none() && self.current.is_over()
    }

    /// The state the next token applies to: the current game's, or a new
    /// game's opening between games. Players and loops that feed tokens use it.
    pub fn next_state(&self) -> State {
        if self.between_games() {
            State::default()
        } else {
            *self.current.state()
        }
    }

    /// The games before the current one, all finished.
    pub fn finished(&self) -> &[Game] {
        &self.finished
    }

    /// The score.
    pub fn score(&self) -> BySide<u32> {
        self.score
    }

    /// The result, once the match is over.
    pub fn result(&self) -> Option<MatchResult> {
        self.result
    }

    /// Applies one token. A game that ends is scored and stays current; the
    /// next token (the next game's opening roll) starts a new game, unless the
    /// match is over.
    ///
    /// # Errors
    /// Why the token does not fit; nothing changes.
    pub fn apply_text(&mut self, text: &str) -> Result<(), TokenError> {
        self.apply_with(|game| game.apply_text(text).map(|_| ()))
    }

    /// Applies one token (already parsed).
    ///
    /// # Errors
    /// As [`Match::apply_text`].
    pub fn apply(&mut self, token: crate::state::Token) -> Result<(), TokenError> {
        self.apply_with(|game| game.apply(token))
    }

    /// Applies a token to the game it belongs to: a new game between games,
    /// kept only when the token is accepted, so a bad token leaves the finished
    /// game in view. [`Game`]'s own apply changes nothing on error.
    fn apply_with(
        &mut self,
        apply: impl FnOnce(&mut Game) -> Result<(), TokenError>,
    ) -> Result<(), TokenError> {
        if self.result.is_some() {
            return Err(TokenError::MatchOver);
        }
        if self.between_games() {
            let mut next = Game::new();
            apply(&mut next)?;
            let done = std::mem::replace(&mut self.current, next);
            self.finished.push(done);
        } else {
            apply(&mut self.current)?;
        }
        self.after_token();
        Ok(())
    }

    /// Scores the current game if it has just ended, and ends the match when
    /// a side reaches the target (or a drawn game ends it under `draw=end`).
    fn after_token(&mut self) {
        let Some(r) = self.current.state().result() else {
            return;
        };
        match r.winner {
            Some(w) => self.score[w] += u32::from(r.points),
            None if self.settings.draw == DrawRule::End => {
                self.result = Some(MatchResult {
                    winner: None,
                    score: self.score,
                    payout: None,
                });
                return;
            }
            None => {}
        }
        self.check_target();
    }

    /// Ends the match when a side's score has reached the target.
    fn check_target(&mut self) {
        for side in Side::ALL {
            if self.score[side] >= self.settings.to {
                let diff = u64::from(self.score[side] - self.score[side.other()]);
                self.result = Some(MatchResult {
                    winner: Some(side),
                    score: self.score,
                    payout: self.settings.stake.map(|s| Stake(s.0 * diff)),
                });
                return;
            }
        }
    }

    /// Reads a match record: the header line, then one line per game.
    ///
    /// # Errors
    /// The bad header or the first bad token (its index counts over all games).
    pub fn parse(record: &str) -> Result<Match, RecordError> {
        let mut lines = record.lines().map(str::trim).filter(|l| !l.is_empty());
        let header = lines.next().unwrap_or("");
        let settings = MatchSettings::parse_header(header).map_err(|e| RecordError {
            index: 0,
            token: header.to_string(),
            reason: RecordReason::Settings(e),
        })?;
        let mut m = Match::new(settings);
        let mut index = 0;
        for line in lines {
            if !m.current.tokens().is_empty() && !m.current.is_over() {
                return Err(RecordError {
                    index,
                    token: line.split_whitespace().next().unwrap_or("").to_string(),
                    reason: RecordReason::Unfinished,
                });
            }
            for token in line.split_whitespace() {
                m.apply_text(token).map_err(|e| RecordError {
                    index,
                    token: token.to_string(),
                    reason: RecordReason::Token(e),
                })?;
                index += 1;
            }
        }
        Ok(m)
    }

    /// Writes the match record.
    pub fn record(&self) -> String {
        let mut s = self.settings.header();
        for g in self.finished.iter().chain(std::iter::once(&self.current)) {
            if !g.tokens().is_empty() {
                s.push('\n');
                s.push_str(&g.record());
            }
        }
        s
    }
}
