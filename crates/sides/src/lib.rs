//! # Two sides
//!
//! Both games are for two players, and both rules crates keep data per side
//! (Ringo: each side's pieces; Urgammon: each army, each side's match score).
//! [`BySide`] is that pair, written once. Each game names its own sides with
//! an enum that implements [`Two`], so a Ringo side cannot index Urgammon data:
//! `ringo::BySide<T>` is `BySide<ringo::Side, T>`.
#![forbid(unsafe_code)]
#![deny(missing_docs)]

use std::marker::PhantomData;
use std::ops::{Index, IndexMut};

/// A game's side type: exactly two values, numbered 0 (the side that starts
/// the list) and 1.
pub trait Two: Copy {
    /// 0 or 1.
    fn index(self) -> usize;
}

/// One value per side, indexed by the game's side type.
pub struct BySide<S, T> {
    values: [T; 2],
    side: PhantomData<fn() -> S>,
}

impl<S, T> BySide<S, T> {
    /// The values for side 0 and side 1.
    #[inline]
    pub const fn new(first: T, second: T) -> BySide<S, T> {
        BySide {
            values: [first, second],
            side: PhantomData,
        }
    }

    /// Both values, side 0 first.
    #[inline]
    pub const fn as_array(&self) -> &[T; 2] {
        &self.values
    }
}

impl<S: Two, T> Index<S> for BySide<S, T> {
    type Output = T;
    #[inline]
    fn index(&self, side: S) -> &T {
        // `& 1` lets the compiler drop the bounds check in hot loops.
        &self.values[side.index() & 1]
    }
}

impl<S: Two, T> IndexMut<S> for BySide<S, T> {
    #[inline]
    fn index_mut(&mut self, side: S) -> &mut T {
        &mut self.values[side.index() & 1]
    }
}

// Written out rather than derived: a derive would ask the side type for
// `Default`, `Hash`, … although only the values are stored.
impl<S, T: Clone> Clone for BySide<S, T> {
    fn clone(&self) -> Self {
        BySide::new(self.values[0].clone(), self.values[1].clone())
    }
}
impl<S, T: Copy> Copy for BySide<S, T> {}
impl<S, T: PartialEq> PartialEq for BySide<S, T> {
    fn eq(&self, other: &Self) -> bool {
        self.values == other.values
    }
}
impl<S, T: Eq> Eq for BySide<S, T> {}
impl<S, T: std::hash::Hash> std::hash::Hash for BySide<S, T> {
    fn hash<H: std::hash::Hasher>(&self, state: &mut H) {
        self.values.hash(state);
    }
}
impl<S, T: Default> Default for BySide<S, T> {
    fn default() -> Self {
        BySide::new(T::default(), T::default())
    }
}
impl<S, T: std::fmt::Debug> std::fmt::Debug for BySide<S, T> {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_list().entries(&self.values).finish()
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[derive(Clone, Copy)]
    enum Colour {
        White,
        Black,
    }
    impl Two for Colour {
        fn index(self) -> usize {
            self as usize
        }
    }

    #[test]
    fn values_are_read_and_written_by_side() {
        let mut score: BySide<Colour, u32> = BySide::default();
        score[Colour::Black] += 3;
        assert_eq!((score[Colour::White], score[Colour::Black]), (0, 3));
        assert_eq!(score, BySide::new(0, 3));
        assert_eq!(score.as_array(), &[0, 3]);
        assert_eq!(format!("{score:?}"), "[0, 3]");
    }
}
