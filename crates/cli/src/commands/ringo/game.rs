//! `agon ringo …`: legal moves, perft, the board drawing and terminal play.

use anyhow::{bail, Context, Result};
use ringo::{Cell, Game, Position, Rules, Side};
use serde::Serialize;
use std::collections::BTreeMap;
use std::io::{BufRead, Write};

/// Builds a game from the common `--rules`, `--position` and `--moves` options.
/// A bad move names its 0-based index, its text and the reason.
pub fn load(rules: &str, position: Option<&str>, moves: Option<&str>) -> Result<Game> {
    let rules: Rules = rules.parse().context("invalid --rules")?;
    let pos = match position {
        Some(text) => Position::parse(text, &rules).context("invalid --position")?,
        None => Position::start(&rules),
    };
    let mut game = Game::from_position(rules, pos);
    for (index, text) in moves.unwrap_or("").split_whitespace().enumerate() {
        if let Err(e) = game.play_text(text) {
            bail!("move at index {index}: {e}");
        }
    }
    Ok(game)
}

/// The JSON object of `agon ringo legal` (with the extra fields the web app uses).
pub fn legal_json(game: &Game) -> agon_views::RingoGame {
    agon_views::RingoGame::of(game)
}

/// `agon ringo perft`'s report.
#[derive(Serialize)]
pub struct PerftJson {
    /// The rules.
    pub rules: String,
    /// The position.
    pub position: String,
    /// The depth.
    pub depth: u32,
    /// Leaf nodes at that depth.
    pub nodes: u64,
    /// Milliseconds taken.
    pub ms: f64,
    /// Nodes per second.
    pub nps: f64,
    /// With `--divide`: the leaves under each first move.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub divide: Option<BTreeMap<String, u64>>,
}

/// `agon ringo perft`: leaf nodes at exactly `depth`, with the time taken.
pub fn perft_json(game: &Game, depth: u32, divide: bool) -> PerftJson {
    let start = std::time::Instant::now();
    let nodes = ringo::perft(game, depth);
    let secs = start.elapsed().as_secs_f64();
    PerftJson {
        rules: game.rules().to_string(),
        position: game.position().to_text(game.rules().rings),
        depth,
        nodes,
        ms: (secs * 1000.0).round(),
        nps: if secs > 0.0 {
            (nodes as f64 / secs).round()
        } else {
            0.0
        },
        divide: divide.then(|| ringo::divide(game, depth).into_iter().collect()),
    }
}

/// Draws the board as rings × sectors: ring 6 at the top, the neutral zone (sector
/// a) in brackets, then the fortress and whose turn it is.
pub fn draw(game: &Game) -> String {
    let pos = game.position();
    let rules = game.rules();
    let mut s = String::new();
    s.push_str(&format!("Ringo — {rules}\n\n"));
    s.push_str(" ring ");
    for sector in b'a'..=b'h' {
        s.push_str(&format!(" {} ", sector as char));
    }
    s.push('\n');
    for ring in (1..=rules.rings).rev() {
        s.push_str(&format!("{ring:>4}  "));
        for sector in 0..8 {
            let cell = Cell::new(sector, ring).expect("on the board");
            let ch = match pos.piece_at(cell) {
                Some(Side::Attackers) => 'A',
                Some(Side::Defenders) => 'D',
                None if cell.is_light() => '.',
                None if cell.is_neutral() => ' ',
                None => ':',
            };
            // The neutral zone's column is bracketed.
            if sector == 0 {
                s.push_str(&format!("[{ch}]"));
            } else {
                s.push_str(&format!(" {ch} "));
            }
        }
        s.push('\n');
    }
    s.push_str("      NZ\n");
    let fortress = "A".repeat(pos.fortress() as usize) + &"·".repeat(2 - pos.fortress() as usize);
    s.push_str(&format!(
        "  F (fortress): [{fortress}]  {}/2 attackers\n",
        pos.fortress()
    ));
    s.push_str(&format!(
        "  attackers left {}, defenders left {}\n",
        pos.attackers_left(),
        pos.defenders_left()
    ));
    match game.outcome() {
        Some(o) => s.push_str(&format!(
            "  Game over: {} ({}).\n",
            match o.winner {
                Some(side) => format!("the {} win", side.name()),
                None => "a draw".into(),
            },
            o.reason.describe()
        )),
        None => s.push_str(&format!("  The {} are to move.\n", pos.to_move().name())),
    }
    s
}

const PLAY_HELP: &str =
    "Type a move (b6-b5, d3xd1, d2xa2(b2), pass), or: moves, hint, undo, record, help, quit.";

/// How long `hint` thinks: level 10's time for a move.
const HINT_MS: u64 = 1000;

