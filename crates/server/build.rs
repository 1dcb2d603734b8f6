//! Names the build: the commit it was made from and whether the tree had
//! changes not committed, so an operator can tell which release each
//! instance runs during a rolling upgrade (`agon --version`, `GET
//! /api/meta`'s `build`, the `agon_build_info` metric). A build outside a
//! git checkout (a source archive) says `unknown`; `AGON_BUILD_COMMIT` set
//! at build time names it instead.

use std::process::Command;

fn git(args: &[&str]) -> Option<String> {
    let out = Command::new("git").args(args).output().ok()?;
    out.status
        .success()
        .then(|| String::from_utf8_lossy(&out.stdout).trim().to_string())
}

fn main() {
    println!("cargo:rerun-if-env-changed=AGON_BUILD_COMMIT");
    // Whatever changes the answer: a new commit or checkout, the index,
    // any source of the workspace.
    if let Some(top) = git(&["rev-parse", "--show-toplevel"]) {
        let git_dir = git(&["rev-parse", "--absolute-git-dir"]).unwrap_or_default();
        for f in ["HEAD", "index"] {
            println!("cargo:rerun-if-changed={git_dir}/{f}");
        }
        if let Some(head) = git(&["symbolic-ref", "-q", "HEAD"]) {
            println!("cargo:rerun-if-changed={git_dir}/{head}");
        }
        println!("cargo:rerun-if-changed={top}/crates");
    }
    let (commit, modified) = match std::env::var("AGON_BUILD_COMMIT") {
        Ok(c) if !c.is_empty() => (c, false),
        _ => match git(&["rev-parse", "--short=12", "HEAD"]) {
            Some(c) => {
                let dirty = git(&["status", "--porcelain", "--untracked-files=no"])
                    .is_some_and(|s| !s.is_empty());
                (c, dirty)
            }
            None => ("unknown".to_string(), false),
        },
    };
    println!("cargo:rustc-env=AGON_BUILD_COMMIT={commit}");
    println!("cargo:rustc-env=AGON_BUILD_MODIFIED={modified}");
    let version = std::env::var("CARGO_PKG_VERSION").unwrap_or_default();
    let suffix = if modified { ", modified" } else { "" };
    println!("cargo:rustc-env=AGON_BUILD_VERSION={version} ({commit}{suffix})");
}
