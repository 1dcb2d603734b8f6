//! `agon swiss pair --dutch IN.trf -p OUT` (issue 86): a TRF(x) file's
//! next round paired and written as bbpPairings writes it; bad files and
//! bad command lines refused with a clear error naming the line.

mod common;

use common::agon;

/// A player line of a TRF file, as FIDE's columns place it.
fn line(n: u32, rating: u32, rounds: &str) -> String {
    format!(
        "001 {n:>4}      {:<33} {rating:>4}{:28}{:>4.1} {n:>4}{rounds}",
        format!("Player {n}"),
        "",
        0.0
    )
}

#[test]
fn a_round_is_paired_and_written_in_the_reference_format() {
    let dir = std::env::temp_dir().join(format!("agon-swiss-cli-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    // Round 1 of five players: 1–3 and 2–4 by the Dutch halves (S1 1, 2
    // against S2 3, 4), the bye to the lowest, 5; white1, so the odd
    // pairing numbers take white (bbpPairings pairs this file so too).
    let file = dir.join("r1.trf");
    let text = [
        "012 Five".to_string(),
        line(1, 2400, ""),
        line(2, 2300, ""),
        line(3, 2200, ""),
        line(4, 2100, ""),
        line(5, 2000, ""),
        "XXR 3".into(),
        "XXC white1".into(),
    ]
    .join("\n");
    std::fs::write(&file, text).unwrap();
    let out = dir.join("out.txt");
    let run = agon(&[
        "swiss",
        "pair",
        "--dutch",
        file.to_str().unwrap(),
        "-p",
        out.to_str().unwrap(),
    ]);
    assert!(
        run.status.success(),
        "{}",
        String::from_utf8_lossy(&run.stderr)
    );
    assert_eq!(std::fs::read_to_string(&out).unwrap(), "3\n1 3\n4 2\n5 0\n");
    // Standard output when no -p is given.
    let run = agon(&["swiss", "pair", "--dutch", file.to_str().unwrap()]);
    assert_eq!(String::from_utf8_lossy(&run.stdout), "3\n1 3\n4 2\n5 0\n");
    // Bad files: each error names the file and the line.
    for (text, says) in [
        (
            ["012 T".to_string(), line(1, 2400, "     2 q 1")].join("\n"),
            "line 2",
        ),
        (
            ["012 T".to_string(), "001    x".to_string()].join("\n"),
            "line 2",
        ),
        ("XXR 3\n".to_string(), "no player lines"),
        (
            [line(1, 2400, ""), "XXR lots".to_string()].join("\n"),
            "line 2",
        ),
        (
            [line(1, 2400, "     9 w 1")].join("\n"),
            "no such opponent 9",
        ),
    ] {
        std::fs::write(&file, &text).unwrap();
        let run = agon(&["swiss", "pair", "--dutch", file.to_str().unwrap()]);
        let err = String::from_utf8_lossy(&run.stderr);
        assert!(
            !run.status.success() && err.contains(says) && err.contains("r1.trf"),
            "{text:?}: {err}"
        );
    }
    // No system named, a missing file, an event whose rounds are all played.
    let run = agon(&["swiss", "pair", file.to_str().unwrap()]);
    assert!(String::from_utf8_lossy(&run.stderr).contains("--dutch"));
    let run = agon(&[
        "swiss",
        "pair",
        "--dutch",
        dir.join("none.trf").to_str().unwrap(),
    ]);
    assert!(String::from_utf8_lossy(&run.stderr).contains("cannot read"));
    std::fs::write(
        &file,
        [
            line(1, 2400, "     2 w 1"),
            line(2, 2300, "     1 b 0"),
            "XXR 1".into(),
        ]
        .join("\n"),
    )
    .unwrap();
    let run = agon(&["swiss", "pair", "--dutch", file.to_str().unwrap()]);
    assert!(
        String::from_utf8_lossy(&run.stderr).contains("all 1 rounds"),
        "{}",
        String::from_utf8_lossy(&run.stderr)
    );
    let _ = std::fs::remove_dir_all(&dir);
}

/// A round whose search stops at one of its bounds says so on standard
/// error (the pairing is still written and meets the absolute criteria;
/// here it is the one bbpPairings gives), and a proven one says nothing.
#[test]
fn a_limited_search_is_said_and_a_proven_one_is_not() {
    let here =
        std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/data/swiss-limited.trf");
    let run = agon(&["swiss", "pair", "--dutch", here.to_str().unwrap()]);
    assert!(run.status.success());
    assert_eq!(
        String::from_utf8_lossy(&run.stdout),
        "6\n5 3\n6 4\n1 8\n9 2\n7 10\n11 12\n"
    );
    assert!(
        String::from_utf8_lossy(&run.stderr).contains("stopped at its bound"),
        "{}",
        String::from_utf8_lossy(&run.stderr)
    );
    let dir = std::env::temp_dir().join(format!("agon-swiss-proven-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    let file = dir.join("r1.trf");
    let text = [
        "012 Four".to_string(),
        line(1, 2400, ""),
        line(2, 2300, ""),
        line(3, 2200, ""),
        line(4, 2100, ""),
        "XXR 3".into(),
    ]
    .join("\n");
    std::fs::write(&file, text).unwrap();
    let run = agon(&["swiss", "pair", "--dutch", file.to_str().unwrap()]);
    assert!(run.status.success());
    assert_eq!(String::from_utf8_lossy(&run.stderr), "");
    let _ = std::fs::remove_dir_all(&dir);
}
