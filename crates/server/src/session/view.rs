//! The public state of a game as JSON: the rules crate's view, plus what the
//! session knows (revision, seats, Undo, resignation, rematch). The same for
//! every viewer: it never holds a token or an invite code.

use super::{Rules, Session, RESIGNATION};
use serde_json::Value;

impl Session {
    /// The public state as JSON (the same for every viewer; no secrets).
    pub fn view(&self) -> Value {
        let mut v = match &self.rules {
            Rules::Ringo(g) => serde_json::to_value(agon_views::RingoGame::of(g)),
            Rules::Urgammon(m) => serde_json::to_value(agon_views::UrgammonMatch::of(m)),
        }
        // The views are plain data: serializing them cannot fail.
        .unwrap_or_default();
        let names = self.kind.seat_names();
        let resigned = self.resigned.map(|s| names[s as usize]);
        if let Some(seat) = self.resigned {
            let winner = names[1 - seat as usize];
            match &self.rules {
                Rules::Ringo(_) => {
                    v["status"] = Value::from(self.status().name());
                    v["reason"] = Value::from(RESIGNATION);
                    v["moves"] = serde_json::json!([]);
                }
                Rules::Urgammon(m) => {
                    // The match is forfeited as if the winner had reached the
                    // target: the loser pays for the points still missing.
                    let loser_points = m.score()[urgammon::Side::ALL[seat as usize]];
                    let to = m.settings().to;
                    v["match"]["over"] = Value::from(true);
                    v["match"]["winner"] = Value::from(winner);
                    v["match"]["resigned"] = Value::from(names[seat as usize]);
                    v["match"]["payout"] = m
                        .settings()
                        .stake
                        .map(|s| {
                            urgammon::Stake(s.0 * u64::from(to.saturating_sub(loser_points)))
                                .to_string()
                        })
                        .map_or(Value::Null, Value::from);
                    v["moves"] = serde_json::json!([]);
                    v["promoted_moves"] = serde_json::json!([]);
                    v["to_act"] = Value::Null;
                    v["verdict_allowed"] = Value::from(false);
                    v["verdict_forced"] = Value::from(false);
                }
            }
        }
        v["id"] = Value::from(self.row.id.clone());
        v["game"] = Value::from(self.kind.name());
        v["mode"] = Value::from(self.mode.name());
        v["level"] = self.row.level.map_or(Value::Null, Value::from);
        v["engine_seat"] = self.row.engine_seat.map_or(Value::Null, Value::from);
        v["version"] = Value::from(self.tokens.len());
        v["revision"] = Value::from(self.row.revision);
        v["seat_to_act"] = self.seat_to_act().map_or(Value::Null, Value::from);
        v["seat_names"] = serde_json::json!(names);
        v["over"] = Value::from(self.is_over());
        v["between_games"] = Value::from(self.between_games());
        v["undoable"] = serde_json::json!(self.undoable());
        v["resigned"] = resigned.map_or(Value::Null, Value::from);
        v["winner"] = self
            .winner()
            .filter(|_| self.is_over())
            .map(|w| names[w as usize])
            .map_or(Value::Null, Value::from);
        v["rematch"] = self.row.rematch.clone().map_or(Value::Null, Value::from);
        v["seated"] = serde_json::json!([
            self.row.token0.is_some() || self.row.engine_seat == Some(0),
            self.row.token1.is_some() || self.row.engine_seat == Some(1)
        ]);
        v
    }
}
