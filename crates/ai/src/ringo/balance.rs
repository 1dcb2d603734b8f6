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
    Row::from_tally(
        rules.to_string(),
        player.to_string(),
        Tally {
            games: played,
            attackers_wins: att,
            defenders_wins: def,
            timeouts,
            plies: plies as f64,
        },
    )
}

/// A cell's counts, from which its [`Row`] is made: one copy of the rates,
/// the interval and the metrics, for a cell played and for cells pooled.
#[derive(Clone, Copy, Debug, Default)]
struct Tally {
    games: usize,
    attackers_wins: usize,
    defenders_wins: usize,
    timeouts: usize,
    /// The plies of every game together.
    plies: f64,
}

impl Tally {
    /// A row's counts (its plies from its mean length, so a pooled mean can
    /// differ from the games' own in the second decimal).
    fn of(row: &Row) -> Tally {
        Tally {
            games: row.games,
            attackers_wins: row.attackers_wins,
            defenders_wins: row.defenders_wins,
            timeouts: row.timeouts,
            plies: row.mean_plies * row.games as f64,
        }
    }

    /// Both tallies' games together.
    fn add(self, other: Tally) -> Tally {
        Tally {
            games: self.games + other.games,
            attackers_wins: self.attackers_wins + other.attackers_wins,
            defenders_wins: self.defenders_wins + other.defenders_wins,
            timeouts: self.timeouts + other.timeouts,
            plies: self.plies + other.plies,
        }
    }
}

impl Row {
    /// The row of `t`'s games of `player` under `rules`.
    fn from_tally(rules: String, player: String, t: Tally) -> Row {
        let n = t.games.max(1) as f64;
        let (att, def) = (t.attackers_wins as f64, t.defenders_wins as f64);
        let (lo, hi) = wilson_95(att, t.games as f64);
        let draws = t.games - t.attackers_wins - t.defenders_wins;
        Row {
            rules,
            player,
            games: t.games,
            attackers_wins: t.attackers_wins,
            defenders_wins: t.defenders_wins,
            attackers_win_rate: round4(att / n),
            ci95: [round4(lo), round4(hi)],
            draws,
            timeouts: t.timeouts,
            mean_plies: (t.plies / n * 10.0).round() / 10.0,
            balance: round4(1.0 - (att - def).abs() / n),
            drawishness: round4(draws as f64 / n),
        }
    }
}

/// The rows of several runs with each (rule set, player) cell's games taken
/// together: counts summed, rates, interval and metrics made again from the
/// sums, in the order the rows first list the cells. A cell measured once
/// is kept as it is. This is how a candidate played again with another seed
/// is judged on all its games (`agon balance --from A B`).
pub fn pool(rows: &[Row]) -> Vec<Row> {
    let mut cells: Vec<(&str, &str, Vec<&Row>)> = vec![];
    for r in rows {
        match cells
            .iter_mut()
            .find(|(rules, player, _)| *rules == r.rules && *player == r.player)
        {
            Some((_, _, same)) => same.push(r),
            None => cells.push((&r.rules, &r.player, vec![r])),
        }
    }
    cells
        .into_iter()
        .map(|(rules, player, same)| match same.as_slice() {
            [one] => (*one).clone(),
            _ => Row::from_tally(
                rules.to_string(),
                player.to_string(),
                same.iter()
                    .map(|r| Tally::of(r))
                    .fold(Tally::default(), Tally::add),
            ),
        })
        .collect()
}

/// How many of the strongest strengths a rule set's verdict pools. One cell
/// of 100 games is ±10 points, so one strength alone would mark or unmark a
/// set by chance (`classic,slide=on` read 54, 48 and 38% at depths 6, 7 and
/// 8; docs/balance/README.md).
pub const POOLED: usize = 3;

