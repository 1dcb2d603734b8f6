//! Every shipped puzzle, checked again the way it was proved: each Ringo
//! puzzle against the endgame tablebases (built here for each preset: the
//! solution is the only winning move, or the only fastest, by the tables),
//! each Urgammon puzzle with the level-10 engine that built it (the same
//! best choice, ahead of the second by at least 0.1 in equity).

use agon_ai::puzzle::{PuzzleGame, PuzzleSet};
use agon_ai::puzzle_check::check_all;

#[test]
fn every_shipped_puzzle_holds_by_the_tables_or_the_engine() {
    let mut all = vec![];
    for game in PuzzleGame::ALL {
        let path = format!(
            "{}/puzzles/{}.json",
            env!("CARGO_MANIFEST_DIR"),
            game.name()
        );
        let set: PuzzleSet = serde_json::from_str(&std::fs::read_to_string(path).unwrap()).unwrap();
        assert_eq!(set.game, game);
        assert!(set.puzzles.iter().all(|p| p.game == game));
        let least = if game == PuzzleGame::Ringo { 1000 } else { 500 };
        assert!(
            set.puzzles.len() >= least,
            "{}: {}",
            game.name(),
            set.puzzles.len()
        );
        all.extend(set.puzzles);
    }
    // The same files the server embeds.
    assert_eq!(all, agon_server::puzzles::all());
    let failed = check_all(&all, 2, &|_, _| {});
    assert!(
        failed.is_empty(),
        "{} failed: {:?}",
        failed.len(),
        &failed[..failed.len().min(5)]
    );
    // Every preset has its share.
    for preset in ringo::Preset::ALL {
        let n = all.iter().filter(|p| p.rules == preset.name()).count();
        assert!(n >= 300, "{}: {n}", preset.name());
    }
}
