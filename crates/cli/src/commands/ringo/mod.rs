//! `agon ringo …`: legal moves, perft, the board, terminal play, analysis.

pub(crate) mod game;

use super::print_json;
use crate::cli::*;
use anyhow::Result;

/// `agon ringo …`: legal moves, perft, the board, terminal play, analysis.
pub(crate) fn run(cmd: RingoCmd) -> Result<()> {
    match cmd {
        RingoCmd::Legal { game } => print_json(&game::legal_json(&game.load()?)),
        RingoCmd::Perft {
            game,
            depth,
            divide,
        } => print_json(&game::perft_json(&game.load()?, depth, divide)),
        RingoCmd::Show { game } => {
            print!("{}", game::draw(&game.load()?));
            Ok(())
        }
        RingoCmd::Analyze {
            game,
            level,
            depth,
            nodes,
            movetime,
        } => {
            let limit = game::AnalyzeLimit {
                level,
                depth,
                nodes,
                movetime,
            };
            print_json(&game::analyze_json(&game.load()?, limit)?)
        }
        RingoCmd::Play {
            rules,
            position,
            vs,
            side,
        } => {
            let mut game = game::load(&rules, position.as_deref(), None)?;
            let (stdin, stdout) = (&mut std::io::stdin().lock(), &mut std::io::stdout());
            match vs.as_deref() {
                None => game::play(&mut game, stdin, stdout),
                Some(spec) => {
                    let level = parse_engine_spec(spec)?;
                    let human = ringo::Side::from(side);
                    game::play_engine(&mut game, level, human, stdin, stdout)
                }
            }
        }
    }
}
