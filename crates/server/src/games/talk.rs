//! Players talking in a game: the chat (two rooms, plain text, a rate
//! limit per writer), and where each seat's player is (sockets noted in the
//! store, so a player may claim the win from an opponent who left, on
//! whichever instance either of them is).

use super::chat::{check_text, may_read, BlocksRead, ChatRefusal, Reader, CHAT_SHOWN};
use super::error::GameError;
use super::service::Games;
use crate::clock::now_ms;
use crate::hub::Slot;
use crate::model::Seat;
use crate::protocol::GameOut;
use crate::store::{ChatLine, Room};
use std::collections::HashMap;
use std::sync::Arc;

/// Whether a writer holding `seats` (none: a spectator) writes in `room`:
/// the players in theirs, the spectators in theirs.
fn check_room(room: Room, seats: &[Seat]) -> Result<(), ChatRefusal> {
    match (room, seats.is_empty()) {
        (Room::Players, true) => Err(ChatRefusal::WrongRoom(
            "only the players write in the players' room: write in the spectators' room".into(),
        )),
        (Room::Spectators, false) => Err(ChatRefusal::WrongRoom(
            "the players write in the players' room; the spectators' room is for those watching"
                .into(),
        )),
        _ => Ok(()),
    }
}

/// Writes a line in a game's room for a writer holding `seats` (none:
/// a spectator), signed in as `name`; `client` names the writer for
/// the rate limit when it holds no seat. Every socket of the game that
/// may read the room is told, on every instance.
pub(crate) async fn write_chat(
    games: &Games,
    slot: &Arc<Slot>,
    seats: &[Seat],
    writer: Option<&crate::store::SeatAccount>,
    room: Room,
    text: &str,
    client: &str,
) -> Result<ChatLine, GameError> {
    let text = check_text(text)?;
    // A player's line is her seat's account's when the seat is one's
    // (whoever's token wrote it): its name shows, and a mute or a block
    // of that account holds for it.
    let seat_account = match seats.first() {
        Some(seat) => slot.session.lock().await.row.accounts[seat.index()].clone(),
        None => None,
    };
    let writer = seat_account.as_ref().or(writer);
    // A moderator's mute holds on every instance (it is in the store).
    if let Some(a) = writer {
        if let Some(mute) = crate::safety::mute(games.store(), a.id).await? {
            return Err(ChatRefusal::Muted(mute).into());
        }
    }
    let name = writer.and_then(|a| a.name.clone());
    let writer_id = writer.map(|a| a.id);
    let game = slot.session.lock().await.row.id.clone();
    check_room(room, seats)?;
    let writer = match seats.first() {
        Some(s) => format!("{game} seat {}", s.number()),
        None => format!("{game} {client}"),
    };
    games.inner.chat_limiter.take(writer)?;
    // A line with a listed word is kept and answered to its writer as
    // written, but no one else is sent it.
    let hidden = crate::safety::flagged(&text);
    let line = games
        .store()
        .add_chat(ChatLine {
            id: 0,
            game: game.clone(),
            room,
            seat: seats.first().copied(),
            name,
            text,
            at_ms: now_ms(),
            hidden,
            writer: writer_id,
        })
        .await?;
    if hidden {
        return Ok(line);
    }
    // A shared store announces the line to every instance, this one
    // too; alone, this instance tells its own sockets.
    if !games.store().is_shared() {
        slot.broadcast(&GameOut::Chat {
            room,
            line: line.clone(),
        });
    }
    if room == Room::Players {
        if let Some(&seat) = seats.first() {
            // The opponent hears of it only if she may read it (she may
            // block the writer).
            let opponent = slot.session.lock().await.row.accounts[seat.other().index()].clone();
            let reader = Reader::load(games.store(), &[seat.other()], opponent, false).await?;
            if may_read(&line, &reader) {
                notify_seat(
                    games,
                    slot,
                    seat.other(),
                    crate::push::Event::Chat,
                    Some(line.text.clone()),
                )
                .await;
            }
        }
    }
    Ok(line)
}

