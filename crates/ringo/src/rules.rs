//! Rule options and presets (section 7 of the rules page), and the rules string
//! `PRESET[,key=value]...`.

use std::fmt;
use std::str::FromStr;

/// Which directions attackers may capture in (`attacker-captures`).
#[derive(Clone, Copy, PartialEq, Eq, Hash, Debug)]
pub enum AttackerCaptures {
    /// Attackers never capture (FR).
    None,
    /// Forward and sideways (PL, EN).
    ForwardSideways,
    /// Backward too (a PL variant).
    All,
}

/// How captures are made (`capture`).
#[derive(Clone, Copy, PartialEq, Eq, Hash, Debug)]
pub enum CaptureKind {
    /// Short jump over the enemy onto the empty cell beyond.
    Jump,
    /// Chess-style: move onto the enemy's cell.
    Replace,
    /// Either, at the capturer's choice (FR).
    Both,
}

impl CaptureKind {
    /// True when jump captures are allowed.
    pub const fn jumps(self) -> bool {
        matches!(self, CaptureKind::Jump | CaptureKind::Both)
    }
    /// True when replacement captures are allowed.
    pub const fn replaces(self) -> bool {
        matches!(self, CaptureKind::Replace | CaptureKind::Both)
    }
}

/// How many attackers may stand in the neutral zone (`neutral-limit`).
#[derive(Clone, Copy, PartialEq, Eq, Hash, Debug)]
pub enum NeutralLimit {
    /// No limit.
    None,
    /// At most one attacker.
    One,
    /// No more than the defenders left on the board.
    Defenders,
    /// No more than half the attackers on the board (fortress included), rounded down.
    Half,
}

impl NeutralLimit {
    /// The limit in force with these piece counts (`attackers` includes the fortress).
    #[inline]
    pub const fn limit(self, attackers: u32, defenders: u32) -> u32 {
        match self {
            NeutralLimit::None => u32::MAX,
            NeutralLimit::One => 1,
            NeutralLimit::Defenders => defenders,
            NeutralLimit::Half => attackers / 2,
        }
    }
}

/// What a third occurrence of a position means (`repetition`).
#[derive(Clone, Copy, PartialEq, Eq, Hash, Debug)]
pub enum Repetition {
    /// The defenders win: they kept the attackers out.
    Defenders,
    /// The game is drawn.
    Draw,
}

/// A complete rule set. Build one from a rules string with [`str::parse`] or
/// from a [`Preset`].
///
/// ```
/// use ringo::Rules;
/// let rules: Rules = "classic,attackers=6,defender-pass=on".parse().unwrap();
/// assert_eq!(rules.attackers, 6);
/// assert_eq!(rules.to_string(), "classic,attackers=6,defender-pass=on");
/// ```
#[derive(Clone, Copy, PartialEq, Eq, Hash, Debug)]
pub struct Rules {
    /// The preset this rule set was built from; [`fmt::Display`] writes the options
    /// that differ from it.
    pub preset: Preset,
    /// Number of rings: 6 (standard, 49 cells) or 5 (small, 41 cells).
    pub rings: u8,
    /// Number of attackers at the start: 5, 6 or 7.
    pub attackers: u8,
    /// `attacker-captures`.
    pub attacker_captures: AttackerCaptures,
    /// `capture`.
    pub capture: CaptureKind,
    /// `slide`: defenders slide along rings and capture at long range.
    pub slide: bool,
    /// `neutral-limit`.
    pub neutral_limit: NeutralLimit,
    /// `jump-neutral`: pieces may jump an enemy in the NZ without capturing it.
    pub jump_neutral: bool,
    /// `capture-from-neutral`: captures may start on an NZ cell.
    pub capture_from_neutral: bool,
    /// `fortress-from-neutral`: a move from an NZ cell may end in `F`.
    pub fortress_from_neutral: bool,
    /// `fortress-capture`: a defender may jump a lone attacker in `F`.
    pub fortress_capture: bool,
    /// `must-leave-neutral`: defenders in the NZ must leave it when they can.
    pub must_leave_neutral: bool,
    /// `defender-pass`: defenders may pass although they have moves.
    pub defender_pass: bool,
    /// `repetition`.
    pub repetition: Repetition,
}

/// A named set of option values, one per source text.
#[derive(Clone, Copy, PartialEq, Eq, Hash, Debug)]
pub enum Preset {
    /// The Polish blog's main rules and the English rules card.
    Classic,
    /// The English encyclopedia entry.
    Encyclopedia,
    /// The French rules sheet of Le Globe Joueur.
    Globe,
}

