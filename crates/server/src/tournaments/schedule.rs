//! The operator's schedule of tournaments (`agon serve --tournaments
//! FILE`): one event per line, repeated every so many minutes. Each
//! coming event is made ahead of its start (a day at most, or one period
//! when shorter), once however many instances read the same file (its
//! schedule key, the entry's name and start, is unique in the store).
//!
//! ```text
//! # name        kind  game     every=MIN offset=MIN  and what it is played with
//! ringo-hourly  arena ringo    every=60 minutes=30 clock=180+2 rated=yes
//! ur-daily      arena urgammon every=1440 offset=1080 minutes=60 clock=300+5 to=3
//! ringo-weekly  swiss ringo    every=10080 offset=4200 rounds=5 clock=600+5 rated=yes
//! ```
//!
//! Starts are the multiples of `every` minutes after the Unix epoch (UTC),
//! plus `offset`: `every=1440 offset=1080` is every day at 18:00 UTC; the
//! epoch was a Thursday, so `every=10080 offset=4200` is Saturdays at
//! 22:00. Other keys: `minutes` (an arena's length), `rounds` (a Swiss
//! event's), `clock=BASE+INC` in seconds or `days=N` (correspondence,
//! Swiss only), `to` (Urgammon's match), `rules` (Ringo's; the most even
//! set when none), `rated=yes|no`, `name=Words_with_underscores`.

use super::ask::Ask;
use crate::clock::ClockSettings;
use crate::model::{EventKind, Kind};
use std::str::FromStr;

/// One line of the schedule.
#[derive(Clone, Debug, PartialEq)]
pub struct Entry {
    /// The entry's name (its events' schedule keys begin with it).
    pub key: String,
    /// Minutes between starts.
    pub every: i64,
    /// Minutes after each multiple of `every` since the epoch.
    pub offset: i64,
    /// The event each start makes (its start filled in).
    pub ask: Ask,
}

impl FromStr for Entry {
    type Err = String;
    /// A schedule line (see the module).
    fn from_str(line: &str) -> Result<Entry, String> {
        let mut words = line.split_whitespace();
        let key = words.next().ok_or("an empty line")?.to_string();
        if !key
            .chars()
            .all(|c| c.is_ascii_alphanumeric() || c == '-' || c == '_')
            || key.len() > 40
        {
            return Err(format!("'{key}': a name is letters, digits, - and _"));
        }
        let kind = words.next().ok_or("no kind (arena or swiss)")?;
        let kind: EventKind = kind
            .parse()
            .map_err(|_| format!("'{kind}': the kind is arena or swiss"))?;
        let game: Kind = words
            .next()
            .ok_or("no game (ringo or urgammon)")?
            .parse()
            .map_err(|e| format!("{e}"))?;
        let mut ask = Ask::new(kind, game);
        let (mut every, mut offset) = (None, 0);
        let number = |k: &str, v: &str| {
            v.parse::<i64>()
                .ok()
                .filter(|n| *n >= 0)
                .ok_or(format!("{k}={v}: a whole number"))
        };
        for w in words {
            let (k, v) = w
                .split_once('=')
                .ok_or(format!("'{w}': each setting is key=value"))?;
            match k {
                "every" => every = Some(number(k, v)?),
                "offset" => offset = number(k, v)?,
                "minutes" => ask.minutes = Some(number(k, v)? as u32),
                "rounds" => ask.rounds = Some(number(k, v)? as u32),
                "to" => ask.to = number(k, v)? as u32,
                "days" => ask.clock = Some(ClockSettings::days(number(k, v)? as u32)),
                "clock" => {
                    let (b, i) = v
                        .split_once('+')
                        .ok_or(format!("clock={v}: BASE+INCREMENT in seconds"))?;
                    ask.clock = Some(ClockSettings {
                        base_secs: number(k, b)? as u32,
                        increment_secs: number(k, i)? as u32,
                        days: 0,
                    });
                }
                "rules" => ask.rules = Some(v.to_string()),
                "rated" => {
                    ask.rated = match v {
                        "yes" => true,
                        "no" => false,
                        _ => return Err(format!("rated={v}: yes or no")),
                    }
                }
                "name" => ask.name = Some(v.replace('_', " ")),
                _ => return Err(format!("'{k}': not a setting of the schedule")),
            }
        }
        let every = every.ok_or("no every=MINUTES")?;
        if !(10..=60 * 24 * 28).contains(&every) {
            return Err(format!("every={every}: 10 minutes to 4 weeks"));
        }
        if offset >= every {
            return Err(format!("offset={offset}: less than every={every}"));
        }
        Ok(Entry {
            key,
            every,
            offset,
            ask,
        })
    }
}

