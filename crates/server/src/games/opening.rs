//! A new game: what it is to be, its first row, and opening it (stored,
//! then in memory, the computer started if it moves first). Creating,
//! importing, a rematch, a pair's second game and the lobby's pairings all
//! open games this way.

use super::error::GameError;
use super::service::Games;
use crate::dice::{Ledger, OsDice};
use crate::model::{InviteSeats, Seat};
use crate::model::{Kind, Mode, Status};
use crate::session::Session;
use crate::session::MAX_TOKENS;
use crate::store::{GameRow, NewRecord, Store};

/// What a new game is, checked.
pub(crate) struct NewGame {
    /// Which game.
    pub kind: Kind,
    /// The rules string or match header.
    pub settings: String,
    /// A Ringo start position.
    pub start: Option<String>,
    /// Who plays the other seat.
    pub mode: Mode,
    /// The computer's level.
    pub level: Option<u8>,
    /// The creator's seat.
    pub my_seat: Seat,
    /// An import's tokens.
    pub tokens: Vec<String>,
    /// Rated.
    pub rated: bool,
    /// A live game's clock (games between two people only).
    pub clock: Option<crate::clock::ClockSettings>,
    /// How long each side has for its first decision (the server's setting).
    pub first_move_ms: i64,
}

/// Builds, stores and opens a game, with the hash of an invite code for a
/// seat when there is one.
pub(crate) async fn open_game(
    app: &Games,
    row: GameRow,
    tokens: Vec<String>,
    invite: Option<(&str, InviteSeats)>,
) -> Result<Session, GameError> {
    let mut row = row;
    // An imported record is past its first moves: not to be aborted.
    if !tokens.is_empty() {
        row.moved = 3;
    }
    // The instance that opens a live game keeps its clock.
    if row.clock.is_some() {
        row.clock_owner = Some(app.instance().to_string());
    }
    let mut session = Session::build(row, tokens, Ledger::default())
        .map_err(|e| GameError::BadRecord(format!("invalid record: {e}")))?;
    let drawn = session.start(&mut OsDice)?;
    if session.tokens.len() > MAX_TOKENS + usize::from(session.resigned.is_some()) {
        return Err(GameError::RecordTooLong(format!(
            "invalid record: the server keeps records of at most {MAX_TOKENS} tokens"
        )));
    }
    session.row.status = session.status();
    session.row.reason = session.reason();
    session.row.score = session.score();
    let (row, all) = (session.row.clone(), session.tokens.clone());
    app.store()
        .create(NewRecord {
            row,
            tokens: all,
            dice: drawn,
            invite: invite.map(|(c, s)| (c.to_string(), s)),
        })
        .await?;
    app.insert(session.clone())?;
    Ok(session)
}

/// A new row for a game with these seat token hashes (`None`: the engine's
/// seat, or a seat waiting for its invite).
pub(crate) fn new_row(
    g: &NewGame,
    token0: Option<String>,
    token1: Option<String>,
    engine_seat: Option<Seat>,
) -> Result<GameRow, GameError> {
    let now = Store::now();
    Ok(GameRow {
        id: crate::secrets::game_id().map_err(|e| GameError::Internal(e.to_string()))?,
        kind: g.kind,
        settings: g.settings.clone(),
        mode: g.mode,
        level: (g.mode == Mode::Engine).then(|| g.level.unwrap_or(3)),
        engine_seat,
        token0,
        token1,
        start_position: g.start.clone(),
        status: Status::Ongoing,
        created_at: now,
        updated_at: now,
        revision: 0,
        reason: None,
        rematch: None,
        score: None,
        accounts: [None, None],
        rated: g.rated,
        pair_first: None,
        rating_change: None,
        pair_score: None,
        clock: g
            .clock
            .map(|c| c.start(crate::clock::now_ms(), g.first_move_ms)),
        clock_owner: None,
        moved: 0,
        offer: None,
    })
}