impl Preset {
    /// All presets.
    pub const ALL: [Preset; 3] = [Preset::Classic, Preset::Encyclopedia, Preset::Globe];

    /// The preset's name in rules strings.
    pub const fn name(self) -> &'static str {
        match self {
            Preset::Classic => "classic",
            Preset::Encyclopedia => "encyclopedia",
            Preset::Globe => "globe",
        }
    }

    /// The preset's option values (the table in section 7).
    pub const fn rules(self) -> Rules {
        let classic = Rules {
            preset: Preset::Classic,
            rings: 6,
            attackers: 7,
            attacker_captures: AttackerCaptures::ForwardSideways,
            capture: CaptureKind::Jump,
            slide: false,
            neutral_limit: NeutralLimit::Defenders,
            jump_neutral: true,
            capture_from_neutral: true,
            fortress_from_neutral: true,
            fortress_capture: true,
            must_leave_neutral: false,
            defender_pass: false,
            repetition: Repetition::Defenders,
        };
        match self {
            Preset::Classic => classic,
            Preset::Encyclopedia => Rules {
                preset: Preset::Encyclopedia,
                neutral_limit: NeutralLimit::None,
                ..classic
            },
            Preset::Globe => Rules {
                preset: Preset::Globe,
                attacker_captures: AttackerCaptures::None,
                capture: CaptureKind::Both,
                slide: true,
                neutral_limit: NeutralLimit::Half,
                jump_neutral: false,
                capture_from_neutral: false,
                must_leave_neutral: true,
                ..classic
            },
        }
    }
}

impl Default for Rules {
    fn default() -> Self {
        Preset::Classic.rules()
    }
}

/// An option key with its valid values, in the order of section 7.
pub const OPTIONS: [(&str, &[&str]); 13] = [
    ("rings", &["5", "6"]),
    ("attackers", &["5", "6", "7"]),
    ("attacker-captures", &["none", "forward-sideways", "all"]),
    ("capture", &["jump", "replace", "both"]),
    ("slide", &["on", "off"]),
    ("neutral-limit", &["none", "one", "defenders", "half"]),
    ("jump-neutral", &["on", "off"]),
    ("capture-from-neutral", &["on", "off"]),
    ("fortress-from-neutral", &["on", "off"]),
    ("fortress-capture", &["on", "off"]),
    ("must-leave-neutral", &["on", "off"]),
    ("defender-pass", &["on", "off"]),
    ("repetition", &["defenders", "draw"]),
];

/// Why a rules string was rejected. The `Display` text lists the valid choices.
#[derive(Clone, PartialEq, Eq, Debug)]
pub enum RulesError {
    /// The string was empty.
    Empty,
    /// The first item is not a preset name.
    UnknownPreset(String),
    /// An item is not of the form `key=value`.
    NotKeyValue(String),
    /// The key is not an option.
    UnknownKey(String),
    /// The value is not valid for the key.
    BadValue {
        /// The option key.
        key: &'static str,
        /// The rejected value.
        value: String,
    },
    /// An option is given twice (`slide=on,slide=off`): which one was meant
    /// is not clear, so neither is taken.
    RepeatedKey(String),
    /// The string is longer than any rules string needs ([`MAX_RULES_TEXT`]
    /// bytes): every option, spelled out, fits well within it.
    TooLong(usize),
}

/// The longest rules string taken: the longest preset with every option
/// spelled out is under 300 bytes.
pub const MAX_RULES_TEXT: usize = 512;

impl fmt::Display for RulesError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let presets = Preset::ALL.map(Preset::name).join(", ");
        match self {
            RulesError::Empty => write!(f, "empty rules string; start with a preset: {presets}"),
            RulesError::UnknownPreset(p) => {
                write!(f, "unknown preset '{p}'; valid presets: {presets}")
            }
            RulesError::RepeatedKey(k) => {
                write!(f, "the option '{k}' is given twice; give each option once")
            }
            RulesError::TooLong(n) => write!(
                f,
                "the rules string is {n} bytes long; a rules string is at most {MAX_RULES_TEXT}"
            ),
            RulesError::NotKeyValue(item) => {
                write!(f, "'{item}' is not of the form key=value")
            }
            RulesError::UnknownKey(k) => {
                let keys: Vec<&str> = OPTIONS.iter().map(|(k, _)| *k).collect();
                write!(
                    f,
                    "unknown option '{k}'; valid options: {}",
                    keys.join(", ")
                )
            }
            RulesError::BadValue { key, value } => {
                let values = OPTIONS
                    .iter()
                    .find(|(k, _)| k == key)
                    .map(|(_, v)| v.join(", "))
                    .unwrap_or_default();
                write!(
                    f,
                    "invalid value '{value}' for {key}; valid values: {values}"
                )
            }
        }
    }
}

