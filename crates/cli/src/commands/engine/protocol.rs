//! `agon engine`: a line-based engine protocol on stdin and stdout, in the
//! spirit of UCI, so other programs and GUIs can drive the engine. The protocol
//! is documented in docs/engine-protocol.md.
//!
//! Searches run on their own thread, so `stop` and `isready` are answered while
//! the engine thinks. Every malformed command gets an `error …` line; nothing a
//! client sends can crash the engine.

use agon_ai::ringo::search::{level_play, Limits, Report, Searcher};
use std::io::{BufRead, Write};
use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::{Arc, Mutex};
use std::thread::JoinHandle;

/// The game the engine is set up for.
enum Setup {
    Ringo(ringo::Game),
    Urgammon(urgammon::Game),
}

/// Writes whole lines to the shared output.
#[derive(Clone)]
struct Out(Arc<Mutex<Box<dyn Write + Send>>>);

impl Out {
    fn line(&self, text: &str) {
        if let Ok(mut w) = self.0.lock() {
            let _ = writeln!(w, "{text}");
            let _ = w.flush();
        }
    }
}

struct Engine {
    setup: Setup,
    rules: ringo::Rules,
    /// The match an Urgammon decision is for, if any.
    urgammon_match: Option<crate::commands::urgammon::analysis::MatchContext>,
    out: Out,
    /// The running search: its thread, its stop flag, and a flag it sets just
    /// before it prints `bestmove`, so a client that has read `bestmove` is never
    /// told the engine is busy.
    search: Option<(JoinHandle<()>, Arc<AtomicBool>, Arc<AtomicBool>)>,
}

const HELP: &str = "commands: agon, isready, game ringo|urgammon, rules RULES, \
position start|POSITION [moves M...], record TOKENS, match TO L-D [replay|end]|off, legal, \
go [depth D] [nodes N] [movetime MS] [level L] [seed S] [infinite], stop, quit";

impl Engine {
    fn finish_search(&mut self) {
        if let Some((handle, stop, _)) = self.search.take() {
            stop.store(true, Ordering::Relaxed);
            let _ = handle.join();
        }
    }

    fn busy(&mut self) -> bool {
        match &self.search {
            Some((_, _, reported)) if !reported.load(Ordering::Acquire) => true,
            Some(_) => {
                self.finish_search();
                false
            }
            None => false,
        }
    }

    /// Handles one command line. Returns false on `quit`.
    fn command(&mut self, line: &str) -> bool {
        let mut words = line.split_whitespace();
        let Some(cmd) = words.next() else { return true };
        let rest: Vec<&str> = words.collect();
        let result = match cmd {
            "quit" => {
                self.finish_search();
                return false;
            }
            "agon" => {
                self.out
                    .line(&format!("id name Agon {}", env!("CARGO_PKG_VERSION")));
                self.out.line("protocol 1");
                Ok("agonok".to_string())
            }
            "isready" => Ok("readyok".to_string()),
            "help" => Ok(HELP.to_string()),
            "stop" => {
                self.finish_search();
                return true;
            }
            "legal" => Ok(self.legal()),
            "game" | "rules" | "position" | "record" | "go" if self.busy() => {
                Err(format!("busy thinking: send stop before '{cmd}'"))
            }
            "game" => self.game(&rest),
            "rules" => self.set_rules(&rest),
            "position" => self.position(&rest),
            "record" => self.record(&rest),
            "match" => self.set_match(&rest),
            "go" => self.go(&rest),
            other => Err(format!("unknown command '{other}'; {HELP}")),
        };
        match result {
            Ok(text) if !text.is_empty() => self.out.line(&text),
            Ok(_) => {}
            Err(e) => self.out.line(&format!("error {e}")),
        }
        true
    }

    fn game(&mut self, args: &[&str]) -> Result<String, String> {
        self.setup = match args {
            ["ringo"] => Setup::Ringo(ringo::Game::new(self.rules)),
            ["urgammon"] => Setup::Urgammon(urgammon::Game::new()),
            _ => return Err("usage: game ringo|urgammon".into()),
        };
        Ok("ok".into())
    }

    fn set_rules(&mut self, args: &[&str]) -> Result<String, String> {
        let [text] = args else {
            return Err("usage: rules PRESET[,key=value]...".into());
        };
        self.rules = text.parse().map_err(|e: ringo::RulesError| e.to_string())?;
        self.setup = Setup::Ringo(ringo::Game::new(self.rules));
        Ok("ok".into())
    }

