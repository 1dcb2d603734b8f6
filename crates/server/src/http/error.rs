//! The API's error type: every failure becomes a status code and a JSON body
//! `{"error": "...", "code": "..."}`: what was wrong in English, and a stable
//! code ([`ErrorCode`]) that a page translates. The game logic and the store
//! have their own error types; they become an [`ApiError`] here, in one place.

use crate::accounts::AccountError;
use crate::engine::{BadInput, EngineError};
use crate::games::GameError;
use crate::kinds::SettingsRefusal;
use crate::model::ModelError;
use crate::secrets::NoSecret;
use crate::session::{Refusal, SessionError};
use crate::store::StoreError;
use crate::ws::SocketRefused;
use axum::http::StatusCode;
use axum::response::{IntoResponse, Response};
use axum::Json;
use serde::Serialize;

/// What went wrong, as a stable word a program (or the page's translations)
/// can rely on; the English message beside it may change.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Serialize)]
#[serde(rename_all = "kebab-case")]
pub enum ErrorCode {
    /// An account name that breaks the naming rules.
    BadName,
    /// A password too short, too long or too common.
    WeakPassword,
    /// An account name already taken (ignoring case).
    NameTaken,
    /// A wrong name, password or recovery code (one code for all).
    BadCredentials,
    /// Too many failed sign-ins from this name or address.
    SignInThrottled,
    /// No valid session cookie.
    NotSignedIn,
    /// No session of this account with this id.
    SessionNotFound,
    /// No player with this name.
    UserNotFound,
    /// A passkey asked for on a site addressed by an IP address.
    PasskeyNeedsName,
    /// A passkey answer that does not verify.
    PasskeyRefused,
    /// No passkey of this account with this id.
    PasskeyNotFound,
    /// A rated game against the computer or on one screen.
    RatedNeedsFriend,
    /// Joining one's own rated game with the same account.
    SameAccount,
    /// No game with this id.
    GameNotFound,
    /// No such API route.
    RouteNotFound,
    /// The game changed since the revision the client sent.
    StaleRevision,
    /// Not `ringo` or `urgammon`.
    UnknownGame,
    /// Not `engine`, `friend` or `local`.
    UnknownOpponent,
    /// Too many WebSockets.
    TooManyConnections,
    /// The invite was used already (or is for another game).
    InviteUsed,
    /// Only a player of the game may do this.
    NotAPlayer,
    /// A move action without a move.
    MoveMissing,
    /// A rematch asked for before the game ended.
    RematchBeforeEnd,
    /// A number field out of range or not whole.
    BadNumber,
    /// A match target outside 1–99.
    BadMatchTarget,
    /// Urgammon match settings that do not parse.
    BadSettings,
    /// A stake that is not a number.
    BadStake,
    /// A Ringo rules string that does not parse.
    BadRules,
    /// Not one of the game's sides, or `random`.
    UnknownSide,
    /// An engine level outside 1–10.
    BadLevel,
    /// An imported record that does not replay.
    BadRecord,
    /// A record longer than the server keeps.
    RecordTooLong,
    /// A body that is not JSON of the expected shape.
    BadJson,
    /// A body that is not `application/json`.
    JsonOnly,
    /// A body larger than the route takes.
    BodyTooLarge,
    /// A request from another site.
    ForeignOrigin,
    /// The request names a host this server does not serve (421).
    ForeignHost,
    /// The client has as many analyses, rollouts or reviews queued as it may
    /// (429, with `Retry-After`).
    AnalysisLimit,
    /// The engine's queue for analyses is full (503, with `Retry-After`).
    EngineBusy,
    /// No answer within the server's deadline (503, with `Retry-After`):
    /// what was asked may still be done.
    Timeout,
    /// A friend game waits for the friend: nobody moves until she joins (409).
    WaitingForFriend,
    /// Abort after both sides moved, or in a game not between two people
    /// (409).
    CannotAbort,
    /// A clock outside its range, or on a game that cannot have one (400).
    BadClock,
    /// The seek was accepted by someone else first (409).
    SeekTaken,
    /// No open seek with this id (404).
    NoSuchSeek,
    /// The seek is someone else's (403).
    NotYourSeek,
    /// One's own seek cannot be accepted (409).
    OwnSeek,
    /// The accepter's rating is outside the seek's range (403).
    OutOfRange,
    /// No quick-pairing pool with this name (404).
    UnknownPool,
    /// The account waits in this pool already, on another page (409).
    AlreadyWaiting,
    /// A challenge to oneself (400).
    ChallengeYourself,
    /// The challenged player takes no such challenge (403).
    ChallengeRefused,
    /// A challenge to this player is open already (409).
    ChallengeOpen,
    /// Too many challenges open at once (429).
    TooManyChallenges,
    /// No challenge with this id for this player (404).
    NoSuchChallenge,
    /// The challenge is not this player's to answer so (403).
    NotYourChallenge,
    /// The challenge was answered already, or lapsed (409).
    ChallengeAnswered,
    /// A moderator muted the writer's chat (403).
    Muted,
    /// Blocking or reporting oneself (400).
    Yourself,
    /// A player paused after abandoning live games (429, with
    /// `Retry-After`).
    Paused,
    /// The player is banned from rated play for now (403).
    RatedBanned,
    /// Either player blocks the other (403).
    Blocked,
    /// A report about this player is open already (409).
    ReportOpen,
    /// A report that is not one: an unknown reason, a text too long, a
    /// game not the player's (400).
    BadReport,
    /// Too many players blocked (429).
    TooManyBlocks,
    /// Only moderators may (403).
    NotModerator,
    /// No open report with this number (404).
    NoSuchReport,
    /// No tournament with this id (404).
    NoSuchTournament,
    /// A tournament asked for that is not one (400).
    BadTournament,
    /// In this tournament already (409).
    AlreadyJoined,
    /// Not in this tournament (409).
    NotJoined,
    /// The tournament is over, or past the time to join (409).
    TournamentOver,
    /// An entry condition not met: a rating range, rated games (403).
    ConditionsNotMet,
    /// A private tournament's password is wrong (403).
    WrongPassword,
    /// Too many tournaments made and not finished (429).
    TooManyTournaments,
    /// A moderator's action that is not one (400).
    BadAction,
    /// Following oneself (400).
    FollowYourself,
    /// Following as many players as one may (429).
    TooManyFollows,
    /// A rating range that is not one (400).
    BadRange,
    /// Too many seeks open at once (429).
    TooManySeeks,
    /// An offer in a game not between two people, or that does not fit
    /// now (409).
    NoOffers,
    /// The same offer made twice (409).
    OfferPending,
    /// No offer from the opponent to answer (409).
    NoOffer,
    /// The opponent of a live game has not been gone 60 s (409).
    CannotClaim,
    /// Takebacks in a rated game whose players have not both allowed them
    /// (409).
    TakebacksOff,
    /// A chat line that is empty, too long or has control characters (400).
    BadChat,
    /// A player writing to the spectators' room, or a spectator to the
    /// players' (403).
    WrongRoom,
    /// Too many chat lines at once (429).
    ChatFlood,
    /// A push subscription that is not one (400).
    BadSubscription,
    /// Correspondence days other than 1, 2, 3 or 7, or both days and a
    /// clock (400).
    BadDays,
    /// No puzzle has this id (404).
    NoSuchPuzzle,
    /// No puzzle of this game has this theme (404).
    NoPuzzle,
    /// A puzzle try that is not one legal move (400).
    BadTry,
    /// A method the route does not take.
    MethodNotAllowed,
    /// Too many requests from this client.
    RateLimited,
    /// Not this seat's turn.
    NotYourTurn,
    /// An Urgammon game of a match has ended: start the next.
    BetweenGames,
    /// The game (or match) is over.
    GameOver,
    /// A review is for finished games.
    GameNotOver,
    /// A watch link cannot act.
    WatchOnly,
    /// Undo is refused now.
    CannotUndo,
    /// No next game: Ringo is one game, or the match is over.
    NoNextGame,
    /// A move the rules do not allow here.
    IllegalMove,
    /// A die token sent as a move.
    DieNotMove,
    /// Text that is not a move.
    NotAMove,
    /// Ringo has no dice.
    NoDice,
    /// The verdict die may not be rolled now.
    VerdictNotNow,
    /// The chance die is already rolled.
    AlreadyRolled,
    /// The chance die must be rolled first.
    RollFirst,
    /// No move with this roll: the verdict die must be rolled.
    VerdictRequired,
    /// The request does not fit this moment of the turn.
    WrongMoment,
    /// The server cannot do it right now.
    Unavailable,
    /// The store failed.
    Storage,
    /// Something that should not happen.
    Internal,
    /// A query parameter of the address that does not parse.
    BadQuery,
    /// Any other client error.
    BadRequest,
}

