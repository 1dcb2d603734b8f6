//! `agon engine`: the engine protocol on stdin and stdout.

mod protocol;

use anyhow::Result;

/// `agon engine`: the engine protocol on stdin and stdout.
pub(crate) fn run() -> Result<()> {
    protocol::run(&mut std::io::stdin().lock(), Box::new(std::io::stdout()))
}
