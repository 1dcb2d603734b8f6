//! The director's pairing: who is ready to be paired (entered, online,
//! free to play, not in a game), an arena's waiting players paired, a
//! Swiss round paired by the Dutch system from the stored bouts, and every
//! bout's game opened through the lobby's door; the players told. The
//! director (`director.rs`) decides when; this file decides who meets whom.

use super::ask::Spec;
use super::service::{TournamentError, Tournaments};
use super::standings::{standings, VOID};
use super::{arena, swiss};
use crate::clock::now_ms;
use crate::games::talk;
use crate::model::Kind;
use crate::push::TournamentNews;
use crate::store::{BoutRow, SeatAccount, TournamentRow};
use std::collections::{HashMap, HashSet};

/// A player whose pages all closed this lately still counts as there for
/// pairing: a reload (or a moment offline) does not cost her a game.
pub const ONLINE_GRACE_MS: i64 = 10_000;

/// Tells a player of her tournament: her pages on every instance look
/// again (the site's socket), and Web Push reaches her when away.
pub(super) async fn tell(
    tours: &Tournaments,
    account: i64,
    news: TournamentNews,
    t: &TournamentRow,
) {
    if let Err(e) = tours.inner.people.announce(account).await {
        tracing::warn!(error = %e, "could not announce a tournament's news");
    }
    let name = t.name.clone();
    talk::push_account(
        tours.inner.people.games(),
        account,
        move |lang| crate::push::tournament_words(lang, news, &name),
        format!("/t/{}", t.id),
        format!("agon-tournament-{}", t.id),
    );
}

/// Who is there to be paired: entered, not withdrawn, not in a game,
/// online (a page open on any instance, or closed less than
/// [`ONLINE_GRACE_MS`] ago: nobody is paired while away),
/// and free to play (no pause, no ban from rated play).
/// Also answers how many entrants are in a game now (not withdrawn).
pub(super) async fn ready(
    tours: &Tournaments,
    t: &TournamentRow,
    spec: &Spec,
    bouts: &[BoutRow],
) -> Result<(Vec<crate::store::EntrantRow>, usize), TournamentError> {
    let online = online_or_just_left(tours).await?;
    let mut candidates = vec![];
    let mut playing = 0;
    for e in tours.store().entrants(&t.id).await? {
        let a = e.account.id;
        if e.withdrawn {
            continue;
        }
        if super::standings::playing(bouts, a).is_some() {
            playing += 1;
            continue;
        }
        if online.contains(&a) {
            candidates.push(e);
        }
    }
    // Each free to play (no pause, no ban from rated play), asked
    // together: a busy arena has hundreds waiting at a tick.
    let free = futures_util::future::join_all(
        candidates
            .iter()
            .map(|e| tours.lobby().may_play(e.account.id, spec.rated)),
    )
    .await;
    let out = candidates
        .into_iter()
        .zip(free)
        .filter_map(|(e, f)| f.is_ok().then_some(e))
        .collect();
    Ok((out, playing))
}

/// The players online now, and those seen online here within
/// [`ONLINE_GRACE_MS`].
pub(super) async fn online_or_just_left(
    tours: &Tournaments,
) -> Result<HashSet<i64>, TournamentError> {
    let now = now_ms();
    let online = tours.inner.people.online().await?.ids;
    let Ok(mut seen) = tours.inner.seen.lock() else {
        return Ok(online.into_iter().collect());
    };
    for &a in &online {
        seen.insert(a, now);
    }
    seen.retain(|_, at| now - *at <= ONLINE_GRACE_MS);
    Ok(seen.keys().copied().collect())
}

