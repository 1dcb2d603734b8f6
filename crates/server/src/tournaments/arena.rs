//! The arena's rules, pure (lichess's arena is the reference: its
//! `tournament` module and its FAQ): scoring with streaks and berserk, and
//! the pairing of the players waiting when a game ends.
//!
//! - **Points**: a win 2, a draw 1, a loss 0. Two wins in a row put a
//!   player *on fire*: her next results count double (a win 4, a draw 2)
//!   until she fails to win. A berserk win (she halved her own clock
//!   before her first move) gives one point more, once the bout took at
//!   least [`BERSERK_TURNS`] turns (lichess: 7 moves each). A draw in
//!   fewer than [`QUICK_DRAW_TURNS`] turns scores nothing (lichess: 10
//!   moves each). A bout ended before each side moved is void and not
//!   here at all ([`super::bout`]).
//! - **Pairing**: the players waiting (not in a game, not paused), ordered
//!   by score then rating, are paired with their neighbours, never with
//!   the opponent of their last game while another is possible now or
//!   soon (a player waiting, or one in a game that will end: then they
//!   wait for her), never with a player who blocks them (or whom they
//!   block).
//! - **Sides** alternate per player: each gets the side she has had less
//!   (then the one she did not have last), so a Ringo player is not stuck
//!   defending.

use std::collections::HashSet;

/// The fewest turns (both sides together) a berserk win needs for its
/// extra point: lichess's 7 moves each.
pub const BERSERK_TURNS: i64 = 14;

/// A draw in fewer turns than this (both sides together) scores nothing:
/// lichess's 10 moves each.
pub const QUICK_DRAW_TURNS: i64 = 20;

/// One finished game's result for a player, in the order played.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Played {
    /// Her score: 1 a win, ½ a draw, 0 a loss.
    pub score: f64,
    /// She went berserk in it.
    pub berserk: bool,
    /// The turns the bout took, both sides together; `None` for a bout
    /// ended before the store kept them (scored as a long one).
    pub turns: Option<i64>,
}

impl Played {
    /// The bout took at least `n` turns (or is too old to say).
    fn took(&self, n: i64) -> bool {
        self.turns.is_none_or(|t| t >= n)
    }
}

/// A player's arena points over her games in the order played, and each
/// game's points (for the standings' sheet).
pub fn points(games: &[Played]) -> (u32, Vec<u32>) {
    let mut total = 0;
    let mut sheet = Vec::with_capacity(games.len());
    let mut wins_in_a_row = 0;
    for g in games {
        let on_fire = wins_in_a_row >= 2;
        let base = if g.score > 0.5 {
            2
        } else if g.score == 0.5 && g.took(QUICK_DRAW_TURNS) {
            1
        } else {
            0
        };
        let mut p = if on_fire { base * 2 } else { base };
        if g.score > 0.5 && g.berserk && g.took(BERSERK_TURNS) {
            p += 1;
        }
        if g.score > 0.5 {
            wins_in_a_row += 1;
        } else {
            wins_in_a_row = 0;
        }
        total += p;
        sheet.push(p);
    }
    (total, sheet)
}

/// Whether a player is on fire after these games (her next result counts
/// double).
pub fn on_fire(games: &[Played]) -> bool {
    games.iter().rev().take(2).filter(|g| g.score > 0.5).count() == 2 && games.len() >= 2
}

/// A player waiting to be paired.
#[derive(Clone, Debug, PartialEq)]
pub struct Waiting {
    /// Her account.
    pub account: i64,
    /// Her arena points.
    pub points: u32,
    /// Her rating in the game.
    pub rating: f64,
    /// Her last game's opponent.
    pub last_opponent: Option<i64>,
    /// Games she had on the first seat, and on the second.
    pub seats: [u32; 2],
    /// The seat of her last game (0 or 1).
    pub last_seat: Option<usize>,
}

