//! Hierarchical tuples stored inline: the leaves in one array, the tree profile in another.
//!
//! A tuple `(2,(3,4))` is stored as the leaves `[2, 3, 4]` and the pre-order profile tokens
//! `[T2, L, T2, L, L]`, where a tuple token records its number of children. Up to [`INLINE`]
//! leaves and [`INLINE_TOKENS`] tokens live inline (no heap allocation), which covers every layout
//! of rank ≤ 8 with ≤ 16 leaves and depth ≤ 2 (1 + 8 + 16 = 25 tokens), and any deeper one with
//! at most 31 tuple-or-leaf nodes.
//!
//! Splitting leaves from the profile keeps a `Tree<Mode>` at about 400 bytes (moves are plain
//! copies of the whole inline buffer), makes `leaves()` a slice walk and `congruent` a slice
//! comparison.

use smallvec::SmallVec;

/// Number of leaves stored without a heap allocation.
pub const INLINE: usize = 16;
/// Number of profile tokens (leaves plus tuples) stored without a heap allocation.
pub const INLINE_TOKENS: usize = 32;

/// A profile token: [`LEAF`], or `1 + number of children` for a tuple.
type Tok = u32;
const LEAF: Tok = 0;

/// Tokens and leaf count of the first subtree of `toks` (which must be a complete pre-order run).
#[inline]
fn extent(toks: &[Tok]) -> (usize, usize) {
    let mut pending = 1usize;
    let mut leaves = 0usize;
    let mut i = 0usize;
    while pending > 0 && i < toks.len() {
        let t = toks[i];
        pending -= 1;
        if t == LEAF {
            leaves += 1;
        } else {
            pending += (t - 1) as usize;
        }
        i += 1;
    }
    (i, leaves)
}

/// An owned hierarchical tuple whose leaves are `T`.
#[derive(Clone, PartialEq, Eq, Hash)]
pub struct Tree<T: Copy> {
    toks: SmallVec<[Tok; INLINE_TOKENS]>,
    vals: SmallVec<[T; INLINE]>,
}

/// A borrowed subtree of a [`Tree`].
#[derive(Clone, Copy, Debug)]
pub struct TreeRef<'a, T> {
    toks: &'a [Tok],
    vals: &'a [T],
}

impl<T: Copy> Tree<T> {
    /// A single leaf.
    #[inline]
    pub fn leaf(v: T) -> Self {
        let mut toks = SmallVec::new();
        toks.push(LEAF);
        let mut vals = SmallVec::new();
        vals.push(v);
        Tree { toks, vals }
    }

    /// A tuple of the given children, in order.
    pub fn tuple<'a, I>(children: I) -> Self
    where
        I: IntoIterator<Item = TreeRef<'a, T>>,
        T: 'a,
    {
        let mut b = Builder::new();
        b.open();
        for c in children {
            b.push(c);
        }
        b.close();
        b.finish()
    }

    /// A flat tuple of leaves.
    #[inline]
    pub fn flat<I: IntoIterator<Item = T>>(leaves: I) -> Self {
        let vals: SmallVec<[T; INLINE]> = leaves.into_iter().collect();
        let mut toks = SmallVec::new();
        toks.push(1 + vals.len() as Tok);
        toks.resize(toks.len() + vals.len(), LEAF);
        Tree { toks, vals }
    }

    /// A flat tuple of leaves, or the single leaf itself when there is exactly one
    /// (CuTe's `unwrap`).
    #[inline]
    pub fn flat_unwrapped<I: IntoIterator<Item = T>>(leaves: I) -> Self {
        let vals: SmallVec<[T; INLINE]> = leaves.into_iter().collect();
        let mut toks = SmallVec::new();
        if vals.len() != 1 {
            toks.push(1 + vals.len() as Tok);
        }
        toks.resize(toks.len() + vals.len(), LEAF);
        Tree { toks, vals }
    }

    /// A flat tuple of the given leaves; with `unwrap`, a single leaf is the leaf itself.
    #[inline]
    pub fn from_flat_slice(vals: &[T], unwrap: bool) -> Self {
        let mut toks = SmallVec::new();
        if !(unwrap && vals.len() == 1) {
            toks.push(1 + vals.len() as Tok);
        }
        toks.resize(toks.len() + vals.len(), LEAF);
        Tree {
            toks,
            vals: SmallVec::from_slice(vals),
        }
    }

    /// The borrowed view of the whole tree.
    #[inline]
    pub fn as_ref(&self) -> TreeRef<'_, T> {
        TreeRef {
            toks: &self.toks,
            vals: &self.vals,
        }
    }

    /// Applies `f` to every leaf, keeping the structure.
    pub fn map<U: Copy>(&self, f: impl FnMut(T) -> U) -> Tree<U> {
        Tree {
            toks: self.toks.clone(),
            vals: self.vals.iter().copied().map(f).collect(),
        }
    }

    /// Like [`Tree::map`] with a fallible function.
    pub fn try_map<U: Copy, E>(&self, mut f: impl FnMut(T) -> Result<U, E>) -> Result<Tree<U>, E> {
        let mut vals = SmallVec::with_capacity(self.vals.len());
        for &v in &self.vals {
            vals.push(f(v)?);
        }
        Ok(Tree {
            toks: self.toks.clone(),
            vals,
        })
    }
}

impl<'a, T: Copy> TreeRef<'a, T> {
    /// Copies the subtree into an owned tree.
    #[inline]
    pub fn to_owned(self) -> Tree<T> {
        Tree {
            toks: SmallVec::from_slice(self.toks),
            vals: SmallVec::from_slice(self.vals),
        }
    }