/// Tells this instance's sockets of a line another instance stored.
pub(crate) async fn chat_written(games: &Games, game: &str, id: i64) {
    let Some(slot) = games.slot_in_memory(game) else {
        return;
    };
    match games.store().chat_line(id).await {
        // A hidden line is its writer's alone.
        Ok(Some(line)) if line.hidden => {}
        Ok(Some(line)) => slot.broadcast(&GameOut::Chat {
            room: line.room,
            line,
        }),
        Ok(None) => {}
        Err(e) => tracing::warn!(error = %e, "could not read a chat line"),
    }
}

/// A room's lines for a reader holding `seats` (signed in as
/// `reader`), as [`may_read`] lets her read them: the players' room is
/// the players' own until the game ends (asked by anyone else, refused
/// whole); the lines of players she blocks are left out, and the hidden
/// lines of anyone but herself.
pub(crate) async fn read_chat(
    games: &Games,
    slot: &Arc<Slot>,
    seats: &[Seat],
    room: Room,
    reader: Option<&crate::store::SeatAccount>,
) -> Result<Vec<ChatLine>, GameError> {
    let (game, over) = {
        let s = slot.session.lock().await;
        (s.row.id.clone(), s.is_over())
    };
    if room == Room::Players && seats.is_empty() && !over {
        return Err(ChatRefusal::WrongRoom(
            "the players' chat is theirs until the game ends".into(),
        )
        .into());
    }
    let lines = games.store().chat(&game, room, CHAT_SHOWN).await?;
    let account = reader_account(slot, seats, reader.cloned()).await;
    let reader = Reader::load(games.store(), seats, account, over).await?;
    Ok(lines.into_iter().filter(|l| may_read(l, &reader)).collect())
}

/// The players' last line that a player holding `seats` (signed in as
/// `signed_in`) may read, for `/api/turns`: her page notifies of it.
/// `blocks` keeps each account's blocks once read, for the whole list.
pub(crate) async fn last_line_for(
    games: &Games,
    slot: &Arc<Slot>,
    seats: &[Seat],
    signed_in: Option<crate::store::SeatAccount>,
    blocks: &mut BlocksRead,
) -> Result<Option<ChatLine>, GameError> {
    let account = reader_account(slot, seats, signed_in).await;
    let reader = Reader::load_with(blocks, games.store(), seats, account, false).await?;
    let game = slot.session.lock().await.row.id.clone();
    // The last few are enough: a page notifies of the newest line it may
    // read, and a line it may not read is never the one it shows.
    let lines = games.store().chat(&game, Room::Players, LAST_LINES).await?;
    Ok(lines.into_iter().rev().find(|l| may_read(l, &reader)))
}

/// Whose blocks hold for a reader holding `seats`, signed in as
/// `signed_in`: her seat's account when the seat is one's (as a line she
/// writes is that account's, whoever's token wrote it), else her own.
async fn reader_account(
    slot: &Arc<Slot>,
    seats: &[Seat],
    signed_in: Option<crate::store::SeatAccount>,
) -> Option<crate::store::SeatAccount> {
    let seat_account = match seats.first() {
        Some(seat) => slot.session.lock().await.row.accounts[seat.index()].clone(),
        None => None,
    };
    seat_account.or(signed_in)
}

/// How many of a game's last players' lines `/api/turns` looks through for
/// the newest its asker may read.
const LAST_LINES: usize = 20;

/// Whether the socket of a reader holding `seats` (signed in as
/// `account`) is sent `line`: [`may_read`], with her blocks read now.
pub(crate) async fn socket_may_read(
    games: &Games,
    slot: &Arc<Slot>,
    seats: &[Seat],
    account: Option<i64>,
    line: &ChatLine,
) -> bool {
    let over = slot.session.lock().await.is_over();
    let account = account.map(|id| crate::store::SeatAccount { id, name: None });
    let account = reader_account(slot, seats, account).await;
    match Reader::load(games.store(), seats, account, over).await {
        Ok(reader) => may_read(line, &reader),
        // Unsure whom she blocks: not sent (the page reads the chat again
        // over HTTP when it reconnects).
        Err(e) => {
            tracing::warn!(error = %e, "could not read a reader's blocks");
            false
        }
    }
}

