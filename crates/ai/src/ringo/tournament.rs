//! Engine-against-engine matches for Ringo, with the statistics to read them:
//! W/D/L, score, an Elo difference with a 95% interval, per-seat results, and an
//! optional sequential probability ratio test (SPRT).

use crate::ringo::player as ringo_player;
use crate::ringo::search::{level_move, level_play, Limits, Searcher};
use crate::Rng;
use ringo::{Game, Move, Rules, Side};
use std::str::FromStr;

/// A player in a tournament.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Spec {
    /// A playing level, 1–10.
    Level(crate::Level),
    /// The search to a fixed depth.
    Depth(u32),
    /// The search with a node budget.
    Nodes(u64),
    /// The search with this many milliseconds a move and nothing else: level
    /// 10 without reading its opponent (`time:1000` is level 10 as it played
    /// before the reading, the baseline the reading is measured against).
    Time(u64),
    /// Level 10's whole play (the reading of its opponent included) with this
    /// many milliseconds a move instead of its 1000: how level 10's results
    /// scale with its time (`level10:1000` plays as `level:10`).
    Level10Time(u64),
    /// Uniformly random legal moves.
    Random,
    /// The one-ply capture-first baseline.
    Greedy,
    /// The greedy baseline that also avoids allowing a capture (two plies).
    Cautious,
}

impl FromStr for Spec {
    type Err = String;
    fn from_str(s: &str) -> Result<Spec, String> {
        let bad = || {
            format!("invalid player '{s}': use level:N (1-10), depth:D, nodes:N, time:MS, level10:MS, random, greedy or cautious")
        };
        // A time a move: 1 ms to 10 minutes.
        let millis = |ms: &str| ms.parse().ok().filter(|ms| (1..=600_000).contains(ms));
        match s.split_once(':') {
            None if s == "random" => Ok(Spec::Random),
            None if s == "greedy" => Ok(Spec::Greedy),
            None if s == "cautious" => Ok(Spec::Cautious),
            Some(("level", n)) => n
                .parse::<crate::Level>()
                .ok()
                .map(Spec::Level)
                .ok_or_else(bad),
            Some(("depth", n)) => n
                .parse()
                .ok()
                .filter(|d| (1..=40).contains(d))
                .map(Spec::Depth)
                .ok_or_else(bad),
            Some(("nodes", n)) => n
                .parse()
                .ok()
                .filter(|&n| n > 0)
                .map(Spec::Nodes)
                .ok_or_else(bad),
            Some(("time", ms)) => millis(ms).map(Spec::Time).ok_or_else(bad),
            Some(("level10", ms)) => millis(ms).map(Spec::Level10Time).ok_or_else(bad),
            _ => Err(bad()),
        }
    }
}

impl std::fmt::Display for Spec {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match self {
            Spec::Level(l) => write!(f, "level:{l}"),
            Spec::Depth(d) => write!(f, "depth:{d}"),
            Spec::Nodes(n) => write!(f, "nodes:{n}"),
            Spec::Time(ms) => write!(f, "time:{ms}"),
            Spec::Level10Time(ms) => write!(f, "level10:{ms}"),
            Spec::Random => f.write_str("random"),
            Spec::Greedy => f.write_str("greedy"),
            Spec::Cautious => f.write_str("cautious"),
        }
    }
}

/// Chooses a move for `spec`. The three searches differ only in their limits.
pub fn choose(spec: Spec, searcher: &mut Searcher, game: &Game, rng: &mut Rng) -> Option<Move> {
    let limits = match spec {
        Spec::Random => return ringo_player::random_move(game, rng),
        Spec::Greedy => return ringo_player::greedy_move(game, rng),
        Spec::Cautious => return ringo_player::cautious_move(game, rng),
        Spec::Level(l) => return level_move(searcher, game, l, rng.next_u64(), None),
        Spec::Level10Time(ms) => {
            let limits = Limits {
                movetime: Some(std::time::Duration::from_millis(ms)),
                ..Limits::default()
            };
            let top = crate::Level::MAX;
            return level_play(searcher, game, top, rng.next_u64(), limits).best;
        }
        Spec::Depth(d) => Limits {
            depth: Some(d),
            ..Limits::default()
        },
        Spec::Nodes(n) => Limits {
            nodes: Some(n),
            ..Limits::default()
        },
        Spec::Time(ms) => Limits {
            movetime: Some(std::time::Duration::from_millis(ms)),
            ..Limits::default()
        },
    };
    searcher.search_game(game, limits).best
}

