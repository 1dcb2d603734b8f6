//! The one source of Urgammon dice, for every part of the project: a trait,
//! its seeded implementation on [`Rng`] (reproducible games, tournaments,
//! training, rollouts, terminal play) and its implementation from the
//! operating system's secure generator ([`OsDice`], the web app). The rules
//! crate never rolls: its dice are inputs.

use crate::Rng;
use urgammon::{CHANCE_FACES, VERDICT_YES_FACES};

/// The secure generator failed; no die was drawn.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct DiceUnavailable;

impl std::fmt::Display for DiceUnavailable {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str("the server's random generator is unavailable")
    }
}

impl std::error::Error for DiceUnavailable {}

/// A source of dice.
pub trait Dice {
    /// The chance die: faces 1, 1, 2, 2, 3, 4.
    ///
    /// # Errors
    /// The generator failed (only [`OsDice`] can).
    fn chance(&mut self) -> Result<u8, DiceUnavailable>;

    /// The verdict die: YES on 4 faces of 6.
    ///
    /// # Errors
    /// The generator failed (only [`OsDice`] can).
    fn verdict(&mut self) -> Result<bool, DiceUnavailable>;
}

impl Rng {
    /// A chance die from this seeded generator.
    pub fn chance(&mut self) -> u8 {
        CHANCE_FACES[self.below(6)]
    }

    /// A verdict die from this seeded generator: true for YES.
    pub fn verdict(&mut self) -> bool {
        self.below(6) < usize::from(VERDICT_YES_FACES)
    }
}

impl Dice for Rng {
    fn chance(&mut self) -> Result<u8, DiceUnavailable> {
        Ok(Rng::chance(self))
    }
    fn verdict(&mut self) -> Result<bool, DiceUnavailable> {
        Ok(Rng::verdict(self))
    }
}

/// Dice from the operating system's secure generator.
#[derive(Clone, Copy, Debug, Default)]
pub struct OsDice;

impl OsDice {
    fn below6() -> Result<u8, DiceUnavailable> {
        // Rejection sampling over bytes: 252 = 42 × 6, so every face is equally
        // likely. A failing generator is an error, never a weaker fallback.
        loop {
            let mut b = [0u8; 1];
            getrandom::fill(&mut b).map_err(|_| DiceUnavailable)?;
            if b[0] < 252 {
                return Ok(b[0] % 6);
            }
        }
    }
}

impl Dice for OsDice {
    fn chance(&mut self) -> Result<u8, DiceUnavailable> {
        Ok(CHANCE_FACES[usize::from(OsDice::below6()?)])
    }
    fn verdict(&mut self) -> Result<bool, DiceUnavailable> {
        Ok(OsDice::below6()? < VERDICT_YES_FACES)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn both_dice_give_only_their_faces() {
        let mut rng = Rng::new(3);
        let mut os = OsDice;
        for _ in 0..600 {
            assert!(CHANCE_FACES.contains(&rng.chance()));
            assert!(CHANCE_FACES.contains(&os.chance().unwrap()));
            let _ = os.verdict().unwrap();
        }
        let yes = (0..6000).filter(|_| rng.verdict()).count();
        assert!((3600..4400).contains(&yes), "about 4 in 6: {yes}");
    }
}
