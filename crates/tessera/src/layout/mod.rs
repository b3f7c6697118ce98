//! `IntTuple`, `Layout` and colexicographic coordinates, as CuTe defines them.
//!
//! A [`Layout`] is a pair of congruent tuples `shape:stride` with every shape ≥ 1 and signed
//! strides. It is a function from coordinates to indices: `L(c) = Σ c_i · d_i`. An integer
//! coordinate is split colexicographically (leftmost mode fastest) and the last mode is unbounded,
//! so every layout is a function on all integers (negative ones by `L(-i) = -L(i)`, as C++'s
//! truncating division gives).

pub mod buf;
pub mod swizzle;
pub mod tree;
pub mod value;

use crate::error::{arith, Error, Result};
pub use swizzle::{AnyLayout, ComposedLayout, Swizzle};
pub use tree::{Builder, Tree, TreeRef};
pub use value::Value;

/// A hierarchical tuple of integers: a shape, a stride or a coordinate.
pub type IntTuple = Tree<i64>;

/// A coordinate that may hold `_` (written `None`) for slicing.
pub type SliceCoord = Tree<Option<i64>>;

/// One leaf mode of a layout: an extent and a stride.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Hash)]
pub struct Mode {
    /// The extent (≥ 1).
    pub shape: i64,
    /// The stride (any sign).
    pub stride: i64,
}

impl Mode {
    /// `shape:stride`.
    pub const fn new(shape: i64, stride: i64) -> Self {
        Mode { shape, stride }
    }
}

/// A CuTe layout `shape:stride`.
///
/// Invariants: shape and stride are congruent (one tree of [`Mode`]s), every shape is ≥ 1.
#[derive(Clone, PartialEq, Eq, Hash)]
pub struct Layout {
    pub(crate) t: Tree<Mode>,
}

impl std::fmt::Debug for Layout {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        write!(f, "{self}")
    }
}

impl Default for Layout {
    /// `1:0`, the layout of one element; a convenient output buffer for the `_into` operations.
    fn default() -> Self {
        Layout::leaf(Mode::new(1, 0))
    }
}

/// CuTe's `size` of a layout given by its leaves: the product of the extents (checked; a
/// subtree's leaves give the size of that mode, with no layout built).
///
/// Pre: none. Post: as [`Layout::size`]; errors on overflow.
#[inline(always)]
pub(crate) fn size_of(leaves: &[Mode]) -> Result<i64> {
    leaves
        .iter()
        .try_fold(1i64, |acc, m| arith::mul(acc, m.shape))
}

impl Layout {
    /// Resets `self` to `1:0` (an `_into` operation's output after an error).
    #[inline]
    pub(crate) fn reset(&mut self) {
        self.t.assign_flat(&[Mode::new(1, 0)], true);
    }

    /// Makes `self` a copy of `other`, reusing `self`'s storage (only the used part is copied).
    #[inline]
    pub fn assign(&mut self, other: &Layout) {
        self.t.assign(other.t.as_ref());
    }

    /// The layout `shape:stride`.
    ///
    /// Pre: `shape` and `stride` are congruent; every shape is ≥ 1.
    /// Post: `self.shape() == shape`, `self.stride() == stride`.
    ///
    /// ```
    /// use tessera::layout::{Layout, IntTuple};
    /// let l: Layout = "(2,(2,2)):(4,(1,2))".parse().unwrap();
    /// assert_eq!(l.size().unwrap(), 8);
    /// ```
    pub fn new(shape: &IntTuple, stride: &IntTuple) -> Result<Layout> {
        if !shape.as_ref().congruent(stride.as_ref()) {
            return Err(Error::NotCongruent {
                what: "layout shape and stride".into(),
                left: shape.to_string(),
                right: stride.to_string(),
            });
        }
        if let Some(bad) = shape.as_ref().leaves().find(|&s| s < 1) {
            return Err(Error::NonPositiveShape {
                value: bad,
                context: format!("shape {shape}"),
            });
        }
        let mut strides = stride.as_ref().leaves();
        let t = shape.map(|s| Mode::new(s, strides.next().unwrap_or(0)));
        Ok(Layout { t })
    }

    /// The rank-1 layout `shape:stride` with integer shape and stride.
    ///
    /// Pre: `shape >= 1`.
    pub fn mode(shape: i64, stride: i64) -> Result<Layout> {
        if shape < 1 {
            return Err(Error::NonPositiveShape {
                value: shape,
                context: format!("{shape}:{stride}"),
            });
        }
        Ok(Layout::leaf(Mode::new(shape, stride)))
    }

