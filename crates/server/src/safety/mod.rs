//! Safety between strangers (lila's `relation` blocks, `report` and `mod`
//! modules): a player blocks another (who then cannot challenge her, take
//! her seeks, be paired with her, follow her, nor be read in her chat); a
//! player reports another, the server attaching the evidence (the game, the
//! target's lines in it); moderators (the first made by `agon mod grant`)
//! read the reports and act: warn, mute in chat for a time, close a report;
//! every action is logged with who, when and why, and the player is told of
//! a warning or a mute. Everything is in the store, so it holds on every
//! instance at once. Below the lobby, the people and the games services,
//! which ask it; it asks the store, and the rules it shares with the
//! layers below it: a name's spelling (`accounts::names`), the public text
//! policy (`text.rs`), what an established rating is (`ratings`). Its
//! files: the refusals (`error.rs`), a moderator's actions as types
//! (`actions.rs`), the server's own fair-play watch (`watch.rs`), the word
//! lists (`words.rs`).

mod actions;
mod error;
mod sanctions;
mod watch;
mod words;

pub use actions::{ActionView, ModAction, ModAsk};
pub use error::SafetyError;
pub use sanctions::{marked, mute, muted, rated_banned, Mute, MARKED_UNTIL, MAX_MUTE_MINUTES};
pub use watch::{jump, report_accuracy, watch_rating, ACCURACY_RUN, JUMP, JUMP_WINDOW_S};
pub use words::flagged;

use crate::clock::now_ms;
use crate::store::Relation;
use crate::store::{ModActionRow, ReportRow, Room, Sanction, SeatAccount, Store, StoreError};
use serde::Serialize;

/// Why a report is filed.
pub const REASONS: [&str; 5] = ["chat", "cheat", "boost", "name", "other"];

/// The longest report text, in characters.
pub const MAX_REPORT_CHARS: usize = crate::text::REPORT.max_chars;

/// The most players one account blocks.
pub const MAX_BLOCKS: usize = 500;

/// The account named `name`, if it exists and is not deleted.
///
/// # Errors
/// The store failed.
pub async fn named(store: &Store, name: &str) -> Result<Option<SeatAccount>, StoreError> {
    let Ok(key) = crate::accounts::names::check(name) else {
        return Ok(None);
    };
    Ok(store
        .account_by_key(&key)
        .await?
        .filter(|a| a.name.is_some())
        .map(|a| SeatAccount {
            id: a.id,
            name: a.name,
        }))
}

/// A report as moderators read it.
#[derive(Serialize, Clone, Debug)]
pub struct ReportView {
    /// Its number.
    pub id: i64,
    /// Who filed it (none: the server itself, or a deleted account).
    pub reporter: Option<String>,
    /// Whom it is about.
    pub target: Option<String>,
    /// Why.
    pub reason: String,
    /// The reporter's words.
    pub text: String,
    /// The game it names.
    pub game: Option<String>,
    /// What the server attached: `{"game", "lines": [{"text", "at_ms"}]}`.
    pub evidence: serde_json::Value,
    /// How many open reports are about this player (the list's order:
    /// most first).
    pub about_target: usize,
    /// When it was filed.
    pub created_ms: i64,
}

/// A player's record as moderators read it (beside her public profile:
/// her games and rating history).
#[derive(Serialize, Clone, Debug)]
pub struct Record {
    /// Her name.
    pub name: Option<String>,
    /// Other accounts signed in from one of her devices.
    pub same_devices: Vec<String>,
    /// The open reports about her.
    pub reports: Vec<ReportView>,
    /// What moderators did to her, newest first.
    pub actions: Vec<ActionView>,
    /// Until when her chat is muted, while it is.
    pub muted_until: Option<i64>,
    /// Until when she is banned from rated play, while she is.
    pub rated_banned_until: Option<i64>,
    /// She is a moderator.
    pub moderator: bool,
    /// Her chat lines hidden for a listed word.
    pub hidden_lines: i64,
    /// Marked for cheating.
    pub marked: bool,
}

/// The safety service. Clones share one store.
#[derive(Clone)]
pub struct Safety {
    store: Store,
}

impl Safety {
    /// The service over the store.
    pub fn new(store: Store) -> Safety {
        Safety { store }
    }

    async fn player(&self, name: &str) -> Result<SeatAccount, SafetyError> {
        named(&self.store, name)
            .await?
            .ok_or_else(|| SafetyError::NoSuchPlayer(name.chars().take(40).collect()))
    }