/// A pairing: the account on the first seat, and on the second.
pub type Pairing = [i64; 2];

/// Pairs the waiting players: neighbours by points then rating, no
/// immediate rematch while another opponent is there or `playing` others
/// of the event are in games (they will be free soon), no pair in
/// `blocked` (either way); sides as the module says. A player left over
/// waits for the next game to end.
pub fn pair(waiting: &[Waiting], blocked: &HashSet<(i64, i64)>, playing: usize) -> Vec<Pairing> {
    let mut order: Vec<&Waiting> = waiting.iter().collect();
    order.sort_by(|a, b| {
        b.points
            .cmp(&a.points)
            .then(b.rating.total_cmp(&a.rating))
            .then(a.account.cmp(&b.account))
    });
    let refused = |a: &Waiting, b: &Waiting| {
        blocked.contains(&(a.account, b.account)) || blocked.contains(&(b.account, a.account))
    };
    let rematch = |a: &Waiting, b: &Waiting| {
        a.last_opponent == Some(b.account) || b.last_opponent == Some(a.account)
    };
    let mut taken = vec![false; order.len()];
    let mut out = vec![];
    for i in 0..order.len() {
        if taken[i] {
            continue;
        }
        let a = order[i];
        let free = |j: &usize| !taken[*j] && *j != i && !refused(a, order[*j]);
        // The nearest who is not her last opponent, else her last
        // opponent when nobody else is there.
        let pick = (i + 1..order.len())
            .filter(free)
            .find(|&j| !rematch(a, order[j]))
            .or_else(|| {
                let others = (i + 1..order.len()).filter(free).count();
                let anyone_else = waiting.len() > 2 || playing > 0;
                (others > 0 && !anyone_else)
                    .then(|| (i + 1..order.len()).find(free))
                    .flatten()
            });
        if let Some(j) = pick {
            taken[i] = true;
            taken[j] = true;
            out.push(sides(a, order[j]));
        }
    }
    out
}

