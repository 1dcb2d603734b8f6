//! The one recount of ratings: every rated game of a kind rated again in
//! order from the same results the finisher rated, without the games of
//! players marked for cheating (a moderator's mark or unmark asks it).
//! Games whose rating change moved are told through the door. This is the
//! game's documented second door (`round.rs` says why and what it owes).

use super::error::GameError;
use super::finish;
use super::round;
use super::service::Games;
use crate::model::Kind;
use crate::ratings;
use crate::session::Session;
use std::collections::HashSet;

/// Rates every rated game of `kind` again, in the order they were
/// rated, without the games of players marked for cheating (a mark
/// takes her games out; an unmark puts them back): the one recount of
/// ratings, from the same results the finisher rated. Games whose
/// change moved are told through the door. Answers how many changed.
///
/// # Errors
/// The store failed, or games kept being rated meanwhile.
pub(crate) async fn replay_ratings(games: &Games, kind: Kind) -> Result<usize, GameError> {
    let store = games.store();
    for _ in 0..5 {
        let rated = store.rated_games(kind).await?;
        let void: HashSet<i64> = store
            .sanctioned(crate::store::Sanction::Cheat, crate::clock::now_ms())
            .await?
            .into_iter()
            .collect();
        let mut results = Vec::with_capacity(rated.len());
        for g in &rated {
            let Some(loaded) = store.load(&g.id).await? else {
                continue;
            };
            let session = Session::from_stored(loaded)?;
            if let Some((accounts, scores, _)) = finish::result_of(games, &session).await? {
                results.push(ratings::RatedResult {
                    game: g.id.clone(),
                    at: g.at,
                    accounts,
                    scores,
                });
            }
        }
        let replayed = ratings::replay(&results, &void);
        let expected = (rated.len(), rated.last().map(|g| g.seq));
        let Some(changed) = store
            .replace_ratings(kind, expected, replayed, crate::store::now())
            .await?
        else {
            continue;
        };
        for (id, _) in &changed {
            if let Some(slot) = games.slot_in_memory(id) {
                if let Err(e) = round::catch_up(games, &slot).await {
                    tracing::warn!(error = %e, "could not show a game's new rating change");
                }
            }
        }
        return Ok(changed.len());
    }
    Err(GameError::Internal(
        "games kept being rated while the ratings were replayed: try again".into(),
    ))
}