impl std::error::Error for RulesError {}

fn on_off(v: &str) -> Option<bool> {
    match v {
        "on" => Some(true),
        "off" => Some(false),
        _ => None,
    }
}

fn on_off_str(b: bool) -> &'static str {
    if b {
        "on"
    } else {
        "off"
    }
}

impl Rules {
    /// Sets one option from its key and value text.
    ///
    /// # Errors
    /// [`RulesError::UnknownKey`] or [`RulesError::BadValue`].
    pub fn set(&mut self, key: &str, value: &str) -> Result<(), RulesError> {
        let Some(&(key, _)) = OPTIONS.iter().find(|(k, _)| *k == key) else {
            return Err(RulesError::UnknownKey(key.to_string()));
        };
        let bad = || RulesError::BadValue {
            key,
            value: value.to_string(),
        };
        match key {
            "rings" => {
                self.rings = value
                    .parse()
                    .ok()
                    .filter(|r| matches!(r, 5 | 6))
                    .ok_or_else(bad)?
            }
            "attackers" => {
                self.attackers = value
                    .parse()
                    .ok()
                    .filter(|a| matches!(a, 5..=7))
                    .ok_or_else(bad)?
            }
            "attacker-captures" => {
                self.attacker_captures = match value {
                    "none" => AttackerCaptures::None,
                    "forward-sideways" => AttackerCaptures::ForwardSideways,
                    "all" => AttackerCaptures::All,
                    _ => return Err(bad()),
                }
            }
            "capture" => {
                self.capture = match value {
                    "jump" => CaptureKind::Jump,
                    "replace" => CaptureKind::Replace,
                    "both" => CaptureKind::Both,
                    _ => return Err(bad()),
                }
            }
            "neutral-limit" => {
                self.neutral_limit = match value {
                    "none" => NeutralLimit::None,
                    "one" => NeutralLimit::One,
                    "defenders" => NeutralLimit::Defenders,
                    "half" => NeutralLimit::Half,
                    _ => return Err(bad()),
                }
            }
            "repetition" => {
                self.repetition = match value {
                    "defenders" => Repetition::Defenders,
                    "draw" => Repetition::Draw,
                    _ => return Err(bad()),
                }
            }
            _ => {
                let b = on_off(value).ok_or_else(bad)?;
                match key {
                    "slide" => self.slide = b,
                    "jump-neutral" => self.jump_neutral = b,
                    "capture-from-neutral" => self.capture_from_neutral = b,
                    "fortress-from-neutral" => self.fortress_from_neutral = b,
                    "fortress-capture" => self.fortress_capture = b,
                    "must-leave-neutral" => self.must_leave_neutral = b,
                    _ => self.defender_pass = b,
                }
            }
        }
        Ok(())
    }

    /// The value text of one option (`None` for an unknown key).
    pub fn get(&self, key: &str) -> Option<String> {
        Some(match key {
            "rings" => self.rings.to_string(),
            "attackers" => self.attackers.to_string(),
            "attacker-captures" => match self.attacker_captures {
                AttackerCaptures::None => "none",
                AttackerCaptures::ForwardSideways => "forward-sideways",
                AttackerCaptures::All => "all",
            }
            .to_string(),
            "capture" => match self.capture {
                CaptureKind::Jump => "jump",
                CaptureKind::Replace => "replace",
                CaptureKind::Both => "both",
            }
            .to_string(),
            "slide" => on_off_str(self.slide).to_string(),
            "neutral-limit" => match self.neutral_limit {
                NeutralLimit::None => "none",
                NeutralLimit::One => "one",
                NeutralLimit::Defenders => "defenders",
                NeutralLimit::Half => "half",
            }
            .to_string(),
            "jump-neutral" => on_off_str(self.jump_neutral).to_string(),
            "capture-from-neutral" => on_off_str(self.capture_from_neutral).to_string(),
            "fortress-from-neutral" => on_off_str(self.fortress_from_neutral).to_string(),
            "fortress-capture" => on_off_str(self.fortress_capture).to_string(),
            "must-leave-neutral" => on_off_str(self.must_leave_neutral).to_string(),
            "defender-pass" => on_off_str(self.defender_pass).to_string(),
            "repetition" => match self.repetition {
                Repetition::Defenders => "defenders",
                Repetition::Draw => "draw",
            }
            .to_string(),
            _ => return None,
        })
    }

