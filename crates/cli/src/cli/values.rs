//! Flag values: sides, draw rules, tuning methods and engine specs, each
//! with its conversion into the rules crates' own types.

use agon_ai::Level;
use anyhow::{Context, Result};

/// Parses `engine` or `engine:LEVEL` into a level (default 5).
pub(crate) fn parse_engine_spec(spec: &str) -> Result<Level> {
    match spec.strip_prefix("engine") {
        Some("") => Ok(Level::new(5)),
        Some(rest) => rest
            .strip_prefix(':')
            .and_then(|l| l.parse().ok())
            .ok_or_else(|| {
                anyhow::anyhow!("invalid --vs '{spec}': use engine or engine:1 … engine:10")
            }),
        None => anyhow::bail!("invalid --vs '{spec}': use engine or engine:LEVEL"),
    }
}

/// A Ringo side, as a flag value.
#[derive(Clone, Copy, Debug, PartialEq, Eq, clap::ValueEnum)]
pub(crate) enum RingoSide {
    /// The attackers.
    Attackers,
    /// The defenders.
    Defenders,
}

impl From<RingoSide> for ringo::Side {
    fn from(s: RingoSide) -> ringo::Side {
        match s {
            RingoSide::Attackers => ringo::Side::Attackers,
            RingoSide::Defenders => ringo::Side::Defenders,
        }
    }
}

/// An Urgammon side, as a flag value.
#[derive(Clone, Copy, Debug, PartialEq, Eq, clap::ValueEnum)]
pub(crate) enum UrgammonSide {
    /// Light.
    Light,
    /// Dark.
    Dark,
}

impl From<UrgammonSide> for urgammon::Side {
    fn from(s: UrgammonSide) -> urgammon::Side {
        match s {
            UrgammonSide::Light => urgammon::Side::Light,
            UrgammonSide::Dark => urgammon::Side::Dark,
        }
    }
}

/// What a drawn Urgammon game does, as a flag value.
#[derive(Clone, Copy, Debug, PartialEq, Eq, clap::ValueEnum)]
pub(crate) enum Draw {
    /// Play a deciding game.
    Replay,
    /// The match ends drawn.
    End,
}

impl From<Draw> for urgammon::DrawRule {
    fn from(d: Draw) -> urgammon::DrawRule {
        match d {
            Draw::Replay => urgammon::DrawRule::Replay,
            Draw::End => urgammon::DrawRule::End,
        }
    }
}

/// How `agon tune ringo` tunes.
#[derive(Clone, Copy, Debug, PartialEq, Eq, clap::ValueEnum)]
pub(crate) enum TuneMethod {
    /// SPSA on match results.
    Spsa,
    /// A Texel-style fit to game outcomes.
    Texel,
}

/// Reads a player spec (either game's), naming the flag it came from.
pub(crate) fn parse_player<T: std::str::FromStr<Err = String>>(
    text: &str,
    flag: &str,
) -> Result<T> {
    text.parse()
        .map_err(anyhow::Error::msg)
        .with_context(|| format!("invalid {flag}"))
}
