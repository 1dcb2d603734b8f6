//! The shapes of the games in play as a watcher sees them listed (`GET
//! /api/games/live`): apart from `watch.rs`, which reads them, because the
//! service's handle keeps the last list read (`service.rs`) and sits below
//! the reader.

use crate::model::Kind;
use serde::Serialize;

/// A player of a game in play.
#[derive(Serialize, Clone, Debug, PartialEq)]
pub struct PlayerInPlay {
    /// Her name, when signed in.
    pub name: Option<String>,
    /// Her rating in this game, when signed in.
    pub rating: Option<i64>,
    /// The rating is provisional (shown with `?`).
    pub provisional: bool,
}

/// A game in play as a watcher sees it listed.
#[derive(Serialize, Clone, Debug, PartialEq)]
pub struct InPlay {
    /// Its id.
    pub id: String,
    /// Which game.
    pub game: Kind,
    /// The rules string or the match header.
    pub settings: String,
    /// The clock as players read it (`5+3`).
    pub clock_label: String,
    /// Rated.
    pub rated: bool,
    /// Its two players, by seat.
    pub players: [PlayerInPlay; 2],
    /// Sockets watching it (not its players'), on this instance.
    pub spectators: usize,
    /// The mean of its players' ratings (1500 for a player without one):
    /// the list's order, highest first.
    pub rating: i64,
    /// When it last changed, in seconds since the epoch.
    pub updated_at: i64,
}
