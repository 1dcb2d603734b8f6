//! Playing strengths 1–10, shared by both games.

/// A playing strength, 1 (beginner) to 10: Ringo's levels are
/// [`crate::ringo::search::level_spec`], Urgammon's [`crate::urgammon::levels::level_spec`].
#[derive(Clone, Copy, PartialEq, Eq, Hash, Debug)]
pub struct Level(u8);

impl Level {
    /// The weakest level.
    pub const MIN: Level = Level(1);
    /// The strongest level.
    pub const MAX: Level = Level(10);

    /// A level, clamped to 1..=10.
    pub fn new(level: u8) -> Level {
        Level(level.clamp(Level::MIN.0, Level::MAX.0))
    }

    /// The level number.
    pub fn get(self) -> u8 {
        self.0
    }
}

/// A level number outside 1–10, or not a number.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct LevelError(pub String);

impl std::fmt::Display for LevelError {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        write!(f, "invalid level '{}': the levels are 1 to 10", self.0)
    }
}

impl std::error::Error for LevelError {}

impl TryFrom<u8> for Level {
    type Error = LevelError;
    fn try_from(n: u8) -> Result<Level, LevelError> {
        if (Level::MIN.0..=Level::MAX.0).contains(&n) {
            Ok(Level(n))
        } else {
            Err(LevelError(n.to_string()))
        }
    }
}

impl std::str::FromStr for Level {
    type Err = LevelError;
    fn from_str(s: &str) -> Result<Level, LevelError> {
        s.trim()
            .parse::<u8>()
            .map_err(|_| LevelError(s.to_string()))
            .and_then(Level::try_from)
    }
}

impl std::fmt::Display for Level {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        write!(f, "{}", self.0)
    }
}
