//! The automatic help against abuse in chat: a small list of words and
//! phrases per language (`crates/server/data/chat-words/`, one entry a
//! line). A line with one of them is hidden from everyone but its writer
//! and counted on her record for the moderators.

use std::sync::OnceLock;

/// The lists, as the binary carries them.
const LISTS: [&str; 3] = [
    include_str!("../../data/chat-words/en.txt"),
    include_str!("../../data/chat-words/pl.txt"),
    include_str!("../../data/chat-words/fr.txt"),
];

/// A text's words: lower case, split at anything that is not a letter or
/// a digit.
fn words(text: &str) -> Vec<String> {
    text.to_lowercase()
        .split(|c: char| !c.is_alphanumeric())
        .filter(|w| !w.is_empty())
        .map(str::to_string)
        .collect()
}

/// Every entry of every list, as its words.
fn entries() -> &'static [Vec<String>] {
    static ENTRIES: OnceLock<Vec<Vec<String>>> = OnceLock::new();
    ENTRIES.get_or_init(|| {
        LISTS
            .iter()
            .flat_map(|list| list.lines())
            .map(str::trim)
            .filter(|l| !l.is_empty() && !l.starts_with('#'))
            .map(words)
            .filter(|w| !w.is_empty())
            .collect()
    })
}

/// Whether a chat line holds a listed word, or a listed phrase's words in
/// a row.
pub fn flagged(text: &str) -> bool {
    let said = words(text);
    entries().iter().any(|entry| {
        said.windows(entry.len())
            .any(|w| w.iter().zip(entry).all(|(a, b)| a == b))
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_listed_word_or_phrase_is_found_in_any_case_and_spelling_of_spaces() {
        assert!(flagged("you IDIOT!"));
        assert!(flagged("just kill   yourself"));
        assert!(flagged("Spierdalaj."));
        assert!(flagged("ferme ta gueule"));
        assert!(flagged("suicide-toi"));
        assert!(flagged("Enculé"));
    }

    #[test]
    fn ordinary_lines_and_words_that_merely_contain_one_pass() {
        assert!(!flagged("good game, well played"));
        assert!(
            !flagged("idiotic move of mine"),
            "a word that contains one is not it"
        );
        assert!(
            !flagged("kill the attacker on b5"),
            "kill alone is a game word"
        );
        assert!(!flagged("to jest debilny ruch"), "only whole words");
        assert!(
            !flagged("shut the door, then up the ring"),
            "a phrase's words in a row only"
        );
        assert!(!flagged(""));
    }

    #[test]
    fn every_list_is_read_and_none_is_empty() {
        for list in LISTS {
            assert!(list
                .lines()
                .any(|l| !l.trim().is_empty() && !l.starts_with('#')));
        }
        assert!(entries().len() > 30);
    }
}
