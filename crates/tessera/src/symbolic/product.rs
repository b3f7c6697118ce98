//! The rest of the products over symbolic leaves (`tiled_product`, `flat_product`, the
//! rank-sensitive `blocked_product` / `raked_product`, `tile_to_shape`) and slicing with `_`.
//!
//! Each is CuTe's algorithm on [`SymLayout`]s, built on the symbolic complement and
//! composition of [`super::ops`], so every condition is decided by the [`Ctx`] (proved,
//! refuted, or a guard returned with the result).

use super::expr::{Item, Poly, Reader};
use super::facts::Pred;
use super::layout::{Node, SymLayout};
use super::ops::{self, arrange, c, size_node, Tiler};
use super::{Ctx, SymError};

/// `tiled_product(A, T)`: mode 1 of [`ops::zipped_product`] unpacked, `((A…), rest0, rest1, …)`.
///
/// Pre/Post: as [`ops::logical_product`]. Example: `tiled_product((M,K):(1,M),(2,3):(1,2))`
/// is `((M,K),2,3):((1,M),K*M,2*K*M)` (guards `M != 1`, `K != 1`).
pub fn tiled_product(ctx: &mut Ctx, a: &SymLayout, t: &Tiler) -> Result<SymLayout, SymError> {
    Ok(arrange(ops::zipped_product(ctx, a, t)?, false))
}

/// `flat_product(A, T)`: both modes of [`ops::zipped_product`] unpacked.
///
/// Pre/Post: as [`ops::logical_product`]. Example: `flat_product((M,K):(1,M),(2,3):(1,2))` is
/// `(M,K,2,3):(1,M,K*M,2*K*M)` (guards `M != 1`, `K != 1`).
pub fn flat_product(ctx: &mut Ctx, a: &SymLayout, t: &Tiler) -> Result<SymLayout, SymError> {
    Ok(arrange(ops::zipped_product(ctx, a, t)?, true))
}

/// The rank of a node (a leaf has rank 1).
pub(crate) fn rank(n: &Node) -> usize {
    match n {
        Node::Leaf(..) => 1,
        Node::Tuple(ms) => ms.len(),
    }
}

/// CuTe's `append<R>(L)`: pads with `1:0` modes to rank `r`.
fn pad(n: &Node, r: usize) -> Node {
    if rank(n) >= r {
        return n.clone();
    }
    let mut ms = n.modes();
    while ms.len() < r {
        ms.push(Node::Leaf(c(1), c(0)));
    }
    Node::Tuple(ms)
}

fn zip_pair(a: Node, b: Node, op: &'static str) -> Result<Node, SymError> {
    match (a, b) {
        (a @ Node::Leaf(..), b) => Ok(Node::Tuple(vec![Node::Tuple(vec![a, b])])),
        (Node::Tuple(xs), Node::Tuple(ys)) if xs.len() == ys.len() => Ok(Node::Tuple(
            xs.into_iter()
                .zip(ys)
                .map(|(x, y)| Node::Tuple(vec![x, y]))
                .collect(),
        )),
        (a, b) => Err(SymError::Unsupported {
            op,
            what: format!(
                "cannot zip a mode of rank {} with one of rank {}",
                rank(&a),
                rank(&b)
            ),
        }),
    }
}

fn rank_sensitive(
    ctx: &mut Ctx,
    a: &Node,
    b: &Node,
    raked: bool,
    op: &'static str,
) -> Result<SymLayout, SymError> {
    let r = rank(a).max(rank(b));
    let (ap, bp) = (pad(a, r), pad(b, r));
    let m = size_node(&ap)?.mul(&ops::cosize_node(ctx, &bp)?)?;
    let rest = ops::complement(ctx, &SymLayout::new(ap.clone()), Some(&m))?;
    let comp = ops::composition(ctx, &rest, &SymLayout::new(bp))?;
    Ok(SymLayout::new(if raked {
        zip_pair(comp.root, ap, op)?
    } else {
        zip_pair(ap, comp.root, op)?
    }))
}

/// `blocked_product(A, B)`: B copies of the block A, mode i being `(A_i, B_i*)` (both padded to
/// the larger rank with `1:0`).
///
/// Pre: the obligations of complement (A in `size(A)·cosize(B)`) and composition (decided or
/// guarded). Post: rank `max(rank A, rank B)`. Example: `blocked_product((M,4):(1,M),(2,3))` is
/// `((M,2),(4,3)):((1,4*M),(M,8*M))`.
pub fn blocked_product(ctx: &mut Ctx, a: &SymLayout, b: &SymLayout) -> Result<SymLayout, SymError> {
    rank_sensitive(ctx, &a.root, &b.root, false, "blocked_product")
}

