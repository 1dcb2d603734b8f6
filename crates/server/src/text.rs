//! The one policy for text that one user writes and others read: chat
//! lines, tournament names, report texts and moderators' reasons. Every
//! such field names a [`TextRule`] and calls [`TextRule::check`]; no field
//! checks text its own way. (Account names are stricter still, and need
//! none of this: 2 to 20 ASCII letters, digits, `-` and `_`, checked in
//! [`crate::accounts::names`].)
//!
//! What it does, in order, and why:
//! - Unicode NFC: one spelling for what looks the same, so a search, a
//!   comparison or a length sees what a reader sees.
//! - Direction controls (embeddings, overrides, isolates) are removed:
//!   U+202E shows `gnp.exe` as `exe.png`. The plain marks U+200E/U+200F,
//!   which only nudge neutral characters, stay.
//! - New lines: a one-line field refuses every line break (control
//!   characters, U+0085, U+2028, U+2029); a field of several lines keeps
//!   `\n` (and reads `\r\n`, U+2028 and U+2029 as `\n`).
//! - Trimmed; then empty text, or text that shows nothing (white space,
//!   zero-width characters, the soft hyphen, the byte-order mark, fillers,
//!   tags…), is refused.
//! - A length in characters (after the steps above).

use unicode_normalization::UnicodeNormalization;

/// How a field's text is checked.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct TextRule {
    /// The field, as a refusal names it ("a chat line").
    pub what: &'static str,
    /// The most characters.
    pub max_chars: usize,
    /// Whether it may hold several lines.
    pub lines: bool,
    /// Whether it may be empty (then it answers the empty string).
    pub optional: bool,
}

/// A chat line: one line, 1 to 140 characters.
pub const CHAT: TextRule = TextRule {
    what: "a chat line",
    max_chars: 140,
    lines: false,
    optional: false,
};

/// A tournament's name: one line, 1 to 40 characters.
pub const TOURNAMENT_NAME: TextRule = TextRule {
    what: "a tournament's name",
    max_chars: 40,
    lines: false,
    optional: false,
};

/// A report's text, as moderators read it: several lines, at most 2,000
/// characters, may be empty (the reason is chosen from a list).
pub const REPORT: TextRule = TextRule {
    what: "a report",
    max_chars: 2000,
    lines: true,
    optional: true,
};

/// A moderator's reason for an action (shown to the player sanctioned):
/// several lines, 1 to 2,000 characters.
pub const MOD_REASON: TextRule = TextRule {
    what: "a moderator's reason",
    max_chars: 2000,
    lines: true,
    optional: false,
};