/// Notes in the store how many sockets this instance has open for a
/// seat (after one opened or closed).
pub(crate) fn note_presence(games: &Games, slot: &Arc<Slot>, seat: Seat) {
    let (app, slot) = (games.clone(), slot.clone());
    games.spawn(async move {
        let game = slot.session.lock().await.row.id.clone();
        // Read when written, so the last write has the last count.
        let open = slot.presence[seat.index()].load(std::sync::atomic::Ordering::SeqCst);
        if let Err(e) = app
            .store()
            .set_presence(&game, seat, app.instance(), open, now_ms())
            .await
        {
            tracing::warn!(error = %e, "could not note a player's presence");
        }
    });
}

/// Another instance's sockets on a game changed: this instance's
/// sockets are told who is connected anywhere.
pub(crate) async fn presence_changed(games: &Games, game: &str) {
    let Some(slot) = games.slot_in_memory(game) else {
        return;
    };
    let Ok(seen) = games.store().instances().await else {
        return;
    };
    let seen: HashMap<String, i64> = seen.into_iter().collect();
    let now = now_ms();
    let before = slot.presence();
    for seat in Seat::BOTH {
        let Ok(rows) = games.store().presence(game, seat).await else {
            return;
        };
        let elsewhere = rows.iter().any(|(instance, sockets, _)| {
            *sockets > 0
                && instance != games.instance()
                && super::service::alive(seen.get(instance).copied(), now)
        });
        slot.remote[seat.index()].store(elsewhere, std::sync::atomic::Ordering::SeqCst);
    }
    if slot.presence() != before {
        tell_presence(games, &slot).await;
    }
}

/// How long each seat's player has been gone, as a claim measures it,
/// where that could win her opponent the game ([`Session::claimable`]);
/// `None` for a player connected (here or on another live instance),
/// or in a game where no claim is possible now.
///
/// [`Session::claimable`]: crate::session::Session::claimable
pub(crate) async fn away(games: &Games, slot: &Arc<Slot>) -> [Option<i64>; 2] {
    let mut away = [None, None];
    if slot.session.lock().await.claimable().is_err() {
        return away;
    }
    let present = slot.presence();
    for seat in Seat::BOTH {
        if present[seat.index()] {
            continue;
        }
        match absence(games, slot, seat).await {
            Ok(gone) => away[seat.index()] = gone,
            Err(e) => tracing::warn!(error = %e, "could not measure a player's absence"),
        }
    }
    away
}

/// Who is connected to a game, and how long the others have been gone,
/// as a socket is told it.
pub(crate) async fn presence_message(games: &Games, slot: &Arc<Slot>) -> GameOut {
    GameOut::Presence {
        seats: slot.presence(),
        away_ms: away(games, slot).await,
    }
}

/// Tells every socket of a game who is connected and how long the
/// others have been gone.
pub(crate) async fn tell_presence(games: &Games, slot: &Arc<Slot>) {
    slot.broadcast(&presence_message(games, slot).await);
}

/// [`tell_presence`] in the background, for a caller that
/// cannot wait (a socket closing).
pub(crate) fn tell_presence_soon(games: &Games, slot: &Arc<Slot>) {
    let (app, slot) = (games.clone(), slot.clone());
    games.spawn(async move { tell_presence(&app, &slot).await });
}

