//! The small answers the account routes share.

use crate::model::Seat;
use serde::Serialize;

/// A game whose seats became the account's.
#[derive(Serialize)]
pub struct Claimed {
    /// The game's id.
    pub game: String,
    /// The account's seats in it.
    pub seats: Vec<Seat>,
}

/// The answer to a sign-in (or a recovery).
#[derive(Serialize)]
pub struct SignedIn {
    /// The name as written.
    pub name: String,
    /// The games whose seats became the account's.
    pub claimed: Vec<Claimed>,
}

/// A plain success.
#[derive(Serialize)]
pub struct Done {
    /// Always true.
    pub ok: bool,
}
