//! A fixed-capacity, heap-free list used for legal move lists.
//!
//! Every game module states its own capacity together with the argument that
//! bounds the number of legal moves (see `draughts::MAX_MOVES`, ...). Pushing
//! past the capacity never truncates silently and never panics:
//! [`MoveList::try_push`] reports [`CapacityError`].

use core::fmt;
use core::ops::Deref;

/// The list was full; the element was not added.
#[derive(Debug, Clone, Copy, PartialEq, Eq, thiserror::Error)]
#[error("move list capacity {capacity} exceeded")]
pub struct CapacityError {
    /// The list's fixed capacity (elements).
    pub capacity: usize,
}

/// A list of at most `N` `Copy` elements stored inline (no heap allocation).
///
/// Dereferences to a slice of the elements pushed so far.
#[derive(Clone, Copy)]
pub struct MoveList<T: Copy + Default, const N: usize> {
    items: [T; N],
    len: usize,
}

impl<T: Copy + Default, const N: usize> MoveList<T, N> {
    /// The fixed capacity, in elements.
    pub const CAPACITY: usize = N;

    /// An empty list.
    #[inline]
    pub fn new() -> Self {
        Self {
            items: [T::default(); N],
            len: 0,
        }
    }

    /// Appends `item`, or reports [`CapacityError`] (leaving the list
    /// unchanged) when the list already holds `N` elements.
    #[inline]
    pub fn try_push(&mut self, item: T) -> Result<(), CapacityError> {
        match self.items.get_mut(self.len) {
            Some(slot) => {
                *slot = item;
                self.len += 1;
                Ok(())
            }
            None => Err(CapacityError { capacity: N }),
        }
    }

    /// Number of elements.
    #[inline]
    pub fn len(&self) -> usize {
        self.len
    }

    /// `true` when the list holds no element.
    #[inline]
    pub fn is_empty(&self) -> bool {
        self.len == 0
    }

    /// Removes every element.
    #[inline]
    pub fn clear(&mut self) {
        self.len = 0;
    }

    /// Keeps only the first `len` elements (no-op if `len >= self.len()`).
    #[inline]
    pub fn truncate(&mut self, len: usize) {
        if len < self.len {
            self.len = len;
        }
    }

    /// Removes the element at `index` by moving the last element into its
    /// place (order is not kept). Returns `None` if `index` is out of range.
    #[inline]
    pub fn swap_remove(&mut self, index: usize) -> Option<T> {
        if index >= self.len {
            return None;
        }
        let item = self.items[index];
        self.len -= 1;
        self.items[index] = self.items[self.len];
        Some(item)
    }

    /// The elements as a slice.
    #[inline]
    pub fn as_slice(&self) -> &[T] {
        &self.items[..self.len]
    }

    /// The elements as a mutable slice.
    #[inline]
    pub fn as_mut_slice(&mut self) -> &mut [T] {
        &mut self.items[..self.len]
    }
}

impl<T: Copy + Default, const N: usize> Default for MoveList<T, N> {
    fn default() -> Self {
        Self::new()
    }
}

impl<T: Copy + Default, const N: usize> Deref for MoveList<T, N> {
    type Target = [T];
    #[inline]
    fn deref(&self) -> &[T] {
        self.as_slice()
    }
}

impl<T: Copy + Default + fmt::Debug, const N: usize> fmt::Debug for MoveList<T, N> {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.debug_list().entries(self.as_slice()).finish()
    }
}

impl<'a, T: Copy + Default, const N: usize> IntoIterator for &'a MoveList<T, N> {
    type Item = &'a T;
    type IntoIter = core::slice::Iter<'a, T>;
    fn into_iter(self) -> Self::IntoIter {
        self.as_slice().iter()
    }
}

/// The by-value iterator of a [`MoveList`] (`for mv in pos.legal_moves()`):
/// yields the elements in order, by copy. Double-ended and exact-size.
#[derive(Clone)]
pub struct MoveListIntoIter<T: Copy + Default, const N: usize> {
    list: MoveList<T, N>,
    front: usize,
}

impl<T: Copy + Default, const N: usize> Iterator for MoveListIntoIter<T, N> {
    type Item = T;
    #[inline]
    fn next(&mut self) -> Option<T> {
        let item = self.list.as_slice().get(self.front).copied()?;
        self.front += 1;
        Some(item)
    }
    #[inline]
    fn size_hint(&self) -> (usize, Option<usize>) {
        let n = self.list.len - self.front;
        (n, Some(n))
    }
}

impl<T: Copy + Default, const N: usize> DoubleEndedIterator for MoveListIntoIter<T, N> {
    #[inline]
    fn next_back(&mut self) -> Option<T> {
        if self.list.len == self.front {
            return None;
        }
        self.list.len -= 1;
        Some(self.list.items[self.list.len])
    }
}

impl<T: Copy + Default, const N: usize> ExactSizeIterator for MoveListIntoIter<T, N> {}

impl<T: Copy + Default, const N: usize> core::iter::FusedIterator for MoveListIntoIter<T, N> {}

impl<T: Copy + Default + fmt::Debug, const N: usize> fmt::Debug for MoveListIntoIter<T, N> {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.debug_list()
            .entries(&self.list.as_slice()[self.front..])
            .finish()
    }
}

impl<T: Copy + Default, const N: usize> IntoIterator for MoveList<T, N> {
    type Item = T;
    type IntoIter = MoveListIntoIter<T, N>;
    #[inline]
    fn into_iter(self) -> Self::IntoIter {
        MoveListIntoIter {
            list: self,
            front: 0,
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn push_until_full_then_reports_capacity() {
        let mut list: MoveList<u16, 3> = MoveList::new();
        for i in 0..3 {
            list.try_push(i).unwrap();
        }
        assert_eq!(list.try_push(9), Err(CapacityError { capacity: 3 }));
        assert_eq!(list.as_slice(), &[0, 1, 2]);
        assert_eq!(list.swap_remove(0), Some(0));
        assert_eq!(list.as_slice(), &[2, 1]);
        assert_eq!(list.swap_remove(5), None);
    }

    #[test]
    fn by_value_iteration_in_order_from_both_ends() {
        let mut list: MoveList<u16, 4> = MoveList::new();
        for i in [7, 8, 9] {
            list.try_push(i).unwrap();
        }
        let collected: [u16; 3] = {
            let mut out = [0; 3];
            for (slot, v) in out.iter_mut().zip(list) {
                *slot = v;
            }
            out
        };
        assert_eq!(collected, [7, 8, 9]);
        let mut it = list.into_iter();
        assert_eq!(it.len(), 3);
        assert_eq!(it.next(), Some(7));
        assert_eq!(it.next_back(), Some(9));
        assert_eq!(it.len(), 1);
        assert_eq!(it.next(), Some(8));
        assert_eq!((it.next(), it.next_back()), (None, None));
    }
}
