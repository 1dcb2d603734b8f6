//! Puzzles: the set `agon puzzles build` made (embedded from
//! `crates/server/puzzles/`), which one to give a player next, and whether a
//! try is right. Ratings are Glicko-2 ([`crate::ratings::rate_puzzle`]): the
//! player's against the puzzle's difficulty, kept on the account when signed
//! in (first tries only) and by the browser otherwise.

use agon_ai::puzzle::{Puzzle, PuzzleGame, PuzzleSet};
use std::collections::{BTreeMap, HashSet};
use std::sync::LazyLock;

/// Every shipped puzzle of both games, read once.
static PUZZLES: LazyLock<Vec<Puzzle>> = LazyLock::new(|| {
    let mut all = vec![];
    for (name, text) in [
        ("ringo", include_str!("../puzzles/ringo.json")),
        ("urgammon", include_str!("../puzzles/urgammon.json")),
    ] {
        match serde_json::from_str::<PuzzleSet>(text) {
            Ok(set) => all.extend(set.puzzles),
            // The tests read both files, so this is a build that shipped a
            // broken file: the trainer is empty rather than the server down.
            Err(e) => tracing::error!("the shipped {name} puzzles do not read: {e}"),
        }
    }
    all
});

/// Every shipped puzzle.
pub fn all() -> &'static [Puzzle] {
    &PUZZLES
}

/// One puzzle by id.
pub fn by_id(id: &str) -> Option<&'static Puzzle> {
    PUZZLES.iter().find(|p| p.id == id)
}

/// A game's themes with how many puzzles have each.
pub fn themes(game: PuzzleGame) -> BTreeMap<&'static str, usize> {
    let mut out = BTreeMap::new();
    for p in PUZZLES.iter().filter(|p| p.game == game) {
        for t in &p.themes {
            *out.entry(t.as_str()).or_insert(0) += 1;
        }
    }
    out
}

/// How far from the player's rating a puzzle is first looked for.
const WINDOW: f64 = 150.0;

/// The next puzzle for a player rated `rating`: of `game`, with `theme` if
/// given, not in `tried` (unless every one is), never `after` (the one just
/// seen) when another is left; drawn at random among those within
/// [`WINDOW`] of the rating, or else among the 20 nearest.
pub fn next(
    game: PuzzleGame,
    theme: Option<&str>,
    rating: f64,
    tried: &HashSet<String>,
    after: Option<&str>,
) -> Option<&'static Puzzle> {
    let fits =
        |p: &&Puzzle| p.game == game && theme.is_none_or(|t| p.themes.iter().any(|x| x == t));
    let mut pool: Vec<&Puzzle> = PUZZLES
        .iter()
        .filter(fits)
        .filter(|p| !tried.contains(&p.id) && Some(p.id.as_str()) != after)
        .collect();
    if pool.is_empty() {
        // All tried: go round again, still not the one just seen.
        pool = PUZZLES
            .iter()
            .filter(fits)
            .filter(|p| Some(p.id.as_str()) != after)
            .collect();
    }
    if pool.is_empty() {
        pool = PUZZLES.iter().filter(fits).collect();
    }
    let distance = |p: &Puzzle| (f64::from(p.rating) - rating).abs();
    let near: Vec<&Puzzle> = pool
        .iter()
        .copied()
        .filter(|p| distance(p) <= WINDOW)
        .collect();
    let choice = if near.is_empty() {
        pool.sort_by(|a, b| distance(a).total_cmp(&distance(b)));
        pool.truncate(20);
        pool
    } else {
        near
    };
    if choice.is_empty() {
        return None;
    }
    let mut b = [0u8; 8];
    // A failing generator only makes the choice less random.
    let _ = getrandom::fill(&mut b);
    Some(choice[(u64::from_le_bytes(b) % choice.len() as u64) as usize])
}

/// Why a try was refused.
#[derive(Debug, PartialEq, Eq, thiserror::Error)]
pub enum TryError {
    /// No answer, or too many.
    #[error("moves must hold one move (a puzzle asks for one decision)")]
    Count,
    /// A move the rules do not allow in the puzzle's position.
    #[error("{0}")]
    Illegal(String),
}

