//! The API's error codes: what went wrong as a stable word a program (or
//! the page's translations, `err.CODE`) can rely on. A code, once given, is
//! never renamed or removed: the HTTP API is a contract (docs/api.md).

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
