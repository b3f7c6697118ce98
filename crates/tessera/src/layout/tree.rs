//! Hierarchical tuples stored inline: the leaves in one array, the tree profile in another.
//!
//! A tuple `(2,(3,4))` is stored as the leaves `[2, 3, 4]` and the pre-order profile tokens
//! `[T2, L, T2, L, L]`, where a tuple token records its number of children. Up to [`INLINE`]
//! leaves and [`INLINE_TOKENS`] tokens live inline (no heap allocation), which covers every layout
//! of rank ≤ 8 with ≤ 16 leaves and depth ≤ 2 (1 + 8 + 16 = 25 tokens), and any deeper one with
//! at most 31 tuple-or-leaf nodes.
//!
//! Splitting leaves from the profile makes `leaves()` a slice walk and `congruent` a slice
//! comparison. Both live in a [`Buf`] (a plain inline array and a length, a heap `Vec` past the
//! inline capacity); the algebra writes results into a caller's tree in place (`clear`, then
//! `push_*`), so a layout is built without being returned by value.

use super::buf::Buf;

/// Number of leaves stored without a heap allocation.
pub const INLINE: usize = 16;
/// Number of profile tokens (leaves plus tuples) stored without a heap allocation.
pub const INLINE_TOKENS: usize = 32;
const _: () = assert!(
    INLINE_TOKENS > INLINE,
    "a flat profile of INLINE leaves is inline"
);

/// A profile token: [`LEAF`], or `1 + number of children` for a tuple.
pub(crate) type Tok = u32;
pub(crate) const LEAF: Tok = 0;

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

/// Writes the profile of a flat tuple of `n <= INLINE` leaves into `t` with fixed-size stores (no
/// fill loop, no length checks); with `unwrap` and `n == 1`, the leaf itself. Returns the number
/// of tokens.
#[inline(always)]
fn flat_tokens(t: &mut [Tok; INLINE_TOKENS], n: usize, unwrap: bool) -> usize {
    if unwrap && n == 1 {
        t[0] = LEAF;
        1
    } else {
        t[0] = 1 + n as Tok;
        let (_, rest) = t.split_at_mut(1);
        rest[..INLINE].copy_from_slice(&[LEAF; INLINE]);
        n + 1
    }
}

/// An owned hierarchical tuple whose leaves are `T`.
#[derive(Clone, PartialEq, Eq, Hash)]
pub struct Tree<T: Copy + Default> {
    toks: Buf<Tok, INLINE_TOKENS>,
    vals: Buf<T, INLINE>,
}

/// A sink for a tree written in pre-order, token by token: a [`Tree`], or a [`Cursor`] over its
/// inline arrays. `lens` is a mark (numbers of tokens and leaves); `finish_group` completes a
/// group opened by `push_tuple(0)` at the mark `header` and followed by `count` leaves.
pub(crate) trait TreeSink<T> {
    /// Appends the token of a tuple of `rank` children.
    fn push_tuple(&mut self, rank: usize);
    /// Appends a leaf.
    fn push_leaf(&mut self, v: T);
    /// The numbers of tokens and leaves written.
    fn lens(&self) -> (usize, usize);
    /// See [`Tree::finish_group`].
    fn finish_group(&mut self, header: (usize, usize), count: usize);
}

impl<T: Copy + Default> TreeSink<T> for Tree<T> {
    #[inline(always)]
    fn push_tuple(&mut self, rank: usize) {
        Tree::push_tuple(self, rank)
    }
    #[inline(always)]
    fn push_leaf(&mut self, v: T) {
        Tree::push_leaf(self, v)
    }
    #[inline(always)]
    fn lens(&self) -> (usize, usize) {
        Tree::lens(self)
    }
    #[inline(always)]
    fn finish_group(&mut self, header: (usize, usize), count: usize) {
        Tree::finish_group(self, header, count)
    }
}

/// Appends to a [`Tree`] whose storage is inline, writing its inline arrays directly with the
/// lengths kept in locals (no length reloads, no spill checks): stored back by
/// [`Cursor::commit`]; dropped without it, the tree is unchanged. A push that does not fit
/// the inline arrays is dropped and sets [`Cursor::full`] (the caller then writes the tree
/// with the [`Tree`] itself).
pub(crate) struct Cursor<'a, T> {
    toks: &'a mut [Tok; INLINE_TOKENS],
    vals: &'a mut [T; INLINE],
    tok_len: &'a mut usize,
    val_len: &'a mut usize,
    nt: usize,
    nv: usize,
    full: bool,
}