    /// `me` blocks the player named `name` (blocking twice is one block):
    /// her follows of each other end.
    ///
    /// # Errors
    /// Herself, no such player, too many blocks, the store failed.
    pub async fn block(&self, me: i64, name: &str) -> Result<SeatAccount, SafetyError> {
        let them = self.player(name).await?;
        if them.id == me {
            return Err(SafetyError::Yourself("block"));
        }
        // The cap is the store's to decide, with the insert.
        if let crate::store::Capped::Full(n) = self
            .store
            .relate(Relation::Block, me, them.id, now_ms(), MAX_BLOCKS)
            .await?
        {
            return Err(SafetyError::TooManyBlocks(n));
        }
        self.store.unrelate(Relation::Follow, me, them.id).await?;
        self.store.unrelate(Relation::Follow, them.id, me).await?;
        Ok(them)
    }

    /// `me` unblocks the player named `name`.
    ///
    /// # Errors
    /// No such player, the store failed.
    pub async fn unblock(&self, me: i64, name: &str) -> Result<SeatAccount, SafetyError> {
        let them = self.player(name).await?;
        self.store.unrelate(Relation::Block, me, them.id).await?;
        Ok(them)
    }

    /// The players `me` blocks.
    ///
    /// # Errors
    /// The store failed.
    pub async fn blocks(&self, me: i64) -> Result<Vec<SeatAccount>, SafetyError> {
        Ok(self.store.related(Relation::Block, me).await?)
    }

    /// Files `me`'s report about the player named `target`; the server
    /// attaches the game named (if she played in it) and her lines in its
    /// chat. Answers its number.
    ///
    /// # Errors
    /// Herself, no such player, an unknown reason, a text too long, a game
    /// that is not there or not hers, one report open already.
    pub async fn report(
        &self,
        me: &SeatAccount,
        target: &str,
        reason: &str,
        text: &str,
        game: Option<&str>,
    ) -> Result<i64, SafetyError> {
        if !REASONS.contains(&reason) {
            return Err(SafetyError::BadReport(format!(
                "unknown reason '{}': {}",
                reason.chars().take(20).collect::<String>(),
                REASONS.join(", ")
            )));
        }
        let text = crate::text::REPORT
            .check(text)
            .map_err(|e| SafetyError::BadReport(e.to_string()))?;
        let them = self.player(target).await?;
        if them.id == me.id {
            return Err(SafetyError::Yourself("report"));
        }
        let evidence = match game {
            None => serde_json::json!({}),
            Some(id) => self.evidence(id, &them).await?,
        };
        let row = ReportRow {
            id: 0,
            reporter: Some(me.clone()),
            target: them,
            reason: reason.to_string(),
            text,
            game: game.map(str::to_string),
            evidence: evidence.to_string(),
            status: "open".into(),
            created_ms: now_ms(),
        };
        self.store
            .add_report(row)
            .await?
            .ok_or(SafetyError::ReportOpen)
    }

    /// A game's evidence about a player: the game, her seat in it, and her
    /// lines in its chat (both rooms), as the store has them.
    async fn evidence(
        &self,
        game: &str,
        them: &SeatAccount,
    ) -> Result<serde_json::Value, SafetyError> {
        let bad = || {
            SafetyError::BadReport(format!(
                "no game '{}' of this player",
                game.chars().take(64).collect::<String>()
            ))
        };
        if !crate::store::is_game_id(game) {
            return Err(bad());
        }
        let loaded = self.store.load(game).await?.ok_or_else(bad)?;
        let seat = loaded
            .row
            .accounts
            .iter()
            .position(|a| a.as_ref().is_some_and(|a| a.id == them.id));
        let mut lines = vec![];
        for room in [Room::Players, Room::Spectators] {
            for l in self.store.chat(game, room, 200).await? {
                // Hers by her name, or (a line written by her seat's token
                // alone) by her seat in the players' room.
                let by_name = l.name.is_some() && l.name.as_deref() == them.name.as_deref();
                let by_seat =
                    room == Room::Players && seat.is_some() && l.seat.map(|s| s.index()) == seat;
                if by_name || by_seat {
                    lines.push(
                        serde_json::json!({"text": l.text, "at_ms": l.at_ms, "room": room.name()}),
                    );
                }
            }
        }
        Ok(serde_json::json!({"game": game, "seat": seat, "lines": lines}))
    }

    /// Whether `account` is a moderator.
    ///
    /// # Errors
    /// The store failed.
    pub async fn is_moderator(&self, account: i64) -> Result<bool, SafetyError> {
        Ok(self.store.is_moderator(account).await?)
    }

