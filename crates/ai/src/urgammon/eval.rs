//! Urgammon evaluation: the probabilities of the nine game outcomes from a
//! position where a side is about to roll.
//!
//! Two evaluators share one interface ([`Evaluator`]):
//! - [`Net`], a small neural network (sparse inputs → ReLU hidden layer → a
//!   softmax over the nine outcomes) with a pure-Rust forward pass, trained by
//!   TD(λ) self-play ([`crate::urgammon::train`]); its trained weights are
//!   committed in `crates/ai/data/urgammon-net.bin` and embedded in the binary;
//! - [`Heuristic`], a hand-written race estimate, kept as the yardstick the
//!   network must beat (docs/urgammon-engine.md compares both with rollouts).
//!
//! Outcomes are always stored from **light's** point of view ([`Outcomes`]), so
//! values from different plies of a search add up without sign juggling.

use std::sync::OnceLock;
use urgammon::{house_at, progress_of, Kind, Side, State};

/// The nine outcomes of a game, from one side's point of view: wins by 1–4
/// points, losses by 1–4 points, and a draw.
pub const OUTCOMES: usize = 9;

/// Points of each outcome, from the viewing side: +1…+4, −1…−4, 0.
pub const POINTS: [f32; OUTCOMES] = [1.0, 2.0, 3.0, 4.0, -1.0, -2.0, -3.0, -4.0, 0.0];

/// Names of the outcomes in JSON: `win1`…`win4`, `loss1`…`loss4`, `draw`.
pub const OUTCOME_NAMES: [&str; OUTCOMES] = [
    "win1", "win2", "win3", "win4", "loss1", "loss2", "loss3", "loss4", "draw",
];

/// A probability for each outcome, from one side's point of view (which side
/// is up to the holder; search code keeps light's).
#[derive(Clone, Copy, PartialEq, Debug, Default)]
pub struct Outcomes(pub [f32; OUTCOMES]);

impl Outcomes {
    /// The certain outcome of a finished game, from light's point of view.
    pub fn of_result(result: urgammon::GameResult) -> Outcomes {
        let mut o = [0.0; OUTCOMES];
        match result.winner {
            None => o[8] = 1.0,
            Some(w) => {
                let k = usize::from(result.points.clamp(1, 4)) - 1;
                o[if w == Side::Light { k } else { k + 4 }] = 1.0;
            }
        }
        Outcomes(o)
    }

    /// The same outcomes seen by the other side (wins and losses swap).
    #[inline]
    pub fn flip(self) -> Outcomes {
        let p = self.0;
        Outcomes([p[4], p[5], p[6], p[7], p[0], p[1], p[2], p[3], p[8]])
    }

    /// Light's outcomes seen by `side`.
    #[inline]
    pub fn seen_by(self, side: Side) -> Outcomes {
        match side {
            Side::Light => self,
            Side::Dark => self.flip(),
        }
    }

    /// Expected points for the viewing side.
    pub fn equity(&self) -> f32 {
        self.0.iter().zip(POINTS).map(|(p, v)| p * v).sum()
    }

    /// The probability that the viewing side wins.
    pub fn win(&self) -> f32 {
        self.0[..4].iter().sum()
    }

    /// The probability that the viewing side loses.
    pub fn loss(&self) -> f32 {
        self.0[4..8].iter().sum()
    }

    /// `self + w · other`, for expectations over dice.
    #[inline]
    pub fn add_scaled(&mut self, other: &Outcomes, w: f32) {
        for (a, b) in self.0.iter_mut().zip(other.0) {
            *a += w * b;
        }
    }
}

/// An evaluation of positions where a side is about to roll (phase roll).
pub trait Evaluator: Sync {
    /// The outcome probabilities, from light's point of view, of `state`
    /// (phase roll; a finished game is scored exactly by the caller).
    fn evaluate(&self, state: &State) -> Outcomes;
}

// ---------------------------------------------------------------------------
// Features

