//! The one finisher (lila's `Finisher`): every way a game ends (a win by
//! the rules, a resignation, a flag, an abort by a player or by the
//! server's first-move wait, a claim, correspondence days run out, a match
//! ended by the verdict die) reaches here from the door's after-change, with
//! the game still locked, before anyone is told. An aborted game has no
//! result: never rated, no pair goes on. The first game of a rated Ringo
//! pair opens the second (seats swapped, its own first-move wait after a
//! pause both players see); the second game of a pair, or an Urgammon
//! match, rates both accounts once (ratings.rs says how a result becomes a
//! rating period).

use super::error::GameError;
use super::round::Change;
use super::service::Games;
use crate::dice::Ledger;
use crate::model::{Kind, Status};
use crate::ratings;
use crate::session::Session;
use crate::store::{GameRow, NewRecord};

use crate::session::PAIR_PAUSE_MS;

/// The account `me`'s score in a finished game: 1 a win, 0.5 a draw, 0 a
/// loss (a resignation is a loss).
fn score_for(session: &Session, me: i64) -> f64 {
    match session.winner() {
        None => 0.5,
        Some(w) => {
            let winner = session.row.accounts[w.index()].as_ref().map(|a| a.id);
            if winner == Some(me) {
                1.0
            } else {
                0.0
            }
        }
    }
}

/// Whether a new game's row begins a rated pair: a rated Ringo game is
/// played as a pair, seats swapped for the second (the one place this rule
/// is written; creation, the lobby and rematches call it).
pub(crate) fn begin_pair(row: &mut GameRow) {
    row.pair_first = match row.kind {
        Kind::Ringo if row.rated => Some(row.id.clone()),
        Kind::Ringo | Kind::Urgammon => None,
    };
}

/// What the end of a game calls for.
enum Next {
    /// Nothing: not rated, aborted, or done already.
    Nothing,
    /// A rated pair's first game ended: its second game opens.
    SecondGame,
    /// Rate both accounts, with these scores for the first seat's account
    /// (one per rating period's game) and a pair's score.
    Rate {
        accounts: [i64; 2],
        scores: Vec<f64>,
        pair_score: Option<[f64; 2]>,
    },
}

impl Games {
    /// Finishes a game that has just ended (held locked by the door): the
    /// pair's second game, or the rating. A failure is logged: the game
    /// stays ended, and is rated when next loaded.
    pub(crate) async fn finish(&self, session: &mut Session) -> bool {
        match self.finish_inner(session).await {
            Ok(changed) => changed,
            Err(e) => {
                tracing::error!(error = %e, game = %session.row.id, "finishing a game failed");
                false
            }
        }
    }

    async fn finish_inner(&self, session: &mut Session) -> Result<bool, GameError> {
        match self.next_after(session).await? {
            Next::Nothing => Ok(false),
            Next::SecondGame => {
                let second = self.open_second(session).await?;
                self.write_now(session, Change::Link(second)).await
            }
            Next::Rate {
                accounts,
                scores,
                pair_score,
            } => {
                let rater = Box::new(move |before| ratings::rate(before, &scores));
                let rated = self
                    .write_now(
                        session,
                        Change::Rated {
                            accounts,
                            rater,
                            pair_score,
                        },
                    )
                    .await?;
                if rated {
                    self.watch_ratings(session);
                }
                Ok(rated)
            }
        }
    }

    /// After a game is rated: a rating that jumped files a report by
    /// itself (in the background; the game does not wait).
    fn watch_ratings(&self, session: &Session) {
        let (store, kind, game) = (self.store().clone(), session.kind(), session.row.id.clone());
        let players: Vec<crate::store::SeatAccount> =
            session.row.accounts.iter().flatten().cloned().collect();
        self.spawn(async move {
            for p in players {
                if let Err(e) = crate::safety::watch_rating(&store, &p, kind, &game).await {
                    tracing::warn!(error = %e, "could not look at a rating's jump");
                }
            }
        });
    }

