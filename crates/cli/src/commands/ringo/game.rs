//! `agon ringo …`: legal moves, perft, the board drawing and terminal play.

use crate::cli::RingoGameArgs;
use crate::console::ReplayStep;
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
    play_moves(&mut game, moves.unwrap_or(""))?;
    Ok(game)
}

/// Plays `--moves` (separated by spaces) on `game`; a bad move names its
/// 0-based index, its text and the reason.
fn play_moves(game: &mut Game, moves: &str) -> Result<()> {
    for (index, text) in moves.split_whitespace().enumerate() {
        if let Err(e) = game.play_text(text) {
            bail!("move at index {index}: {e}");
        }
    }
    Ok(())
}

/// Reads a saved record (rules, an optional start position, the moves and
/// maybe a last `resign:SIDE`, as the web app's download writes it), then
/// plays `moves` after it. Returns the game and the side that resigned.
pub fn load_saved(text: &str, moves: Option<&str>) -> Result<(Game, Option<Side>)> {
    let saved = agon_views::Saved::split(text);
    let resigned = saved.ringo_side().map_err(anyhow::Error::msg)?;
    let mut game = Game::parse_record(saved.record).context("invalid record")?;
    if let Some(moves) = moves {
        if resigned.is_some() {
            bail!("--moves: the record ends with a resignation");
        }
        play_moves(&mut game, moves)?;
    }
    Ok((game, resigned))
}

/// The line that says a game ended by resignation.
fn resigned_line(side: Side) -> String {
    format!(
        "  Game over: the {} resigned; the {} win.\n",
        side.name(),
        side.other().name()
    )
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
    draw_saved(game, None)
}

/// [`draw`], for a game that `resigned` may have ended: then its last line
/// says who resigned instead of whose turn it is.
pub fn draw_saved(game: &Game, resigned: Option<Side>) -> String {
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
    match (game.outcome(), resigned) {
        (None, Some(side)) => s.push_str(&resigned_line(side)),
        (Some(o), _) => s.push_str(&format!(
            "  Game over: {} ({}).\n",
            match o.winner {
                Some(side) => format!("the {} win", side.name()),
                None => "a draw".into(),
            },
            o.reason.describe()
        )),
        (None, None) => s.push_str(&format!("  The {} are to move.\n", pos.to_move().name())),
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

/// What one line typed at the move prompt did.
enum Typed {
    /// Stop playing.
    Quit,
    /// A move was played.
    Played,
    /// Moves were taken back.
    TookBack,
    /// Something was shown; the same side is still to move.
    Shown,
}

/// Acts on one line typed at the move prompt. Against the engine, `undo` goes
/// back to the person's previous turn: the engine's reply and the move.
fn typed(game: &mut Game, text: &str, vs_engine: bool, out: &mut dyn Write) -> Result<Typed> {
    match text {
        "quit" | "exit" => {
            writeln!(out, "Record: {}", game.record())?;
            return Ok(Typed::Quit);
        }
        "help" | "?" => writeln!(out, "{PLAY_HELP}")?,
        "moves" => writeln!(out, "{}", game.legal_notations().join(" "))?,
        "hint" => writeln!(out, "{}", hint(game))?,
        "record" => writeln!(out, "{}", game.record())?,
        "undo" => {
            let plies = if vs_engine { 2 } else { 1 };
            if game.ply() < plies {
                writeln!(out, "Nothing to take back.")?;
                return Ok(Typed::Shown);
            }
            let mut notations = game.move_notations();
            let taken = notations.split_off(notations.len() - plies);
            for _ in 0..plies {
                game.undo();
            }
            writeln!(out, "Took back {}.", taken.join(" "))?;
            return Ok(Typed::TookBack);
        }
        // Every move names a cell, and every cell but `F` has its ring's digit:
        // a word without one is a command this prompt does not know.
        text if text != "pass" && !text.contains(|c: char| c.is_ascii_digit()) => {
            writeln!(out, "Unknown command '{text}'. {PLAY_HELP}")?
        }
        text => match game.play_text(text) {
            Ok(_) => return Ok(Typed::Played),
            Err(e) => writeln!(out, "Illegal: {e}")?,
        },
    }
    Ok(Typed::Shown)
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
            text => match typed(game, text, false, out)? {
                Typed::Quit => return Ok(()),
                Typed::Played | Typed::TookBack => writeln!(out, "{}", draw(game))?,
                Typed::Shown => {}
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
        // The person's turn (or the end).
        if !play_one(game, input, out)? {
            return Ok(());
        }
    }
}

/// Shows the board, reads commands until a move or an undo. Returns false to stop.
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
            text => match typed(game, text, true, out)? {
                Typed::Quit => return Ok(false),
                Typed::Played | Typed::TookBack => return Ok(true),
                Typed::Shown => {}
            },
        }
    }
}

/// `agon ringo replay`: steps through a game, one ply at a time. Commands,
/// one per line: Enter or `n` next, `b` back, a number jumps to that ply, `q`
/// quits. With `all`, prints every ply without waiting.
pub fn replay(
    game: &Game,
    resigned: Option<Side>,
    all: bool,
    input: &mut dyn BufRead,
    out: &mut dyn Write,
) -> Result<()> {
    let moves = game.move_notations();
    let n = moves.len();
    let mut at = 0usize;
    loop {
        let view = Game::from_moves(
            *game.rules(),
            Some(&game.start_position().to_text(game.rules().rings)),
            moves[..at].iter().map(String::as_str),
        )
        .context("the game replays")?;
        let last = if at == 0 {
            "(start)"
        } else {
            moves[at - 1].as_str()
        };
        let resigned = resigned.filter(|_| at == n);
        writeln!(
            out,
            "--- ply {at}/{n}: {last}\n{}",
            draw_saved(&view, resigned)
        )?;
        if all {
            if at == n {
                return Ok(());
            }
            at += 1;
            continue;
        }
        match crate::console::replay_step(at, n, input, out)? {
            ReplayStep::Show(k) => at = k,
            ReplayStep::Past | ReplayStep::Quit => return Ok(()),
        }
    }
}

/// Loading a game from its flags: here, beside the loading itself (the
/// flags' types are in `cli`, which imports no command).
impl RingoGameArgs {
    /// The game these options set up.
    pub(crate) fn load(&self) -> Result<ringo::Game> {
        Ok(self.load_saved()?.0)
    }

    /// The game, and the side that resigned it when the record says so.
    pub(crate) fn load_saved(&self) -> Result<(ringo::Game, Option<ringo::Side>)> {
        let record = match (&self.record, &self.file) {
            (Some(text), _) => Some(text.clone()),
            (None, Some(path)) => Some(crate::console::read_file(path)?),
            (None, None) => None,
        };
        match record {
            Some(text) => load_saved(&text, self.moves.as_deref()),
            None => Ok((
                load(&self.rules, self.position.as_deref(), self.moves.as_deref())?,
                None,
            )),
        }
    }
}
