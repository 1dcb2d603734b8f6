//! The systemd units of docs/deploy/ as an operator installs them, checked
//! by `systemd-analyze verify` (only the binary's path replaced by the one
//! built here): no unknown key, no missing executable, nothing it warns of.

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

/// docs/deploy.md's block that installs the units does all they need: the
/// file their `Documentation=` names, the settings file they read with the
/// database in it, both units copied and both enabled.
#[test]
fn the_documented_install_block_installs_what_the_units_name() {
    let docs =
        std::fs::read_to_string(concat!(env!("CARGO_MANIFEST_DIR"), "/../../docs/deploy.md"))
            .unwrap();
    let start = docs
        .find("install -m 755 target/release/agon /usr/local/bin/agon")
        .expect("the install block");
    let block = &docs[start..start + docs[start..].find("```").unwrap()];
    let units = concat!(env!("CARGO_MANIFEST_DIR"), "/../../docs/deploy");
    for unit in ["agon.service", "agon-worker.service"] {
        let text = std::fs::read_to_string(format!("{units}/{unit}")).unwrap();
        assert!(
            block.contains(&format!("docs/deploy/{unit}")),
            "{unit} is copied: {block}"
        );
        for line in text.lines() {
            if let Some(doc) = line.strip_prefix("Documentation=file://") {
                assert!(
                    block.contains(&format!("docs/deploy.md {doc}")),
                    "{unit}'s Documentation= ({doc}) is installed: {block}"
                );
            }
            if let Some(env) = line.strip_prefix("EnvironmentFile=") {
                let env = env.trim_start_matches('-');
                assert!(
                    block.contains(&format!("> {env}")),
                    "{env} is written: {block}"
                );
                assert!(
                    block.contains(&format!(
                        "AGON_DATABASE=%s\\n\" \"$AGON_DATABASE\" >> {env}"
                    )),
                    "{env} gets the database: {block}"
                );
            }
        }
    }
    assert!(
        block.contains("systemctl daemon-reload && systemctl enable --now agon agon-worker"),
        "both enabled: {block}"
    );
}