/// `CROSS[side][progress]`: the enemy's progress on the same house, 0 where the
/// enemy's path does not pass (a side's own field).
const CROSS: [[u8; 17]; 2] = {
    let mut t = [[0u8; 17]; 2];
    let sides = [Side::Light, Side::Dark];
    let mut s = 0;
    while s < 2 {
        let mut p = 1;
        while p <= 16 {
            t[s][p] = match progress_of(sides[1 - s], house_at(sides[s], p as u8)) {
                Some(q) => q,
                None => 0,
            };
            p += 1;
        }
        s += 1;
    }
    t
};

/// `ROSETTE[side][progress]`: the house at that progress is a rosette.
const ROSETTE: [[bool; 17]; 2] = {
    let mut t = [[false; 17]; 2];
    let sides = [Side::Light, Side::Dark];
    let mut s = 0;
    while s < 2 {
        let mut p = 1;
        while p <= 16 {
            t[s][p] = house_at(sides[s], p as u8).is_rosette();
            p += 1;
        }
        s += 1;
    }
    t
};

/// Probability that the chance die shows `d` (1–4).
const CHANCE_P: [f32; 5] = [0.0, 1.0 / 3.0, 1.0 / 3.0, 1.0 / 6.0, 1.0 / 6.0];

/// Probability that a distance `d` is covered with a promoted value on the
/// next roll: the chance value that promotes to `d`, times YES.
fn promoted_p(d: u8) -> f32 {
    let c = match d {
        5 => 1,
        6 => 2,
        7 => 3,
        10 => 4,
        _ => return 0.0,
    };
    CHANCE_P[c] * 4.0 / 6.0
}

/// Inputs per side: 16 progresses × 3 kinds, waiting (3 + 3 + 1 thermometer),
/// palace (3 + 3 + 1 thermometer), remaining pips, and danger.
const BLOCK: usize = 48 + 7 + 7 + 2;

/// Network inputs: the roller's block, the opponent's block, and two flags (the
/// roller started the game; this is the compensation turn).
pub const INPUTS: usize = 2 * BLOCK + 2;

/// Most inputs that can be non-zero at once (7 pieces a side plus counts).
const MAX_ACTIVE: usize = 48;

/// Sparse inputs: (index, value) pairs, most of them one-hot.
#[derive(Clone, Copy, Debug)]
pub struct Inputs {
    idx: [u16; MAX_ACTIVE],
    val: [f32; MAX_ACTIVE],
    len: usize,
}

impl Inputs {
    #[inline]
    fn push(&mut self, i: usize, v: f32) {
        if v != 0.0 && self.len < MAX_ACTIVE {
            self.idx[self.len] = i as u16;
            self.val[self.len] = v;
            self.len += 1;
        }
    }

    /// The non-zero inputs as (index, value).
    pub fn iter(&self) -> impl Iterator<Item = (usize, f32)> + '_ {
        self.idx[..self.len]
            .iter()
            .zip(&self.val[..self.len])
            .map(|(&i, &v)| (usize::from(i), v))
    }
}

/// Expected loss (in a piece-progress weight) from the enemy hitting `side`'s
/// pieces on its next roll: each exposed piece counts with the best chance any
/// enemy piece has to land on it, times how far the piece has come.
fn danger(state: &State, side: Side) -> f32 {
    let pos = state.position();
    let own = pos.army(side);
    let enemy = pos.army(side.other());
    let cross = &CROSS[side.index()];
    let rosette = &ROSETTE[side.index()];
    let enemy_pawns_waiting = enemy.waiting(Kind::Pawn) > 0;
    let mut total = 0.0;
    let mut mask = own.mask();
    while mask != 0 {
        let p = mask.trailing_zeros() as u8;
        mask &= mask - 1;
        let q = cross[p as usize];
        if q == 0 || rosette[p as usize] {
            continue;
        }
        let Some(victim) = own.at(p) else { continue };
        let mut best = 0.0f32;
        let mut em = enemy.mask() & ((1u32 << q) - 1);
        while em != 0 {
            let e = em.trailing_zeros() as u8;
            em &= em - 1;
            if !enemy.at(e).is_some_and(|k| k.captures(victim)) {
                continue;
            }
            let d = q - e;
            let chance = if d <= 4 { CHANCE_P[d as usize] } else { 0.0 };
            best = best.max(chance + promoted_p(d));
        }
        // Entries: chariots on 5–7 and the hero on 10, by the verdict die.
        if !enemy_pawns_waiting {
            if (5..=7).contains(&q) && enemy.waiting(Kind::Chariot) > 0 && victim != Kind::Hero {
                best = best.max(promoted_p(q));
            }
            if q == 10 && enemy.waiting(Kind::Hero) > 0 {
                best = best.max(promoted_p(10));
            }
        }
        total += best * f32::from(p) / 16.0;
    }
    total
}

