//! The public state of a game: the rules crate's view, plus what the session
//! knows (revision, seats, Undo, resignation, rematch). The same for every
//! viewer: it never holds a token or an invite code.

use super::game::{Session, PAIR_PAUSE_MS};
use super::rules::GameView;
use crate::model::Seat;
use crate::model::{Kind, Mode};
use crate::store::GameRow;
use serde::Serialize;

/// Who sits in a seat, as every viewer may see it.
#[derive(Serialize, Debug, Clone, PartialEq, Eq)]
pub struct PlayerView {
    /// `account` (a signed-in player: `name`), `deleted` (an account since
    /// deleted), `anonymous` (a player without an account), `computer`
    /// (`level`) or `open` (an invited seat nobody has taken yet).
    pub kind: &'static str,
    /// The account's name.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub name: Option<String>,
    /// The computer's level.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub level: Option<u8>,
}

impl PlayerView {
    /// Who plays `seat` of a stored game.
    pub fn of(row: &GameRow, seat: Seat) -> PlayerView {
        let token = match seat {
            Seat::First => &row.token0,
            Seat::Second => &row.token1,
        };
        let (kind, name, level) = match &row.accounts[seat.index()] {
            _ if row.engine_seat == Some(seat) => ("computer", None, row.level),
            Some(a) => match &a.name {
                Some(n) => ("account", Some(n.clone()), None),
                None => ("deleted", None, None),
            },
            None if token.is_some() => ("anonymous", None, None),
            None => ("open", None, None),
        };
        PlayerView { kind, name, level }
    }
}

/// A rated Ringo pair, as a game of it shows it.
#[derive(Serialize, Debug, Clone, PartialEq)]
pub struct PairView {
    /// The pair's first game.
    pub first: String,
    /// Its second game, once the first is over.
    pub second: Option<String>,
    /// Which game of the pair this is: 1 or 2.
    pub game: u8,
    /// The pair's score once both games are played (on the second game):
    /// each seat's player's points over the pair, 1 a win.
    pub score: Option<[f64; 2]>,
    /// The pause between the first game's end and the second game's
    /// first-move wait, in milliseconds: the first game's page counts it
    /// down before both players go on.
    pub pause_ms: i64,
}

/// `GET /api/games/{id}`'s `state`, and what the WebSocket pushes: the
/// game's view with the session's fields beside it (docs/api.md lists them).
#[derive(Serialize, Debug, Clone, PartialEq)]
pub struct SessionView {
    /// The game's own fields.
    #[serde(flatten)]
    pub view: GameView,
    /// The game's id.
    pub id: String,
    /// Which game.
    pub game: Kind,
    /// Who plays the other seat.
    pub mode: Mode,
    /// The engine's level, in a game against the computer.
    pub level: Option<u8>,
    /// The computer's seat, in a game against the computer.
    pub engine_seat: Option<Seat>,
    /// The number of record tokens.
    pub version: usize,
    /// The store revision (changes with every write, Undo included).
    pub revision: i64,
    /// The seat that acts now, if any.
    pub seat_to_act: Option<Seat>,
    /// The two seats' names.
    pub seat_names: [&'static str; 2],
    /// The game (or match) is over.
    pub over: bool,
    /// An Urgammon match between two games.
    pub between_games: bool,
    /// Whether each seat may take back its last move now.
    pub undoable: [bool; 2],
    /// The side that resigned, if one did.
    pub resigned: Option<&'static str>,
    /// The winner's side, once the game is over.
    pub winner: Option<&'static str>,
    /// The rematch's id, once one was asked for.
    pub rematch: Option<String>,
    /// Whether each seat has a player (or the computer).
    pub seated: [bool; 2],
    /// Who plays each seat.
    pub players: [PlayerView; 2],
    /// Rated (between two accounts).
    pub rated: bool,
    /// A rated Ringo pair: its two games (the second once the first is
    /// over) and which of them this is.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub pair: Option<PairView>,
    /// Each seat's rating change, once the game (or the pair, on its second
    /// game) was rated.
    pub rating_change: Option<[f64; 2]>,
    /// A friend game whose friend has not joined yet: nobody can move until
    /// she does (actions other than resigning are refused with 409
    /// `waiting-for-friend`).
    pub waiting_for_friend: bool,
    /// A live game's clock: each seat's time left now, the seat whose clock
    /// runs, the increment (absent for a game without a clock).
    #[serde(skip_serializing_if = "Option::is_none")]
    pub clock: Option<crate::clock::ClockView>,
    /// Either player may abort now (a game between two people before both
    /// have moved): no result, never rated.
    pub abortable: bool,
    /// A correspondence game: its days per move.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub days: Option<u32>,
    /// A correspondence game in play: when the side to act runs out of
    /// days (milliseconds since the epoch); it then loses on time (before
    /// both sides' first moves, the game is aborted instead).
    #[serde(skip_serializing_if = "Option::is_none")]
    pub deadline: Option<i64>,
    /// A game between two people: whether each seat has a decision it may
    /// ask to take back now (`takeback-offer`).
    #[serde(skip_serializing_if = "Option::is_none")]
    pub takebackable: Option<[bool; 2]>,
    /// The offer waiting for the other player's answer.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub offer: Option<OfferView>,
    /// The replay only: the tokens of the whole game.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub total: Option<usize>,
    /// The replay only: every token of the whole game.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub tokens_all: Option<Vec<String>>,
    /// The replay of an Urgammon record only: the plies at which a turn ends
    /// (the next one opens, or the next game of the match begins), with 0
    /// and the end, in order. The replay steps turn by turn through them.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub turn_plies: Option<Vec<usize>>,
}

/// An offer waiting, as the state shows it.
#[derive(Serialize, Debug, Clone, PartialEq, Eq)]
pub struct OfferView {
    /// `takeback` or `rematch`.
    pub kind: crate::model::OfferKind,
    /// The seat that offered.
    pub seat: Seat,
    /// Its side's name.
    pub by: &'static str,
}

impl Session {
    /// A correspondence game's days per move.
    pub fn days(&self) -> Option<u32> {
        self.row.clock.map(|c| c.days).filter(|d| *d != 0)
    }