    fn position(&mut self, args: &[&str]) -> Result<String, String> {
        let split = args
            .iter()
            .position(|w| *w == "moves")
            .unwrap_or(args.len());
        let (pos, moves) = (&args[..split], args.get(split + 1..).unwrap_or(&[]));
        let position = match pos {
            ["start"] => None,
            [a, b, c] => Some(format!("{a} {b} {c}")),
            _ => return Err("usage: position start|RINGS FORTRESS SIDE [moves M...]".into()),
        };
        let game = ringo::Game::from_moves(self.rules, position.as_deref(), moves.iter().copied())
            .map_err(|e| e.to_string())?;
        self.setup = Setup::Ringo(game);
        Ok("ok".into())
    }

    fn record(&mut self, args: &[&str]) -> Result<String, String> {
        let game = urgammon::Game::parse(&args.join(" ")).map_err(|e| e.to_string())?;
        self.setup = Setup::Urgammon(game);
        Ok("ok".into())
    }

    fn legal(&self) -> String {
        match &self.setup {
            Setup::Ringo(g) => format!("legal {}", g.legal_notations().join(" ")),
            Setup::Urgammon(g) => {
                let s = g.state();
                let side = s.to_act().unwrap_or(urgammon::Side::Light);
                let mut v: Vec<String> = s.moves().iter().map(|m| m.notation(side)).collect();
                v.sort();
                format!("legal phase {} {}", s.phase().name(), v.join(" "))
            }
        }
    }

    /// `match TO L-D [replay|end]` or `match off`: the match an Urgammon
    /// decision is for (match-winning chance instead of points).
    fn set_match(&mut self, args: &[&str]) -> Result<String, String> {
        let usage = || "usage: match TO L-D [replay|end] | match off".to_string();
        self.urgammon_match = match args {
            ["off"] => None,
            [to, score, rest @ ..] if rest.len() <= 1 => {
                let to: u32 = to
                    .parse()
                    .ok()
                    .filter(|t| (1..=99).contains(t))
                    .ok_or_else(usage)?;
                let (l, d) = score
                    .split_once('-')
                    .and_then(|(l, d)| Some((l.parse::<u32>().ok()?, d.parse::<u32>().ok()?)))
                    .ok_or_else(usage)?;
                if l >= to || d >= to {
                    return Err(format!("the score {l}-{d} has already reached {to}"));
                }
                let draw = match rest {
                    [] | ["replay"] => urgammon::DrawRule::Replay,
                    ["end"] => urgammon::DrawRule::End,
                    _ => return Err(usage()),
                };
                Some(crate::commands::urgammon::analysis::MatchContext {
                    to,
                    score: (l, d),
                    draw,
                })
            }
            _ => return Err(usage()),
        };
        Ok("ok".into())
    }

    /// `go [level L]` for Urgammon: the analysis as `info` lines, then the decision.
    fn go_urgammon(&self, game: &urgammon::Game, args: &[&str]) -> Result<String, String> {
        let level = match args {
            [] => agon_ai::Level::MAX,
            ["level", l] => l
                .parse::<agon_ai::Level>()
                .map_err(|_| format!("invalid value '{l}' for level"))?,
            _ => return Err("usage for Urgammon: go [level L]".into()),
        };
        let state = game.state();
        if state.phase() == urgammon::Phase::Over {
            return Err("the game is over".into());
        }
        let v =
            crate::commands::urgammon::analysis::analysis_json(state, level, self.urgammon_match);
        let mwc = |m: Option<f64>| m.map(|m| format!(" mwc {m}")).unwrap_or_default();
        for o in &v.options {
            self.out.line(&format!(
                "info option {} equity {} win {}{}",
                o.option,
                o.equity,
                o.win,
                mwc(o.mwc),
            ));
        }
        let dist: Vec<String> = agon_ai::urgammon::eval::OUTCOME_NAMES
            .iter()
            .map(|n| format!("{n} {}", v.outcomes.outcomes.get(n).copied().unwrap_or(0.0)))
            .collect();
        self.out.line(&format!(
            "info eval {} plies {} equity {} win {}{} {}",
            v.perspective,
            v.plies,
            v.equity,
            v.win,
            mwc(v.mwc),
            dist.join(" ")
        ));
        Ok(match v.best {
            Some(best) => format!("bestmove {best}"),
            None => "bestmove roll".into(),
        })
    }