impl<'a, T: Copy> Cursor<'a, T> {
    /// `true` when a push did not fit (the written tree is then incomplete).
    #[inline(always)]
    pub(crate) fn full(&self) -> bool {
        self.full
    }

    /// Stores the lengths back: the tree now holds what was written. Pre: not [`Cursor::full`].
    #[inline(always)]
    pub(crate) fn commit(self) {
        debug_assert!(!self.full);
        *self.tok_len = self.nt;
        *self.val_len = self.nv;
    }
}

impl<T: Copy> TreeSink<T> for Cursor<'_, T> {
    #[inline(always)]
    fn push_tuple(&mut self, rank: usize) {
        match self.toks.get_mut(self.nt) {
            Some(t) => {
                *t = 1 + rank as Tok;
                self.nt += 1;
            }
            None => self.full = true,
        }
    }
    #[inline(always)]
    fn push_leaf(&mut self, v: T) {
        match (self.toks.get_mut(self.nt), self.vals.get_mut(self.nv)) {
            (Some(t), Some(x)) => {
                *t = LEAF;
                *x = v;
                self.nt += 1;
                self.nv += 1;
            }
            _ => self.full = true,
        }
    }
    #[inline(always)]
    fn lens(&self) -> (usize, usize) {
        (self.nt, self.nv)
    }
    #[inline(always)]
    fn finish_group(&mut self, header: (usize, usize), count: usize) {
        if count == 1 {
            self.nt = header.0;
            self.push_leaf_token();
        } else if let Some(t) = self.toks.get_mut(header.0) {
            *t = 1 + count as Tok;
        }
    }
}

impl<T: Copy> Cursor<'_, T> {
    /// Appends a leaf token only (its value is already written).
    #[inline(always)]
    fn push_leaf_token(&mut self) {
        match self.toks.get_mut(self.nt) {
            Some(t) => {
                *t = LEAF;
                self.nt += 1;
            }
            None => self.full = true,
        }
    }
}

/// A borrowed subtree of a [`Tree`].
#[derive(Clone, Copy, Debug)]
pub struct TreeRef<'a, T> {
    toks: &'a [Tok],
    vals: &'a [T],
}

impl<T: Copy + Default> Tree<T> {
    /// A single leaf.
    #[inline]
    pub fn leaf(v: T) -> Self {
        let mut toks = Buf::new();
        toks.push(LEAF);
        let mut vals = Buf::new();
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
        let vals: Buf<T, INLINE> = leaves.into_iter().collect();
        let mut toks = Buf::new();
        toks.push(1 + vals.len() as Tok);
        toks.resize(toks.len() + vals.len(), LEAF);
        Tree { toks, vals }
    }

    /// A flat tuple of leaves, or the single leaf itself when there is exactly one
    /// (CuTe's `unwrap`).
    #[inline]
    pub fn flat_unwrapped<I: IntoIterator<Item = T>>(leaves: I) -> Self {
        let vals: Buf<T, INLINE> = leaves.into_iter().collect();
        let mut toks = Buf::new();
        if vals.len() != 1 {
            toks.push(1 + vals.len() as Tok);
        }
        toks.resize(toks.len() + vals.len(), LEAF);
        Tree { toks, vals }
    }

