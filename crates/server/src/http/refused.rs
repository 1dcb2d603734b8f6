//! Every service's refusals and failures as the API answers them: each
//! becomes an [`ApiError`], a status and its stable [`ErrorCode`], here and
//! nowhere else. The services speak their own error types; none knows HTTP.

use super::codes::ErrorCode;
use super::error::ApiError;
use crate::accounts::AccountError;
use crate::engine::{BadInput, EngineError};
use crate::games::GameError;
use crate::kinds::SettingsRefusal;
use crate::model::ModelError;
use crate::secrets::NoSecret;
use crate::session::{Refusal, SessionError};
use crate::store::StoreError;
use crate::ws::SocketRefused;

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

#[cfg(test)]
mod tests {
    use super::*;
    use crate::dice::DiceUnavailable;
    use axum::http::StatusCode;
    use axum::response::IntoResponse;

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
