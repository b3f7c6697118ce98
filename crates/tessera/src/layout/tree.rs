//! Hierarchical tuples stored inline: a pre-order array of nodes.
//!
//! A tuple `(2,(3,4))` is stored as `[T(2), L(2), T(2), L(3), L(4)]`, where a tuple node records its
//! number of children and the number of nodes in its subtree. Up to [`INLINE`] nodes live on the
//! stack (no heap allocation), which covers every layout of rank ≤ 8 with ≤ 16 leaves.

use smallvec::SmallVec;

/// Number of nodes stored without a heap allocation.
pub const INLINE: usize = 24;

/// One node of a pre-order tree.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub(crate) enum Node<T> {
    /// A leaf value.
    Leaf(T),
    /// A tuple with `len` children whose subtree (itself included) spans `span` nodes.
    Tuple { len: u32, span: u32 },
}

/// An owned hierarchical tuple whose leaves are `T`.
#[derive(Clone, PartialEq, Eq, Hash)]
pub struct Tree<T: Copy> {
    pub(crate) nodes: SmallVec<[Node<T>; INLINE]>,
}

/// A borrowed subtree of a [`Tree`].
#[derive(Clone, Copy, Debug)]
pub struct TreeRef<'a, T> {
    nodes: &'a [Node<T>],
}

impl<T: Copy> Tree<T> {
    /// A single leaf.
    pub fn leaf(v: T) -> Self {
        let mut nodes = SmallVec::new();
        nodes.push(Node::Leaf(v));
        Tree { nodes }
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
    pub fn flat<I: IntoIterator<Item = T>>(leaves: I) -> Self {
        let mut b = Builder::new();
        b.open();
        for v in leaves {
            b.leaf(v);
        }
        b.close();
        b.finish()
    }

    /// A flat tuple of leaves, or the single leaf itself when there is exactly one
    /// (CuTe's `unwrap`).
    pub fn flat_unwrapped<I: IntoIterator<Item = T>>(leaves: I) -> Self {
        let t = Self::flat(leaves);
        if t.as_ref().rank() == 1 {
            if let Some(v) = t.as_ref().child(0).and_then(|c| c.leaf()) {
                return Tree::leaf(v);
            }
        }
        t
    }

    /// The borrowed view of the whole tree.
    pub fn as_ref(&self) -> TreeRef<'_, T> {
        TreeRef { nodes: &self.nodes }
    }

    /// Applies `f` to every leaf, keeping the structure.
    pub fn map<U: Copy>(&self, mut f: impl FnMut(T) -> U) -> Tree<U> {
        Tree {
            nodes: self
                .nodes
                .iter()
                .map(|n| match *n {
                    Node::Leaf(v) => Node::Leaf(f(v)),
                    Node::Tuple { len, span } => Node::Tuple { len, span },
                })
                .collect(),
        }
    }

    /// Like [`Tree::map`] with a fallible function.
    pub fn try_map<U: Copy, E>(&self, mut f: impl FnMut(T) -> Result<U, E>) -> Result<Tree<U>, E> {
        let mut nodes = SmallVec::with_capacity(self.nodes.len());
        for n in &self.nodes {
            nodes.push(match *n {
                Node::Leaf(v) => Node::Leaf(f(v)?),
                Node::Tuple { len, span } => Node::Tuple { len, span },
            });
        }
        Ok(Tree { nodes })
    }
}

impl<'a, T: Copy> TreeRef<'a, T> {
    /// Copies the subtree into an owned tree.
    pub fn to_owned(self) -> Tree<T> {
        Tree {
            nodes: SmallVec::from_slice(self.nodes),
        }
    }

    /// `true` when this is a single leaf.
    pub fn is_leaf(self) -> bool {
        matches!(self.nodes.first(), Some(Node::Leaf(_)))
    }

    /// The leaf value, if this is a leaf.
    pub fn leaf(self) -> Option<T> {
        match self.nodes.first() {
            Some(Node::Leaf(v)) => Some(*v),
            _ => None,
        }
    }

