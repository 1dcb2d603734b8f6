//! The lessons shipped in `static/learn/`: every lesson's position is one
//! the rules engine takes, every move its task accepts is legal there, and
//! every text is in the three languages. A lesson that a rules change broke
//! fails here, before a player meets it.

mod common;

use serde_json::Value;

fn lessons(game: &str) -> Vec<Value> {
    let path = format!("{}/static/learn/{game}.json", env!("CARGO_MANIFEST_DIR"));
    let data: Value = serde_json::from_str(&std::fs::read_to_string(path).unwrap()).unwrap();
    assert_eq!(data["game"], game);
    data["lessons"].as_array().unwrap().clone()
}

#[tokio::test]
async fn every_lesson_is_a_legal_task_in_three_languages() {
    let app = agon_server::app(common::state_on(
        agon_server::store::Store::in_memory().unwrap(),
    ));
    for game in ["ringo", "urgammon"] {
        let list = lessons(game);
        assert!(list.len() >= 16, "{game}: {} lessons", list.len());
        let mut ids = std::collections::HashSet::new();
        for l in &list {
            let id = l["id"].as_str().unwrap();
            assert!(ids.insert(id), "{game}: lesson {id} twice");
            for key in ["title", "task", "hint", "wrong", "done"] {
                for lang in ["en", "pl", "fr"] {
                    let text = l[key][lang].as_str().unwrap_or_default();
                    assert!(!text.is_empty(), "{game}/{id}: no {key} in {lang}");
                }
                assert_ne!(
                    l[key]["pl"], l[key]["en"],
                    "{game}/{id}: {key} in Polish is the English"
                );
            }
            // The words its Words row explains are the glossary's.
            let glossary = std::fs::read_to_string(format!(
                "{}/static/js/glossary.js",
                env!("CARGO_MANIFEST_DIR")
            ))
            .unwrap();
            for term in l["terms"].as_array().into_iter().flatten() {
                let term = term.as_str().unwrap();
                assert!(
                    glossary.contains(&format!("\"{term}\"")),
                    "{game}/{id}: the glossary has no {term}"
                );
            }
            let (legal, verdict) = common::analysed_legal(&app, game, l).await;
            let accept = l["accept"].as_array().unwrap();
            assert!(!accept.is_empty(), "{game}/{id}: accepts nothing");
            for m in accept {
                let m = m.as_str().unwrap();
                // `verdict`: rolling the verdict die, where it may be rolled.
                assert!(
                    legal.iter().any(|x| x == m) || (m == "verdict" && verdict),
                    "{game}/{id}: {m} is not legal ({legal:?})"
                );
            }
        }
    }
}

/// A Ringo move as the notation writes it: where from, where to (`F` is
/// the fortress, ring 0), and whether it captures.
struct RingoMove {
    from: (char, u32),
    to: (char, u32),
    capture: bool,
}

fn ringo_cell(text: &str) -> (char, u32) {
    if text == "F" {
        return ('F', 0);
    }
    let mut chars = text.chars();
    let sector = chars.next().unwrap();
    (sector, chars.as_str().parse().unwrap())
}

fn ringo_move(text: &str) -> RingoMove {
    let capture = text.contains('x');
    let (from, to) = text.split_once(['-', 'x']).unwrap();
    RingoMove {
        from: ringo_cell(from),
        to: ringo_cell(to),
        capture,
    }
}

/// A Ringo lesson's game: its rules and position, and the moves it says
/// were played before (`moves`, as a repetition needs them).
fn ringo_game(l: &Value) -> ringo::Game {
    let rules: ringo::Rules = l["rules"].as_str().unwrap().parse().unwrap();
    let position = ringo::Position::parse(l["position"].as_str().unwrap(), &rules).unwrap();
    let mut game = ringo::Game::from_position(rules, position);
    for m in l["moves"].as_str().unwrap_or_default().split_whitespace() {
        game.play_text(m).unwrap();
    }
    game
}

