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
        lang: "en",
        together: &["over the neutral zone"],
        why: "the rule is about jumping a piece IN the zone (docs/rules/ringo.md §5: \"jumping a piece in the neutral zone\", not \"jumps over the zone\")",
    },
    Rule {
        lang: "pl",
        together: &["nad sektorem neutralnym"],
        why: "the rule is about jumping a piece in the zone, not over the zone (docs/rules/ringo.md §5)",
    },
    Rule {
        lang: "fr",
        together: &["par-dessus la zone neutre"],
        why: "the rule is about jumping a piece in the zone, not over the zone (docs/rules/ringo.md §5)",
    },
    Rule {
        lang: "pl",
        together: &["podniesion"],
        why: "the verdict die promotes the value: \"Ostateczny (wypromowany) wynik\", \"wypromowane kością wyroku\" (podniesiony is not the seed's word)",
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
        together: &["substitution"],
        why: "one name for the capture onto the enemy's cell: le remplacement (the lessons' \"Prise par remplacement\")",
    },
    Rule {
        lang: "fr",
        together: &["rentr"],
        why: "one verb for bearing a piece off: sortir (\"sortez le héros\"); rentrer named it too",
    },
    Rule {
        lang: "pl",
        together: &["strefa neutral"],
        why: "one name for sector a: sektor neutralny (the glossary's term.neutral-zone)",
    },
    Rule {
        lang: "pl",
        together: &["strefy neutral"],
        why: "one name for sector a: sektor neutralny (the glossary's term.neutral-zone)",
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

/// The glossary of translations (issue 87): each game term in English, and
/// the forms its Polish and French translations take (stems where Polish
/// declines them). Wherever an English text names the term, the Polish and
/// the French texts of the same place name it too, in one of these words,
/// so a thing keeps one name in every language (the glossary page's own
/// names: `term.*` in the language files).
const GLOSSARY: &[(&str, &[&str], &[&str])] = &[
    ("verdict die", &["wyrok"], &["verdict"]),
    (
        "chance die",
        &["szans"],
        &["dé de la chance", "dés de la chance"],
    ),
    ("rosette", &["rozet", "rozecie"], &["rosette"]),
    ("palace", &["pałac"], &["palais"]),
    ("waiting area", &["przedpol"], &["zone d'attente"]),
    ("hero", &["hero"], &["héros"]),
    ("chariot", &["rydwan"], &["char"]),
    (
        "compensation turn",
        &["wyrównawcz"],
        &["tour de compensation"],
    ),
    ("neutral zone", &["sektor"], &["zone neutre"]),
    ("fortress", &["twierdz"], &["citadelle"]),
    ("attacker", &["atakując"], &["assaillant"]),
    ("defender", &["obroń", "obrony"], &["défenseur"]),
    ("babylon", &["babilon"], &["babylon"]),
    ("bull", &["byk"], &["taureau"]),
    ("pawn", &["pion"], &["pion"]),
    ("lower city", &["doln"], &["ville basse"]),
    ("upper city", &["górn"], &["ville haute"]),
    ("bridge", &["most", "moście"], &["pont"]),
    ("replacing", &["zastąp", "zastęp"], &["remplac"]),
    ("replacement", &["zastąp", "zastęp"], &["remplac"]),
];

/// True when `text` names `term` as a word (a plural `s` allowed).
fn names(text: &str, term: &str) -> bool {
    let lower = text.to_lowercase();
    lower.match_indices(term).any(|(i, _)| {
        let before = lower[..i].chars().next_back();
        let after = lower[i + term.len()..].chars().next();
        !before.is_some_and(char::is_alphabetic)
            && !after.is_some_and(|c| c.is_alphabetic() && c != 's')
    })
}

/// The same text in English, Polish and French, with where it is: the
/// language files' entries by key, and the learning files' `en`/`pl`/`fr`
/// objects.
fn translations() -> Vec<(String, [String; 3])> {
    let root = Path::new(env!("CARGO_MANIFEST_DIR")).join("static");
    let entries = |lang: &str| -> std::collections::HashMap<String, String> {
        let js = std::fs::read_to_string(root.join(format!("lang/{lang}.js"))).unwrap();
        js.lines()
            .filter_map(|l| {
                let l = l.trim().strip_prefix('"')?;
                let (key, rest) = l.split_once("\": \"")?;
                Some((
                    key.to_string(),
                    rest.trim_end_matches(',').trim_end_matches('"').to_string(),
                ))
            })
            .collect()
    };
    let (en, pl, fr) = (entries("en"), entries("pl"), entries("fr"));
    let mut out: Vec<(String, [String; 3])> = en
        .iter()
        .map(|(k, v)| {
            let other = |m: &std::collections::HashMap<String, String>| {
                m.get(k).cloned().unwrap_or_default()
            };
            (
                format!("lang/*.js {k}"),
                [v.clone(), other(&pl), other(&fr)],
            )
        })
        .collect();
    for name in ["ringo", "urgammon", "strategy", "terms"] {
        let text = std::fs::read_to_string(root.join(format!("learn/{name}.json"))).unwrap();
        let value: serde_json::Value = serde_json::from_str(&text).unwrap();
        fn walk(v: &serde_json::Value, at: &str, out: &mut Vec<(String, [String; 3])>) {
            match v {
                serde_json::Value::Object(m) => {
                    let get = |k: &str| m.get(k).and_then(|x| x.as_str()).map(str::to_string);
                    if let (Some(en), Some(pl), Some(fr)) = (get("en"), get("pl"), get("fr")) {
                        out.push((at.to_string(), [en, pl, fr]));
                    }
                    for (k, x) in m {
                        walk(x, &format!("{at}.{k}"), out);
                    }
                }
                serde_json::Value::Array(a) => {
                    for (i, x) in a.iter().enumerate() {
                        walk(x, &format!("{at}[{i}]"), out);
                    }
                }
                _ => {}
            }
        }
        walk(&value, &format!("learn/{name}.json"), &mut out);
    }
    out
}

#[test]
fn every_translation_names_a_term_by_the_glossarys_word() {
    let mut broken = vec![];
    let all = translations();
    assert!(all.len() > 1000, "the texts were not found: {}", all.len());
    for (at, [en, pl, fr]) in &all {
        for (term, pl_words, fr_words) in GLOSSARY {
            if !names(en, term) {
                continue;
            }
            for (lang, text, words) in [("pl", pl, pl_words), ("fr", fr, fr_words)] {
                let lower = text.to_lowercase();
                if !words.iter().any(|w| lower.contains(w)) {
                    broken.push(format!(
                        "{at} ({lang}): \"{term}\" is {words:?} in the glossary; the text: {text}"
                    ));
                }
            }
        }
    }
    assert!(broken.is_empty(), "{}", broken.join("\n"));
}
