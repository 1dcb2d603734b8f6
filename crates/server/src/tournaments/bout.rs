//! A bout's result read from its games, pure (issue 86: points that cannot
//! be traded). A game ended before each side had made a decision (a
//! resignation, a flag, an abort) is no game: a bout whose first game ended
//! so is void for both players, whoever ended it, so two friends cannot
//! hand each other points; the lobby's fair-play pause counts it against
//! the one who ended it ([`crate::lobby::ended_early_by`]). A Ringo pair's
//! second game ended so is lost by the one who ended it: voiding the whole
//! pair then would let the loser of a real first game erase it.

use super::standings::VOID;
use crate::model::Seat;

/// One finished game of a bout, as its result reads it.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct GameEnd {
    /// The bout's first account's score in it (1, ½, 0); `None`: aborted.
    pub score0: Option<f64>,
    /// Whether each side made a decision before it ended.
    pub begun: bool,
    /// The seat of the bout's first account that ended it before each
    /// side had decided, if one did: `Some(true)` she did, `Some(false)`
    /// her opponent did.
    pub ended_by_first: Option<bool>,
    /// The turns it took, both sides together.
    pub turns: usize,
}

impl GameEnd {
    /// A game as its session stands once over: `first` is the bout's first
    /// account (she may sit on either seat: a pair's second game swaps
    /// them).
    pub fn of(session: &crate::session::Session, first: i64) -> GameEnd {
        let aborted = session.status() == crate::model::Status::Aborted;
        let seat_of = |seat: Seat| {
            session.row.accounts[seat.index()]
                .as_ref()
                .map(|a| a.id == first)
        };
        GameEnd {
            score0: (!aborted).then(|| crate::games::score_for(session, first)),
            begun: session.row.moved & 3 == 3,
            ended_by_first: crate::lobby::ended_early_by(&session.row, &session.tokens)
                .and_then(seat_of),
            turns: session.rules.turns(),
        }
    }
}

/// A bout's result: the first account's score ([`VOID`]: nobody's) and the
/// turns its games took.
pub fn result(first: GameEnd, second: Option<GameEnd>) -> (f64, i64) {
    let turns = |g: &GameEnd| i64::try_from(g.turns).unwrap_or(i64::MAX);
    let Some(one) = first.score0.filter(|_| first.begun) else {
        return (VOID, turns(&first));
    };
    let Some(second) = second else {
        return (one, turns(&first));
    };
    let two = match (second.begun, second.ended_by_first) {
        (false, Some(true)) => 0.0,
        (false, Some(false)) => 1.0,
        // Begun (an abort needs a side that never moved), or a draw agreed
        // at once: the game's own result, an abort's halved.
        _ => second.score0.unwrap_or(0.5),
    };
    ((one + two) / 2.0, turns(&first) + turns(&second))
}

#[cfg(test)]
mod tests {
    use super::*;

    fn played(score0: f64, turns: usize) -> GameEnd {
        GameEnd {
            score0: Some(score0),
            begun: true,
            ended_by_first: None,
            turns,
        }
    }

    fn at_once(score0: Option<f64>, by_first: bool) -> GameEnd {
        GameEnd {
            score0,
            begun: false,
            ended_by_first: Some(by_first),
            turns: 1,
        }
    }

    #[test]
    fn a_first_game_ended_before_each_side_moved_is_void_whoever_ended_it() {
        // A resignation before any move: the resigner's opponent "won".
        assert_eq!(result(at_once(Some(1.0), false), None).0, VOID);
        assert_eq!(result(at_once(Some(0.0), true), None).0, VOID);
        // An abort (the first-move limit, or a player's abort).
        assert_eq!(result(at_once(None, true), None).0, VOID);
        // And a Ringo pair whose first game ended so, whatever its second.
        assert_eq!(
            result(at_once(Some(0.0), true), Some(played(1.0, 30))).0,
            VOID
        );
    }

    #[test]
    fn a_game_both_began_scores_as_it_ended() {
        assert_eq!(result(played(1.0, 9), None), (1.0, 9));
        assert_eq!(result(played(0.0, 2), None), (0.0, 2));
        assert_eq!(result(played(1.0, 20), Some(played(0.0, 31))), (0.5, 51));
    }

    #[test]
    fn a_pairs_second_game_ended_at_once_is_lost_by_who_ended_it() {
        // She won the first; her opponent resigns the second at once: the
        // pair is hers, not a draw he could force.
        assert_eq!(
            result(played(1.0, 20), Some(at_once(Some(1.0), false))).0,
            1.0
        );
        // She lost the first and lets the second abort: she loses both.
        assert_eq!(result(played(0.0, 20), Some(at_once(None, true))).0, 0.0);
    }
}