/// What the rules engine says of one Ringo move in a lesson's position:
/// the facts a lesson's texts may state about it.
fn ringo_facts(l: &Value, text: &str) -> Vec<&'static str> {
    let mut game = ringo_game(l);
    let rules = *game.rules();
    let mover = game.position().to_move();
    if text == "pass" {
        game.play_text(text).unwrap();
        let won = game.outcome().and_then(|o| o.winner) == Some(mover);
        return [
            vec!["pass", "no-capture"],
            if won { vec!["win"] } else { vec![] },
        ]
        .concat();
    }
    let m = ringo_move(text);
    let mut facts = vec![];
    // A replacement lands where the enemy stood.
    let (_, to) = text.split_once(['-', 'x']).unwrap();
    let target = ringo::Cell::parse(to, rules.rings).and_then(|c| game.position().piece_at(c));
    game.play_text(text).unwrap();
    if m.capture {
        facts.push("capture");
        if target.is_some() {
            facts.push("replace");
        }
    } else {
        facts.push("no-capture");
        // Two cells in a straight line without a capture: over a piece
        // (an enemy in the neutral zone).
        let sectors = (m.to.0 as i32 - m.from.0 as i32).rem_euclid(8);
        let radial = m.from.0 == m.to.0 && m.from.1.abs_diff(m.to.1) == 2;
        let along = m.from.1 == m.to.1 && (sectors == 2 || sectors == 6);
        // From ring 2 into the fortress, over the ring-1 cell between.
        let into_fortress = m.to.0 == 'F' && m.from.1 == 2;
        if radial || along || into_fortress {
            facts.push("jump");
        }
    }
    if m.from.0 == 'a' && m.to.0 != 'a' {
        facts.push("leave");
    }
    if m.from.0 == 'F' {
        facts.push("from-fortress");
    }
    if m.to.1 < m.from.1 {
        facts.push("inward");
    } else if m.to.1 > m.from.1 {
        facts.push("outward");
    } else {
        facts.push("sideways");
    }
    if m.to.0 == 'F' {
        facts.push("enter");
    }
    let status = game.status_name();
    let won = match mover {
        ringo::Side::Attackers => status == "attackers-win",
        ringo::Side::Defenders => status == "defenders-win",
    };
    if won {
        facts.push("win");
    }
    // Safe: the other side has no capture at all after it.
    if !game.is_over() && game.legal_notations().iter().any(|n| n.contains('x')) {
        facts.push("unsafe");
    } else {
        facts.push("safe");
    }
    facts
}

/// Every claim a lesson makes, checked against the rules engine:
///
/// - `goal`: the moves the task asks for, as a fact of the engine's
///   (`inward`, `sideways`, `outward`, `capture`, `replace`, `jump`,
///   `leave` (the neutral zone), `enter`, `win`, `safe`),
///   optionally of one `piece`: the moves it accepts are exactly the legal
///   moves with that fact. A move the text calls wrong is never as good by
///   the lesson's own goal.
/// - `only`: the text says the accepted moves are the only legal ones.
/// - `wrong_is`: the facts the `wrong` text states about any move it
///   answers ("that move captures nothing": `no-capture`); a wrong capture
///   gets `wrong_capture` instead, where there is one.
/// - `after`: what the `done` text says of the position after the move
///   (Ringo: `status`, `fortress`; Urgammon: `to_act`, `last_turn`,
///   `result`), and `then`: continuations the text describes, each with
///   the result it says they reach.
/// - `illegal` (Urgammon): moves the text says are not possible here;
///   `instead`: another way to play on (a verdict roll) and the moves the
///   text says it rules out.
#[tokio::test]
async fn every_lesson_claim_holds_in_the_rules_engine() {
    let app = agon_server::app(common::state_on(
        agon_server::store::Store::in_memory().unwrap(),
    ));
    for l in lessons("ringo") {
        check_ringo(&app, &l).await;
    }
    for l in lessons("urgammon") {
        check_urgammon(&app, &l).await;
    }
}

/// The moves a lesson accepts.
fn accepted(l: &Value) -> Vec<&str> {
    l["accept"]
        .as_array()
        .unwrap()
        .iter()
        .map(|m| m.as_str().unwrap())
        .collect()
}

