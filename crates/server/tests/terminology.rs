//! One word per thing, the seeds' words (issue 87): the Polish and French
//! texts of the lessons, the strategy guide, the glossary and the pages
//! are held to the terms of the seeds, each rule below quoting the seed
//! (or the reason) it keeps. A rule names the language, what a sentence
//! must not hold, and why; a sentence is split at `.`, `!`, `?` and `;`.

use std::path::Path;

/// A term rule: in texts of `lang`, no sentence holds all of `together`
/// (lower-cased), because `why`.
struct Rule {
    lang: &'static str,
    together: &'static [&'static str],
    why: &'static str,
}

const RULES: &[Rule] = &[
    Rule {
        lang: "pl",
        together: &["wprowadz", "do pałacu"],
        why: "the seed leads pieces OUT to the palace: \"Miejsce, do którego gracze wyprowadzają swoje piony z planszy, określa się jako pałac\" (wprowadzić is entering the board)",
    },
    Rule {
        lang: "pl",
        together: &["wprowadź jedną bierkę"],
        why: "bringing a piece home is wyprowadzić, as the seed says",
    },
    Rule {
        lang: "pl",
        together: &["wprowadzi tam wszystkie"],
        why: "the palace is reached by wyprowadzenie, as the seed says",
    },
    Rule {
        lang: "en",
        together: &["on which the variant builds"],
        why: "the seed says the variant was inspired by the tablet (\"inspirowany\"), not built on it",
    },
    Rule {
        lang: "fr",
        together: &["la variante s'appuie"],
        why: "the seed says the variant was inspired by the tablet, not built on it",
    },
    Rule {
        lang: "pl",
        together: &["wariant się opiera"],
        why: "the seed says the variant was inspired by the tablet (\"inspirowany\")",
    },
    Rule {
        lang: "pl",
        together: &["przegrany płaci", "babilon"],
        why: "the seed gives a game's points to the winner (\"Babilon – wygrana za 4 punkty\"); money changes hands only after the match: \"przeliczyć różnicę w punktach i wypłacić należność zwycięzcy\"",
    },
    Rule {
        lang: "fr",
        together: &["le perdant paie", "babylone"],
        why: "the seed gives a game's points to the winner (\"Babilon – wygrana za 4 punkty\"); money changes hands only on the match's difference of points",
    },
    Rule {
        lang: "fr",
        together: &["rosace"],
        why: "one word for one square: the rosette (\"rosace\" named it too)",
    },
    Rule {
        lang: "fr",
        together: &["dé de chance"],
        why: "one name for the die: le dé de la chance",
    },
    Rule {
        lang: "fr",
        together: &["s'il permettrait"],
        why: "si takes the indicative: s'il permet",
    },
];

/// Every text of `lang` in the pages' language file and the learning
/// files, each with where it comes from.
fn texts(lang: &str) -> Vec<(String, String)> {
    let root = Path::new(env!("CARGO_MANIFEST_DIR")).join("static");
    let mut out = vec![];
    let file = root.join(format!("lang/{lang}.js"));
    let js = std::fs::read_to_string(&file).expect("the language file");
    for (n, line) in js.lines().enumerate() {
        out.push((format!("lang/{lang}.js:{}", n + 1), line.to_string()));
    }
    for name in ["ringo", "urgammon", "strategy", "terms"] {
        let path = root.join(format!("learn/{name}.json"));
        let Ok(text) = std::fs::read_to_string(&path) else {
            continue;
        };
        let value: serde_json::Value = serde_json::from_str(&text).expect("learning JSON");
        fn walk(v: &serde_json::Value, lang: &str, at: &str, out: &mut Vec<(String, String)>) {
            match v {
                serde_json::Value::Object(m) => {
                    for (k, x) in m {
                        if k == lang {
                            if let Some(s) = x.as_str() {
                                out.push((format!("{at}.{k}"), s.to_string()));
                            }
                        }
                        walk(x, lang, &format!("{at}.{k}"), out);
                    }
                }
                serde_json::Value::Array(a) => {
                    for (i, x) in a.iter().enumerate() {
                        walk(x, lang, &format!("{at}[{i}]"), out);
                    }
                }
                _ => {}
            }
        }
        walk(&value, lang, &format!("learn/{name}.json"), &mut out);
    }
    out
}

#[test]
fn the_texts_keep_the_seeds_terms() {
    let mut broken = vec![];
    for rule in RULES {
        for (at, text) in texts(rule.lang) {
            for sentence in text.split(['.', '!', '?', ';']) {
                let s = sentence.to_lowercase();
                if rule.together.iter().all(|t| s.contains(t)) {
                    broken.push(format!("{at}: \"{}\": {}", sentence.trim(), rule.why));
                }
            }
        }
    }
    assert!(broken.is_empty(), "{}", broken.join("\n"));
}
