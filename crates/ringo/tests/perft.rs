//! Perft counts pinned in `data/perft.txt`.

use ringo::{perft, Game, Position, Rules};

#[test]
fn pinned_perft_counts() {
    let data = include_str!("../data/perft.txt");
    let mut checked = 0;
    for line in data.lines().map(str::trim) {
        if line.is_empty() || line.starts_with('#') {
            continue;
        }
        let fields: Vec<&str> = line.split(';').map(str::trim).collect();
        let rules: Rules = fields[0].parse().unwrap();
        let game = match fields[1] {
            "start" => Game::new(rules),
            text => Game::from_position(rules, Position::parse(text, &rules).unwrap()),
        };
        for (i, expected) in fields[2].split_whitespace().enumerate() {
            let depth = i as u32 + 1;
            let expected: u64 = expected.parse().unwrap();
            assert_eq!(perft(&game, depth), expected, "{line} at depth {depth}");
            checked += 1;
        }
    }
    assert!(checked >= 60, "only {checked} counts checked");
}
