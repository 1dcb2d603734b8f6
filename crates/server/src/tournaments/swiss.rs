//! The Swiss system's rules, pure: a round's pairings after the Dutch
//! system's shape (FIDE C.04.3), its byes and its tie-breaks.
//!
//! What is kept of the Dutch system: players ranked by score, then rating;
//! each score bracket split in halves, the top half's first player paired
//! with the bottom half's first (S1 against S2), exchanges and floats down
//! to the next bracket only when the bracket cannot be paired; and its
//! absolute criteria, which no pairing breaks: two players meet once, a
//! player has at most one bye (the lowest-ranked player who has had none
//! takes it), and no player is given a colour (a seat) three times in a
//! row or three times more than the other. Within those, a pairing that
//! gives both players the colour they prefer comes before one that does
//! not. What is not kept: the full order of the Dutch system's quality
//! criteria (C.5 to C.21) when they compete; this is a search that tries
//! the Dutch order first and takes the first pairing meeting the absolute
//! criteria, not a certified FIDE engine (no Rust one exists; lila drives
//! the C++ bbpPairings).
//!
//! Colours are seats: the first seat is "white". For Ringo a round is a
//! pair of games with the seats swapped, so colours do not matter there;
//! for Urgammon they alternate as in chess.

use std::collections::HashSet;

/// A player as the pairing of the next round sees her.
#[derive(Clone, Debug, PartialEq)]
pub struct Entrant {
    /// Her account.
    pub account: i64,
    /// Her rating (orders players of equal score).
    pub rating: f64,
    /// Her score so far (a win 1, a draw ½, a bye 1).
    pub score: f64,
    /// Her opponents so far.
    pub opponents: Vec<i64>,
    /// Her seat in each game so far (0 or 1), oldest first.
    pub seats: Vec<usize>,
    /// She has had a bye.
    pub had_bye: bool,
}

/// A round's pairings: boards (first seat, second seat) and the bye.
#[derive(Clone, Debug, Default, PartialEq)]
pub struct Round {
    /// The boards, best first.
    pub boards: Vec<[i64; 2]>,
    /// The player with no opponent this round (a point).
    pub bye: Option<i64>,
}

/// A colour preference: which seat, and how strongly (3 absolute, 2
/// strong, 1 mild, 0 none).
fn preference(e: &Entrant) -> (usize, u8) {
    let first = e.seats.iter().filter(|&&s| s == 0).count() as i64;
    let diff = first - (e.seats.len() as i64 - first);
    let last_two_same =
        e.seats.len() >= 2 && e.seats[e.seats.len() - 1] == e.seats[e.seats.len() - 2];
    let other_than_last = e.seats.last().map_or(0, |&s| 1 - s);
    if diff > 1 || (last_two_same && e.seats.last() == Some(&0)) {
        (1, 3)
    } else if diff < -1 || (last_two_same && e.seats.last() == Some(&1)) {
        (0, 3)
    } else if diff == 1 {
        (1, 2)
    } else if diff == -1 {
        (0, 2)
    } else if e.seats.is_empty() {
        (0, 0)
    } else {
        (other_than_last, 1)
    }
}

/// Whether two players may meet: never met, neither blocks the other, not
/// both with an absolute preference for the same seat.
fn may_meet(a: &Entrant, b: &Entrant, blocked: &HashSet<(i64, i64)>) -> bool {
    let (pa, sa) = preference(a);
    let (pb, sb) = preference(b);
    let met = a.opponents.contains(&b.account);
    let blocks =
        blocked.contains(&(a.account, b.account)) || blocked.contains(&(b.account, a.account));
    let same_absolute = sa == 3 && sb == 3 && pa == pb;
    !(met || blocks || same_absolute)
}

/// Whether both can have the seat they prefer.
fn colours_agree(a: &Entrant, b: &Entrant) -> bool {
    let (pa, sa) = preference(a);
    let (pb, sb) = preference(b);
    sa == 0 || sb == 0 || pa != pb
}

