//! A buffer of `N` elements stored inline, with a heap fallback past `N`: the storage of a
//! [`super::Tree`]'s leaves and profile, and of the algorithms' flat mode lists.
//!
//! Unlike a general small vector it keeps one plain array and a length: pushing within the
//! capacity is a store and an increment, and the length checks are simple enough to inline.
//! Past `N` elements every element lives in a `Vec` (the inline array is then unused), so the
//! only cost of the fallback is on that (rare, cold) path. Written without `unsafe`: the inline
//! array is initialised with `T::default()` when the buffer is created.

use std::fmt;
use std::hash::{Hash, Hasher};
use std::ops::{Deref, DerefMut};

/// Up to `N` elements inline, any number on the heap.
///
/// Invariant: `len <= N` and the elements are `inline[..len]` with `heap` empty, or `len > N`
/// and the elements are `heap` (`heap.len() == len`).
#[derive(Clone)]
pub struct Buf<T, const N: usize> {
    len: usize,
    inline: [T; N],
    heap: Vec<T>,
}

impl<T: Copy + Default, const N: usize> Default for Buf<T, N> {
    #[inline]
    fn default() -> Self {
        Self::new()
    }
}

impl<T: Copy + Default, const N: usize> Buf<T, N> {
    /// An empty buffer.
    #[inline]
    pub fn new() -> Self {
        Buf {
            len: 0,
            inline: [T::default(); N],
            heap: Vec::new(),
        }
    }

    /// A buffer holding a copy of `s`.
    #[inline]
    pub fn from_slice(s: &[T]) -> Self {
        let mut b = Self::new();
        b.extend_from_slice(s);
        b
    }

    /// `n` copies of `v`.
    #[inline]
    pub fn from_elem(v: T, n: usize) -> Self {
        let mut b = Self::new();
        b.resize(n, v);
        b
    }

    /// The elements.
    #[inline]
    pub fn as_slice(&self) -> &[T] {
        if self.len <= N {
            &self.inline[..self.len]
        } else {
            &self.heap
        }
    }

    /// The elements when they are inline (at most `N`), else `None`: one test where a caller
    /// has a fast path for short buffers.
    #[inline(always)]
    pub(crate) fn inline_slice(&self) -> Option<&[T]> {
        self.inline.get(..self.len)
    }

    /// The elements, mutably.
    #[inline]
    pub fn as_mut_slice(&mut self) -> &mut [T] {
        if self.len <= N {
            &mut self.inline[..self.len]
        } else {
            &mut self.heap
        }
    }

    /// Removes every element (keeps any heap capacity for reuse).
    #[inline]
    pub fn clear(&mut self) {
        self.len = 0;
        self.heap.clear();
    }

    /// Appends `v`.
    #[inline]
    pub fn push(&mut self, v: T) {
        if self.len < N {
            self.inline[self.len] = v;
            self.len += 1;
        } else {
            self.push_spilled(v);
        }
    }

    #[cold]
    #[inline(never)]
    fn push_spilled(&mut self, v: T) {
        self.spill();
        self.heap.push(v);
        self.len += 1;
    }

    /// Moves the inline elements to the heap (when they are inline).
    fn spill(&mut self) {
        if self.len <= N {
            self.heap.reserve(2 * N.max(self.len + 1));
            self.heap.extend_from_slice(&self.inline[..self.len]);
        }
    }

    /// Appends the elements of `s`.
    #[inline]
    pub fn extend_from_slice(&mut self, s: &[T]) {
        let n = self.len + s.len();
        if n <= N {
            self.inline[self.len..n].copy_from_slice(s);
            self.len = n;
        } else {
            self.extend_spilled(s);
        }
    }

    #[cold]
    #[inline(never)]
    fn extend_spilled(&mut self, s: &[T]) {
        self.spill();
        self.heap.extend_from_slice(s);
        self.len = self.heap.len();
    }

    /// The number of elements: the stored length, with no test of where the elements live
    /// (the slice's `len` through `Deref` would take [`Buf::as_slice`] first).
    #[inline(always)]
    pub fn len(&self) -> usize {
        self.len
    }

    /// `true` when there are no elements.
    #[inline(always)]
    pub fn is_empty(&self) -> bool {
        self.len == 0
    }

    /// Removes and returns the last element.
    #[inline]
    pub fn pop(&mut self) -> Option<T> {
        let v = self.as_slice().last().copied()?;
        self.truncate(self.len - 1);
        Some(v)
    }

    /// Shortens to `n` elements (no effect when there are fewer).
    #[inline]
    pub fn truncate(&mut self, n: usize) {
        if n >= self.len {
            return;
        }
        if self.len > N {
            if n > N {
                self.heap.truncate(n);
            } else {
                self.inline[..n].copy_from_slice(&self.heap[..n]);
                self.heap.clear();
            }
        }
        self.len = n;
    }

