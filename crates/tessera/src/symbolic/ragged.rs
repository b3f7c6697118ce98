//! Ragged divides over symbolic leaves: the divide over the padded domain, its hole count and
//! the validity predicate, as expressions over the names.
//!
//! A mode `A_i` of size `N_i` divided by an integer tile layout `B_i` of period `K_i` is padded to
//! `P_i = K_i·ceil_div(N_i, K_i)`; its padded index of tile coordinate `t_i` and rest coordinate
//! `r_i` (both 1-D, colexicographic) is `x_i = B_i(t_i) + C_i(r_i)` with
//! `C_i = complement(B_i, N_i)`, and the point is valid iff `x_i < N_i`
//! ([`crate::algebra::ragged`] for the integer form).

use super::expr::Poly;
use super::facts::Pred;
use super::layout::{Node, SymLayout};
use super::ops::{self, c, index_expr, size_node, Tiler};
use super::{Ctx, SymError};
use crate::algebra::ragged::Arrangement;
use std::fmt;

/// A ragged divide over symbolic leaves.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct SymRagged {
    /// The divide's layout over the padded domain (A's values at the valid points).
    pub layout: SymLayout,
    /// Points of the padded domain, `Π P_i`.
    pub points: Poly,
    /// Valid points, `size(A)`.
    pub valid: Poly,
    /// Holes, `points − valid`.
    pub holes: Poly,
    /// The point with tile index `t_i` and rest index `r_i` in each divided mode is valid iff
    /// every predicate holds (empty: no hole for any size the facts allow).
    pub predicate: Vec<Pred>,
    /// Per divided mode, in A's mode order: the names of its tile and rest indices.
    pub coords: Vec<(String, String)>,
}

impl fmt::Display for SymRagged {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(
            f,
            "{} [{} points, {} valid, {} holes]",
            self.layout, self.points, self.valid, self.holes
        )?;
        if !self.predicate.is_empty() {
            let p: Vec<String> = self.predicate.iter().map(|p| p.to_string()).collect();
            write!(f, " valid iff {}", p.join(" && "))?;
        }
        Ok(())
    }
}

/// The period `K` of an integer tile layout (the largest reach `s·d` of its leaves of size > 1),
/// after checking, as the integer ragged divide does, that `(B, complement(B, K))` is a
/// bijection of `[0, K)` (B injective, strides positive, tractable): that fails for every size
/// or for none, so a failure is [`SymError::Refuted`].
fn period(ctx: &Ctx, b: &SymLayout, op: &'static str) -> Result<i64, SymError> {
    let mut leaves: Vec<(i64, i64)> = Vec::new();
    for (s, d) in b.root.leaves() {
        let (Some(s), Some(d)) = (s.as_const(), d.as_const()) else {
            return Err(SymError::Unsupported {
                op,
                what: format!("a ragged divide needs an integer tile layout, not {b}"),
            });
        };
        if s > 1 {
            leaves.push((s, d));
        }
    }
    leaves.sort_by_key(|m| m.1);
    // Sorted by stride, each stride a multiple of the previous reach (B tractable and
    // injective, its complement filling the gaps), every stride positive.
    let mut reach = 1i64;
    let mut ok = true;
    for &(s, d) in &leaves {
        if d < 1 || d % reach != 0 {
            ok = false;
            break;
        }
        reach = s
            .checked_mul(d)
            .ok_or_else(|| SymError::Overflow(format!("the period of {b}")))?;
    }
    if !ok {
        return Err(SymError::Refuted {
            op,
            obligation: format!(
                "the index map ({b}, complement({b}, P)) is a bijection of [0, P) \
                 (the tiler injective, tractable, with positive strides)"
            ),
            witness: ctx.facts.witness_any()?,
        });
    }
    Ok(reach)
}

fn fresh(base: &str, used: &[String]) -> String {
    let mut n = base.to_string();
    while used.contains(&n) {
        n.push('_');
    }
    n
}

