//! The layout algebra over symbolic leaves: CuTe's algorithms, with every branch and every
//! obligation decided by [`Ctx`] (proved, refuted, or a guard returned with the result).
//!
//! Each operation takes a [`Ctx`] (facts, guards so far) and returns its result; the guards it
//! needed are in the context ([`Ctx::finish`] attaches them). Under the facts and the guards,
//! instantiating the result gives the integer algebra's answer (up to size-1 strides).

use super::expr::{Item, Poly, Reader};
use super::facts::PredRef;
use super::facts::{Pred, Rel};
use super::layout::{read_layout, Node, SymLayout};
use super::{Ctx, SymError};

pub(crate) fn c(v: i64) -> Poly {
    Poly::constant(v)
}

const ZERO: Poly = Poly::ZERO;
const ONE: Poly = Poly::ONE;

/// A tiler for divides and products: a layout, `_`, or a tuple applied mode by mode.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Tiler {
    /// A layout used as a 1-D function (an expression `n` is `n:1`).
    Layout(SymLayout),
    /// `_`: leave the mode alone.
    Under,
    /// Mode by mode.
    Tuple(Vec<Tiler>),
}

/// `size(L)`: the product of the shapes.
///
/// Pre: none. Post: a polynomial (no guard). Example: `(M,K):(K,1)` has size `K*M`.
pub fn size(_ctx: &mut Ctx, l: &SymLayout) -> Result<Poly, SymError> {
    size_node(&l.root)
}

pub(crate) fn size_node(n: &Node) -> Result<Poly, SymError> {
    // The product of the shapes in leaf order, read in place.
    fn go(n: &Node, acc: &mut Poly) -> Result<(), SymError> {
        match n {
            Node::Leaf(s, _) => *acc = acc.mul(s)?,
            Node::Tuple(ms) => {
                for m in ms {
                    go(m, acc)?;
                }
            }
        }
        Ok(())
    }
    let mut acc = c(1);
    go(n, &mut acc)?;
    Ok(acc)
}

/// `cosize(L) = 1 + Σ (s_i - 1)·|d_i|`.
///
/// Pre: none. Post: the cosize; a stride of unknown sign is guarded `d >= 0`.
/// Example: `(M,K):(K,1)` has cosize `K*M`.
pub fn cosize(ctx: &mut Ctx, l: &SymLayout) -> Result<Poly, SymError> {
    cosize_node(ctx, &l.root)
}

pub(crate) fn cosize_node(ctx: &mut Ctx, n: &Node) -> Result<Poly, SymError> {
    let mut acc = c(1);
    for (s, d) in n.leaves() {
        let ad = if ctx.branch_on(Rel::Ge, &d, &ZERO, true, "cosize")? {
            d
        } else {
            d.scale(-1)?
        };
        acc = acc.add(&s.sub(&c(1))?.mul(&ad)?)?;
    }
    Ok(acc)
}

/// `crd2idx(coord, L)`: the index of a coordinate (an integer coordinate is first unfolded
/// colexicographically over the mode's shape).
///
/// Pre: the coordinate is in the domain (`0 <= c_i < s_i`, decided or guarded).
/// Post: the index. Example: `(i,j)` in `(M,K):(K,1)` gives `K*i+j`.
pub fn crd2idx(ctx: &mut Ctx, coord: &Item, l: &SymLayout) -> Result<Poly, SymError> {
    crd2idx_node(ctx, coord, &l.root)
}

pub(crate) fn crd2idx_node(ctx: &mut Ctx, coord: &Item, n: &Node) -> Result<Poly, SymError> {
    crd2idx_walk(Some(ctx), coord, n)
}

/// The index of a coordinate whose domain conditions are already required (by [`in_domain`],
/// which requires literally the conditions [`crd2idx_node`] would: each is then a recorded
/// guard or was proved, so it is not decided twice).
fn offset_node(coord: &Item, n: &Node) -> Result<Poly, SymError> {
    crd2idx_walk(None, coord, n)
}

/// [`crd2idx_node`], requiring `0 <= c_i < s_i` on the way when given a context.
fn crd2idx_walk(mut ctx: Option<&mut Ctx>, coord: &Item, n: &Node) -> Result<Poly, SymError> {
    match (coord, n) {
        (Item::Tuple(cs), Node::Tuple(ms)) => {
            if cs.len() != ms.len() {
                return Err(SymError::Unsupported {
                    op: "crd2idx",
                    what: format!(
                        "a coordinate of rank {} for a mode of rank {}",
                        cs.len(),
                        ms.len()
                    ),
                });
            }
            let mut acc = c(0);
            for (ci, mi) in cs.iter().zip(ms) {
                acc = acc.add(&crd2idx_walk(ctx.as_deref_mut(), ci, mi)?)?;
            }
            Ok(acc)
        }
        (Item::Expr(i), _) => {
            match ctx {
                Some(ctx) => {
                    let sz = size_node(n)?;
                    require_in_bounds(ctx, i, || sz.sub(&ONE), "crd2idx")?;
                    index_expr(i, n)
                }
                // In the domain: a leaf's index is `i*d` (no quotient to form).
                None => match n {
                    Node::Leaf(_, d) => i.mul(d),
                    _ => index_expr(i, n),
                },
            }
        }
        (Item::Tuple(_), Node::Leaf(..)) => Err(SymError::Unsupported {
            op: "crd2idx",
            what: "a tuple coordinate for a leaf mode".into(),
        }),
    }
}

