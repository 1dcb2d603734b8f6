//! Where two players meet. Every way two players come together (a seek
//! taken, a pool's pairing, a challenge sent or accepted, a tournament's
//! pairing) asks the one question whether they may ([`Lobby::may_meet`]:
//! neither blocks the other), and every game between them opens by the one
//! door here ([`Lobby::open_meeting`]), which asks it again, so no way in
//! can seat two players one of whom blocks the other.

use super::error::LobbyError;
use super::service::Lobby;
use crate::clock::ClockSettings;
use crate::games::{new_row, open_game, NewGame};
use crate::model::{Kind, Mode, Seat};
use crate::store::{Relation, SeatAccount, SeekRow};
use std::collections::HashSet;

/// One seat of a game two players meet in.
pub(crate) struct MeetingSeat {
    /// The hash of the seat's token: a secret its player holds, or one
    /// nobody holds when she acts by her account.
    pub token_hash: String,
    /// Her account, when she is signed in.
    pub account: Option<SeatAccount>,
}

/// A game two players meet in, as the lobby opens it.
pub(crate) struct Meeting {
    /// The game's id, made before (a seek or a challenge is taken for it
    /// first, so two takers cannot both open one).
    pub id: String,
    /// The game.
    pub kind: Kind,
    /// Its settings, checked.
    pub settings: String,
    /// Its clock, checked.
    pub clock: Option<ClockSettings>,
    /// Rated.
    pub rated: bool,
    /// The first seat and the second.
    pub seats: [MeetingSeat; 2],
    /// A tournament's bout: a pair of games whenever the game plays pairs,
    /// rated or not (otherwise only a rated game begins a pair).
    pub bout: bool,
}

impl Lobby {
    /// Whether two players may meet in a game: not when either blocks the
    /// other (the one place this is asked of two players).
    ///
    /// # Errors
    /// [`LobbyError::Blocked`]; the store failed.
    pub(crate) async fn may_meet(&self, a: i64, b: i64) -> Result<(), LobbyError> {
        if self.store().related_either(Relation::Block, a, b).await? {
            return Err(LobbyError::Blocked);
        }
        Ok(())
    }

    /// The pairs `(a, b)` among `players` where `a` blocks `b`: what a
    /// tournament's pairing keeps apart (either way round).
    ///
    /// # Errors
    /// The store failed.
    pub(crate) async fn kept_apart(
        &self,
        players: &[i64],
    ) -> Result<HashSet<(i64, i64)>, LobbyError> {
        let here: HashSet<i64> = players.iter().copied().collect();
        // Asked together: a large event's pairing waits on one round trip.
        let lists = futures_util::future::join_all(
            players
                .iter()
                .map(|&a| self.store().related(Relation::Block, a)),
        )
        .await;
        let mut out = HashSet::new();
        for (&a, list) in players.iter().zip(lists) {
            for b in list? {
                if here.contains(&b.id) {
                    out.insert((a, b.id));
                }
            }
        }
        Ok(out)
    }

    /// Opens the game a seek was taken for (by a player, a pool, or a
    /// challenge accepted, which is a seek of one), the seek's maker in her
    /// seat and the taker (`theirs`: her token's hash) in the other,
    /// through the one door for a game between two players.
    pub(super) async fn open_paired(
        &self,
        seek: &SeekRow,
        game_id: &str,
        theirs: String,
        who: Option<SeatAccount>,
    ) -> Result<(), LobbyError> {
        let maker = MeetingSeat {
            token_hash: seek.token_hash.clone(),
            account: seek.account.clone(),
        };
        let taker = MeetingSeat {
            token_hash: theirs,
            account: who,
        };
        let seats = match seek.seat {
            Seat::First => [maker, taker],
            Seat::Second => [taker, maker],
        };
        self.open_meeting(Meeting {
            id: game_id.to_string(),
            kind: seek.kind,
            settings: seek.settings.clone(),
            clock: seek.clock,
            rated: seek.rated,
            seats,
            bout: false,
        })
        .await
    }

