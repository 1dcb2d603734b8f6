//! Tournaments (issue 76): arenas and Swiss events for both games, made by
//! players or by the operator's schedule. The rules of each are pure
//! ([`arena`], [`swiss`]); the service keeps events and counts standings
//! from the stored bouts; the director starts, pairs and ends them,
//! opening every game through the lobby's door (a caller of the one door
//! for a game, never a second path).

pub mod arena;
mod ask;
pub mod bout;
mod counted;
mod director;
mod error;
mod live;
mod pairing;
pub mod schedule;
mod service;
mod standings;
pub mod swiss;
mod views;

pub use director::{LEASE_MS, TICK};
pub(crate) use live::run;
pub use live::{gap, Following, TournamentOut, GAP, RECOUNT};
pub use pairing::ONLINE_GRACE_MS;
pub use service::{
    Ask, Refusal, Spec, TournamentError, Tournaments, Unmet, MAX_AHEAD_MS, MAX_MADE_EACH,
    MAX_MINUTES, MAX_ROUNDS, TELL_BEFORE_MS,
};
pub use standings::{standings, VOID};
pub use views::{
    BoutView, GameTournament, Listed, Placing, Standing, TournamentView, You, PUSHED_BOUTS,
    PUSHED_LINES,
};

use std::sync::Arc;

impl Tournaments {
    /// The service over the lobby and the people service; its director
    /// starts here and stops with the app's tasks.
    pub(crate) fn start(lobby: crate::lobby::Lobby, people: crate::people::People) -> Tournaments {
        let games = people.games().clone();
        let schedule = schedule::parse(&games.options().tournament_schedule).unwrap_or_else(|e| {
            tracing::error!(error = %e, "the tournament schedule does not read: no scheduled events");
            vec![]
        });
        let t = Tournaments {
            inner: Arc::new(service::Inner {
                store: games.store().clone(),
                lobby,
                people,
                changed: tokio::sync::broadcast::channel(256).0,
                schedule,
                made: std::sync::Mutex::new(std::collections::HashSet::new()),
                counted: std::sync::Mutex::new(counted::CountCache::default()),
                feeds: std::sync::Mutex::new(std::collections::HashMap::new()),
                placed: tokio::sync::broadcast::channel(1024).0,
                leases: std::sync::Mutex::new(std::collections::HashMap::new()),
                seen: std::sync::Mutex::new(std::collections::HashMap::new()),
            }),
        };
        games.spawn(Tournaments::direct(
            Arc::downgrade(&t.inner),
            games.instance().to_string(),
            games.endings(),
            games.stopping(),
        ));
        t
    }
}
