//! What the commands share to read and print: records from files or
//! standard input, JSON and text on standard output (a closed pipe is an
//! error, not a panic), and the replay's prompt.

use crate::cli::UrgammonRecordArgs;
use anyhow::Result;
use std::io::Write;

/// Prints `text` on stdout as it is. Unlike `print!`, a reader that has
/// gone (`agon … | head`) is an error the caller returns, not a panic;
/// `main` ends quietly on it.
pub(crate) fn print_out(text: &str) -> Result<()> {
    let mut out = std::io::stdout().lock();
    out.write_all(text.as_bytes())?;
    out.flush()?;
    Ok(())
}

/// Whether `e` comes from writing to a pipe whose reader has gone.
pub(crate) fn is_broken_pipe(e: &anyhow::Error) -> bool {
    e.chain().any(|c| {
        c.downcast_ref::<std::io::Error>()
            .map(std::io::Error::kind)
            .or_else(|| {
                c.downcast_ref::<serde_json::Error>()
                    .and_then(serde_json::Error::io_error_kind)
            })
            == Some(std::io::ErrorKind::BrokenPipe)
    })
}

/// What a replay's reader asked for ([`replay_step`]).
pub(crate) enum ReplayStep {
    /// Show the position after this many steps.
    Show(usize),
    /// Next, at the last step: the game's replay is done.
    Past,
    /// `q`, or the end of input.
    Quit,
}

/// Reads one replay command for a game of `n` steps shown at `at`: Enter or
/// `n` next, `b` back, a number jumps there, `q` quits. Both games' replays
/// step this way.
pub(crate) fn replay_step(
    at: usize,
    n: usize,
    input: &mut dyn std::io::BufRead,
    out: &mut dyn std::io::Write,
) -> Result<ReplayStep> {
    write!(out, "[Enter/n next, b back, NUMBER jump, q quit]> ")?;
    out.flush()?;
    let mut line = String::new();
    if input.read_line(&mut line)? == 0 {
        return Ok(ReplayStep::Quit);
    }
    Ok(match line.trim() {
        "" | "n" if at == n => ReplayStep::Past,
        "" | "n" => ReplayStep::Show(at + 1),
        "b" => ReplayStep::Show(at.saturating_sub(1)),
        "q" => ReplayStep::Quit,
        t => match t.parse::<usize>() {
            Ok(k) if k <= n => ReplayStep::Show(k),
            _ => {
                writeln!(out, "Unknown command '{t}'.")?;
                ReplayStep::Show(at)
            }
        },
    })
}

/// A record file's text; `-` reads standard input (a pipe from `curl`).
pub(crate) fn read_file(path: &std::path::Path) -> Result<String> {
    if path.as_os_str() == "-" {
        let mut text = String::new();
        std::io::Read::read_to_string(&mut std::io::stdin(), &mut text)
            .map_err(|e| anyhow::anyhow!("cannot read standard input: {e}"))?;
        return Ok(text);
    }
    std::fs::read_to_string(path)
        .map_err(|e| anyhow::anyhow!("cannot read {}: {e}", path.display()))
}

/// Whether a record comes from standard input, which then cannot also
/// carry a replay's commands.
pub(crate) fn is_stdin(path: Option<&std::path::Path>) -> bool {
    path.is_some_and(|p| p.as_os_str() == "-")
}

/// Prints one JSON object on one line.
pub(crate) fn print_json(value: &impl serde::Serialize) -> Result<()> {
    let mut out = std::io::stdout().lock();
    serde_json::to_writer(&mut out, value)?;
    writeln!(out)?;
    Ok(())
}

/// An Urgammon record from its flags, read beside `read_file`.
impl UrgammonRecordArgs {
    /// The record's text; empty (the start) when neither option is given.
    pub(crate) fn text(&self) -> Result<String> {
        match (&self.record, &self.file) {
            (Some(text), _) => Ok(text.clone()),
            (None, Some(path)) => read_file(path),
            (None, None) => Ok(String::new()),
        }
    }
}
