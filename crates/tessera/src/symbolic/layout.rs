//! Symbolic layouts: CuTe layouts whose shape and stride leaves are [`Poly`] expressions.

use super::expr::{Item, Poly, Reader};
use super::facts::Assignment;
use super::SymError;
use crate::layout::Layout;
use std::fmt;

/// A node of a symbolic layout: a leaf mode `shape:stride` or a tuple of nodes.
#[derive(Clone, Debug, PartialEq, Eq, Hash)]
pub enum Node {
    /// A leaf mode.
    Leaf(Poly, Poly),
    /// A tuple of modes.
    Tuple(Vec<Node>),
}

/// A layout with symbolic leaves, e.g. `(M,K):(K,1)`.
#[derive(Clone, Debug, PartialEq, Eq, Hash)]
pub struct SymLayout {
    /// The root node.
    pub root: Node,
}

impl Node {
    /// Leaves in order.
    ///
    /// Pre: none. Post: colexicographic leaf order. Example: `((2,M),K)` has 3 leaves.
    pub fn leaves(&self) -> Vec<(Poly, Poly)> {
        let mut v = Vec::with_capacity(self.leaf_count());
        self.push_leaves(&mut v);
        v
    }

    fn push_leaves(&self, v: &mut Vec<(Poly, Poly)>) {
        match self {
            Node::Leaf(s, d) => v.push((s.clone(), d.clone())),
            Node::Tuple(ms) => ms.iter().for_each(|m| m.push_leaves(v)),
        }
    }

    /// The modes (a leaf is its own single mode).
    ///
    /// Pre: none. Post: rank-many nodes. Example: `(M,K)` gives `M`, `K`.
    pub fn modes(&self) -> Vec<Node> {
        match self {
            Node::Leaf(..) => vec![self.clone()],
            Node::Tuple(ms) => ms.clone(),
        }
    }

    fn write(&self, f: &mut fmt::Formatter<'_>, stride: bool) -> fmt::Result {
        match self {
            Node::Leaf(s, d) => write!(f, "{}", if stride { d } else { s }),
            Node::Tuple(ms) => {
                f.write_str("(")?;
                for (i, m) in ms.iter().enumerate() {
                    if i > 0 {
                        f.write_str(",")?;
                    }
                    m.write(f, stride)?;
                }
                f.write_str(")")
            }
        }
    }

    fn subs_text(&self, env: &Assignment, out: &mut (String, String)) -> Result<(), SymError> {
        match self {
            Node::Leaf(s, d) => {
                out.0.push_str(&s.eval(env)?.to_string());
                out.1.push_str(&d.eval(env)?.to_string());
            }
            Node::Tuple(ms) => {
                out.0.push('(');
                out.1.push('(');
                for (i, m) in ms.iter().enumerate() {
                    if i > 0 {
                        out.0.push(',');
                        out.1.push(',');
                    }
                    m.subs_text(env, out)?;
                }
                out.0.push(')');
                out.1.push(')');
            }
        }
        Ok(())
    }

    /// Names occurring in the node.
    ///
    /// Pre: none. Post: appends each name once. Example: `(M,K):(K,1)` gives `M, K`.
    pub fn names(&self, out: &mut Vec<String>) {
        for (s, d) in self.leaves() {
            s.names(out);
            d.names(out);
        }
    }

    /// The number of leaves.
    ///
    /// Pre: none. Post: >= 1 for a non-empty tuple. Example: `(M,(2,K))` has 3.
    pub fn leaf_count(&self) -> usize {
        match self {
            Node::Leaf(..) => 1,
            Node::Tuple(ms) => ms.iter().map(|m| m.leaf_count()).sum(),
        }
    }
}

impl SymLayout {
    /// A layout from a root node.
    ///
    /// Pre: none. Post: wraps `root`. Example: `SymLayout::leaf(M, 1)` is `M:1`.
    pub fn new(root: Node) -> SymLayout {
        SymLayout { root }
    }

    /// The rank-1 layout `s:d`.
    ///
    /// Pre: none. Post: a leaf. Example: `SymLayout::leaf(Poly::name("M"), Poly::constant(1))`.
    pub fn leaf(s: Poly, d: Poly) -> SymLayout {
        SymLayout {
            root: Node::Leaf(s, d),
        }
    }

    /// Names occurring in the layout, in order of first occurrence.
    ///
    /// Pre: none. Post: each once. Example: `(M,K):(K,1)` gives `M, K`.
    pub fn names(&self) -> Vec<String> {
        let mut v = Vec::new();
        self.root.names(&mut v);
        v
    }

    /// Instantiates every name with its value: the integer layout.
    ///
    /// Pre: every name has a value. Post: the integer layout, or an error when a leaf is not a
    /// valid integer shape (`< 1`) or a name has no value.
    /// Example: `(M,K):(K,1)` at `M = 4, K = 8` is `(4,8):(8,1)`.
    pub fn subs(&self, env: &Assignment) -> Result<Layout, SymError> {
        if matches!(&self.root, Node::Tuple(v) if v.is_empty()) {
            // The empty layout (a slice fixing every mode), which has no text form to read.
            return Ok(Layout::flat(std::iter::empty()));
        }
        let mut t = (String::new(), String::new());
        self.root.subs_text(env, &mut t)?;
        format!("{}:{}", t.0, t.1)
            .parse::<Layout>()
            .map_err(SymError::Algebra)
    }
}

impl fmt::Display for SymLayout {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        self.root.write(f, false)?;
        f.write_str(":")?;
        self.root.write(f, true)
    }
}

fn congruent(shape: Item, stride: Item, col: usize) -> Result<Node, SymError> {
    match (shape, stride) {
        (Item::Expr(s), Item::Expr(d)) => Ok(Node::Leaf(s, d)),
        (Item::Tuple(ss), Item::Tuple(ds)) if ss.len() == ds.len() => Ok(Node::Tuple(
            ss.into_iter()
                .zip(ds)
                .map(|(s, d)| congruent(s, d, col))
                .collect::<Result<_, _>>()?,
        )),
        _ => Err(SymError::Parse {
            column: col + 1,
            message: "the stride is not congruent to the shape".into(),
        }),
    }
}

/// Column-major compact strides for a shape item (CuTe's `make_layout(shape)`).
fn compact(shape: Item, acc: &mut Poly) -> Result<Node, SymError> {
    match shape {
        Item::Expr(s) => {
            let d = acc.clone();
            *acc = acc.mul(&s)?;
            Ok(Node::Leaf(s, d))
        }
        Item::Tuple(ss) => Ok(Node::Tuple(
            ss.into_iter()
                .map(|s| compact(s, acc))
                .collect::<Result<_, _>>()?,
        )),
    }
}

/// Reads a layout at the reader's position: `shape:stride`, or a shape alone (compact
/// column-major strides).
pub(crate) fn read_layout(r: &mut Reader<'_>) -> Result<SymLayout, SymError> {
    let shape = r.item()?;
    if r.eat(b':') {
        let col = r.pos;
        let stride = r.item()?;
        Ok(SymLayout::new(congruent(shape, stride, col)?))
    } else {
        let mut acc = Poly::constant(1);
        Ok(SymLayout::new(compact(shape, &mut acc)?))
    }
}

impl std::str::FromStr for SymLayout {
    type Err = SymError;
    /// Parses CuTe notation with expression leaves: `(M,K):(K,1)`.
    fn from_str(s: &str) -> Result<SymLayout, SymError> {
        let mut r = Reader::new(s);
        let l = read_layout(&mut r)?;
        if !r.at_end() {
            return Err(r.unexpected());
        }
        Ok(l)
    }
}
