//! The balance lab: how fair each Ringo rule set is between equal players.
//! Every rule set is played at every strength with the same player in both
//! seats (openings varied, each played from both seats, as in tournaments),
//! and the attackers' share of wins is measured with Ludii's outcome metrics:
//! **balance** = 1 − |attackers' win rate − defenders' win rate|,
//! **drawishness** = the share of draws, and **timeouts** = the share of games
//! stopped at the move limit ([`crate::ringo::tournament::MOVE_LIMIT`]).

use crate::ringo::tournament::{play_game, Spec, MOVE_LIMIT};
use crate::stats::{round4, wilson_95};
use ringo::{Rules, Side};

/// One rule set at one strength (read back by `agon balance --from`).
#[derive(Clone, Debug, PartialEq, serde::Serialize, serde::Deserialize)]
pub struct Row {
    /// The rules.
    pub rules: String,
    /// The player in both seats.
    pub player: String,
    /// Games played.
    pub games: usize,
    /// The attackers' wins.
    pub attackers_wins: usize,
    /// The defenders' wins.
    pub defenders_wins: usize,
    /// The attackers' share of the games.
    pub attackers_win_rate: f64,
    /// Its Wilson 95% interval.
    pub ci95: [f64; 2],
    /// Drawn games (the move limit's included).
    pub draws: usize,
    /// Games stopped at the move limit.
    pub timeouts: usize,
    /// Mean game length in plies.
    pub mean_plies: f64,
    /// 1 − |attackers' win rate − defenders' win rate|.
    pub balance: f64,
    /// The share of draws.
    pub drawishness: f64,
}

/// One finished game of the lab, for `--records`.
#[derive(Clone, Debug, PartialEq, serde::Serialize)]
pub struct Record {
    /// The rules.
    pub rules: String,
    /// The player in both seats.
    pub player: String,
    /// The game's number in its cell.
    pub game: usize,
    /// `attackers`, `defenders` or null.
    pub winner: Option<&'static str>,
    /// Plies played.
    pub plies: usize,
    /// The record (rules and moves).
    pub record: String,
}

/// Plays `games` games of `player` against itself under `rules` on `threads`
/// threads; `each` sees every game as it ends.
pub fn measure(
    rules: Rules,
    player: Spec,
    games: usize,
    threads: usize,
    seed: u64,
    each: &mut (dyn FnMut(&Record) + Send),
) -> Row {
    let (mut att, mut def, mut timeouts, mut plies, mut played) = (0, 0, 0, 0, 0);
    crate::par::run(
        games,
        threads,
        |i| play_game(rules, player, player, i, seed, None),
        |g| {
            played += 1;
            plies += g.plies;
            match g.winner {
                Some(Side::Attackers) => att += 1,
                Some(Side::Defenders) => def += 1,
                None if g.plies >= MOVE_LIMIT => timeouts += 1,
                None => {}
            }
            each(&Record {
                rules: rules.to_string(),
                player: player.to_string(),
                game: g.index,
                winner: g.winner.map(Side::name),
                plies: g.plies,
                record: g.record.clone(),
            });
            true
        },
    );
    let n = played.max(1) as f64;
    let (lo, hi) = wilson_95(att as f64, played as f64);
    let draws = played - att - def;
    Row {
        rules: rules.to_string(),
        player: player.to_string(),
        games: played,
        attackers_wins: att,
        defenders_wins: def,
        attackers_win_rate: round4(att as f64 / n),
        ci95: [round4(lo), round4(hi)],
        draws,
        timeouts,
        mean_plies: (plies as f64 / n * 10.0).round() / 10.0,
        balance: round4(1.0 - (att as f64 - def as f64).abs() / n),
        drawishness: round4(draws as f64 / n),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_cell_counts_every_game_and_its_metrics_add_up() {
        let mut seen = 0;
        let row = measure(Rules::default(), Spec::Random, 12, 2, 7, &mut |r| {
            assert!(r.record.starts_with("classic"));
            seen += 1;
        });
        assert_eq!(seen, 12);
        assert_eq!(row.games, 12);
        assert_eq!(row.attackers_wins + row.defenders_wins + row.draws, 12);
        assert!(row.ci95[0] <= row.attackers_win_rate && row.attackers_win_rate <= row.ci95[1]);
        assert!((0.0..=1.0).contains(&row.balance));
        let expected = 1.0 - (row.attackers_wins as f64 - row.defenders_wins as f64).abs() / 12.0;
        assert!((row.balance - expected).abs() < 1e-3);
        // The same seed gives the same cell.
        let again = measure(Rules::default(), Spec::Random, 12, 1, 7, &mut |_| {});
        assert_eq!(again, row);
    }
}
