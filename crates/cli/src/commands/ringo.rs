//! `agon ringo …`: legal moves, perft, the board, terminal play, analysis.

use super::print_json;
use crate::cli::*;
use crate::ringo_cmd;
use anyhow::Result;

/// `agon ringo …`: legal moves, perft, the board, terminal play, analysis.
pub(crate) fn run(cmd: RingoCmd) -> Result<()> {
    match cmd {
        RingoCmd::Legal { game } => print_json(&ringo_cmd::legal_json(&game.load()?)),
        RingoCmd::Perft {
            game,
            depth,
            divide,
        } => print_json(&ringo_cmd::perft_json(&game.load()?, depth, divide)),
        RingoCmd::Show { game } => {
            print!("{}", ringo_cmd::draw(&game.load()?));
            Ok(())
        }
        RingoCmd::Analyze {
            game,
            level,
            depth,
            nodes,
            movetime,
        } => {
            let limit = ringo_cmd::AnalyzeLimit {
                level,
                depth,
                nodes,
                movetime,
            };
            print_json(&ringo_cmd::analyze_json(&game.load()?, limit)?)
        }
        RingoCmd::Play {
            rules,
            position,
            vs,
            side,
        } => {
            let mut game = ringo_cmd::load(&rules, position.as_deref(), None)?;
            let (stdin, stdout) = (&mut std::io::stdin().lock(), &mut std::io::stdout());
            match vs.as_deref() {
                None => ringo_cmd::play(&mut game, stdin, stdout),
                Some(spec) => {
                    let level = parse_engine_spec(spec)?;
                    let human = ringo::Side::from(side);
                    ringo_cmd::play_engine(&mut game, level, human, stdin, stdout)
                }
            }
        }
    }
}
