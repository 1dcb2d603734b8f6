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
        // A connection refused by the server (a wrong password, no such
        // database or user) says the server's reason, never "db error"; the
        // URL, and so its password, is never in it.
        let reason = match &e {
            deadpool_postgres::PoolError::Backend(pg) => match pg.as_db_error() {
                Some(db) => format!("{}: {}", db.code().code(), db.message()),
                None => pg.to_string(),
            },
            other => other.to_string(),
        };
        StoreError::Postgres(format!("no connection to PostgreSQL: {reason}"))
    }
}

/// A store call's answer.
pub type Stored<T> = Result<T, StoreError>;

#[cfg(test)]
mod tests {
    /// The server's reason, as PostgreSQL words it, reaches the operator.
    #[tokio::test]
    async fn a_refused_connection_says_the_servers_reason_and_never_the_password() {
        let Some(admin) = std::env::var("AGON_TEST_DATABASE_URL").ok() else {
            return;
        };
        let mut url: url::Url = admin.parse().unwrap();
        url.set_path("/no_such_database_here");
        let _ = url.set_password(Some("a-secret-password"));
        let Err(e) = crate::store::PgStore::connect(url.as_str()).await else {
            panic!("no such database, yet connected");
        };
        let e = e.to_string();
        assert!(!e.contains("a-secret-password"), "{e}");
        assert!(!e.ends_with("db error"), "{e}");
        assert!(
            e.contains("no_such_database_here"),
            "the server's reason: {e}"
        );
        // Nor does a URL that does not read print itself.
        let Err(e) =
            crate::store::PgStore::connect("postgres://u:a-secret-password@/x?bad=1").await
        else {
            panic!("a bad URL connected");
        };
        assert!(!e.to_string().contains("a-secret-password"), "{e}");
    }
}
