//! Account names: 2 to 20 ASCII letters, digits, `-` and `_`, unique
//! ignoring case, never a reserved word.

use super::error::AccountError;

/// Words no account may take as its name (compared ignoring case): the
/// site's own pages and words that would pass for the site, the computer or
/// a seat's placeholder.
const RESERVED: &[&str] = &[
    "about",
    "account",
    "admin",
    "administrator",
    "agon",
    "analysis",
    "anonymous",
    "api",
    "computer",
    "deleted",
    "engine",
    "games",
    "guest",
    "help",
    "lab",
    "learn",
    "lobby",
    "login",
    "logout",
    "me",
    "mod",
    "moderator",
    "new",
    "null",
    "official",
    "puzzles",
    "replay",
    "review",
    "ringo",
    "root",
    "rules",
    "settings",
    "signup",
    "staff",
    "static",
    "support",
    "system",
    "undefined",
    "urgammon",
    "you",
];

/// The name as compared (lower case), once the name is valid.
///
/// # Errors
/// [`AccountError::BadName`] with the reason in words.
pub fn check(name: &str) -> Result<String, AccountError> {
    let n = name.chars().count();
    if !(2..=20).contains(&n) {
        return Err(AccountError::BadName(
            "a name has 2 to 20 characters".into(),
        ));
    }
    if !name
        .bytes()
        .all(|b| b.is_ascii_alphanumeric() || b == b'-' || b == b'_')
    {
        return Err(AccountError::BadName(
            "a name has only letters a-z, digits, '-' and '_'".into(),
        ));
    }
    let key = name.to_ascii_lowercase();
    if RESERVED.contains(&key.as_str()) {
        return Err(AccountError::BadName(format!("'{name}' is reserved")));
    }
    Ok(key)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn names_are_short_plain_and_not_reserved() {
        assert_eq!(check("Ala_ma-Kota9").unwrap(), "ala_ma-kota9");
        for bad in [
            "a",
            "",
            &"x".repeat(21),
            "ała",
            "a b",
            "аla",
            "x;DROP",
            "Admin",
            "ANONYMOUS",
            "a\0",
        ] {
            assert!(check(bad).is_err(), "{bad:?}");
        }
        assert!(check(&"x".repeat(20)).is_ok());
    }
}
