//! The standings, counted from the stored bouts and never kept beside
//! them: an arena's points (streaks and berserk, in the order bouts
//! ended) or a Swiss event's score with its tie-breaks; a player's bout in
//! play.

use super::arena::{self, Played};
use super::swiss;
use super::views::Standing;
use crate::model::EventKind;
use crate::store::{BoutRow, EntrantRow};
use std::collections::HashMap;

/// A bout's score meaning "void" (an aborted game: it counts for nobody).
pub const VOID: f64 = -1.0;

/// A player's bout in play, if any.
pub(super) fn playing(bouts: &[BoutRow], account: i64) -> Option<String> {
    bouts
        .iter()
        .rev()
        .find(|b| {
            b.score0.is_none()
                && b.account1.is_some()
                && (b.account0 == account || b.account1 == Some(account))
        })
        .map(|b| b.game.clone())
}

/// A player's score in a finished bout (none: void or in play).
fn score_in(b: &BoutRow, account: i64) -> Option<f64> {
    let s = b.score0.filter(|s| *s >= 0.0)?;
    if b.account1.is_none() {
        return Some(1.0);
    }
    Some(if b.account0 == account { s } else { 1.0 - s })
}

/// What a player's line of the standings says of her results.
struct Line {
    score: f64,
    sheet: Vec<String>,
    fire: bool,
    buchholz: Option<f64>,
    sonneborn_berger: Option<f64>,
}

/// Her arena line from her finished bouts, in the order they ended:
/// points with streaks and berserk, the sheet of points, on fire or not.
fn arena_line<'b>(a: i64, mine: impl Iterator<Item = &'b BoutRow>) -> Line {
    let played: Vec<Played> = mine
        .filter_map(|b| {
            Some(Played {
                score: score_in(b, a)?,
                berserk: b.berserk[usize::from(b.account0 != a)],
                turns: b.turns,
            })
        })
        .collect();
    let (total, sheet) = arena::points(&played);
    Line {
        score: f64::from(total),
        sheet: sheet.iter().map(u32::to_string).collect(),
        fire: arena::on_fire(&played),
        buchholz: None,
        sonneborn_berger: None,
    }
}

/// Her Swiss line from her bouts: her score, the sheet of results (B a
/// bye, – a void bout) and the tie-breaks from her opponents' scores.
fn swiss_line<'b>(
    a: i64,
    mine: impl Iterator<Item = &'b BoutRow> + Clone,
    score_of: &dyn Fn(i64) -> f64,
) -> Line {
    let results: Vec<swiss::Result> = mine
        .clone()
        .filter_map(|b| {
            Some(swiss::Result {
                opponent: if b.account0 == a {
                    b.account1
                } else {
                    Some(b.account0)
                },
                score: score_in(b, a)?,
            })
        })
        .collect();
    let sheet = mine
        .map(|b| match (b.account1, score_in(b, a)) {
            (None, _) => "B".to_string(),
            (_, Some(1.0)) => "1".into(),
            (_, Some(0.5)) => "½".into(),
            (_, Some(_)) => "0".into(),
            (_, None) => "–".into(),
        })
        .collect();
    Line {
        score: score_of(a),
        sheet,
        fire: false,
        buchholz: Some(swiss::buchholz(&results, score_of)),
        sonneborn_berger: Some(swiss::sonneborn_berger(&results, score_of)),
    }
}

