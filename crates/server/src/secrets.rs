//! Secrets and ids from the operating system's secure generator. When the
//! generator fails there is no weaker fallback: the request fails with 503.
//! Secrets are stored only as their SHA-256 hash, so a copy of the database
//! cannot act for anyone.

/// The operating system's secure generator failed: no secret can be made.
#[derive(Clone, Copy, Debug, PartialEq, Eq, thiserror::Error)]
#[error("the server cannot make a secret right now; try again")]
pub struct NoSecret;

/// Fills `buf` from the secure generator.
///
/// # Errors
/// The generator failed.
pub fn fill(buf: &mut [u8]) -> Result<(), NoSecret> {
    getrandom::fill(buf).map_err(|e| {
        tracing::error!(error = %e, "the OS random generator failed");
        NoSecret
    })
}

/// A fresh secret (a seat token or an invite code): 128 random bits in hex.
///
/// # Errors
/// The generator failed.
pub fn secret() -> Result<String, NoSecret> {
    let mut b = [0u8; 16];
    fill(&mut b)?;
    Ok(hex(&b))
}

/// A long secret (a sign-in session's id, a browser's device id): 256
/// random bits in hex.
///
/// # Errors
/// The generator failed.
pub fn long_secret() -> Result<String, NoSecret> {
    let mut b = [0u8; 32];
    fill(&mut b)?;
    Ok(hex(&b))
}

/// Bytes as lower-case hex.
pub fn hex(bytes: &[u8]) -> String {
    bytes.iter().map(|b| format!("{b:02x}")).collect()
}

/// A short public game id: 10 characters of base 32 (50 bits).
///
/// # Errors
/// The generator failed.
pub fn game_id() -> Result<String, NoSecret> {
    const ALPHABET: &[u8] = b"abcdefghijkmnpqrstuvwxyz23456789";
    let mut b = [0u8; 10];
    fill(&mut b)?;
    Ok(b.iter()
        .map(|x| ALPHABET[(*x % 32) as usize] as char)
        .collect())
}

/// This process's name among the instances sharing a store: random, so a
/// restarted instance is a new one (and its old clocks are resumed).
pub fn instance_name() -> String {
    game_id().unwrap_or_else(|_| format!("p{}", std::process::id()))
}

/// A fair coin, for "random side".
///
/// # Errors
/// The generator failed.
pub fn coin() -> Result<crate::model::Seat, NoSecret> {
    let mut b = [0u8; 1];
    fill(&mut b)?;
    Ok(if b[0] & 1 == 0 {
        crate::model::Seat::First
    } else {
        crate::model::Seat::Second
    })
}

/// Compares two secrets in time that does not depend on where they differ.
pub fn same(a: &str, b: &str) -> bool {
    let (a, b) = (a.as_bytes(), b.as_bytes());
    a.len() == b.len() && a.iter().zip(b).fold(0u8, |acc, (x, y)| acc | (x ^ y)) == 0
}

/// The stored form of a secret: its SHA-256 in hex. Seat tokens and invite
/// codes carry 128 random bits, so a plain hash is enough (no salt or
/// stretching is needed against guessing).
pub fn hash(secret: &str) -> String {
    use sha2::Digest;
    hex(&sha2::Sha256::digest(secret.as_bytes()))
}

/// Whether a stored value is a hash (64 hex digits) rather than a secret in
/// clear (32 hex digits, from databases made before hashing).
pub fn is_hash(stored: &str) -> bool {
    stored.len() == 64 && stored.bytes().all(|b| b.is_ascii_hexdigit())
}