/// The value at 1-D index `i` of a node (colexicographic unfolding; the last mode takes the
/// rest), with no domain condition.
pub(crate) fn index_expr(i: &Poly, n: &Node) -> Result<Poly, SymError> {
    if let Node::Leaf(s, d) = n {
        // One leaf: `i*d` (the quotient `i / s` is formed, as the unfolding below forms it,
        // for its errors).
        let id = i.mul(d)?;
        i.floor_div(s)?;
        return Ok(id);
    }
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

/// `idx2crd(i, shape)`: the colexicographic coordinate of index `i` in a shape.
///
/// Pre: every shape leaf `>= 1` and `i >= 0` (decided or guarded); as in CuTe and the integer algebra, the last mode takes
/// the rest, so `i >= size` is allowed. Post: a coordinate congruent to the shape.
/// Example: `i` in `(M,K)` gives `(i%M, i/M)`.
pub fn idx2crd(ctx: &mut Ctx, i: &Poly, shape: &Node) -> Result<Item, SymError> {
    for (s, _) in shape.leaves() {
        ctx.require(Pred::ge(s, c(1)), "idx2crd")?;
    }
    ctx.require(Pred::ge(i.clone(), c(0)), "idx2crd")?;
    fn go(i: &Poly, n: &Node, last: bool) -> Result<(Item, Poly), SymError> {
        match n {
            Node::Leaf(s, _) => {
                if last {
                    Ok((Item::Expr(i.clone()), c(0)))
                } else {
                    Ok((Item::Expr(i.rem(s)?), i.floor_div(s)?))
                }
            }
            Node::Tuple(ms) => {
                let mut rest = i.clone();
                let mut out = Vec::new();
                for (k, m) in ms.iter().enumerate() {
                    let (it, r) = go(&rest, m, last && k + 1 == ms.len())?;
                    out.push(it);
                    rest = r;
                }
                Ok((Item::Tuple(out), rest))
            }
        }
    }
    Ok(go(i, shape, true)?.0)
}

pub(crate) fn from_leaves(v: Vec<(Poly, Poly)>) -> SymLayout {
    match v.len() {
        0 => SymLayout::leaf(c(1), c(0)),
        1 => {
            let (s, d) = v.into_iter().next().expect("one leaf");
            SymLayout::leaf(s, d)
        }
        _ => SymLayout::new(Node::Tuple(
            v.into_iter().map(|(s, d)| Node::Leaf(s, d)).collect(),
        )),
    }
}

/// The coalesced leaves (CuTe's `coalesce`): size-1 modes dropped, `s·d == d'` merged.
///
/// A mode whose size may be 1 (undecided) is kept; it needs the guard `s != 1` only when it ends
/// up alone in an output mode among several (merged with a neighbour, it gives the integer
/// algebra's answer at `s = 1` too, since the merge's condition is then the integer one).
fn coalesce_leaves(
    ctx: &mut Ctx,
    leaves: Vec<(Poly, Poly)>,
    op: &'static str,
) -> Result<Vec<(Poly, Poly)>, SymError> {
    coalesce_leaves_x(ctx, leaves, op, false)
}

/// With `extend`, CuTe's `coalesce_x` (composition's left operand): the last leaf is never
/// dropped (a size-1 last leaf counts as size 2: only its stride matters, as A's extension).
fn coalesce_leaves_x(
    ctx: &mut Ctx,
    leaves: Vec<(Poly, Poly)>,
    op: &'static str,
    extend: bool,
) -> Result<Vec<(Poly, Poly)>, SymError> {
    // (shape, stride, some member is known not to be 1)
    let mut out: Vec<(Poly, Poly, bool)> = Vec::with_capacity(leaves.len());
    let count = leaves.len();
    for (i, (s, d)) in leaves.into_iter().enumerate() {
        let last = extend && i + 1 == count;
        let known_not1 = match ctx.peek_ref(PredRef {
            rel: Rel::Eq,
            lhs: &s,
            rhs: &ONE,
        })? {
            Some(true) if last => {
                if let Some((ls, ld, _)) = out.last_mut() {
                    let span = ls.mul(ld)?;
                    if ctx.branch_on(Rel::Eq, &span, &d, false, op)? {
                        *ls = ls.mul(&c(2))?;
                        continue;
                    }
                }
                out.push((c(2), d, true));
                continue;
            }
            Some(true) => continue,
            Some(false) => true,
            None => last,
        };
        if let Some((ls, ld, k)) = out.last_mut() {
            let span = ls.mul(ld)?;
            if ctx.branch_on(Rel::Eq, &span, &d, false, op)? {
                *ls = ls.mul(&s)?;
                *k |= known_not1;
                continue;
            }
        }
        out.push((s, d, known_not1));
    }
    if out.len() > 1 {
        for (s, _, k) in &out {
            if !k {
                ctx.require_on(Rel::Ne, s, &ONE, op)?;
            }
        }
    }
    Ok(out.into_iter().map(|(s, d, _)| (s, d)).collect())
}

/// `coalesce(L)`: the flat layout of the same function with size-1 modes dropped and adjacent
/// modes merged where `s·d == d'` is proved (an undecided merge is not made, and the guard
/// `s·d != d'` records it).
///
/// Pre: none. Post: the coalesced layout, exact under the guards.
/// Example: `(M,N):(1,M)` gives `M*N:1` with no guard (cutlass#3469's family).
pub fn coalesce(ctx: &mut Ctx, l: &SymLayout) -> Result<SymLayout, SymError> {
    Ok(from_leaves(coalesce_leaves(
        ctx,
        l.root.leaves(),
        "coalesce",
    )?))
}

/// `composition(A, B)`: `R(c) = A(B(c))` shaped like B (CuTe's algorithm on coalesced A).
///
/// Pre: admissibility — at each mode of A, B's running stride divides the mode's extent or is
/// a multiple of it, and the running shape divides evenly (each proved, refuted → error, or
/// guarded). Post: the composition, exact under the guards.
/// Example: `(M,N):(1,M) ∘ (4,8):(1,4)` is `(4,8):(1,4)` with no guard.
pub fn composition(ctx: &mut Ctx, a: &SymLayout, b: &SymLayout) -> Result<SymLayout, SymError> {
    composition_node(ctx, &a.root, &b.root).map(SymLayout::new)
}

/// [`composition`] on nodes.
fn composition_node(ctx: &mut Ctx, a: &Node, b: &Node) -> Result<Node, SymError> {
    let ax = coalesce_leaves_x(ctx, a.leaves(), "composition", true)?;
    compose_node(ctx, &ax, b)
}

/// A piece of B's image inside one digit (mode) of A: `(digit, stride in the digit, extent)`.
type Piece = (usize, Poly, Poly);

fn compose_node(ctx: &mut Ctx, ax: &[(Poly, Poly)], b: &Node) -> Result<Node, SymError> {
    let mut pieces: Vec<Piece> = Vec::new();
    let r = compose_node_p(ctx, ax, b, &mut pieces)?;
    // By-mode composition is right when A is additive on B's image: the pieces that several
    // leaves of B put in one digit of A (not the last, which extends) never carry.
    for (i, (cs, _)) in ax.iter().enumerate().take(ax.len().saturating_sub(1)) {
        let here: Vec<&Piece> = pieces.iter().filter(|p| p.0 == i).collect();
        if here.len() < 2 {
            continue;
        }
        let mut reach = c(0);
        for (_, rd, r) in here {
            reach = reach.add(&rd.mul(&r.sub(&c(1))?)?)?;
        }
        ctx.require_on(Rel::Ge, &cs.sub(&ONE)?, &reach, "composition")?;
    }
    Ok(r)
}

fn compose_node_p(
    ctx: &mut Ctx,
    ax: &[(Poly, Poly)],
    b: &Node,
    pieces: &mut Vec<Piece>,
) -> Result<Node, SymError> {
    match b {
        Node::Tuple(ms) => Ok(Node::Tuple(
            ms.iter()
                .map(|m| compose_node_p(ctx, ax, m, pieces))
                .collect::<Result<_, _>>()?,
        )),
        Node::Leaf(s, d) => compose_leaf(ctx, ax, s, d, pieces),
    }
}

fn compose_leaf(
    ctx: &mut Ctx,
    ax: &[(Poly, Poly)],
    s: &Poly,
    d: &Poly,
    pieces: &mut Vec<Piece>,
) -> Result<Node, SymError> {
    const OP: &str = "composition";
    if ctx.branch_on(Rel::Eq, d, &ZERO, false, OP)? {
        return Ok(Node::Leaf(s.clone(), c(0)));
    }
    ctx.require_on(Rel::Ge, d, &ONE, OP)?;
    let mut out: Vec<(Poly, Poly)> = Vec::new();
    let (mut rs, mut rd) = (s.clone(), d.clone());
    let n = ax.len();
    for (i, (cs, cd)) in ax[..n - 1].iter().enumerate() {
        if ctx.test(b'o', rs.as_const() == Some(1)) {
            break;
        }
        let (q, next_rd) = if ctx.branch_on(Rel::Divides, &rd, cs, true, OP)? {
            (cs.floor_div(&rd)?, c(1))
        } else {
            ctx.require_on(Rel::Divides, cs, &rd, OP)?;
            (c(1), rd.floor_div(cs)?)
        };
        // new_shape = min(q, rest_shape)
        let new = if ctx.branch_typical_on(Rel::Ge, &q, &rs, OP)? {
            rs.clone()
        } else {
            q
        };
        if !ctx.branch_on(Rel::Eq, &new, &ONE, false, OP)? {
            out.push((new.clone(), rd.mul(cd)?));
            pieces.push((i, rd.clone(), new.clone()));
        }
        if ctx.test(b's', new == rs) {
            rs = c(1);
        } else {
            ctx.require_on(Rel::Divides, &new, &rs, OP)?;
            rs = rs.floor_div(&new)?;
        }
        rd = next_rd;
    }
    let last_d = &ax[n - 1].1;
    if out.is_empty() || !ctx.branch_on(Rel::Eq, &rs, &ONE, false, OP)? {
        out.push((rs, rd.mul(last_d)?));
    }
    Ok(from_leaves(out).root)
}

/// `complement(A, M)`: the layout R, ordered by stride, such that `(A, R)` covers `[0, M)`
/// (cotarget `M` symbolic; default `cosize(A)`).
///
/// Pre: A injective and tractable: sorted by stride, each stride is a multiple of the previous
/// span `s·d` (decided or guarded; refuted → error). Post: CuTe's complement, coalesced, with
/// the rest mode `ceil_div(M, span)`. Example: `complement(128:1, M)` is `ceil_div(M,128):128`.
pub fn complement(
    ctx: &mut Ctx,
    a: &SymLayout,
    cotarget: Option<&Poly>,
) -> Result<SymLayout, SymError> {
    const OP: &str = "complement";
    let cosz;
    let m = match cotarget {
        Some(m) => m,
        None => {
            cosz = cosize(ctx, a)?;
            &cosz
        }
    };
    let mut leaves: Vec<(Poly, Poly)> = Vec::new();
    for (s, d) in a.root.leaves() {
        if ctx.branch_on(Rel::Eq, &d, &ZERO, false, OP)?
            || ctx.branch_on(Rel::Eq, &s, &ONE, false, OP)?
        {
            continue;
        }
        ctx.require_on(Rel::Ge, &d, &ONE, OP)?;
        leaves.push((s, d));
    }
    // Insertion sort by stride (a stable order; each comparison decided or guarded).
    for i in 1..leaves.len() {
        let mut j = i;
        while j > 0 {
            let earlier_smaller =
                ctx.branch_typical_on(Rel::Ge, &leaves[j].1, &leaves[j - 1].1, OP)?;
            if earlier_smaller {
                break;
            }
            leaves.swap(j, j - 1);
            j -= 1;
        }
    }
    let mut res: Vec<(Poly, Poly)> = Vec::with_capacity(leaves.len() + 1);
    let mut cur = c(1);
    for (s, d) in leaves {
        ctx.require_on(Rel::Divides, &cur, &d, OP)?;
        res.push((d.floor_div(&cur)?, cur));
        cur = s.mul(&d)?;
    }
    res.push((m.ceil_div(&cur)?, cur));
    Ok(from_leaves(coalesce_leaves(ctx, res, OP)?))
}

fn tiler_layout(t: &Tiler) -> Option<&SymLayout> {
    match t {
        Tiler::Layout(l) => Some(l),
        _ => None,
    }
}

type PartFn = fn(&mut Ctx, &Node, &SymLayout) -> Result<Node, SymError>;

fn by_mode(
    ctx: &mut Ctx,
    a: &Node,
    t: &Tiler,
    op: &'static str,
    f: PartFn,
) -> Result<Node, SymError> {
    match t {
        Tiler::Under => Ok(a.clone()),
        Tiler::Layout(b) => f(ctx, a, b),
        Tiler::Tuple(ts) => {
            let modes = match a {
                Node::Leaf(..) => std::slice::from_ref(a),
                Node::Tuple(ms) => ms.as_slice(),
            };
            if ts.len() > modes.len() {
                return Err(SymError::Unsupported {
                    op,
                    what: format!(
                        "a tiler of rank {} for a layout of rank {}",
                        ts.len(),
                        modes.len()
                    ),
                });
            }
            let mut out = Vec::with_capacity(modes.len());
            for (i, m) in modes.iter().enumerate() {
                match ts.get(i) {
                    Some(ti) => out.push(by_mode(ctx, m, ti, op, f)?),
                    None => out.push(m.clone()),
                }
            }
            Ok(Node::Tuple(out))
        }
    }
}

fn divide_part(ctx: &mut Ctx, a: &Node, b: &SymLayout) -> Result<Node, SymError> {
    if let Node::Leaf(s, d) = a {
        if let Some(t) = compact_tile(ctx, b) {
            let (tile, (r, dr)) = divide_leaf_by_compact_tile(ctx, s, d, t)?;
            return Ok(Node::Tuple(vec![tile, Node::Leaf(r, dr)]));
        }
    }
    divide_part_general(ctx, a, b)
}

/// `t` when the tile `b` is `t:1` with a constant `2 <= t <= COMPACT_TILE_MAX` (the domain of
/// the closed forms), and the decisions are not traced (the bridge replays the general path's).
#[inline]
fn compact_tile<'a>(ctx: &Ctx, b: &'a SymLayout) -> Option<&'a Poly> {
    match &b.root {
        Node::Leaf(t, one)
            if ctx.trace.is_none()
                && one.as_const() == Some(1)
                && t.as_const()
                    .is_some_and(|t| (2..=COMPACT_TILE_MAX).contains(&t)) =>
        {
            Some(t)
        }
        _ => None,
    }
}