    /// Refuses anyone who is not a moderator.
    async fn require_moderator(&self, account: i64) -> Result<(), SafetyError> {
        if self.is_moderator(account).await? {
            Ok(())
        } else {
            Err(SafetyError::NotModerator)
        }
    }

    /// The open reports, those about the most reported players first (then
    /// the oldest), for moderator `me`.
    ///
    /// # Errors
    /// Not a moderator, the store failed.
    pub async fn reports(&self, me: i64) -> Result<Vec<ReportView>, SafetyError> {
        self.require_moderator(me).await?;
        let rows = self.store.reports("open", 500).await?;
        let mut per_target = std::collections::HashMap::new();
        for r in &rows {
            *per_target.entry(r.target.id).or_insert(0usize) += 1;
        }
        let mut out: Vec<ReportView> = rows
            .iter()
            .map(|r| ReportView {
                id: r.id,
                reporter: r.reporter.as_ref().and_then(|a| a.name.clone()),
                target: r.target.name.clone(),
                reason: r.reason.clone(),
                text: r.text.clone(),
                game: r.game.clone(),
                evidence: serde_json::from_str(&r.evidence).unwrap_or_default(),
                about_target: per_target.get(&r.target.id).copied().unwrap_or(0),
                created_ms: r.created_ms,
            })
            .collect();
        out.sort_by(|a, b| {
            b.about_target
                .cmp(&a.about_target)
                .then(a.created_ms.cmp(&b.created_ms))
        });
        Ok(out)
    }

    /// The log, newest first (of one player, or of all), for moderator `me`.
    ///
    /// # Errors
    /// Not a moderator, no such player, the store failed.
    pub async fn log(&self, me: i64, target: Option<&str>) -> Result<Vec<ActionView>, SafetyError> {
        self.require_moderator(me).await?;
        let target = match target {
            Some(name) => Some(self.player(name).await?.id),
            None => None,
        };
        Ok(self
            .store
            .actions(target, 200)
            .await?
            .iter()
            .map(ActionView::of)
            .collect())
    }

    /// Moderator `me` acts on a player; logged once, with who, when and
    /// why. Answers the logged action.
    ///
    /// # Errors
    /// Not a moderator, an unknown action, no reason, a mute's length out
    /// of range, no such player or open report, the store failed.
    pub async fn act(&self, me: &SeatAccount, ask: &ModAsk) -> Result<ActionView, SafetyError> {
        self.require_moderator(me.id).await?;
        let reason = crate::text::MOD_REASON
            .check(&ask.reason)
            .map_err(|e| SafetyError::BadAction(format!("say why: {e}")))?;
        let target = self.player(&ask.target).await?;
        // A moderator's power is over others: her own account she closes
        // from its settings, with her password, like anyone.
        if target.id == me.id && ask.action != ModAction::CloseReport {
            return Err(SafetyError::Yourself("act as a moderator on"));
        }
        let now = now_ms();
        let (until, reason) = self.apply(&target, ask, now, &reason).await?;
        // Every instance hears of a new name or a closed account (its games
        // in memory show it).
        if matches!(ask.action, ModAction::Rename | ModAction::Close) {
            self.store.announce_person(target.id).await?;
        }
        if let Some(report) = ask.report {
            if !self.store.close_report(report, Some(me.id), now).await? {
                return Err(SafetyError::NoSuchReport(report));
            }
        } else if ask.action == ModAction::CloseReport {
            return Err(SafetyError::BadAction(
                "close-report names the report".into(),
            ));
        }
        let row = ModActionRow {
            id: 0,
            moderator: Some(me.clone()),
            target,
            action: ask.action.to_string(),
            reason,
            until_ms: until,
            report: ask.report,
            created_ms: now,
        };
        let id = self.store.log_action(row.clone()).await?;
        Ok(ActionView::of(&ModActionRow { id, ..row }))
    }