    pub(crate) fn leaf(m: Mode) -> Layout {
        Layout { t: Tree::leaf(m) }
    }

    pub(crate) fn from_tree(t: Tree<Mode>) -> Layout {
        Layout { t }
    }

    /// The layout with the pre-order profile `profile` and the leaf modes `leaves`: the inverse
    /// of `(l.tree().profile(), l.tree().leaf_slice())`, for storing layouts compactly.
    ///
    /// Pre: `profile` is one complete tree of `leaves.len()` leaves; every shape ≥ 1.
    /// Post: `tree().profile() == profile` and `tree().leaf_slice() == leaves`.
    ///
    /// ```
    /// use tessera::layout::Layout;
    /// let l: Layout = "(2,(2,2)):(4,(1,2))".parse().unwrap();
    /// let t = l.tree();
    /// assert_eq!(Layout::from_profile(t.profile(), t.leaf_slice()).unwrap(), l);
    /// assert!(Layout::from_profile(&[3, 0], t.leaf_slice()).is_err());
    /// ```
    pub fn from_profile(profile: &[u32], leaves: &[Mode]) -> Result<Layout> {
        if let Some(m) = leaves.iter().find(|m| m.shape < 1) {
            return Err(Error::NonPositiveShape {
                value: m.shape,
                context: "a layout from its profile".into(),
            });
        }
        Tree::from_profile(profile, leaves)
            .map(|t| Layout { t })
            .ok_or_else(|| Error::NotCongruent {
                what: "layout profile and leaves".into(),
                left: format!("{profile:?}"),
                right: format!("{} leaves", leaves.len()),
            })
    }

    /// A flat layout of the given modes (a rank-1 tuple stays a tuple).
    pub(crate) fn flat<I: IntoIterator<Item = Mode>>(modes: I) -> Layout {
        Layout {
            t: Tree::flat(modes),
        }
    }

    /// A flat layout, unwrapped to an integer layout when it has one mode (CuTe's `unwrap`).
    pub(crate) fn flat_unwrapped<I: IntoIterator<Item = Mode>>(modes: I) -> Layout {
        Layout {
            t: Tree::flat_unwrapped(modes),
        }
    }

    /// CuTe's `make_layout(shape)`: compact column-major strides; a size-1 mode gets stride 0
    /// (the all-static C++ rule).
    ///
    /// Pre: every shape ≥ 1. Post: `self.shape() == shape`, compact and injective.
    pub fn compact(shape: &IntTuple) -> Result<Layout> {
        let stride = compact_col_major(shape, 1)?;
        Layout::new(shape, &stride)
    }

    /// CuTe's `make_layout(L0, L1, ...)`: the layouts as the modes of one layout.
    pub fn concat<'a, I: IntoIterator<Item = &'a Layout>>(layouts: I) -> Layout {
        Layout {
            t: Tree::tuple(layouts.into_iter().map(|l| l.t.as_ref())),
        }
    }