/// The largest constant tile [`divide_leaf_by_compact_tile`] takes (far from `i64::MAX`, whose
/// comparisons the general path could refuse to negate).
const COMPACT_TILE_MAX: i64 = 1 << 40;

/// `logical_divide` of one leaf mode `s:d` by a compact constant tile `t:1` (`2 <= t <= 2^40`),
/// as its two modes (tile, rest): `(t, ceil_div(s,t)):(d, t*d)`, or `(t, 1):(d, 0)` when
/// `ceil_div(s,t) == 1` is proved: the general path's answer computed in closed form. The
/// general path (`A ∘ (t:1, complement(t:1, s))`) decides, besides constant conditions that
/// hold or fail whatever the facts (`1 == 0`, `t == 1`, `1 >= 1`, `1 | 1`, `t == 0`, `t >= 1`: never a
/// guard, never an error), exactly two conditions, with no guard: `ceil_div(s,t) == 1` (the
/// rest mode dropped by complement's coalesce) and `s == 1` (A's coalesce, whose answer
/// changes nothing for a one-mode A, whose stride alone is read): both are decided here, in the
/// same order, so that an error of the decision procedure is the same error. The arithmetic is
/// the general path's (`ceil_div(s,t)`, then `t*d`), so an overflow is the same error too.
/// `tests/symbolic/fast_paths.rs` compares the two paths on random cases with random facts.
#[inline(always)]
fn divide_leaf_by_compact_tile(
    ctx: &mut Ctx,
    s: &Poly,
    d: &Poly,
    t: &Poly,
) -> Result<(Node, (Poly, Poly)), SymError> {
    let q = s.ceil_div(t)?;
    let one_tile = ctx.decide_ref(PredRef {
        rel: Rel::Eq,
        lhs: &q,
        rhs: &ONE,
    })? == Some(true);
    ctx.decide_ref(PredRef {
        rel: Rel::Eq,
        lhs: s,
        rhs: &ONE,
    })?;
    let rest = if one_tile {
        (c(1), c(0))
    } else {
        let td = t.mul(d)?;
        (q, td)
    };
    Ok((Node::Leaf(t.clone(), d.clone()), rest))
}