    /// What moderator's action `ask` does to `target`'s account at `now`
    /// (a sanction set or lifted, a new name, the account closed, the role
    /// granted): answers until when a sanction holds, and the reason as
    /// the log keeps it (a rename's old and new names beside it).
    ///
    /// # Errors
    /// A sanction's length out of range, a new name refused or taken, the
    /// store failed.
    async fn apply(
        &self,
        target: &SeatAccount,
        ask: &ModAsk,
        now: i64,
        reason: &str,
    ) -> Result<(Option<i64>, String), SafetyError> {
        let mut until = None;
        // A sanction's length, in minutes.
        let length = || {
            ask.minutes
                .filter(|m| (1..=MAX_MUTE_MINUTES).contains(m))
                .ok_or_else(|| {
                    SafetyError::BadAction(format!(
                        "a mute or a ban lasts 1 to {MAX_MUTE_MINUTES} minutes"
                    ))
                })
        };
        let mut reason = reason.to_string();
        match ask.action {
            ModAction::Mute | ModAction::RatedBan => {
                let t = now + length()? * 60_000;
                let sanction = if ask.action == ModAction::Mute {
                    Sanction::Mute
                } else {
                    Sanction::RatedBan
                };
                self.store.set_sanction(target.id, sanction, t).await?;
                until = Some(t);
            }
            ModAction::Unmute => {
                self.store
                    .set_sanction(target.id, Sanction::Mute, 0)
                    .await?
            }
            // Marked for cheating: off the leaderboards and out of rated
            // play until a moderator lifts the mark.
            ModAction::Mark => {
                for s in [Sanction::Cheat, Sanction::RatedBan] {
                    self.store.set_sanction(target.id, s, MARKED_UNTIL).await?;
                }
            }
            ModAction::Unmark => {
                for s in [Sanction::Cheat, Sanction::RatedBan] {
                    self.store.set_sanction(target.id, s, 0).await?;
                }
            }
            ModAction::LiftRatedBan => {
                self.store
                    .set_sanction(target.id, Sanction::RatedBan, 0)
                    .await?
            }
            ModAction::Rename => {
                let name = ask.name.as_deref().unwrap_or_default().trim();
                let key = crate::accounts::names::check(name)
                    .map_err(|e| SafetyError::BadAction(format!("the new name: {e}")))?;
                if !self.store.rename_account(target.id, name, &key).await? {
                    return Err(SafetyError::BadAction(format!(
                        "the name '{name}' is taken"
                    )));
                }
                // The log keeps the old name beside the reason.
                reason = format!(
                    "{reason} ({} → {name})",
                    target.name.as_deref().unwrap_or_default()
                );
            }
            ModAction::Close => {
                self.store.end_sign_ins(target.id, None).await?;
                self.store.delete_account(target.id, now / 1000).await?;
            }
            ModAction::Grant => {
                self.store.grant_moderator(target.id, now).await?;
            }
            ModAction::Warn | ModAction::CloseReport => {}
        }
        Ok((until, reason))
    }

    /// A player's record, for moderator `me`.
    ///
    /// # Errors
    /// Not a moderator, no such player, the store failed.
    pub async fn record(&self, me: i64, name: &str) -> Result<Record, SafetyError> {
        let reports = self.reports(me).await?;
        let target = self.player(name).await?;
        Ok(Record {
            same_devices: self
                .store
                .same_devices(target.id)
                .await?
                .into_iter()
                .filter_map(|a| a.name)
                .collect(),
            reports: reports
                .into_iter()
                .filter(|r| r.target.as_deref() == target.name.as_deref())
                .collect(),
            actions: self
                .store
                .actions(Some(target.id), 200)
                .await?
                .iter()
                .map(ActionView::of)
                .collect(),
            muted_until: muted(&self.store, target.id).await?,
            rated_banned_until: rated_banned(&self.store, target.id).await?,
            marked: marked(&self.store, target.id).await?,
            moderator: self.store.is_moderator(target.id).await?,
            hidden_lines: match &target.name {
                Some(n) => self.store.hidden_lines(n).await?,
                None => 0,
            },
            name: target.name,
        })
    }

    /// Makes the player named `name` a moderator from the command line (the
    /// first one: no moderator is needed), logged.
    ///
    /// # Errors
    /// No such player, the store failed.
    pub async fn grant_from_command_line(&self, name: &str) -> Result<bool, SafetyError> {
        let target = self.player(name).await?;
        let now = now_ms();
        let new = self.store.grant_moderator(target.id, now).await?;
        self.store
            .log_action(ModActionRow {
                id: 0,
                moderator: None,
                target,
                action: ModAction::Grant.to_string(),
                reason: "agon mod grant".into(),
                until_ms: None,
                report: None,
                created_ms: now,
            })
            .await?;
        Ok(new)
    }

    /// The warnings and mutes `me` has not been shown yet (shown once).
    ///
    /// # Errors
    /// The store failed.
    pub async fn notices(&self, me: i64) -> Result<Vec<ActionView>, SafetyError> {
        Ok(self
            .store
            .unseen_actions(me)
            .await?
            .iter()
            .map(ActionView::of)
            .collect())
    }
}
