//! FIDE's tournament report file (TRF(x), as JaVaFo and the FIDE-endorsed
//! bbpPairings read it), pure: a Swiss event's players and rounds read from
//! it, the next round's field for [`super::dutch`], and the pairings written
//! as those programs write them, so an arbiter or a test can compare the
//! two programs directly (`agon swiss pair --dutch IN.trf -p OUT`).
//!
//! Read: the player lines (`001`: start number, rating, points, and per
//! round an opponent, a colour and a result), `XXR` (the rounds of the
//! event) and `XXC` (`white1`/`black1`: the colour the odd pairing numbers
//! get when nothing else decides). A result of `1`, `=`, `0` (or `W`, `D`,
//! `L`) with an opponent is a game played; `+`/`-` a forfeit (not played:
//! the two have not met); `U` the pairing-allocated bye; `F`, `H`, `Z` (or
//! blank) an absence. The round paired is the one after the last round in
//! which anyone took part in a pairing; an entry already written for it
//! (`0000 - Z`, `H` or `F`) keeps that player out of it, as a withdrawal.

use super::dutch::{Entrant, Float, Round, Rules};
use std::fmt::Write as _;

/// A file that does not read, with the line (from 1) that says why.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
#[error("line {line}: {message}")]
pub struct TrfError {
    /// The line, from 1 (0: the file as a whole).
    pub line: usize,
    /// What is wrong there.
    pub message: String,
}

/// One round's entry of a player.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Entry {
    /// The opponent's start number (`None`: no opponent, `0000`).
    pub opponent: Option<u32>,
    /// The colour: 0 white, 1 black, `None` for `-`.
    pub colour: Option<usize>,
    /// The result character as written (`1`, `=`, `0`, `+`, `-`, `W`, `D`,
    /// `L`, `U`, `F`, `H`, `Z`, or a space).
    pub result: char,
}

impl Entry {
    /// A game was played over the board.
    pub fn played(&self) -> bool {
        self.opponent.is_some() && matches!(self.result, '1' | '=' | '0' | 'W' | 'D' | 'L')
    }

    /// The entry took part in its round's pairing (a game, a forfeit, the
    /// pairing-allocated bye), as opposed to an absence.
    pub fn paired(&self) -> bool {
        self.opponent.is_some() || self.result == 'U'
    }

    /// The points it scored.
    pub fn points(&self) -> f64 {
        match self.result {
            '1' | '+' | 'W' | 'U' | 'F' => 1.0,
            '=' | 'D' | 'H' => 0.5,
            _ => 0.0,
        }
    }
}

/// A player line.
#[derive(Clone, Debug, PartialEq)]
pub struct Player {
    /// Her start number (the pairing number).
    pub number: u32,
    /// Her name as written.
    pub name: String,
    /// Her rating (0: none).
    pub rating: u32,
    /// Her entries, round by round from the first.
    pub entries: Vec<Entry>,
}

impl Player {
    /// Her points over the first `rounds` rounds.
    fn points(&self, rounds: usize) -> f64 {
        self.entries.iter().take(rounds).map(Entry::points).sum()
    }
}

/// A tournament report file, as read.
#[derive(Clone, Debug, Default, PartialEq)]
pub struct Trf {
    /// The event's name (`012`).
    pub name: String,
    /// Its players, by start number.
    pub players: Vec<Player>,
    /// Its rounds (`XXR`), when written.
    pub rounds: Option<usize>,
    /// The odd pairing numbers' colour when nothing else decides: 0 white
    /// (`XXC white1`, the default), 1 black.
    pub initial: usize,
}