/// An error answered to a client.
#[derive(Debug, thiserror::Error)]
pub enum ApiError {
    /// Malformed or invalid input: bad JSON, unknown game, bad settings.
    #[error("{1}")]
    BadRequest(ErrorCode, String),
    /// The game id is unknown.
    #[error("no game with id '{1}'")]
    NotFound(ErrorCode, String),
    /// The token is missing, wrong, or not for the seat to act.
    #[error("{1}")]
    Forbidden(ErrorCode, String),
    /// Not allowed until a time (a chat mute): 403 with `until_ms`.
    #[error("{1}")]
    ForbiddenUntil(ErrorCode, String, i64, Option<String>),
    /// Well-formed but not allowed now: an illegal move, not your turn, a
    /// stale revision, an invite already used.
    #[error("{1}")]
    Conflict(ErrorCode, String),
    /// The server cannot do it right now (the secure generator failed).
    #[error("{1}")]
    Unavailable(ErrorCode, String),
    /// Something other than a game is not there (404), in the message's
    /// words.
    #[error("{1}")]
    Missing(ErrorCode, String),
    /// Not signed in (401).
    #[error("{1}")]
    Unauthorized(ErrorCode, String),
    /// Too much at once from this client (429); try again after the
    /// seconds given (`Retry-After`).
    #[error("{1}")]
    TooMany(ErrorCode, String, u64),
    /// The server is too busy for this now (503); try again after the
    /// seconds given (`Retry-After`).
    #[error("{1}")]
    Busy(ErrorCode, String, u64),
    /// A record that cannot be read (400 `bad-record`), with where.
    #[error("{0}")]
    BadRecordAt(String, RecordAt),
    /// The store failed; nothing was changed.
    #[error("storage error: {0}")]
    Storage(#[from] rusqlite::Error),
    /// Something that should not happen.
    #[error("internal error: {0}")]
    Internal(String),
}

/// The body of every error answer.
#[derive(Serialize)]
pub struct ErrorBody {
    /// What was wrong, for a person (English).
    pub error: String,
    /// What was wrong, as a stable code.
    pub code: ErrorCode,
    /// A record that could not be read: where (only then).
    #[serde(skip_serializing_if = "Option::is_none")]
    pub at: Option<RecordAt>,
    /// Refused until this time, milliseconds since the epoch (a chat
    /// mute: only then).
    #[serde(skip_serializing_if = "Option::is_none")]
    pub until_ms: Option<i64>,
    /// Why it is refused until then, in a moderator's words (a chat mute:
    /// only then).
    #[serde(skip_serializing_if = "Option::is_none")]
    pub reason: Option<String>,
}

/// Where a record could not be read: the token (or move) by its index from
/// 0, and its text, so a page can say where in its own language.
#[derive(Serialize, Debug, Clone, PartialEq, Eq)]
pub struct RecordAt {
    /// The token's index in the record's moves (Ringo) or tokens (Urgammon).
    pub index: usize,
    /// The token as written.
    pub token: String,
}

impl ApiError {
    /// The stable code.
    pub fn code(&self) -> ErrorCode {
        match self {
            ApiError::BadRequest(c, _)
            | ApiError::NotFound(c, _)
            | ApiError::Forbidden(c, _)
            | ApiError::ForbiddenUntil(c, _, _, _)
            | ApiError::Conflict(c, _)
            | ApiError::Unavailable(c, _)
            | ApiError::Unauthorized(c, _)
            | ApiError::Missing(c, _)
            | ApiError::TooMany(c, _, _)
            | ApiError::Busy(c, _, _) => *c,
            ApiError::BadRecordAt(..) => ErrorCode::BadRecord,
            ApiError::Storage(_) => ErrorCode::Storage,
            ApiError::Internal(_) => ErrorCode::Internal,
        }
    }
}

impl From<Refusal> for ErrorCode {
    /// The API's word for each of the session's refusals: the same name.
    fn from(r: Refusal) -> ErrorCode {
        match r {
            Refusal::NotYourTurn => ErrorCode::NotYourTurn,
            Refusal::BetweenGames => ErrorCode::BetweenGames,
            Refusal::GameOver => ErrorCode::GameOver,
            Refusal::WatchOnly => ErrorCode::WatchOnly,
            Refusal::CannotUndo => ErrorCode::CannotUndo,
            Refusal::NoNextGame => ErrorCode::NoNextGame,
            Refusal::IllegalMove => ErrorCode::IllegalMove,
            Refusal::DieNotMove => ErrorCode::DieNotMove,
            Refusal::NotAMove => ErrorCode::NotAMove,
            Refusal::NoDice => ErrorCode::NoDice,
            Refusal::VerdictNotNow => ErrorCode::VerdictNotNow,
            Refusal::AlreadyRolled => ErrorCode::AlreadyRolled,
            Refusal::RollFirst => ErrorCode::RollFirst,
            Refusal::VerdictRequired => ErrorCode::VerdictRequired,
            Refusal::WrongMoment => ErrorCode::WrongMoment,
            Refusal::RecordTooLong => ErrorCode::RecordTooLong,
            Refusal::WaitingForFriend => ErrorCode::WaitingForFriend,
            Refusal::CannotAbort => ErrorCode::CannotAbort,
            Refusal::NoOffers => ErrorCode::NoOffers,
            Refusal::OfferPending => ErrorCode::OfferPending,
            Refusal::NoOffer => ErrorCode::NoOffer,
            Refusal::CannotClaim => ErrorCode::CannotClaim,
            Refusal::RematchBeforeEnd => ErrorCode::RematchBeforeEnd,
        }
    }
}

impl From<ModelError> for ApiError {
    fn from(e: ModelError) -> ApiError {
        match e {
            ModelError::UnknownGame(_) => {
                ApiError::BadRequest(ErrorCode::UnknownGame, e.to_string())
            }
            ModelError::UnknownOpponent(_) => {
                ApiError::BadRequest(ErrorCode::UnknownOpponent, e.to_string())
            }
            ModelError::UnknownStatus(_) => ApiError::Internal(e.to_string()),
            ModelError::UnknownEventKind(_) => {
                ApiError::BadRequest(ErrorCode::BadTournament, e.to_string())
            }
        }
    }
}

impl From<NoSecret> for ApiError {
    fn from(e: NoSecret) -> ApiError {
        ApiError::Unavailable(ErrorCode::Unavailable, e.to_string())
    }
}

impl From<GameError> for ApiError {
    fn from(e: GameError) -> ApiError {
        match e {
            GameError::NotFound(id) => ApiError::NotFound(ErrorCode::GameNotFound, id),
            GameError::Stale { .. } => ApiError::Conflict(ErrorCode::StaleRevision, e.to_string()),
            GameError::Session(e) => e.into(),
            GameError::Store(e) => e.into(),
            GameError::Engine(e) => e.into(),
            GameError::AnalysisLimit { .. } => {
                ApiError::TooMany(ErrorCode::AnalysisLimit, e.to_string(), 5)
            }
            GameError::EngineBusy => ApiError::Busy(ErrorCode::EngineBusy, e.to_string(), 10),
            GameError::NoWorker => ApiError::Unavailable(ErrorCode::Unavailable, e.to_string()),
            GameError::InviteUsed => ApiError::Conflict(ErrorCode::InviteUsed, e.to_string()),
            GameError::TakebacksOff => ApiError::Conflict(ErrorCode::TakebacksOff, e.to_string()),
            GameError::NotOver => ApiError::Conflict(ErrorCode::GameNotOver, e.to_string()),
            GameError::RatedNeedsAccount => {
                ApiError::Unauthorized(ErrorCode::NotSignedIn, e.to_string())
            }
            GameError::OwnRatedGame => ApiError::Conflict(ErrorCode::SameAccount, e.to_string()),
            GameError::RatedBanned => ApiError::Forbidden(ErrorCode::RatedBanned, e.to_string()),
            GameError::NotAPlayer(m) => ApiError::Forbidden(ErrorCode::NotAPlayer, m),
            GameError::BadRecord(m) => ApiError::BadRequest(ErrorCode::BadRecord, m),
            GameError::RecordTooLong(m) => ApiError::BadRequest(ErrorCode::RecordTooLong, m),
            GameError::Internal(m) => ApiError::Internal(m),
            GameError::Chat(c) => {
                use crate::games::ChatRefusal as C;
                let m = c.to_string();
                match c {
                    C::Bad(_) => ApiError::BadRequest(ErrorCode::BadChat, m),
                    C::WrongRoom(_) => ApiError::Forbidden(ErrorCode::WrongRoom, m),
                    C::Flood => ApiError::TooMany(ErrorCode::ChatFlood, m, 10),
                    C::Muted(mute) => ApiError::ForbiddenUntil(
                        ErrorCode::Muted,
                        m,
                        mute.until_ms,
                        Some(mute.reason),
                    ),
                }
            }
        }
    }
}

impl From<crate::lobby::LobbyError> for ApiError {
    fn from(e: crate::lobby::LobbyError) -> ApiError {
        use crate::lobby::LobbyError as L;
        let m = e.to_string();
        match e {
            // Missing, not NotFound: NotFound words its message as a game's
            // ("no game with id …").
            L::NoSuchSeek(_) => ApiError::Missing(ErrorCode::NoSuchSeek, m),
            L::Taken => ApiError::Conflict(ErrorCode::SeekTaken, m),
            L::NotYours => ApiError::Forbidden(ErrorCode::NotYourSeek, m),
            L::Own => ApiError::Conflict(ErrorCode::OwnSeek, m),
            L::OutOfRange(_) => ApiError::Forbidden(ErrorCode::OutOfRange, m),
            L::NotSignedIn => ApiError::Unauthorized(ErrorCode::NotSignedIn, m),
            L::BadClock(_) => ApiError::BadRequest(ErrorCode::BadClock, m),
            L::BadRange(_) => ApiError::BadRequest(ErrorCode::BadRange, m),
            L::TooMany(_) => ApiError::TooMany(ErrorCode::TooManySeeks, m, 10),
            L::UnknownPool(_) => ApiError::Missing(ErrorCode::UnknownPool, m),
            L::AlreadyWaiting => ApiError::Conflict(ErrorCode::AlreadyWaiting, m),
            L::NoSuchPlayer(_) => ApiError::Missing(ErrorCode::UserNotFound, m),
            L::ChallengeYourself => ApiError::BadRequest(ErrorCode::ChallengeYourself, m),
            L::ChallengeRefused(_) => ApiError::Forbidden(ErrorCode::ChallengeRefused, m),
            L::ChallengeOpen => ApiError::Conflict(ErrorCode::ChallengeOpen, m),
            L::BadCursor(_) => ApiError::BadRequest(ErrorCode::BadQuery, m),
            L::TooManyChallenges(_) => ApiError::TooMany(ErrorCode::TooManyChallenges, m, 60),
            L::NoSuchChallenge(_) => ApiError::Missing(ErrorCode::NoSuchChallenge, m),
            L::NotYourChallenge(_) => ApiError::Forbidden(ErrorCode::NotYourChallenge, m),
            L::ChallengeAnswered(_) => ApiError::Conflict(ErrorCode::ChallengeAnswered, m),
            L::Blocked => ApiError::Forbidden(ErrorCode::Blocked, m),
            L::RatedBanned => ApiError::Forbidden(ErrorCode::RatedBanned, m),
            L::Paused(p) => ApiError::TooMany(
                ErrorCode::Paused,
                m,
                u64::try_from((p.until_ms - crate::clock::now_ms()).max(1000) / 1000).unwrap_or(1),
            ),
            L::Settings(e) => e.into(),
            L::Game(e) => e.into(),
        }
    }
}

impl From<crate::people::FollowError> for ApiError {
    fn from(e: crate::people::FollowError) -> ApiError {
        use crate::people::FollowError as F;
        let m = e.to_string();
        match e {
            F::Yourself => ApiError::BadRequest(ErrorCode::FollowYourself, m),
            F::NoSuchPlayer(_) => ApiError::Missing(ErrorCode::UserNotFound, m),
            F::TooMany(_) => ApiError::TooMany(ErrorCode::TooManyFollows, m, 60),
            F::Blocked => ApiError::Forbidden(ErrorCode::Blocked, m),
            F::Store(e) => e.into(),
        }
    }
}

impl From<crate::safety::SafetyError> for ApiError {
    fn from(e: crate::safety::SafetyError) -> ApiError {
        use crate::safety::SafetyError as S;
        let m = e.to_string();
        match e {
            S::Yourself(_) => ApiError::BadRequest(ErrorCode::Yourself, m),
            S::NoSuchPlayer(_) => ApiError::Missing(ErrorCode::UserNotFound, m),
            S::ReportOpen => ApiError::Conflict(ErrorCode::ReportOpen, m),
            S::BadReport(_) => ApiError::BadRequest(ErrorCode::BadReport, m),
            S::TooManyBlocks(_) => ApiError::TooMany(ErrorCode::TooManyBlocks, m, 60),
            S::NotModerator => ApiError::Forbidden(ErrorCode::NotModerator, m),
            S::NoSuchReport(_) => ApiError::Missing(ErrorCode::NoSuchReport, m),
            S::BadAction(_) => ApiError::BadRequest(ErrorCode::BadAction, m),
            S::Store(e) => e.into(),
        }
    }
}

impl From<crate::tournaments::TournamentError> for ApiError {
    fn from(e: crate::tournaments::TournamentError) -> ApiError {
        use crate::tournaments::TournamentError as T;
        let m = e.to_string();
        match e {
            T::NotFound(_) => ApiError::Missing(ErrorCode::NoSuchTournament, m),
            T::Refused(_) => ApiError::BadRequest(ErrorCode::BadTournament, m),
            T::Broken(_) => ApiError::Internal(m),
            T::NotSignedIn => ApiError::Unauthorized(ErrorCode::NotSignedIn, m),
            T::AlreadyIn => ApiError::Conflict(ErrorCode::AlreadyJoined, m),
            T::NotIn => ApiError::Conflict(ErrorCode::NotJoined, m),
            T::Over => ApiError::Conflict(ErrorCode::TournamentOver, m),
            T::Conditions(_) => ApiError::Forbidden(ErrorCode::ConditionsNotMet, m),
            T::WrongPassword => ApiError::Forbidden(ErrorCode::WrongPassword, m),
            T::TooMany(_) => ApiError::TooMany(ErrorCode::TooManyTournaments, m, 60),
            T::Lobby(e) => e.into(),
            T::Game(e) => e.into(),
            T::Store(e) => e.into(),
        }
    }
}

impl From<SettingsRefusal> for ApiError {
    fn from(e: SettingsRefusal) -> ApiError {
        let code = match e {
            SettingsRefusal::Rules(_) => ErrorCode::BadRules,
            SettingsRefusal::Match(_) => ErrorCode::BadSettings,
            SettingsRefusal::Stake(_) => ErrorCode::BadStake,
        };
        ApiError::BadRequest(code, e.to_string())
    }
}

impl From<SocketRefused> for ApiError {
    fn from(e: SocketRefused) -> ApiError {
        match e {
            SocketRefused::Address(_) => {
                ApiError::TooMany(ErrorCode::TooManyConnections, e.to_string(), 10)
            }
            SocketRefused::Full { .. } => {
                ApiError::Unavailable(ErrorCode::TooManyConnections, e.to_string())
            }
        }
    }
}

impl From<EngineError> for ApiError {
    fn from(e: EngineError) -> ApiError {
        match e {
            EngineError::BadRequest(input, m) => ApiError::BadRequest(
                match input {
                    BadInput::Json => ErrorCode::BadJson,
                    BadInput::Rules => ErrorCode::BadRules,
                    BadInput::Record => ErrorCode::BadRecord,
                    BadInput::Move => ErrorCode::IllegalMove,
                    BadInput::Level => ErrorCode::BadLevel,
                    BadInput::Number => ErrorCode::BadNumber,
                    BadInput::MatchTarget => ErrorCode::BadMatchTarget,
                    BadInput::Game => ErrorCode::UnknownGame,
                },
                m,
            ),
            EngineError::GameOver(m) => ApiError::Conflict(ErrorCode::GameOver, m),
            EngineError::Internal(m) => ApiError::Internal(m),
        }
    }
}

impl From<AccountError> for ApiError {
    fn from(e: AccountError) -> ApiError {
        let m = e.to_string();
        match e {
            AccountError::BadName(_) => ApiError::BadRequest(ErrorCode::BadName, m),
            AccountError::WeakPassword(_) => ApiError::BadRequest(ErrorCode::WeakPassword, m),
            AccountError::NameTaken => ApiError::Conflict(ErrorCode::NameTaken, m),
            AccountError::BadCredentials | AccountError::BadRecovery => {
                ApiError::Unauthorized(ErrorCode::BadCredentials, m)
            }
            AccountError::Throttled(secs) => ApiError::TooMany(ErrorCode::SignInThrottled, m, secs),
            AccountError::NotSignedIn => ApiError::Unauthorized(ErrorCode::NotSignedIn, m),
            AccountError::PasskeyNeedsName => ApiError::BadRequest(ErrorCode::PasskeyNeedsName, m),
            AccountError::PasskeyRefused(_) => ApiError::BadRequest(ErrorCode::PasskeyRefused, m),
            AccountError::NoSecret => ApiError::Unavailable(ErrorCode::Unavailable, m),
            AccountError::Store(e) => e.into(),
            AccountError::Internal(m) => ApiError::Internal(m),
        }
    }
}

impl From<SessionError> for ApiError {
    fn from(e: SessionError) -> ApiError {
        match e {
            SessionError::BadRequest(c, m) => ApiError::BadRequest(c.into(), m),
            SessionError::Conflict(c, m) => ApiError::Conflict(c.into(), m),
            SessionError::Forbidden(c, m) => ApiError::Forbidden(c.into(), m),
            SessionError::Corrupt(m) => ApiError::Internal(m),
            SessionError::Dice(e) => {
                tracing::error!(error = %e, "no die could be drawn");
                ApiError::Unavailable(ErrorCode::Unavailable, format!("{e}; try again"))
            }
        }
    }
}

impl From<crate::flows::FlowError> for ApiError {
    fn from(e: crate::flows::FlowError) -> ApiError {
        use crate::flows::FlowError as F;
        match e {
            F::Account(e) => e.into(),
            F::Safety(e) => e.into(),
            F::Game(e) => e.into(),
            F::Lobby(e) => e.into(),
            F::Tournament(e) => e.into(),
            F::Store(e) => e.into(),
        }
    }
}

impl From<StoreError> for ApiError {
    fn from(e: StoreError) -> ApiError {
        match e {
            StoreError::Sql(e) => ApiError::Storage(e),
            e @ StoreError::Stale(_) => ApiError::Conflict(ErrorCode::StaleRevision, e.to_string()),
            e @ (StoreError::Commit(_) | StoreError::Closed | StoreError::NoQueue) => {
                ApiError::Internal(e.to_string())
            }
            // The shared database is down or busy: nothing was changed, and
            // the same request may well succeed in a moment.
            e @ StoreError::Postgres(_) => {
                tracing::error!(error = %e, "PostgreSQL request failed");
                ApiError::Unavailable(ErrorCode::Unavailable, e.to_string())
            }
        }
    }
}

impl IntoResponse for ApiError {
    fn into_response(self) -> Response {
        if matches!(self, ApiError::Storage(_) | ApiError::Internal(_)) {
            tracing::error!(error = %self, "request failed");
        }
        let status = match self {
            ApiError::BadRequest(..) | ApiError::BadRecordAt(..) => StatusCode::BAD_REQUEST,
            ApiError::NotFound(..) | ApiError::Missing(..) => StatusCode::NOT_FOUND,
            ApiError::Forbidden(..) | ApiError::ForbiddenUntil(..) => StatusCode::FORBIDDEN,
            ApiError::Unauthorized(..) => StatusCode::UNAUTHORIZED,
            ApiError::Conflict(..) => StatusCode::CONFLICT,
            ApiError::Unavailable(..) | ApiError::Busy(..) => StatusCode::SERVICE_UNAVAILABLE,
            ApiError::TooMany(..) => StatusCode::TOO_MANY_REQUESTS,
            ApiError::Storage(_) | ApiError::Internal(_) => StatusCode::INTERNAL_SERVER_ERROR,
        };
        let retry_after = match self {
            ApiError::TooMany(_, _, s) | ApiError::Busy(_, _, s) => Some(s),
            _ => None,
        };
        let at = match &self {
            ApiError::BadRecordAt(_, at) => Some(at.clone()),
            _ => None,
        };
        let (until_ms, reason) = match &self {
            ApiError::ForbiddenUntil(_, _, until, reason) => (Some(*until), reason.clone()),
            _ => (None, None),
        };
        let mut res = (
            status,
            Json(ErrorBody {
                code: self.code(),
                error: self.to_string(),
                at,
                until_ms,
                reason,
            }),
        )
            .into_response();
        if let Some(secs) = retry_after {
            res.headers_mut()
                .insert(axum::http::header::RETRY_AFTER, secs.max(1).into());
        }
        res
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::dice::DiceUnavailable;

    #[test]
    fn a_failing_generator_is_a_503_with_a_json_error() {
        let res = ApiError::from(SessionError::Dice(DiceUnavailable)).into_response();
        assert_eq!(res.status(), StatusCode::SERVICE_UNAVAILABLE);
        let stale = ApiError::from(StoreError::Stale(3)).into_response();
        assert_eq!(stale.status(), StatusCode::CONFLICT);
    }

    /// A tournament's refusals keep the API's code and words; an entry
    /// condition is a 403; what is broken on the server (a damaged event,
    /// no randomness for an id) is a 500, never the asker's 400.
    #[test]
    fn a_tournament_refusal_is_a_400_its_conditions_a_403_and_a_fault_a_500() {
        use crate::tournaments::{Refusal, TournamentError, Unmet};
        let answer = |e: TournamentError| {
            let api = ApiError::from(e);
            (api.to_string(), api.code(), api.into_response().status())
        };
        assert_eq!(
            answer(Refusal::Minutes(0).into()),
            (
                "an arena lasts 1 to 1440 minutes, not 0".to_string(),
                ErrorCode::BadTournament,
                StatusCode::BAD_REQUEST
            )
        );
        let unmet = Unmet::RatedGames {
            needed: 5,
            game: crate::model::Kind::Ringo,
            games: 2,
        };
        assert_eq!(
            answer(unmet.into()),
            (
                "this tournament needs 5 rated games of ringo; you have 2".to_string(),
                ErrorCode::ConditionsNotMet,
                StatusCode::FORBIDDEN
            )
        );
        let broken = answer(TournamentError::Broken("a damaged tournament x".into()));
        assert_eq!(broken.2, StatusCode::INTERNAL_SERVER_ERROR);
        assert_eq!(
            ApiError::from(crate::model::ModelError::UnknownEventKind("cup".into())).code(),
            ErrorCode::BadTournament
        );
    }
}
