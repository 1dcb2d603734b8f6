//! `agon serve`: the web app.

use crate::cli::*;
use anyhow::Result;

/// `agon serve`: the web app.
pub(crate) fn run(args: ServeArgs) -> Result<()> {
    let config = args.config();
    let runtime = tokio::runtime::Runtime::new()?;
    runtime
        .block_on(agon_server::serve(config))
        .map_err(|e| anyhow::anyhow!("{e}"))
}