/// One finished game: who played the attackers, and the outcome.
#[derive(Clone, Debug)]
pub struct GameResult {
    /// The game's number in the tournament, from 0.
    pub index: usize,
    /// True when player A had the attackers.
    pub a_attacks: bool,
    /// The winner (`None` for a draw).
    pub winner: Option<Side>,
    /// Moves played.
    pub plies: usize,
    /// The game record (rules and moves, opening included), to replay it.
    pub record: String,
}

impl GameResult {
    /// A's score: 1, ½ or 0.
    pub fn a_score(&self) -> f64 {
        match self.winner {
            None => 0.5,
            Some(w) => f64::from(u8::from((w == Side::Attackers) == self.a_attacks)),
        }
    }
}

/// Games still going after this many plies stop, scored as draws: a cap
/// that keeps a pathological pair of players from running forever.
pub const MOVE_LIMIT: usize = 600;

/// Game `index`'s seat and opening number: openings come in pairs, each
/// played from both seats; with `seat`, A always plays that side and every
/// game has its own opening.
fn seat_and_opening(index: usize, seat: Option<Side>) -> (bool, usize) {
    match seat {
        None => (index.is_multiple_of(2), index / 2),
        Some(side) => (side == Side::Attackers, index),
    }
}

/// Plays game `index` (see [`seat_and_opening`]). The opening is two random
/// plies from the start, drawn from the opening's seed.
pub fn play_game(
    rules: Rules,
    a: Spec,
    b: Spec,
    index: usize,
    seed: u64,
    seat: Option<Side>,
) -> GameResult {
    let opening = seat_and_opening(index, seat).1;
    let mut opening_rng = Rng::new(seed ^ (opening as u64 * 0x9e37_79b9));
    let mut game = Game::new(rules);
    for _ in 0..2 {
        if let Some(m) = ringo_player::random_move(&game, &mut opening_rng) {
            game.play_unchecked(m);
        }
    }
    play_from(game, a, b, index, seed, seat)
}

/// Plays game `index` on from `game` (its rules, position and history: a
/// level 10 player reads the opponent's moves already in it), A taking the
/// seat [`seat_and_opening`] gives. The record returned holds `game`'s moves
/// too.
pub fn play_from(
    mut game: Game,
    a: Spec,
    b: Spec,
    index: usize,
    seed: u64,
    seat: Option<Side>,
) -> GameResult {
    let rules = *game.rules();
    let a_attacks = seat_and_opening(index, seat).0;
    let mut rng = Rng::new(seed.wrapping_add(index as u64));
    let mut searchers = [
        Searcher::with_weights(rules, crate::ringo::eval::WEIGHTS, 1 << 18),
        Searcher::with_weights(rules, crate::ringo::eval::WEIGHTS, 1 << 18),
    ];
    // Long games end by repetition or stall; a cap keeps a pathological pair of
    // players from running forever (scored as a draw).
    while !game.is_over() && game.ply() < MOVE_LIMIT {
        let attackers_to_move = game.position().to_move() == Side::Attackers;
        let (spec, s) = if attackers_to_move == a_attacks {
            (a, 0)
        } else {
            (b, 1)
        };
        let Some(m) = choose(spec, &mut searchers[s], &game, &mut rng) else {
            break;
        };
        game.play_unchecked(m);
    }
    GameResult {
        index,
        a_attacks,
        winner: game.outcome().and_then(|o| o.winner),
        plies: game.ply(),
        record: game.record(),
    }
}

