//! The games service: games loaded into their slots, and every change of
//! a game through its one door (`round.rs`: decide, commit with the
//! revision check, and every after-effect). A player's action, the clock,
//! the computer, a join, a seat claimed, a rematch, a pair's second game,
//! an account deleted and a catch-up with another instance's change are
//! all callers of that door.

pub(crate) mod acting;
mod change;
mod chat;
pub(crate) mod clocks;
pub(crate) use service::DEAD_AFTER_MS;
pub(crate) mod computer;
mod error;
pub(crate) mod finish;
mod in_play;
mod opening;
mod options;
pub(crate) mod players;
mod pools;
pub(crate) mod recount;
pub(crate) mod rematch;
pub(crate) mod reviews;
pub(crate) mod round;
mod service;
pub(crate) mod shared;
pub mod talk;
pub(crate) mod watch;

pub use crate::session::PAIR_PAUSE_MS;
pub(crate) use crate::tasks::Stopping;
pub use acting::{Acted, Ask};
pub(crate) use chat::BlocksRead;
pub use chat::{check_text, ChatRefusal, CHAT_BURST, CHAT_SHOWN, CHAT_WINDOW, MAX_CHAT_CHARS};
pub use computer::EngineReply;
pub use error::GameError;
pub(crate) use finish::{begin_pair, begin_pair_always, score_for};
pub use in_play::{InPlay, PlayerInPlay};
pub(crate) use opening::{new_row, open_game, NewGame};
pub use options::{Config, Options};
pub use reviews::Review;
pub use service::Games;
pub(crate) use service::Parts;
pub use watch::IN_PLAY_SHOWN;

use service::{Inner, Wake};
use std::collections::HashMap;
use std::sync::{Arc, Mutex};
use tokio::sync::Semaphore;

/// The largest request body accepted, in bytes (imports excepted).
pub const MAX_BODY: usize = 64 * 1024;

pub use crate::session::MAX_TOKENS;

/// The largest import body: the longest record the server can export
/// ([`MAX_TOKENS`] tokens of at most 9 bytes, each with its separator, plus a
/// match header and a resignation line), with room for JSON escaping of every
/// separator. A test imports a body of the longest export's size.
pub const MAX_IMPORT: usize = 2 * (MAX_TOKENS * 10 + 256) + 1024;

impl Games {
    /// The games service over its parts; its loops (the clock keeper, the
    /// follower of other instances' changes, the Web Push key's first
    /// making) start here and stop with the app's [`Tasks`].
    pub(crate) fn start(parts: Parts) -> Games {
        let Parts {
            store,
            push,
            tasks,
            options,
        } = parts;
        let notices = store.notices();
        let app = Games {
            inner: Arc::new(Inner {
                store,
                games: Mutex::new(HashMap::new()),
                engine: Arc::new(Semaphore::new(options.engine_threads.max(1))),
                analysis: Arc::new(Semaphore::new(options.engine_threads.max(1))),
                analysis_load: Arc::new(Mutex::new(pools::AnalysisLoad::default())),
                engine_delay: options.engine_delay,
                options,
                started: std::time::Instant::now(),
                reviews: Mutex::new(HashMap::new()),
                waiting_jobs: Mutex::new(HashMap::new()),
                instance: crate::secrets::instance_name(),
                deadlines: Mutex::new(HashMap::new()),
                chat_limiter: chat::ChatLimiter::default(),
                push,
                tasks,
                in_play: tokio::sync::Mutex::new(None),
                ended: tokio::sync::broadcast::channel(1024).0,
                wake: serve_wake,
            }),
        };
        if let Some(notices) = notices {
            app.spawn(shared::follow(app.downgrade(), notices, app.stopping()));
        }
        app.spawn(clocks::keep(app.downgrade(), app.stopping()));
        // The Web Push key is made at first start (and kept in the store,
        // where every instance finds it).
        let weak = app.downgrade();
        app.spawn(async move {
            let Some(app) = weak.upgrade() else { return };
            if let Err(e) = app.pusher().keys(app.store()).await {
                tracing::warn!(error = %e, "no Web Push key yet: made when first needed");
            }
        });
        app
    }
}

/// Does the work the handle and the door hand up ([`Wake`]): the
/// computer's task started, a game finished late (in the background).
/// It lives here, above every file of the folder, so that neither the
/// handle nor the door imports the computer or the finisher that call
/// them.
fn serve_wake(games: &Games, wake: Wake) {
    match wake {
        Wake::Computer(slot) => computer::kick_engine(games, slot),
        Wake::FinishLate(slot) => {
            let app = games.clone();
            games.spawn(async move { round::finish_late(&app, &slot).await });
        }
    }
}