/// Pairs the arena's waiting players (see [`arena::pair`]).
pub(super) async fn pair_arena(
    tours: &Tournaments,
    t: &TournamentRow,
    spec: &Spec,
    kind: Kind,
    bouts: &[BoutRow],
) -> Result<(), TournamentError> {
    let (ready, playing) = ready(tours, t, spec, bouts).await?;
    if ready.len() < 2 {
        return Ok(());
    }
    let entrants = tours.store().entrants(&t.id).await?;
    let standing: HashMap<i64, f64> = standings(t.kind, &entrants, bouts)
        .iter()
        .map(|s| (s.account, s.score))
        .collect();
    let waiting: Vec<arena::Waiting> = ready
        .iter()
        .map(|e| {
            let a = e.account.id;
            let mine: Vec<&BoutRow> = bouts
                .iter()
                .filter(|b| b.account1.is_some() && (b.account0 == a || b.account1 == Some(a)))
                .collect();
            let seat = |b: &BoutRow| usize::from(b.account0 != a);
            let mut seats = [0u32; 2];
            for b in &mine {
                seats[seat(b)] += 1;
            }
            arena::Waiting {
                account: a,
                points: standing.get(&a).copied().unwrap_or(0.0) as u32,
                rating: e.rating,
                last_opponent: mine.last().and_then(|b| {
                    if b.account0 == a {
                        b.account1
                    } else {
                        Some(b.account0)
                    }
                }),
                seats,
                last_seat: mine.last().map(|b| seat(b)),
            }
        })
        .collect();
    let ids: Vec<i64> = waiting.iter().map(|w| w.account).collect();
    let blocked = tours.lobby().kept_apart(&ids).await?;
    let names: HashMap<i64, SeatAccount> = ready
        .iter()
        .map(|e| (e.account.id, e.account.clone()))
        .collect();
    let pairs = arena::pair(&waiting, &blocked, playing);
    let began = std::time::Instant::now();
    let opened = open_bouts(tours, t, spec, kind, 0, &pairs, &names).await;
    tracing::debug!(
        waiting = waiting.len(),
        paired = pairs.len(),
        open_ms = began.elapsed().as_millis() as u64,
        "an arena paired"
    );
    opened
}

/// Pairs a Swiss round (see [`swiss::pair`]); the bye scores a point.
/// Answers whether it paired anyone (a board or the bye).
pub(super) async fn pair_swiss(
    tours: &Tournaments,
    t: &TournamentRow,
    spec: &Spec,
    kind: Kind,
    round: i64,
    bouts: &[BoutRow],
) -> Result<bool, TournamentError> {
    let entrants = tours.store().entrants(&t.id).await?;
    // Withdrawn players are paired no more; a player paused by fair
    // play (or banned from rated play, in a rated event) sits this
    // round out.
    let mut active: Vec<&crate::store::EntrantRow> = vec![];
    for e in entrants.iter().filter(|e| !e.withdrawn) {
        if tours
            .lobby()
            .may_play(e.account.id, spec.rated)
            .await
            .is_ok()
        {
            active.push(e);
        }
    }
    let players: Vec<(i64, f64)> = active.iter().map(|e| (e.account.id, e.rating)).collect();
    let field = swiss_field(&players, bouts, round);
    let ids: Vec<i64> = field.iter().map(|e| e.account).collect();
    let blocked = tours.lobby().kept_apart(&ids).await?;
    let rules = swiss::Rules {
        colours: crate::kinds::of(kind).seats_are_colours(),
        final_round: i64::from(spec.rounds.unwrap_or(1)) == round,
        // The top seed takes the first seat in round one.
        initial: 0,
    };
    // A large field's search takes a while: off the runtime's threads.
    let pairing = tokio::task::spawn_blocking(move || swiss::pair(&field, &blocked, rules))
        .await
        .unwrap_or_default();
    if pairing.limited {
        // Common in large or lopsided brackets and not an error: the
        // pairing meets every absolute criterion; the metric counts them.
        tracing::info!(
            tournament = %t.id,
            round,
            players = ids.len(),
            "the Swiss pairing's search stopped at its bound: this round's pairing may be worse than the Dutch system's best"
        );
    }
    crate::metrics::swiss_round(if pairing.limited { "limited" } else { "best" });
    let names: HashMap<i64, SeatAccount> = active
        .iter()
        .map(|e| (e.account.id, e.account.clone()))
        .collect();
    open_bouts(tours, t, spec, kind, round, &pairing.boards, &names).await?;
    let paired = !pairing.boards.is_empty() || pairing.bye.is_some();
    if let Some(bye) = pairing.bye {
        let now = now_ms();
        tours
            .store()
            .add_bout(BoutRow {
                tournament: t.id.clone(),
                game: format!("bye-{round}-{bye}"),
                round,
                account0: bye,
                account1: None,
                berserk: [false; 2],
                score0: Some(1.0),
                created_ms: now,
                ended_ms: Some(now),
                turns: None,
            })
            .await?;
    }
    Ok(paired)
}