/// Checks a Ringo lesson's (or a term's example's) claims.
async fn check_ringo(app: &axum::Router, l: &Value) {
    let id = l["id"].as_str().unwrap();
    let (legal, _) = common::analysed_legal(app, "ringo", l).await;
    let accept = accepted(l);
    let goal = l["goal"]
        .as_str()
        .unwrap_or_else(|| panic!("ringo/{id}: no goal"));
    let piece = l["piece"].as_str();
    let meets = |m: &str| {
        ringo_facts(l, m).contains(&goal)
            && piece.is_none_or(|p| m.starts_with(p) && !m[p.len()..].starts_with(char::is_numeric))
    };
    let reaching: Vec<&str> = legal
        .iter()
        .map(String::as_str)
        .filter(|m| meets(m))
        .collect();
    let mut sorted = accept.clone();
    sorted.sort_unstable();
    let mut want = reaching.clone();
    want.sort_unstable();
    assert_eq!(
        sorted, want,
        "ringo/{id}: the lesson accepts {accept:?}, but the moves that are `{goal}` are {reaching:?}"
    );
    // `every_move_not`: what the text says no move here does.
    for m in &legal {
        let facts = ringo_facts(l, m);
        for not in l["every_move_not"].as_array().into_iter().flatten() {
            let not = not.as_str().unwrap();
            assert!(
                !facts.contains(&not),
                "ringo/{id}: the text says no move is `{not}`, but {m} is {facts:?}"
            );
        }
    }
    moves_claim(&format!("ringo/{id}"), &l["illegal"], &legal, false);
    // `only`: the text says no other move is allowed here.
    if l["only"] == true {
        let mut all: Vec<&str> = legal.iter().map(String::as_str).collect();
        all.sort_unstable();
        assert_eq!(sorted, all, "ringo/{id}: other moves are legal");
    }
    let wrong_is: Vec<&str> = l["wrong_is"]
        .as_array()
        .unwrap_or_else(|| panic!("ringo/{id}: no wrong_is"))
        .iter()
        .map(|f| f.as_str().unwrap())
        .collect();
    for m in legal.iter().filter(|m| !accept.contains(&m.as_str())) {
        let facts = ringo_facts(l, m);
        let (text, claims) = if m.contains('x') && l.get("wrong_capture").is_some() {
            ("wrong_capture", vec!["capture"])
        } else {
            ("wrong", wrong_is.clone())
        };
        for claim in claims {
            assert!(
                facts.contains(&claim),
                "ringo/{id}: its `{text}` text says `{claim}` of {m}, which is {facts:?}"
            );
        }
    }
    // Issue 87: a text that states the neutral zone's limit states its
    // exception too (rules §5: when a capture shrinks the limit below the
    // count, the attackers' next move must lower the count if any legal
    // move does), shown on a position the rules engine plays: there the
    // attackers' legal moves are exactly those that leave the zone.
    if id == "neutral-limit" {
        assert!(
            l.get("over_limit").is_some(),
            "ringo/{id}: the limit's text does not say what happens above the limit"
        );
    }
    if let Some(over) = l.get("over_limit") {
        let mut example = l.clone();
        example["position"] = over["position"].clone();
        example["moves"] = Value::Null;
        let game = ringo_game(&example);
        let pos = game.position();
        let in_zone = (1..=game.rules().rings)
            .filter(|&r| {
                ringo::Cell::parse(&format!("a{r}"), game.rules().rings)
                    .and_then(|c| pos.piece_at(c))
                    == Some(ringo::Side::Attackers)
            })
            .count();
        let left = pos.defenders_left() as usize;
        assert!(
            in_zone > left,
            "ringo/{id}: over_limit is not over the limit"
        );
        let legal = game.legal_notations();
        assert!(!legal.is_empty());
        for m in &legal {
            assert!(
                ringo_facts(&example, m).contains(&"leave"),
                "ringo/{id}: above the limit, {m} is legal and does not leave the zone"
            );
        }
        for lang in ["en", "pl", "fr"] {
            let says = over["says"][lang].as_str().unwrap();
            assert!(
                l["done"][lang].as_str().unwrap().contains(says),
                "ringo/{id} ({lang}): the text does not say {says:?}"
            );
        }
    }
    // Issue 87: a model move is a good one. No move a lesson teaches lets
    // the other side win with its reply (the old `jump-neutral` taught
    // b2-h2, after which a2xg2 or h1xh3 ended the game).
    for m in &accept {
        let mut game = ringo_game(l);
        let mover = game.position().to_move();
        game.play_text(m).unwrap();
        if game.is_over() {
            continue;
        }
        for reply in game.legal_notations() {
            let mut after = game.clone();
            after.play_text(&reply).unwrap();
            let lost = match mover {
                ringo::Side::Attackers => after.status_name() == "defenders-win",
                ringo::Side::Defenders => after.status_name() == "attackers-win",
            };
            assert!(
                !lost,
                "ringo/{id}: after the lesson's {m}, {reply} wins for the other side"
            );
        }
    }
    if let Some(after) = l.get("after") {
        for m in &accept {
            let mut game = ringo_game(l);
            game.play_text(m).unwrap();
            if let Some(status) = after["status"].as_str() {
                assert_eq!(game.status_name(), status, "ringo/{id} after {m}");
            }
            if let Some(n) = after["fortress"].as_u64() {
                assert_eq!(
                    u64::from(game.position().fortress()),
                    n,
                    "ringo/{id}: attackers in the fortress after {m}"
                );
            }
        }
    }
}