/// `ragged_*_divide(A, T)`: the divide of A by T over the padded domain, with its hole count and
/// validity predicate as expressions over the names.
///
/// Pre: the tiler's tile layouts have integer leaves (`Unsupported` otherwise); the plain
/// divide's obligations (decided or guarded; refuted → error). Post: `layout` is the plain
/// symbolic divide (CuTe extends A's last mode, as the integer ragged divide's `A' ∘ T`);
/// `points = Π P_i`, `valid = size(A)`, `holes = points − valid`; the predicate holds exactly at
/// the valid points. Example: `ragged_zipped_divide((M,N):(1,M),(128,128))` has
/// `128*ceil_div(M,128)*128*ceil_div(N,128) - M*N` holes, valid iff `M > t0+128*r0` and
/// `N > t1+128*r1`.
pub fn ragged_divide(
    ctx: &mut Ctx,
    a: &SymLayout,
    t: &Tiler,
    arrangement: Arrangement,
) -> Result<SymRagged, SymError> {
    let op: &'static str = match arrangement {
        Arrangement::Logical => "ragged_logical_divide",
        Arrangement::Zipped => "ragged_zipped_divide",
        Arrangement::Tiled => "ragged_tiled_divide",
        Arrangement::Flat => "ragged_flat_divide",
    };
    // The divided modes: (A_i, B_i) or (A_i, None) for `_` / a mode past the tiler.
    let modes = a.root.modes();
    let parts: Vec<(Node, Option<SymLayout>)> = match t {
        Tiler::Layout(b) => vec![(a.root.clone(), Some(b.clone()))],
        Tiler::Under => modes.into_iter().map(|m| (m, None)).collect(),
        Tiler::Tuple(ts) => {
            let mut v = Vec::with_capacity(modes.len());
            for (i, m) in modes.into_iter().enumerate() {
                match ts.get(i) {
                    None | Some(Tiler::Under) => v.push((m, None)),
                    Some(Tiler::Layout(b)) => v.push((m, Some(b.clone()))),
                    Some(Tiler::Tuple(_)) => {
                        return Err(SymError::Unsupported {
                            op,
                            what: "a nested tuple tiler in a ragged divide".into(),
                        })
                    }
                }
            }
            v
        }
    };
    let layout = match arrangement {
        Arrangement::Logical => ops::logical_divide(ctx, a, t)?,
        Arrangement::Zipped => ops::zipped_divide(ctx, a, t)?,
        Arrangement::Tiled => ops::tiled_divide(ctx, a, t)?,
        Arrangement::Flat => ops::flat_divide(ctx, a, t)?,
    };
    let used = a.names();
    let (mut points, mut predicate, mut coords) = (c(1), Vec::new(), Vec::new());
    for (k, (m, b)) in parts.iter().enumerate() {
        let n = size_node(m)?;
        let Some(b) = b else {
            points = points.mul(&n)?;
            continue;
        };
        let kk = c(period(ctx, b, op)?);
        let (tn, rn) = (
            fresh(&format!("t{k}"), &used),
            fresh(&format!("r{k}"), &used),
        );
        coords.push((tn.clone(), rn.clone()));
        if ctx.decide_fast(&Pred::divides(kk.clone(), n.clone()))? == Some(true) {
            // K divides N for every allowed size: no padding, no predicate.
            points = points.mul(&n)?;
            continue;
        }
        points = points.mul(&n.ceil_div(&kk)?.mul(&kk)?)?;
        let rest = ops::complement(&mut Ctx::new(ctx.facts.clone()), b, Some(&n))?;
        let x = index_expr(&Poly::name(&tn), &b.root)?
            .add(&index_expr(&Poly::name(&rn), &rest.root)?)?;
        predicate.push(Pred::ge(n.sub(&c(1))?, x));
    }
    let valid = size_node(&a.root)?;
    let holes = points.sub(&valid)?;
    Ok(SymRagged {
        layout,
        points,
        valid,
        holes,
        predicate,
        coords,
    })
}

/// One tile (`ragged_local_tile`) or one thread's elements (`ragged_local_partition`) of a
/// ragged divide over symbolic leaves.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct SymRaggedSlice {
    /// The slice's layout over the padded domain (A's values at the valid points).
    pub layout: SymLayout,
    /// The value offset of the slice's first point.
    pub offset: Poly,
    /// Points of the slice.
    pub points: Poly,
    /// Valid points of the slice (under the guards).
    pub valid: Poly,
    /// `points − valid`.
    pub holes: Poly,
    /// Per divided mode: `(valid, total)` points of the slice along it.
    pub extents: Vec<(Poly, Poly)>,
    /// The slice's point with free 1-D index `coords[i]` along each divided mode is valid iff
    /// every predicate holds (empty: no hole for any size the facts allow).
    pub predicate: Vec<Pred>,
    /// Per divided mode, the name of the slice's free index along it (the tile index `t_i` of a
    /// tile, the rest index `r_i` of a partition).
    pub coords: Vec<String>,
}

