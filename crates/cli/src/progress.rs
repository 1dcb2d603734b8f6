//! The progress bar every long command draws on stderr (`indicatif`): the bar,
//! `done/total`, the rate and the time left, then the command's own line
//! (W/D/L, loss, …). It is hidden when stderr is not a terminal: a log or a
//! pipe gets one summary line at the end instead of hundreds of redraws.

use indicatif::{ProgressBar, ProgressStyle};
use std::io::IsTerminal;

/// One bar. Cloning shares it, so worker threads' callbacks can move it on.
#[derive(Clone)]
pub struct Progress(ProgressBar, &'static str);

impl Progress {
    /// A bar for `total` steps of `unit` (e.g. "games").
    pub fn new(total: u64, unit: &'static str) -> Progress {
        let bar = ProgressBar::new(total);
        let template =
            format!("[{{bar:30}}] {{pos}}/{{len}} {unit}  {{per_sec}}  ETA {{eta}}  {{msg}}");
        bar.set_style(
            ProgressStyle::with_template(&template)
                .unwrap_or_else(|_| ProgressStyle::default_bar())
                .progress_chars("#>."),
        );
        Progress(bar, unit)
    }

    /// Moves the bar to `done` steps, with `text` after the figures.
    pub fn set(&self, done: u64, text: impl Into<String>) {
        self.0.set_position(done);
        self.0.set_message(text.into());
    }

    /// Leaves the finished bar on screen; without a terminal, writes the
    /// summary line: `done/total unit in 1.2s  text`. The bar keeps the steps
    /// really done: a command that stops early (a proof found in 2,634 of
    /// 10,000,000 nodes, a match that SPRT decides) shows where it stopped,
    /// not a full bar (indicatif's `finish` fills it; `abandon` does not).
    pub fn finish(&self) {
        self.0.abandon();
        if !std::io::stderr().is_terminal() {
            eprintln!("{}", self.summary());
        }
    }

    /// Finishes work known to be all done with the bar full: a library that
    /// reports at intervals (the tablebase builds, every few thousand
    /// positions) may last report short of its final step.
    pub fn complete(&self) {
        if let Some(len) = self.0.length() {
            self.0.set_position(len);
        }
        self.finish();
    }

    /// The line a log gets at the end.
    fn summary(&self) -> String {
        let (bar, unit) = (&self.0, self.1);
        let done = bar.position();
        let total = bar.length().unwrap_or(done);
        let secs = bar.elapsed().as_secs_f64();
        format!("{done}/{total} {unit} in {secs:.1}s  {}", bar.message())
            .trim_end()
            .to_string()
    }
}

#[cfg(test)]
mod tests {
    use super::Progress;

    #[test]
    fn a_bar_counts_steps_and_keeps_its_text() {
        let p = Progress::new(10, "games");
        p.set(4, "+3 =0 -1");
        assert_eq!(p.0.position(), 4);
        assert_eq!(p.0.message(), "+3 =0 -1");
        assert!(p.summary().starts_with("4/10 games in "), "{}", p.summary());
        assert!(p.summary().ends_with("s  +3 =0 -1"), "{}", p.summary());
        p.finish();
        assert!(p.0.is_finished());
        // Stopped early: the bar and the summary keep the 4 steps done.
        assert_eq!(p.0.position(), 4);
        assert!(p.summary().starts_with("4/10 games in "), "{}", p.summary());
        // Work known to be done fills the bar, whatever was last reported.
        let p = Progress::new(10, "steps");
        p.set(7, "2v1");
        p.complete();
        assert!(
            p.summary().starts_with("10/10 steps in "),
            "{}",
            p.summary()
        );
    }
}