/// Checks an Urgammon lesson's (or a term's example's) claims.
async fn check_urgammon(app: &axum::Router, l: &Value) {
    let id = l["id"].as_str().unwrap();
    let record = l["record"].as_str().unwrap();
    let state = |record: String| {
        let app = app.clone();
        let setup = l["setup"].clone();
        async move {
            let body = serde_json::json!({"game": "urgammon", "setup": setup, "record": record, "level": 1});
            let (s, a) =
                common::call(&app, "POST", "/api/analyze", None, Some(&body.to_string())).await;
            assert_eq!(s, 200, "{body}: {a}");
            a["state"].clone()
        }
    };
    let (legal, _) = common::analysed_legal(app, "urgammon", l).await;
    let accept = accepted(l);
    if l.get("wrong_is").is_some() {
        for m in legal.iter().filter(|m| !accept.contains(&m.as_str())) {
            for claim in l["wrong_is"].as_array().unwrap() {
                let holds = match claim.as_str().unwrap() {
                    "no-capture" => !m.contains('x'),
                    "capture" => m.contains('x'),
                    other => panic!("urgammon/{id}: unknown claim {other}"),
                };
                assert!(holds, "urgammon/{id}: its wrong text says {claim} of {m}");
            }
        }
    }
    for instead in l["instead"].as_array().into_iter().flatten() {
        let more = instead["record"].as_str().unwrap();
        let s = state(format!("{record} {more}")).await;
        let legal: Vec<&str> = s["legal"]
            .as_array()
            .unwrap()
            .iter()
            .map(|m| m["notation"].as_str().unwrap())
            .collect();
        let at = format!("urgammon/{id} after {more}");
        moves_claim(&at, &instead["illegal"], &legal, false);
        moves_claim(&at, &instead["legal"], &legal, true);
        if let Some(want) = instead.get("state") {
            state_claims(id, &s, want, &format!("after {more}"));
        }
    }
    // `only`: the text says these are all the moves there are.
    if l["only"] == true {
        let mut all: Vec<&str> = legal.iter().map(String::as_str).collect();
        all.sort_unstable();
        let mut sorted = accept.clone();
        sorted.sort_unstable();
        assert_eq!(sorted, all, "urgammon/{id}: other moves are legal");
    }
    moves_claim(&format!("urgammon/{id}"), &l["illegal"], &legal, false);
    if let Some(m) = l.get("match") {
        match_claims(id, l, m);
    }
    // `forced_verdict`: no move uses the plain value, a promoted one does:
    // the verdict die must be rolled (the engine's `verdict` phase).
    if l["forced_verdict"] == true {
        let s = state(record.to_string()).await;
        assert_eq!(s["phase"], "verdict", "urgammon/{id}: {s}");
        assert!(legal.is_empty(), "urgammon/{id}: plain moves {legal:?}");
    }
    let Some(after) = l.get("after") else {
        return;
    };
    for m in &accept {
        // The lesson's verdict die shows what it says it shows.
        let m = if *m == "verdict" {
            l["verdict_roll"].as_str().unwrap()
        } else {
            m
        };
        let s = state(format!("{record} {m}")).await;
        state_claims(id, &s, after, &format!("after {m}"));
        // A lesson that leaves the game to a compensation turn tells how
        // the game ends: that claim is checked on every line.
        if after["last_turn"] == true {
            assert!(
                l.get("every_line").is_some(),
                "urgammon/{id}: the text says how the game ends; check it on every line (`every_line`)"
            );
        }
        if let Some(claim) = l.get("every_line") {
            every_line_claim(id, l, m, claim);
        }
        for then in l["then"].as_array().into_iter().flatten() {
            let more = then["record"].as_str().unwrap();
            let s = state(format!("{record} {m} {more}")).await;
            assert_eq!(
                s["result"], then["result"],
                "urgammon/{id}: the result after {m} {more}"
            );
        }
    }
}

