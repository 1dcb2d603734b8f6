//! `agon serve`: the web app; `agon worker`: its engine workers.

use crate::cli::*;
use anyhow::Result;

/// `agon serve`: the web app.
pub(crate) fn run(args: ServeArgs, log_format: LogFormat) -> Result<()> {
    let tables = args
        .tablebases
        .clone()
        .unwrap_or_else(|| args.data.join("tablebases"));
    announce_tablebases(&tables);
    agon_ai::urgammon::endings::install(tables.clone());
    agon_ai::ringo::tablebase::install(tables);
    // The schedule is read and checked before serving: a mistake stops
    // the start, saying which line.
    let schedule = match &args.tournaments {
        Some(path) => {
            let text = std::fs::read_to_string(path)
                .map_err(|e| anyhow::anyhow!("--tournaments {}: {e}", path.display()))?;
            let entries = agon_server::tournaments::schedule::parse(&text)
                .map_err(|e| anyhow::anyhow!("--tournaments {}: {e}", path.display()))?;
            eprintln!(
                "Tournament schedule: {} entries from {}",
                entries.len(),
                path.display()
            );
            text
        }
        None => String::new(),
    };
    let mut config = args.config();
    config.options.tournament_schedule = schedule;
    config.json_banner = matches!(log_format, LogFormat::Json);
    let runtime = tokio::runtime::Runtime::new()?;
    runtime
        .block_on(agon_server::serve(config))
        .map_err(|e| anyhow::anyhow!("{e}"))
}

/// `agon backup`: copies the instance's database while it serves.
pub(crate) fn backup(args: &BackupArgs) -> Result<()> {
    let db = args.data.join("agon.db");
    eprintln!("Backing up {} to {} …", db.display(), args.file.display());
    let copied =
        agon_server::store::backup_sqlite(&db, &args.file).map_err(|e| anyhow::anyhow!("{e}"))?;
    println!(
        "Backed up {} pages ({:.1} MiB) to {} in {:.2} s; the copy checks out. To restore: put it in an empty data directory as agon.db and start agon serve there.",
        copied.pages,
        copied.bytes as f64 / (1024.0 * 1024.0),
        args.file.display(),
        copied.took.as_secs_f64()
    );
    Ok(())
}

/// `agon migrate`: the schema brought up to date, then exit.
pub(crate) fn migrate(args: &MigrateArgs) -> Result<()> {
    let runtime = tokio::runtime::Runtime::new()?;
    let said = runtime.block_on(async {
        match &args.database {
            Some(url) => agon_server::store::Store::connect(url)
                .await
                .map(|_| "the PostgreSQL database".to_string())
                .map_err(|e| anyhow::anyhow!("{e}")),
            None => agon_server::store::Store::open(&args.data)
                .map(|_| args.data.join("agon.db").display().to_string())
                .map_err(|e| anyhow::anyhow!("{e}")),
        }
    })?;
    println!("The schema of {said} is up to date.");
    Ok(())
}

/// `agon mod grant NAME`: makes an account a moderator, in the database a
/// serving instance uses (SQLite takes the write beside the server; the
/// server reads the role from the database at each request).
pub(crate) fn grant(args: &GrantArgs) -> Result<()> {
    let runtime = tokio::runtime::Runtime::new()?;
    let new = runtime.block_on(async {
        let store = match &args.database {
            Some(url) => agon_server::store::Store::connect(url)
                .await
                .map_err(|e| anyhow::anyhow!("{e}"))?,
            None => {
                agon_server::store::Store::open(&args.data).map_err(|e| anyhow::anyhow!("{e}"))?
            }
        };
        agon_server::safety::Safety::new(store)
            .grant_from_command_line(&args.name)
            .await
            .map_err(|e| anyhow::anyhow!("{e}"))
    })?;
    if new {
        println!("{} is a moderator now.", args.name);
    } else {
        println!("{} was a moderator already.", args.name);
    }
    Ok(())
}

/// `agon worker`: takes engine jobs from the shared database.
pub(crate) fn worker(args: WorkerArgs) -> Result<()> {
    announce_tablebases(&args.tablebases);
    agon_ai::urgammon::endings::install(args.tablebases.clone());
    agon_ai::ringo::tablebase::install(args.tablebases.clone());
    let config = args.config();
    let runtime = tokio::runtime::Runtime::new()?;
    runtime
        .block_on(agon_server::worker::run(config))
        .map_err(|e| anyhow::anyhow!("{e}"))
}

/// Says at start where the engine looks for Ringo endgame tables and how many
/// it found, so that a server without them (proven endgames missing from
/// analysis and review) says why and what to run. The tables themselves are
/// read when a game of their rules first needs them.
fn announce_tablebases(dir: &std::path::Path) {
    let names: Vec<String> = std::fs::read_dir(dir)
        .map(|entries| {
            entries
                .filter_map(|e| e.ok())
                .filter(|e| e.path().extension().is_some_and(|x| x == "tb"))
                .map(|e| e.file_name().to_string_lossy().into_owned())
                .collect()
        })
        .unwrap_or_default();
    let ringo = names.iter().filter(|n| n.starts_with("ringo-")).count();
    let urgammon = names.iter().filter(|n| n.starts_with("urgammon-")).count();
    if ringo > 0 {
        tracing::info!(dir = %dir.display(), tables = ringo, "Ringo endgame tablebases found");
    } else {
        tracing::info!(
            dir = %dir.display(),
            "no Ringo endgame tablebases here, so endgames are searched, not proven; \
             build them with `agon ringo tablebase build --rules classic --attackers 3 \
             --defenders 2 --dir {}`",
            dir.display()
        );
    }
    if urgammon > 0 {
        tracing::info!(dir = %dir.display(), classes = urgammon, "Urgammon endings found");
    } else {
        tracing::info!(
            dir = %dir.display(),
            "no Urgammon endings here, so endings are exact only where every line ends \
             within a few rolls; build them with `agon urgammon endings build --dir {}`",
            dir.display()
        );
    }
}