/// Totals of a tournament so far.
#[derive(Clone, Debug, Default)]
pub struct Tally {
    /// A's wins, draws, losses.
    pub wins: usize,
    /// Draws.
    pub draws: usize,
    /// A's losses.
    pub losses: usize,
    /// A's score as attackers: (points, games).
    pub a_as_attackers: (f64, usize),
    /// A's score as defenders.
    pub a_as_defenders: (f64, usize),
    /// Attackers' wins (either player).
    pub attacker_wins: usize,
    /// Total plies.
    pub plies: usize,
}

impl Tally {
    /// Adds a result.
    pub fn add(&mut self, r: &GameResult) {
        let s = r.a_score();
        match s {
            x if x > 0.75 => self.wins += 1,
            x if x < 0.25 => self.losses += 1,
            _ => self.draws += 1,
        }
        let seat = if r.a_attacks {
            &mut self.a_as_attackers
        } else {
            &mut self.a_as_defenders
        };
        seat.0 += s;
        seat.1 += 1;
        if r.winner == Some(Side::Attackers) {
            self.attacker_wins += 1;
        }
        self.plies += r.plies;
    }

    /// Games played.
    pub fn games(&self) -> usize {
        self.wins + self.draws + self.losses
    }

    /// A's score fraction.
    pub fn score(&self) -> f64 {
        if self.games() == 0 {
            0.5
        } else {
            (self.wins as f64 + 0.5 * self.draws as f64) / self.games() as f64
        }
    }

    /// The Elo difference (A − B) and its 95% interval, from the score and its
    /// standard error over games.
    ///
    /// When every game had the same result the standard error is zero and the
    /// normal interval would collapse onto the clamped point (a 100–0 match
    /// would claim "+1200, certainly"); then the interval is Wilson's
    /// ([`crate::share_95`]): 100 wins of 100 prove about +566 Elo, not more.
    pub fn elo(&self) -> (f64, f64, f64) {
        let n = self.games() as f64;
        let s = self.score();
        let var = if n > 0.0 {
            (self.wins as f64 * (1.0 - s).powi(2)
                + self.draws as f64 * (0.5 - s).powi(2)
                + self.losses as f64 * s.powi(2))
                / n
        } else {
            0.0
        };
        let (lo, hi) = if n > 0.0 && var == 0.0 {
            crate::share_95(s, n)
        } else {
            let se = (var / n.max(1.0)).sqrt();
            (s - 1.96 * se, s + 1.96 * se)
        };
        (elo_of(s), elo_of(lo), elo_of(hi))
    }

    /// The log-likelihood ratio of H1 (Elo = `elo1`) against H0 (Elo = `elo0`),
    /// by the normal approximation to the trinomial.
    pub fn llr(&self, elo0: f64, elo1: f64) -> f64 {
        let n = self.games() as f64;
        if n < 2.0 || self.wins == 0 || self.losses == 0 {
            return 0.0;
        }
        let s = self.score();
        let var = (self.wins as f64 * (1.0 - s).powi(2)
            + self.draws as f64 * (0.5 - s).powi(2)
            + self.losses as f64 * s.powi(2))
            / n;
        if var <= 0.0 {
            return 0.0;
        }
        let (s0, s1) = (score_of(elo0), score_of(elo1));
        (s1 - s0) * (2.0 * s - s0 - s1) / (2.0 * var / n)
    }
}

/// The expected score for an Elo difference.
pub fn score_of(elo: f64) -> f64 {
    1.0 / (1.0 + 10f64.powf(-elo / 400.0))
}

/// The Elo difference for an expected score (clamped away from 0 and 1).
pub fn elo_of(score: f64) -> f64 {
    let s = score.clamp(1e-3, 1.0 - 1e-3);
    -400.0 * (1.0 / s - 1.0).log10()
}