/// Judges a try: `Ok(true)` when `answer` is the solution, `Ok(false)` for
/// another legal move; a move that is not legal there is refused.
///
/// # Errors
/// [`TryError`]: not one move, or not a legal one.
pub fn judge(p: &Puzzle, moves: &[String]) -> Result<bool, TryError> {
    let [answer] = moves else {
        return Err(TryError::Count);
    };
    let solution = p.solution.first().map(String::as_str).unwrap_or_default();
    match p.game {
        PuzzleGame::Ringo => {
            let illegal = |e: String| TryError::Illegal(format!("{answer}: {e}"));
            let rules: ringo::Rules = p
                .rules
                .parse()
                .map_err(|e: ringo::RulesError| illegal(e.to_string()))?;
            let pos = ringo::Position::parse(p.position.as_deref().unwrap_or_default(), &rules)
                .map_err(|e| illegal(e.to_string()))?;
            let game = ringo::Game::from_position(rules, pos);
            let tried = game
                .parse_move(answer)
                .map_err(|e| illegal(e.to_string()))?;
            let best = game
                .parse_move(solution)
                .map_err(|e| illegal(e.to_string()))?;
            Ok(tried == best)
        }
        PuzzleGame::Urgammon => {
            // The options are every legal choice, as the engine listed them.
            if !p.options.iter().any(|(name, _)| name == answer) {
                let legal: Vec<&str> = p.options.iter().map(|o| o.0.as_str()).collect();
                return Err(TryError::Illegal(format!(
                    "{answer} is not a choice here: {}",
                    legal.join(", ")
                )));
            }
            Ok(answer == solution)
        }
    }
}

/// How long a solution shown to a browser that was not signed in keeps an
/// account's try at that puzzle, from the same address, unrated: the
/// solution could have been looked up signed out and then played for
/// rating (1513 → 2038 in twelve puzzles).
pub const SEEN_FOR_SECS: i64 = 30 * 86_400;

/// Who shows a solution: a hash of the client's address, of its /64 for
/// IPv6 (a household's devices change their own 64 bits often). Hashed,
/// because the store need not know addresses.
pub fn seer(ip: std::net::IpAddr) -> String {
    let key = match ip {
        std::net::IpAddr::V4(v4) => v4.to_string(),
        std::net::IpAddr::V6(v6) => match v6.to_ipv4_mapped() {
            Some(v4) => v4.to_string(),
            None => {
                let s = v6.segments();
                format!("{:x}:{:x}:{:x}:{:x}::/64", s[0], s[1], s[2], s[3])
            }
        },
    };
    crate::secrets::hash(&format!("puzzle-seer:{key}"))
}

/// Who tries a puzzle.
pub enum Trier {
    /// A signed-in account (its first try at a puzzle is rated on it).
    Account(i64),
    /// A browser not signed in, with the rating it keeps, if it sent one.
    Browser(Option<crate::store::RatingRow>),
}

/// What a try did to a rating.
pub struct Rating {
    /// Whether the try changed a rating.
    pub rated: bool,
    /// Whether an account's first try went unrated because the solution was
    /// shown to a browser not signed in at its address not long before.
    pub seen: bool,
    /// The player's rating after the try.
    pub player: Option<crate::store::RatingRow>,
    /// Its change.
    pub change: Option<f64>,
}