/// Why a text is refused, in words (the field named).
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub enum TextError {
    /// Nothing, or nothing visible.
    #[error("{0} needs some visible text")]
    Empty(&'static str),
    /// Too long.
    #[error("{what} is at most {max} characters, not {got}")]
    TooLong {
        /// The field.
        what: &'static str,
        /// Its most.
        max: usize,
        /// What was sent, in characters.
        got: usize,
    },
    /// A new line in a one-line field.
    #[error("{0} is one line of text: no line breaks")]
    LineBreak(&'static str),
    /// A control character.
    #[error("{0} is plain text: no control characters")]
    Control(&'static str),
}

/// The bidirectional formatting characters: embeddings, overrides and
/// isolates (and the Arabic letter mark's kin U+061C is a mark: it stays).
fn reorders(c: char) -> bool {
    matches!(c, '\u{202A}'..='\u{202E}' | '\u{2066}'..='\u{2069}')
}

/// Whether a character breaks a line.
fn breaks_line(c: char) -> bool {
    matches!(
        c,
        '\n' | '\r' | '\u{0B}' | '\u{0C}' | '\u{85}' | '\u{2028}' | '\u{2029}'
    )
}

/// Whether a character shows nothing: white space, and Unicode's default
/// ignorable code points (zero-width spaces and joiners, the soft hyphen,
/// the byte-order mark, variation selectors, fillers, tags) with the blank
/// Braille pattern and the Hangul fillers that render as blanks.
pub fn invisible(c: char) -> bool {
    c.is_whitespace()
        || matches!(c,
            '\u{00AD}' | '\u{034F}' | '\u{061C}' | '\u{115F}' | '\u{1160}'
            | '\u{17B4}' | '\u{17B5}' | '\u{180B}'..='\u{180F}'
            | '\u{200B}'..='\u{200F}' | '\u{202A}'..='\u{202E}'
            | '\u{2060}'..='\u{206F}' | '\u{2800}' | '\u{3164}'
            | '\u{FE00}'..='\u{FE0F}' | '\u{FEFF}' | '\u{FFA0}'
            | '\u{1BCA0}'..='\u{1BCA3}' | '\u{1D173}'..='\u{1D17A}'
            | '\u{E0000}'..='\u{E0FFF}')
}

impl TextRule {
    /// The text as it is kept and shown, or why it is refused.
    ///
    /// # Errors
    /// Empty or invisible (unless optional and empty), too long, a line
    /// break in a one-line field, a control character.
    pub fn check(&self, text: &str) -> Result<String, TextError> {
        let text: String = text
            .replace("\r\n", "\n")
            .nfc()
            .filter(|&c| !reorders(c))
            .map(|c| match c {
                '\u{2028}' | '\u{2029}' | '\r' if self.lines => '\n',
                c => c,
            })
            .collect();
        let text = text.trim();
        if text.is_empty() && self.optional {
            return Ok(String::new());
        }
        if text.chars().all(invisible) {
            return Err(TextError::Empty(self.what));
        }
        for c in text.chars() {
            if breaks_line(c) && !(self.lines && c == '\n') {
                return Err(TextError::LineBreak(self.what));
            }
            if c.is_control() && c != '\n' && c != '\t' {
                return Err(TextError::Control(self.what));
            }
        }
        let got = text.chars().count();
        if got > self.max_chars {
            return Err(TextError::TooLong {
                what: self.what,
                max: self.max_chars,
                got,
            });
        }
        Ok(text.to_string())
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// The strings issue 85 found accepted in a tournament's name, and
    /// their kin, each refused or mended in every one-line field.
    #[test]
    fn hostile_text_is_refused_or_mended_in_every_field() {
        for rule in [CHAT, TOURNAMENT_NAME] {
            for bad in [
                "\u{200b}\u{200b}",
                "\u{00ad}",
                "\u{feff}",
                " \u{3164} ",
                "\u{202e}",
                "",
                "   ",
            ] {
                assert_eq!(rule.check(bad), Err(TextError::Empty(rule.what)), "{bad:?}");
            }
            for broken in ["a\u{2028}b", "a\u{2029}b", "a\nb", "a\rb", "a\u{85}b"] {
                assert_eq!(
                    rule.check(broken),
                    Err(TextError::LineBreak(rule.what)),
                    "{broken:?}"
                );
            }
            assert_eq!(rule.check("a\u{7}b"), Err(TextError::Control(rule.what)));
            // The override goes, the text stays.
            assert_eq!(rule.check("\u{202e}gnp.exe").unwrap(), "gnp.exe");
            assert_eq!(rule.check("a\u{2066}b\u{2069}").unwrap(), "ab");
        }
    }

    #[test]
    fn text_is_normalized_before_it_is_counted() {
        // "é" as e + combining acute: one character once composed.
        let decomposed = "e\u{301}".repeat(140);
        assert_eq!(CHAT.check(&decomposed).unwrap(), "é".repeat(140));
        assert!(matches!(
            CHAT.check(&"é".repeat(141)),
            Err(TextError::TooLong { got: 141, .. })
        ));
        assert_eq!(TOURNAMENT_NAME.check("  Caf\u{e9}  ").unwrap(), "Café");
    }

    #[test]
    fn fields_of_several_lines_keep_their_lines() {
        assert_eq!(REPORT.check("a\r\nb\u{2028}c").unwrap(), "a\nb\nc");
        assert_eq!(REPORT.check("  ").unwrap(), "");
        assert_eq!(
            MOD_REASON.check(" "),
            Err(TextError::Empty(MOD_REASON.what))
        );
        assert_eq!(
            REPORT.check("a\u{0}b"),
            Err(TextError::Control(REPORT.what))
        );
    }
}