/// SPRT bounds for α = β = 0.05.
pub const SPRT_BOUNDS: (f64, f64) = (-2.944_438_979, 2.944_438_979);

/// What a tournament plays.
#[derive(Clone, Debug)]
pub struct Config {
    /// The rules.
    pub rules: Rules,
    /// Player A.
    pub a: Spec,
    /// Player B.
    pub b: Spec,
    /// Games to play.
    pub games: usize,
    /// Games played at once.
    pub threads: usize,
    /// Seed for openings and players.
    pub seed: u64,
    /// Stop early by SPRT between these Elo values.
    pub sprt: Option<(f64, f64)>,
    /// Player A's only seat (both seats alternately when `None`).
    pub seat: Option<Side>,
    /// Games to start from instead of two random plies (see [`Openings`]).
    pub openings: Option<Openings>,
}

/// Given openings: game `index` starts from opening `n mod len` (`n` from
/// [`seat_and_opening`], so without a seat each is played from both seats),
/// with its whole history. They let a study replay the positions that decide
/// a match (the endgames a seat loses, say) many times, instead of waiting
/// for them to come up from the start.
#[derive(Clone, Debug)]
pub struct Openings(std::sync::Arc<[Game]>);

/// Why a text of openings was refused.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum OpeningsError {
    /// The text holds no opening.
    Empty,
    /// A line is not a game record.
    Record {
        /// The line's number, from 1.
        line: usize,
        /// Why.
        error: String,
    },
    /// A line's rules are not the tournament's.
    Rules {
        /// The line's number, from 1.
        line: usize,
        /// The line's rules.
        found: String,
        /// The tournament's.
        expected: String,
    },
    /// A line's game is already over.
    Over {
        /// The line's number, from 1.
        line: usize,
    },
}

impl std::fmt::Display for OpeningsError {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match self {
            OpeningsError::Empty => f.write_str("no opening: every line is blank"),
            OpeningsError::Record { line, error } => write!(f, "line {line}: {error}"),
            OpeningsError::Rules {
                line,
                found,
                expected,
            } => write!(
                f,
                "line {line}: rules {found}, but the tournament plays {expected}"
            ),
            OpeningsError::Over { line } => write!(f, "line {line}: the game is already over"),
        }
    }
}

impl std::error::Error for OpeningsError {}

impl Openings {
    /// Reads openings, one game record a line (`RULES [POSITION] MOVES…`, as
    /// the `record` field of `agon tournament ringo --records` writes it).
    /// Blank lines are skipped. Every game must be under `rules` and not over.
    pub fn parse(text: &str, rules: &Rules) -> Result<Openings, OpeningsError> {
        let mut games = vec![];
        for (i, line) in text.lines().enumerate() {
            let n = i + 1;
            let line = line.trim();
            if line.is_empty() {
                continue;
            }
            let game = Game::parse_record(line).map_err(|e| OpeningsError::Record {
                line: n,
                error: e.to_string(),
            })?;
            if game.rules() != rules {
                return Err(OpeningsError::Rules {
                    line: n,
                    found: game.rules().to_string(),
                    expected: rules.to_string(),
                });
            }
            if game.is_over() {
                return Err(OpeningsError::Over { line: n });
            }
            games.push(game);
        }
        if games.is_empty() {
            return Err(OpeningsError::Empty);
        }
        Ok(Openings(games.into()))
    }

    /// How many openings there are.
    pub fn len(&self) -> usize {
        self.0.len()
    }

    /// Never true: [`Openings::parse`] refuses an empty text.
    pub fn is_empty(&self) -> bool {
        self.0.is_empty()
    }

    /// The opening game `index` starts from.
    pub fn for_game(&self, index: usize, seat: Option<Side>) -> Game {
        self.0[seat_and_opening(index, seat).1 % self.0.len()].clone()
    }
}

