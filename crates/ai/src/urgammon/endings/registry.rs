//! The one registry of installed endings, which every level reads.

use super::table::Endings;
use std::path::PathBuf;
use std::sync::OnceLock;

static DIR: OnceLock<PathBuf> = OnceLock::new();
static LOADED: OnceLock<Option<Endings>> = OnceLock::new();

/// Makes every level (play, analysis, review, puzzles) use the endings in
/// `dir` (the folder Ringo's tablebases live in), read the first time they
/// are asked for. A process installs one directory; later calls are
/// ignored.
pub fn install(dir: PathBuf) {
    let _ = DIR.set(dir);
}

/// The installed endings (`None`: nothing installed, or no table there). A
/// damaged file is logged and the endings are not used: the levels then
/// find exact values only where every line ends within their horizon.
pub fn installed() -> Option<&'static Endings> {
    LOADED
        .get_or_init(|| {
            let dir = DIR.get()?;
            if !dir.exists() {
                return None;
            }
            match Endings::load(dir) {
                Ok(e) if !e.classes().is_empty() => {
                    tracing::info!(classes = e.classes().len(), "urgammon endings loaded");
                    Some(e)
                }
                Ok(_) => None,
                Err(e) => {
                    tracing::warn!(error = %e, "urgammon endings not used");
                    None
                }
            }
        })
        .as_ref()
}
