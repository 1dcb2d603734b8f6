//! Why the store failed or refused, one error for both backends.

/// A store failure, or a change made from an old revision.
#[derive(Debug, thiserror::Error)]
pub enum StoreError {
    /// SQLite failed; nothing was changed.
    #[error("storage error: {0}")]
    Sql(#[from] rusqlite::Error),
    /// The game changed since the revision the change was made from.
    #[error("the game has changed meanwhile (now at revision {0}); reload and try again")]
    Stale(i64),
    /// The batch holding the change could not be committed; nothing of it
    /// was stored.
    #[error("storage error: the commit failed: {0}")]
    Commit(String),
    /// The store's writer has stopped.
    #[error("storage error: the store is closed")]
    Closed,
    /// PostgreSQL failed (or could not be reached); nothing was changed.
    #[error("storage error: {0}")]
    Postgres(String),
    /// The engine queue is only kept in PostgreSQL.
    #[error("the engine queue needs the PostgreSQL store (agon serve --database postgres://…)")]
    NoQueue,
}

impl From<tokio_postgres::Error> for StoreError {
    fn from(e: tokio_postgres::Error) -> StoreError {
        // The server's own message says what went wrong; the bare error
        // often only says "db error".
        match e.as_db_error() {
            Some(db) => StoreError::Postgres(format!("{}: {}", db.code().code(), db.message())),
            None => StoreError::Postgres(e.to_string()),
        }
    }
}

impl From<deadpool_postgres::PoolError> for StoreError {
    fn from(e: deadpool_postgres::PoolError) -> StoreError {
        StoreError::Postgres(format!("no connection to PostgreSQL: {e}"))
    }
}

/// A store call's answer.
pub type Stored<T> = Result<T, StoreError>;
