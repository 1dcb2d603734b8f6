//! The systemd units of docs/deploy/ as an operator installs them, checked
//! by `systemd-analyze verify` (only the binary's path replaced by the one
//! built here): no unknown key, no missing executable, nothing it warns of;
//! and docs/deploy.md's block that installs them, run as written.

use std::process::Command;

#[test]
fn the_systemd_units_verify() {
    if Command::new("systemd-analyze")
        .arg("--version")
        .output()
        .is_err()
    {
        assert!(
            std::env::var_os("AGON_REQUIRE_ALL").is_none(),
            "systemd-analyze is missing, and ./test.sh (AGON_REQUIRE_ALL) runs every test"
        );
        eprintln!("skipped: no systemd-analyze (./test.sh installs Debian's systemd)");
        return;
    }
    let dir = std::env::temp_dir().join(format!("agon-units-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    let docs = concat!(env!("CARGO_MANIFEST_DIR"), "/../../docs/deploy");
    for unit in ["agon.service", "agon-worker.service"] {
        let text = std::fs::read_to_string(format!("{docs}/{unit}")).unwrap();
        assert!(text.contains("ExecStart=/usr/local/bin/agon "), "{unit}");
        let text = text.replace("/usr/local/bin/agon", env!("CARGO_BIN_EXE_agon"));
        let path = dir.join(unit);
        std::fs::write(&path, text).unwrap();
        let out = Command::new("systemd-analyze")
            .args(["verify", "--man=no"])
            .arg(&path)
            .output()
            .unwrap();
        let said = String::from_utf8_lossy(&out.stderr);
        assert!(
            out.status.success() && said.trim().is_empty(),
            "{unit}: {said}"
        );
    }
    let _ = std::fs::remove_dir_all(&dir);
}

/// docs/deploy.md's block that installs the units, run as written (as root,
/// in a mount namespace whose /etc, /usr/local, /var/lib and /var/log are
/// throwaway overlays; see `scripts/test-deploy-units.sh`): it installs the
/// binary, the `agon` user, the file the units' `Documentation=` names, the
/// settings file they read with the database in it (readable by `agon`
/// only), and both units, enabled.
#[test]
fn the_documented_install_block_runs_as_written() {
    let root = Command::new("id")
        .arg("-u")
        .output()
        .is_ok_and(|o| String::from_utf8_lossy(&o.stdout).trim() == "0");
    let unshare = Command::new("unshare").arg("--version").output().is_ok();
    if !(root && unshare) {
        assert!(
            std::env::var_os("AGON_REQUIRE_ALL").is_none(),
            "the install block runs as root with unshare(1), and ./test.sh (AGON_REQUIRE_ALL) runs every test"
        );
        eprintln!("skipped: the install block runs as root with unshare(1)");
        return;
    }
    let out = Command::new(concat!(
        env!("CARGO_MANIFEST_DIR"),
        "/../../scripts/test-deploy-units.sh"
    ))
    .env("AGON_BIN", env!("CARGO_BIN_EXE_agon"))
    .output()
    .unwrap();
    assert!(
        out.status.success(),
        "{}{}",
        String::from_utf8_lossy(&out.stdout),
        String::from_utf8_lossy(&out.stderr)
    );
}
