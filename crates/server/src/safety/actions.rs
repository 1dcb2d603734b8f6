//! A moderator's actions as types: what she may do ([`ModAction`], parsed
//! once where the request comes in), what she asks ([`ModAsk`]), and an
//! action as the log keeps it and moderators (and, for her own, the
//! player) read it ([`ActionView`]).

use super::error::SafetyError;
use crate::store::ModActionRow;
use serde::Serialize;

/// What a moderator may do: parsed once, where the request comes in, and
/// matched as a type everywhere after (the log stores its name).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum ModAction {
    /// A warning the player reads.
    Warn,
    /// Marked for cheating: off the leaderboards, out of rated play.
    Mark,
    /// The mark lifted.
    Unmark,
    /// Her chat muted for a while.
    Mute,
    /// The mute lifted.
    Unmute,
    /// Out of rated play for a while.
    RatedBan,
    /// The ban lifted.
    LiftRatedBan,
    /// A new name.
    Rename,
    /// The account closed.
    Close,
    /// A report closed with no other action.
    CloseReport,
    /// Made a moderator.
    Grant,
}

impl ModAction {
    /// Every action, in the order the API's error lists them.
    pub const ALL: [ModAction; 11] = [
        ModAction::Warn,
        ModAction::Mark,
        ModAction::Unmark,
        ModAction::Mute,
        ModAction::Unmute,
        ModAction::RatedBan,
        ModAction::LiftRatedBan,
        ModAction::Rename,
        ModAction::Close,
        ModAction::CloseReport,
        ModAction::Grant,
    ];

    /// Its name in the API and the log.
    pub const fn name(self) -> &'static str {
        match self {
            ModAction::Warn => "warn",
            ModAction::Mark => "mark",
            ModAction::Unmark => "unmark",
            ModAction::Mute => "mute",
            ModAction::Unmute => "unmute",
            ModAction::RatedBan => "rated-ban",
            ModAction::LiftRatedBan => "lift-rated-ban",
            ModAction::Rename => "rename",
            ModAction::Close => "close",
            ModAction::CloseReport => "close-report",
            ModAction::Grant => "grant",
        }
    }

    /// Whether the player is told at once on every page she has open (a
    /// warning, a mute and why, a mark).
    pub const fn tells_her(self) -> bool {
        matches!(
            self,
            ModAction::Warn | ModAction::Mute | ModAction::Unmute | ModAction::Mark
        )
    }
}

impl std::fmt::Display for ModAction {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str(self.name())
    }
}

impl std::str::FromStr for ModAction {
    type Err = SafetyError;

    /// An unknown action names the ones there are.
    fn from_str(text: &str) -> Result<ModAction, SafetyError> {
        ModAction::ALL
            .into_iter()
            .find(|a| a.name() == text)
            .ok_or_else(|| {
                SafetyError::BadAction(format!(
                    "unknown action '{}': {}",
                    text.chars().take(20).collect::<String>(),
                    ModAction::ALL.map(ModAction::name).join(", ")
                ))
            })
    }
}

/// A logged action as moderators (and, for her own, the player) read it.
#[derive(Serialize, Clone, Debug)]
pub struct ActionView {
    /// Its number.
    pub id: i64,
    /// The player's account (not sent: the caller's, for what follows an
    /// action, such as a closed account's games).
    #[serde(skip)]
    pub target_id: i64,
    /// The moderator (none: the command line).
    pub moderator: Option<String>,
    /// The player.
    pub target: Option<String>,
    /// What was done.
    pub action: String,
    /// Why.
    pub reason: String,
    /// Until when (a mute).
    pub until_ms: Option<i64>,
    /// The report it answered.
    pub report: Option<i64>,
    /// When.
    pub created_ms: i64,
}

impl ActionView {
    /// The view of a logged action.
    pub fn of(a: &ModActionRow) -> ActionView {
        ActionView {
            id: a.id,
            target_id: a.target.id,
            moderator: a.moderator.as_ref().and_then(|m| m.name.clone()),
            target: a.target.name.clone(),
            action: a.action.clone(),
            reason: a.reason.clone(),
            until_ms: a.until_ms,
            report: a.report,
            created_ms: a.created_ms,
        }
    }
}

/// What a moderator asks.
#[derive(Clone, Debug)]
pub struct ModAsk {
    /// The player.
    pub target: String,
    /// What to do.
    pub action: ModAction,
    /// Why (required).
    pub reason: String,
    /// A mute's length.
    pub minutes: Option<i64>,
    /// The report it answers (closed with it).
    pub report: Option<i64>,
    /// A rename's new name.
    pub name: Option<String>,
}

#[cfg(test)]
mod tests {
    use super::*;

    /// A moderator's action is read once from its name and written back
    /// the same; an unknown one is refused with the list of those there are
    /// (at most 20 characters of what was sent repeated).
    #[test]
    fn moderator_actions_read_and_write_their_names() {
        let mut names = std::collections::HashSet::new();
        for a in ModAction::ALL {
            assert_eq!(a.name().parse::<ModAction>().unwrap(), a);
            assert_eq!(a.to_string(), a.name());
            assert!(names.insert(a.name()), "{a}: two actions share a name");
        }
        for bad in ["", "Warn", "warn ", "ban-forever", &"x".repeat(5000)] {
            let Err(SafetyError::BadAction(why)) = bad.parse::<ModAction>() else {
                panic!("{bad:?} was taken");
            };
            assert!(why.ends_with("close-report, grant"), "{why}");
            assert!(why.len() < 200, "{why}");
        }
    }
}
