//! What the two games' reviews share: the grades of a decision.

/// A decision's grade, from its loss.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, serde::Serialize)]
#[serde(rename_all = "lowercase")]
pub enum Grade {
    /// The engine's choice (or as good).
    Best,
    /// Under the first threshold.
    Excellent,
    /// Under the second.
    Good,
    /// Under the third.
    Inaccuracy,
    /// Under the fourth.
    Mistake,
    /// The fourth or more.
    Blunder,
}

impl Grade {
    /// Every grade, best first.
    pub const ALL: [Grade; 6] = [
        Grade::Best,
        Grade::Excellent,
        Grade::Good,
        Grade::Inaccuracy,
        Grade::Mistake,
        Grade::Blunder,
    ];

    /// The grade of a loss (`best`: the engine's own choice), against the
    /// game's four thresholds: under the first is excellent, then good,
    /// inaccuracy, mistake; at the last or above, a blunder.
    pub fn of(loss: f64, best: bool, thresholds: [f64; 4]) -> Grade {
        if best || loss <= 0.0 {
            return Grade::Best;
        }
        let above = thresholds.iter().filter(|&&t| loss >= t).count();
        Grade::ALL[1 + above]
    }

    /// The symbol a move list shows: `?!`, `?`, `??`, or nothing.
    pub const fn symbol(self) -> &'static str {
        match self {
            Grade::Inaccuracy => "?!",
            Grade::Mistake => "?",
            Grade::Blunder => "??",
            _ => "",
        }
    }

    /// The name: `best`, `excellent`, `good`, `inaccuracy`, `mistake`, `blunder`.
    pub const fn name(self) -> &'static str {
        match self {
            Grade::Best => "best",
            Grade::Excellent => "excellent",
            Grade::Good => "good",
            Grade::Inaccuracy => "inaccuracy",
            Grade::Mistake => "mistake",
            Grade::Blunder => "blunder",
        }
    }
}