/// The seats of a board between `a` (ranked higher) and `b`: the stronger
/// preference has its way, the higher-ranked player's on a tie; with no
/// preference at all (the first round), the higher-ranked player takes the
/// first seat on odd boards and the second on even ones.
fn seats(a: &Entrant, b: &Entrant, board: usize) -> [i64; 2] {
    let (pa, sa) = preference(a);
    let (pb, sb) = preference(b);
    let a_first = if sa == 0 && sb == 0 {
        board.is_multiple_of(2)
    } else if sa >= sb {
        pa == 0
    } else {
        pb == 1
    };
    if a_first {
        [a.account, b.account]
    } else {
        [b.account, a.account]
    }
}

/// The most tries of the search before it gives way on colours.
const TRIES: usize = 200_000;

/// Pairs the next round of `field` (the players still in the event),
/// keeping apart players in `blocked` (either way).
pub fn pair(field: &[Entrant], blocked: &HashSet<(i64, i64)>) -> Round {
    let mut ranked: Vec<&Entrant> = field.iter().collect();
    ranked.sort_by(|a, b| {
        b.score
            .total_cmp(&a.score)
            .then(b.rating.total_cmp(&a.rating))
            .then(a.account.cmp(&b.account))
    });
    // The bye: the lowest-ranked player without one whose leaving lets the
    // rest be paired.
    let odd = ranked.len() % 2 == 1;
    let bye_candidates: Vec<Option<usize>> = if odd {
        (0..ranked.len())
            .rev()
            .filter(|&i| !ranked[i].had_bye)
            .map(Some)
            .collect()
    } else {
        vec![None]
    };
    for strict in [true, false] {
        for bye in &bye_candidates {
            let rest: Vec<usize> = (0..ranked.len()).filter(|i| Some(*i) != *bye).collect();
            let mut tries = 0;
            if let Some(pairs) = search(&ranked, &rest, blocked, strict, &mut tries) {
                let boards = pairs
                    .iter()
                    .enumerate()
                    .map(|(n, &(i, j))| seats(ranked[i], ranked[j], n))
                    .collect();
                return Round {
                    boards,
                    bye: bye.map(|i| ranked[i].account),
                };
            }
        }
    }
    // Nobody can meet anybody new (a field smaller than its rounds): no
    // boards, everyone waits.
    Round::default()
}

/// Pairs the players `rest` (indices into `ranked`, best first): the top
/// one against the Dutch order of candidates, recursively. `strict`: keep
/// the colour criterion as absolute.
fn search(
    ranked: &[&Entrant],
    rest: &[usize],
    blocked: &HashSet<(i64, i64)>,
    strict: bool,
    tries: &mut usize,
) -> Option<Vec<(usize, usize)>> {
    let Some((&top, others)) = rest.split_first() else {
        return Some(vec![]);
    };
    *tries += 1;
    if *tries > TRIES && strict {
        return None;
    }
    let p = ranked[top];
    // Her bracket: the players left with her score; S1 its top half, S2
    // the rest. She is S1's first, so her Dutch opponent is S2's first.
    let bracket: Vec<usize> = rest
        .iter()
        .copied()
        .filter(|&i| ranked[i].score == p.score)
        .collect();
    let half = bracket.len() / 2;
    let s2 = &bracket[half.max(1).min(bracket.len())..];
    let s1_others: Vec<usize> = bracket[1..half.max(1).min(bracket.len())]
        .iter()
        .rev()
        .copied()
        .collect();
    let lower: Vec<usize> = others
        .iter()
        .copied()
        .filter(|i| !bracket.contains(i))
        .collect();
    let mut candidates: Vec<usize> = vec![];
    for group in [s2.to_vec(), s1_others, lower] {
        // Within each group, colours that agree first (a stable sort keeps
        // the Dutch order otherwise).
        let mut g = group;
        g.sort_by_key(|&i| !colours_agree(p, ranked[i]));
        candidates.extend(g);
    }
    for c in candidates {
        let ok = if strict {
            may_meet(p, ranked[c], blocked)
        } else {
            !p.opponents.contains(&ranked[c].account)
                && !blocked.contains(&(p.account, ranked[c].account))
                && !blocked.contains(&(ranked[c].account, p.account))
        };
        if !ok {
            continue;
        }
        let left: Vec<usize> = others.iter().copied().filter(|&i| i != c).collect();
        if let Some(mut pairs) = search(ranked, &left, blocked, strict, tries) {
            pairs.insert(0, (top, c));
            return Some(pairs);
        }
        if strict && *tries > TRIES {
            return None;
        }
    }
    None
}