/// A rule set's verdict: its games at the [`POOLED`] strongest strengths
/// taken together, and whether that is an even game. Evenness is judged on
/// the attackers' **score** (a win 1, a draw ½), as match play scores it:
/// with a drawn repetition a set whose attackers win 45% and lose 44% is
/// even, though they win fewer than half.
#[derive(Clone, Debug, PartialEq, serde::Serialize, serde::Deserialize)]
pub struct Verdict {
    /// The rules.
    pub rules: String,
    /// The players pooled, the strongest last.
    pub players: Vec<String>,
    /// Games pooled.
    pub games: usize,
    /// The attackers' wins among them.
    pub attackers_wins: usize,
    /// The drawn games among them.
    pub draws: usize,
    /// The attackers' share of wins in the pooled games.
    pub attackers_win_rate: f64,
    /// The attackers' score: (wins + draws / 2) / games.
    pub attackers_score: f64,
    /// The score's Wilson 95% interval.
    pub ci95: [f64; 2],
    /// Balanced: the attackers score 40–60% and the interval holds 50%.
    pub balanced: bool,
}

/// The distinct values of `field` in the order the rows first list them.
fn first_seen<'a>(rows: &'a [Row], field: impl Fn(&'a Row) -> &'a str) -> Vec<&'a str> {
    let mut seen: Vec<&str> = vec![];
    for r in rows {
        let v = field(r);
        if !seen.contains(&v) {
            seen.push(v);
        }
    }
    seen
}

/// The rule sets of `rows`, in the order the rows first list them.
pub fn rule_sets(rows: &[Row]) -> Vec<&str> {
    first_seen(rows, |r| &r.rules)
}

/// The players of `rows` as the rows name them, in the order given to
/// `agon balance --players` (each rule set's rows go through them in turn).
pub fn players(rows: &[Row]) -> Vec<&str> {
    first_seen(rows, |r| &r.player)
}