/// Issue 87: a claim about how the game ends after a lesson's move is
/// checked on every line, not on samples: every roll, every verdict die,
/// every choice, played through the rules engine to the game's end. The set
/// of results reached must be exactly the `results` the text names, and
/// where it says only a run of rosettes reaches one (`rosettes_for`: that
/// result's kind), every line ending so made more than one move in its turn
/// (a turn goes on only from a rosette).
fn every_line_claim(id: &str, l: &Value, m: &str, claim: &Value) {
    use urgammon::{Phase, State, Token};
    let mut game =
        urgammon::Game::from_state(urgammon::parse_setup(l["setup"].as_str().unwrap()).unwrap());
    game.apply_all(&format!("{} {m}", l["record"].as_str().unwrap()), 0)
        .unwrap();
    // (result as JSON, moves made after the lesson's move) of every line.
    let mut ends: Vec<(Value, u32)> = vec![];
    let mut visited = 0u64;
    fn walk(s: &State, moves: u32, ends: &mut Vec<(Value, u32)>, visited: &mut u64) {
        *visited += 1;
        assert!(*visited < 5_000_000, "the lines do not end");
        let step = |t: Token| {
            let mut n = *s;
            n.apply(t).unwrap();
            n
        };
        match s.phase() {
            Phase::Over => {
                let r = s.result().unwrap();
                ends.push((
                    serde_json::json!({"winner": r.winner.map(|w| w.name()), "points": r.points, "kind": r.kind.name()}),
                    moves,
                ));
            }
            Phase::Roll => {
                for c in 1..=4 {
                    walk(&step(Token::Roll(c)), moves, ends, visited);
                }
            }
            Phase::Opening => unreachable!("a lesson starts after the opening"),
            _ => {
                if matches!(s.phase(), Phase::Decide | Phase::Move) {
                    for &mv in s.moves().iter() {
                        walk(&step(Token::Move(mv)), moves + 1, ends, visited);
                    }
                }
                if matches!(s.phase(), Phase::Decide | Phase::Verdict) {
                    walk(&step(Token::Verdict(true)), moves, ends, visited);
                    walk(&step(Token::Verdict(false)), moves, ends, visited);
                }
            }
        }
    }
    walk(game.state(), 0, &mut ends, &mut visited);
    let mut reached: Vec<Value> = ends.iter().map(|(r, _)| r.clone()).collect();
    reached.sort_by_key(|v| v.to_string());
    reached.dedup();
    let mut said: Vec<Value> = claim["results"].as_array().unwrap().clone();
    said.sort_by_key(|v| v.to_string());
    assert_eq!(
        reached, said,
        "urgammon/{id}: after {m}, every line ({} of them) ends in {reached:?}; the text says {said:?}",
        ends.len()
    );
    if let Some(kind) = claim["rosettes_for"].as_str() {
        for (r, moves) in &ends {
            if r["kind"] == kind {
                assert!(
                    *moves > 1,
                    "urgammon/{id}: a line ends in {r} with {moves} move(s)"
                );
            }
        }
    }
}

/// What a text says of an Urgammon state: each key is a field of the state
/// (`to_act`, `last_turn`, `result`, `phase`) or a JSON pointer into it
/// (`/dark/waiting/P`), with the value it must have.
fn state_claims(id: &str, s: &Value, want: &Value, when: &str) {
    for (key, value) in want.as_object().unwrap() {
        let got = if key.starts_with('/') {
            s.pointer(key).cloned().unwrap_or(Value::Null)
        } else {
            s[key.as_str()].clone()
        };
        assert_eq!(&got, value, "urgammon/{id}: {key} {when}: {s}");
    }
}

/// The glossary's entries that state a rule, each shown on a position.
fn term_examples(game: &str) -> Vec<(String, Value)> {
    let path = format!("{}/static/learn/terms.json", env!("CARGO_MANIFEST_DIR"));
    let data: Value = serde_json::from_str(&std::fs::read_to_string(path).unwrap()).unwrap();
    let mut out = vec![];
    for (term, examples) in data[game].as_object().unwrap() {
        for (n, e) in examples.as_array().unwrap().iter().enumerate() {
            let mut e = e.clone();
            e["id"] = Value::String(format!("term {term} #{}", n + 1));
            out.push((term.clone(), e));
        }
    }
    out
}

/// Every glossary entry that states a rule has a position that shows it,
/// and what the entry says holds there: the same check as the lessons'.
/// Entries that only name something (a ring, a 1 on the die, the engine's
/// score) have none.
#[tokio::test]
async fn every_glossary_rule_holds_on_its_position() {
    let app = agon_server::app(common::state_on(
        agon_server::store::Store::in_memory().unwrap(),
    ));
    let glossary = std::fs::read_to_string(format!(
        "{}/static/js/glossary.js",
        env!("CARGO_MANIFEST_DIR")
    ))
    .unwrap();
    let naming = [
        "rings-sectors",
        "score",
        "mongrel",
        "ishtar",
        "astragalus",
        "match",
    ];
    for (game, start) in [("ringo", "ringo: ["), ("urgammon", "urgammon: [")] {
        let list = &glossary[glossary.find(start).unwrap() + start.len()..];
        let list = &list[..list.find(']').unwrap()];
        let terms: Vec<&str> = list
            .split(',')
            .map(|t| t.trim().trim_matches('"'))
            .filter(|t| !t.is_empty())
            .collect();
        let examples = term_examples(game);
        for t in &terms {
            let shown = examples.iter().any(|(term, _)| term == t);
            assert!(
                shown || naming.contains(t),
                "{game}: the glossary's {t} states a rule and has no position in terms.json"
            );
        }
        for (term, e) in &examples {
            assert!(
                terms.contains(&term.as_str()),
                "{game}: {term} is not in the glossary"
            );
            if game == "ringo" {
                check_ringo(&app, e).await;
            } else {
                check_urgammon(&app, e).await;
            }
        }
    }
}