/// How long `seat`'s player has been gone from a game, in
/// milliseconds: `None` while a socket of hers is open on a live
/// instance; else since her last socket closed (or its instance died),
/// and never more than since the game last changed (0 the moment she
/// left).
pub(crate) async fn absence(
    games: &Games,
    slot: &Arc<Slot>,
    seat: Seat,
) -> Result<Option<i64>, GameError> {
    let (game, changed_ms) = {
        let s = slot.session.lock().await;
        (s.row.id.clone(), s.row.updated_at * 1000)
    };
    let now = now_ms();
    if slot.presence[seat.index()].load(std::sync::atomic::Ordering::SeqCst) > 0 {
        return Ok(None);
    }
    let seen: HashMap<String, i64> = games.store().instances().await?.into_iter().collect();
    let shared = games.store().is_shared();
    let left = slot.left_at[seat.index()].load(std::sync::atomic::Ordering::SeqCst);
    let mut since = changed_ms.max(left);
    for (instance, sockets, changed) in games.store().presence(&game, seat).await? {
        let alive_at = seen.get(&instance).copied();
        let alive =
            instance == games.instance() || (shared && super::service::alive(alive_at, now));
        if sockets > 0 && alive && instance != games.instance() {
            return Ok(None);
        }
        let gone = if instance == games.instance() {
            // This instance's own count is the one in memory: its row
            // is written in the background and may still count the
            // socket that just closed.
            changed.max(left)
        } else if sockets > 0 {
            // Its instance died: gone since it was last heard of.
            alive_at.unwrap_or(changed).max(changed)
        } else {
            changed
        };
        since = since.max(gone);
    }
    Ok(Some((now - since).max(0)))
}

/// Tells `seat`'s player of `event` by Web Push, on every browser she
/// subscribed (for this seat, or for her account), in the background:
/// the request that caused it does not wait. A subscription the push
/// service says is gone is forgotten.
pub(crate) async fn notify_seat(
    games: &Games,
    slot: &Arc<Slot>,
    seat: Seat,
    event: crate::push::Event,
    text: Option<String>,
) {
    let (game, label, account) = {
        let s = slot.session.lock().await;
        if s.mode() != crate::model::Mode::Friend {
            return;
        }
        let name = s.kind().title();
        (
            s.row.id.clone(),
            name,
            s.row.accounts[seat as usize & 1].as_ref().map(|a| a.id),
        )
    };
    let url = format!("/g/{game}");
    push_to(
        games,
        (game.clone(), seat, account),
        move |lang| crate::push::words(lang, event, label, text.as_deref()),
        url,
        format!("agon-{game}"),
    );
}

/// Tells an account of a challenge by Web Push (on every browser
/// subscribed signed in to it), in the background; `words` gives the
/// title and body in a language.
pub(crate) fn push_account(
    games: &Games,
    account: i64,
    words: impl Fn(&str) -> (String, String) + Send + 'static,
    url: String,
    tag: String,
) {
    // No game has the id "-": the store answers the account's own
    // subscriptions only.
    push_to(
        games,
        ("-".into(), Seat::First, Some(account)),
        words,
        url,
        tag,
    );
}

/// Sends a notification to the subscriptions that hear of `(game,
/// seat, account)`, in the background: the request that caused it does
/// not wait. A subscription the push service says is gone is forgotten.
fn push_to(
    games: &Games,
    (game, seat, account): (String, Seat, Option<i64>),
    words: impl Fn(&str) -> (String, String) + Send + 'static,
    url: String,
    tag: String,
) {
    let app = games.clone();
    games.spawn(async move {
        let store = app.store().clone();
        let targets = match store.push_targets(&game, seat, account).await {
            Ok(t) if !t.is_empty() => t,
            Ok(_) => return,
            Err(e) => {
                tracing::warn!(error = %e, "could not read push subscriptions");
                return;
            }
        };
        let keys = match app.inner.push.keys(&store).await {
            Ok(k) => k.clone(),
            Err(e) => {
                tracing::warn!(error = %e, "no Web Push key");
                return;
            }
        };
        for target in targets {
            let (title, body) = words(&target.lang);
            let message = serde_json::json!({
                "title": title,
                "body": body,
                "url": url,
                "tag": tag,
                "game": (game != "-").then_some(&game),
            });
            match app
                .inner
                .push
                .send(&keys, &target, message.to_string().as_bytes())
                .await
            {
                Ok(true) => {}
                Ok(false) => {
                    let _ = store.unsubscribe(&target.endpoint).await;
                }
                Err(e) => tracing::info!(error = %e, "a push was not delivered"),
            }
        }
    });
}