/// `logical_divide` of one mode by one layout, CuTe's way: `A ∘ (B, complement(B, size(A)))`.
fn divide_part_general(ctx: &mut Ctx, a: &Node, b: &SymLayout) -> Result<Node, SymError> {
    let sz = size_node(a)?;
    let comp = complement(ctx, b, Some(&sz))?;
    let tiler = Node::Tuple(vec![b.root.clone(), comp.root]);
    composition_node(ctx, a, &tiler)
}

/// `logical_divide(A, T)`: `A ∘ (T, complement(T, size(A)))`, mode by mode along a tuple tiler.
///
/// Pre: the obligations of complement and composition (decided or guarded).
/// Post: `((tile),(rest))` per mode. Example: `logical_divide((M,K):(K,1),(128,64))` is
/// `((128,ceil_div(M,128)),(64,ceil_div(K,64))):((K,128*K),(1,64))` (guards `M >= 129`,
/// `K >= 65` keep the rest modes' strides).
pub fn logical_divide(ctx: &mut Ctx, a: &SymLayout, t: &Tiler) -> Result<SymLayout, SymError> {
    Ok(SymLayout::new(by_mode(
        ctx,
        &a.root,
        t,
        "logical_divide",
        divide_part,
    )?))
}

/// [`logical_divide`] without its closed form for a leaf mode divided by a compact constant
/// tile: always CuTe's composition with the complement. For the tests that compare the two.
///
/// Pre/Post: as [`logical_divide`] (the same layout, guards and errors). Example: see
/// `tests/symbolic/fast_paths.rs`.
#[doc(hidden)]
pub fn logical_divide_general(
    ctx: &mut Ctx,
    a: &SymLayout,
    t: &Tiler,
) -> Result<SymLayout, SymError> {
    Ok(SymLayout::new(by_mode(
        ctx,
        &a.root,
        t,
        "logical_divide",
        divide_part_general,
    )?))
}

