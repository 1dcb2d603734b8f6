//! A game in play: its stored row, the rules state rebuilt from its tokens, its
//! dice ledger, and the actions players may take. Everything here is
//! synchronous and pure apart from the dice, which the caller passes in; an
//! action returns the next session and the change to store, and leaves this
//! one as it was, so a refused action or a failed write changes nothing.

mod actions;
mod clocked;
mod game;
mod moment;
mod offers;
mod ringo;
mod rules;
mod urgammon;
mod view;

pub use crate::model::{Kind, Mode, Status};
pub use actions::{Action, Refusal, SessionError, RESIGNATION};
pub use game::{rules_for, split_resignation, Session, MAX_TOKENS, PAIR_PAUSE_MS};
pub use moment::{Deadline, Moment};
pub use offers::CLAIM_AFTER_MS;
pub use rules::{End, GameRules, GameView, Rules};
pub use view::{OfferView, PlayerView, SessionView};