/// Runs a tournament; `progress` is called after every game with the tally so
/// far and the game (one call at a time, in the order games finish). With
/// `sprt`, stops early once the test decides.
pub fn run(config: Config, progress: &(dyn Fn(&Tally, &GameResult) + Sync)) -> Tally {
    let Config {
        rules,
        a,
        b,
        games,
        threads,
        seed,
        sprt,
        seat,
        openings,
    } = config;
    let mut t = Tally::default();
    crate::par::run(
        games,
        threads,
        |i| match &openings {
            Some(o) => play_from(o.for_game(i, seat), a, b, i, seed, seat),
            None => play_game(rules, a, b, i, seed, seat),
        },
        |r| {
            t.add(&r);
            progress(&t, &r);
            // With SPRT, stop once the test decides.
            sprt.is_none_or(|(e0, e1)| {
                let llr = t.llr(e0, e1);
                SPRT_BOUNDS.0 < llr && llr < SPRT_BOUNDS.1
            })
        },
    );
    t
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn specs_parse_and_print() {
        for s in [
            "level:5",
            "depth:4",
            "nodes:100000",
            "time:1000",
            "level10:2000",
            "random",
            "greedy",
            "cautious",
        ] {
            assert_eq!(s.parse::<Spec>().unwrap().to_string(), s);
        }
        for bad in [
            "level:0",
            "level:11",
            "depth:x",
            "nodes:0",
            "time:0",
            "time:-5",
            "time:1e3",
            "best",
            "",
            "level10:0",
            "level10:",
            "level10:600001",
        ] {
            assert!(bad.parse::<Spec>().is_err(), "{bad}");
        }
    }

    #[test]
    fn elo_statistics() {
        assert!((elo_of(0.5)).abs() < 1e-9);
        assert!((elo_of(score_of(200.0)) - 200.0).abs() < 1e-6);
        let mut t = Tally::default();
        for i in 0..100 {
            t.add(&GameResult {
                index: i,
                record: String::new(),
                a_attacks: i % 2 == 0,
                winner: Some(if i % 4 == 0 {
                    Side::Defenders
                } else {
                    Side::Attackers
                }),
                plies: 10,
            });
        }
        let (elo, lo, hi) = t.elo();
        assert!(lo < elo && elo < hi);
        assert_eq!(t.games(), 100);

        // A clean sweep is not proof of infinite strength: the lower bound
        // is Wilson's, 100 / (100 + 1.96²) as a score, about +566 Elo.
        let sweep = Tally {
            wins: 100,
            ..Tally::default()
        };
        let (elo, lo, hi) = sweep.elo();
        assert!((lo - elo_of(100.0 / (100.0 + 1.96 * 1.96))).abs() < 1e-6);
        assert!((lo - 566.0).abs() < 1.0, "{lo}");
        assert_eq!((elo, hi), (elo_of(1.0), elo_of(1.0)));
        let (elo, lo, hi) = Tally {
            losses: 100,
            ..Tally::default()
        }
        .elo();
        assert!((hi + 566.0).abs() < 1.0, "{hi}");
        assert_eq!((elo, lo), (elo_of(0.0), elo_of(0.0)));
    }

    #[test]
    fn level_ten_at_a_chosen_time_plays_legal_moves() {
        // `level10:MS` is level 10's whole play, the reading included, with
        // its time per move changed (here far below its 1000 ms, so that
        // the test is quick); its moves stay legal whatever the time.
        let rules: Rules = "globe".parse().unwrap();
        let mut searcher = Searcher::new(rules);
        let mut rng = Rng::new(5);
        let mut game = Game::new(rules);
        while !game.is_over() && game.ply() < 60 {
            let spec = if game.position().to_move() == Side::Attackers {
                Spec::Level10Time(20)
            } else {
                Spec::Greedy
            };
            let m = choose(spec, &mut searcher, &game, &mut rng).unwrap();
            assert!(game.legal_moves().contains(&m), "{m} at ply {}", game.ply());
            game.play(m).unwrap();
        }
    }

    #[test]
    fn a_search_beats_random() {
        let rules = Rules::default();
        let config = Config {
            rules,
            a: Spec::Depth(2),
            b: Spec::Random,
            games: 8,
            threads: 2,
            seed: 1,
            sprt: None,
            seat: None,
            openings: None,
        };
        let games = std::sync::Mutex::new(vec![]);
        let t = run(config, &|_, g| games.lock().unwrap().push(g.clone()));
        assert_eq!(t.games(), 8);
        // Every game's record replays to the reported end.
        let mut games = games.into_inner().unwrap();
        games.sort_by_key(|g| g.index);
        assert_eq!(
            games.iter().map(|g| g.index).collect::<Vec<_>>(),
            (0..8).collect::<Vec<_>>()
        );
        for g in &games {
            let replay = Game::parse_record(&g.record).unwrap();
            assert_eq!(replay.ply(), g.plies);
            assert_eq!(replay.outcome().and_then(|o| o.winner), g.winner);
            assert_eq!(g.a_attacks, g.index % 2 == 0);
        }
        assert!(t.score() >= 0.75, "score {}", t.score());
    }

    #[test]
    fn openings_are_read_checked_and_played_in_turn() {
        let rules: Rules = "globe".parse().unwrap();
        let o = Openings::parse("globe b6-a6 d1-c1\n\n globe c6-c5 \n", &rules).unwrap();
        assert_eq!(o.len(), 2);
        // Without a seat each opening is played from both seats.
        let plies = |g: Game| g.ply();
        assert_eq!(
            (0..6)
                .map(|i| plies(o.for_game(i, None)))
                .collect::<Vec<_>>(),
            [2, 2, 1, 1, 2, 2]
        );
        assert_eq!(
            (0..3)
                .map(|i| plies(o.for_game(i, Some(Side::Attackers))))
                .collect::<Vec<_>>(),
            [2, 1, 2]
        );
        for (text, error) in [
            ("", OpeningsError::Empty),
            (" \n\t\n", OpeningsError::Empty),
            (
                "globe c6-c5\nglobe c6-c4",
                OpeningsError::Record {
                    line: 2,
                    error: String::new(),
                },
            ),
            (
                "classic c6-c5",
                OpeningsError::Rules {
                    line: 1,
                    found: "classic".into(),
                    expected: "globe".into(),
                },
            ),
            (
                "globe ......../......../......../......../......../A....... 1 a a1-F",
                OpeningsError::Over { line: 1 },
            ),
        ] {
            let got = Openings::parse(text, &rules).unwrap_err();
            match (&got, &error) {
                (
                    OpeningsError::Record { line, .. },
                    OpeningsError::Record { line: expected, .. },
                ) => assert_eq!(line, expected, "{text}: {got}"),
                _ => assert_eq!(got, error, "{text}"),
            }
        }
    }

    #[test]
    fn a_tournament_plays_on_from_its_openings() {
        let rules: Rules = "globe".parse().unwrap();
        let openings = Openings::parse("globe b6-a6 d1-c1 a6-a5", &rules).unwrap();
        let config = Config {
            rules,
            a: Spec::Greedy,
            b: Spec::Random,
            games: 2,
            threads: 1,
            seed: 3,
            sprt: None,
            seat: None,
            openings: Some(openings),
        };
        let games = std::sync::Mutex::new(vec![]);
        run(config, &|_, g| games.lock().unwrap().push(g.clone()));
        for g in games.into_inner().unwrap() {
            assert!(
                g.record.starts_with("globe b6-a6 d1-c1 a6-a5 "),
                "{}",
                g.record
            );
            let replay = Game::parse_record(&g.record).unwrap();
            assert_eq!(replay.ply(), g.plies);
            assert_eq!(replay.outcome().and_then(|o| o.winner), g.winner);
        }
    }
}