impl Trf {
    /// Reads a file.
    ///
    /// # Errors
    /// A line that does not read, named.
    pub fn parse(text: &str) -> Result<Trf, TrfError> {
        let mut t = Trf::default();
        let mut has_xxc = false;
        let bad = |line: usize, message: String| TrfError { line, message };
        for (i, line) in text.split(['\n', '\r']).enumerate() {
            let n = i + 1;
            let code = line.get(..3).unwrap_or(line);
            match code {
                "001" => t.players.push(player(line).map_err(|m| bad(n, m))?),
                "012" => t.name = line.get(4..).unwrap_or("").trim().to_string(),
                "XXR" => {
                    let r: usize = line[3..].trim().parse().map_err(|_| {
                        bad(
                            n,
                            format!("XXR wants a number of rounds, not '{}'", line[3..].trim()),
                        )
                    })?;
                    if !(1..=99).contains(&r) {
                        return Err(bad(n, format!("XXR {r}: an event has 1 to 99 rounds")));
                    }
                    t.rounds = Some(r);
                }
                "XXC" => {
                    let words: Vec<&str> = line[3..].split_whitespace().collect();
                    has_xxc = true;
                    if words.contains(&"white1") {
                        t.initial = 0;
                    } else if words.contains(&"black1") {
                        t.initial = 1;
                    } else {
                        return Err(bad(n, "XXC wants white1 or black1".into()));
                    }
                }
                _ => {}
            }
        }
        if t.players.is_empty() {
            return Err(bad(0, "no player lines (001)".into()));
        }
        t.players.sort_by_key(|p| p.number);
        for w in t.players.windows(2) {
            if w[0].number == w[1].number {
                return Err(bad(
                    0,
                    format!("start number {} is given twice", w[0].number),
                ));
            }
        }
        if !has_xxc {
            t.initial = t.inferred_initial();
        }
        let known: std::collections::HashSet<u32> = t.players.iter().map(|p| p.number).collect();
        for p in &t.players {
            for (r, e) in p.entries.iter().enumerate() {
                if let Some(o) = e.opponent {
                    if !known.contains(&o) || o == p.number {
                        return Err(bad(
                            0,
                            format!("player {}, round {}: no such opponent {o}", p.number, r + 1),
                        ));
                    }
                }
            }
        }
        Ok(t)
    }

    /// The initial colour a file without `XXC` implies, as bbpPairings
    /// reads it: in the first round where a colour is written, the colour
    /// of the highest player (by start number) who had one, reversed for
    /// each higher player who took part in the pairing without one.
    fn inferred_initial(&self) -> usize {
        let rounds = self
            .players
            .iter()
            .map(|p| p.entries.len())
            .max()
            .unwrap_or(0);
        for r in 0..rounds {
            if !self
                .players
                .iter()
                .any(|p| p.entries.get(r).is_some_and(|e| e.colour.is_some()))
            {
                continue;
            }
            let mut flip = 0;
            for p in &self.players {
                let took_part = p.entries.iter().take(r + 1).any(Entry::paired);
                if !took_part {
                    continue;
                }
                match p.entries.get(r).and_then(|e| e.colour) {
                    Some(c) => return (c + flip) % 2,
                    None => flip += 1,
                }
            }
        }
        0
    }

    /// The rounds played so far: the last in which anyone took part in a
    /// pairing.
    pub fn played(&self) -> usize {
        self.players
            .iter()
            .filter_map(|p| p.entries.iter().rposition(Entry::paired).map(|r| r + 1))
            .max()
            .unwrap_or(0)
    }

    /// The file cut to its first `rounds` rounds.
    pub fn truncated(&self, rounds: usize) -> Trf {
        let mut t = self.clone();
        for p in &mut t.players {
            p.entries.truncate(rounds);
        }
        t
    }

