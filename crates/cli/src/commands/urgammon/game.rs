//! `agon urgammon …`: the state after a record, terminal match play, replays.

use crate::console::ReplayStep;
use agon_ai::urgammon::player::Decision;
use agon_ai::urgammon::{analyze, decide, level_spec, Payoff};
use agon_ai::Rng;
use anyhow::{bail, Result};
use std::io::{BufRead, Write};
use urgammon::{Game, House, Kind, Match, MatchSettings, Phase, Side, State, Token};

/// A record is a game (tokens on one line) or a match (a header line, then a
/// line per game). Either way, parse it into a match so one code path serves.
pub fn load_record(text: &str) -> Result<Match> {
    Ok(load_saved(text)?.0)
}

/// A saved record (game tokens or a match record, maybe ending with
/// `resign:SIDE`, as the web app's download writes it): the match, and the
/// side that resigned it.
pub fn load_saved(text: &str) -> Result<(Match, Option<Side>)> {
    load_saved_as(
        text,
        MatchSettings {
            to: 99,
            ..MatchSettings::default()
        },
    )
}

/// [`load_saved`], with the settings of the match a bare game record (no
/// header line) is the first game of.
pub fn load_saved_as(text: &str, bare: MatchSettings) -> Result<(Match, Option<Side>)> {
    let saved = agon_views::Saved::split(text);
    let resigned = saved.urgammon_side().map_err(anyhow::Error::msg)?;
    let text = saved.record.trim();
    if text.starts_with("urgammon") {
        let m = Match::parse(text).map_err(|e| anyhow::anyhow!("{e}"))?;
        return Ok((m, resigned));
    }
    // A single game: the first game of a match (by default one with no
    // target to reach).
    let mut m = Match::new(bare);
    for (index, token) in text.split_whitespace().enumerate() {
        if let Err(reason) = m.apply_text(token) {
            bail!("token {index} ('{token}'): {reason}");
        }
    }
    Ok((m, resigned))
}

/// `agon urgammon legal`: the state after the record; with a match record, the
/// match score too.
pub fn legal_json(m: &Match, is_match: bool) -> LegalJson {
    LegalJson {
        state: agon_views::UrgammonState::of(m.current().state()),
        match_: is_match.then(|| agon_views::MatchView::of(m)),
    }
}

/// `agon urgammon legal`'s report: the state, and the match for a match record.
#[derive(serde::Serialize)]
pub struct LegalJson {
    /// The current game's state.
    #[serde(flatten)]
    pub state: agon_views::UrgammonState,
    /// The match, for a match record.
    #[serde(rename = "match", skip_serializing_if = "Option::is_none")]
    pub match_: Option<agon_views::MatchView>,
}

/// Draws the board: the 3 × 8 grid of houses (rosettes in brackets), pieces as
/// `lP`/`dC` (light pawn, dark chariot…), then each side's waiting area and
/// palace by piece type, and its steps still to go (the race count).
pub fn draw(state: &State) -> String {
    let pos = state.position();
    let mut grid = [[None::<House>; 8]; 3];
    for h in House::ALL {
        let (r, c) = h.grid();
        grid[r as usize][c as usize] = Some(h);
    }
    let mut s = String::from("Urgammon\n       ");
    for c in 1..=8 {
        s.push_str(&format!("{c:^7}"));
    }
    s.push('\n');
    for (r, row) in grid.iter().enumerate() {
        let mut names = format!("  {}    ", ["A", "M", "B"][r]);
        let mut pieces = String::from("       ");
        for cell in row {
            match cell {
                Some(h) => {
                    let name = if h.is_rosette() {
                        format!("[{h}]")
                    } else {
                        h.to_string()
                    };
                    names.push_str(&format!("{name:^7}"));
                    let p = match pos.at(*h) {
                        Some((side, kind)) => {
                            format!(
                                "{}{}",
                                if side == Side::Light { 'l' } else { 'd' },
                                kind.letter()
                            )
                        }
                        None => "·".into(),
                    };
                    pieces.push_str(&format!("{p:^7}"));
                }
                None => {
                    names.push_str("       ");
                    pieces.push_str("       ");
                }
            }
        }
        s.push_str(names.trim_end());
        s.push('\n');
        s.push_str(pieces.trim_end());
        s.push('\n');
    }
    for side in Side::ALL {
        let a = pos.army(side);
        let counts = |f: &dyn Fn(Kind) -> u8| {
            Kind::ALL
                .iter()
                .map(|&k| format!("{}{}", k.letter(), f(k)))
                .collect::<Vec<_>>()
                .join(" ")
        };
        s.push_str(&format!(
            "  {:<5}  waiting: {}   palace: {}   to go: {}\n",
            side.name(),
            counts(&|k| a.waiting(k)),
            counts(&|k| a.palace(k)),
            a.pips(),
        ));
    }
    s
}