/// Pips still to travel (`urgammon::Army::pips`).
fn pips(state: &State, side: Side) -> u32 {
    state.position().army(side).pips()
}

/// The network's inputs for `state` (phase roll), from the roller's side.
pub fn inputs(state: &State) -> Inputs {
    let us = state.to_act().unwrap_or(Side::Light);
    let mut x = Inputs {
        idx: [0; MAX_ACTIVE],
        val: [0.0; MAX_ACTIVE],
        len: 0,
    };
    for (b, side) in [us, us.other()].into_iter().enumerate() {
        let base = b * BLOCK;
        let army = state.position().army(side);
        let mut mask = army.mask();
        while mask != 0 {
            let p = mask.trailing_zeros() as usize;
            mask &= mask - 1;
            if let Some(k) = army.at(p as u8) {
                x.push(base + (p - 1) * 3 + k as usize, 1.0);
            }
        }
        let thermo = |x: &mut Inputs, at: usize, n: u8, max: u8| {
            for i in 0..n.min(max) {
                x.push(at + usize::from(i), 1.0);
            }
        };
        thermo(&mut x, base + 48, army.waiting(Kind::Pawn), 3);
        thermo(&mut x, base + 51, army.waiting(Kind::Chariot), 3);
        thermo(&mut x, base + 54, army.waiting(Kind::Hero), 1);
        thermo(&mut x, base + 55, army.palace(Kind::Pawn), 3);
        thermo(&mut x, base + 58, army.palace(Kind::Chariot), 3);
        thermo(&mut x, base + 61, army.palace(Kind::Hero), 1);
        x.push(base + 62, pips(state, side) as f32 / 60.0);
        x.push(base + 63, danger(state, side));
    }
    x.push(2 * BLOCK, f32::from(u8::from(state.starter() == Some(us))));
    x.push(2 * BLOCK + 1, f32::from(u8::from(state.last_turn())));
    x
}

// ---------------------------------------------------------------------------
// The network

/// Hidden units.
pub const HIDDEN: usize = 96;

// The forward pass sums the output layer in lanes of eight.
const _: () = assert!(HIDDEN.is_multiple_of(8));

/// The file header's first word.
const MAGIC: &str = "agon-urgammon-net";

/// A two-layer network: inputs → `HIDDEN` ReLU units → softmax over the nine
/// outcomes, seen from the side to roll.
#[derive(Clone, Debug)]
pub struct Net {
    /// `w1[input]`: the weights from one input to every hidden unit (rows, so
    /// a sparse input adds one contiguous row).
    pub w1: Vec<[f32; HIDDEN]>,
    /// Hidden biases.
    pub b1: [f32; HIDDEN],
    /// `w2[outcome]`: the weights from every hidden unit to one output logit.
    pub w2: [[f32; HIDDEN]; OUTCOMES],
    /// Output biases.
    pub b2: [f32; OUTCOMES],
    /// Self-play games trained so far (kept in the file, for resuming).
    pub games: u64,
}

/// The hidden activations and output probabilities of one forward pass, kept
/// for the backward pass in training.
#[derive(Clone, Copy, Debug)]
pub struct Forward {
    /// Hidden activations after ReLU.
    pub hidden: [f32; HIDDEN],
    /// Output probabilities, seen from the side to roll.
    pub out: [f32; OUTCOMES],
}

/// Why a weights file cannot be read.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct NetError(pub String);

impl std::fmt::Display for NetError {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str(&self.0)
    }
}

impl std::error::Error for NetError {}