fn zip2_by(n: Node, g: &Tiler) -> Result<(Node, Node), SymError> {
    match g {
        Tiler::Tuple(gs) => {
            let Node::Tuple(ms) = n else {
                return Err(SymError::Unsupported {
                    op: "zip2_by",
                    what: "a leaf mode for a tuple tiler".into(),
                });
            };
            if ms.len() < gs.len() {
                return Err(SymError::Unsupported {
                    op: "zip2_by",
                    what: "a mode of smaller rank than its tiler".into(),
                });
            }
            let (mut f, mut s) = (Vec::with_capacity(gs.len()), Vec::with_capacity(ms.len()));
            for (i, m) in ms.into_iter().enumerate() {
                match gs.get(i) {
                    Some(gi) => {
                        let (a, b) = zip2_by(m, gi)?;
                        f.push(a);
                        s.push(b);
                    }
                    None => s.push(m),
                }
            }
            Ok((Node::Tuple(f), Node::Tuple(s)))
        }
        Tiler::Under => Ok((Node::Leaf(c(1), c(0)), n)),
        Tiler::Layout(_) => match n {
            Node::Tuple(mut ms) if ms.len() == 2 => match (ms.pop(), ms.pop()) {
                (Some(b), Some(a)) => Ok((a, b)),
                _ => unreachable!("a rank-2 mode has two modes"),
            },
            _ => Err(SymError::Unsupported {
                op: "zip2_by",
                what: "expected a rank-2 (tile, rest) mode".into(),
            }),
        },
    }
}

fn unzip(l: SymLayout, t: &Tiler) -> Result<SymLayout, SymError> {
    match t {
        Tiler::Tuple(_) => {
            let (a, b) = zip2_by(l.root, t)?;
            Ok(SymLayout::new(Node::Tuple(vec![a, b])))
        }
        _ => Ok(l),
    }
}

/// `zipped_divide(A, T)`: `((tiles…),(rests…))`.
///
/// Pre/Post: as [`logical_divide`], regrouped. Example: `zipped_divide((M,N):(1,M),(128,128))`
/// is `((128,128),(ceil_div(M,128),ceil_div(N,128))):((1,M),(128,128*M))` with structure guards.
pub fn zipped_divide(ctx: &mut Ctx, a: &SymLayout, t: &Tiler) -> Result<SymLayout, SymError> {
    unzip(logical_divide(ctx, a, t)?, t)
}

pub(crate) fn arrange(z: SymLayout, flat: bool) -> SymLayout {
    let modes = z.root.modes();
    let mut out = Vec::new();
    for (i, m) in modes.into_iter().enumerate() {
        match m {
            Node::Tuple(ms) if (i > 0 || flat) && ms.len() > 1 => out.extend(ms),
            other => out.push(other),
        }
    }
    SymLayout::new(Node::Tuple(out))
}

/// `tiled_divide(A, T)`: `((tiles…), rest0, rest1, …)`.
///
/// Pre/Post: as [`zipped_divide`], with the rests flattened one level. Example: see tests.
pub fn tiled_divide(ctx: &mut Ctx, a: &SymLayout, t: &Tiler) -> Result<SymLayout, SymError> {
    Ok(arrange(zipped_divide(ctx, a, t)?, false))
}

/// `flat_divide(A, T)`: `(tile0, tile1, …, rest0, rest1, …)`.
///
/// Pre/Post: as [`zipped_divide`], flattened one level. Example: see tests.
pub fn flat_divide(ctx: &mut Ctx, a: &SymLayout, t: &Tiler) -> Result<SymLayout, SymError> {
    Ok(arrange(zipped_divide(ctx, a, t)?, true))
}

fn product_part(ctx: &mut Ctx, a: &Node, b: &SymLayout) -> Result<Node, SymError> {
    let a = SymLayout::new(a.clone());
    let span = size_node(&a.root)?.mul(&cosize(ctx, b)?)?;
    let comp = complement(ctx, &a, Some(&span))?;
    let r = composition(ctx, &comp, b)?;
    Ok(Node::Tuple(vec![a.root, r.root]))
}