    /// A correspondence game in play: when the side to act runs out of
    /// days (milliseconds since the epoch).
    pub fn days_deadline(&self) -> Option<i64> {
        self.deadline()
            .filter(|_| self.correspondence())
            .map(super::moment::Deadline::at)
    }

    /// The offer waiting, as the state shows it.
    pub fn offer_view(&self) -> Option<OfferView> {
        self.row.offer.map(|o| OfferView {
            kind: o.kind,
            seat: o.seat,
            by: self.kind.seat_names()[o.seat as usize & 1],
        })
    }

    /// Who plays `seat`.
    pub fn player(&self, seat: Seat) -> PlayerView {
        PlayerView::of(&self.row, seat)
    }

    /// The public state (the same for every viewer; no secrets).
    pub fn view(&self) -> SessionView {
        let names = self.kind.seat_names();
        let view = self.rules.view(self.end(), self.status());
        SessionView {
            view,
            id: self.row.id.clone(),
            game: self.kind,
            mode: self.mode,
            level: self.row.level,
            engine_seat: self.row.engine_seat,
            version: self.tokens.len(),
            revision: self.row.revision,
            seat_to_act: self.seat_to_act(),
            seat_names: names,
            over: self.is_over(),
            between_games: self.between_games(),
            undoable: self.undoable(),
            resigned: self.resigned.map(|s| names[s.index()]),
            winner: self
                .winner()
                .filter(|_| self.is_over())
                .map(|w| names[w.index()]),
            rematch: self.row.rematch.clone(),
            seated: [
                self.row.token0.is_some() || self.row.engine_seat == Some(Seat::First),
                self.row.token1.is_some() || self.row.engine_seat == Some(Seat::Second),
            ],
            waiting_for_friend: self.waiting_for_friend(),
            players: Seat::BOTH.map(|s| self.player(s)),
            rated: self.row.rated,
            pair: self.row.pair_first.as_ref().map(|first| {
                let game = if *first == self.row.id { 1 } else { 2 };
                PairView {
                    first: first.clone(),
                    second: if game == 1 {
                        self.row.rematch.clone()
                    } else {
                        Some(self.row.id.clone())
                    },
                    game,
                    score: self.row.pair_score,
                    pause_ms: PAIR_PAUSE_MS,
                }
            }),
            rating_change: self.row.rating_change,
            clock: self
                .clock_view(crate::clock::now_ms())
                .filter(|_| !self.correspondence()),
            abortable: self.abortable(),
            days: self.days(),
            deadline: self.days_deadline(),
            takebackable: (self.mode == Mode::Friend)
                .then(|| Seat::BOTH.map(|s| self.takeback_point(s).is_some())),
            offer: self.offer_view(),
            total: None,
            tokens_all: None,
            turn_plies: None,
        }
    }
}
