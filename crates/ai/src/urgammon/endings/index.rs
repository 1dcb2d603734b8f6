//! Which positions the endings hold and where each one is: a side's
//! **hand** (the kinds it still has to bring home), a **class** (both
//! hands), and a state's index in its class's table.

use std::fmt;
use std::str::FromStr;
use std::sync::OnceLock;
use urgammon::{house_at, Army, Kind, Position, Side, State};

/// Progresses a piece can stand at: 0 waiting, 1..=16 on the board.
const LOCS: usize = 17;

/// The hands, in their fixed order: one piece, then two.
const HANDS: [&[Kind]; 8] = [
    &[Kind::Pawn],
    &[Kind::Chariot],
    &[Kind::Hero],
    &[Kind::Pawn, Kind::Pawn],
    &[Kind::Pawn, Kind::Chariot],
    &[Kind::Pawn, Kind::Hero],
    &[Kind::Chariot, Kind::Chariot],
    &[Kind::Chariot, Kind::Hero],
];

/// The pieces a side still has to bring home, one or two, by kind (the
/// other five or six are in the palace).
#[derive(Clone, Copy, PartialEq, Eq, Hash, PartialOrd, Ord, Debug)]
pub struct Hand(u8);

impl Hand {
    /// Every hand: `P`, `C`, `H`, `PP`, `PC`, `PH`, `CC`, `CH`.
    pub const ALL: [Hand; 8] = [
        Hand(0),
        Hand(1),
        Hand(2),
        Hand(3),
        Hand(4),
        Hand(5),
        Hand(6),
        Hand(7),
    ];

    /// The kinds, in kind order.
    pub fn kinds(self) -> &'static [Kind] {
        HANDS[self.0 as usize]
    }

    /// How many pieces.
    pub fn len(self) -> usize {
        self.kinds().len()
    }

    /// Always false: a hand holds one piece at least (a side with none
    /// has finished).
    pub fn is_empty(self) -> bool {
        false
    }

    /// The hand of these kinds (in kind order), if it is one.
    fn of(kinds: &[Kind]) -> Option<Hand> {
        HANDS
            .iter()
            .position(|h| *h == kinds)
            .map(|i| Hand(i as u8))
    }

    /// The hands left once one piece of this hand is home.
    pub fn smaller(self) -> Vec<Hand> {
        let kinds = self.kinds();
        if kinds.len() < 2 {
            return vec![];
        }
        let mut out: Vec<Hand> = [&kinds[..1], &kinds[1..]]
            .iter()
            .filter_map(|k| Hand::of(k))
            .collect();
        out.dedup();
        out
    }

    /// How many pieces of `kind` the hand holds.
    fn count(self, kind: Kind) -> u8 {
        self.kinds().iter().filter(|&&k| k == kind).count() as u8
    }
}

impl fmt::Display for Hand {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        self.kinds()
            .iter()
            .try_for_each(|k| write!(f, "{}", k.letter()))
    }
}

impl FromStr for Hand {
    type Err = String;
    fn from_str(s: &str) -> Result<Hand, String> {
        let mut kinds: Vec<Kind> = s
            .chars()
            .map(|c| Kind::from_letter(c).ok_or_else(|| format!("{c:?} is not P, C or H")))
            .collect::<Result<_, _>>()?;
        kinds.sort_by_key(|&k| k as u8);
        Hand::of(&kinds).ok_or_else(|| format!("{s:?} is not one or two pieces a side can have"))
    }
}

/// A class of endings: what each side still has to bring home.
#[derive(Clone, Copy, PartialEq, Eq, Hash, PartialOrd, Ord, Debug)]
pub struct Class {
    /// Light's pieces left.
    pub light: Hand,
    /// Dark's pieces left.
    pub dark: Hand,
}

impl Class {
    /// Every class (64), smaller ones first: a class's tables read only
    /// smaller classes' (a bear-off leaves the class; a capture does not).
    pub fn all() -> Vec<Class> {
        let mut out: Vec<Class> = Hand::ALL
            .iter()
            .flat_map(|&light| Hand::ALL.iter().map(move |&dark| Class { light, dark }))
            .collect();
        out.sort_by_key(|c| (c.pieces(), *c));
        out
    }

    /// The pieces both sides still have to bring home.
    pub fn pieces(self) -> usize {
        self.light.len() + self.dark.len()
    }

    /// This class and every class its games can reach (a piece home
    /// makes the class smaller), smaller ones first.
    pub fn with_smaller(self) -> Vec<Class> {
        let mut out = vec![self];
        let mut i = 0;
        while i < out.len() {
            let c = out[i];
            for light in c.light.smaller() {
                out.push(Class { light, ..c });
            }
            for dark in c.dark.smaller() {
                out.push(Class { dark, ..c });
            }
            i += 1;
        }
        out.sort_by_key(|c| (c.pieces(), *c));
        out.dedup();
        out
    }

    /// Entries of its table: both sides' placements, the side to roll and
    /// the side that started (placements that put two pieces on one house
    /// included, and never read).
    pub fn len(self) -> usize {
        placements(self.light).len() * placements(self.dark).len() * 4
    }

    /// Always false: every class has entries.
    pub fn is_empty(self) -> bool {
        false
    }

    /// The index of a state of this class.
    pub(super) fn index(self, light: u32, dark: u32, to_roll: Side, starter: Side) -> u32 {
        let nd = placements(self.dark).len() as u32;
        ((light * nd + dark) * 2 + to_roll as u32) * 2 + starter as u32
    }

