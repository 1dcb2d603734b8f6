//! Quick pairing: a few pools of common settings. A player who joins a
//! pool is paired at once with a waiting player whose rating is near
//! enough, or waits (her seek, hidden from the lobby, held by her lobby
//! socket) while the range she accepts widens with her waiting time; every
//! second each instance pairs the waiting players it can. Taking both
//! seeks is one conditional write each, so a player is never paired twice.

use super::error::LobbyError;
use super::service::{owns, rating_of, Lobby, Made, Paired, SeekSpec};
use crate::clock::{now_ms, ClockSettings};
use crate::model::{Kind, Seat};
use crate::store::{SeatAccount, SeekRow};
use serde::Serialize;

/// A quick-pairing pool.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Pool {
    /// Its name in the API.
    pub id: &'static str,
    /// Which game.
    pub kind: Kind,
    /// Ringo's rules.
    pub rules: Option<&'static str>,
    /// Urgammon's match target.
    pub to: u32,
    /// The clock.
    pub clock: ClockSettings,
}

/// The pools: Ringo 5+3 on `classic` and on the Rules lab's most even set
/// (a test checks that it is still the lab's choice), and an Urgammon
/// match to 3 with 5+5 on the clock; and the same even Ringo and Urgammon
/// match by correspondence, three days per move.
pub const POOLS: [Pool; 5] = [
    Pool {
        id: "ringo-classic-5+3",
        kind: Kind::Ringo,
        rules: Some("classic"),
        to: 7,
        clock: ClockSettings {
            base_secs: 300,
            increment_secs: 3,
            days: 0,
        },
    },
    Pool {
        id: "ringo-even-5+3",
        kind: Kind::Ringo,
        rules: Some(EVEN_RULES),
        to: 7,
        clock: ClockSettings {
            base_secs: 300,
            increment_secs: 3,
            days: 0,
        },
    },
    Pool {
        id: "urgammon-3-5+5",
        kind: Kind::Urgammon,
        rules: None,
        to: 3,
        clock: ClockSettings {
            base_secs: 300,
            increment_secs: 5,
            days: 0,
        },
    },
    Pool {
        id: "ringo-even-3d",
        kind: Kind::Ringo,
        rules: Some(EVEN_RULES),
        to: 7,
        clock: ClockSettings {
            base_secs: 3 * 86_400,
            increment_secs: 0,
            days: 3,
        },
    },
    Pool {
        id: "urgammon-3-3d",
        kind: Kind::Urgammon,
        rules: None,
        to: 3,
        clock: ClockSettings {
            base_secs: 3 * 86_400,
            increment_secs: 0,
            days: 3,
        },
    },
];

pub use crate::kinds::EVEN_RULES;

/// A pool as the lobby page shows it.
#[derive(Serialize, Clone, Debug)]
pub struct PoolView {
    /// Its name.
    pub id: &'static str,
    /// Which game.
    pub game: Kind,
    /// The rules string or match header.
    pub settings: String,
    /// The clock.
    pub clock: ClockSettings,
    /// The clock as players read it.
    pub clock_label: String,
    /// Players waiting in it now.
    pub waiting: usize,
}

/// The rating difference a player who has waited `waited_ms` accepts: 100
/// at once, 50 more each second, up to 1,000.
pub fn range(waited_ms: i64) -> f64 {
    (100.0 + 50.0 * (waited_ms.max(0) as f64 / 1000.0)).min(1000.0)
}

/// The rating a pool pairs by (1500 without an account).
fn pool_rating(s: &SeekRow) -> f64 {
    s.rating.unwrap_or(1500.0)
}

/// Whether two waiting players may be paired at `now`: not the same
/// account, and each within the other's range.
fn fits(a: &SeekRow, b: &SeekRow, now: i64) -> bool {
    let same = matches!((&a.account, &b.account), (Some(x), Some(y)) if x.id == y.id);
    let gap = (pool_rating(a) - pool_rating(b)).abs();
    !same && gap <= range(now - a.created_ms).min(range(now - b.created_ms))
}

/// The pools with `waiting(pool)` players waiting in each.
pub(crate) fn pool_views(waiting: impl Fn(&str) -> usize) -> Result<Vec<PoolView>, LobbyError> {
    POOLS
        .iter()
        .map(|p| {
            let settings = crate::kinds::of(p.kind).settings(&crate::kinds::SettingsFields {
                rules: p.rules,
                to: p.to,
                draw: None,
                stake: None,
            })?;
            Ok(PoolView {
                id: p.id,
                game: p.kind,
                settings,
                clock: p.clock,
                clock_label: p.clock.label(),
                waiting: waiting(p.id),
            })
        })
        .collect()
}

impl Lobby {
    /// The pools, with how many wait in each.
    ///
    /// # Errors
    /// The store failed.
    pub async fn pools(&self) -> Result<Vec<PoolView>, LobbyError> {
        let open = self.store().open_seeks(now_ms()).await?;
        pool_views(|id| {
            open.iter()
                .filter(|s| s.pool.as_deref() == Some(id))
                .count()
        })
    }