/// Opens the bouts of one pairing together: each player waits for her
/// own game only, and the store joins their writes in few commits.
pub(super) async fn open_bouts(
    tours: &Tournaments,
    t: &TournamentRow,
    spec: &Spec,
    kind: Kind,
    round: i64,
    pairs: &[[i64; 2]],
    names: &HashMap<i64, SeatAccount>,
) -> Result<(), TournamentError> {
    let opened = futures_util::future::join_all(
        pairs
            .iter()
            .map(|[a, b]| open_bout(tours, t, spec, kind, round, [&names[a], &names[b]])),
    )
    .await;
    opened.into_iter().collect()
}

/// Opens one bout's game through the lobby's door (a Ringo bout is a
/// pair of games), notes it, and tells both players.
pub(super) async fn open_bout(
    tours: &Tournaments,
    t: &TournamentRow,
    spec: &Spec,
    kind: Kind,
    round: i64,
    seats: [&SeatAccount; 2],
) -> Result<(), TournamentError> {
    let game = match tours
        .lobby()
        .open_bout(
            kind,
            &spec.settings,
            spec.clock,
            spec.rated,
            [seats[0].clone(), seats[1].clone()],
        )
        .await
    {
        Ok(g) => g,
        Err(e) => {
            tracing::warn!(tournament = %t.id, error = %e, "a tournament game could not be opened");
            return Ok(());
        }
    };
    tours
        .store()
        .add_bout(BoutRow {
            tournament: t.id.clone(),
            game: game.clone(),
            round,
            account0: seats[0].id,
            account1: Some(seats[1].id),
            berserk: [false; 2],
            score0: None,
            created_ms: now_ms(),
            ended_ms: None,
            turns: None,
        })
        .await?;
    // The event's pages first (her place there shows her game: at once
    // on this instance's sockets), then each player wherever she is.
    for s in seats {
        let _ = tours.inner.placed.send((t.id.clone(), s.id, game.clone()));
    }
    tours.changed(&t.id);
    futures_util::future::join_all(
        seats
            .iter()
            .map(|s| tell(tours, s.id, TournamentNews::GameReady, t)),
    )
    .await;
    Ok(())
}

/// Account `a`'s score in bout `b` once over (a bye is a point); `None`
/// while it is played or when it was called off.
fn scored(b: &BoutRow, a: i64) -> Option<f64> {
    let s = b.score0.filter(|s| *s >= 0.0)?;
    Some(match b.account1 {
        None => 1.0,
        Some(_) if b.account0 == a => s,
        Some(_) => 1.0 - s,
    })
}

