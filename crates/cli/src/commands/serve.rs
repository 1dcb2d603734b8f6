//! `agon serve`: the web app; `agon worker`: its engine workers.

use crate::cli::*;
use anyhow::Result;

/// `agon serve`: the web app.
pub(crate) fn run(args: ServeArgs) -> Result<()> {
    let tables = args
        .tablebases
        .clone()
        .unwrap_or_else(|| args.data.join("tablebases"));
    agon_ai::ringo::tablebase::install(tables);
    let config = args.config();
    let runtime = tokio::runtime::Runtime::new()?;
    runtime
        .block_on(agon_server::serve(config))
        .map_err(|e| anyhow::anyhow!("{e}"))
}

/// `agon worker`: takes engine jobs from the shared database.
pub(crate) fn worker(args: WorkerArgs) -> Result<()> {
    agon_ai::ringo::tablebase::install(args.tablebases.clone());
    let config = args.config();
    let runtime = tokio::runtime::Runtime::new()?;
    runtime
        .block_on(agon_server::worker::run(config))
        .map_err(|e| anyhow::anyhow!("{e}"))
}