/// The verdict on each rule set of `rows`, in the order the rows first list
/// them. The strengths are ordered as the rows list their players (weakest
/// first, as `agon balance --players` is given), so the strongest are the
/// last [`POOLED`]; a rule set pools those of them it has.
pub fn verdicts(rows: &[Row]) -> Vec<Verdict> {
    let players = players(rows);
    let sets = rule_sets(rows);
    let strongest = &players[players.len().saturating_sub(POOLED)..];
    sets.into_iter()
        .map(|rules| {
            let cells: Vec<&Row> = rows
                .iter()
                .filter(|r| r.rules == rules && strongest.contains(&r.player.as_str()))
                .collect();
            let games: usize = cells.iter().map(|r| r.games).sum();
            let wins: usize = cells.iter().map(|r| r.attackers_wins).sum();
            let draws: usize = cells.iter().map(|r| r.draws).sum();
            let n = games.max(1) as f64;
            let points = wins as f64 + draws as f64 / 2.0;
            let score = points / n;
            let (lo, hi) = wilson_95(points, games as f64);
            Verdict {
                rules: rules.to_string(),
                players: cells.iter().map(|r| r.player.clone()).collect(),
                games,
                attackers_wins: wins,
                draws,
                attackers_win_rate: round4(wins as f64 / n),
                attackers_score: round4(score),
                ci95: [round4(lo), round4(hi)],
                balanced: games > 0 && (score - 0.5).abs() <= 0.1 && lo <= 0.5 && hi >= 0.5,
            }
        })
        .collect()
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

    /// A row of `wins` attackers' wins in `games` (no draws).
    fn row(rules: &str, player: &str, wins: usize, games: usize) -> Row {
        Row::from_tally(
            rules.into(),
            player.into(),
            Tally {
                games,
                attackers_wins: wins,
                defenders_wins: games - wins,
                timeouts: 0,
                plies: 80.0 * games as f64,
            },
        )
    }

    #[test]
    fn pooled_runs_count_every_game_of_a_cell_once() {
        // A candidate played again with another seed: 19 of 30, then 60 of
        // 100, is one cell of 79 of 130, with the interval of 130 games;
        // the other cells stay as they were, in the order first listed.
        let set = "classic,slide=on,neutral-limit=none,capture-from-neutral=off";
        let mut again = row(set, "level:10", 60, 100);
        again.mean_plies = 120.0;
        again.draws = 5;
        again.defenders_wins = 35;
        let rows = [
            row(set, "level:10", 19, 30),
            row("globe", "level:10", 0, 30),
            again,
            row(set, "depth:8", 50, 100),
        ];
        let pooled = pool(&rows);
        let rules: Vec<(&str, &str)> = pooled
            .iter()
            .map(|r| (r.rules.as_str(), r.player.as_str()))
            .collect();
        assert_eq!(
            rules,
            [(set, "level:10"), ("globe", "level:10"), (set, "depth:8")]
        );
        let p = &pooled[0];
        assert_eq!(
            (p.games, p.attackers_wins, p.defenders_wins, p.draws),
            (130, 79, 46, 5)
        );
        let (lo, hi) = wilson_95(79.0, 130.0);
        assert_eq!(p.ci95, [round4(lo), round4(hi)]);
        assert_eq!(p.attackers_win_rate, round4(79.0 / 130.0));
        assert_eq!(
            p.mean_plies,
            ((30.0 * 80.0 + 100.0 * 120.0) / 130.0 * 10.0_f64).round() / 10.0
        );
        assert_eq!(p.balance, round4(1.0 - 33.0 / 130.0));
        assert_eq!(pooled[1], rows[1], "a cell measured once is kept");
        assert_eq!(pool(&pooled), pooled, "pooling again changes nothing");
    }

    #[test]
    fn a_verdict_pools_the_three_strongest_strengths() {
        let players = ["depth:2", "depth:3", "depth:4", "depth:5"];
        // 38% at the strongest alone is not even (as classic,slide=on read
        // at depth 8); with the two before it, 46% of 300 is.
        let near: Vec<Row> = [24, 54, 48, 38]
            .iter()
            .zip(players)
            .map(|(&w, p)| row("near", p, w, 100))
            .collect();
        // Always the attackers': not balanced.
        let far: Vec<Row> = players.iter().map(|p| row("far", p, 100, 100)).collect();
        let rows: Vec<Row> = near.into_iter().chain(far).collect();
        let v = verdicts(&rows);
        assert_eq!(v.len(), 2);
        assert_eq!(v[0].rules, "near");
        assert_eq!(v[0].players, ["depth:3", "depth:4", "depth:5"]);
        assert_eq!((v[0].attackers_wins, v[0].games), (140, 300));
        assert!(v[0].balanced, "{:?}", v[0]);
        assert!(v[0].ci95[0] <= 0.5 && 0.5 <= v[0].ci95[1]);
        assert!(!v[1].balanced);
        assert_eq!(v[1].attackers_win_rate, 1.0);
        // Fewer strengths than POOLED: all of them.
        let two = verdicts(&rows[..2]);
        assert_eq!(two[0].players, ["depth:2", "depth:3"]);
        assert_eq!((two[0].attackers_wins, two[0].games), (78, 200));
        // 35 of 60 (58%, its interval holding 50%) is balanced; 65 of 100
        // (outside 40-60%, its interval above 50%) is not.
        assert!(verdicts(&[row("x", "d", 35, 60)])[0].balanced);
        assert!(!verdicts(&[row("x", "d", 65, 100)])[0].balanced);
        // Draws count half: 226 wins, 54 draws and 220 losses in 500 (as
        // classic,slide=on,repetition=draw at depth 8) is an even score of
        // 50.6%; 178 wins, 40 draws in 300 (59% wins plus draws) is not.
        let mut drawn = row("r", "d", 226, 500);
        (drawn.draws, drawn.defenders_wins) = (54, 220);
        let v = &verdicts(&[drawn])[0];
        assert_eq!((v.draws, v.attackers_score), (54, 0.506));
        assert!(v.balanced, "{v:?}");
        let mut leaning = row("r", "d", 158, 300);
        (leaning.draws, leaning.defenders_wins) = (40, 102);
        let v = &verdicts(&[leaning])[0];
        assert!(
            (v.attackers_score - 0.5933).abs() < 1e-9 && !v.balanced,
            "{v:?}"
        );
    }
}