fn describe_result(state: &State) -> String {
    match state.result() {
        Some(r) => match r.winner {
            Some(w) => format!(
                "{} wins {} point{} ({}).",
                w.name(),
                r.points,
                if r.points == 1 { "" } else { "s" },
                match r.kind {
                    urgammon::ResultKind::Babylon => "Babylon",
                    urgammon::ResultKind::Waiting => "dogs in the waiting area",
                    urgammon::ResultKind::Streets => "dogs in the streets",
                    _ => "a plain win",
                }
            ),
            None => "The game is drawn: both finished.".into(),
        },
        None => String::new(),
    }
}

const PLAY_HELP: &str = "Type a move by number or in notation (P-2a, 2a-3a, Cx6, 13b-off); \
'v' rolls the verdict die when you may; 'hint' shows the engine's analysis; \
also: moves, record, help, quit.";

/// The engine's seat in a terminal match.
#[derive(Clone, Copy, Debug)]
pub struct EngineSeat {
    /// Its level, 1–10.
    pub level: agon_ai::Level,
    /// The side it plays.
    pub side: Side,
}

/// The payoff in force in a match: match-winning chances at its score.
fn match_payoff(m: &Match) -> Payoff {
    agon_ai::urgammon::MatchContext::of(m).payoff()
}

/// The engine's hint: its best options with their values for the side to act.
fn hint(m: &Match) -> String {
    let state = m.current().state();
    let side = state.to_act().unwrap_or(Side::Light);
    let payoff = match_payoff(m);
    let a = analyze(state, agon_ai::Level::MAX, payoff);
    let mut s = format!("Engine analysis (level 10, {} plies):\n", a.plies);
    for c in a.options.iter().take(6) {
        let seen = c.outcomes.seen_by(side);
        s.push_str(&format!(
            "  {:<10} match-winning chance {:5.1}%  win {:5.1}%  points {:+.3}\n",
            c.decision.notation(side),
            100.0 * payoff.value(&c.outcomes, side),
            100.0 * seen.win(),
            seen.equity()
        ));
    }
    s
}

