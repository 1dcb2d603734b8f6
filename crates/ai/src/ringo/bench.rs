//! The fixed search benchmark: the same positions searched to the same depth
//! with fresh tables. The node total is deterministic, so a change in it shows
//! a functional change to the search (`agon bench ringo-search`).

use super::search::{Limits, Searcher};
use ringo::{Game, Position, Rules};
use std::time::Duration;

/// The positions: each preset's start and the mid-game positions pinned in
/// the perft data.
pub const POSITIONS: [(&str, Option<&str>); 7] = [
    ("classic", None),
    ("encyclopedia", None),
    ("globe", None),
    (
        "classic",
        Some("AAA.AA../....A.../.....A../.....D../D......./..D..D.. 0 d"),
    ),
    (
        "classic",
        Some("AA..A.A./..A...A./......../.A....../.D...D../D..D.... 0 a"),
    ),
    (
        "encyclopedia",
        Some("....A..A/AA...A../.D..AA../....D.../......D./.......D 0 d"),
    ),
    (
        "globe",
        Some("....AAA./A..A...A/......../.A..D.../..D.D..D/........ 0 d"),
    ),
];

/// One searched position.
#[derive(Clone, Debug)]
pub struct BenchSearch {
    /// The rules it was searched under.
    pub rules: Rules,
    /// Nodes searched.
    pub nodes: u64,
    /// The best move found.
    pub best: Option<String>,
    /// Time spent searching (not allocating the table).
    pub elapsed: Duration,
}

/// Searches every position to `depth` with a fresh searcher each.
///
/// # Errors
/// A position that does not parse (they are constants: it never happens).
pub fn run(depth: u32) -> Result<Vec<BenchSearch>, String> {
    POSITIONS
        .iter()
        .map(|&(rules, pos)| {
            let rules: Rules = rules.parse().map_err(|e| format!("{e}"))?;
            let pos = match pos {
                Some(p) => Position::parse(p, &rules).map_err(|e| format!("{e}"))?,
                None => Position::start(&rules),
            };
            let game = Game::from_position(rules, pos);
            let r = Searcher::new(rules).search_game(
                &game,
                Limits {
                    depth: Some(depth),
                    ..Default::default()
                },
            );
            Ok(BenchSearch {
                rules,
                nodes: r.nodes,
                best: r.best.map(|m| m.to_string()),
                elapsed: r.elapsed,
            })
        })
        .collect()
}

#[cfg(test)]
mod tests {
    #[test]
    fn the_node_count_is_pinned() {
        // At depth 5 (quick in a test); `agon bench ringo-search` pins depth 9
        // at 709,500 nodes.
        let total: u64 = super::run(5).unwrap().iter().map(|r| r.nodes).sum();
        assert_eq!(
            total, 19_615,
            "a functional change to the search: explain it in the commit"
        );
    }
}
