//! Exact values by playing out every line: expectimax over every roll and
//! every choice that ends each line in the game's end or in a table's
//! entry, within a horizon of chance rolls. Where every line of every
//! option ends so, the values are exact; otherwise there is no answer
//! (never an estimate).

use super::table::Endings;
use crate::urgammon::eval::Outcomes;
use crate::urgammon::payoff::Payoff;
use crate::urgammon::player::Decision;
use crate::urgammon::search::{Choice, CHANCE, YES};
use std::cell::Cell;
use urgammon::{Phase, State, Token};

/// The chance rolls the engine looks ahead for an exact answer: enough for
/// "the other side bears its last piece off on any roll" and a rosette
/// bonus on the way.
pub const HORIZON: u32 = 3;

/// The states the engine may visit looking for an exact answer before it
/// gives up and thinks as usual (a few milliseconds).
pub const NODES: u64 = 20_000;

/// An exact search: the payoff decides every choice; a table is read only
/// when it was solved for the same payoff.
pub struct Exact<'a> {
    payoff: Payoff,
    tables: Option<&'a Endings>,
    nodes: Cell<u64>,
    limit: u64,
}

impl<'a> Exact<'a> {
    /// A search for `payoff`, reading `tables` when they were solved for it,
    /// visiting at most `limit` states.
    pub fn new(payoff: Payoff, tables: Option<&'a Endings>, limit: u64) -> Exact<'a> {
        Exact {
            payoff,
            tables: tables.filter(|t| *t.payoff() == payoff),
            nodes: Cell::new(0),
            limit,
        }
    }

    /// The exact outcomes (light's point of view) of any state, looking at
    /// most `rolls` chance rolls ahead.
    pub fn value(&self, s: &State, rolls: u32) -> Option<Outcomes> {
        match s.phase() {
            Phase::Over => s.result().map(Outcomes::of_result),
            Phase::Roll => {
                if let Some(o) = self.tables.and_then(|t| t.probe(s)) {
                    return Some(o);
                }
                if rolls == 0 || !self.visit() {
                    return None;
                }
                let mut total = Outcomes::default();
                for (c, p) in CHANCE {
                    total.add_scaled(&self.value(&after(s, Token::Roll(c)), rolls - 1)?, p);
                }
                Some(total)
            }
            Phase::Opening => None,
            _ => self.options(s, rolls)?.first().map(|c| c.outcomes),
        }
    }

    /// Every option at a decision with its exact outcomes, best first for
    /// the side acting; `None` unless every one is exact.
    pub fn options(&self, s: &State, rolls: u32) -> Option<Vec<Choice>> {
        let side = s.to_act()?;
        if !self.visit() {
            return None;
        }
        let mut out = vec![];
        let mut push = |decision, outcomes: Outcomes| {
            out.push(Choice {
                decision,
                outcomes,
                value: self.payoff.value(&outcomes, side),
            })
        };
        if matches!(s.phase(), Phase::Decide | Phase::Move) {
            for &m in s.moves().iter() {
                push(
                    Decision::Move(m),
                    self.value(&after(s, Token::Move(m)), rolls)?,
                );
            }
        }
        if matches!(s.phase(), Phase::Decide | Phase::Verdict) {
            let yes = self.value(&after(s, Token::Verdict(true)), rolls)?;
            let no = self.value(&after(s, Token::Verdict(false)), rolls)?;
            let mut o = Outcomes::default();
            o.add_scaled(&yes, YES);
            o.add_scaled(&no, 1.0 - YES);
            push(Decision::Verdict, o);
        }
        // Stable: of equal options the first generated stays first.
        out.sort_by(|a, b| b.value.total_cmp(&a.value));
        Some(out)
    }

    /// Counts a visit; false once over the limit.
    fn visit(&self) -> bool {
        self.nodes.set(self.nodes.get() + 1);
        self.nodes.get() <= self.limit
    }
}

/// The exact outcomes of a compensation turn (the non-starter's last turn,
/// rosette bonuses included): it always ends within a few rolls, since no
/// enemy piece is left to capture and every move goes forward.
pub(super) fn play_out_turn(s: &State, payoff: &Payoff) -> Option<Outcomes> {
    Exact::new(*payoff, None, u64::MAX).value(s, 64)
}

/// The state after a token the solver generated from this very state.
pub(super) fn after(s: &State, token: Token) -> State {
    let mut s = *s;
    let applied = s.apply(token);
    debug_assert!(applied.is_ok(), "{applied:?}");
    s
}