/// `agon urgammon play`: two people play a match at this terminal, or one
/// plays the engine (`engine`), from the start or from a saved match `m`.
/// The program rolls every die; the players choose moves and whether to risk
/// the verdict die.
pub fn play(
    mut m: Match,
    engine: Option<EngineSeat>,
    rng: &mut Rng,
    input: &mut dyn BufRead,
    out: &mut dyn Write,
) -> Result<()> {
    let settings = *m.settings();
    writeln!(out, "A match to {} points. {PLAY_HELP}", settings.to)?;
    if let Some(e) = engine {
        writeln!(
            out,
            "You play {}; the engine (level {}) plays {}.",
            e.side.other().name(),
            e.level,
            e.side.name()
        )?;
    }
    let mut engine_rng = agon_ai::Rng::new(rng.next_u64());
    let mut line = String::new();
    let mut shown_game = usize::MAX;
    loop {
        if let Some(r) = m.result() {
            writeln!(out, "{}", describe_result(m.current().state()))?;
            writeln!(out, "{}", match_over(&r))?;
            match (r.winner, r.payout) {
                (Some(w), Some(p)) => writeln!(
                    out,
                    "{} wins the match; {} pays {p}.",
                    w.name(),
                    w.other().name()
                )?,
                (Some(w), None) => writeln!(out, "{} wins the match.", w.name())?,
                (None, _) => writeln!(out, "The match ends as a draw.")?,
            }
            writeln!(out, "Record:\n{}", m.record())?;
            return Ok(());
        }
        // A finished game stays current until the next one starts: announce its
        // result and the next game once.
        let next_game = m.finished().len() + usize::from(m.between_games());
        if next_game != shown_game {
            if m.between_games() {
                writeln!(out, "{}", describe_result(m.current().state()))?;
            }
            shown_game = next_game;
            writeln!(
                out,
                "\n=== Game {} — score light {} : dark {} (to {}) ===",
                shown_game + 1,
                m.score()[Side::Light],
                m.score()[Side::Dark],
                settings.to
            )?;
        }
        let state = m.next_state();
        let token = match state.phase() {
            Phase::Opening => {
                let (l, d) = (rng.chance(), rng.chance());
                writeln!(
                    out,
                    "Opening roll: light {l}, dark {d}{}",
                    if l == d { " — a tie, roll again" } else { "" }
                )?;
                Token::Start(l, d)
            }
            Phase::Roll => {
                let c = rng.chance();
                let side = state.to_act().map_or("", Side::name);
                writeln!(
                    out,
                    "{}\n{side} rolls {c}{}",
                    draw(&state),
                    if state.last_turn() {
                        " (last turn)"
                    } else {
                        ""
                    }
                )?;
                Token::Roll(c)
            }
            Phase::Verdict => {
                let yes = rng.verdict();
                writeln!(
                    out,
                    "No move with {}: the verdict die must be rolled… {}",
                    state.chance().unwrap_or(0),
                    if yes { "YES" } else { "NO" }
                )?;
                Token::Verdict(yes)
            }
            Phase::Decide | Phase::Move
                if engine.is_some_and(|e| Some(e.side) == state.to_act()) =>
            {
                let e = engine.map_or(agon_ai::Level::MAX, |e| e.level);
                let side = state.to_act().unwrap_or(Side::Light);
                let spec = level_spec(e);
                match decide(&state, spec, match_payoff(&m), &mut engine_rng) {
                    Some(Decision::Move(mv)) => {
                        writeln!(out, "{} (engine) plays {}", side.name(), mv.notation(side))?;
                        Token::Move(mv)
                    }
                    _ => {
                        let yes = rng.verdict();
                        writeln!(
                            out,
                            "{} (engine) rolls the verdict die… {}",
                            side.name(),
                            if yes { "YES" } else { "NO: the turn ends" }
                        )?;
                        Token::Verdict(yes)
                    }
                }
            }
            Phase::Decide | Phase::Move => {
                let side = state.to_act().unwrap_or(Side::Light);
                let moves = state.moves();
                let texts: Vec<String> = moves.iter().map(|mv| mv.notation(side)).collect();
                for (i, t) in texts.iter().enumerate() {
                    write!(out, "  {}) {t}", i + 1)?;
                }
                if state.phase() == Phase::Decide {
                    let p: Vec<String> = state
                        .promoted_moves()
                        .iter()
                        .map(|mv| mv.notation(side))
                        .collect();
                    write!(out, "  v) verdict die (YES allows {})", p.join(" "))?;
                }
                writeln!(out)?;
                write!(out, "{} [{}]> ", side.name(), state.value().unwrap_or(0))?;
                out.flush()?;
                line.clear();
                if input.read_line(&mut line)? == 0 {
                    writeln!(
                        out,
                        "\nEnd of input; the match is left unfinished.\nRecord:\n{}",
                        m.record()
                    )?;
                    return Ok(());
                }
                let text = line.trim();
                match text {
                    "" => continue,
                    "quit" | "exit" => {
                        writeln!(out, "Record:\n{}", m.record())?;
                        return Ok(());
                    }
                    "help" | "?" => {
                        writeln!(out, "{PLAY_HELP}")?;
                        continue;
                    }
                    "record" => {
                        writeln!(out, "{}", m.record())?;
                        continue;
                    }
                    // The loop shows the numbered moves again.
                    "moves" => continue,
                    "hint" => {
                        write!(out, "{}", hint(&m))?;
                        continue;
                    }
                    "v" | "verdict" if state.phase() == Phase::Decide => {
                        let yes = rng.verdict();
                        writeln!(
                            out,
                            "The verdict die says {}",
                            if yes { "YES" } else { "NO: the turn ends" }
                        )?;
                        Token::Verdict(yes)
                    }
                    "v" | "verdict" => {
                        writeln!(out, "The verdict die may not be rolled now.")?;
                        continue;
                    }
                    // The chance die is rolled for the player; "roll" read as a
                    // bad roll token said "a chance roll is r1, r2, r3 or r4",
                    // as if the player should choose the die.
                    "roll" | "r" => {
                        writeln!(out, "Dice are rolled by the program; type a move.")?;
                        continue;
                    }
                    // Every move has a digit (a house or a die); a word without
                    // one (but `v+`, `v-`) is a command this prompt does not know.
                    text if !text.starts_with('v')
                        && !text.contains(|c: char| c.is_ascii_digit()) =>
                    {
                        writeln!(out, "Unknown command '{text}'. {PLAY_HELP}")?;
                        continue;
                    }
                    _ => {
                        if let Some(mv) = text
                            .parse::<usize>()
                            .ok()
                            .and_then(|n| n.checked_sub(1))
                            .and_then(|i| moves.get(i))
                        {
                            Token::Move(*mv)
                        } else {
                            match urgammon::TokenText::parse(text).and_then(|t| t.resolve(&state)) {
                                Ok(t @ Token::Move(_)) => t,
                                Ok(_) => {
                                    writeln!(out, "Dice are rolled by the program; type a move.")?;
                                    continue;
                                }
                                Err(e) => {
                                    writeln!(out, "Illegal: {e}")?;
                                    continue;
                                }
                            }
                        }
                    }
                }
            }
            // An ended game is replaced by the next one at once, or the match is over.
            Phase::Over => bail!("internal error: the current game is over"),
        };
        if let Err(e) = m.apply(token) {
            writeln!(out, "Illegal: {e}")?;
        }
    }
}