    /// Resizes to `n` elements, filling with `v`.
    #[inline]
    pub fn resize(&mut self, n: usize, v: T) {
        if n <= self.len {
            self.truncate(n);
        } else if n <= N {
            for x in &mut self.inline[self.len..n] {
                *x = v;
            }
            self.len = n;
        } else {
            while self.len < n {
                self.push(v);
            }
        }
    }

    /// The whole inline array, for writing up to `N` elements in place with plain indexing;
    /// the buffer is emptied and made inline first (any heap capacity is kept). Follow with
    /// [`Buf::set_inline_len`].
    #[inline]
    pub(crate) fn inline_array_mut(&mut self) -> &mut [T; N] {
        if self.len > N {
            self.heap.clear();
        }
        self.len = 0;
        &mut self.inline
    }

    /// Declares the first `n` inline elements (written through [`Buf::inline_array_mut`]) the
    /// contents. Pre: `n <= N` and the buffer is inline.
    #[inline]
    pub(crate) fn set_inline_len(&mut self, n: usize) {
        // Every caller writes its `n` elements into the `N`-element array, so `n <= N` holds
        // by construction (no clamp on this hot path).
        debug_assert!(n <= N && self.heap.is_empty());
        self.len = n;
    }

    /// The inline array and the length of an inline buffer (`None` when spilled), for a writer
    /// that keeps the length in a register and stores it back once ([`super::tree::Cursor`]).
    /// Whoever stores a length must keep it `<= N`.
    #[inline(always)]
    pub(crate) fn inline_parts(&mut self) -> Option<(&mut [T; N], &mut usize)> {
        if self.len <= N {
            Some((&mut self.inline, &mut self.len))
        } else {
            None
        }
    }

    /// `true` when the elements live on the heap.
    #[inline]
    pub fn spilled(&self) -> bool {
        self.len > N
    }
}

impl<T: Copy + Default, const N: usize> Deref for Buf<T, N> {
    type Target = [T];
    #[inline]
    fn deref(&self) -> &[T] {
        self.as_slice()
    }
}

impl<T: Copy + Default, const N: usize> DerefMut for Buf<T, N> {
    #[inline]
    fn deref_mut(&mut self) -> &mut [T] {
        self.as_mut_slice()
    }
}

impl<'a, T: Copy + Default, const N: usize> IntoIterator for &'a Buf<T, N> {
    type Item = &'a T;
    type IntoIter = std::slice::Iter<'a, T>;
    #[inline]
    fn into_iter(self) -> Self::IntoIter {
        self.as_slice().iter()
    }
}

impl<'a, T: Copy + Default, const N: usize> IntoIterator for &'a mut Buf<T, N> {
    type Item = &'a mut T;
    type IntoIter = std::slice::IterMut<'a, T>;
    #[inline]
    fn into_iter(self) -> Self::IntoIter {
        self.as_mut_slice().iter_mut()
    }
}

impl<T: Copy + Default, const N: usize> FromIterator<T> for Buf<T, N> {
    #[inline]
    fn from_iter<I: IntoIterator<Item = T>>(iter: I) -> Self {
        let mut b = Self::new();
        for v in iter {
            b.push(v);
        }
        b
    }
}

impl<T: Copy + Default + PartialEq, const N: usize> PartialEq for Buf<T, N> {
    #[inline]
    fn eq(&self, other: &Self) -> bool {
        self.as_slice() == other.as_slice()
    }
}

impl<T: Copy + Default + Eq, const N: usize> Eq for Buf<T, N> {}

impl<T: Copy + Default + Hash, const N: usize> Hash for Buf<T, N> {
    fn hash<H: Hasher>(&self, state: &mut H) {
        self.as_slice().hash(state);
    }
}

impl<T: Copy + Default + fmt::Debug, const N: usize> fmt::Debug for Buf<T, N> {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.debug_list().entries(self.as_slice()).finish()
    }
}

#[cfg(test)]
mod tests {
    use super::Buf;

    #[test]
    fn spills_and_comes_back() {
        let mut b: Buf<i64, 4> = Buf::new();
        for i in 0..10 {
            b.push(i);
        }
        assert!(b.spilled());
        assert_eq!(&b[..], &(0..10).collect::<Vec<_>>()[..]);
        b.truncate(3);
        assert!(!b.spilled());
        assert_eq!(&b[..], &[0, 1, 2]);
        b.extend_from_slice(&[7, 8, 9]);
        assert_eq!(&b[..], &[0, 1, 2, 7, 8, 9]);
        b.resize(2, 0);
        b.resize(5, -1);
        assert_eq!(&b[..], &[0, 1, -1, -1, -1]);
        b.clear();
        assert!(b.is_empty());
        let c: Buf<i64, 4> = (0..6).collect();
        assert_eq!(c, Buf::from_slice(&[0, 1, 2, 3, 4, 5]));
        assert_eq!(Buf::<i64, 2>::from_elem(3, 3).as_slice(), &[3, 3, 3]);
    }
}