/// Who takes the first seat: the one who has had it less, then the one
/// who did not have it last, then the better placed.
fn sides(a: &Waiting, b: &Waiting) -> Pairing {
    let need = |w: &Waiting| w.seats[0] as i64 - w.seats[1] as i64;
    let (na, nb) = (need(a), need(b));
    let a_first = if na != nb {
        na < nb
    } else {
        match (a.last_seat, b.last_seat) {
            (Some(0), Some(1)) => false,
            (Some(1), Some(0)) => true,
            (Some(0), None) => false,
            (None, Some(0)) => true,
            _ => true,
        }
    };
    if a_first {
        [a.account, b.account]
    } else {
        [b.account, a.account]
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn w(score: f64) -> Played {
        Played {
            score,
            berserk: false,
            turns: Some(40),
        }
    }

    #[test]
    fn two_wins_in_a_row_put_a_player_on_fire_until_she_fails_to_win() {
        // Win 2, win 2, then on fire: win 4, draw 2 (and off fire), win 2.
        let games = [w(1.0), w(1.0), w(1.0), w(0.5), w(1.0)];
        assert_eq!(points(&games), (12, vec![2, 2, 4, 2, 2]));
        assert!(!on_fire(&games));
        assert!(on_fire(&games[..2]));
        // A loss scores nothing and ends the streak.
        assert_eq!(
            points(&[w(1.0), w(1.0), w(0.0), w(1.0)]).1,
            vec![2, 2, 0, 2]
        );
        // A berserk win: one point more; a berserk loss: nothing.
        let berserk = |score| Played {
            score,
            berserk: true,
            turns: Some(40),
        };
        assert_eq!(points(&[berserk(1.0), berserk(0.0)]).1, vec![3, 0]);
        // On fire and berserk: 4 + 1.
        assert_eq!(points(&[w(1.0), w(1.0), berserk(1.0)]).1, vec![2, 2, 5]);
    }

    /// lichess's lines (its arena FAQ): berserk's point needs 7 moves each;
    /// a draw in under 10 moves each scores nothing (and ends a streak).
    #[test]
    fn a_quick_berserk_win_has_no_extra_point_and_a_quick_draw_scores_nothing() {
        let g = |score, berserk, turns| Played {
            score,
            berserk,
            turns: Some(turns),
        };
        assert_eq!(points(&[g(1.0, true, 13)]).1, vec![2]);
        assert_eq!(points(&[g(1.0, true, 14)]).1, vec![3]);
        assert_eq!(points(&[g(0.5, false, 19)]).1, vec![0]);
        assert_eq!(points(&[g(0.5, false, 20)]).1, vec![1]);
        // On fire, a quick draw: nothing, and the fire is out.
        let games = [w(1.0), w(1.0), g(0.5, false, 4), w(1.0)];
        assert_eq!(points(&games).1, vec![2, 2, 0, 2]);
        // A bout ended before the store kept its turns scores as before.
        let old = Played {
            score: 1.0,
            berserk: true,
            turns: None,
        };
        assert_eq!(points(&[old]).1, vec![3]);
    }

    fn waiting(account: i64, points: u32, rating: f64, last: Option<i64>) -> Waiting {
        Waiting {
            account,
            points,
            rating,
            last_opponent: last,
            seats: [0, 0],
            last_seat: None,
        }
    }

    #[test]
    fn neighbours_by_points_are_paired_without_an_immediate_rematch() {
        // 1 and 2 lead; 3 and 4 follow.
        let table = [
            waiting(1, 10, 1500.0, None),
            waiting(2, 8, 1600.0, None),
            waiting(3, 4, 1700.0, None),
            waiting(4, 2, 1400.0, None),
        ];
        assert_eq!(pair(&table, &HashSet::new(), 0), vec![[1, 2], [3, 4]]);
        // 1 and 2 have just played: 1 meets 3, 2 meets 4.
        let mut rematch = table.clone();
        rematch[0].last_opponent = Some(2);
        rematch[1].last_opponent = Some(1);
        assert_eq!(pair(&rematch, &HashSet::new(), 0), vec![[1, 3], [2, 4]]);
        // Two players alone meet again rather than wait for ever...
        assert_eq!(pair(&rematch[..2], &HashSet::new(), 0), vec![[1, 2]]);
        // ... but while others of the event play, they wait for them.
        assert!(pair(&rematch[..2], &HashSet::new(), 2).is_empty());
        // Equal points: the rating orders.
        let even = [
            waiting(1, 0, 1400.0, None),
            waiting(2, 0, 1900.0, None),
            waiting(3, 0, 1500.0, None),
        ];
        assert_eq!(pair(&even, &HashSet::new(), 0), vec![[2, 3]], "1 waits");
        // A block keeps two players apart, either way.
        assert_eq!(
            pair(&table, &HashSet::from([(2, 1)]), 0),
            vec![[1, 3], [2, 4]]
        );
    }

    #[test]
    fn sides_alternate_per_player() {
        let mut a = waiting(1, 0, 1500.0, None);
        let mut b = waiting(2, 0, 1500.0, None);
        // A had the first seat more: B takes it.
        a.seats = [2, 1];
        b.seats = [1, 1];
        assert_eq!(
            pair(&[a.clone(), b.clone()], &HashSet::new(), 0),
            vec![[2, 1]]
        );
        // Level: the one who had the second seat last takes the first.
        a.seats = [1, 1];
        a.last_seat = Some(1);
        b.last_seat = Some(0);
        assert_eq!(
            pair(&[a.clone(), b.clone()], &HashSet::new(), 0),
            vec![[1, 2]]
        );
        a.last_seat = Some(0);
        b.last_seat = Some(1);
        assert_eq!(pair(&[a, b], &HashSet::new(), 0), vec![[2, 1]]);
    }
}
