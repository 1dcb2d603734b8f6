//! # The shared JSON views
//!
//! The shapes in which the `agon` CLI (`ringo legal`, `urgammon legal`) and
//! the web app describe a game, as typed `Serialize` structs, so both say the
//! same thing in the same words. This crate depends only on the rules crates:
//! the CLI uses it without the web server.
#![forbid(unsafe_code)]
#![deny(missing_docs)]

mod ringo_view;
mod saved;
mod urgammon_view;

pub use ringo_view::*;
pub use saved::{Saved, RESIGN};
pub use urgammon_view::*;

#[cfg(test)]
mod tests {
    use super::*;
    use urgammon::Match;

    #[test]
    fn the_views_keep_their_json_shapes() {
        let game = ringo::Game::parse_record("classic b6-b5").unwrap();
        let v = serde_json::to_value(RingoGame::of(&game)).unwrap();
        assert_eq!(v["history"], serde_json::json!(["b6-b5"]));
        assert_eq!(v["last_move"]["to"], "b5");
        assert_eq!(
            v["captured"],
            serde_json::json!({"attackers": 0, "defenders": 0})
        );
        let m = Match::parse("urgammon match to=3 draw=end stake=5\nstart:2-3 P-2a").unwrap();
        let v = serde_json::to_value(UrgammonMatch::of(&m)).unwrap();
        assert_eq!(v["to_act"], "dark");
        assert_eq!(
            v["match"]["score"],
            serde_json::json!({"light": 0, "dark": 0})
        );
        assert_eq!(v["light"]["board"], serde_json::json!({"2a": "P"}));
        assert_eq!(v["light"]["waiting"]["P"], 2, "three pawns, one entered");
        assert_eq!(v["dice"]["chance"], 2);
        assert_eq!(v["last_move"]["notation"], "P-2a");
    }

    #[test]
    fn the_boards_come_as_cells_moves_and_turns() {
        let game = ringo::Game::parse_record("classic b6-b5 b1-b2").unwrap();
        let v = serde_json::to_value(RingoGame::of(&game)).unwrap();
        assert_eq!(
            v["board"].as_array().unwrap().len(),
            11,
            "7 attackers and 4 defenders"
        );
        assert!(v["board"]
            .as_array()
            .unwrap()
            .contains(&serde_json::json!({"cell": "b5", "side": "attackers"})));
        let first = &v["legal"][0];
        assert_eq!(
            first["notation"].as_str().unwrap(),
            format!(
                "{}-{}",
                first["from"].as_str().unwrap(),
                first["to"].as_str().unwrap()
            )
        );
        // The opening roll; a YES on the verdict die and its move: one turn.
        let m = Match::parse("urgammon match to=3\nstart:2-3 P-2a r2 P-2b r1 v+ 2a-7").unwrap();
        let v = serde_json::to_value(UrgammonMatch::of(&m)).unwrap();
        assert_eq!(v["log"][0]["opening"], serde_json::json!([2, 3]));
        assert_eq!(v["log"][0]["side"], "light");
        assert_eq!(v["log"][0]["moves"][0]["piece"], "P");
        assert_eq!(
            v["log"][0]["moves"][0]["from"],
            serde_json::Value::Null,
            "an entry"
        );
        assert_eq!(v["log"][1]["side"], "dark");
        assert_eq!(v["log"][2]["side"], "light");
        assert_eq!(v["log"][2]["roll"], 1);
        assert_eq!(v["log"][2]["verdict"], true);
        assert_eq!(v["log"][2]["value"], 5, "YES on a 1 is 5");
        assert_eq!(v["log"][2]["moves"][0]["to"], "7");
        assert_eq!(v["paths"]["light"][11], "12a");
        assert_eq!(v["paths"]["dark"][11], "12b");
    }
}
