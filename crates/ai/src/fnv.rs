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
