//! `agon engine`: the engine protocol on stdin and stdout.

use crate::engine_cmd;
use anyhow::Result;

/// `agon engine`: the engine protocol on stdin and stdout.
pub(crate) fn run() -> Result<()> {
    engine_cmd::run(&mut std::io::stdin().lock(), Box::new(std::io::stdout()))
}