    /// A flat tuple of the given leaves; with `unwrap`, a single leaf is the leaf itself.
    #[inline]
    pub fn from_flat_slice(vals: &[T], unwrap: bool) -> Self {
        let mut toks = Buf::new();
        if !(unwrap && vals.len() == 1) {
            toks.push(1 + vals.len() as Tok);
        }
        toks.resize(toks.len() + vals.len(), LEAF);
        Tree {
            toks,
            vals: Buf::from_slice(vals),
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

    /// Empties the tree (no tokens, no leaves), keeping its storage: the start of an in-place
    /// construction with [`Tree::push_leaf`], [`Tree::push_tuple`] and [`Tree::push_tree`].
    #[inline]
    pub(crate) fn clear(&mut self) {
        self.toks.clear();
        self.vals.clear();
    }

    /// Appends a leaf token and its value.
    #[inline]
    pub(crate) fn push_leaf(&mut self, v: T) {
        self.toks.push(LEAF);
        self.vals.push(v);
    }

    /// Appends the token of a tuple of `rank` children (which must follow, in pre-order).
    #[inline]
    pub(crate) fn push_tuple(&mut self, rank: usize) {
        self.toks.push(1 + rank as Tok);
    }

    /// Appends a whole subtree.
    #[inline]
    pub(crate) fn push_tree(&mut self, t: TreeRef<'_, T>) {
        self.toks.extend_from_slice(t.toks);
        self.vals.extend_from_slice(t.vals);
    }

    /// Appends the flat tuple of `vals`; with `unwrap`, a single leaf is appended as the leaf.
    #[inline]
    pub(crate) fn push_flat(&mut self, vals: &[T], unwrap: bool) {
        if !(unwrap && vals.len() == 1) {
            self.toks.push(1 + vals.len() as Tok);
        }
        self.toks.resize(self.toks.len() + vals.len(), LEAF);
        self.vals.extend_from_slice(vals);
    }

    /// The numbers of tokens and leaves (a mark to [`Tree::truncate`] back to).
    #[inline]
    pub(crate) fn lens(&self) -> (usize, usize) {
        (self.toks.len(), self.vals.len())
    }

    /// Drops everything after the mark `lens` (from [`Tree::lens`]).
    #[inline]
    pub(crate) fn truncate(&mut self, lens: (usize, usize)) {
        self.toks.truncate(lens.0);
        self.vals.truncate(lens.1);
    }

    /// The part appended after the mark `lens`, as a borrowed (sub)tree.
    #[inline]
    pub(crate) fn since(&self, lens: (usize, usize)) -> TreeRef<'_, T> {
        TreeRef {
            toks: &self.toks[lens.0..],
            vals: &self.vals[lens.1..],
        }
    }

    /// Completes a group begun at the mark `header` by [`Tree::push_tuple`]`(0)` and followed by
    /// `count` leaves: a tuple of them, or, when `count == 1`, the single leaf itself.
    #[inline]
    pub(crate) fn finish_group(&mut self, header: (usize, usize), count: usize) {
        if count == 1 {
            self.toks.truncate(header.0);
            self.toks.push(LEAF);
        } else {
            self.toks[header.0] = 1 + count as Tok;
        }
    }

    /// Replaces the tree by a copy of `t` (only the used part is copied).
    #[inline]
    pub(crate) fn assign(&mut self, t: TreeRef<'_, T>) {
        self.clear();
        self.push_tree(t);
    }

    /// Replaces the tree by the flat tuple of `vals`; with `unwrap`, a single leaf is the leaf.
    #[inline]
    pub(crate) fn assign_flat(&mut self, vals: &[T], unwrap: bool) {
        self.vals.clear();
        self.vals.extend_from_slice(vals);
        self.set_flat_profile(unwrap);
    }

    /// The leaf storage, for writing leaves in place; the profile must be set afterwards (e.g.
    /// by [`Tree::set_flat_profile`]).
    #[inline]
    pub(crate) fn vals_mut(&mut self) -> &mut Buf<T, INLINE> {
        &mut self.vals
    }

    /// A [`Cursor`] appending to this tree, when both its arrays are inline (else `None`).
    #[inline(always)]
    pub(crate) fn cursor(&mut self) -> Option<Cursor<'_, T>> {
        let (toks, tok_len) = self.toks.inline_parts()?;
        let (vals, val_len) = self.vals.inline_parts()?;
        let (nt, nv) = (*tok_len, *val_len);
        Some(Cursor {
            toks,
            vals,
            tok_len,
            val_len,
            nt,
            nv,
            full: false,
        })
    }

    /// The leaves when there are at most [`INLINE`] of them (stored inline), else `None`.
    #[inline(always)]
    pub(crate) fn inline_leaves(&self) -> Option<&[T]> {
        self.vals.inline_slice()
    }

