//! `agon ringo …`: legal moves, perft, the board, terminal play, analysis.

pub(crate) mod game;
mod solve;

use crate::cli::*;
use crate::console::print_json;
use anyhow::{Context, Result};

/// `agon ringo …`: legal moves, perft, the board, terminal play, analysis.
pub(crate) fn run(cmd: RingoCmd) -> Result<()> {
    match cmd {
        RingoCmd::Review {
            game,
            depth,
            tablebases,
        } => {
            agon_ai::ringo::tablebase::install(tablebases);
            let game = game.load()?;
            let progress = crate::progress::Progress::new(game.ply() as u64, "plies reviewed");
            let review = agon_ai::ringo::review::review(&game, depth, &|done, _| {
                progress.set(done as u64, "")
            });
            progress.finish();
            print_json(&review.to_json())
        }
        RingoCmd::ReviewStudy {
            rules,
            study:
                StudyArgs {
                    a,
                    b,
                    games,
                    threads,
                    seed,
                },
            depth,
        } => {
            let rules: ringo::Rules = rules.parse().context("invalid --rules")?;
            let a = crate::cli::parse_player(&a, "--a")?;
            let b = crate::cli::parse_player(&b, "--b")?;
            let progress = crate::progress::Progress::new(games as u64, "games reviewed");
            let study = agon_ai::ringo::review::study(
                rules,
                (a, b),
                games,
                depth,
                threads,
                seed,
                &|done| progress.set(done as u64, ""),
            );
            progress.finish();
            print_json(&study)
        }
        RingoCmd::Solve {
            game,
            max_nodes,
            threads,
            tablebases,
        } => print_json(&solve::solve(
            &game.load()?,
            max_nodes,
            threads as usize,
            &tablebases,
        )?),
        RingoCmd::Tablebase { cmd } => solve::tablebase(cmd),
        RingoCmd::Legal { game } => print_json(&game::legal_json(&game.load()?)),
        RingoCmd::Perft {
            game,
            depth,
            divide,
        } => print_json(&game::perft_json(&game.load()?, depth, divide)),
        RingoCmd::Show { game } => {
            let (game, resigned) = game.load_saved()?;
            crate::console::print_out(&game::draw_saved(&game, resigned))
        }
        RingoCmd::Replay { game: args, all } => {
            let (game, resigned) = args.load_saved()?;
            game::replay(
                &game,
                resigned,
                all || crate::console::is_stdin(args.file.as_deref()),
                &mut std::io::stdin().lock(),
                &mut std::io::stdout(),
            )
        }
        RingoCmd::Analyze {
            game,
            level,
            depth,
            nodes,
            movetime,
            tablebases,
        } => {
            agon_ai::ringo::tablebase::install(tablebases);
            let limit = agon_ai::ringo::report::AnalyzeLimit {
                level,
                depth,
                nodes,
                movetime,
            };
            print_json(
                &agon_ai::ringo::report::analyze_json(&game.load()?, limit)
                    .map_err(anyhow::Error::msg)?,
            )
        }
        RingoCmd::Play {
            game: args,
            vs,
            side,
        } => {
            // Checked before reading: the record would use up the typed moves.
            if crate::console::is_stdin(args.file.as_deref()) {
                anyhow::bail!("--file -: the moves are typed on standard input; give the record's file or --record");
            }
            let (mut game, resigned) = args.load_saved()?;
            if let Some(side) = resigned {
                anyhow::bail!(
                    "this game is over: the {} resigned (replay it with `agon ringo replay`)",
                    side.name()
                );
            }
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