/// `logical_product(A, B)`: `(A, complement(A, size(A)·cosize(B)) ∘ B)`, mode by mode along a
/// tuple tiler.
///
/// Pre: the obligations of complement and composition. Post: `(A, repeated)`.
/// Example: `logical_product(M:1, 4:1)` is `(M,4):(1,M)`.
pub fn logical_product(ctx: &mut Ctx, a: &SymLayout, t: &Tiler) -> Result<SymLayout, SymError> {
    Ok(SymLayout::new(by_mode(
        ctx,
        &a.root,
        t,
        "logical_product",
        product_part,
    )?))
}

/// `zipped_product(A, T)`: the product regrouped as `((A modes…),(repeats…))`.
///
/// Pre/Post: as [`logical_product`]. Example: see tests.
pub fn zipped_product(ctx: &mut Ctx, a: &SymLayout, t: &Tiler) -> Result<SymLayout, SymError> {
    unzip(logical_product(ctx, a, t)?, t)
}

/// `right_inverse(L)`: the largest R with `L(R(i)) = i` for `i < size(R)`: the chain of
/// strides `1, s·d, …` through L's coalesced modes (each step takes the first mode, in order,
/// whose stride equals the running product; each equality decided or guarded).
///
/// Pre: none. Post: the integer algebra's right inverse under the guards.
/// Example: `right_inverse((16,N):(1,16))` is `16*N:1` with no guard (cutlass#3471).
pub fn right_inverse(ctx: &mut Ctx, l: &SymLayout) -> Result<SymLayout, SymError> {
    const OP: &str = "right_inverse";
    let flat = coalesce_leaves(ctx, l.root.leaves(), OP)?;
    let mut res: Vec<(Poly, Poly)> = Vec::new();
    let mut cur = c(1);
    let mut taken = vec![false; flat.len()];
    for _ in 0..flat.len() {
        let mut pp = c(1);
        let mut next = None;
        for (i, (s, d)) in flat.iter().enumerate() {
            if !taken[i] && ctx.branch_typical_on(Rel::Eq, d, &cur, OP)? {
                next = Some((i, s.clone(), d.clone(), pp.clone()));
                break;
            }
            pp = pp.mul(s)?;
        }
        let Some((i, s, d, p)) = next else { break };
        taken[i] = true;
        cur = s.mul(&d)?;
        res.push((s, p));
    }
    Ok(from_leaves(coalesce_leaves(ctx, res, OP)?))
}

/// `left_inverse(L)`: R with `R(L(i)) = i` for L injective, built from L's coalesced modes
/// sorted by stride: mode j is `(d_j / size so far) : (shape product before the previous kept
/// mode)`, the last mode the extent of the largest stride.
///
/// Pre: strides >= 0; each non-zero stride divisible by the size inverted so far; the strides
/// do not overlap (`s_k·d_k <= d_{k+1}`) — each decided or guarded. Post: the integer algebra's
/// left inverse under the guards. Example: `left_inverse((M,N):(N,1))` is `(N,M):(M,1)`.
pub fn left_inverse(ctx: &mut Ctx, l: &SymLayout) -> Result<SymLayout, SymError> {
    const OP: &str = "left_inverse";
    let cm = coalesce_leaves(ctx, l.root.leaves(), OP)?;
    let cm = if cm.is_empty() {
        vec![(c(1), c(0))]
    } else {
        cm
    };
    for (_, d) in &cm {
        ctx.require_on(Rel::Ge, d, &ZERO, OP)?;
    }
    let mut order: Vec<usize> = (0..cm.len()).collect();
    for i in 1..order.len() {
        let mut j = i;
        while j > 0 {
            if ctx.branch_typical_on(Rel::Ge, &cm[order[j]].1, &cm[order[j - 1]].1, OP)? {
                break;
            }
            order.swap(j, j - 1);
            j -= 1;
        }
    }
    let pp = |i: usize| -> Result<Poly, SymError> {
        let mut acc = c(1);
        for (s, _) in &cm[..i] {
            acc = acc.mul(s)?;
        }
        Ok(acc)
    };
    let mut r: Vec<(Poly, Poly)> = Vec::new();
    let (mut prev, mut size) = (c(0), c(1));
    let mut prev_mode: Option<(Poly, Poly)> = None;
    for &i in &order {
        let (s_i, d) = &cm[i];
        if ctx.branch_on(Rel::Eq, d, &ZERO, false, OP)? {
            continue;
        }
        if let Some((ps, pd)) = &prev_mode {
            ctx.require_on(Rel::Ge, d, &ps.mul(pd)?, OP)?;
        }
        prev_mode = Some((s_i.clone(), d.clone()));
        ctx.require_on(Rel::Divides, &size, d, OP)?;
        let s = d.floor_div(&size)?;
        r.push((s.clone(), prev));
        prev = pp(i)?;
        size = size.mul(&s)?;
    }
    let last = *order.last().expect("at least one mode");
    r.push((cm[last].0.clone(), prev));
    Ok(from_leaves(coalesce_leaves(ctx, r, OP)?))
}

/// `local_tile(A, tile, coord)`: the tile at `coord` of `zipped_divide(A, tile)`: the tile's
/// layout and its offset (`coord` may be symbolic, e.g. `(bm,bk)`).
///
/// Pre: `coord` lies in the rest mode (guarded `0 <= c_i < rest_i`, the in-bounds condition).
/// Post: `(tile layout, offset)`. Example: `local_tile((M,K):(K,1),(128,64),(bm,bk))` is
/// `((128,64):(K,1), 128*K*bm+64*bk)`.
pub fn local_tile(
    ctx: &mut Ctx,
    a: &SymLayout,
    t: &Tiler,
    coord: &Item,
) -> Result<(SymLayout, Poly), SymError> {
    if let (Tiler::Tuple(ts), Node::Tuple(ms), Item::Tuple(cs)) = (t, &a.root, coord) {
        if let Some(r) = local_tile_compact(ctx, ts, ms, cs) {
            return r;
        }
    }
    let z = zipped_divide(ctx, a, t)?;
    local_tile_of(ctx, z, coord)
}

