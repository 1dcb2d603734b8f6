//! A one-line progress bar on stderr, shared by every long command.

use std::io::Write;

/// Redraws the bar: `[####....] done/total  text`.
pub fn bar(done: u64, total: u64, text: &str) {
    let width = 30u64;
    let done = done.min(total);
    let filled = (done * width).checked_div(total).unwrap_or(width);
    let mut err = std::io::stderr().lock();
    let _ = write!(
        err,
        "\r[{}{}] {done}/{total}  {text} ",
        "#".repeat(filled as usize),
        ".".repeat((width - filled) as usize),
    );
    let _ = err.flush();
}

/// Ends the bar's line.
pub fn finish() {
    eprintln!();
}
