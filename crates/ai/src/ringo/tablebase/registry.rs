//! The one registry of installed tables, which every engine search reads.

use super::table::*;
use ringo::Rules;
use std::path::PathBuf;

/// The directory of tables the engines use, once installed, and the tables
/// read from it so far (by rule set; `None`: none there).
pub(super) struct Registry {
    pub(super) dir: PathBuf,
    pub(super) loaded:
        std::sync::Mutex<std::collections::HashMap<String, Option<std::sync::Arc<Tablebases>>>>,
}

pub(super) static REGISTRY: std::sync::OnceLock<Registry> = std::sync::OnceLock::new();

/// Makes every engine search (analysis, review, the computer's moves) use
/// the tables in `dir`, read the first time a rule set asks for them. A
/// process installs one directory; later calls are ignored.
pub fn install(dir: PathBuf) {
    let _ = REGISTRY.set(Registry {
        dir,
        loaded: std::sync::Mutex::new(std::collections::HashMap::new()),
    });
}

/// The installed tables of these rules (`None`: nothing installed, or no
/// table of these rules in the directory). A damaged file is logged and
/// skipped: the engine then searches without tables.
pub fn for_rules(rules: &Rules) -> Option<std::sync::Arc<Tablebases>> {
    let reg = REGISTRY.get()?;
    let key = table_rules(rules).to_string();
    let mut loaded = reg.loaded.lock().ok()?;
    loaded
        .entry(key)
        .or_insert_with(|| {
            if !reg.dir.exists() {
                return None;
            }
            match Tablebases::load(&reg.dir, rules) {
                Ok(tb) if !tb.classes().is_empty() => {
                    tracing::info!(rules = %tb.rules(), classes = tb.classes().len(), "tablebases loaded");
                    Some(std::sync::Arc::new(tb))
                }
                Ok(_) => None,
                Err(e) => {
                    tracing::warn!(error = %e, "tablebases not used");
                    None
                }
            }
        })
        .clone()
}
