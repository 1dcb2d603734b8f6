//! JSON views of the rules state, shared by the CLI's `legal` commands and the
//! web app, so both describe a game the same way.

use serde_json::{json, Map, Value};
use urgammon::{Kind, Match, Side, State};

/// Ringo: the `agon ringo legal` object (position, side to move, status, sorted
/// legal moves) plus the history and counts the web board needs.
pub fn ringo_game_json(game: &ringo::Game) -> Value {
    let pos = game.position();
    let rules = game.rules();
    let moves = game.move_notations();
    json!({
        "rules": rules.to_string(),
        "rings": rules.rings,
        "position": pos.to_text(rules.rings),
        "start_position": game.start_position().to_text(rules.rings),
        "to_move": pos.to_move().name(),
        "status": game.status_name(),
        "reason": game.outcome().map(|o| o.reason.name()),
        "ply": game.ply(),
        "moves": game.legal_notations(),
        "history": moves,
        "last_move": game.moves().last().map(|m| json!({
            "from": m.from().map(|c| c.to_string()),
            "to": m.to().map(|c| c.to_string()),
            "captured": m.captured().map(|c| c.to_string()),
        })),
        "captured": {
            "attackers": u32::from(rules.attackers).saturating_sub(pos.attackers_left()),
            "defenders": 4u32.saturating_sub(pos.defenders_left()),
        },
        "fortress": pos.fortress(),
    })
}

fn sorted_notation(list: &[urgammon::Move], side: Option<Side>) -> Vec<String> {
    let Some(side) = side else { return vec![] };
    let mut v: Vec<String> = list.iter().map(|m| m.notation(side)).collect();
    v.sort_unstable();
    v
}

/// Urgammon: the `agon urgammon legal` object for one game state.
pub fn urgammon_state_json(state: &State) -> Value {
    let side = state.to_act();
    let result = state.result().map(|r| {
        json!({
            "winner": r.winner.map(Side::name),
            "points": r.points,
            "kind": r.kind.name(),
        })
    });
    let army = |s: Side| {
        let a = state.position().army(s);
        let board: Map<String, Value> = a
            .on_board()
            .map(|(p, k)| {
                (
                    urgammon::house_at(s, p).to_string(),
                    json!(k.letter().to_string()),
                )
            })
            .collect();
        json!({
            "board": board,
            "waiting": {"P": a.waiting(Kind::Pawn), "C": a.waiting(Kind::Chariot), "H": a.waiting(Kind::Hero)},
            "palace": {"P": a.palace(Kind::Pawn), "C": a.palace(Kind::Chariot), "H": a.palace(Kind::Hero)},
        })
    };
    json!({
        "to_act": side.map(Side::name),
        "phase": state.phase().name(),
        "value": state.value(),
        "chance": state.chance(),
        "moves": sorted_notation(&state.moves(), side),
        "promoted_moves": sorted_notation(&state.promoted_moves(), side),
        "last_turn": state.last_turn(),
        "starter": state.starter().map(Side::name),
        "result": result,
        "light": army(Side::Light),
        "dark": army(Side::Dark),
    })
}

/// Urgammon: the match score, target, result and payout.
pub fn match_json(m: &Match) -> Value {
    let r = m.result();
    json!({
        "to": m.settings().to,
        "draw": match m.settings().draw { urgammon::DrawRule::Replay => "replay", urgammon::DrawRule::End => "end" },
        "stake": m.settings().stake.map(|s| s.to_string()),
        "score": {"light": m.score().light, "dark": m.score().dark},
        "games": m.finished().len() + 1,
        "over": r.is_some(),
        "winner": r.and_then(|r| r.winner).map(Side::name),
        "payout": r.and_then(|r| r.payout).map(|p| p.to_string()),
        "results": m.finished().iter().map(|g| {
            let r = g.state().result();
            json!({
                "winner": r.and_then(|r| r.winner).map(Side::name),
                "points": r.map(|r| r.points),
                "kind": r.map(|r| r.kind.name()),
            })
        }).collect::<Vec<_>>(),
    })
}

/// Urgammon for the web: the current game's state, the match, the tokens of the
/// current game, the last dice and the last move.
pub fn urgammon_match_view(m: &Match) -> Value {
    let game = m.current();
    let mut v = urgammon_state_json(game.state());
    v["match"] = match_json(m);
    v["settings"] = Value::from(m.settings().header());
    v["tokens"] = json!(game.token_texts());
    // The dice of the turn in progress, or of the last turn: the last chance roll
    // (or opening value) and whether the verdict die followed it.
    let mut chance = None;
    let mut verdict = None;
    let mut last_move = None;
    let mut replay = urgammon::Game::new();
    for t in game.tokens() {
        let side = replay.state().to_act();
        match *t {
            urgammon::Token::Start(l, d) if l != d => {
                chance = Some(l.min(d));
                verdict = None;
            }
            urgammon::Token::Roll(c) => {
                chance = Some(c);
                verdict = None;
            }
            urgammon::Token::Verdict(y) => verdict = Some(y),
            urgammon::Token::Move(mv) => {
                if let Some(s) = side {
                    last_move = Some(json!({
                        "side": s.name(),
                        "from": mv.from_house(s).map(|h| h.to_string()),
                        "to": mv.to_house(s).map(|h| h.to_string()),
                        "notation": mv.notation(s),
                    }));
                }
            }
            _ => {}
        }
        let _ = replay.apply(*t);
    }
    v["dice"] = json!({"chance": chance, "verdict": verdict});
    v["last_move"] = last_move.unwrap_or(Value::Null);
    v["verdict_allowed"] = Value::from(matches!(
        game.state().phase(),
        urgammon::Phase::Decide | urgammon::Phase::Verdict
    ));
    v["verdict_forced"] = Value::from(game.state().phase() == urgammon::Phase::Verdict);
    v
}
