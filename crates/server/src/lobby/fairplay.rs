//! Fair play in the lobby: a player who abandons live games (lets a game
//! be claimed against her after she left, aborts or lets games abort
//! without ever making her first decision) is paused before she may seek,
//! pair or challenge again, longer with each further abandonment in a row,
//! and told why and until when. Read from her stored games, so it holds on
//! every instance and through restarts.

use super::error::{LobbyError, Pause};
use super::service::Lobby;
use crate::model::{Mode, Outcome, Seat, Status};
use crate::store::{GameRow, ListQuery};

/// Abandonments in a row before the first pause.
pub const ABANDONS_BEFORE_PAUSE: usize = 3;

/// The first pause, in milliseconds (five minutes); each further
/// abandonment in a row makes it three times longer, up to a day.
pub const FIRST_PAUSE_MS: i64 = 5 * 60_000;

/// The longest pause.
pub const LONGEST_PAUSE_MS: i64 = 24 * 3_600_000;

/// How many of a player's latest games are looked at.
const LOOKED_AT: usize = 20;

/// How long a pause lasts after `in_a_row` abandonments in a row (none
/// before [`ABANDONS_BEFORE_PAUSE`]).
pub fn pause_ms(in_a_row: usize) -> Option<i64> {
    let extra = in_a_row.checked_sub(ABANDONS_BEFORE_PAUSE)?;
    let mut ms = FIRST_PAUSE_MS;
    for _ in 0..extra.min(10) {
        ms = (ms * 3).min(LONGEST_PAUSE_MS);
    }
    Some(ms)
}

/// The seat that abandoned a finished live game between people, if one
/// did: the seat the win was claimed against (she had left), or the one
/// that ended the game before each side had made a decision
/// ([`ended_early_by`]).
pub fn abandoned_by(row: &GameRow, tokens: &[String]) -> Option<Seat> {
    let live = row.clock.as_ref().is_some_and(|c| c.days == 0);
    if !live || row.mode != Mode::Friend {
        return None;
    }
    if row.status != Status::Aborted && row.reason.as_deref() == Some("claim") {
        return lost(row);
    }
    ended_early_by(row, tokens)
}

/// The seat that ended a game before each side had made a decision, if one
/// did (issue 86: such a game is no game, in the lobby's pauses and in a
/// tournament's scores alike): in an abort, the one that had not moved when
/// the other had (or, neither having moved, the one who was to open it:
/// `tokens`, the record, says who in Urgammon); in a resignation or a flag,
/// the side that lost. A draw, a game in play or one both had begun: none.
pub fn ended_early_by(row: &GameRow, tokens: &[String]) -> Option<Seat> {
    if row.moved & 3 == 3 {
        return None;
    }
    match row.status {
        Status::Ongoing => None,
        Status::Aborted => match row.moved & 3 {
            1 => Some(Seat::Second),
            2 => Some(Seat::First),
            _ => crate::kinds::of(row.kind).first_mover(tokens),
        },
        _ => lost(row),
    }
}

/// The seat that lost a finished game, if one did.
fn lost(row: &GameRow) -> Option<Seat> {
    Seat::BOTH
        .into_iter()
        .find(|seat| row.status.outcome_for(row.kind, *seat) == Outcome::Lost)
}

impl Lobby {
    /// The pause `account` is in now, if any.
    ///
    /// # Errors
    /// The store failed.
    pub async fn pause_of(&self, account: i64) -> Result<Option<Pause>, LobbyError> {
        let rows = self
            .store()
            .list(&ListQuery {
                limit: LOOKED_AT,
                account: Some(account),
                ..Default::default()
            })
            .await?;
        let mut in_a_row = 0;
        let mut last_at = 0;
        for (row, _) in rows.iter().filter(|(r, _)| {
            r.status != Status::Ongoing
                && r.mode == Mode::Friend
                && r.clock.as_ref().is_some_and(|c| c.days == 0)
        }) {
            let Some(mine) = Seat::BOTH.into_iter().find(|s| {
                row.accounts[s.index()]
                    .as_ref()
                    .is_some_and(|a| a.id == account)
            }) else {
                continue;
            };
            // Who was to open the game is in its record where the game
            // does not say it alone (Urgammon's opening rolls): read only
            // when it decides.
            let tokens = if row.status == Status::Aborted
                && row.moved & 3 == 0
                && crate::kinds::of(row.kind).first_mover(&[]).is_none()
            {
                self.store()
                    .load(&row.id)
                    .await?
                    .map(|l| l.tokens)
                    .unwrap_or_default()
            } else {
                vec![]
            };
            if abandoned_by(row, &tokens) != Some(mine) {
                break;
            }
            if in_a_row == 0 {
                last_at = row.updated_at * 1000;
            }
            in_a_row += 1;
        }
        Ok(pause_ms(in_a_row)
            .map(|ms| Pause {
                until_ms: last_at + ms,
                abandoned: in_a_row,
            })
            .filter(|p| p.until_ms > crate::clock::now_ms()))
    }

    /// Refuses a paused player (before she seeks, pairs or challenges), and
    /// one a moderator banned from rated play from a `rated` game.
    pub(super) async fn check_pause(
        &self,
        account: Option<i64>,
        rated: bool,
    ) -> Result<(), LobbyError> {
        let Some(a) = account else { return Ok(()) };
        if rated
            && crate::safety::rated_banned(self.store(), a)
                .await?
                .is_some()
        {
            return Err(LobbyError::RatedBanned);
        }
        match self.pause_of(a).await? {
            Some(p) => Err(LobbyError::Paused(p)),
            None => Ok(()),
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::model::Kind;

    #[test]
    fn the_pause_starts_at_three_in_a_row_and_grows_to_a_day() {
        assert_eq!(pause_ms(0), None);
        assert_eq!(pause_ms(2), None);
        assert_eq!(pause_ms(3), Some(5 * 60_000));
        assert_eq!(pause_ms(4), Some(15 * 60_000));
        assert_eq!(pause_ms(5), Some(45 * 60_000));
        assert_eq!(pause_ms(20), Some(LONGEST_PAUSE_MS));
    }

    #[test]
    /// "The attackers move first" (Ringo §2); "the lower roll starts"
    /// (Urgammon §5.1; a tie is rolled again). Until 2026-12-07 this said
    /// the higher roll, and an Urgammon game abandoned before its first
    /// move paused the wrong player.
    fn the_first_mover_is_the_attackers_or_the_lower_opening_roll() {
        let first = |kind: Kind, tokens: &[&str]| {
            let tokens: Vec<String> = tokens.iter().map(|s| s.to_string()).collect();
            crate::kinds::of(kind).first_mover(&tokens)
        };
        assert_eq!(first(Kind::Ringo, &[]), Kind::Ringo.seat_of("attackers"));
        assert_eq!(
            first(Kind::Urgammon, &["start:2-2", "start:3-1"]),
            Kind::Urgammon.seat_of("dark")
        );
        assert_eq!(
            first(Kind::Urgammon, &["start:1-4"]),
            Kind::Urgammon.seat_of("light")
        );
        assert_eq!(first(Kind::Urgammon, &[]), None);
        assert_eq!(first(Kind::Urgammon, &["start:9-9"]), None);
    }
}