impl Net {
    /// A network with small random weights from `seed` (the start of training).
    pub fn random(seed: u64) -> Net {
        let mut rng = crate::Rng::new(seed);
        let mut uniform = |scale: f32| {
            let u = (rng.next_u64() >> 40) as f32 / (1u64 << 24) as f32;
            (2.0 * u - 1.0) * scale
        };
        let s1 = (3.0 / 24.0f32).sqrt(); // about 24 active inputs
        let s2 = (3.0 / HIDDEN as f32).sqrt() * 0.5;
        let mut net = Net {
            w1: vec![[0.0; HIDDEN]; INPUTS],
            b1: [0.05; HIDDEN],
            w2: [[0.0; HIDDEN]; OUTCOMES],
            b2: [0.0; OUTCOMES],
            games: 0,
        };
        for row in &mut net.w1 {
            for w in row.iter_mut() {
                *w = uniform(s1);
            }
        }
        for row in &mut net.w2 {
            for w in row.iter_mut() {
                *w = uniform(s2);
            }
        }
        net
    }

    /// The forward pass, keeping the hidden layer.
    #[inline]
    pub fn forward(&self, x: &Inputs) -> Forward {
        let mut h = self.b1;
        for (i, v) in x.iter() {
            let row = &self.w1[i];
            if v == 1.0 {
                for (a, w) in h.iter_mut().zip(row) {
                    *a += w;
                }
            } else {
                for (a, w) in h.iter_mut().zip(row) {
                    *a += v * w;
                }
            }
        }
        for a in &mut h {
            *a = a.max(0.0);
        }
        let mut logits = self.b2;
        for (l, row) in logits.iter_mut().zip(&self.w2) {
            // Eight independent partial sums: a single running sum would be a
            // chain of dependent float additions that cannot use SIMD lanes.
            let mut acc = [0.0f32; 8];
            for (w, a) in row.chunks_exact(8).zip(h.chunks_exact(8)) {
                for i in 0..8 {
                    acc[i] += w[i] * a[i];
                }
            }
            *l += acc.iter().sum::<f32>();
        }
        let max = logits.iter().copied().fold(f32::MIN, f32::max);
        let mut total = 0.0;
        for l in &mut logits {
            *l = (*l - max).exp();
            total += *l;
        }
        for l in &mut logits {
            *l /= total;
        }
        Forward {
            hidden: h,
            out: logits,
        }
    }

    /// One gradient step on the cross-entropy between the network's output
    /// and `target` (both seen from the side to roll), at learning rate `lr`.
    /// Returns the cross-entropy before the step.
    pub fn train_step(&mut self, x: &Inputs, target: &[f32; OUTCOMES], lr: f32) -> f32 {
        let f = self.forward(x);
        let loss: f32 = target
            .iter()
            .zip(&f.out)
            .map(|(t, p)| if *t > 0.0 { -t * p.max(1e-7).ln() } else { 0.0 })
            .sum();
        // Softmax with cross-entropy: the logit gradient is p − t.
        let mut dlogit = [0.0f32; OUTCOMES];
        for k in 0..OUTCOMES {
            dlogit[k] = f.out[k] - target[k];
        }
        let mut dh = [0.0f32; HIDDEN];
        for (k, g) in dlogit.iter().enumerate() {
            for (j, d) in dh.iter_mut().enumerate() {
                *d += g * self.w2[k][j];
            }
        }
        for (k, g) in dlogit.iter().enumerate() {
            for (w, a) in self.w2[k].iter_mut().zip(&f.hidden) {
                *w -= lr * g * a;
            }
            self.b2[k] -= lr * g;
        }
        for (d, a) in dh.iter_mut().zip(&f.hidden) {
            if *a <= 0.0 {
                *d = 0.0;
            }
        }
        for (i, v) in x.iter() {
            for (w, d) in self.w1[i].iter_mut().zip(&dh) {
                *w -= lr * v * d;
            }
        }
        for (b, d) in self.b1.iter_mut().zip(&dh) {
            *b -= lr * d;
        }
        loss
    }

    /// The outcome probabilities seen from the side to roll.
    pub fn roller_outcomes(&self, state: &State) -> Outcomes {
        Outcomes(self.forward(&inputs(state)).out)
    }

