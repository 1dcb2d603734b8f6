//! Move counts pinned in `data/move_counts.txt` for (record, roll) cases.

use urgammon::{Game, Token};

#[test]
fn pinned_move_counts() {
    let data = include_str!("../data/move_counts.txt");
    let mut cases = 0;
    for line in data
        .lines()
        .filter(|l| !l.starts_with('#') && !l.trim().is_empty())
    {
        let f: Vec<&str> = line.split('|').map(str::trim).collect();
        let game = Game::parse(f[0]).unwrap_or_else(|e| panic!("{line}: {e}"));
        let c: u8 = f[1].parse().unwrap();
        let mut state = *game.state();
        assert_eq!(state.phase().name(), "roll", "{line}");
        state.apply(Token::Roll(c)).unwrap();
        let side = game.state().to_act().unwrap();
        let mut m = urgammon::MoveList::default();
        let mut p = urgammon::MoveList::default();
        game.state().position().moves(side, c, false, &mut m);
        game.state()
            .position()
            .moves(side, urgammon::promote(c), true, &mut p);
        assert_eq!(m.len(), f[2].parse::<usize>().unwrap(), "M({c}) in {line}");
        assert_eq!(p.len(), f[3].parse::<usize>().unwrap(), "P({c}) in {line}");
        assert_eq!(state.phase().name(), f[4], "{line}");
        cases += 1;
    }
    assert!(cases >= 30, "{cases} cases");
}