/// One player's result in a round, for the tie-breaks.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Result {
    /// The opponent (`None`: a bye).
    pub opponent: Option<i64>,
    /// Her score in it (1, ½, 0).
    pub score: f64,
}

/// Buchholz: the sum of her opponents' scores (a bye adds nothing).
pub fn buchholz(results: &[Result], score_of: &dyn Fn(i64) -> f64) -> f64 {
    results
        .iter()
        .filter_map(|r| r.opponent.map(score_of))
        .sum()
}

/// Sonneborn–Berger: the scores of the opponents she beat, and half of
/// those she drew with.
pub fn sonneborn_berger(results: &[Result], score_of: &dyn Fn(i64) -> f64) -> f64 {
    results
        .iter()
        .filter_map(|r| r.opponent.map(|o| score_of(o) * r.score))
        .sum()
}

#[cfg(test)]
mod tests {
    use super::*;

    fn entrant(account: i64, rating: f64) -> Entrant {
        Entrant {
            account,
            rating,
            score: 0.0,
            opponents: vec![],
            seats: vec![],
            had_bye: false,
        }
    }

    /// FIDE's Dutch system, round 1 (C.04.3, the first round's rule, as
    /// its handbook's example has it): eight players ranked 1–8 meet
    /// 1–5, 6–2, 3–7, 8–4 (the top half against the bottom half, the top
    /// seed on the first seat and colours alternating down the boards).
    #[test]
    fn the_first_round_is_the_top_half_against_the_bottom_half() {
        let field: Vec<Entrant> = (1..=8).map(|n| entrant(n, 2000.0 - n as f64)).collect();
        let round = pair(&field, &HashSet::new());
        assert_eq!(round.boards, vec![[1, 5], [6, 2], [3, 7], [8, 4]]);
        assert_eq!(round.bye, None);
        // Nine players: the ninth (the lowest) has the bye.
        let field: Vec<Entrant> = (1..=9).map(|n| entrant(n, 2000.0 - n as f64)).collect();
        let round = pair(&field, &HashSet::new());
        assert_eq!(round.bye, Some(9));
        assert_eq!(round.boards, vec![[1, 5], [6, 2], [3, 7], [8, 4]]);
    }

    /// Round 2 after round 1's winners 1, 2, 3, 4: the winners meet in
    /// their bracket, S1 = {1, 2} against S2 = {3, 4}. The Dutch order's
    /// first try, 1–3 and 2–4, would give both boards two players who want
    /// the same colour (1 and 3 had the first seat, 2 and 4 the second);
    /// the next transposition, 1–4 and 2–3, gives everyone the colour she
    /// did not have, and the Dutch system takes it (its colour criterion
    /// outranks the transposition order). The same in the losers' bracket.
    #[test]
    fn the_second_round_pairs_each_score_bracket_top_half_against_bottom() {
        let mut field: Vec<Entrant> = (1..=8).map(|n| entrant(n, 2000.0 - n as f64)).collect();
        let boards = [[1, 5], [6, 2], [3, 7], [8, 4]];
        for [a, b] in boards {
            for (me, other, seat) in [(a, b, 0), (b, a, 1)] {
                let e = &mut field[me as usize - 1];
                e.opponents.push(other);
                e.seats.push(seat);
                if me <= 4 {
                    e.score = 1.0;
                }
            }
        }
        let round = pair(&field, &HashSet::new());
        assert_eq!(round.boards, vec![[4, 1], [2, 3], [5, 8], [7, 6]]);
    }

