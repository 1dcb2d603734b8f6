//! The server's layers, as docs/architecture.md writes them down (its
//! `layers` block: one floor a line, the top first), held against the code:
//! every module of `crates/server/src` is on one floor, and every
//! `crate::…` path in a module's code (its tests apart) names a module on a
//! floor below its own. A new import that runs up or sideways fails here,
//! naming the file and line, so the map and the code cannot drift apart.

use std::collections::HashMap;
use std::path::{Path, PathBuf};

/// The floors, top first, read from the architecture document's `layers`
/// block.
fn floors(doc: &str) -> Vec<Vec<String>> {
    let start = doc
        .find("```layers\n")
        .expect("docs/architecture.md has a ```layers block")
        + "```layers\n".len();
    let end = start + doc[start..].find("```").expect("the block ends");
    doc[start..end]
        .lines()
        .map(|l| l.split_whitespace().map(str::to_string).collect::<Vec<_>>())
        .filter(|f| !f.is_empty())
        .collect()
}

/// Each top-level module of `src` (a file, or a folder), with its files.
/// `lib.rs`, the crate's root, stands above every floor.
fn modules(src: &Path) -> HashMap<String, Vec<PathBuf>> {
    fn files(dir: &Path, out: &mut Vec<PathBuf>) {
        for e in std::fs::read_dir(dir).unwrap() {
            let p = e.unwrap().path();
            if p.is_dir() {
                files(&p, out);
            } else if p.extension().is_some_and(|x| x == "rs") {
                out.push(p);
            }
        }
    }
    let mut out = HashMap::new();
    for e in std::fs::read_dir(src).unwrap() {
        let p = e.unwrap().path();
        let name = p.file_stem().unwrap().to_string_lossy().to_string();
        if p.is_dir() {
            let mut list = vec![];
            files(&p, &mut list);
            out.insert(name, list);
        } else if p.extension().is_some_and(|x| x == "rs") && name != "lib" {
            out.insert(name, vec![p]);
        }
    }
    out
}

/// The modules a file's code names as `crate::NAME`, with their lines: its
/// comments and its tests (from `#[cfg(test)]` on) apart, and string
/// literals blanked.
fn uses(text: &str) -> Vec<(String, usize)> {
    let mut out = vec![];
    for (i, line) in text.lines().enumerate() {
        let t = line.trim();
        if t.starts_with("#[cfg(test)]") {
            break;
        }
        if t.starts_with("//") {
            continue;
        }
        // Strings blanked (a quote as a character is none), then a
        // trailing comment cut.
        let t = t.replace("'\\\"'", "' '").replace("'\"'", "' '");
        let mut code = String::new();
        let mut in_string = false;
        let mut escaped = false;
        for c in t.chars() {
            if in_string {
                if escaped {
                    escaped = false;
                } else if c == '\\' {
                    escaped = true;
                } else if c == '"' {
                    in_string = false;
                    code.push('"');
                }
                continue;
            }
            if c == '"' {
                in_string = true;
            }
            code.push(c);
        }
        let code = code.split("//").next().unwrap_or("");
        let mut rest = code;
        while let Some(at) = rest.find("crate::") {
            rest = &rest[at + "crate::".len()..];
            let name: String = rest
                .chars()
                .take_while(|c| c.is_ascii_lowercase() || c.is_ascii_digit() || *c == '_')
                .collect();
            if !name.is_empty() {
                out.push((name, i + 1));
            }
        }
    }
    out
}

/// Every way the code at `src` breaks the floors: a module on no floor or
/// on two, a floor naming no module, an import of a module on the same
/// floor or above.
fn check(src: &Path, floors: &[Vec<String>]) -> Vec<String> {
    let mut problems = vec![];
    let mut floor_of: HashMap<&str, usize> = HashMap::new();
    for (i, floor) in floors.iter().enumerate() {
        for m in floor {
            // Floors are written top first: the bottom floor is 0.
            if floor_of.insert(m, floors.len() - 1 - i).is_some() {
                problems.push(format!("{m} is on two floors"));
            }
        }
    }
    let modules = modules(src);
    for m in floor_of.keys() {
        if !modules.contains_key(*m) {
            problems.push(format!("{m} is on a floor but is no module of src/"));
        }
    }
    let mut names: Vec<&String> = modules.keys().collect();
    names.sort();
    for m in names {
        let Some(&mine) = floor_of.get(m.as_str()) else {
            problems.push(format!("{m} is on no floor"));
            continue;
        };
        for file in &modules[m] {
            let text = std::fs::read_to_string(file).unwrap();
            for (used, line) in uses(&text) {
                if &used == m || !modules.contains_key(&used) {
                    continue;
                }
                match floor_of.get(used.as_str()) {
                    Some(&theirs) if theirs < mine => {}
                    _ => problems.push(format!(
                        "{}:{line}: {m} uses {used}, which is not on a floor below it",
                        file.display()
                    )),
                }
            }
        }
    }
    problems
}

#[test]
fn every_module_imports_only_modules_on_floors_below_its_own() {
    let here = Path::new(env!("CARGO_MANIFEST_DIR"));
    let doc = std::fs::read_to_string(here.join("../../docs/architecture.md")).unwrap();
    let floors = floors(&doc);
    assert!(floors.len() > 5, "{floors:?}");
    let problems = check(&here.join("src"), &floors);
    assert!(problems.is_empty(), "{}", problems.join("\n"));
}

/// The check itself fails where it should: an import running up, one
/// sideways, a module left off the map; and it reads no comment, string
/// or test as an import.
#[test]
fn the_check_finds_an_import_up_or_sideways_and_a_module_off_the_map() {
    let dir = std::env::temp_dir().join(format!("agon-layers-{}", std::process::id()));
    let src = dir.join("src");
    std::fs::create_dir_all(src.join("games")).unwrap();
    let write = |p: &str, text: &str| std::fs::write(src.join(p), text).unwrap();
    write("lib.rs", "pub mod games;\npub mod store;\npub mod model;\n");
    write(
        "store.rs",
        "// crate::games is named in a comment\nuse crate::model::Kind;\nconst S: &str = \"crate::games\";\n#[cfg(test)]\nmod tests { use crate::games::x; }\n",
    );
    write("model.rs", "pub struct Kind;\n");
    write("games/mod.rs", "use crate::store::Store; // crate::http\n");
    let floors = |s: &str| {
        s.lines()
            .map(|l| l.split_whitespace().map(str::to_string).collect())
            .collect::<Vec<Vec<String>>>()
    };
    assert_eq!(
        check(&src, &floors("games\nstore\nmodel")),
        Vec::<String>::new()
    );
    // The store above the games: the games' import now runs up.
    let up = check(&src, &floors("store\ngames\nmodel"));
    assert_eq!(up.len(), 1, "{up:?}");
    assert!(up[0].contains("games uses store"), "{up:?}");
    // Side by side on one floor: sideways.
    let side = check(&src, &floors("games store\nmodel"));
    assert!(
        side.iter().any(|p| p.contains("games uses store")),
        "{side:?}"
    );
    // A module off the map.
    let off = check(&src, &floors("games\nstore"));
    assert!(off.iter().any(|p| p == "model is on no floor"), "{off:?}");
    std::fs::remove_dir_all(&dir).unwrap();
}