/// `raked_product(A, B)`: like [`blocked_product`] with the copies interleaved, mode i being
/// `(B_i*, A_i)`.
///
/// Pre/Post: as [`blocked_product`]. Example: `raked_product((M,4):(1,M),(2,3))` is
/// `((2,M),(3,4)):((4*M,1),(8*M,M))`.
pub fn raked_product(ctx: &mut Ctx, a: &SymLayout, b: &SymLayout) -> Result<SymLayout, SymError> {
    rank_sensitive(ctx, &a.root, &b.root, true, "raked_product")
}

fn item_modes(it: &Item) -> Vec<&Item> {
    match it {
        Item::Expr(_) => vec![it],
        Item::Tuple(v) => v.iter().collect(),
    }
}

fn item_leaves(it: &Item) -> Vec<&Poly> {
    match it {
        Item::Expr(p) => vec![p],
        Item::Tuple(v) => v.iter().flat_map(item_leaves).collect(),
    }
}

fn item_product(it: &Item) -> Result<Poly, SymError> {
    match it {
        Item::Expr(p) => Ok(p.clone()),
        Item::Tuple(v) => {
            let mut acc = c(1);
            for x in v {
                acc = acc.mul(&item_product(x)?)?;
            }
            Ok(acc)
        }
    }
}

/// `tile_to_shape(block, shape, order)`: repeats `block` (a [`blocked_product`] by the compact
/// layout of the repeat counts, column-major or ordered by the integer `order`) to the target
/// shape.
///
/// Pre: the target's leaves are `>= 1`; `rank(block) <= rank(shape)`; each padded block mode's size divides the target mode's
/// size (decided or guarded; refuted → error); `order` is a flat tuple of distinct integers, one
/// per mode. Post: each mode of the result has the target mode's size.
/// Example: `tile_to_shape((2,4):(1,2),(M,N))` is `((2,M/2),(4,N/4)):((1,8),(2,8*(M/2)))` under
/// `M % 2 == 0`, `N % 4 == 0` (without those facts, they are its guards).
pub fn tile_to_shape(
    ctx: &mut Ctx,
    block: &SymLayout,
    shape: &Item,
    order: Option<&Item>,
) -> Result<SymLayout, SymError> {
    const OP: &str = "tile_to_shape";
    let targets = item_modes(shape);
    let r = targets.len();
    if rank(&block.root) > r {
        return Err(SymError::Unsupported {
            op: OP,
            what: format!(
                "the block {block} has rank {} but the target shape has rank {r}",
                rank(&block.root)
            ),
        });
    }
    for s in item_leaves(shape) {
        ctx.require(Pred::ge(s.clone(), c(1)), OP)?;
    }
    let padded = pad(&block.root, r);
    let mut reps: Vec<Poly> = Vec::with_capacity(r);
    for (bm, tm) in padded.modes().iter().zip(&targets) {
        let (bs, ts) = (size_node(bm)?, item_product(tm)?);
        ctx.require(Pred::divides(bs.clone(), ts.clone()), OP)?;
        reps.push(ts.floor_div(&bs)?);
    }
    let ord: Vec<i64> = match order {
        None => (0..r as i64).collect(),
        Some(o) => {
            let v: Option<Vec<i64>> = item_modes(o)
                .iter()
                .map(|x| match x {
                    Item::Expr(p) => p.as_const(),
                    Item::Tuple(_) => None,
                })
                .collect();
            match v {
                Some(v) if v.len() == r => {
                    let mut s = v.clone();
                    s.sort_unstable();
                    s.dedup();
                    if s.len() != r {
                        return Err(SymError::Unsupported {
                            op: OP,
                            what: "an order with repeated values".into(),
                        });
                    }
                    v
                }
                _ => {
                    return Err(SymError::Unsupported {
                        op: OP,
                        what: "the order must be a flat tuple of integers, one per mode".into(),
                    })
                }
            }
        }
    };
    let mut tiler = Vec::with_capacity(r);
    for (i, s) in reps.iter().enumerate() {
        let mut d = c(1);
        for (j, t) in reps.iter().enumerate() {
            if ord[j] < ord[i] {
                d = d.mul(t)?;
            }
        }
        tiler.push(Node::Leaf(s.clone(), d));
    }
    rank_sensitive(ctx, &padded, &Node::Tuple(tiler), false, "tile_to_shape")
}

/// A coordinate for slicing: `_` keeps a mode, an expression fixes it.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum SliceCrd {
    /// `_`: keep the mode.
    Under,
    /// A fixed coordinate (dropped from the result; must lie in the mode).
    At(Poly),
    /// Mode by mode.
    Tuple(Vec<SliceCrd>),
}

impl SliceCrd {
    /// Names occurring in the fixed coordinates.
    ///
    /// Pre: none. Post: appends each once. Example: `(_,j)` gives `j`.
    pub fn names(&self, out: &mut Vec<String>) {
        match self {
            SliceCrd::Under => {}
            SliceCrd::At(p) => p.names(out),
            SliceCrd::Tuple(v) => v.iter().for_each(|x| x.names(out)),
        }
    }
}