    #[test]
    fn a_player_who_had_the_bye_does_not_have_it_again_and_nobody_meets_twice() {
        let mut field: Vec<Entrant> = (1..=3).map(|n| entrant(n, 1500.0)).collect();
        field[2].had_bye = true;
        field[0].opponents = vec![2];
        field[1].opponents = vec![1];
        let round = pair(&field, &HashSet::new());
        // 3 had the bye: 1 and 2 have met: one of them sits out, the other meets 3.
        assert_eq!(round.boards.len(), 1);
        assert!(round.bye == Some(1) || round.bye == Some(2));
        assert!(round.boards[0].contains(&3));
    }

    #[test]
    fn a_block_keeps_two_players_apart() {
        let field: Vec<Entrant> = (1..=4).map(|n| entrant(n, 2000.0 - n as f64)).collect();
        let round = pair(&field, &HashSet::from([(3, 1)]));
        for b in &round.boards {
            assert!(!(b.contains(&1) && b.contains(&3)), "{round:?}");
        }
    }

    /// Generated fields played out round by round with made-up results:
    /// every round meets the absolute criteria.
    #[test]
    fn generated_fields_meet_the_absolute_criteria_every_round() {
        let mut seed: u64 = 0x9e37_79b9_7f4a_7c15;
        let mut next = move || {
            seed ^= seed << 13;
            seed ^= seed >> 7;
            seed ^= seed << 17;
            seed
        };
        for n in [6usize, 9, 12, 17, 24] {
            let mut field: Vec<Entrant> = (0..n)
                .map(|i| entrant(i as i64 + 1, 1200.0 + (next() % 1000) as f64))
                .collect();
            let rounds = (n / 2).min(6);
            for _ in 0..rounds {
                let round = pair(&field, &HashSet::new());
                let mut seen = HashSet::new();
                for b in &round.boards {
                    assert!(seen.insert(b[0]) && seen.insert(b[1]), "one board each");
                }
                if let Some(b) = round.bye {
                    assert!(seen.insert(b));
                    let e = field.iter_mut().find(|e| e.account == b).unwrap();
                    assert!(!e.had_bye, "one bye at most");
                    e.had_bye = true;
                    e.score += 1.0;
                }
                assert_eq!(seen.len(), n, "everyone paired or given the bye");
                for b in &round.boards {
                    let r = next() % 3;
                    for (k, &me) in b.iter().enumerate() {
                        let other = b[1 - k];
                        let e = field.iter_mut().find(|e| e.account == me).unwrap();
                        assert!(!e.opponents.contains(&other), "no repeat pairing");
                        e.opponents.push(other);
                        e.seats.push(k);
                        e.score += match (r, k) {
                            (0, 0) | (1, 1) => 1.0,
                            (2, _) => 0.5,
                            _ => 0.0,
                        };
                        let s = &e.seats;
                        let l = s.len();
                        assert!(
                            !(l >= 3 && s[l - 1] == s[l - 2] && s[l - 2] == s[l - 3]),
                            "no seat three times in a row: {s:?}"
                        );
                        let first = s.iter().filter(|&&x| x == 0).count() as i64;
                        assert!((2 * first - l as i64).abs() <= 2, "seats within two: {s:?}");
                    }
                }
            }
        }
    }

    /// Hand-worked: A beat B and drew with C; B beat C; C had a bye.
    /// Scores: A 1.5, B 1, C 1.5 (½ + the bye). A's Buchholz: B 1 + C 1.5
    /// = 2.5; her Sonneborn–Berger: B's 1 × 1 + C's 1.5 × ½ = 1.75.
    #[test]
    fn tie_breaks_on_a_hand_worked_table() {
        let score = |p: i64| match p {
            1 => 1.5,
            2 => 1.0,
            3 => 1.5,
            _ => 0.0,
        };
        let a = [
            Result {
                opponent: Some(2),
                score: 1.0,
            },
            Result {
                opponent: Some(3),
                score: 0.5,
            },
        ];
        assert_eq!(buchholz(&a, &score), 2.5);
        assert_eq!(sonneborn_berger(&a, &score), 1.75);
        let c = [
            Result {
                opponent: Some(1),
                score: 0.5,
            },
            Result {
                opponent: None,
                score: 1.0,
            },
        ];
        assert_eq!(buchholz(&c, &score), 1.5, "the bye adds nothing");
        assert_eq!(sonneborn_berger(&c, &score), 0.75);
    }
}