impl fmt::Display for SymRaggedSlice {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(
            f,
            "({},{}) [{} points, {} valid, {} holes]",
            self.layout, self.offset, self.points, self.valid, self.holes
        )?;
        if !self.predicate.is_empty() {
            let p: Vec<String> = self.predicate.iter().map(|p| p.to_string()).collect();
            write!(f, " valid iff {}", p.join(" && "))?;
        }
        Ok(())
    }
}

/// The period of a *compact* integer tile layout (its values are `[0, K)`), else
/// [`SymError::Unsupported`] (a tile with gaps, whose rest interleaves with it).
fn compact_period(ctx: &Ctx, b: &SymLayout, op: &'static str) -> Result<i64, SymError> {
    let k = period(ctx, b, op)?;
    let size = size_node(&b.root)?.as_const();
    if size != Some(k) {
        return Err(SymError::Unsupported {
            op,
            what: format!("a symbolic {op} needs a compact tile layout (values [0, K)), not {b}"),
        });
    }
    Ok(k)
}

/// `ragged_local_tile(A, T, coord)`: the tile at rest coordinate `coord` of the ragged divide of
/// A by T, with its valid count and validity predicate as expressions over the names.
///
/// Pre: every mode of A is divided by a compact integer tile (a layout tiler for the whole of
/// A, or one per mode; `Unsupported` otherwise), `coord` has one expression per divided mode;
/// `coord` lies in the rest (guarded, as [`ops::local_tile`]). Post: `layout` and `offset` are
/// [`ops::local_tile`]'s; along mode i with tile period `K_i` the base is `b_i = K_i·c_i`, the
/// tile has `K_i` points of which `min(K_i, N_i − b_i)` are valid (the full side `N_i − b_i >= K_i`
/// taken when undecided, as a guard); the point at tile index `t_i` is valid iff
/// `t_i + b_i < N_i` (no predicate where `K_i | N_i` is proved). Example:
/// `ragged_local_tile((M,N):(1,M),(128,128),(bm,bn))` has the predicate `M > 128*bm+t0 && N > 128*bn+t1`.
pub fn ragged_local_tile(
    ctx: &mut Ctx,
    a: &SymLayout,
    t: &Tiler,
    coord: &super::expr::Item,
) -> Result<SymRaggedSlice, SymError> {
    use super::expr::Item;
    const OP: &str = "ragged_local_tile";
    let (layout, offset) = ops::local_tile(ctx, a, t, coord)?;
    let parts: Vec<(Node, SymLayout, Poly)> = match (t, coord) {
        (Tiler::Layout(b), Item::Expr(ci)) => vec![(a.root.clone(), b.clone(), ci.clone())],
        (Tiler::Tuple(ts), Item::Tuple(cs)) if ts.len() == cs.len() => {
            let modes = a.root.modes();
            if modes.len() != ts.len() {
                return Err(SymError::Unsupported {
                    op: OP,
                    what: "every mode of A must be tiled".into(),
                });
            }
            let mut v = Vec::new();
            for ((m, ti), ci) in modes.into_iter().zip(ts).zip(cs) {
                match (ti, ci) {
                    (Tiler::Layout(b), Item::Expr(ci)) => v.push((m, b.clone(), ci.clone())),
                    _ => {
                        return Err(SymError::Unsupported {
                            op: OP,
                            what: "a symbolic ragged tile needs a layout tiler and a 1-D \
                                   coordinate per mode"
                                .into(),
                        })
                    }
                }
            }
            v
        }
        _ => {
            return Err(SymError::Unsupported {
                op: OP,
                what: "the coordinate is not congruent to the tiler".into(),
            })
        }
    };
    let used = a.names();
    let mut s = slice_start();
    for (k, (m, b, ci)) in parts.iter().enumerate() {
        let n = size_node(m)?;
        let kk = c(compact_period(ctx, b, OP)?);
        let tn = fresh(&format!("t{k}"), &used);
        s.coords.push(tn.clone());
        s.points = s.points.mul(&kk)?;
        if ctx.decide_fast(&Pred::divides(kk.clone(), n.clone()))? == Some(true) {
            s.valid = s.valid.mul(&kk)?;
            s.extents.push((kk.clone(), kk));
            continue;
        }
        let base = ci.mul(&kk)?;
        let left = n.sub(&base)?;
        let v = if ctx.branch(Pred::ge(left.clone(), kk.clone()), true, OP)? {
            kk.clone()
        } else {
            left
        };
        s.valid = s.valid.mul(&v)?;
        s.extents.push((v, kk));
        let x = index_expr(&Poly::name(&tn), &b.root)?.add(&base)?;
        s.predicate.push(Pred::ge(n.sub(&c(1))?, x));
    }
    s.finish(layout, offset)
}