/// The strategy guide's advice: each position's engine verdict is what the
/// text says (the best move, a proof and its length, which option rates
/// below which and by how much, and what a tempting move allows).
#[tokio::test]
async fn every_strategy_claim_holds_in_the_engine() {
    let app = agon_server::app(common::state_on(
        agon_server::store::Store::in_memory().unwrap(),
    ));
    let path = format!("{}/static/learn/strategy.json", env!("CARGO_MANIFEST_DIR"));
    let data: Value = serde_json::from_str(&std::fs::read_to_string(path).unwrap()).unwrap();
    // The endgame tables' record, which texts quote (read once).
    let proofs: Value = serde_json::from_str(
        &std::fs::read_to_string(concat!(
            env!("CARGO_MANIFEST_DIR"),
            "/../../docs/balance/proofs.json"
        ))
        .unwrap(),
    )
    .unwrap();
    for game in ["ringo", "urgammon"] {
        let items = data[game].as_array().unwrap();
        let phases: Vec<&str> = items.iter().map(|i| i["phase"].as_str().unwrap()).collect();
        for phase in ["opening", "middle", "endings"] {
            assert!(phases.contains(&phase), "{game}: no advice for the {phase}");
        }
        for item in items {
            let id = item["id"].as_str().unwrap();
            for key in ["title", "text", "source"] {
                for lang in ["en", "pl", "fr"] {
                    assert!(
                        !item[key][lang].as_str().unwrap_or_default().is_empty(),
                        "{game}/{id}: no {key} in {lang}"
                    );
                }
            }
            figures_claim(game, id, item, &proofs);
            let engine = &item["engine"];
            let body = if game == "ringo" {
                serde_json::json!({"game": game, "rules": item["rules"], "position": item["position"], "depth": engine["depth"]})
            } else {
                serde_json::json!({"game": game, "setup": item["setup"], "record": item["record"], "level": engine["level"]})
            };
            let (s, a) =
                common::call(&app, "POST", "/api/analyze", None, Some(&body.to_string())).await;
            assert_eq!(s, 200, "{body}: {a}");
            let analysis = &a["analysis"];
            assert_eq!(analysis["best"], engine["best"], "{game}/{id}: {analysis}");
            if let Some(proven) = engine.get("proven") {
                assert_eq!(&analysis["proven"], proven, "{game}/{id}: {analysis}");
            }
            for (m, reply) in engine["reply"].as_object().into_iter().flatten() {
                let mut after = item.clone();
                after["moves"] = Value::String(m.clone());
                let (legal, _) = common::analysed_legal(&app, game, &after).await;
                assert!(
                    legal.iter().any(|x| x == reply),
                    "{game}/{id}: after {m} the text says {reply} follows; legal: {legal:?}"
                );
            }
            let equity = |option: &str| {
                analysis["options"]
                    .as_array()
                    .unwrap()
                    .iter()
                    .find(|o| o["option"] == option)
                    .and_then(|o| o["equity"].as_f64())
                    .unwrap_or_else(|| panic!("{game}/{id}: no option {option}: {analysis}"))
            };
            if let Some(worse) = engine["worse"].as_str() {
                let best = engine["best"].as_str().unwrap();
                assert!(equity(best) > equity(worse), "{game}/{id}: {analysis}");
            }
            // Issue 87: a text that calls its values exact is checked
            // against the exact search (every line played out), and one
            // that quotes the engine is not exact.
            assert_eq!(
                analysis["exact"].as_bool().unwrap_or(false),
                engine["exact"].as_bool().unwrap_or(false),
                "{game}/{id}: exact values or the engine's estimate? {analysis}"
            );
            for (option, said) in engine["equities"].as_object().into_iter().flatten() {
                let said = said.as_f64().unwrap();
                let got = (equity(option) * 100.0).round() / 100.0;
                assert!(
                    (got - said).abs() < 1e-9,
                    "{game}/{id}: the text says {option} rates {said}, the engine {got}"
                );
                // The figure the engine gives is the one every language
                // writes (`−3.00`; `−3,00` in Polish and French).
                for lang in ["en", "pl", "fr"] {
                    let mut figure = format!("{:.2}", got.abs());
                    if lang != "en" {
                        figure = figure.replace('.', ",");
                    }
                    if got < 0.0 {
                        figure.insert(0, '\u{2212}');
                    }
                    let text = item["text"][lang].as_str().unwrap();
                    assert!(
                        text.contains(&figure),
                        "{game}/{id} ({lang}): the engine rates {option} {figure}; the text: {text}"
                    );
                }
            }
        }
    }
}

