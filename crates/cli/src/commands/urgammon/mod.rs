//! `agon urgammon …`: the state after a record, play, replays, analysis, rollouts, training.

pub(crate) mod analysis;
mod endings;
pub(crate) mod game;
mod train;

use crate::cli::*;
use crate::console::print_json;
use crate::rng;
use anyhow::Result;

/// `agon urgammon …`: the state after a record, play, replays, analysis, rollouts, training.
pub(crate) fn run(cmd: UrgammonCmd) -> Result<()> {
    // Analysis, review, rollouts and play read the endings where `agon
    // urgammon endings build` writes them by default; training and the
    // network's calibration do not, so that they measure and train the
    // network alone, the same on every machine.
    if !matches!(
        cmd,
        UrgammonCmd::Train { .. } | UrgammonCmd::Calibrate { .. }
    ) {
        agon_ai::urgammon::endings::install(TABLEBASES.into());
    }
    match cmd {
        UrgammonCmd::Endings { cmd } => endings::run(cmd),
        UrgammonCmd::Legal { record } => {
            let record = record.text()?;
            let m = game::load_record(&record)?;
            print_json(&game::legal_json(
                &m,
                record.trim_start().starts_with("urgammon"),
            ))
        }
        UrgammonCmd::Play {
            seed,
            to,
            draw,
            stake,
            vs,
            side,
            record,
        } => {
            let engine = match vs.as_deref() {
                None => None,
                Some(spec) => {
                    let level = parse_engine_spec(spec)?;
                    let human = urgammon::Side::from(side);
                    Some(game::EngineSeat {
                        level,
                        side: human.other(),
                    })
                }
            };
            let settings = urgammon::MatchSettings {
                to,
                draw: draw.into(),
                stake: stake
                    .map(|s| s.parse())
                    .transpose()
                    .map_err(anyhow::Error::msg)?,
            };
            // Checked before reading: the record would use up the typed moves.
            if crate::console::is_stdin(record.file.as_deref()) {
                anyhow::bail!("--file -: the moves are typed on standard input; give the record's file or --record");
            }
            // From the start, or on from a saved match (a bare game record is
            // the first game of a match with these settings).
            let m = if record.record.is_none() && record.file.is_none() {
                urgammon::Match::new(settings)
            } else {
                let (m, resigned) = game::load_saved_as(&record.text()?, settings)?;
                if let Some(side) = resigned {
                    anyhow::bail!(
                        "this match is over: {} resigned (replay it with `agon urgammon replay`)",
                        side.name()
                    );
                }
                m
            };
            let mut rng = agon_ai::Rng::new(seed.unwrap_or_else(rng::time_seed));
            game::play(
                m,
                engine,
                &mut rng,
                &mut std::io::stdin().lock(),
                &mut std::io::stdout(),
            )
        }
        UrgammonCmd::Analyze {
            record,
            level,
            match_to,
            score,
        } => {
            let record = record.text()?;
            let (m, ctx) = analysis::load_in_context(&record, match_to, score.as_deref())?;
            print_json(&analysis::analysis_json(m.current().state(), level, ctx))
        }
        UrgammonCmd::Rollout {
            record,
            games,
            level,
            match_to,
            score,
            threads,
            seed,
        } => {
            let record = record.text()?;
            let (m, ctx) = analysis::load_in_context(&record, match_to, score.as_deref())?;
            print_json(&analysis::rollout(
                m.current().state(),
                games,
                level,
                ctx,
                threads,
                seed,
            )?)
        }
        UrgammonCmd::Review { record, level } => {
            let record = record.text()?;
            if record.trim().is_empty() {
                anyhow::bail!("nothing to review: give the game with --record or --file");
            }
            let m = game::load_record(&record)?;
            let in_match = record.trim_start().starts_with("urgammon");
            let total: usize = m.finished().iter().map(|g| g.tokens().len()).sum::<usize>()
                + m.current().tokens().len();
            let progress = crate::progress::Progress::new(total as u64, "tokens reviewed");
            let review = agon_ai::urgammon::review::review(&m, in_match, level, &|done, _| {
                progress.set(done as u64, "")
            });
            progress.finish();
            print_json(&review.to_json())
        }
        UrgammonCmd::ReviewStudy {
            study:
                StudyArgs {
                    a,
                    b,
                    games,
                    threads,
                    seed,
                },
            level,
        } => {
            let a = crate::cli::parse_player(&a, "--a")?;
            let b = crate::cli::parse_player(&b, "--b")?;
            let progress = crate::progress::Progress::new(games as u64, "games reviewed");
            let study =
                agon_ai::urgammon::review::study((a, b), games, level, threads, seed, &|done| {
                    progress.set(done as u64, "")
                });
            progress.finish();
            print_json(&study)
        }
        UrgammonCmd::Calibrate {
            positions,
            rollouts,
            threads,
            seed,
        } => print_json(&analysis::calibrate(positions, rollouts, threads, seed)?),
        UrgammonCmd::Met { to, draw, json } => {
            let table = analysis::met(to, draw.into(), json)?;
            crate::console::print_out(&if json { table + "\n" } else { table })
        }
        UrgammonCmd::Train {
            games,
            out,
            resume,
            seed,
            lambda,
            lr,
            lr_decay,
            checkpoint_every,
            probe,
            log,
        } => {
            if !(0.0..=1.0).contains(&lambda) || lr <= 0.0 || lr_decay <= 0.0 {
                anyhow::bail!("--lambda must be 0 to 1; --lr and --lr-decay positive");
            }
            print_json(&train::train(&train::TrainArgs {
                games,
                out,
                resume,
                checkpoint_every: checkpoint_every.max(1),
                probe,
                log,
                config: agon_ai::urgammon::train::TrainConfig {
                    lambda,
                    lr,
                    lr_decay,
                    seed,
                },
            })?)
        }
        UrgammonCmd::Replay { record, all } => {
            let text = crate::console::read_file(&record)?;
            game::replay(
                &text,
                all || crate::console::is_stdin(Some(&record)),
                &mut std::io::stdin().lock(),
                &mut std::io::stdout(),
            )
        }
    }
}