/// [`local_tile`] where every mode of A is a leaf `s_i:d_i`, tiled by a compact constant tile
/// `t_i:1` (as [`compact_tile`]), at a coordinate of expressions, one per mode: the general
/// path's answer without building the divide's tree. It runs the general path's steps in its
/// order: each mode divided by [`divide_leaf_by_compact_tile`], then `in_domain`'s two
/// conditions per mode, then the offset `Σ c_i * d'_i` over the rest modes `r_i:d'_i`.
/// `None` when the case is not of that form (nothing decided yet).
/// `tests/symbolic/fast_paths.rs` compares it with [`local_tile_general`].
fn local_tile_compact(
    ctx: &mut Ctx,
    ts: &[Tiler],
    ms: &[Node],
    cs: &[Item],
) -> Option<Result<(SymLayout, Poly), SymError>> {
    if ts.len() != ms.len() || cs.len() != ms.len() {
        return None;
    }
    let mut leaves: smallvec::SmallVec<[_; 4]> = smallvec::SmallVec::new();
    for ((ti, mi), ci) in ts.iter().zip(ms).zip(cs) {
        match (ti, mi, ci) {
            (Tiler::Layout(b), Node::Leaf(s, d), Item::Expr(i)) => {
                leaves.push((s, d, compact_tile(ctx, b)?, i));
            }
            _ => return None,
        }
    }
    Some((|| {
        const OP: &str = "local_tile";
        let mut tiles = Vec::with_capacity(ms.len());
        let mut rests: smallvec::SmallVec<[(Poly, Poly); 4]> = smallvec::SmallVec::new();
        for &(s, d, t, _) in &leaves {
            let (tile, rest) = divide_leaf_by_compact_tile(ctx, s, d, t)?;
            tiles.push(tile);
            rests.push(rest);
        }
        // Each rest mode is a leaf `r:d'`: `in_domain` requires `0 <= c <= r - 1` (`r` is its
        // size), and the offset of `c` in it is `c*d'`.
        for (&(.., i), (r, _)) in leaves.iter().zip(&rests) {
            require_in_bounds(ctx, i, || r.sub(&ONE), OP)?;
        }
        let mut off: Option<Poly> = None;
        for (&(.., i), (_, d)) in leaves.iter().zip(&rests) {
            let term = i.mul(d)?;
            off = Some(match off {
                None => term,
                Some(o) => o.add(&term)?,
            });
        }
        Ok((SymLayout::new(Node::Tuple(tiles)), off.unwrap_or(ZERO)))
    })())
}

/// [`local_tile`] without its closed forms: always the tile and rest of CuTe's
/// `zipped_divide` (through [`logical_divide_general`]). For the tests that compare the two.
///
/// Pre/Post: as [`local_tile`] (the same layout, guards and errors). Example: see
/// `tests/symbolic/fast_paths.rs`.
#[doc(hidden)]
pub fn local_tile_general(
    ctx: &mut Ctx,
    a: &SymLayout,
    t: &Tiler,
    coord: &Item,
) -> Result<(SymLayout, Poly), SymError> {
    let z = unzip(logical_divide_general(ctx, a, t)?, t)?;
    local_tile_of(ctx, z, coord)
}

/// The tile of a zipped divide `z` and the offset of `coord` in its rest mode (in bounds,
/// decided or guarded).
fn local_tile_of(ctx: &mut Ctx, z: SymLayout, coord: &Item) -> Result<(SymLayout, Poly), SymError> {
    let (tile, rest) = match z.root {
        Node::Tuple(mut ms) if ms.len() == 2 => match (ms.pop(), ms.pop()) {
            (Some(rest), Some(tile)) => (tile, rest),
            _ => unreachable!("a rank-2 mode has two modes"),
        },
        _ => {
            return Err(SymError::Unsupported {
                op: "local_tile",
                what: "the divide is not rank 2".into(),
            })
        }
    };
    in_domain(ctx, coord, &rest, "local_tile")?;
    let off = offset_node(coord, &rest)?;
    Ok((SymLayout::new(tile), off))
}

pub(crate) fn in_domain(
    ctx: &mut Ctx,
    coord: &Item,
    n: &Node,
    op: &'static str,
) -> Result<(), SymError> {
    match (coord, n) {
        (Item::Tuple(cs), Node::Tuple(ms)) if cs.len() == ms.len() => {
            for (ci, mi) in cs.iter().zip(ms) {
                in_domain(ctx, ci, mi, op)?;
            }
            Ok(())
        }
        (Item::Expr(i), _) => require_in_bounds(ctx, i, || size_node(n)?.sub(&ONE), op),
        _ => Err(SymError::Unsupported {
            op,
            what: "a coordinate not congruent to the rest mode".into(),
        }),
    }
}

/// Requires `i >= 0`, then `last >= i` with `last` (the mode's size minus 1) computed between
/// the two: the in-bounds conditions of a coordinate, in the order every caller decides them.
fn require_in_bounds(
    ctx: &mut Ctx,
    i: &Poly,
    last: impl FnOnce() -> Result<Poly, SymError>,
    op: &'static str,
) -> Result<(), SymError> {
    ctx.require_on(Rel::Ge, i, &ZERO, op)?;
    ctx.require_on(Rel::Ge, &last()?, i, op)
}