/// A number as each language writes it: `1,657,784` in English; `1 657 784`
/// in Polish (whose four-digit numbers take no space: `2632`); `2 632` in
/// French.
fn written(n: u64, lang: &str) -> String {
    let digits = n.to_string();
    if lang == "pl" && digits.len() <= 4 {
        return digits;
    }
    let sep = if lang == "en" { "," } else { " " };
    let mut out = String::new();
    for (i, c) in digits.chars().enumerate() {
        if i > 0 && (digits.len() - i).is_multiple_of(3) {
            out.push_str(sep);
        }
        out.push(c);
    }
    out
}

/// Issue 87: a figure a strategy text quotes from the endgame tables or the
/// Rules lab is read from their records (docs/balance/proofs.json, written
/// by the tables' build; the lab's `--json` rows), never from a copy in the
/// text: each `figures` entry names a count (`positions`, `attackers`,
/// `defenders`) or a share (`attackers`, `defenders`, as a whole percent)
/// of one rule set's material class, or a lab row's count (`lab`: its
/// file, `rules`, `player`, `count`), and every language's text must write
/// it. A text that writes a number of four
/// digits or more without a `figures` entry for it fails too: such numbers
/// come from somewhere, and the test must read them there. (It caught "three
/// attackers against one defender always win … every one of 1,660,416
/// positions": the tables give the defenders 2,632 of them.)
fn figures_claim(game: &str, id: &str, item: &Value, proofs: &Value) {
    let mut quoted: Vec<u64> = vec![];
    for f in item["figures"].as_array().into_iter().flatten() {
        // A figure of the Rules lab: a row of its records (docs/balance).
        if let Some(file) = f["lab"].as_str() {
            let lab: Value = serde_json::from_str(
                &std::fs::read_to_string(format!(
                    "{}/../../docs/balance/{file}",
                    env!("CARGO_MANIFEST_DIR")
                ))
                .unwrap(),
            )
            .unwrap();
            let row = lab["rows"]
                .as_array()
                .unwrap()
                .iter()
                .find(|r| r["rules"] == f["rules"] && r["player"] == f["player"])
                .unwrap_or_else(|| panic!("{game}/{id}: no such row in {file}: {f}"));
            let n = row[f["count"].as_str().unwrap()].as_u64().unwrap();
            quoted.push(n);
            for lang in ["en", "pl", "fr"] {
                let text = item["text"][lang].as_str().unwrap();
                assert!(
                    text.contains(&written(n, lang)),
                    "{game}/{id} ({lang}): the lab's records say {n} ({f}); the text: {text}"
                );
            }
            continue;
        }
        let class = proofs["tablebases"][f["tables"].as_str().unwrap()]["classes"]
            .as_array()
            .unwrap()
            .iter()
            .find(|c| c["material"] == f["material"])
            .unwrap_or_else(|| panic!("{game}/{id}: no tables for {f}"));
        for lang in ["en", "pl", "fr"] {
            let text = item["text"][lang].as_str().unwrap();
            let want = if let Some(count) = f["count"].as_str() {
                let n = class[count].as_u64().unwrap();
                quoted.push(n);
                written(n, lang)
            } else {
                let share = f["share"].as_str().unwrap();
                let pct = (100.0 * class[share].as_f64().unwrap()
                    / class["positions"].as_f64().unwrap())
                .round();
                format!("{pct}{}%", if lang == "fr" { " " } else { "" })
            };
            assert!(
                text.contains(&want),
                "{game}/{id} ({lang}): the tables say {want} ({f}); the text: {text}"
            );
        }
    }
    // Every large number in the text is one of them.
    let en = item["text"]["en"].as_str().unwrap();
    for word in en.split(|c: char| !(c.is_ascii_digit() || c == ',')) {
        let digits: String = word.chars().filter(char::is_ascii_digit).collect();
        if digits.len() >= 4 {
            let n: u64 = digits.parse().unwrap();
            assert!(
                quoted.contains(&n),
                "{game}/{id}: the text quotes {word} with no source the test reads (a `figures` entry)"
            );
        }
    }
}