/// Rates a try that was `correct` (or not): an account's first try, unless
/// its address was shown the solution signed out within
/// [`SEEN_FOR_SECS`] (then the try counts as tried, unrated); a browser's
/// own rating when it sent one. A browser not signed in is shown the
/// solution: its address is noted.
///
/// # Errors
/// The store failed.
pub async fn rate_try(
    store: &crate::store::Store,
    p: &Puzzle,
    correct: bool,
    trier: Trier,
    seer: &str,
) -> Result<Rating, crate::store::StoreError> {
    let game = p.game.name();
    let difficulty = f64::from(p.rating);
    let now = crate::store::now();
    match trier {
        Trier::Account(account) => {
            let seen = store.puzzle_seen(&p.id, seer, now - SEEN_FOR_SECS).await?;
            let rater: crate::store::puzzles::PuzzleRater = if seen {
                Box::new(|before| before)
            } else {
                Box::new(move |before| crate::ratings::rate_puzzle(before, difficulty, correct))
            };
            match store
                .try_puzzle(account, game, &p.id, correct, rater, now)
                .await?
            {
                Some((before, after)) if !seen => Ok(Rating {
                    rated: true,
                    seen,
                    change: Some(after.rating - before.rating),
                    player: Some(after),
                }),
                tried => Ok(Rating {
                    rated: false,
                    seen: seen && tried.is_some(),
                    player: Some(store.puzzle_rating(account, game).await?),
                    change: None,
                }),
            }
        }
        Trier::Browser(sent) => {
            store
                .see_puzzle(&p.id, seer, now, now - SEEN_FOR_SECS)
                .await?;
            Ok(match sent {
                Some(before) => {
                    let after = crate::ratings::rate_puzzle(before, difficulty, correct);
                    Rating {
                        rated: true,
                        seen: false,
                        change: Some(after.rating - before.rating),
                        player: Some(after),
                    }
                }
                None => Rating {
                    rated: false,
                    seen: false,
                    player: None,
                    change: None,
                },
            })
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_shipped_sets_read_and_are_large_enough() {
        let ringo = all().iter().filter(|p| p.game == PuzzleGame::Ringo).count();
        let urgammon = all()
            .iter()
            .filter(|p| p.game == PuzzleGame::Urgammon)
            .count();
        assert!(ringo >= 1000, "{ringo} Ringo puzzles");
        assert!(urgammon >= 500, "{urgammon} Urgammon puzzles");
        let ids: HashSet<&str> = all().iter().map(|p| p.id.as_str()).collect();
        assert_eq!(ids.len(), all().len(), "ids are unique");
        for p in all() {
            assert_eq!(judge(p, &p.solution), Ok(true), "{}", p.id);
            assert!(!p.themes.is_empty(), "{}", p.id);
        }
    }

    /// Every shipped puzzle, proved again the way it was made: each Ringo
    /// tablebase puzzle against the tables (built here for each preset: the
    /// solution is the only winning move, or the only fastest), each Ringo
    /// self-play puzzle by the same searches (the same win chances, the
    /// best leading by 30 points), each Urgammon puzzle by the level-10
    /// engine that built it (the same best choice, ahead by 0.1 in equity).
    #[test]
    fn every_shipped_puzzle_holds_by_the_tables_or_the_engine() {
        let failed = agon_ai::puzzle_check::check_all(all(), 2, &|_, _| {});
        assert!(
            failed.is_empty(),
            "{} failed: {:?}",
            failed.len(),
            &failed[..failed.len().min(5)]
        );
        for preset in ringo::Preset::ALL {
            let n = all().iter().filter(|p| p.rules == preset.name()).count();
            assert!(n >= 300, "{}: {n}", preset.name());
        }
        let from_games = all()
            .iter()
            .filter(|p| {
                p.game == PuzzleGame::Ringo && p.source == agon_ai::puzzle::Source::SelfPlay
            })
            .count();
        assert!(
            from_games >= 20,
            "Ringo puzzles from self-play: {from_games}"
        );
    }

    #[test]
    fn next_keeps_to_the_theme_and_skips_what_was_tried() {
        let t = "capture";
        let p = next(PuzzleGame::Ringo, Some(t), 1500.0, &HashSet::new(), None).unwrap();
        assert!(p.themes.iter().any(|x| x == t));
        let tried: HashSet<String> = all()
            .iter()
            .filter(|q| q.game == PuzzleGame::Urgammon && q.id != "u-0001")
            .map(|q| q.id.clone())
            .collect();
        let p = next(PuzzleGame::Urgammon, None, 100.0, &tried, None).unwrap();
        assert_eq!(p.id, "u-0001", "the one left, however far its rating");
        let again = next(PuzzleGame::Urgammon, None, 100.0, &tried, Some("u-0001")).unwrap();
        assert_ne!(
            again.id, "u-0001",
            "all tried: round again, not the one just seen"
        );
        assert!(next(
            PuzzleGame::Ringo,
            Some("no-such"),
            1500.0,
            &HashSet::new(),
            None
        )
        .is_none());
    }
}