    /// The state at an index, about to roll (`None` where two pieces would
    /// share a house).
    pub(super) fn state(self, index: u32) -> Option<State> {
        let nd = placements(self.dark).len() as u32;
        let starter = side(index & 1);
        let to_roll = side((index >> 1) & 1);
        let pair = index >> 2;
        let (light, dark) = (pair / nd, pair % nd);
        let mut board = vec![];
        let mut palace = vec![];
        for (s, hand, i) in [
            (Side::Light, self.light, light),
            (Side::Dark, self.dark, dark),
        ] {
            let locs = placements(hand).list[i as usize];
            for (&kind, &loc) in hand.kinds().iter().zip(&locs) {
                if loc > 0 {
                    board.push((s, house_at(s, loc), kind));
                }
            }
            for kind in Kind::ALL {
                palace.push((s, kind, kind.count() - hand.count(kind)));
            }
        }
        let pos = Position::setup(&board, &palace).ok()?;
        Some(State::from_position(pos, to_roll, starter))
    }

    /// How far the pieces of the entry at `index` have come (the sweeps
    /// go from the most advanced, whose values the others read).
    pub(super) fn advance(self, index: u32) -> u32 {
        let nd = placements(self.dark).len() as u32;
        let pair = index >> 2;
        let sum = |hand, i: u32| -> u32 {
            placements(hand).list[i as usize]
                .iter()
                .map(|&l| u32::from(l))
                .sum()
        };
        sum(self.light, pair / nd) + sum(self.dark, pair % nd)
    }
}

fn side(bit: u32) -> Side {
    if bit == 0 {
        Side::Light
    } else {
        Side::Dark
    }
}

impl fmt::Display for Class {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{}v{}", self.light, self.dark)
    }
}

impl FromStr for Class {
    type Err = String;
    fn from_str(s: &str) -> Result<Class, String> {
        let (l, d) = s
            .split_once('v')
            .ok_or_else(|| format!("{s:?}: write a class as LIGHTvDARK, e.g. PCvH"))?;
        Ok(Class {
            light: l.parse()?,
            dark: d.parse()?,
        })
    }
}

/// Every placement of a hand's pieces, and the way back from one.
pub(super) struct Placements {
    /// Each placement: the progress of each piece, in the hand's kind order
    /// (0: waiting); the second is 0 and unused for a one-piece hand.
    list: Vec<[u8; 2]>,
    /// `lookup[a * 17 + b]`: the placement's number, or `u32::MAX`.
    lookup: Vec<u32>,
}

impl Placements {
    fn len(&self) -> usize {
        self.list.len()
    }
}

/// The placements of a hand (made once).
fn placements(hand: Hand) -> &'static Placements {
    static ALL: OnceLock<Vec<Placements>> = OnceLock::new();
    &ALL.get_or_init(|| Hand::ALL.iter().map(|&h| make(h)).collect())[hand.0 as usize]
}

fn make(hand: Hand) -> Placements {
    let mut list = vec![];
    let mut lookup = vec![u32::MAX; LOCS * LOCS];
    let kinds = hand.kinds();
    for a in 0..LOCS as u8 {
        if kinds.len() == 1 {
            lookup[a as usize * LOCS] = list.len() as u32;
            list.push([a, 0]);
            continue;
        }
        for b in 0..LOCS as u8 {
            // Two pieces share only the waiting area; two of one kind are
            // one placement whichever is named first.
            let clash = a == b && a != 0;
            let twin = kinds[0] == kinds[1] && a > b;
            if !clash && !twin {
                lookup[a as usize * LOCS + b as usize] = list.len() as u32;
                list.push([a, b]);
            }
        }
    }
    Placements { list, lookup }
}

/// One side's hand and placement number, when it has one or two pieces
/// left.
fn side_of(army: &Army) -> Option<(Hand, u32)> {
    if !(5..=6).contains(&army.palace_total()) {
        return None;
    }
    let mut pieces: Vec<(Kind, u8)> = army.on_board().map(|(p, k)| (k, p)).collect();
    for kind in Kind::ALL {
        pieces.extend(std::iter::repeat_n((kind, 0), army.waiting(kind) as usize));
    }
    pieces.sort_by_key(|&(k, p)| (k as u8, p));
    let kinds: Vec<Kind> = pieces.iter().map(|&(k, _)| k).collect();
    let hand = Hand::of(&kinds)?;
    let a = pieces[0].1 as usize;
    let b = pieces.get(1).map_or(0, |p| p.1 as usize);
    let i = placements(hand).lookup[a * LOCS + b];
    (i != u32::MAX).then_some((hand, i))
}

/// Where a state about to roll stands in the endings: its class and index,
/// when each side has one or two pieces left (and it is no compensation
/// turn, which [`super::exact`] plays out).
pub fn locate(state: &State) -> Option<(Class, u32)> {
    let to_roll = state.to_act()?;
    let starter = state.starter()?;
    if state.phase() != urgammon::Phase::Roll || state.last_turn() {
        return None;
    }
    let pos = state.position();
    let (light, li) = side_of(pos.army(Side::Light))?;
    let (dark, di) = side_of(pos.army(Side::Dark))?;
    let class = Class { light, dark };
    Some((class, class.index(li, di, to_roll, starter)))
}
