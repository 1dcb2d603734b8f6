//! The games list's query and its cursor.

use super::rows::GameRow;

/// Which games [`Store::list`] answers: at most `limit`, most recently
/// changed first (then most recently created, then by id, so the order is
/// total and a page can start where the last one ended).
#[derive(Clone, Debug, Default)]
pub struct ListQuery {
    /// The most games answered.
    pub limit: usize,
    /// Only these games (a player's own, from the tokens their browser
    /// keeps); `None` for every game.
    pub ids: Option<Vec<String>>,
    /// Only games that come after this one in the order (the next page).
    pub after: Option<ListCursor>,
    /// Also the games where this account holds a seat (with `ids`: either).
    pub account: Option<i64>,
}

/// Whether `s` can be a game id: 1 to 64 ASCII letters and digits (what the
/// games list takes from a query, in `ids` and in a cursor).
pub fn is_game_id(s: &str) -> bool {
    (1..=64).contains(&s.len()) && s.bytes().all(|b| b.is_ascii_alphanumeric())
}

/// A place in the games list's order: the last game of a page.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct ListCursor {
    /// The game's `updated_at`.
    pub updated_at: i64,
    /// The game's `created_at`.
    pub created_at: i64,
    /// The game's id.
    pub id: String,
}

impl ListCursor {
    /// The cursor of `row`: the next page starts after it.
    pub fn of(row: &GameRow) -> ListCursor {
        ListCursor {
            updated_at: row.updated_at,
            created_at: row.created_at,
            id: row.id.clone(),
        }
    }
}

impl std::fmt::Display for ListCursor {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        write!(f, "{}.{}.{}", self.updated_at, self.created_at, self.id)
    }
}

impl std::str::FromStr for ListCursor {
    type Err = ();
    /// `UPDATED.CREATED.ID`, as [`ListCursor`]'s `Display` writes it.
    fn from_str(s: &str) -> Result<ListCursor, ()> {
        let mut parts = s.splitn(3, '.');
        let updated_at = parts.next().ok_or(())?.parse().map_err(|_| ())?;
        let created_at = parts.next().ok_or(())?.parse().map_err(|_| ())?;
        let id = parts.next().ok_or(())?;
        if !is_game_id(id) {
            return Err(());
        }
        Ok(ListCursor {
            updated_at,
            created_at,
            id: id.to_string(),
        })
    }
}
