//! The JSON report of a Ringo analysis that the CLI and the web app share:
//! the engine's best move, score, proof and principal variation.

use ringo::Game;
use serde::Serialize;

/// How long `analyze` may search: a level, or a depth, node or time limit.
#[derive(Clone, Copy, Debug, Default)]
pub struct AnalyzeLimit {
    /// A playing level 1–10 (its depth or time).
    pub level: Option<crate::Level>,
    /// A fixed depth.
    pub depth: Option<u32>,
    /// A node budget.
    pub nodes: Option<u64>,
    /// A time budget in milliseconds.
    pub movetime: Option<u64>,
}

/// A result the search proved: who wins, in how many plies.
#[derive(Serialize)]
pub struct ProvenJson {
    /// `attackers` or `defenders`.
    pub winner: &'static str,
    /// Plies from the position.
    pub plies: u32,
}

/// `agon ringo analyze`'s report.
#[derive(Serialize)]
pub struct AnalysisJson {
    /// The best move.
    pub best: Option<String>,
    /// Its score for the side to move (centipawn-like; ±30000 near a proven result).
    pub score: i32,
    /// A proven result, if the search found one.
    pub proven: Option<ProvenJson>,
    /// The principal variation.
    pub pv: Vec<String>,
    /// The depth reached.
    pub depth: u32,
    /// Nodes searched.
    pub nodes: u64,
    /// Nodes per second.
    pub nps: f64,
    /// Milliseconds taken.
    pub ms: f64,
    /// The side to move.
    pub to_move: &'static str,
    /// The endgame tables' exact result, when they hold this position
    /// (absent otherwise).
    #[serde(skip_serializing_if = "Option::is_none")]
    pub tablebase: Option<TablebaseJson>,
}

/// A position's tablebase entry: proven, with no search horizon.
#[derive(Serialize)]
pub struct TablebaseJson {
    /// `attackers`, `defenders` or `draw` (a repetition decides when
    /// `plies` is absent).
    pub result: &'static str,
    /// Plies to the end with best play (absent for a repetition).
    pub plies: Option<u16>,
    /// The winner's fastest line against the slowest defence.
    pub pv: Vec<String>,
}

/// The installed tables' entry for the game's position, if they hold it.
pub fn tablebase_json(game: &Game) -> Option<TablebaseJson> {
    let rules = *game.rules();
    let tb = crate::ringo::tablebase::for_rules(&rules)?;
    let pos = *game.position();
    let v = if game.last_was_pass() {
        tb.probe_after_pass(&pos)
    } else {
        tb.probe(&pos)
    }?;
    Some(TablebaseJson {
        result: v.result_name(&rules),
        plies: v.plies(),
        pv: crate::ringo::solve::table_line(&tb, &rules, pos, game.last_was_pass()),
    })
}

/// `agon ringo analyze`: the engine's best move, score and line.
///
/// # Errors
/// The game is over: there is nothing to analyse.
pub fn analyze_json(game: &Game, limit: AnalyzeLimit) -> Result<AnalysisJson, String> {
    if game.is_over() {
        return Err(format!(
            "the game is over ({}): there is nothing to analyse",
            game.status_name()
        ));
    }
    let mut limits = crate::ringo::search::Limits {
        depth: limit.depth,
        nodes: limit.nodes,
        movetime: limit.movetime.map(std::time::Duration::from_millis),
        stop: None,
    };
    if let Some(level) = limit.level {
        let spec = crate::ringo::search::level_spec(level);
        limits.depth = limits.depth.or(spec.depth);
        limits.movetime = limits.movetime.or(spec.movetime);
    }
    if limits.depth.is_none() && limits.nodes.is_none() && limits.movetime.is_none() {
        limits.depth = Some(8);
    }
    let mut searcher = crate::ringo::search::Searcher::new(*game.rules());
    let report = searcher.search_game(game, limits);
    let legal = game.legal_moves();
    let mut g = game.clone();
    let pv: Vec<String> = report
        .pv
        .iter()
        .map(|&m| {
            let list = g.legal_moves();
            let text = m.to_notation(&list);
            g.play_unchecked(m);
            text
        })
        .collect();
    let secs = report.elapsed.as_secs_f64();
    Ok(AnalysisJson {
        best: report.best.map(|m| m.to_notation(&legal)),
        score: report.score,
        proven: report.proven.map(|p| ProvenJson {
            winner: p.winner.name(),
            plies: p.plies,
        }),
        pv,
        depth: report.depth,
        nodes: report.nodes,
        nps: if secs > 0.0 {
            (report.nodes as f64 / secs).round()
        } else {
            0.0
        },
        ms: (secs * 1000.0).round(),
        to_move: game.position().to_move().name(),
        tablebase: tablebase_json(game),
    })
}
