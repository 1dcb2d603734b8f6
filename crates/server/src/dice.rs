//! Each game's ledger of the dice it has drawn. The dice themselves come from
//! the project's one source of dice, [`agon_ai::dice`] (the server draws with
//! its [`OsDice`]).
//!
//! A die that has been drawn stays drawn: the n-th opening roll, the n-th
//! chance roll and the n-th verdict roll of a game are read from its ledger
//! whenever the game reaches them again (after an Undo), so taking a move back
//! can never buy a new roll.

pub use agon_ai::dice::{Dice, DiceUnavailable, OsDice};

/// The three dice a game draws from, each with its own sequence.
#[derive(Clone, Copy, PartialEq, Eq, Hash, Debug)]
pub enum Die {
    /// The opening roll of a game, both players at once (`start:L-D`).
    Opening,
    /// The chance die (`rN`).
    Chance,
    /// The verdict die (`v+`/`v-`).
    Verdict,
}

impl Die {
    /// Every die, in storage order.
    pub const ALL: [Die; 3] = [Die::Opening, Die::Chance, Die::Verdict];

    /// The name stored in the database.
    pub const fn name(self) -> &'static str {
        match self {
            Die::Opening => "opening",
            Die::Chance => "chance",
            Die::Verdict => "verdict",
        }
    }

    /// The die a stored name stands for.
    pub fn from_name(name: &str) -> Option<Die> {
        Die::ALL.into_iter().find(|d| d.name() == name)
    }

    /// The die a record token reads, with its value in ledger form, if the
    /// token is a die roll: an opening roll is stored as `10 × L + D`, a
    /// verdict as 1 (YES) or 0 (NO).
    pub fn of_token(token: &str) -> Option<(Die, u8)> {
        match urgammon::TokenText::parse(token).ok()? {
            urgammon::TokenText::Start(l, d) => Some((Die::Opening, 10 * l + d)),
            urgammon::TokenText::Roll(c) => Some((Die::Chance, c)),
            urgammon::TokenText::Verdict(y) => Some((Die::Verdict, u8::from(y))),
            urgammon::TokenText::Move { .. } => None,
        }
    }

    fn slot(self) -> usize {
        self as usize
    }
}

/// One value drawn into a ledger: the die, its index in that die's sequence,
/// and the value in ledger form (see [`Die::of_token`]).
#[derive(Clone, Copy, PartialEq, Eq, Debug)]
pub struct Drawn {
    /// The die.
    pub die: Die,
    /// Its index in the die's sequence (0 for the first roll of the game).
    pub seq: usize,
    /// The value.
    pub value: u8,
}

/// Every die a game has drawn, by die, in order.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct Ledger {
    seqs: [Vec<u8>; 3],
}

impl Ledger {
    /// A ledger holding stored entries.
    pub fn from_entries(entries: impl IntoIterator<Item = Drawn>) -> Ledger {
        let mut ledger = Ledger::default();
        let mut sorted: Vec<Drawn> = entries.into_iter().collect();
        sorted.sort_by_key(|d| (d.die.slot(), d.seq));
        for d in sorted {
            let seq = &mut ledger.seqs[d.die.slot()];
            if seq.len() == d.seq {
                seq.push(d.value);
            }
        }
        ledger
    }

    /// The values drawn so far for one die.
    pub fn values(&self, die: Die) -> &[u8] {
        &self.seqs[die.slot()]
    }

    /// Adds, as drawn, the dice of a record beyond what the ledger holds (an
    /// imported record, or a game stored before the ledger existed), and
    /// returns the new entries so the caller can store them.
    pub fn extend_from_tokens<'a>(
        &mut self,
        tokens: impl IntoIterator<Item = &'a str>,
    ) -> Vec<Drawn> {
        let mut seen = [0usize; 3];
        let mut new = vec![];
        for (die, value) in tokens.into_iter().filter_map(Die::of_token) {
            let seq = &mut self.seqs[die.slot()];
            let n = seen[die.slot()];
            if n == seq.len() {
                seq.push(value);
                new.push(Drawn { die, seq: n, value });
            }
            seen[die.slot()] += 1;
        }
        new
    }

    /// The `n`-th value of `die`: from the ledger if it was drawn before,
    /// otherwise drawn now from `dice` and added (and to `new`, for storing).
    ///
    /// # Errors
    /// A fresh die was needed and the generator failed.
    pub fn nth(
        &mut self,
        die: Die,
        n: usize,
        dice: &mut dyn Dice,
        new: &mut Vec<Drawn>,
    ) -> Result<u8, DiceUnavailable> {
        let seq = &mut self.seqs[die.slot()];
        if let Some(&v) = seq.get(n) {
            return Ok(v);
        }
        // Undo only ever goes back, so the die asked for is the next one.
        debug_assert_eq!(n, seq.len());
        let value = match die {
            Die::Opening => 10 * dice.chance()? + dice.chance()?,
            Die::Chance => dice.chance()?,
            Die::Verdict => u8::from(dice.verdict()?),
        };
        seq.push(value);
        new.push(Drawn {
            die,
            seq: seq.len() - 1,
            value,
        });
        Ok(value)
    }
}

/// How many rolls of each die a record has used: the index of the next roll.
pub fn used(tokens: &[String]) -> [usize; 3] {
    let mut n = [0; 3];
    for (die, _) in tokens.iter().filter_map(|t| Die::of_token(t)) {
        n[die.slot()] += 1;
    }
    n
}

/// The record token for a ledger value of `die`.
pub fn token(die: Die, value: u8) -> String {
    match die {
        Die::Opening => format!("start:{}-{}", value / 10, value % 10),
        Die::Chance => format!("r{value}"),
        Die::Verdict => if value == 1 { "v+" } else { "v-" }.to_string(),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    struct Fixed(u8);
    impl Dice for Fixed {
        fn chance(&mut self) -> Result<u8, DiceUnavailable> {
            self.0 = self.0 % 4 + 1;
            Ok(self.0)
        }
        fn verdict(&mut self) -> Result<bool, DiceUnavailable> {
            Ok(true)
        }
    }

    #[test]
    fn a_drawn_die_is_read_back_not_redrawn() {
        let mut ledger = Ledger::default();
        let mut new = vec![];
        let a = ledger.nth(Die::Chance, 0, &mut Fixed(0), &mut new).unwrap();
        let again = ledger.nth(Die::Chance, 0, &mut Fixed(2), &mut new).unwrap();
        assert_eq!(a, again);
        assert_eq!(new.len(), 1);
        assert_eq!(
            Die::of_token(&token(Die::Opening, 23)),
            Some((Die::Opening, 23))
        );
        assert_eq!(Die::of_token("v-"), Some((Die::Verdict, 0)));
        assert_eq!(Die::of_token("P-2a"), None);
    }

    #[test]
    fn records_extend_the_ledger_once() {
        let mut ledger = Ledger::default();
        let tokens = ["start:3-3", "start:2-3", "P-2a", "r3", "P-3b", "r4"];
        assert_eq!(ledger.extend_from_tokens(tokens).len(), 4);
        assert_eq!(ledger.extend_from_tokens(tokens).len(), 0);
        assert_eq!(ledger.values(Die::Opening), &[33, 23]);
        let stored = Ledger::from_entries(ledger.extend_from_tokens([]));
        assert_eq!(stored, Ledger::default());
    }
}