/// `local_partition(A, thr, idx)`: thread `idx`'s part of `zipped_divide(A, shape(thr))`: the
/// rest layout and the offset of the thread's coordinate (`thr` an integer, compact layout;
/// `idx` may be symbolic).
///
/// Pre: `thr` has integer leaves and is a bijection onto `[0, size)`; `0 <= idx < size(thr)`.
/// Post: `(layout, offset)`. Example: `local_partition((M,K):(K,1),(32,4):(4,1),3)` is
/// `((ceil_div(M,32),ceil_div(K,4)):(32*K,4), 3)` under structure guards.
pub fn local_partition(
    ctx: &mut Ctx,
    a: &SymLayout,
    thr: &SymLayout,
    idx: &Poly,
) -> Result<(SymLayout, Poly), SymError> {
    const OP: &str = "local_partition";
    let leaves = thr.root.leaves();
    let mut ints: Vec<(i64, i64)> = Vec::new();
    for (s, d) in &leaves {
        match (s.as_const(), d.as_const()) {
            (Some(s), Some(d)) => ints.push((s, d)),
            _ => {
                return Err(SymError::Unsupported {
                    op: OP,
                    what: "the thread layout must have integer leaves".into(),
                })
            }
        }
    }
    // Compact: sorted by stride, the strides chain 1, s0*d0, ... (size-1 modes aside).
    let mut sorted: Vec<(i64, i64)> = ints.iter().copied().filter(|m| m.0 != 1).collect();
    sorted.sort_by_key(|m| m.1);
    let mut cur = 1i64;
    for (s, d) in &sorted {
        if *d != cur {
            return Err(SymError::Unsupported {
                op: OP,
                what: format!("the thread layout {thr} is not compact"),
            });
        }
        cur = s
            .checked_mul(*d)
            .ok_or_else(|| SymError::Overflow("thread layout".into()))?;
    }
    ctx.require_on(Rel::Ge, idx, &ZERO, OP)?;
    ctx.require_on(Rel::Ge, &c(cur - 1), idx, OP)?;
    // The coordinate of idx: c_i = (idx / d_i) % s_i, congruent to thr's shape.
    fn coord_of(n: &Node, idx: &Poly) -> Result<Item, SymError> {
        match n {
            Node::Leaf(s, d) => {
                if s.as_const() == Some(1) {
                    Ok(Item::Expr(c(0)))
                } else {
                    Ok(Item::Expr(idx.floor_div(d)?.rem(s)?))
                }
            }
            Node::Tuple(ms) => Ok(Item::Tuple(
                ms.iter()
                    .map(|m| coord_of(m, idx))
                    .collect::<Result<_, _>>()?,
            )),
        }
    }
    let coord = coord_of(&thr.root, idx)?;
    // The tiler is thr's shape, mode by mode.
    fn shape_tiler(n: &Node) -> Tiler {
        match n {
            Node::Leaf(s, _) => Tiler::Layout(SymLayout::leaf(s.clone(), c(1))),
            Node::Tuple(ms) => Tiler::Tuple(ms.iter().map(shape_tiler).collect()),
        }
    }
    let t = shape_tiler(&thr.root);
    let z = zipped_divide(ctx, a, &t)?;
    let modes = z.root.modes();
    if modes.len() != 2 {
        return Err(SymError::Unsupported {
            op: OP,
            what: "the divide is not rank 2".into(),
        });
    }
    let off = crd2idx_node(ctx, &coord, &modes[0])?;
    Ok((SymLayout::new(modes[1].clone()), off))
}

/// Reads a tiler: `_`, a layout `s:d`, an expression `n` (`n:1`), or a tuple of tilers.
///
/// Pre: none. Post: the tiler or a parse error. Example: `(128,64)`, `(3:3,(2,4):(1,8))`.
pub fn parse_tiler(s: &str) -> Result<Tiler, SymError> {
    let mut r = Reader::new(s);
    let t = read_tiler(&mut r)?;
    if !r.at_end() {
        return Err(r.unexpected());
    }
    Ok(t)
}

pub(crate) fn read_tiler(r: &mut Reader<'_>) -> Result<Tiler, SymError> {
    if r.peek() == Some(b'_') {
        let save = r.pos;
        r.pos += 1;
        match r.peek() {
            Some(b',') | Some(b')') | None => return Ok(Tiler::Under),
            _ => r.pos = save,
        }
    }
    // A layout (or an expression) when it parses as one; else a tuple of tilers.
    let save = r.pos;
    // (`_` reads as a name inside a layout: a tuple with `_` is a tuple of tilers.)
    if let Ok(l) = read_layout(r).map(|l| (l.names().iter().all(|n| n != "_"), l)) {
        let (no_under, l) = l;
        match r.peek() {
            _ if !no_under => {}
            Some(b',') | Some(b')') | None => {
                return Ok(match &l.root {
                    // A tuple without strides is a tuple of leaf tilers, mode by mode.
                    Node::Tuple(_) if !r_had_colon(r, save) => tuple_of_leaves(&l.root),
                    _ => Tiler::Layout(leaf_tiler(l)),
                });
            }
            _ => {}
        }
    }
    r.pos = save;
    r.expect(b'(')?;
    let mut ts = vec![read_tiler(r)?];
    while r.eat(b',') {
        ts.push(read_tiler(r)?);
    }
    r.expect(b')')?;
    Ok(Tiler::Tuple(ts))
}

fn r_had_colon(r: &Reader<'_>, from: usize) -> bool {
    r.slice(from).contains(':')
}

fn leaf_tiler(l: SymLayout) -> SymLayout {
    l
}

fn tuple_of_leaves(n: &Node) -> Tiler {
    match n {
        Node::Leaf(s, _) => Tiler::Layout(SymLayout::leaf(s.clone(), c(1))),
        Node::Tuple(ms) => Tiler::Tuple(ms.iter().map(tuple_of_leaves).collect()),
    }
}

/// The tiler as a layout when it is one (for printing).
///
/// Pre: none. Post: `Some` for a layout tiler. Example: `128` gives `128:1`.
pub fn as_layout(t: &Tiler) -> Option<&SymLayout> {
    tiler_layout(t)
}