    /// Every option as `(key, value)`, in the order of section 7.
    pub fn options(&self) -> Vec<(&'static str, String)> {
        OPTIONS
            .iter()
            .map(|(k, _)| (*k, self.get(k).unwrap_or_default()))
            .collect()
    }
}

impl FromStr for Rules {
    type Err = RulesError;

    fn from_str(s: &str) -> Result<Rules, RulesError> {
        if s.len() > MAX_RULES_TEXT {
            return Err(RulesError::TooLong(s.len()));
        }
        let s = s.trim();
        if s.is_empty() {
            return Err(RulesError::Empty);
        }
        let mut items = s.split(',').map(str::trim);
        let preset_name = items.next().unwrap_or_default();
        let preset = Preset::ALL
            .into_iter()
            .find(|p| p.name() == preset_name)
            .ok_or_else(|| RulesError::UnknownPreset(preset_name.to_string()))?;
        let mut rules = preset.rules();
        let mut seen: Vec<&str> = vec![];
        for item in items {
            let (key, value) = item
                .split_once('=')
                .ok_or_else(|| RulesError::NotKeyValue(item.to_string()))?;
            let key = key.trim();
            if seen.contains(&key) {
                return Err(RulesError::RepeatedKey(key.to_string()));
            }
            seen.push(key);
            rules.set(key, value.trim())?;
        }
        Ok(rules)
    }
}

impl fmt::Display for Rules {
    /// The canonical rules string: the preset, then every option that differs from
    /// it, in the order of section 7.
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.preset.name())?;
        let base = self.preset.rules();
        for (key, value) in self.options() {
            if base.get(key).as_deref() != Some(value.as_str()) {
                write!(f, ",{key}={value}")?;
            }
        }
        Ok(())
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn presets_match_the_table() {
        let globe = Preset::Globe.rules();
        assert_eq!(globe.attacker_captures, AttackerCaptures::None);
        assert_eq!(globe.capture, CaptureKind::Both);
        assert!(globe.slide && globe.must_leave_neutral && !globe.jump_neutral);
        assert_eq!(globe.neutral_limit, NeutralLimit::Half);
        assert_eq!(
            Preset::Encyclopedia.rules().neutral_limit,
            NeutralLimit::None
        );
    }

    #[test]
    fn a_repeated_option_and_an_endless_string_are_refused() {
        assert_eq!(
            "classic,slide=on,slide=off".parse::<Rules>(),
            Err(RulesError::RepeatedKey("slide".into()))
        );
        let long = format!("classic{}", ",slide=on".repeat(100));
        assert_eq!(long.parse::<Rules>(), Err(RulesError::TooLong(long.len())));
        // Every option spelled out fits well within the limit.
        let mut all = String::from("encyclopedia");
        for (key, values) in OPTIONS {
            all.push_str(&format!(",{key}={}", values[values.len() - 1]));
        }
        assert!(all.len() < MAX_RULES_TEXT, "{}", all.len());
        assert!(all.parse::<Rules>().is_ok(), "{all}");
    }

    #[test]
    fn every_option_value_round_trips() {
        for (key, values) in OPTIONS {
            for value in values {
                let text = format!("classic,{key}={value}");
                let rules: Rules = text.parse().unwrap();
                assert_eq!(rules.get(key).as_deref(), Some(*value));
                assert_eq!(rules.to_string().parse::<Rules>().unwrap(), rules);
            }
        }
    }

    #[test]
    fn errors_list_valid_choices() {
        let e = "chess".parse::<Rules>().unwrap_err().to_string();
        assert!(e.contains("classic, encyclopedia, globe"), "{e}");
        let e = "classic,colour=red"
            .parse::<Rules>()
            .unwrap_err()
            .to_string();
        assert!(e.contains("rings") && e.contains("repetition"), "{e}");
        let e = "classic,rings=7".parse::<Rules>().unwrap_err().to_string();
        assert!(e.contains("5, 6"), "{e}");
        let e = "classic,slide".parse::<Rules>().unwrap_err().to_string();
        assert!(e.contains("key=value"), "{e}");
        assert_eq!("".parse::<Rules>(), Err(RulesError::Empty));
    }
}