impl std::fmt::Display for SliceCrd {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match self {
            SliceCrd::Under => f.write_str("_"),
            SliceCrd::At(p) => write!(f, "{p}"),
            SliceCrd::Tuple(v) => super::expr::write_tuple(f, v),
        }
    }
}

/// Reads a slice coordinate: `_`, an expression, or a tuple of them.
pub(crate) fn read_slice_crd(r: &mut Reader<'_>) -> Result<SliceCrd, SymError> {
    if r.peek() == Some(b'_') {
        let save = r.pos;
        r.pos += 1;
        match r.peek() {
            Some(b',') | Some(b')') | None => return Ok(SliceCrd::Under),
            _ => r.pos = save,
        }
    }
    if r.peek() == Some(b'(') {
        // A tuple, unless it is a parenthesized expression.
        let save = r.pos;
        if let Ok(Item::Expr(p)) = r.item() {
            if matches!(r.peek(), Some(b',') | Some(b')') | None) {
                return Ok(SliceCrd::At(p));
            }
        }
        r.pos = save;
        r.expect(b'(')?;
        let mut v = vec![read_slice_crd(r)?];
        while r.eat(b',') {
            v.push(read_slice_crd(r)?);
        }
        r.expect(b')')?;
        return Ok(SliceCrd::Tuple(v));
    }
    let col = r.pos;
    match r.item()? {
        Item::Expr(p) => Ok(SliceCrd::At(p)),
        Item::Tuple(_) => Err(SymError::Parse {
            column: col + 1,
            message: "expected a slice coordinate".into(),
        }),
    }
}

fn slice_domain(ctx: &mut Ctx, crd: &SliceCrd, n: &Node) -> Result<(), SymError> {
    match (crd, n) {
        (SliceCrd::Under, _) => Ok(()),
        (SliceCrd::At(i), _) => {
            ctx.require(Pred::ge(i.clone(), c(0)), "slice")?;
            ctx.require(Pred::ge(size_node(n)?.sub(&c(1))?, i.clone()), "slice")
        }
        (SliceCrd::Tuple(cs), Node::Tuple(ms)) if cs.len() == ms.len() => {
            for (ci, mi) in cs.iter().zip(ms) {
                slice_domain(ctx, ci, mi)?;
            }
            Ok(())
        }
        _ => Ok(()),
    }
}

fn slice_into(crd: &[SliceCrd], ms: &[Node], out: &mut Vec<Node>) -> Result<(), SymError> {
    if crd.len() != ms.len() {
        return Err(SymError::Unsupported {
            op: "slice",
            what: format!(
                "the coordinate has rank {} but the layout mode has rank {}",
                crd.len(),
                ms.len()
            ),
        });
    }
    for (ci, mi) in crd.iter().zip(ms) {
        match (ci, mi) {
            (SliceCrd::Under, m) => out.push(m.clone()),
            (SliceCrd::At(_), _) => {}
            (SliceCrd::Tuple(cs), Node::Tuple(sub)) => slice_into(cs, sub, out)?,
            (SliceCrd::Tuple(cs), Node::Leaf(..)) => {
                return Err(SymError::Unsupported {
                    op: "slice",
                    what: format!(
                        "the coordinate has rank {} but the layout mode has rank 1",
                        cs.len()
                    ),
                })
            }
        }
    }
    Ok(())
}

/// `slice(coord, L)`: the modes of L paired with `_`, one level flattened per tuple level
/// (CuTe's `slice`); fixed entries may be symbolic (`(_,j)`).
///
/// Pre: each fixed entry lies in its mode (`0 <= c < size`, decided or guarded); the
/// coordinate's tuple ranks match L's. Post: the sliced layout (no offset).
/// Example: `slice((_,j),(M,K):(K,1))` is `(M):(K)` with the guard `K > j` (`j >= 0` is
/// implicit: a name used only in coordinates is `>= 0`).
pub fn slice(ctx: &mut Ctx, crd: &SliceCrd, l: &SymLayout) -> Result<SymLayout, SymError> {
    slice_domain(ctx, crd, &l.root)?;
    match crd {
        SliceCrd::Under => Ok(l.clone()),
        SliceCrd::At(_) => Ok(SymLayout::new(Node::Tuple(Vec::new()))),
        SliceCrd::Tuple(cs) => {
            let Node::Tuple(ms) = &l.root else {
                return Err(SymError::Unsupported {
                    op: "slice",
                    what: format!(
                        "the coordinate has rank {} but the layout mode has rank 1",
                        cs.len()
                    ),
                });
            };
            let mut out = Vec::new();
            slice_into(cs, ms, &mut out)?;
            Ok(SymLayout::new(Node::Tuple(out)))
        }
    }
}