/// A lesson at the end of a match: from its score, the rules crate's own
/// match (taken up at that score) plays the lesson's record and each move
/// it accepts, and must end as `match_after` says: the score, the winner
/// and what the loser pays.
fn match_claims(id: &str, l: &Value, m: &Value) {
    let score = m["score"].as_array().unwrap();
    let settings = urgammon::MatchSettings {
        to: u32::try_from(m["to"].as_u64().unwrap()).unwrap(),
        draw: urgammon::DrawRule::Replay,
        stake: m["stake"].as_str().map(|s| s.parse().unwrap()),
    };
    let start = match l["setup"].as_str() {
        Some(setup) => urgammon::Game::from_state(urgammon::parse_setup(setup).unwrap()),
        None => urgammon::Game::new(),
    };
    for accepted in l["accept"].as_array().unwrap() {
        let mut played = urgammon::Match::resume(
            settings,
            urgammon::BySide::new(
                u32::try_from(score[0].as_u64().unwrap()).unwrap(),
                u32::try_from(score[1].as_u64().unwrap()).unwrap(),
            ),
            start.clone(),
        );
        for token in l["record"]
            .as_str()
            .unwrap()
            .split_whitespace()
            .chain(std::iter::once(accepted.as_str().unwrap()))
        {
            played.apply_text(token).unwrap();
        }
        let want = &l["match_after"];
        let result = played
            .result()
            .unwrap_or_else(|| panic!("urgammon/{id}: the match goes on"));
        let s = result.score.as_array();
        assert_eq!(
            serde_json::json!([s[0], s[1]]),
            want["score"],
            "urgammon/{id}: the score"
        );
        assert_eq!(
            result.winner.map(|w| w.name()),
            want["winner"].as_str(),
            "urgammon/{id}: the winner"
        );
        assert_eq!(
            result.payout.map(|p| p.to_string()),
            want["payout"].as_str().map(str::to_string),
            "urgammon/{id}: what the loser pays"
        );
    }
}

/// The moves a text names (a JSON list, or nothing) are all legal
/// (`present`) or none of them is.
fn moves_claim(
    at: &str,
    named: &Value,
    legal: &[impl AsRef<str> + std::fmt::Debug],
    present: bool,
) {
    for m in named.as_array().into_iter().flatten() {
        let m = m.as_str().unwrap();
        let is = legal.iter().any(|x| x.as_ref() == m);
        let said = if present { "possible" } else { "not possible" };
        assert_eq!(
            is, present,
            "{at}: the text says {m} is {said}; legal: {legal:?}"
        );
    }
}

/// Issue 87: "every preset allows the fortress capture" was checked on one
/// cell. Checked here on every ring-1 cell of every preset, as the rules
/// allow: classic and encyclopedia allow it from all eight; globe
/// (capture-from-neutral=off) from all but a1, the neutral zone's. The
/// lesson and the glossary say so in each language.
#[tokio::test]
async fn the_fortress_capture_is_checked_from_every_ring_one_cell_of_every_preset() {
    let app = agon_server::app(common::state_on(
        agon_server::store::Store::in_memory().unwrap(),
    ));
    let files = "abcdefgh";
    let mut barred = vec![];
    for preset in ["classic", "encyclopedia", "globe"] {
        for (i, c) in files.chars().enumerate() {
            // A lone attacker in the fortress, another far out on ring 6;
            // one defender on ring 1, the facing cell empty.
            let mut ring1 = ['.'; 8];
            ring1[i] = 'D';
            let row: String = ring1.iter().collect();
            let position = format!("....A.../......../......../......../......../{row} 1 d");
            let facing = files.chars().nth((i + 4) % 8).unwrap();
            let (legal, _) = common::analysed_legal(
                &app,
                "ringo",
                &serde_json::json!({"rules": preset, "position": position}),
            )
            .await;
            if !legal.iter().any(|m| m == &format!("{c}1x{facing}1")) {
                barred.push(format!("{preset} {c}1"));
            }
        }
    }
    assert_eq!(
        barred,
        vec!["globe a1"],
        "where the fortress capture is not allowed"
    );
    let lessons: Value = serde_json::from_str(
        &std::fs::read_to_string(format!(
            "{}/static/learn/ringo.json",
            env!("CARGO_MANIFEST_DIR")
        ))
        .unwrap(),
    )
    .unwrap();
    let said = serde_json::to_string(&lessons).unwrap();
    assert!(
        !said.contains("Every preset allows this capture;"),
        "the fortress lesson says every preset allows it from anywhere"
    );
    for lang in ["en", "pl", "fr"] {
        let words = std::fs::read_to_string(format!(
            "{}/static/lang/{lang}.js",
            env!("CARGO_MANIFEST_DIR")
        ))
        .unwrap();
        let fortress = words
            .lines()
            .find(|l| l.contains("\"term.fortress.text\""))
            .unwrap();
        assert!(
            fortress.contains("globe"),
            "{lang}: the glossary's fortress names globe's exception: {fortress}"
        );
    }
}
