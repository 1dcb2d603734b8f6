//! Saved records, as the web app's "Download record" writes them: the game's
//! own record (a Ringo game record, an Urgammon game or match record), then,
//! when a side resigned, a last word `resign:SIDE`. The rules crates know
//! nothing of resignations (they are not a move), so whoever reads a saved
//! record, the server's import or the CLI, splits that word off here first.

/// The prefix of the word that ends a record when a side resigned.
pub const RESIGN: &str = "resign:";

/// A saved record split in two: the game's own record and who resigned.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Saved<'a> {
    /// The record without its resignation, for the rules crate's parser.
    pub record: &'a str,
    /// The side named by a trailing `resign:SIDE`, as written.
    pub resigned: Option<&'a str>,
}

impl<'a> Saved<'a> {
    /// Splits a trailing `resign:SIDE` word off `text`. A `resign:` word
    /// anywhere else stays in the record, where the rules crate's parser
    /// refuses it with its position.
    pub fn split(text: &'a str) -> Saved<'a> {
        let trimmed = text.trim_end();
        let last = trimmed.rsplit(char::is_whitespace).next().unwrap_or("");
        let start = trimmed.len() - last.len();
        match last.strip_prefix(RESIGN) {
            Some(side) => Saved {
                record: &trimmed[..start],
                resigned: Some(side),
            },
            None => Saved {
                record: text,
                resigned: None,
            },
        }
    }

    /// The Ringo side that resigned.
    ///
    /// # Errors
    /// The word names no Ringo side.
    pub fn ringo_side(&self) -> Result<Option<ringo::Side>, String> {
        self.side_of(
            [ringo::Side::Attackers, ringo::Side::Defenders],
            ringo::Side::name,
        )
    }

    /// The Urgammon side that resigned.
    ///
    /// # Errors
    /// The word names no Urgammon side.
    pub fn urgammon_side(&self) -> Result<Option<urgammon::Side>, String> {
        self.side_of(
            [urgammon::Side::Light, urgammon::Side::Dark],
            urgammon::Side::name,
        )
    }

    /// The one of a game's two `sides` whose `name` the word gives.
    fn side_of<S: Copy>(
        &self,
        sides: [S; 2],
        name: fn(S) -> &'static str,
    ) -> Result<Option<S>, String> {
        self.resigned
            .map(|word| {
                sides.into_iter().find(|&s| name(s) == word).ok_or_else(|| {
                    format!(
                        "'{RESIGN}{word}': the side that resigns is {} or {}",
                        name(sides[0]),
                        name(sides[1])
                    )
                })
            })
            .transpose()
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_trailing_resignation_is_split_off() {
        let s = Saved::split("classic b6-b5 resign:defenders\n");
        assert_eq!(s.record, "classic b6-b5 ");
        assert_eq!(s.ringo_side(), Ok(Some(ringo::Side::Defenders)));
        let s = Saved::split("urgammon match to=7 draw=replay\nstart:3-2\nresign:dark");
        assert_eq!(s.record, "urgammon match to=7 draw=replay\nstart:3-2\n");
        assert_eq!(s.urgammon_side(), Ok(Some(urgammon::Side::Dark)));
        // Only the resignation: an empty record.
        assert_eq!(Saved::split("resign:light").record, "");
    }

    #[test]
    fn a_record_without_one_is_kept_whole() {
        for text in [
            "classic b6-b5",
            "",
            "   ",
            "start:3-2 P-3b",
            "classic resign:x b6-b5",
        ] {
            let s = Saved::split(text);
            assert_eq!((s.record, s.resigned), (text, None), "{text:?}");
        }
    }

    #[test]
    fn a_side_of_the_other_game_or_none_is_refused() {
        let s = Saved::split("classic b6-b5 resign:dark");
        assert_eq!(
            s.ringo_side(),
            Err("'resign:dark': the side that resigns is attackers or defenders".into())
        );
        assert!(Saved::split("start:3-2 resign:").urgammon_side().is_err());
        assert!(Saved::split("start:3-2 resign:attackers")
            .urgammon_side()
            .is_err());
    }
}
