//! The SQLite store as a [`Backend`]: each call goes to the writer thread or
//! a reader connection.

use super::*;
use crate::model::InviteSeats;
use crate::store::backend::Backend;
use crate::store::error::Stored;
use crate::store::rows::NewRecord;

#[async_trait::async_trait]
impl Backend for SqliteStore {
    async fn create(&self, new: NewRecord) -> Stored<()> {
        let (row, tokens, dice, invite) = (new.row, new.tokens, new.dice, new.invite);
        self.write(move |c| {
            sql::create(
                c,
                &row,
                &tokens,
                &dice,
                invite.as_ref().map(|(s, n)| (s.as_str(), *n)),
            )
            .map_err(StoreError::from)
        })
        .await
    }

    async fn commit(&self, id: &str, c: Commit) -> Result<i64, StoreError> {
        let id = id.to_string();
        self.write(move |conn| sql::commit(conn, &id, &c)).await
    }

    async fn add_dice(&self, id: &str, dice: Vec<Drawn>) -> Result<(), StoreError> {
        let id = id.to_string();
        self.write(move |c| sql::add_dice(c, &id, &dice).map_err(StoreError::from))
            .await
    }

    async fn add_invite(
        &self,
        id: &str,
        code_hash: String,
        seat: InviteSeats,
    ) -> Result<(), StoreError> {
        let id = id.to_string();
        self.write(move |c| sql::add_invite(c, &id, &code_hash, seat).map_err(StoreError::from))
            .await
    }

    async fn claim_invite(
        &self,
        id: &str,
        code: String,
        token: String,
    ) -> Stored<Option<(InviteSeats, i64)>> {
        let (code_hash, token_hash) = (code, token);
        let id = id.to_string();
        self.write(move |c| {
            sql::claim_invite(c, &id, &code_hash, &token_hash).map_err(StoreError::from)
        })
        .await
    }

    async fn set_rematch(&self, id: &str, from_revision: i64, rematch: String) -> Stored<i64> {
        let id = id.to_string();
        self.write(move |c| sql::set_rematch(c, &id, from_revision, &rematch))
            .await
    }

    async fn load(&self, id: &str) -> Result<Option<Loaded>, StoreError> {
        let id = id.to_string();
        self.read(move |c| sql::load(c, &id)).await
    }

    async fn list(&self, query: &ListQuery) -> Result<Vec<(GameRow, usize)>, StoreError> {
        let query = query.clone();
        self.read(move |c| sql::list(c, &query)).await
    }

    async fn review(&self, id: &str) -> Result<Option<(i64, String)>, StoreError> {
        let id = id.to_string();
        self.read(move |c| sql::review(c, &id)).await
    }

    async fn save_review(&self, id: &str, revision: i64, body: String) -> Result<(), StoreError> {
        let id = id.to_string();
        self.write(move |c| sql::save_review(c, &id, revision, &body).map_err(StoreError::from))
            .await
    }

    fn backend(&self) -> &'static str {
        "sqlite"
    }

    fn commit_stats(&self) -> (usize, usize) {
        (
            self.stats[0].load(Ordering::Relaxed),
            self.stats[1].load(Ordering::Relaxed),
        )
    }

    fn timings(&self) -> Option<crate::store::rows::StoreTimings> {
        Some(SqliteStore::timings(self))
    }
}