    /// CuTe's `rank`: 1 for a leaf, the number of children for a tuple.
    pub fn rank(self) -> usize {
        match self.nodes.first() {
            Some(Node::Tuple { len, .. }) => *len as usize,
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
    pub fn modes(self) -> Modes<'a, T> {
        match self.nodes.first() {
            Some(Node::Tuple { len, .. }) => Modes {
                rest: &self.nodes[1..],
                left: *len as usize,
            },
            _ => Modes {
                rest: self.nodes,
                left: 1,
            },
        }
    }

    /// The leaves in pre-order (left to right).
    pub fn leaves(self) -> impl Iterator<Item = T> + 'a {
        self.nodes.iter().filter_map(|n| match n {
            Node::Leaf(v) => Some(*v),
            Node::Tuple { .. } => None,
        })
    }

    /// The number of leaves.
    pub fn leaf_count(self) -> usize {
        self.nodes
            .iter()
            .filter(|n| matches!(n, Node::Leaf(_)))
            .count()
    }

    /// `true` when `self` and `other` have the same tree profile.
    pub fn congruent<U: Copy>(self, other: TreeRef<'_, U>) -> bool {
        self.nodes.len() == other.nodes.len()
            && self
                .nodes
                .iter()
                .zip(other.nodes)
                .all(|(a, b)| match (a, b) {
                    (Node::Leaf(_), Node::Leaf(_)) => true,
                    (Node::Tuple { len: l1, .. }, Node::Tuple { len: l2, .. }) => l1 == l2,
                    _ => false,
                })
    }
}

/// Iterator over the modes of a [`TreeRef`].
pub struct Modes<'a, T> {
    rest: &'a [Node<T>],
    left: usize,
}

impl<'a, T: Copy> Iterator for Modes<'a, T> {
    type Item = TreeRef<'a, T>;
    fn next(&mut self) -> Option<Self::Item> {
        if self.left == 0 || self.rest.is_empty() {
            return None;
        }
        self.left -= 1;
        let span = match self.rest[0] {
            Node::Leaf(_) => 1,
            Node::Tuple { span, .. } => span as usize,
        };
        let (head, tail) = self.rest.split_at(span.min(self.rest.len()));
        self.rest = tail;
        Some(TreeRef { nodes: head })
    }
    fn size_hint(&self) -> (usize, Option<usize>) {
        (self.left, Some(self.left))
    }
}

impl<T: Copy> ExactSizeIterator for Modes<'_, T> {}

/// Incremental construction of a [`Tree`] in pre-order.
pub struct Builder<T: Copy> {
    nodes: SmallVec<[Node<T>; INLINE]>,
    open: SmallVec<[(usize, u32); 8]>,
}

impl<T: Copy> Default for Builder<T> {
    fn default() -> Self {
        Self::new()
    }
}

impl<T: Copy> Builder<T> {
    /// An empty builder.
    pub fn new() -> Self {
        Builder {
            nodes: SmallVec::new(),
            open: SmallVec::new(),
        }
    }

    fn count_child(&mut self) {
        if let Some(top) = self.open.last_mut() {
            top.1 += 1;
        }
    }

    /// Opens a tuple.
    pub fn open(&mut self) {
        self.count_child();
        self.open.push((self.nodes.len(), 0));
        self.nodes.push(Node::Tuple { len: 0, span: 0 });
    }

    /// Closes the innermost open tuple.
    pub fn close(&mut self) {
        if let Some((start, len)) = self.open.pop() {
            let span = (self.nodes.len() - start) as u32;
            self.nodes[start] = Node::Tuple { len, span };
        }
    }

    /// Appends a leaf.
    pub fn leaf(&mut self, v: T) {
        self.count_child();
        self.nodes.push(Node::Leaf(v));
    }

    /// Appends a whole subtree.
    pub fn push(&mut self, t: TreeRef<'_, T>) {
        self.count_child();
        self.nodes.extend_from_slice(t.nodes);
    }

    /// Appends the modes of `t` (a leaf is appended as itself): CuTe's `tuple_cat` of a part.
    pub fn push_modes(&mut self, t: TreeRef<'_, T>) {
        for m in t.modes() {
            self.push(m);
        }
    }

    /// The finished tree. Unclosed tuples are closed.
    pub fn finish(mut self) -> Tree<T> {
        while !self.open.is_empty() {
            self.close();
        }
        Tree { nodes: self.nodes }
    }
}