/// The Swiss field of round `round` as the Dutch system sees it: each of
/// `players` (account, rating) with her score, opponents, seats, bye, the
/// float of each past round and the rounds she did not play, from the
/// event's stored `bouts`.
fn swiss_field(players: &[(i64, f64)], bouts: &[BoutRow], round: i64) -> Vec<swiss::Entrant> {
    // Each player's score in each round, for the scores before a round
    // (A.4: a float is a game against a different score).
    let mut won: HashMap<(i64, i64), f64> = HashMap::new();
    for b in bouts {
        for a in std::iter::once(b.account0).chain(b.account1) {
            if let Some(s) = scored(b, a) {
                *won.entry((a, b.round)).or_default() += s;
            }
        }
    }
    let before = |a: i64, r: i64| -> f64 { (1..r).filter_map(|k| won.get(&(a, k))).sum() };
    players
        .iter()
        .map(|&(a, rating)| {
            // A void bout (an aborted game) was not played: it keeps
            // nobody apart, gives no colour and no float (FIDE counts only
            // games played).
            let mut mine: Vec<&BoutRow> = bouts
                .iter()
                .filter(|b| b.account0 == a || b.account1 == Some(a))
                .filter(|b| b.score0 != Some(VOID))
                .collect();
            // Oldest first: the seats' order is the colour history.
            mine.sort_by_key(|b| (b.round, b.created_ms));
            let opponent = |b: &BoutRow| {
                if b.account0 == a {
                    b.account1
                } else {
                    Some(b.account0)
                }
            };
            let floats = (1..round)
                .map(|r| match mine.iter().find(|b| b.round == r) {
                    None => swiss::Float::None,
                    Some(b) => match opponent(b) {
                        None => swiss::Float::Down,
                        Some(o) => match before(a, r).total_cmp(&before(o, r)) {
                            std::cmp::Ordering::Greater => swiss::Float::Down,
                            std::cmp::Ordering::Less => swiss::Float::Up,
                            std::cmp::Ordering::Equal => swiss::Float::None,
                        },
                    },
                })
                .collect();
            let played = (1..round)
                .filter(|r| mine.iter().any(|b| b.round == *r && b.account1.is_some()))
                .count();
            swiss::Entrant {
                account: a,
                rating,
                score: mine.iter().filter_map(|b| scored(b, a)).sum(),
                opponents: mine.iter().filter_map(|b| opponent(b)).collect(),
                seats: mine
                    .iter()
                    .filter(|b| b.account1.is_some())
                    .map(|b| usize::from(b.account0 != a))
                    .collect(),
                had_bye: mine.iter().any(|b| b.account1.is_none()),
                floats,
                unplayed: (round as usize).saturating_sub(1 + played),
            }
        })
        .collect()
}

#[cfg(test)]
mod tests {
    use super::*;

    fn bout(round: i64, a: i64, b: Option<i64>, score0: f64) -> BoutRow {
        BoutRow {
            tournament: "t".into(),
            game: format!("g{round}{a}"),
            round,
            account0: a,
            account1: b,
            berserk: [false; 2],
            score0: Some(score0),
            created_ms: round,
            ended_ms: Some(round),
            turns: Some(30),
        }
    }

    /// Three rounds played by 1–5: round 1 1–2 (1 wins), 3–4 (drawn), 5
    /// the bye; round 2 1–3 (1 wins: 1 had 1 point, 3 ½: 1 floats down, 3
    /// up), 5–2 (2 wins), 4 absent; round 3 4–5 (4 wins), stored first,
    /// and 1–2 again, aborted (void: not played, so not a meeting).
    #[test]
    fn the_swiss_field_is_read_from_the_stored_bouts() {
        let bouts = vec![
            bout(3, 4, Some(5), 1.0),
            bout(1, 1, Some(2), 1.0),
            bout(1, 3, Some(4), 0.5),
            bout(1, 5, None, 1.0),
            bout(2, 1, Some(3), 1.0),
            bout(2, 5, Some(2), 0.0),
            bout(3, 1, Some(2), VOID),
        ];
        let players: Vec<(i64, f64)> = (1..=5).map(|a| (a, 2000.0 - a as f64)).collect();
        let field = swiss_field(&players, &bouts, 4);
        let of = |a: i64| field.iter().find(|e| e.account == a).unwrap();
        use swiss::Float::{Down, Up};
        let none = swiss::Float::None;
        assert_eq!(of(1).score, 2.0);
        assert_eq!(of(1).seats, vec![0, 0]);
        assert_eq!(of(1).floats, vec![none, Down, none]);
        assert_eq!(of(1).unplayed, 1, "1 did not play round 3");
        assert_eq!(of(1).opponents, vec![2, 3], "the void bout is no meeting");
        assert_eq!(of(2).seats, vec![1, 1]);
        assert_eq!(of(3).floats, vec![none, Up, none]);
        assert_eq!(of(5).opponents, vec![2, 4]);
        assert_eq!(
            of(5).floats,
            vec![Down, Down, Down],
            "a bye is a downfloat; then 1 point against 0, and 1 against ½"
        );
        assert!(of(5).had_bye);
        assert_eq!(of(5).seats, vec![0, 1], "oldest first");
        assert_eq!(of(5).unplayed, 1);
        assert_eq!(of(4).floats, vec![none, none, Up]);
        assert_eq!(of(4).score, 1.5);
    }
}
