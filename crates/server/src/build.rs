//! Which build this is (see the crate's `build.rs`): shown by `agon
//! --version`, `GET /api/meta` and the `agon_build_info` metric, so a
//! rolling upgrade can be checked instance by instance.

use serde::Serialize;

/// The version and commit as one line: `0.1.0 (1a2b3c4d5e6f)`, with
/// `, modified` when the tree had changes not committed.
pub const VERSION: &str = env!("AGON_BUILD_VERSION");

/// The commit it was built from (12 hex digits), or `unknown`.
pub const COMMIT: &str = env!("AGON_BUILD_COMMIT");

/// Whether the tree it was built from had changes not committed.
pub const MODIFIED: bool = const_str_is_true(env!("AGON_BUILD_MODIFIED"));

/// The crate's version.
pub const PACKAGE: &str = env!("CARGO_PKG_VERSION");

const fn const_str_is_true(s: &str) -> bool {
    matches!(s.as_bytes(), b"true")
}

/// The build, as `GET /api/meta` gives it.
#[derive(Serialize, Clone, Copy, Debug, PartialEq, Eq)]
pub struct Build {
    /// The crate's version.
    pub version: &'static str,
    /// The commit, or `unknown`.
    pub commit: &'static str,
    /// Changes not committed in the tree it was built from.
    pub modified: bool,
}

/// This build.
pub const BUILD: Build = Build {
    version: PACKAGE,
    commit: COMMIT,
    modified: MODIFIED,
};