    /// The next round's field: the players not kept out of it, each with
    /// her score, opponents, seats, floats and byes; and the rules (the
    /// event's last round, the initial colour).
    pub fn field(&self) -> (Vec<Entrant>, Rules) {
        let done = self.played();
        let by_number: std::collections::HashMap<u32, &Player> =
            self.players.iter().map(|p| (p.number, p)).collect();
        let mut field = vec![];
        for p in &self.players {
            // An entry already written for the round to pair: out of it.
            if p.entries
                .get(done)
                .is_some_and(|e| e.result != ' ' || e.opponent.is_some())
            {
                continue;
            }
            let mut e = Entrant {
                account: i64::from(p.number),
                // The pairing numbers are the start numbers (A.2 ranks by
                // rating; here the file's own numbering decides).
                rating: -f64::from(p.number),
                score: p.points(done),
                ..Entrant::default()
            };
            for r in 0..done {
                let entry = p.entries.get(r).copied().unwrap_or(Entry {
                    opponent: None,
                    colour: None,
                    result: ' ',
                });
                if entry.played() {
                    let o = entry.opponent.unwrap_or_default();
                    e.opponents.push(i64::from(o));
                    e.seats.push(entry.colour.unwrap_or(0));
                    let (mine, theirs) =
                        (p.points(r), by_number.get(&o).map_or(0.0, |q| q.points(r)));
                    e.floats.push(if mine > theirs {
                        Float::Down
                    } else if mine < theirs {
                        Float::Up
                    } else {
                        Float::None
                    });
                } else {
                    e.unplayed += 1;
                    // A.4: points without a game (the bye, a forfeit won, a
                    // bye asked for) are a downfloat; C.2: no pairing bye
                    // after a full point without a game, or after the
                    // pairing's bye (bbpPairings reads the rules so too).
                    if entry.points() >= 1.0 || entry.result == 'U' {
                        e.had_bye = true;
                    }
                    e.floats.push(if entry.points() > 0.0 {
                        Float::Down
                    } else {
                        Float::None
                    });
                }
            }
            field.push(e);
        }
        let rules = Rules {
            colours: true,
            final_round: self.rounds.is_some_and(|r| done + 1 >= r),
            initial: self.initial,
        };
        (field, rules)
    }

    /// The file written out again (points recounted from the entries), as
    /// a program that checks them reads it.
    pub fn write(&self) -> String {
        let mut out = String::new();
        let _ = writeln!(out, "012 {}", self.name);
        for p in &self.players {
            let mut line = format!(
                "001 {:>4}      {:<33} {:>4}{:28}{:>4.1} {:>4}",
                p.number,
                p.name.chars().take(33).collect::<String>(),
                p.rating,
                "",
                p.points(p.entries.len()),
                p.number
            );
            for e in &p.entries {
                let opp = e.opponent.map_or("0000".to_string(), |o| format!("{o:>4}"));
                let col = match e.colour {
                    Some(0) => 'w',
                    Some(_) => 'b',
                    None => '-',
                };
                let _ = write!(line, "  {opp} {col} {}", e.result);
            }
            let _ = writeln!(out, "{}", line.trim_end());
        }
        if let Some(r) = self.rounds {
            let _ = writeln!(out, "XXR {r}");
        }
        let _ = writeln!(
            out,
            "XXC {}",
            if self.initial == 0 {
                "white1"
            } else {
                "black1"
            }
        );
        out
    }
}

/// Reads a `001` line.
fn player(line: &str) -> Result<Player, String> {
    let field = |a: usize, b: usize| line.get(a..b.min(line.len())).unwrap_or("").trim();
    let number: u32 = field(4, 8).parse().map_err(|_| {
        format!(
            "a player line's start number (columns 5-8) is '{}'",
            field(4, 8)
        )
    })?;
    if number == 0 {
        return Err("start number 0".into());
    }
    let rating = match field(48, 52) {
        "" => 0,
        r => r
            .parse()
            .map_err(|_| format!("player {number}: the rating (columns 49-52) is '{r}'"))?,
    };
    let mut entries = vec![];
    let mut b = 91;
    while b < line.len() {
        let chunk = line.get(b..(b + 8).min(line.len())).unwrap_or("");
        if chunk.trim().is_empty() {
            entries.push(Entry {
                opponent: None,
                colour: None,
                result: ' ',
            });
            b += 10;
            continue;
        }
        let round = entries.len() + 1;
        let opp = chunk.get(0..4).unwrap_or("").trim();
        let opponent = match opp.parse::<u32>() {
            Ok(0) => None,
            Ok(o) => Some(o),
            Err(_) => {
                return Err(format!(
                    "player {number}, round {round}: the opponent is '{opp}'"
                ))
            }
        };
        let colour = match chunk.chars().nth(5) {
            Some('w' | 'W') => Some(0),
            Some('b' | 'B') => Some(1),
            Some('-' | ' ') | None => None,
            Some(c) => {
                return Err(format!(
                    "player {number}, round {round}: the colour is '{c}' (w, b or -)"
                ))
            }
        };
        let result = chunk.chars().nth(7).unwrap_or(' ');
        if !"10=+-WDLUFHZ ".contains(result) {
            return Err(format!(
                "player {number}, round {round}: the result is '{result}'"
            ));
        }
        let entry = Entry {
            opponent,
            colour,
            result,
        };
        if entry.played() && colour.is_none() {
            return Err(format!(
                "player {number}, round {round}: a game played needs a colour"
            ));
        }
        entries.push(entry);
        b += 10;
    }
    while entries
        .last()
        .is_some_and(|e| e.result == ' ' && e.opponent.is_none())
    {
        entries.pop();
    }
    Ok(Player {
        number,
        name: field(14, 47).to_string(),
        rating,
        entries,
    })
}

