//! FNV-1a, 64 bits: the checksum every table file carries (Ringo's
//! tablebases, Urgammon's endings), so a damaged file is refused, not
//! trusted.

/// A running FNV-1a sum.
pub(crate) struct Fnv(pub(crate) u64);

impl Fnv {
    /// The empty sum.
    pub(crate) fn new() -> Fnv {
        Fnv(0xcbf2_9ce4_8422_2325)
    }

    /// Adds bytes to the sum.
    pub(crate) fn add(&mut self, bytes: &[u8]) {
        for &b in bytes {
            self.0 ^= u64::from(b);
            self.0 = self.0.wrapping_mul(0x100_0000_01b3);
        }
    }
}

/// Writes a table file's body: `values` as little-endian `u16`s, then
/// their FNV sum (the one layout both games' table files share).
///
/// # Errors
/// The writer failed.
pub(crate) fn write_u16s(w: &mut impl std::io::Write, values: &[u16]) -> std::io::Result<()> {
    let bytes: Vec<u8> = values.iter().flat_map(|v| v.to_le_bytes()).collect();
    let mut sum = Fnv::new();
    sum.add(&bytes);
    w.write_all(&bytes)?;
    w.write_all(&sum.0.to_le_bytes())
}

/// Reads a table file's body of `n` values written by [`write_u16s`],
/// refusing a short or damaged one (why, in words).
///
/// # Errors
/// `"truncated"` or `"checksum mismatch"`.
pub(crate) fn read_u16s(r: &mut impl std::io::Read, n: usize) -> Result<Vec<u16>, &'static str> {
    let mut bytes = vec![0u8; n * 2];
    r.read_exact(&mut bytes).map_err(|_| "truncated")?;
    let mut sum = Fnv::new();
    sum.add(&bytes);
    let mut stored = [0u8; 8];
    r.read_exact(&mut stored).map_err(|_| "truncated")?;
    if u64::from_le_bytes(stored) != sum.0 {
        return Err("checksum mismatch");
    }
    Ok(bytes
        .chunks_exact(2)
        .map(|b| u16::from_le_bytes([b[0], b[1]]))
        .collect())
}
