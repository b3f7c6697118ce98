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
use super::ops::{self, c, size_node, Tiler};
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

/// The value at 1-D index `i` of a node (colexicographic unfolding; the last mode takes the
/// rest), with no domain condition.
pub(crate) fn index_expr(i: &Poly, n: &Node) -> Result<Poly, SymError> {
    let leaves = n.leaves();
    let (mut acc, mut rest) = (c(0), i.clone());
    for (k, (s, d)) in leaves.iter().enumerate() {
        let ck = if k + 1 == leaves.len() {
            rest.clone()
        } else {
            rest.rem(s)?
        };
        acc = acc.add(&ck.mul(d)?)?;
        rest = rest.floor_div(s)?;
    }
    Ok(acc)
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