    /// The weights as a file: a one-line text header, then little-endian `f32`s.
    pub fn to_bytes(&self) -> Vec<u8> {
        let mut out = format!(
            "{MAGIC} v1 inputs={INPUTS} hidden={HIDDEN} outputs={OUTCOMES} games={}\n",
            self.games
        )
        .into_bytes();
        let mut put = |w: f32| out.extend_from_slice(&w.to_le_bytes());
        for row in &self.w1 {
            row.iter().for_each(|&w| put(w));
        }
        self.b1.iter().for_each(|&w| put(w));
        for row in &self.w2 {
            row.iter().for_each(|&w| put(w));
        }
        self.b2.iter().for_each(|&w| put(w));
        out
    }

    /// Reads weights written by [`Net::to_bytes`].
    ///
    /// # Errors
    /// A wrong header, other layer sizes, a short file, or non-finite weights.
    pub fn from_bytes(bytes: &[u8]) -> Result<Net, NetError> {
        let bad = |s: &str| NetError(format!("not an Urgammon network file: {s}"));
        let nl = bytes
            .iter()
            .position(|&b| b == b'\n')
            .ok_or_else(|| bad("no header line"))?;
        let header = std::str::from_utf8(&bytes[..nl]).map_err(|_| bad("header is not text"))?;
        let mut words = header.split_whitespace();
        if words.next() != Some(MAGIC) || words.next() != Some("v1") {
            return Err(bad("unknown header"));
        }
        let mut games = 0;
        for w in words {
            match w.split_once('=') {
                Some(("inputs", n)) if n == INPUTS.to_string() => {}
                Some(("hidden", n)) if n == HIDDEN.to_string() => {}
                Some(("outputs", n)) if n == OUTCOMES.to_string() => {}
                Some(("games", n)) => games = n.parse().map_err(|_| bad("bad games count"))?,
                _ => return Err(bad(&format!("layer sizes differ from this build ({w})"))),
            }
        }
        let body = &bytes[nl + 1..];
        let need = (INPUTS * HIDDEN + HIDDEN + OUTCOMES * HIDDEN + OUTCOMES) * 4;
        if body.len() != need {
            return Err(bad(&format!(
                "{} weight bytes, expected {need}",
                body.len()
            )));
        }
        let mut ws = body
            .chunks_exact(4)
            .map(|c| f32::from_le_bytes([c[0], c[1], c[2], c[3]]));
        let mut next = || ws.next().unwrap_or(0.0);
        let mut net = Net::random(0);
        net.games = games;
        for row in &mut net.w1 {
            row.iter_mut().for_each(|w| *w = next());
        }
        net.b1.iter_mut().for_each(|w| *w = next());
        for row in &mut net.w2 {
            row.iter_mut().for_each(|w| *w = next());
        }
        net.b2.iter_mut().for_each(|w| *w = next());
        let finite = net.w1.iter().flatten().all(|w| w.is_finite())
            && net.w2.iter().flatten().all(|w| w.is_finite());
        if !finite {
            return Err(bad("non-finite weights"));
        }
        Ok(net)
    }

    /// The committed, trained network (embedded in the binary, parsed once).
    pub fn trained() -> &'static Net {
        static NET: OnceLock<Net> = OnceLock::new();
        NET.get_or_init(|| {
            // The file is part of the source tree and checked by a unit test,
            // so a failure here is a build defect, not bad user input.
            Net::from_bytes(include_bytes!("../../data/urgammon-net.bin"))
                .unwrap_or_else(|e| panic!("committed network is broken: {e}"))
        })
    }
}

impl Evaluator for Net {
    fn evaluate(&self, state: &State) -> Outcomes {
        let roller = state.to_act().unwrap_or(Side::Light);
        self.roller_outcomes(state).seen_by(roller)
    }
}

// ---------------------------------------------------------------------------
// The hand-written heuristic

/// A hand-written race estimate: the win chance is a logistic function of the
/// pip difference, each side's exposure to being hit counting as pips lost, and
/// a win is scored by how far the loser is behind (waiting pieces, pieces in
/// the streets). Its slope was fitted by hand to rollouts (docs/urgammon-engine.md,
/// section 8), so the comparison with the network is fair.
#[derive(Clone, Copy, Debug, Default)]
pub struct Heuristic;

