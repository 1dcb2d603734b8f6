//! The server's own fair-play watch: a rating that jumps, and a run of
//! rated games won at the engine's accuracy, each filed as a report of the
//! server's (one open at a time) for a moderator to read.

use crate::clock::now_ms;
use crate::store::{ReportRow, SeatAccount, Store, StoreError};

/// A rise of a rating this large within [`JUMP_WINDOW_S`] files a report
/// by itself (a rating boosted), once the rating was established.
pub const JUMP: f64 = 250.0;

/// The window of a jump, in seconds (a day).
pub const JUMP_WINDOW_S: i64 = 86_400;

/// A rating's rise within the last [`JUMP_WINDOW_S`] before its newest
/// point (`points` oldest first), from an established rating (its
/// deviation at most the provisional line) to now, if it is [`JUMP`] or
/// more: the rating before, and now.
pub fn jump(points: &[crate::store::ratings::HistoryPoint]) -> Option<(f64, f64)> {
    let last = points.last()?;
    let base = points
        .iter()
        .rev()
        .find(|p| p.at <= last.at - JUMP_WINDOW_S)?;
    (base.deviation <= crate::ratings::PROVISIONAL_DEVIATION && last.rating - base.rating >= JUMP)
        .then_some((base.rating, last.rating))
}

/// Looks at a player's rating in `kind` after a rated game: a jump files a
/// report by the server (one open at a time), with the game. Answers the
/// report's number when one was filed.
///
/// # Errors
/// The store failed.
pub async fn watch_rating(
    store: &Store,
    player: &SeatAccount,
    kind: crate::model::Kind,
    game: &str,
) -> Result<Option<i64>, StoreError> {
    let points = store.rating_history(player.id, kind).await?;
    let Some((from, to)) = jump(&points) else {
        return Ok(None);
    };
    store
        .add_report(ReportRow {
            id: 0,
            reporter: None,
            target: player.clone(),
            reason: "boost".into(),
            text: format!(
                "the {} rating rose from {} to {} within a day",
                kind.name(),
                from.round(),
                to.round()
            ),
            game: Some(game.to_string()),
            evidence: serde_json::json!({"game": game, "from": from.round(), "to": to.round()})
                .to_string(),
            status: "open".into(),
            created_ms: now_ms(),
        })
        .await
}

/// Rated games won in a row at the engine's accuracy that file a report.
pub const ACCURACY_RUN: usize = 3;

/// Files the server's report of a player who won `games` (each with its
/// measure, named `measure`: the game's [`crate::kinds::GameKind::measure_name`])
/// in a row at the engine's accuracy; one open at a time. Answers the
/// report's number when one was filed.
///
/// # Errors
/// The store failed.
pub async fn report_accuracy(
    store: &Store,
    player: &SeatAccount,
    kind: crate::model::Kind,
    measure: &str,
    games: &[(String, f64)],
) -> Result<Option<i64>, StoreError> {
    let list: Vec<String> = games
        .iter()
        .map(|(g, m)| format!("{g} ({measure} {m})"))
        .collect();
    store
        .add_report(ReportRow {
            id: 0,
            reporter: None,
            target: player.clone(),
            reason: "cheat".into(),
            text: format!(
                "{} rated {} games won in a row at the engine's accuracy: {}",
                games.len(),
                kind.name(),
                list.join(", ")
            ),
            game: games.first().map(|(g, _)| g.clone()),
            evidence: serde_json::json!({
                "game": games.first().map(|(g, _)| g),
                "games": games.iter().map(|(g, m)| serde_json::json!({"game": g, measure: m})).collect::<Vec<_>>(),
            })
            .to_string(),
            status: "open".into(),
            created_ms: now_ms(),
        })
        .await
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::store::ratings::HistoryPoint;

    fn point(at: i64, rating: f64, deviation: f64) -> HistoryPoint {
        HistoryPoint {
            at,
            rating,
            deviation,
            game: String::new(),
        }
    }

    #[test]
    fn a_jump_is_a_rise_of_250_within_a_day_from_an_established_rating() {
        let day = JUMP_WINDOW_S;
        // 1600 (established) a day and more ago, 1860 now: a jump.
        let risen = [
            point(0, 1600.0, 80.0),
            point(day + 10, 1700.0, 75.0),
            point(day + 100, 1860.0, 70.0),
        ];
        assert_eq!(jump(&risen), Some((1600.0, 1860.0)));
        // 240 is not enough.
        let small = [point(0, 1600.0, 80.0), point(day + 100, 1840.0, 70.0)];
        assert_eq!(jump(&small), None);
        // A provisional rating finds its level: no jump.
        let new = [point(0, 1500.0, 300.0), point(day + 100, 1900.0, 150.0)];
        assert_eq!(jump(&new), None);
        // Nothing a day old: nothing to compare.
        let young = [point(0, 1500.0, 80.0), point(100, 1900.0, 70.0)];
        assert_eq!(jump(&young), None);
        // A fall is no jump.
        let fell = [point(0, 1900.0, 80.0), point(day + 1, 1500.0, 80.0)];
        assert_eq!(jump(&fell), None);
        assert_eq!(jump(&[]), None);
    }
}