/// `agon urgammon replay`: steps through a game or match record. Commands, one
/// per line: Enter or `n` next, `b` back, a number jumps to that token, `q` quits.
/// With `all`, prints every step without waiting.
pub fn replay(record: &str, all: bool, input: &mut dyn BufRead, out: &mut dyn Write) -> Result<()> {
    let (m, resigned) = load_saved(record)?;
    let games: Vec<&Game> = m
        .finished()
        .iter()
        .chain(std::iter::once(m.current()))
        .collect();
    for (gi, game) in games.iter().enumerate() {
        let n = game.tokens().len();
        writeln!(
            out,
            "=== Game {} of {} ({n} tokens) ===",
            gi + 1,
            games.len()
        )?;
        let mut at = 0usize;
        loop {
            let view = game.truncated(at);
            let last = if at == 0 {
                "(start)".to_string()
            } else {
                game.token_texts()[at - 1].clone()
            };
            writeln!(out, "--- token {at}/{n}: {last}\n{}", draw(view.state()))?;
            if view.is_over() {
                writeln!(out, "{}", describe_result(view.state()))?;
            }
            if all {
                if at == n {
                    break;
                }
                at += 1;
                continue;
            }
            match crate::console::replay_step(at, n, input, out)? {
                ReplayStep::Show(k) => at = k,
                ReplayStep::Past => break,
                ReplayStep::Quit => return Ok(()),
            }
        }
    }
    if let Some(side) = resigned {
        writeln!(
            out,
            "Match over: {} resigned; {} wins the match.",
            side.name(),
            side.other().name()
        )?;
    } else if let Some(r) = m.result() {
        writeln!(out, "{}", match_over(&r))?;
    }
    Ok(())
}

/// The final score line of a match.
fn match_over(r: &urgammon::MatchResult) -> String {
    format!(
        "Match over: light {} – dark {}.",
        r.score[Side::Light],
        r.score[Side::Dark]
    )
}
