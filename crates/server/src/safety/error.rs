//! Why the safety service refused: each refusal with its words; the HTTP
//! edge gives each its status and code.

use crate::store::StoreError;

/// Why the safety service refused.
#[derive(Debug, thiserror::Error)]
pub enum SafetyError {
    /// Oneself.
    #[error("you cannot {0} yourself")]
    Yourself(&'static str),
    /// No such player (or a deleted one).
    #[error("no player named '{0}'")]
    NoSuchPlayer(String),
    /// A report about this player is open already.
    #[error("you have a report about this player open already: a moderator will read it")]
    ReportOpen,
    /// A report that is not one.
    #[error("{0}")]
    BadReport(String),
    /// Too many blocks.
    #[error("you block {0} players already: unblock one first")]
    TooManyBlocks(usize),
    /// Not a moderator.
    #[error("only moderators may do this")]
    NotModerator,
    /// No open report with this number.
    #[error("no open report number {0}")]
    NoSuchReport(i64),
    /// A moderator's action that is not one.
    #[error("{0}")]
    BadAction(String),
    /// The store failed.
    #[error(transparent)]
    Store(#[from] StoreError),
}
