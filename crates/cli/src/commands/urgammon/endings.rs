//! `agon urgammon endings build|probe`: Urgammon's exact endings.

use crate::cli::{EndingsCmd, UrgammonRecordArgs};
use crate::console::print_json;
use crate::progress::Progress;
use agon_ai::urgammon::endings::{Class, Endings, Exact, HORIZON, NODES};
use agon_ai::urgammon::report::{r4, OptionJson, OutcomesJson};
use agon_ai::urgammon::{Choice, Outcomes, Payoff};
use anyhow::{Context, Result};
use serde::Serialize;
use std::path::Path;
use urgammon::{Game, Side, State};

/// Reads the tables in `dir` (none when the directory does not exist).
fn load(dir: &Path) -> Result<Endings> {
    if !dir.exists() {
        return Ok(Endings::new());
    }
    Endings::load(dir).with_context(|| format!("reading the endings in {}", dir.display()))
}

/// One bar over several classes solved in parallel: each class reports its
/// own `(class, done, of)`; the bar shows their sum.
fn per_class(progress: &Progress, total: u64) -> impl Fn(Class, u64, u64) + Sync + '_ {
    let done = std::sync::Mutex::new(std::collections::HashMap::<Class, u64>::new());
    move |class, n, _of| {
        let Ok(mut g) = done.lock() else { return };
        g.insert(class, n);
        let sum: u64 = g.values().sum();
        progress.set(sum.min(total), class.to_string());
    }
}

/// Solves `classes` (and what they reach) into `endings`, with a bar.
fn solve(
    endings: &mut Endings,
    classes: &[Class],
    threads: usize,
) -> Result<Vec<agon_ai::urgammon::endings::ClassSummary>> {
    let total: u64 = endings
        .missing(classes)
        .iter()
        .map(|c| c.len() as u64)
        .sum();
    let progress = Progress::new(total, "entries");
    let summaries = endings
        .build(classes, threads, &per_class(&progress, total))
        .map_err(anyhow::Error::msg)?;
    progress.complete();
    Ok(summaries)
}

/// `agon urgammon endings probe`'s answer, from the side to act (or to
/// roll).
#[derive(Serialize)]
struct ProbeJson {
    /// The position, as a set-up text.
    position: Option<String>,
    /// Its class, e.g. `PCvH`, when each side has one or two pieces left.
    class: Option<String>,
    /// `points`, or `match` (values are then match-winning chances too).
    objective: &'static str,
    /// The side every number is seen from.
    perspective: &'static str,
    /// True when the values below are exact; false when the position is
    /// beyond the tables and not every line ends within the horizon.
    exact: bool,
    /// Expected points with best play (exact only).
    #[serde(skip_serializing_if = "Option::is_none")]
    equity: Option<f64>,
    /// The match-winning chance (a match only).
    #[serde(skip_serializing_if = "Option::is_none")]
    mwc: Option<f64>,
    /// The outcome probabilities.
    #[serde(skip_serializing_if = "Option::is_none")]
    outcomes: Option<OutcomesJson>,
    /// At a decision: every option, best first.
    options: Vec<OptionJson>,
}

/// `agon urgammon endings …`.
pub(crate) fn run(cmd: EndingsCmd) -> Result<()> {
    match cmd {
        EndingsCmd::Build {
            classes,
            dir,
            threads,
        } => {
            let classes: Vec<Class> = if classes.is_empty() {
                Class::all()
            } else {
                classes
                    .iter()
                    .map(|c| c.parse().map_err(anyhow::Error::msg))
                    .collect::<Result<_>>()
                    .context("invalid --class")?
            };
            let mut endings = load(&dir)?;
            let summaries = solve(&mut endings, &classes, threads as usize)?;
            endings
                .save(&dir)
                .with_context(|| format!("writing the endings to {}", dir.display()))?;
            print_json(&summaries)
        }
        EndingsCmd::Probe {
            setup,
            record,
            dir,
            match_to,
            score,
        } => {
            let state = position(setup.as_deref(), &record)?;
            let ctx = super::analysis::match_context(
                &urgammon::Match::new(urgammon::MatchSettings::default()),
                false,
                match_to,
                score.as_deref(),
            )?;
            let payoff = ctx.map_or(Payoff::MONEY, |c| c.payoff());
            let mut endings = load(&dir)?;
            if payoff.is_match() {
                // A match's endings are solved here, for this score: the
                // stored tables are for points.
                endings = Endings::for_payoff(payoff);
                let s = roll_state(&state);
                if let Some((class, _)) = s.as_ref().and_then(agon_ai::urgammon::endings::locate) {
                    solve(&mut endings, &[class], 2)?;
                }
            }
            print_json(&probe(&state, &endings, payoff))
        }
    }
}

/// The state to probe: a set-up position and tokens after it, or a record.
fn position(setup: Option<&str>, record: &UrgammonRecordArgs) -> Result<State> {
    let Some(setup) = setup else {
        let m = super::game::load_record(&record.text()?)?;
        return Ok(*m.current().state());
    };
    let start =
        urgammon::parse_setup(setup).map_err(|e| anyhow::anyhow!("invalid --setup: {e}"))?;
    let mut game = Game::from_state(start);
    if record.record.is_some() || record.file.is_some() {
        game.apply_all(&record.text()?, 0)
            .map_err(|e| anyhow::anyhow!("{e}"))?;
    }
    Ok(*game.state())
}

/// The state about to roll whose class a decision's options reach: the
/// state itself, or (at a decision) the same position before its roll.
pub(crate) fn roll_state(s: &State) -> Option<State> {
    let side = s.to_act()?;
    Some(State::from_position(*s.position(), side, s.starter()?))
}

fn probe(state: &State, endings: &Endings, payoff: Payoff) -> ProbeJson {
    // The same budget as the engine's, so probe and the levels agree on what is exact.
    let exact = Exact::new(payoff, Some(endings), NODES);
    let side = state.to_act().unwrap_or(Side::Light);
    // At a decision the position's value is its best option's: one search.
    let (options, value): (Option<Vec<Choice>>, Option<Outcomes>) = match state.phase() {
        urgammon::Phase::Decide | urgammon::Phase::Move | urgammon::Phase::Verdict => {
            let options = exact.options(state, HORIZON);
            let value = options.as_ref().and_then(|o| o.first()).map(|c| c.outcomes);
            (options, value)
        }
        _ => (Some(vec![]), exact.value(state, HORIZON)),
    };
    let options: Option<Vec<OptionJson>> = options.map(|opts| {
        opts.iter()
            .map(|c| OptionJson::of(c, side, &payoff))
            .collect()
    });
    let seen = value.map(|o| o.seen_by(side));
    ProbeJson {
        position: urgammon::setup_text(state),
        class: roll_state(state)
            .as_ref()
            .and_then(agon_ai::urgammon::endings::locate)
            .map(|(c, _)| c.to_string()),
        objective: if payoff.is_match() { "match" } else { "points" },
        perspective: side.name(),
        exact: value.is_some() && options.is_some(),
        equity: seen.map(|o| r4(o.equity())),
        mwc: value
            .filter(|_| payoff.is_match())
            .map(|o| r4(payoff.value(&o, side))),
        outcomes: seen.as_ref().map(OutcomesJson::of),
        options: options.unwrap_or_default(),
    }
}