impl Heuristic {
    /// Outcomes seen from the side to roll.
    pub fn roller_outcomes(state: &State) -> Outcomes {
        let us = state.to_act().unwrap_or(Side::Light);
        let them = us.other();
        let lead = pips(state, them) as f32 - pips(state, us) as f32 - 6.0 * danger(state, us)
            + 6.0 * danger(state, them);
        let win = 1.0 / (1.0 + (-0.015 * lead).exp());
        let mut o = [0.0; OUTCOMES];
        for (base, side, p) in [(0, them, win), (4, us, 1.0 - win)] {
            // The loser's likely score class, from its present position.
            let (points, _) = state.position().loss_points(side);
            let army = state.position().army(side);
            let k = if army.palace_total() >= 4 {
                1
            } else {
                usize::from(points).clamp(1, 4)
            };
            o[base + k - 1] += p;
        }
        Outcomes(o)
    }
}

impl Evaluator for Heuristic {
    fn evaluate(&self, state: &State) -> Outcomes {
        let roller = state.to_act().unwrap_or(Side::Light);
        Heuristic::roller_outcomes(state).seen_by(roller)
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use urgammon::{Game, Phase};

    #[test]
    fn committed_network_loads_and_is_a_distribution() {
        let net = Net::trained();
        assert!(net.games > 0, "the committed network was trained");
        let mut g = Game::new();
        g.apply_all("start:1-2 P-1a", 0).unwrap();
        assert_eq!(g.state().phase(), Phase::Roll);
        let o = net.evaluate(g.state());
        let total: f32 = o.0.iter().sum();
        assert!((total - 1.0).abs() < 1e-4);
        assert!(o.0.iter().all(|p| (0.0..=1.0).contains(p)));
    }

    #[test]
    fn weights_round_trip_and_bad_files_are_errors() {
        let net = Net::random(7);
        let bytes = net.to_bytes();
        let back = Net::from_bytes(&bytes).unwrap();
        assert_eq!(back.w1, net.w1);
        assert_eq!(back.b2, net.b2);
        assert!(Net::from_bytes(b"hello\n").is_err());
        assert!(Net::from_bytes(&bytes[..bytes.len() - 4]).is_err());
        assert!(Net::from_bytes(b"").is_err());
    }

    #[test]
    fn flipping_swaps_wins_and_losses() {
        let o = Outcomes([0.1, 0.2, 0.0, 0.1, 0.3, 0.1, 0.1, 0.0, 0.1]);
        assert!((o.flip().equity() + o.equity()).abs() < 1e-6);
        assert_eq!(o.flip().flip(), o);
        assert!((o.win() - 0.4).abs() < 1e-6);
    }

    #[test]
    fn training_moves_the_output_towards_the_target() {
        let mut net = Net::random(3);
        let mut g = Game::new();
        g.apply_all("start:1-2 P-1a", 0).unwrap();
        let x = inputs(g.state());
        let target = [0.0, 0.0, 0.0, 1.0, 0.0, 0.0, 0.0, 0.0, 0.0];
        let first = net.train_step(&x, &target, 0.05);
        let mut last = first;
        for _ in 0..50 {
            last = net.train_step(&x, &target, 0.05);
        }
        assert!(last < first * 0.5, "{first} -> {last}");
    }

    #[test]
    fn danger_sees_a_pawn_two_behind() {
        // Light pawn on 6 (progress 6), dark pawn on 4b (dark progress 4): a 2 hits.
        let pos = urgammon::Position::setup(
            &[
                (
                    Side::Light,
                    urgammon::House::parse("6").unwrap(),
                    Kind::Pawn,
                ),
                (
                    Side::Dark,
                    urgammon::House::parse("4b").unwrap(),
                    Kind::Pawn,
                ),
            ],
            &[],
        )
        .unwrap();
        let s = State::from_position(pos, Side::Dark, Side::Light);
        assert!(danger(&s, Side::Light) > 0.1);
        assert_eq!(danger(&s, Side::Dark), 0.0);
    }
}