    /// The borrowed tree of modes.
    pub fn tree(&self) -> TreeRef<'_, Mode> {
        self.t.as_ref()
    }

    /// The shape tuple.
    pub fn shape(&self) -> IntTuple {
        self.t.map(|m| m.shape)
    }

    /// The stride tuple.
    pub fn stride(&self) -> IntTuple {
        self.t.map(|m| m.stride)
    }

    /// The leaf modes, left to right.
    pub fn leaves(&self) -> impl Iterator<Item = Mode> + '_ {
        self.t.as_ref().leaves()
    }

    /// CuTe's `rank`.
    pub fn rank(&self) -> usize {
        self.t.as_ref().rank()
    }

    /// CuTe's `depth`.
    pub fn depth(&self) -> usize {
        self.t.as_ref().depth()
    }

    /// `true` for an integer layout `s:d` (not a tuple).
    pub fn is_leaf(&self) -> bool {
        self.t.as_ref().is_leaf()
    }

    /// Mode `i` as a layout (`layout<i>` in CuTe). Mode 0 of an integer layout is itself.
    pub fn mode_at(&self, i: usize) -> Option<Layout> {
        self.t.as_ref().child(i).map(|c| Layout { t: c.to_owned() })
    }

    /// The modes as layouts.
    pub fn modes(&self) -> impl ExactSizeIterator<Item = Layout> + '_ {
        self.t.as_ref().modes().map(|c| Layout { t: c.to_owned() })
    }

    /// CuTe's `size`: the product of the shapes.
    ///
    /// Post: `size >= 1`. Errors on overflow.
    pub fn size(&self) -> Result<i64> {
        size_of(self.t.as_ref().leaf_slice())
    }

    /// CuTe C++'s `cosize`: `Σ (s_i − 1)·|d_i| + 1`, one past the largest index reached in absolute
    /// value.
    ///
    /// ```
    /// let l: tessera::Layout = "4:-1".parse().unwrap();
    /// assert_eq!(l.cosize().unwrap(), 4);
    /// ```
    #[inline]
    pub fn cosize(&self) -> Result<i64> {
        let mut acc = 1i64;
        for m in self.leaves() {
            acc = arith::add(acc, arith::mul(m.shape - 1, arith::abs(m.stride)?)?)?;
        }
        Ok(acc)
    }

    /// CuTe's `flatten`: all leaves as one flat layout (an integer layout stays as it is).
    pub fn flatten(&self) -> Layout {
        if self.is_leaf() {
            return self.clone();
        }
        Layout::flat(self.leaves())
    }

    /// `L(i)` for an integer index: colexicographic split, last mode unbounded;
    /// `L(-i) = -L(i)`.
    ///
    /// ```
    /// let l: tessera::Layout = "(3,(2,3)):(3,(12,1))".parse().unwrap();
    /// assert_eq!(l.eval(20).unwrap(), 9);
    /// ```
    pub fn eval(&self, i: i64) -> Result<i64> {
        eval_leaves(self.t.as_ref(), i)
    }

    /// `L(c)` for a coordinate congruent to a prefix of the shape (an integer where the shape has
    /// a tuple is split colexicographically).
    ///
    /// Pre: tuple ranks match; no tuple coordinate where the shape is an integer.
    pub fn crd2idx(&self, coord: &IntTuple) -> Result<i64> {
        crd2idx_ref(coord.as_ref(), self.t.as_ref())
    }
}

/// `L(i)` over the leaves of `t` (colexicographic; last leaf unbounded; odd extension to i < 0).
pub(crate) fn eval_leaves(t: TreeRef<'_, Mode>, i: i64) -> Result<i64> {
    if i < 0 {
        let v = eval_leaves(t, i.checked_neg().ok_or_else(|| Error::overflow("-i"))?)?;
        return Ok(-v);
    }
    let n = t.leaf_count();
    let mut rest = i;
    let mut acc = 0i64;
    for (k, m) in t.leaves().enumerate() {
        let digit = if k + 1 == n {
            rest
        } else {
            let d = rest % m.shape;
            rest /= m.shape;
            d
        };
        acc = arith::add(acc, arith::mul(digit, m.stride)?)?;
    }
    Ok(acc)
}

fn crd2idx_ref(c: TreeRef<'_, i64>, l: TreeRef<'_, Mode>) -> Result<i64> {
    match c.leaf() {
        Some(i) => eval_leaves(l, i),
        None => {
            if l.is_leaf() {
                return Err(Error::RankMismatch {
                    op: "crd2idx",
                    detail: format!("tuple coordinate {} for an integer shape", c.to_owned()),
                });
            }
            if c.rank() != l.rank() {
                return Err(Error::RankMismatch {
                    op: "crd2idx",
                    detail: format!(
                        "coordinate {} has rank {} but the shape has rank {}",
                        c.to_owned(),
                        c.rank(),
                        l.rank()
                    ),
                });
            }
            let mut acc = 0i64;
            for (ci, li) in c.modes().zip(l.modes()) {
                acc = arith::add(acc, crd2idx_ref(ci, li)?)?;
            }
            Ok(acc)
        }
    }
}

/// CuTe's `idx2crd(i, shape)`: the colexicographic coordinate of `i`, congruent to `shape`; the
/// last mode takes the remaining quotient.
///
/// Pre: `i >= 0`; shapes ≥ 1.
///
/// ```
/// use tessera::layout::{idx2crd, IntTuple};
/// let s: IntTuple = "(3,(2,3))".parse().unwrap();
/// assert_eq!(idx2crd(16, &s).unwrap().to_string(), "(1,(1,2))");
/// ```
pub fn idx2crd(i: i64, shape: &IntTuple) -> Result<IntTuple> {
    if i < 0 {
        return Err(Error::OutOfDomain {
            op: "idx2crd",
            detail: format!("index {i} is negative"),
        });
    }
    check_shape(shape)?;
    let mut b = Builder::new();
    idx2crd_into(i, shape.as_ref(), &mut b)?;
    Ok(b.finish())
}