    /// What a finished game calls for.
    async fn next_after(&self, session: &Session) -> Result<Next, GameError> {
        if !session.row.rated
            || !session.is_over()
            || session.row.rating_change.is_some()
            || session.status() == Status::Aborted
        {
            return Ok(Next::Nothing);
        }
        let (Some(a), Some(b)) = (&session.row.accounts[0], &session.row.accounts[1]) else {
            return Ok(Next::Nothing);
        };
        let accounts = [a.id, b.id];
        Ok(match session.kind() {
            Kind::Ringo => {
                let first = session.row.pair_first.clone().unwrap_or_default();
                if first == session.row.id {
                    return Ok(if session.row.rematch.is_none() {
                        Next::SecondGame
                    } else {
                        Next::Nothing
                    });
                }
                let Some(loaded) = self.store().load(&first).await? else {
                    return Ok(Next::Nothing);
                };
                let one = Session::from_stored(loaded)?;
                let games = vec![
                    score_for(&one, accounts[0]),
                    score_for(session, accounts[0]),
                ];
                let points: f64 = games.iter().sum();
                Next::Rate {
                    accounts,
                    scores: games,
                    pair_score: Some([points, 2.0 - points]),
                }
            }
            Kind::Urgammon => {
                let to = urgammon::MatchSettings::parse_header(&session.row.settings)
                    .map_or(1, |s| s.to);
                Next::Rate {
                    accounts,
                    scores: vec![score_for(session, accounts[0]); ratings::match_weight(to)],
                    pair_score: None,
                }
            }
        })
    }

    /// Opens a pair's second game: the first's settings, its seats (tokens
    /// and accounts) swapped, its clock afresh with its own first-move
    /// wait, which begins after [`PAIR_PAUSE_MS`]. Returns its id.
    async fn open_second(&self, first: &Session) -> Result<String, GameError> {
        let mut row = first.row.clone();
        row.id = crate::secrets::game_id().map_err(|e| GameError::Internal(e.to_string()))?;
        row.token0 = first.row.token1.clone();
        row.token1 = first.row.token0.clone();
        row.accounts = [first.row.accounts[1].clone(), first.row.accounts[0].clone()];
        row.status = Status::Ongoing;
        row.reason = None;
        row.rematch = None;
        row.revision = 0;
        row.score = None;
        row.rating_change = None;
        row.pair_score = None;
        row.offer = None;
        row.created_at = crate::store::now();
        row.updated_at = row.created_at;
        // Nobody has moved: each side has its first-move wait, as in the
        // first game (the pair has begun, so the game cannot be aborted:
        // a side that lets its wait pass loses the game instead).
        row.moved = 0;
        row.clock = first.row.clock.map(|c| {
            c.settings()
                .start(crate::clock::now_ms() + PAIR_PAUSE_MS, c.first_move_ms)
        });
        row.clock_owner = row.clock.map(|_| self.instance().to_string());
        let second =
            Session::build(row.clone(), vec![], Ledger::default()).map_err(GameError::Internal)?;
        self.store()
            .create(NewRecord {
                row,
                tokens: vec![],
                dice: vec![],
                invite: None,
            })
            .await?;
        let id = second.row.id.clone();
        self.insert(second)?;
        Ok(id)
    }

    /// A finisher's write on the game it holds locked; a write another
    /// instance beat (it finished the game first) is no failure: the
    /// stored game, read again, says how it was finished. Returns whether
    /// anything changed.
    async fn write_now(&self, session: &mut Session, change: Change) -> Result<bool, GameError> {
        match self.write(session, change).await {
            Ok(_) => Ok(true),
            Err(GameError::Store(crate::store::StoreError::Stale(_))) => {
                self.catch_up_locked(session).await
            }
            Err(e) => Err(e),
        }
    }
}
