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

use super::change::Change;
use super::error::GameError;
use super::reviews;
use super::service::Games;
use crate::dice::Ledger;
use crate::model::{Kind, Status};
use crate::ratings;
use crate::session::Session;
use crate::store::{GameRow, NewRecord};

use crate::session::PAIR_PAUSE_MS;

/// The account `me`'s score in a finished game: 1 a win, 0.5 a draw, 0 a
/// loss (a resignation is a loss).
pub(crate) fn score_for(session: &Session, me: i64) -> f64 {
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

/// Makes a new Ringo game's row begin a pair whether rated or not (a
/// tournament's bout: both sides played, seats swapped for the second).
pub(crate) fn begin_pair_always(row: &mut GameRow) {
    if crate::kinds::of(row.kind).plays_pairs() {
        row.pair_first = Some(row.id.clone());
    }
}

/// Whether a new game's row begins a rated pair: a rated Ringo game is
/// played as a pair, seats swapped for the second (the one place this rule
/// is written; creation, the lobby and rematches call it).
pub(crate) fn begin_pair(row: &mut GameRow) {
    row.pair_first =
        (row.rated && crate::kinds::of(row.kind).plays_pairs()).then(|| row.id.clone());
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

/// A rated result: the seats' accounts, the first seat's account's scores,
/// and a Ringo pair's points.
pub(crate) type RatedScores = ([i64; 2], Vec<f64>, Option<[f64; 2]>);

/// What finishing a game that has just ended owes (the door holds it
/// locked and writes it): a rated Ringo pair's second game opened, and
/// the first linked to it; or the rating. `None`: nothing (an abort, a
/// casual game, a pair's first game of a casual pair).
///
/// # Errors
/// The store failed (the game stays ended, and is finished when next
/// loaded).
pub(crate) async fn owed(games: &Games, session: &Session) -> Result<Option<Change>, GameError> {
    Ok(match next_after(games, session).await? {
        Next::Nothing => None,
        Next::SecondGame => Some(Change::Link(open_second(games, session).await?)),
        Next::Rate {
            accounts,
            scores,
            pair_score,
        } => Some(Change::Rated {
            accounts,
            rater: Box::new(move |before| ratings::rate(before, &scores)),
            pair_score,
        }),
    })
}

/// After the door wrote a game's rating: the watches that may file a
/// report by themselves (a rating's jump, a run of wins at the engine's
/// accuracy), in the background.
pub(crate) fn rated(games: &Games, session: &Session) {
    watch_ratings(games, session);
    watch_accuracy(games, session);
}

/// After a game is rated: a rating that jumped files a report by
/// itself (in the background; the game does not wait).
fn watch_ratings(games: &Games, session: &Session) {
    let (store, kind, game) = (
        games.store().clone(),
        session.kind(),
        session.row.id.clone(),
    );
    let players: Vec<crate::store::SeatAccount> =
        session.row.accounts.iter().flatten().cloned().collect();
    games.spawn(async move {
        for p in players {
            if let Err(e) = crate::safety::watch_rating(&store, &p, kind, &game).await {
                tracing::warn!(error = %e, "could not look at a rating's jump");
            }
        }
    });
}

/// After a game is rated: a winner whose last
/// [`crate::safety::ACCURACY_RUN`] rated results in its kind are all
/// wins (a Ringo pair won 2–0, an Urgammon match) has their games
/// reviewed (the review everyone can ask for, computed once), and a run
/// won at the engine's accuracy files a report by itself (in the
/// background; only a run of wins costs a review).
fn watch_accuracy(games: &Games, session: &Session) {
    let Some(winner) = session
        .winner()
        .and_then(|w| session.row.accounts[w.index()].clone())
    else {
        return;
    };
    let (app, kind) = (games.clone(), session.kind());
    games.spawn(async move {
        if let Err(e) = accuracy_run(&app, &winner, kind).await {
            tracing::warn!(error = %e, "could not look at a run of wins' accuracy");
        }
    });
}

/// Looks at `player`'s last rated results of `kind`, in the order they
/// were rated: when they are a run of wins with every game at the
/// engine's accuracy, files the server's report. Answers the report's
/// number when one was filed.
///
/// # Errors
/// The store, or a review, failed.
pub(crate) async fn accuracy_run(
    games: &Games,
    player: &crate::store::SeatAccount,
    kind: Kind,
) -> Result<Option<i64>, GameError> {
    use crate::safety::{report_accuracy, ACCURACY_RUN};
    let game = crate::kinds::of(kind);
    let store = games.store();
    let rated = store.rated_games_of(player.id, kind, ACCURACY_RUN).await?;
    if rated.len() < ACCURACY_RUN {
        return Ok(None);
    }
    // Every game of the run, with her side in it.
    let mut played = vec![];
    for g in rated {
        let Some(loaded) = store.load(&g.id).await? else {
            return Ok(None);
        };
        let last = Session::from_stored(loaded)?;
        let Some((accounts, scores, _)) = result_of(games, &last).await? else {
            return Ok(None);
        };
        let won = if accounts[0] == player.id { 1.0 } else { 0.0 };
        if scores.iter().any(|&s| s != won) {
            return Ok(None);
        }
        let mut games = vec![last];
        if let Some(first) = games[0].row.pair_first.clone() {
            if first != games[0].row.id {
                let Some(loaded) = store.load(&first).await? else {
                    return Ok(None);
                };
                games.insert(0, Session::from_stored(loaded)?);
            }
        }
        for game in games {
            let Some(seat) = game.seats_of(Some(player.id)).first().copied() else {
                return Ok(None);
            };
            played.push((game.row.id.clone(), kind.seat_name(seat)));
        }
    }
    let mut measured = vec![];
    for (id, side) in played {
        let review = review_when_ready(games, &id).await?;
        let Some(measure) = game.engine_measure(&review, side) else {
            return Ok(None);
        };
        measured.push((id, measure));
    }
    Ok(report_accuracy(store, player, kind, game.measure_name(), &measured).await?)
}

/// A finished game's review, computed first if it has none (the same
/// review a player asks for), waited for up to an hour.
async fn review_when_ready(games: &Games, id: &str) -> Result<String, GameError> {
    for _ in 0..3600 {
        match reviews::review(games, id).await? {
            super::reviews::Review::Ready(body) => return Ok(body),
            super::reviews::Review::Running { .. } => {
                tokio::time::sleep(std::time::Duration::from_secs(1)).await;
            }
        }
    }
    Err(GameError::Internal(format!(
        "the review of {id} took over an hour"
    )))
}

/// What a finished game calls for.
async fn next_after(games: &Games, session: &Session) -> Result<Next, GameError> {
    if session.row.rating_change.is_some() {
        return Ok(Next::Nothing);
    }
    if crate::kinds::of(session.kind()).plays_pairs()
        && session.is_over()
        && session.status() != Status::Aborted
        && session.row.pair_first.as_deref() == Some(session.row.id.as_str())
        && session.row.accounts.iter().all(Option::is_some)
    {
        // A tournament's pair whose first game ended before each side had
        // moved is void (issue 86: points that cannot be traded): no second
        // game. The store says whether it is a bout; the lobby's pairs
        // keep their second game whatever the first.
        if session.row.moved & 3 != 3 && games.store().bout_of(&session.row.id).await?.is_some() {
            return Ok(Next::Nothing);
        }
        return Ok(if session.row.rematch.is_none() {
            Next::SecondGame
        } else {
            Next::Nothing
        });
    }
    Ok(match result_of(games, session).await? {
        Some((accounts, scores, pair_score)) => Next::Rate {
            accounts,
            scores,
            pair_score,
        },
        None => Next::Nothing,
    })
}

/// A finished rated game's result as one rating period, rated or not
/// yet: the seats' accounts, the first seat's account's scores, and a
/// Ringo pair's score over its two games. `None` for a game that rates
/// nobody (casual, aborted, unfinished, a pair's first game).
pub(crate) async fn result_of(
    games: &Games,
    session: &Session,
) -> Result<Option<RatedScores>, GameError> {
    if !session.row.rated || !session.is_over() || session.status() == Status::Aborted {
        return Ok(None);
    }
    let (Some(a), Some(b)) = (&session.row.accounts[0], &session.row.accounts[1]) else {
        return Ok(None);
    };
    let accounts = [a.id, b.id];
    let kind = crate::kinds::of(session.kind());
    if !kind.plays_pairs() {
        // One game (an Urgammon match) is the whole result, counted as
        // many times as the game says it weighs.
        let weight = kind.rating_weight(&session.row.settings);
        let scores = vec![score_for(session, accounts[0]); weight];
        return Ok(Some((accounts, scores, None)));
    }
    // A pair is rated once its second game ends, over both games.
    let first = session.row.pair_first.clone().unwrap_or_default();
    if first == session.row.id {
        return Ok(None);
    }
    let Some(loaded) = games.store().load(&first).await? else {
        return Ok(None);
    };
    let one = Session::from_stored(loaded)?;
    let games = vec![
        score_for(&one, accounts[0]),
        score_for(session, accounts[0]),
    ];
    let points: f64 = games.iter().sum();
    Ok(Some((accounts, games, Some([points, 2.0 - points]))))
}

/// Opens a pair's second game: the first's settings, its seats (tokens
/// and accounts) swapped, its clock afresh with its own first-move
/// wait, which begins after [`PAIR_PAUSE_MS`]. Returns its id.
async fn open_second(games: &Games, first: &Session) -> Result<String, GameError> {
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
    row.clock_owner = row.clock.map(|_| games.instance().to_string());
    let second =
        Session::build(row.clone(), vec![], Ledger::default()).map_err(GameError::Internal)?;
    games
        .store()
        .create(NewRecord {
            row,
            tokens: vec![],
            dice: vec![],
            invite: None,
        })
        .await?;
    let id = second.row.id.clone();
    games.insert(second)?;
    Ok(id)
}