    /// `true` when this is a single leaf.
    #[inline]
    pub fn is_leaf(self) -> bool {
        self.toks.first() == Some(&LEAF)
    }

    /// The leaf value, if this is a leaf.
    #[inline]
    pub fn leaf(self) -> Option<T> {
        if self.is_leaf() {
            self.vals.first().copied()
        } else {
            None
        }
    }

    /// CuTe's `rank`: 1 for a leaf, the number of children for a tuple.
    #[inline]
    pub fn rank(self) -> usize {
        match self.toks.first() {
            Some(&t) if t != LEAF => (t - 1) as usize,
            _ => 1,
        }
    }

    /// CuTe's `depth`: 0 for a leaf, 1 + the largest depth of a child for a tuple.
    pub fn depth(self) -> usize {
        if self.is_leaf() {
            0
        } else {
            1 + self.modes().map(|c| c.depth()).max().unwrap_or(0)
        }
    }

    /// Mode `i`: the `i`-th child of a tuple; mode 0 of a leaf is the leaf itself (as in CuTe).
    pub fn child(self, i: usize) -> Option<TreeRef<'a, T>> {
        self.modes().nth(i)
    }

    /// The modes: the children of a tuple, or the leaf itself.
    #[inline]
    pub fn modes(self) -> Modes<'a, T> {
        match self.toks.first() {
            Some(&t) if t != LEAF => Modes {
                toks: &self.toks[1..],
                vals: self.vals,
                left: (t - 1) as usize,
            },
            _ => Modes {
                toks: self.toks,
                vals: self.vals,
                left: 1,
            },
        }
    }

    /// The leaves in pre-order (left to right).
    #[inline]
    pub fn leaves(self) -> std::iter::Copied<std::slice::Iter<'a, T>> {
        self.vals.iter().copied()
    }

    /// The leaves as a slice, left to right.
    #[inline]
    pub fn leaf_slice(self) -> &'a [T] {
        self.vals
    }

    /// The number of leaves.
    #[inline]
    pub fn leaf_count(self) -> usize {
        self.vals.len()
    }

    /// `true` when `self` and `other` have the same tree profile.
    #[inline]
    pub fn congruent<U: Copy>(self, other: TreeRef<'_, U>) -> bool {
        self.toks == other.toks
    }
}

/// Iterator over the modes of a tuple.
pub struct Modes<'a, T> {
    toks: &'a [Tok],
    vals: &'a [T],
    left: usize,
}

impl<'a, T: Copy> Iterator for Modes<'a, T> {
    type Item = TreeRef<'a, T>;
    #[inline]
    fn next(&mut self) -> Option<Self::Item> {
        if self.left == 0 || self.toks.is_empty() {
            return None;
        }
        self.left -= 1;
        let (nt, nl) = if self.toks[0] == LEAF {
            (1, 1)
        } else {
            extent(self.toks)
        };
        let nl = nl.min(self.vals.len());
        let (th, tt) = self.toks.split_at(nt);
        let (vh, vt) = self.vals.split_at(nl);
        self.toks = tt;
        self.vals = vt;
        Some(TreeRef { toks: th, vals: vh })
    }
    fn size_hint(&self) -> (usize, Option<usize>) {
        (self.left, Some(self.left))
    }
}

impl<T: Copy> ExactSizeIterator for Modes<'_, T> {}

/// Incremental construction of a [`Tree`] in pre-order.
pub struct Builder<T: Copy> {
    tree: Tree<T>,
    open: SmallVec<[(usize, Tok); 8]>,
}

impl<T: Copy> Default for Builder<T> {
    fn default() -> Self {
        Self::new()
    }
}

impl<T: Copy> Builder<T> {
    /// An empty builder.
    #[inline]
    pub fn new() -> Self {
        Builder {
            tree: Tree {
                toks: SmallVec::new(),
                vals: SmallVec::new(),
            },
            open: SmallVec::new(),
        }
    }

    #[inline]
    fn count_child(&mut self) {
        if let Some(top) = self.open.last_mut() {
            top.1 += 1;
        }
    }

    /// Opens a tuple.
    #[inline]
    pub fn open(&mut self) {
        self.count_child();
        self.open.push((self.tree.toks.len(), 0));
        self.tree.toks.push(1);
    }

    /// Closes the innermost open tuple.
    #[inline]
    pub fn close(&mut self) {
        if let Some((start, len)) = self.open.pop() {
            self.tree.toks[start] = 1 + len;
        }
    }

    /// Appends a leaf.
    #[inline]
    pub fn leaf(&mut self, v: T) {
        self.count_child();
        self.tree.toks.push(LEAF);
        self.tree.vals.push(v);
    }

    /// Appends a whole subtree.
    #[inline]
    pub fn push(&mut self, t: TreeRef<'_, T>) {
        self.count_child();
        self.tree.toks.extend_from_slice(t.toks);
        self.tree.vals.extend_from_slice(t.vals);
    }

    /// Appends the modes of `t` (a leaf is appended as itself): CuTe's `tuple_cat` of a part.
    pub fn push_modes(&mut self, t: TreeRef<'_, T>) {
        for m in t.modes() {
            self.push(m);
        }
    }

    /// The finished tree. Unclosed tuples are closed.
    #[inline]
    pub fn finish(mut self) -> Tree<T> {
        while !self.open.is_empty() {
            self.close();
        }
        self.tree
    }
}