/// Reads a schedule: one entry a line, `#` comments and blank lines
/// skipped.
///
/// # Errors
/// The first line that is not an entry, with its number.
pub fn parse(text: &str) -> Result<Vec<Entry>, String> {
    text.lines()
        .enumerate()
        .map(|(n, l)| (n, l.split('#').next().unwrap_or("").trim()))
        .filter(|(_, l)| !l.is_empty())
        .map(|(n, l)| l.parse().map_err(|e| format!("line {}: {e}", n + 1)))
        .collect()
}

impl Entry {
    /// The first start at or after `now_ms`.
    pub fn next_start(&self, now_ms: i64) -> i64 {
        let period = self.every * 60_000;
        let offset = self.offset * 60_000;
        let k = (now_ms - offset).div_euclid(period);
        let mut start = k * period + offset;
        if start < now_ms {
            start += period;
        }
        start
    }

    /// How long before its start an event is made: a day, or one period
    /// when shorter.
    pub fn ahead_ms(&self) -> i64 {
        (self.every * 60_000).min(86_400_000)
    }

    /// The event starting at `start`, with its schedule key.
    pub fn at(&self, start: i64) -> Ask {
        Ask {
            starts_ms: start,
            schedule: Some(format!("{}@{start}", self.key)),
            ..self.ask.clone()
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_schedule_reads_as_its_module_says() {
        let text = "# an hourly arena, a daily one, a weekly Swiss\n\
            ringo-hourly  arena ringo    every=60 minutes=30 clock=180+2 rated=yes\n\
            \n\
            ur-daily      arena urgammon every=1440 offset=1080 minutes=60 clock=300+5 to=3 name=Evening_arena\n\
            ringo-weekly  swiss ringo    every=10080 offset=4200 rounds=5 days=1\n";
        let s = parse(text).unwrap();
        assert_eq!(s.len(), 3);
        assert_eq!(s[0].ask.minutes, Some(30));
        assert!(s[0].ask.rated);
        assert_eq!(
            s[0].ask.clock,
            Some(ClockSettings {
                base_secs: 180,
                increment_secs: 2,
                days: 0
            })
        );
        assert_eq!(s[1].ask.to, 3);
        assert_eq!(s[1].ask.name.as_deref(), Some("Evening arena"));
        assert_eq!(s[2].ask.rounds, Some(5));
        assert_eq!(s[2].ask.clock.unwrap().days, 1);
        // Daily at 18:00 UTC: from 2026-12-05 07:00 UTC, the same day's 18:00.
        let morning = 1_796_454_000_000; // 2026-12-05T07:00:00Z
        assert_eq!(s[1].next_start(morning), 1_796_493_600_000);
        // Hourly: the next full hour; a start exactly now is now.
        assert_eq!(s[0].next_start(morning + 1), morning + 3_600_000);
        assert_eq!(s[0].next_start(morning), morning);
        // Weekly on Saturdays at 22:00 UTC (2026-12-05 is a Saturday).
        assert_eq!(s[2].next_start(morning), 1_796_508_000_000);
        assert_eq!(
            s[0].at(morning).schedule.as_deref(),
            Some("ringo-hourly@1796454000000")
        );
        // Mistakes say where.
        assert!(parse("x arena chess every=60")
            .unwrap_err()
            .starts_with("line 1"));
        assert!(parse("x arena ringo").unwrap_err().contains("every"));
        assert!(parse("x arena ringo every=60 colour=red").is_err());
        assert!(parse("x arena ringo every=5").is_err());
        assert!(parse("x arena ringo every=60 offset=60").is_err());
    }
}