/// The counts before any mode: one point, one valid.
fn slice_start() -> SymRaggedSlice {
    SymRaggedSlice {
        layout: SymLayout::leaf(c(1), c(0)),
        offset: c(0),
        points: c(1),
        valid: c(1),
        holes: c(0),
        extents: Vec::new(),
        predicate: Vec::new(),
        coords: Vec::new(),
    }
}

impl SymRaggedSlice {
    fn finish(mut self, layout: SymLayout, offset: Poly) -> Result<SymRaggedSlice, SymError> {
        self.holes = self.points.sub(&self.valid)?;
        self.layout = layout;
        self.offset = offset;
        Ok(self)
    }
}

/// `ragged_local_partition(A, thr, idx)`: thread `idx`'s elements of the ragged divide of A by
/// the thread layout's mode sizes, with its valid count and validity predicate as expressions
/// over the names.
///
/// Pre: `thr` is an integer, compact thread layout whose top-level modes are leaves, one per
/// mode of A (`Unsupported` otherwise); `0 <= idx < size(thr)` (guarded, as
/// [`ops::local_partition`]). Post: `layout` and `offset` are [`ops::local_partition`]'s; along
/// mode i (size `N_i`, `k_i` threads, the thread's coordinate `c_i = (idx / d_i) % k_i`) the thread
/// has `ceil_div(N_i, k_i)` points, of which `ceil_div(N_i − c_i, k_i)` are valid: the point at
/// rest index `r_i` is valid iff `c_i + k_i·r_i < N_i` (exact, no guard; no predicate where
/// `k_i | N_i` is proved). Example: `ragged_local_partition((M,N):(1,M),(4,8):(1,4),t)`.
pub fn ragged_local_partition(
    ctx: &mut Ctx,
    a: &SymLayout,
    thr: &SymLayout,
    idx: &Poly,
) -> Result<SymRaggedSlice, SymError> {
    const OP: &str = "ragged_local_partition";
    let (layout, offset) = ops::local_partition(ctx, a, thr, idx)?;
    let (amodes, tmodes) = (a.root.modes(), thr.root.modes());
    if amodes.len() != tmodes.len()
        || matches!(a.root, Node::Leaf(..)) != matches!(thr.root, Node::Leaf(..))
    {
        return Err(SymError::Unsupported {
            op: OP,
            what: format!("a symbolic {OP} needs one thread mode per mode of A"),
        });
    }
    let used = a.names();
    let mut s = slice_start();
    for (k, (m, tm)) in amodes.iter().zip(&tmodes).enumerate() {
        let Node::Leaf(ks, kd) = tm else {
            return Err(SymError::Unsupported {
                op: OP,
                what: "a symbolic ragged partition needs thread modes that are leaves".into(),
            });
        };
        let (Some(kv), Some(_)) = (ks.as_const(), kd.as_const()) else {
            return Err(SymError::Unsupported {
                op: OP,
                what: "the thread layout must have integer leaves".into(),
            });
        };
        let kk = c(kv);
        let ci = if kv == 1 {
            c(0)
        } else {
            idx.floor_div(kd)?.rem(ks)?
        };
        let n = size_node(m)?;
        let rn = fresh(&format!("r{k}"), &used);
        s.coords.push(rn.clone());
        if ctx.decide_fast(&Pred::divides(kk.clone(), n.clone()))? == Some(true) {
            let q = n.floor_div(&kk)?;
            s.points = s.points.mul(&q)?;
            s.valid = s.valid.mul(&q)?;
            s.extents.push((q.clone(), q));
            continue;
        }
        let total = n.ceil_div(&kk)?;
        let v = n.sub(&ci)?.ceil_div(&kk)?;
        s.points = s.points.mul(&total)?;
        s.valid = s.valid.mul(&v)?;
        s.extents.push((v, total));
        let x = ci.add(&Poly::name(&rn).mul(&kk)?)?;
        s.predicate.push(Pred::ge(n.sub(&c(1))?, x));
    }
    s.finish(layout, offset)
}
