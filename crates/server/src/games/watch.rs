//! The games in play now, for those who come to watch: live-clock games
//! between two people, with their players' ratings and how many watch
//! each (the sockets on it here beside its players'). Its answer is read
//! from the store at most once a second, however many pages ask.

use super::error::GameError;
use super::in_play::{InPlay, PlayerInPlay};
use super::service::Games;
use crate::model::{Kind, Mode, Status};
use crate::store::{ListQuery, RatingRow};
use std::sync::atomic::Ordering;

/// The most games in play listed.
pub const IN_PLAY_SHOWN: usize = 100;

/// The live-clock games between two people in play now (at most
/// [`IN_PLAY_SHOWN`], highest rated first), of one game or both.
///
/// # Errors
/// The store failed.
pub async fn in_play(games: &Games, kind: Option<Kind>) -> Result<Vec<InPlay>, GameError> {
    let all = in_play_cached(games).await?;
    Ok(all
        .into_iter()
        .filter(|g| kind.is_none_or(|k| g.game == k))
        .collect())
}

async fn in_play_cached(games: &Games) -> Result<Vec<InPlay>, GameError> {
    let mut cached = games.inner.in_play.lock().await;
    if let Some((at, games)) = cached.as_ref() {
        if at.elapsed() < std::time::Duration::from_secs(1) {
            return Ok(games.clone());
        }
    }
    let games = read_in_play(games).await?;
    *cached = Some((std::time::Instant::now(), games.clone()));
    Ok(games)
}

async fn read_in_play(games: &Games) -> Result<Vec<InPlay>, GameError> {
    let ids: Vec<String> = games
        .store()
        .clocked_games()
        .await?
        .into_iter()
        .map(|(id, _)| id)
        .collect();
    if ids.is_empty() {
        return Ok(vec![]);
    }
    let rows = games
        .store()
        .list(&ListQuery {
            limit: ids.len(),
            ids: Some(ids),
            ..Default::default()
        })
        .await?;
    let mut out = vec![];
    for (row, _) in rows {
        let Some(clock) = row.clock.as_ref() else {
            continue;
        };
        let live = clock.days == 0
            && row.status == Status::Ongoing
            && row.mode == Mode::Friend
            && row.token0.is_some()
            && row.token1.is_some();
        if !live {
            continue;
        }
        let mut players = [0, 1].map(|_| PlayerInPlay {
            name: None,
            rating: None,
            provisional: true,
        });
        let mut sum = 0.0;
        for (i, a) in row.accounts.iter().enumerate() {
            let Some(a) = a else {
                sum += RatingRow::NEW.rating;
                continue;
            };
            let r = games
                .store()
                .ratings_of(a.id)
                .await?
                .into_iter()
                .find(|(k, _)| *k == row.kind)
                .map_or(RatingRow::NEW, |(_, r)| r);
            sum += r.rating;
            players[i] = PlayerInPlay {
                name: a.name.clone(),
                rating: Some(r.rating.round() as i64),
                provisional: crate::ratings::provisional(&r),
            };
        }
        let spectators = games.slot_in_memory(&row.id).map_or(0, |s| {
            let players: usize = s.presence.iter().map(|p| p.load(Ordering::SeqCst)).sum();
            s.sockets.load(Ordering::SeqCst).saturating_sub(players)
        });
        out.push(InPlay {
            id: row.id.clone(),
            game: row.kind,
            settings: row.settings.clone(),
            clock_label: clock.settings().label(),
            rated: row.rated,
            players,
            spectators,
            rating: (sum / 2.0).round() as i64,
            updated_at: row.updated_at,
        });
    }
    out.sort_by(|a, b| {
        b.rating
            .cmp(&a.rating)
            .then(b.updated_at.cmp(&a.updated_at))
    });
    out.truncate(IN_PLAY_SHOWN);
    Ok(out)
}