    /// Writes a flat tree of at most [`INLINE`] leaves in place: `build` fills the inline leaf
    /// array and returns the number `n` of leaves it wrote; the profile becomes the flat tuple of
    /// `n` leaves (with `unwrap` and `n == 1`, the leaf itself), with fixed-size stores and no
    /// length checks. On an error from `build` the tree's leaves are unspecified (the caller
    /// resets it, as [`crate::algebra`]'s `guarded` does).
    ///
    /// Pre: `build` returns `1 <= n <= INLINE` (checked in debug builds).
    #[inline(always)]
    pub(crate) fn write_flat_inline<E>(
        &mut self,
        unwrap: bool,
        build: impl FnOnce(&mut [T; INLINE]) -> Result<usize, E>,
    ) -> Result<(), E> {
        let n = build(self.vals.inline_array_mut())?;
        // `n <= INLINE` holds: `build` wrote its `n` leaves into an array of `INLINE` (with
        // bounds checks), so no clamp is needed.
        debug_assert!((1..=INLINE).contains(&n));
        self.vals.set_inline_len(n);
        let used = flat_tokens(self.toks.inline_array_mut(), n, unwrap);
        self.toks.set_inline_len(used);
        Ok(())
    }

    /// Makes the profile a flat tuple of the current leaves; with `unwrap`, a single leaf is the
    /// leaf itself.
    #[inline]
    pub(crate) fn set_flat_profile(&mut self, unwrap: bool) {
        let n = self.vals.len();
        if n <= INLINE {
            let used = flat_tokens(self.toks.inline_array_mut(), n, unwrap);
            self.toks.set_inline_len(used);
            return;
        }
        self.toks.clear();
        if !(unwrap && n == 1) {
            self.toks.push(1 + n as Tok);
        }
        self.toks.resize(self.toks.len() + n, LEAF);
    }

    /// Applies `f` to every leaf, keeping the structure.
    pub fn map<U: Copy + Default>(&self, f: impl FnMut(T) -> U) -> Tree<U> {
        Tree {
            toks: self.toks.clone(),
            vals: self.vals.iter().copied().map(f).collect(),
        }
    }

    /// Like [`Tree::map`] with a fallible function.
    pub fn try_map<U: Copy + Default, E>(
        &self,
        mut f: impl FnMut(T) -> Result<U, E>,
    ) -> Result<Tree<U>, E> {
        let mut vals = Buf::new();
        for &v in &self.vals {
            vals.push(f(v)?);
        }
        Ok(Tree {
            toks: self.toks.clone(),
            vals,
        })
    }
}

impl<'a, T: Copy + Default> TreeRef<'a, T> {
    /// Copies the subtree into an owned tree.
    #[inline]
    pub fn to_owned(self) -> Tree<T> {
        Tree {
            toks: Buf::from_slice(self.toks),
            vals: Buf::from_slice(self.vals),
        }
    }
}

impl<T: Copy + Default> Tree<T> {
    /// The tree with the pre-order `profile` ([`TreeRef::profile`]) and the leaves `vals`, or
    /// `None` when `profile` is not exactly one complete tree of `vals.len()` leaves.
    pub fn from_profile(profile: &[u32], vals: &[T]) -> Option<Self> {
        let mut pending = 1usize;
        let mut leaves = 0usize;
        for &t in profile {
            // A token after the tree is complete is not part of one tree.
            pending = pending.checked_sub(1)?;
            if t == LEAF {
                leaves += 1;
            } else {
                pending = pending.checked_add((t - 1) as usize)?;
            }
        }
        (pending == 0 && leaves == vals.len()).then(|| Tree {
            toks: Buf::from_slice(profile),
            vals: Buf::from_slice(vals),
        })
    }
}

impl<'a, T: Copy> TreeRef<'a, T> {
    /// The pre-order profile: `0` for a leaf, `1 + n` for a tuple of `n` children (what
    /// [`Tree::from_profile`] takes back, with [`TreeRef::leaf_slice`]).
    #[inline]
    pub fn profile(self) -> &'a [u32] {
        self.toks
    }
}

impl<'a, T: Copy> TreeRef<'a, T> {
    /// The pre-order profile tokens.
    #[inline]
    pub(crate) fn toks(self) -> &'a [Tok] {
        self.toks
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
pub struct Builder<T: Copy + Default> {
    tree: Tree<T>,
    open: Buf<(usize, Tok), 8>,
}

impl<T: Copy + Default> Default for Builder<T> {
    fn default() -> Self {
        Self::new()
    }
}

impl<T: Copy + Default> Builder<T> {
    /// An empty builder.
    #[inline]
    pub fn new() -> Self {
        Builder {
            tree: Tree {
                toks: Buf::new(),
                vals: Buf::new(),
            },
            open: Buf::new(),
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