/// `hint`: the engine's best move, its score and line for the side to move
/// (what `agon ringo analyze` prints, in words), as Urgammon's `hint` does.
fn hint(game: &Game) -> String {
    let limit = agon_ai::ringo::report::AnalyzeLimit {
        movetime: Some(HINT_MS),
        ..Default::default()
    };
    match agon_ai::ringo::report::analyze_json(game, limit) {
        Err(e) => format!("No hint: {e}."),
        Ok(a) => {
            let best = a.best.unwrap_or_else(|| "pass".into());
            let verdict = match &a.proven {
                Some(p) => format!(
                    "the {} win in {} {} (proven)",
                    p.winner,
                    p.plies,
                    if p.plies == 1 { "ply" } else { "plies" }
                ),
                None => format!("score {:+} for the {}", a.score, a.to_move),
            };
            format!(
                "Engine analysis ({} s, depth {}): best {best}; {verdict}.\n  Line: {}",
                HINT_MS / 1000,
                a.depth,
                a.pv.join(" ")
            )
        }
    }
}

/// `agon ringo play`: two people at one terminal. Reads one command per line,
/// so it also works with piped input; at the end of input it stops.
pub fn play(game: &mut Game, input: &mut dyn BufRead, out: &mut dyn Write) -> Result<()> {
    writeln!(out, "{}\n{PLAY_HELP}", draw(game))?;
    let mut line = String::new();
    loop {
        if game.is_over() {
            writeln!(out, "Record: {}", game.record())?;
            return Ok(());
        }
        write!(out, "{}> ", game.position().to_move().name())?;
        out.flush()?;
        line.clear();
        if input.read_line(&mut line)? == 0 {
            writeln!(
                out,
                "\nEnd of input; the game is left unfinished.\nRecord: {}",
                game.record()
            )?;
            return Ok(());
        }
        match line.trim() {
            "" => continue,
            "quit" | "exit" => {
                writeln!(out, "Record: {}", game.record())?;
                return Ok(());
            }
            "help" | "?" => writeln!(out, "{PLAY_HELP}")?,
            "moves" => writeln!(out, "{}", game.legal_notations().join(" "))?,
            "hint" => writeln!(out, "{}", hint(game))?,
            "record" => writeln!(out, "{}", game.record())?,
            "undo" => match game.undo() {
                Some(m) => writeln!(out, "Took back {m}.\n{}", draw(game))?,
                None => writeln!(out, "Nothing to take back.")?,
            },
            text => match game.play_text(text) {
                Ok(_) => writeln!(out, "{}", draw(game))?,
                Err(e) => writeln!(out, "Illegal: {e}")?,
            },
        }
    }
}

/// `agon ringo play --vs engine[:LEVEL]`: a person against the engine.
pub fn play_engine(
    game: &mut Game,
    level: agon_ai::Level,
    human: Side,
    input: &mut dyn BufRead,
    out: &mut dyn Write,
) -> Result<()> {
    let mut searcher = agon_ai::ringo::search::Searcher::new(*game.rules());
    writeln!(
        out,
        "You play the {} against the engine at level {level}.",
        human.name()
    )?;
    let mut seed = 1u64;
    loop {
        if !game.is_over() && game.position().to_move() != human {
            seed += 1;
            if let Some(m) =
                agon_ai::ringo::search::level_move(&mut searcher, game, level, seed, None)
            {
                let text = m.to_notation(&game.legal_moves());
                game.play_unchecked(m);
                writeln!(out, "The engine plays {text}.")?;
            }
            continue;
        }
        // The person's turn (or the end): the two-player loop handles one line.
        if !play_one(game, input, out)? {
            return Ok(());
        }
        // Undo in a game against the engine takes back the engine's reply too.
    }
}

/// Shows the board, reads one command and applies it. Returns false to stop.
fn play_one(game: &mut Game, input: &mut dyn BufRead, out: &mut dyn Write) -> Result<bool> {
    writeln!(out, "{}", draw(game))?;
    if game.is_over() {
        writeln!(out, "Record: {}", game.record())?;
        return Ok(false);
    }
    let mut line = String::new();
    loop {
        write!(out, "{}> ", game.position().to_move().name())?;
        out.flush()?;
        line.clear();
        if input.read_line(&mut line)? == 0 {
            writeln!(out, "\nEnd of input.\nRecord: {}", game.record())?;
            return Ok(false);
        }
        match line.trim() {
            "" => continue,
            "quit" | "exit" => {
                writeln!(out, "Record: {}", game.record())?;
                return Ok(false);
            }
            "help" | "?" => writeln!(out, "{PLAY_HELP}")?,
            "moves" => writeln!(out, "{}", game.legal_notations().join(" "))?,
            "hint" => writeln!(out, "{}", hint(game))?,
            "record" => writeln!(out, "{}", game.record())?,
            "undo" => {
                // Back to the person's previous turn: the engine's reply and the move.
                let me = game.position().to_move();
                while game.undo().is_some() && game.position().to_move() != me {}
                return Ok(true);
            }
            text => match game.play_text(text) {
                Ok(_) => return Ok(true),
                Err(e) => writeln!(out, "Illegal: {e}")?,
            },
        }
    }
}