    fn go(&mut self, args: &[&str]) -> Result<String, String> {
        if let Setup::Urgammon(game) = &self.setup {
            return self.go_urgammon(game, args);
        }
        let mut limits = Limits::default();
        let mut level: Option<agon_ai::Level> = None;
        let mut seed: Option<u64> = None;
        let mut it = args.iter();
        while let Some(&key) = it.next() {
            if key == "infinite" {
                continue;
            }
            let value = it.next().ok_or_else(|| format!("'{key}' needs a value"))?;
            let bad = || format!("invalid value '{value}' for {key}");
            match key {
                "depth" => {
                    limits.depth = Some(
                        value
                            .parse()
                            .ok()
                            .filter(|d| (1..=60).contains(d))
                            .ok_or_else(bad)?,
                    )
                }
                "nodes" => limits.nodes = Some(value.parse().map_err(|_| bad())?),
                "movetime" => {
                    limits.movetime = Some(std::time::Duration::from_millis(
                        value.parse().map_err(|_| bad())?,
                    ))
                }
                "level" => level = Some(value.parse().map_err(|_| bad())?),
                "seed" => seed = Some(value.parse().map_err(|_| bad())?),
                other => {
                    return Err(format!(
                        "unknown go option '{other}': use depth, nodes, movetime, level, seed, infinite"
                    ))
                }
            }
        }
        if seed.is_some() && level.is_none() {
            // A plain search is deterministic: a seed there would do nothing,
            // and a GUI that sent one should hear so rather than guess.
            return Err("'seed' goes with 'level L': only the levels' noise uses it".into());
        }
        match &self.setup {
            Setup::Ringo(game) => {
                if game.is_over() {
                    return Err(format!("the game is over ({})", game.status_name()));
                }
                let stop = Arc::new(AtomicBool::new(false));
                let reported = Arc::new(AtomicBool::new(false));
                limits.stop = Some(stop.clone());
                let (game, out, done) = (game.clone(), self.out.clone(), reported.clone());
                let handle = std::thread::spawn(move || {
                    let mut searcher = Searcher::new(*game.rules());
                    let best = match level {
                        // As the level plays in games: its noise, its depth
                        // or time, and at level 10 the reading of the
                        // opponent.
                        Some(level) => {
                            let seed = seed.unwrap_or_else(crate::rng::time_seed);
                            let play = level_play(&mut searcher, &game, level, seed, limits);
                            if let Some(r) = play.reading {
                                out.line(&format!(
                                    "info reading moves {} evidence {:.2} fallible {}",
                                    r.moves,
                                    r.evidence,
                                    r.fallible()
                                ));
                            }
                            if let Some(r) = &play.report {
                                report_lines(&out, &game, r);
                            }
                            play.best
                        }
                        None => {
                            let r = searcher.search_game(&game, limits);
                            report_lines(&out, &game, &r);
                            r.best
                        }
                    };
                    done.store(true, Ordering::Release);
                    out.line(&format!(
                        "bestmove {}",
                        best.map_or("none".into(), |m| m.to_notation(&game.legal_moves()))
                    ));
                });
                self.search = Some((handle, stop, reported));
                Ok(String::new())
            }
            // Handled by `go_urgammon` above.
            Setup::Urgammon(_) => Ok(String::new()),
        }
    }
}

/// Prints a Ringo search's `info` lines: depth, score, nodes, speed, time and
/// the principal variation, then the proven result when there is one.
fn report_lines(out: &Out, game: &ringo::Game, r: &Report) {
    let mut g = game.clone();
    let pv: Vec<String> =
        r.pv.iter()
            .map(|&m| {
                let t = m.to_notation(&g.legal_moves());
                g.play_unchecked(m);
                t
            })
            .collect();
    let nps = (r.nodes as f64 / r.elapsed.as_secs_f64().max(1e-9)).round();
    out.line(&format!(
        "info depth {} score {} nodes {} nps {nps} time {} pv {}",
        r.depth,
        r.score,
        r.nodes,
        r.elapsed.as_millis(),
        pv.join(" ")
    ));
    if let Some(p) = r.proven {
        out.line(&format!("info proven {} {}", p.winner.name(), p.plies));
    }
}

/// Runs the protocol until `quit` or the end of input.
pub fn run(input: &mut dyn BufRead, output: Box<dyn Write + Send>) -> anyhow::Result<()> {
    let rules = ringo::Rules::default();
    let mut engine = Engine {
        setup: Setup::Ringo(ringo::Game::new(rules)),
        rules,
        urgammon_match: None,
        out: Out(Arc::new(Mutex::new(output))),
        search: None,
    };
    let mut bytes = Vec::new();
    loop {
        bytes.clear();
        if input.read_until(b'\n', &mut bytes)? == 0 {
            // End of input: nobody can send `stop` any more, so stop a running
            // search now (it still reports its best move) and exit.
            engine.finish_search();
            return Ok(());
        }
        if bytes.len() > 4096 {
            engine.out.line("error line too long");
            continue;
        }
        // A line that is not UTF-8 is answered like any other bad line.
        let Ok(line) = std::str::from_utf8(&bytes) else {
            engine.out.line("error line is not UTF-8");
            continue;
        };
        if !engine.command(line.trim()) {
            return Ok(());
        }
    }
}