    /// Joins a pool: paired at once with a waiting player near enough
    /// (`Ok(Err(paired))`), or waiting (`Ok(Ok(made))`: hold the seek on
    /// the lobby's socket; its `gone` message names the game).
    ///
    /// # Errors
    /// No such pool; a rated pool without an account.
    pub async fn join_pool(
        &self,
        pool: &str,
        rated: bool,
        who: Option<SeatAccount>,
        token: Option<&str>,
    ) -> Result<Result<Made, Paired>, LobbyError> {
        let p = POOLS
            .iter()
            .find(|p| p.id == pool)
            .ok_or_else(|| LobbyError::UnknownPool(pool.to_string()))?;
        if rated && who.is_none() {
            return Err(LobbyError::NotSignedIn);
        }
        self.check_pause(who.as_ref().map(|a| a.id), rated).await?;
        let now = now_ms();
        let (mine, _) = rating_of(self, who.as_ref(), p.kind).await;
        let me = SeekRow {
            id: String::new(),
            created_ms: now,
            expires_ms: now,
            kind: p.kind,
            settings: String::new(),
            clock: None,
            rated,
            seat: Seat::First,
            account: who.clone(),
            rating: who.as_ref().map(|_| mine),
            rating_min: None,
            rating_max: None,
            pool: None,
            token_hash: String::new(),
            game: None,
        };
        let waiting = self.store().open_seeks(now).await?;
        // A player waits once in a pool: the seek her token already holds
        // there is given back; one her account holds under another token
        // (another page's) is not doubled (two entries of one player could
        // only be paired with each other, and would count twice).
        if let Some(s) = waiting
            .iter()
            .find(|s| s.pool.as_deref() == Some(p.id) && owns(s, token, who.as_ref().map(|a| a.id)))
        {
            return match token.filter(|t| !t.is_empty() && owns(s, Some(t), None)) {
                Some(t) => Ok(Ok(Made {
                    id: s.id.clone(),
                    token: t.to_string(),
                })),
                None => Err(LobbyError::AlreadyWaiting),
            };
        }
        let candidates = waiting.iter().filter(|s| {
            s.pool.as_deref() == Some(p.id)
                && s.rated == rated
                && !owns(s, token, who.as_ref().map(|a| a.id))
                && fits(s, &me, now)
        });
        for s in candidates {
            let token = crate::secrets::secret()?;
            match self
                .pair(s, crate::secrets::hash(&token), who.clone(), None)
                .await
            {
                Ok(game) => return Ok(Err(Paired { game, token })),
                // Someone else was quicker, or one blocks the other: try
                // the next.
                Err(LobbyError::Taken | LobbyError::Blocked) => continue,
                Err(e) => return Err(e),
            }
        }
        let spec = SeekSpec {
            kind: p.kind,
            rules: p.rules.map(str::to_string),
            to: p.to,
            clock: Some(p.clock),
            rated,
            seat: None,
            rating_min: None,
            rating_max: None,
        };
        Ok(Ok(self.make_seek(spec, who, Some(p.id)).await?))
    }

    /// Pairs the players waiting in each pool, longest waiting first, each
    /// with the nearest rating within both players' ranges.
    pub(crate) async fn pair_pools(&self, now: i64) -> Result<(), LobbyError> {
        let open = self.store().open_seeks(now).await?;
        let mut used = std::collections::HashSet::new();
        for a in open.iter().filter(|s| s.pool.is_some()) {
            if used.contains(&a.id) {
                continue;
            }
            let mut near: Vec<&SeekRow> = open
                .iter()
                .filter(|b| {
                    b.id != a.id
                        && !used.contains(&b.id)
                        // Never a player against herself.
                        && !(a.account.is_some()
                            && a.account.as_ref().map(|x| x.id) == b.account.as_ref().map(|x| x.id))
                        && b.pool == a.pool
                        && b.rated == a.rated
                        && fits(a, b, now)
                })
                .collect();
            near.sort_by(|x, y| {
                let dx = (pool_rating(x) - pool_rating(a)).abs();
                let dy = (pool_rating(y) - pool_rating(a)).abs();
                dx.total_cmp(&dy)
            });
            // The nearest rating first; one who blocks the other (or is
            // blocked) is passed over for the next.
            for b in near {
                // The newer seek's creator takes the older one's seat's
                // opposite: her token is her own seek's.
                match self
                    .pair(a, b.token_hash.clone(), b.account.clone(), Some(b))
                    .await
                {
                    Ok(_) => {
                        used.insert(a.id.clone());
                        used.insert(b.id.clone());
                        break;
                    }
                    Err(LobbyError::Blocked) => continue,
                    Err(LobbyError::Taken) => break,
                    Err(e) => return Err(e),
                }
            }
        }
        Ok(())
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_range_widens_with_waiting_time() {
        assert_eq!(range(0), 100.0);
        assert_eq!(range(4_000), 300.0);
        assert_eq!(range(60_000), 1000.0);
    }
}