/// The standings counted from the bouts: an arena's points (streaks and
/// berserk, in the order bouts ended), or a Swiss event's score with its
/// tie-breaks; ties by the rating at entry.
pub fn standings(kind: EventKind, entrants: &[EntrantRow], bouts: &[BoutRow]) -> Vec<Standing> {
    let mut ended: Vec<&BoutRow> = bouts.iter().filter(|b| b.score0.is_some()).collect();
    ended.sort_by_key(|b| (b.ended_ms.unwrap_or(0), b.created_ms));
    // Each player's finished bouts in order, and her bout in play: one
    // pass over the bouts, so a large arena's standings cost what its
    // bouts do.
    let mut per: HashMap<i64, Vec<&BoutRow>> = HashMap::new();
    for b in &ended {
        per.entry(b.account0).or_default().push(b);
        if let Some(a1) = b.account1 {
            per.entry(a1).or_default().push(b);
        }
    }
    let mut in_play: HashMap<i64, &str> = HashMap::new();
    for b in bouts.iter().filter(|b| b.score0.is_none()) {
        if let Some(a1) = b.account1 {
            in_play.insert(b.account0, &b.game);
            in_play.insert(a1, &b.game);
        }
    }
    let none: Vec<&BoutRow> = vec![];
    let mine = |a: i64| per.get(&a).unwrap_or(&none).iter().copied();
    let scores: HashMap<i64, f64> = per
        .iter()
        .map(|(&a, list)| (a, list.iter().filter_map(|b| score_in(b, a)).sum()))
        .collect();
    let swiss_score = |a: i64| scores.get(&a).copied().unwrap_or(0.0);
    let mut out: Vec<Standing> = entrants
        .iter()
        .map(|e| {
            let a = e.account.id;
            let line = match kind {
                EventKind::Arena => arena_line(a, mine(a)),
                EventKind::Swiss => swiss_line(a, mine(a), &swiss_score),
            };
            Standing {
                rank: 0,
                name: e.account.name.clone(),
                score: line.score,
                // Games played, as FIDE counts them: not a bye, not a
                // void (aborted) bout.
                games: mine(a)
                    .filter(|b| b.account1.is_some() && score_in(b, a).is_some())
                    .count(),
                sheet: line.sheet,
                fire: line.fire,
                buchholz: line.buchholz,
                sonneborn_berger: line.sonneborn_berger,
                rating: e.rating.round() as i64,
                withdrawn: e.withdrawn,
                playing: in_play.get(&a).map(|g| g.to_string()),
                account: a,
            }
        })
        .collect();
    out.sort_by(|x, y| {
        y.score
            .total_cmp(&x.score)
            .then(
                y.buchholz
                    .unwrap_or(0.0)
                    .total_cmp(&x.buchholz.unwrap_or(0.0)),
            )
            .then(
                y.sonneborn_berger
                    .unwrap_or(0.0)
                    .total_cmp(&x.sonneborn_berger.unwrap_or(0.0)),
            )
            .then(y.rating.cmp(&x.rating))
            .then(x.name.cmp(&y.name))
    });
    for (i, s) in out.iter_mut().enumerate() {
        s.rank = i + 1;
    }
    out
}

#[cfg(test)]
mod tests {
    /// The Games column counts games played: not a void (aborted) bout,
    /// not a bye (issue 86: an arena's column counted voids; issue 90: a
    /// Swiss's counted byes).
    #[test]
    fn games_played_leave_out_voids_and_byes() {
        use crate::store::{BoutRow, EntrantRow, SeatAccount};
        let entrant = |id: i64| EntrantRow {
            account: SeatAccount {
                id,
                name: Some(format!("p{id}")),
            },
            joined_ms: 0,
            withdrawn: false,
            rating: 1500.0,
            told_ms: None,
        };
        let bout = |n: i64, a: i64, b: Option<i64>, score: f64| BoutRow {
            tournament: "t".into(),
            game: format!("g{n}"),
            round: n,
            account0: a,
            account1: b,
            berserk: [false, false],
            score0: Some(score),
            created_ms: n,
            ended_ms: Some(n),
            turns: Some(30),
        };
        let entrants = [entrant(1), entrant(2), entrant(3)];
        let bouts = [
            bout(1, 1, Some(2), 1.0),
            bout(2, 1, Some(2), super::VOID),
            bout(3, 1, Some(3), 0.5),
            bout(4, 2, None, 1.0),
        ];
        for kind in crate::model::EventKind::ALL {
            let table = super::standings(kind, &entrants, &bouts);
            let games = |id: i64| {
                table
                    .iter()
                    .find(|s| s.account == id)
                    .map(|s| s.games)
                    .unwrap()
            };
            assert_eq!((games(1), games(2), games(3)), (2, 1, 1), "{kind}");
        }
    }
}