/// A round's pairings as bbpPairings writes them: the number of pairs
/// (the bye counted), then `white black` a line, the bye as `N 0`; players
/// by their start numbers (the entrants' accounts).
pub fn output(round: &Round) -> String {
    let mut out = String::new();
    let _ = writeln!(
        out,
        "{}",
        round.boards.len() + usize::from(round.bye.is_some())
    );
    for [w, b] in &round.boards {
        let _ = writeln!(out, "{w} {b}");
    }
    if let Some(bye) = round.bye {
        let _ = writeln!(out, "{bye} 0");
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    const SAMPLE: &str = "012 AutoTest Tournament 42\r001    1      Test0001 Player0001               2568                             3.0    3     5 b 0     7 w +\r001    2      Test0002 Player0002               2542                             5.0    1     6 w 1  0000 - U\r";

    #[test]
    fn a_file_reads_and_writes_back_with_its_points_recounted() {
        let t = Trf::parse(SAMPLE).unwrap_err();
        // Opponents 5, 6 and 7 are not in this cut of the file.
        assert!(t.message.contains("no such opponent"), "{t}");
        let line = |n: u32, rating: u32, rounds: &str| {
            format!(
                "001 {n:>4}      {:<33} {rating:>4}{:28}{:>4.1} {n:>4}{rounds}",
                format!("P{n}"),
                "",
                0.0
            )
        };
        let text = [
            "012 T".to_string(),
            line(1, 2000, "     2 w 1"),
            line(2, 1900, "     1 b 0"),
            line(3, 1800, "  0000 - U"),
            "XXR 3".to_string(),
        ]
        .join("\n");
        let text = text.as_str();
        let t = Trf::parse(text).unwrap();
        assert_eq!(t.played(), 1);
        assert_eq!(t.rounds, Some(3));
        let (field, rules) = t.field();
        assert_eq!(field.len(), 3);
        assert!(!rules.final_round);
        assert_eq!(field[0].floats, vec![Float::None]);
        assert_eq!(field[2].floats, vec![Float::Down]);
        assert!(field[2].had_bye);
        let again = Trf::parse(&t.write()).unwrap();
        assert_eq!(again.players, t.players);
    }

    #[test]
    fn a_bad_line_is_named() {
        let e = Trf::parse("012 T\n001    x      A\n").unwrap_err();
        assert_eq!(e.line, 2, "{e}");
        let e = Trf::parse("012 T\n001    1      A                                 2000                             1.0    1     2 q 1\n").unwrap_err();
        assert!(e.message.contains("colour"), "{e}");
        let e = Trf::parse("XXR 3\n").unwrap_err();
        assert!(e.message.contains("no player lines"), "{e}");
        let e = Trf::parse("XXR many\n001    1      A\n").unwrap_err();
        assert_eq!(e.line, 1, "{e}");
    }
}