    /// Opens a game between two accounts that another part of the site
    /// paired (a tournament's bout), through the one door for a game
    /// between two players: `seats` in their seats, each acting by her
    /// account (the seat tokens are secrets nobody holds), a pair of games
    /// whenever the game plays pairs. Answers the game's id.
    ///
    /// # Errors
    /// A block between them; the game could not be made.
    pub(crate) async fn open_bout(
        &self,
        kind: Kind,
        settings: &str,
        clock: Option<crate::clock::ClockSettings>,
        rated: bool,
        seats: [SeatAccount; 2],
    ) -> Result<String, LobbyError> {
        let id = crate::secrets::game_id()?;
        let [a, b] = seats;
        let by_account = |account: SeatAccount| -> Result<MeetingSeat, LobbyError> {
            Ok(MeetingSeat {
                token_hash: crate::secrets::hash(&crate::secrets::secret()?),
                account: Some(account),
            })
        };
        self.open_meeting(Meeting {
            id: id.clone(),
            kind,
            settings: settings.to_string(),
            clock,
            rated,
            seats: [by_account(a)?, by_account(b)?],
            bout: true,
        })
        .await?;
        Ok(id)
    }

    /// Opens a game between two players through the games service's door
    /// (`open_game`): never two accounts one of whom blocks the other; a
    /// rated game of a game played in pairs (or any tournament bout of
    /// one) begins its pair.
    ///
    /// # Errors
    /// A block between them; the game could not be made.
    pub(crate) async fn open_meeting(&self, m: Meeting) -> Result<(), LobbyError> {
        let [s0, s1] = m.seats;
        if let (Some(a), Some(b)) = (&s0.account, &s1.account) {
            self.may_meet(a.id, b.id).await?;
        }
        let g = NewGame {
            kind: m.kind,
            settings: m.settings,
            start: None,
            mode: Mode::Friend,
            level: None,
            my_seat: Seat::First,
            tokens: vec![],
            rated: m.rated,
            clock: m.clock,
            first_move_ms: self.first_move_ms(),
        };
        let mut row = new_row(&g, Some(s0.token_hash), Some(s1.token_hash), None)?;
        row.id = m.id;
        row.accounts = [s0.account, s1.account];
        if m.bout {
            crate::games::begin_pair_always(&mut row);
        } else {
            crate::games::begin_pair(&mut row);
        }
        open_game(&self.inner.games, row, vec![], None).await?;
        Ok(())
    }
}

#[cfg(test)]
mod tests {
    use crate::store::accounts::NewAccount;
    use crate::store::{Relation, SeatAccount, Store};

    async fn account(store: &Store, name: &str) -> SeatAccount {
        let id = store
            .create_account(NewAccount {
                name: name.into(),
                key: name.into(),
                password_hash: "x".into(),
                recovery: vec![],
                created_at: 0,
            })
            .await
            .unwrap()
            .unwrap();
        SeatAccount {
            id,
            name: Some(name.into()),
        }
    }

    /// The door asks whatever the caller asked before: a block made after
    /// a tournament's pairing looked (or by a caller that never asked)
    /// still keeps the two apart, and the pair it refuses is the one the
    /// pairing keeps apart.
    #[tokio::test]
    async fn the_door_never_seats_two_players_one_of_whom_blocks_the_other() {
        let store = Store::in_memory().unwrap();
        let app = crate::state::AppState::new(store.clone(), 1, std::time::Duration::ZERO);
        let (ala, eve, ola) = (
            account(&store, "ala").await,
            account(&store, "eve").await,
            account(&store, "ola").await,
        );
        let settings = crate::kinds::of(crate::model::Kind::Urgammon)
            .settings(&crate::kinds::SettingsFields {
                rules: None,
                to: 1,
                draw: None,
                stake: None,
            })
            .unwrap();
        let open = |a: &SeatAccount, b: &SeatAccount| {
            app.lobby().open_bout(
                crate::model::Kind::Urgammon,
                &settings,
                None,
                false,
                [a.clone(), b.clone()],
            )
        };
        let game = open(&ala, &eve).await.unwrap();
        assert!(store.load(&game).await.unwrap().is_some());
        store
            .relate(Relation::Block, eve.id, ala.id, 0, 10)
            .await
            .unwrap();
        assert!(matches!(
            open(&ala, &eve).await,
            Err(super::LobbyError::Blocked)
        ));
        assert!(open(&ala, &ola).await.is_ok());
        let apart = app
            .lobby()
            .kept_apart(&[ala.id, eve.id, ola.id])
            .await
            .unwrap();
        assert_eq!(apart, [(eve.id, ala.id)].into_iter().collect());
        app.stop().await;
    }
}