fn idx2crd_into(i: i64, s: TreeRef<'_, i64>, b: &mut Builder<i64>) -> Result<()> {
    if s.is_leaf() {
        b.leaf(i);
        return Ok(());
    }
    b.open();
    let r = s.rank();
    let mut rest = i;
    for (k, m) in s.modes().enumerate() {
        if k + 1 == r {
            idx2crd_into(rest, m, b)?;
        } else {
            let sz = product(m)?;
            idx2crd_into(rest % sz, m, b)?;
            rest /= sz;
        }
    }
    b.close();
    Ok(())
}

/// CuTe's `crd2idx(crd, shape, stride)`.
///
/// Pre: shape and stride congruent; `crd` congruent to a prefix of `shape`.
pub fn crd2idx(crd: &IntTuple, shape: &IntTuple, stride: &IntTuple) -> Result<i64> {
    Layout::new(shape, stride)?.crd2idx(crd)
}

/// The product of the leaves (checked).
pub fn product(t: TreeRef<'_, i64>) -> Result<i64> {
    t.leaves().try_fold(1i64, arith::mul)
}

/// Every leaf of a shape must be ≥ 1.
pub(crate) fn check_shape(shape: &IntTuple) -> Result<()> {
    match shape.as_ref().leaves().find(|&s| s < 1) {
        Some(v) => Err(Error::NonPositiveShape {
            value: v,
            context: format!("shape {shape}"),
        }),
        None => Ok(()),
    }
}

/// CuTe's `compact_col_major(shape, start)`: exclusive prefix products starting at `start`,
/// congruent to `shape`; a size-1 leaf gets stride 0 (all-static C++ rule).
pub fn compact_col_major(shape: &IntTuple, start: i64) -> Result<IntTuple> {
    let mut cur = start;
    shape.try_map(|s| {
        if s == 1 {
            Ok(0)
        } else {
            let d = cur;
            cur = arith::mul(cur, s)?;
            Ok(d)
        }
    })
}

/// CuTe's `compact_row_major(shape)`: like [`compact_col_major`] from the right.
pub fn compact_row_major(shape: &IntTuple, start: i64) -> Result<IntTuple> {
    let leaves: Vec<i64> = shape.as_ref().leaves().collect();
    let mut strides = vec![0i64; leaves.len()];
    let mut cur = start;
    for k in (0..leaves.len()).rev() {
        if leaves[k] != 1 {
            strides[k] = cur;
            cur = arith::mul(cur, leaves[k])?;
        }
    }
    let mut it = strides.into_iter();
    Ok(shape.map(|_| it.next().unwrap_or(0)))
}

/// Slicing with `_`: keeps the modes paired with `_`, flattening one level per tuple level (CuTe's
/// `slice(c, L)`); `slice(_, L) == L`.
///
/// Pre: tuple ranks of `coord` and the layout match where `coord` is a tuple.
///
/// ```
/// use tessera::{Layout, layout::{slice, SliceCoord}};
/// let l: Layout = "(4,(2,3)):(1,(4,8))".parse().unwrap();
/// let c: SliceCoord = tessera::notation::parse_slice_coord("(_,(1,_))").unwrap();
/// assert_eq!(slice(&c, &l).unwrap().to_string(), "(4,3):(1,8)");
/// ```
pub fn slice(coord: &SliceCoord, layout: &Layout) -> Result<Layout> {
    match coord.as_ref().leaf() {
        Some(None) => Ok(layout.clone()),
        Some(Some(_)) => Ok(Layout::flat(std::iter::empty())),
        None => {
            let mut b = Builder::new();
            b.open();
            slice_into(coord.as_ref(), layout.tree(), &mut b)?;
            b.close();
            Ok(Layout::from_tree(b.finish()))
        }
    }
}

fn slice_into(
    c: TreeRef<'_, Option<i64>>,
    l: TreeRef<'_, Mode>,
    b: &mut Builder<Mode>,
) -> Result<()> {
    if l.is_leaf() || c.rank() != l.rank() {
        return Err(Error::RankMismatch {
            op: "slice",
            detail: format!(
                "the coordinate has rank {} but the layout mode has rank {}",
                c.rank(),
                l.rank()
            ),
        });
    }
    for (ci, li) in c.modes().zip(l.modes()) {
        match ci.leaf() {
            Some(None) => b.push(li),
            Some(Some(_)) => {}
            None => slice_into(ci, li, b)?,
        }
    }
    Ok(())
}
