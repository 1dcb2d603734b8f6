//! `agon swiss`: the Swiss pairing engine on its own, over FIDE's
//! tournament report files.

/// `agon swiss …`.
#[derive(clap::Subcommand, Debug)]
pub(crate) enum SwissCmd {
    /// Pairs the next round of a TRF(x) file by the FIDE Dutch system and
    /// writes the pairs as bbpPairings does (the number of pairs, then
    /// `white black` a line, a bye as `N 0`), so the two programs can be
    /// compared directly.
    Pair(SwissPairArgs),
}

/// `agon swiss pair --dutch IN.trf -p OUT`.
#[derive(clap::Args, Debug)]
pub(crate) struct SwissPairArgs {
    /// The system: the Dutch (the only one; the flag is bbpPairings').
    #[arg(long)]
    pub(crate) dutch: bool,
    /// The tournament report file (TRF(x)).
    pub(crate) input: std::path::PathBuf,
    /// Where to write the pairs (`-` or none: standard output).
    #[arg(short = 'p', value_name = "OUT")]
    pub(crate) output: Option<std::path::PathBuf>,
}
