//! Evaluating one call of the symbolic algebra from text: `logical_divide((M,K):(K,1),(128,64))`
//! with facts, answered with the result and its guards.

use super::expr::{Item, Poly, Reader};
use super::facts::{Assignment, Facts, Pred};
use super::layout::{read_layout, SymLayout};
use super::ops::{self, read_tiler, Tiler};
use super::product::{self, read_slice_crd, SliceCrd};
use super::ragged::{self, SymRagged, SymRaggedSlice};
use super::swizzle::{self, SymComposed};
use super::{Ctx, Guard, Sym, SymError};
use crate::algebra::ragged::Arrangement;
use crate::layout::value::Value;
use std::fmt;

/// A value of the symbolic language.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum SymValue {
    /// A layout.
    Layout(SymLayout),
    /// An integer expression.
    Expr(Poly),
    /// A coordinate (an expression or a tuple of them).
    Coord(Item),
    /// A pair, e.g. `(tile, offset)`.
    Tuple(Vec<SymValue>),
    /// A ragged divide: the layout over the padded domain, its hole count and predicate.
    Ragged(Box<SymRagged>),
    /// One tile or one thread's elements of a ragged divide, with its holes and predicate.
    RaggedSlice(Box<SymRaggedSlice>),
    /// A swizzled layout `Sw<B,M,S> o off o L` with a symbolic inner layout.
    Composed(Box<SymComposed>),
}

fn write_item(f: &mut fmt::Formatter<'_>, it: &Item) -> fmt::Result {
    match it {
        Item::Expr(p) => write!(f, "{p}"),
        Item::Tuple(v) => {
            f.write_str("(")?;
            for (i, x) in v.iter().enumerate() {
                if i > 0 {
                    f.write_str(",")?;
                }
                write_item(f, x)?;
            }
            f.write_str(")")
        }
    }
}

impl fmt::Display for SymValue {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            SymValue::Layout(l) => write!(f, "{l}"),
            SymValue::Expr(p) => write!(f, "{p}"),
            SymValue::Coord(c) => write_item(f, c),
            SymValue::Ragged(r) => write!(f, "{r}"),
            SymValue::RaggedSlice(r) => write!(f, "{r}"),
            SymValue::Composed(z) => write!(f, "{z}"),
            SymValue::Tuple(v) => {
                f.write_str("(")?;
                for (i, x) in v.iter().enumerate() {
                    if i > 0 {
                        f.write_str(",")?;
                    }
                    write!(f, "{x}")?;
                }
                f.write_str(")")
            }
        }
    }
}

fn item_subs(it: &Item, env: &Assignment) -> Result<Value, SymError> {
    Ok(match it {
        Item::Expr(p) => Value::Int(p.eval(env)?),
        Item::Tuple(v) => Value::Tuple(
            v.iter()
                .map(|x| item_subs(x, env))
                .collect::<Result<_, _>>()?,
        ),
    })
}

impl SymValue {
    /// Instantiates every name: the integer value (as the integer algebra prints it).
    ///
    /// Pre: every name has a value. Post: the integer value, or an error when a leaf is not a
    /// valid integer layout. Example: `(M,K):(K,1)` at `M = 4, K = 8` is `(4,8):(8,1)`.
    pub fn subs(&self, env: &Assignment) -> Result<Value, SymError> {
        Ok(match self {
            SymValue::Layout(l) => Value::Layout(l.subs(env)?),
            SymValue::Expr(p) => Value::Int(p.eval(env)?),
            SymValue::Coord(c) => item_subs(c, env)?,
            // (layout, points, valid, holes), as the integer ragged divide reports them.
            SymValue::Composed(z) => z.subs(env)?,
            SymValue::Ragged(r) => Value::Tuple(vec![
                Value::Layout(r.layout.subs(env)?),
                Value::Int(r.points.eval(env)?),
                Value::Int(r.valid.eval(env)?),
                Value::Int(r.holes.eval(env)?),
            ]),
            // (layout, offset, points, valid, holes), as the integer ragged slice reports them.
            SymValue::RaggedSlice(r) => Value::Tuple(vec![
                Value::Layout(r.layout.subs(env)?),
                Value::Int(r.offset.eval(env)?),
                Value::Int(r.points.eval(env)?),
                Value::Int(r.valid.eval(env)?),
                Value::Int(r.holes.eval(env)?),
            ]),
            SymValue::Tuple(v) => {
                Value::Tuple(v.iter().map(|x| x.subs(env)).collect::<Result<_, _>>()?)
            }
        })
    }
}

/// The operations the symbolic language accepts, with their argument kinds
/// (`L` layout, `T` tiler, `E` expression, `C` coordinate or shape, `S` slice coordinate
/// with `_`, `L?`/`E?`/`C?` optional).
pub const OPERATIONS: &[(&str, &str)] = &[
    ("size", "L"),
    ("cosize", "L"),
    ("coalesce", "L"),
    ("composition", "L,L"),
    ("complement", "L,E?"),
    ("logical_divide", "L,T"),
    ("zipped_divide", "L,T"),
    ("tiled_divide", "L,T"),
    ("flat_divide", "L,T"),
    ("logical_product", "L,T"),
    ("zipped_product", "L,T"),
    ("right_inverse", "L"),
    ("left_inverse", "L"),
    ("crd2idx", "C,L"),
    ("idx2crd", "E,C"),
    ("local_tile", "L,T,C"),
    ("local_partition", "L,L,E"),
    ("tiled_product", "L,T"),
    ("flat_product", "L,T"),
    ("blocked_product", "L,L"),
    ("raked_product", "L,L"),
    ("tile_to_shape", "L,C,C?"),
    ("slice", "S,L"),
    ("ragged_logical_divide", "L,T"),
    ("ragged_zipped_divide", "L,T"),
    ("ragged_tiled_divide", "L,T"),
    ("ragged_flat_divide", "L,T"),
    ("ragged_local_tile", "L,T,C"),
    ("ragged_local_partition", "L,L,E"),
    ("eval", "L,E"),
];

#[derive(Clone)]
enum Arg {
    L(SymLayout),
    T(Tiler),
    E(Poly),
    C(Item),
    S(SliceCrd),
    Z(SymComposed),
}

fn names_of_tiler(t: &Tiler, out: &mut Vec<String>) {
    match t {
        Tiler::Layout(l) => l.root.names(out),
        Tiler::Under => {}
        Tiler::Tuple(v) => v.iter().for_each(|x| names_of_tiler(x, out)),
    }
}

fn names_of_item(it: &Item, out: &mut Vec<String>) {
    match it {
        Item::Expr(p) => p.names(out),
        Item::Tuple(v) => v.iter().for_each(|x| names_of_item(x, out)),
    }
}

/// Evaluates `text` (a call `op(args…)` or a bare layout) under facts: the value and its guards.
///
/// Pre: none. Post: the result, exact for every assignment satisfying the facts and the
/// guards; a fact naming a name the call does not use is [`SymError::UnknownName`]; an
/// obligation false for every allowed size is [`SymError::Refuted`] with a witness.
/// Example: `eval("coalesce((M,N):(1,M))", &[])` is `M*N:1` with no guard.
pub fn eval<S: AsRef<str>>(text: &str, assume: &[S]) -> Result<Sym<SymValue>, SymError> {
    let mut facts = Facts::parse(assume)?;
    let (op, args) = parse_call(text)?;
    let mut names = Vec::new();
    let mut coords = Vec::new();
    let index_op = matches!(
        op,
        "idx2crd" | "local_partition" | "ragged_local_partition" | "eval"
    );
    for a in &args {
        match a {
            Arg::L(l) => l.root.names(&mut names),
            Arg::T(t) => names_of_tiler(t, &mut names),
            Arg::E(p) if index_op => p.names(&mut coords),
            Arg::E(p) => p.names(&mut names),
            // A shape (tile_to_shape's target, idx2crd's shape) holds extents.
            Arg::C(c) if matches!(op, "tile_to_shape" | "idx2crd") => names_of_item(c, &mut names),
            Arg::C(c) => names_of_item(c, &mut coords),
            Arg::S(c) => c.names(&mut coords),
            Arg::Z(z) => {
                z.offset.names(&mut names);
                z.inner.root.names(&mut names);
            }
        }
    }
    // Coordinates and indices may be 0; extents may not.
    let nonneg: Vec<String> = coords
        .iter()
        .filter(|n| !names.contains(n))
        .cloned()
        .collect();
    names.extend(coords);
    facts.check_known(&names)?;
    if !nonneg.is_empty() {
        facts.set_nonnegative(&nonneg)?;
    }
    let facts_for_tidy = facts.clone();
    let constant = names.is_empty();
    let split = split_cases(&facts, &mut |ctx: &mut Ctx| {
        let v = apply(ctx, op, args.clone())?;
        tidy_value(&ctx.facts, v)
    });
    let mut out = match split {
        Err(SymError::Refuted {
            op: rop,
            obligation,
            witness,
        }) => return refusal(text, constant, rop, obligation, witness),
        other => other?,
    };
    // Guards read better with the quotients the facts make exact (`M/128 > bm`); the original
    // facts (not the guards) justify the rewrite, so the guard means the same.
    for g in &mut out.guards {
        g.pred.lhs = facts_for_tidy.tidy(&g.pred.lhs)?;
        g.pred.rhs = facts_for_tidy.tidy(&g.pred.rhs)?;
    }
    Ok(out)
}

/// A refusal of [`split_cases`] made right for the integer algebra. The symbolic operations
/// check CuTe's conditions, some of which are only sufficient: composition's stride
/// divisibility and complement's tractability (the integer algebra decides admissibility
/// exactly, and answers some calls that break them). So a call without names is decided by the
/// integer algebra itself (its answer, or the refusal when it refuses too), and a refusal of one
/// of those conditions on a call with names is [`SymError::Unsupported`], not
/// [`SymError::Refuted`].
fn refusal(
    text: &str,
    constant: bool,
    op: &'static str,
    obligation: String,
    witness: super::facts::Assignment,
) -> Result<Sym<SymValue>, SymError> {
    let refuted = SymError::Refuted {
        op,
        obligation,
        witness,
    };
    if constant {
        return match crate::notation::eval(text) {
            Err(_) => Err(refuted),
            Ok(v) => match from_value(&v) {
                Some(value) => Ok(Sym {
                    value,
                    guards: Vec::new(),
                }),
                None => Err(SymError::Unsupported {
                    op,
                    what: format!(
                        "{refuted}; the integer algebra answers {v} (exact admissibility), \
                         which the symbolic form does not represent"
                    ),
                }),
            },
        };
    }
    if matches!(op, "composition" | "complement") {
        let SymError::Refuted { obligation, .. } = &refuted else {
            unreachable!("built above")
        };
        return Err(SymError::Unsupported {
            op,
            what: format!(
                "CuTe's condition {obligation} is false for every size the facts allow, but it \
                 is only sufficient: the integer algebra decides admissibility exactly and may \
                 answer at some sizes (instantiate them)"
            ),
        });
    }
    Err(refuted)
}

/// An integer value as a symbolic one (layouts, integers and tuples of them).
fn from_value(v: &Value) -> Option<SymValue> {
    Some(match v {
        Value::Int(x) => SymValue::Expr(Poly::constant(*x)),
        Value::Layout(l) => SymValue::Layout(l.to_string().parse().ok()?),
        Value::Tuple(xs) => SymValue::Tuple(xs.iter().map(from_value).collect::<Option<_>>()?),
        _ => return None,
    })
}

/// How many re-runs [`split_cases`] may make for one computation.
const SPLIT_BUDGET: usize = 256;

/// Runs a symbolic computation so that a refusal holds for every size the facts allow.
///
/// An operation takes one side of each undecided branch and records it as a guard, so an
/// obligation refuted on its path is refuted only where the path's guards hold (e.g.
/// `left_inverse((16,M):(M,M))` keeps the mode `M` under the guard `M != 1`, and then its
/// strides overlap for every `M != 1`; at `M = 1` the layout is `16:1`). On such a refusal the
/// computation runs again on each other part of the case split the path made: with the path's
/// guards `g1 … gk`, the parts `¬g1`, `g1 ∧ ¬g2`, …, `g1 ∧ … ∧ ¬gk` (each taken as guards, so
/// they join the facts where they have a fact's shape). The first part that answers gives the
/// result, with the part's conditions among its guards; when every part refuses, so does the
/// whole.
///
/// Pre: `f` is a computation whose refusals are right under the facts and the guards of its
/// context. Post: a result exact under the facts and its guards; [`SymError::Refuted`] only
/// when every part refused (its witness satisfies `facts`); a case split too large to explore
/// ([`SPLIT_BUDGET`] re-runs) is [`SymError::Unsupported`], naming the part it refused.
/// Example: `eval("left_inverse((16,M):(M,M))", &[])` is `16:1` with the guard `M == 1`.
pub fn split_cases<T>(
    facts: &Facts,
    f: &mut dyn FnMut(&mut Ctx) -> Result<T, SymError>,
) -> Result<Sym<T>, SymError> {
    let mut budget = SPLIT_BUDGET;
    let mut fallback = None;
    let r = split_part(facts, &[], f, &mut budget, &mut fallback);
    if let (Err(SymError::Refuted { .. }), Some(answer)) = (&r, fallback) {
        return Ok(answer);
    }
    match r {
        Err(SymError::Refuted { op, obligation, .. }) if budget == 0 => {
            Err(SymError::Unsupported {
                op,
                what: format!(
                    "{obligation} is false where the guards of the algorithm's path hold, \
                     and the case split over the other sizes is too large to explore"
                ),
            })
        }
        Err(SymError::Refuted { op, obligation, .. }) => Err(SymError::Refuted {
            op,
            obligation,
            witness: facts.witness_any()?,
        }),
        other => other,
    }
}

/// `X*Y*… == 1` over names (each a non-negative integer, powers allowed) is `X == 1 && Y == 1 && …`: split so
/// that each joins the facts (a product of names is not a fact's shape); any other condition
/// is itself.
fn unit_product(p: Pred) -> Result<Vec<Pred>, SymError> {
    if p.rel != super::facts::Rel::Eq {
        return Ok(vec![p]);
    }
    let d = p.lhs.sub(&p.rhs)?.add(&Poly::constant(1))?;
    let mut names = Vec::new();
    d.names(&mut names);
    if names.is_empty() || d == Poly::name(&names[0]) {
        return Ok(vec![p]);
    }
    // Divide the names out (with their powers): a product of names leaves exactly 1.
    let mut rest = d;
    for n in &names {
        let x = Poly::name(n);
        for _ in 0..8 {
            let q = rest.floor_div(&x)?;
            if q.has_quotient() || q.mul(&x)? != rest {
                break;
            }
            rest = q;
        }
    }
    if rest.as_const() != Some(1) {
        return Ok(vec![p]);
    }
    Ok(names
        .iter()
        .map(|n| Pred::eq(Poly::name(n), Poly::constant(1)))
        .collect())
}

/// Whether the bounded search finds an assignment satisfying the facts and the guards.
fn satisfiable(facts: &Facts, guards: &[Guard]) -> Result<bool, SymError> {
    let mut names = Vec::new();
    for g in guards {
        g.pred.lhs.names(&mut names);
        g.pred.rhs.names(&mut names);
    }
    let found = facts.witness_over(&names, &|env| {
        for g in guards {
            if !g.pred.holds(env)? {
                return Ok(false);
            }
        }
        Ok(true)
    })?;
    Ok(found.is_some())
}

/// One part of [`split_cases`]: the computation under `facts` and the conditions `pre`.
fn split_part<T>(
    facts: &Facts,
    pre: &[Guard],
    f: &mut dyn FnMut(&mut Ctx) -> Result<T, SymError>,
    budget: &mut usize,
    fallback: &mut Option<Sym<T>>,
) -> Result<Sym<T>, SymError> {
    let mut ctx = Ctx::new(facts.clone());
    for g in pre {
        if ctx.decide_fast(&g.pred)? == Some(false) {
            // An empty part: nothing to answer there.
            return Err(SymError::Refuted {
                op: g.op,
                obligation: g.pred.to_string(),
                witness: Default::default(),
            });
        }
        ctx.push(g.pred.clone(), g.op);
    }
    let refusal = match f(&mut ctx) {
        Ok(v) => {
            // One guard per condition as printed (a part's condition may be pushed in two
            // equivalent forms).
            let mut out = ctx.finish(v);
            let mut seen: Vec<String> = Vec::new();
            out.guards.retain(|g| {
                let t = g.to_string();
                let new = !seen.contains(&t);
                seen.push(t);
                new
            });
            if pre.is_empty() || satisfiable(facts, &out.guards)? {
                return Ok(out);
            }
            // No size found where the part's guards hold: keep looking for a part that
            // answers for some size, and keep this answer (never wrong) as the last resort.
            let why = SymError::Refuted {
                op: pre[pre.len() - 1].op,
                obligation: "the guards of this part".into(),
                witness: Default::default(),
            };
            fallback.get_or_insert(out);
            return Err(why);
        }
        Err(e @ SymError::Refuted { .. }) => e,
        Err(e) => return Err(e),
    };
    let path: Vec<Guard> = ctx
        .guards
        .iter()
        .filter(|g| !pre.contains(g))
        .cloned()
        .collect();
    for i in 0..path.len() {
        if *budget == 0 {
            return Err(refusal);
        }
        *budget -= 1;
        let mut part: Vec<Guard> = pre.to_vec();
        part.extend(path[..i].iter().cloned());
        let g = &path[i].pred;
        let mut forms = unit_product(g.negate()?)?;
        if g.rel == super::facts::Rel::Ge {
            // `!(a >= b)` also as `b - 1 >= a`: the form of the branch whose negation made the
            // guard `a >= b`, so that the branch finds it literally.
            forms.push(Pred::ge(g.rhs.sub(&Poly::constant(1))?, g.lhs.clone()));
        }
        for pred in forms {
            part.push(Guard {
                pred,
                op: path[i].op,
            });
        }
        match split_part(facts, &part, f, budget, fallback) {
            // A divisor zero for every size of the part: its inputs are not layouts there.
            Err(SymError::Refuted { .. }) | Err(SymError::DivisionByZero(_)) => continue,
            other => return other,
        }
    }
    Err(refusal)
}

fn tidy_item(f: &Facts, it: Item) -> Result<Item, SymError> {
    Ok(match it {
        Item::Expr(p) => Item::Expr(f.tidy(&p)?),
        Item::Tuple(v) => Item::Tuple(
            v.into_iter()
                .map(|x| tidy_item(f, x))
                .collect::<Result<_, _>>()?,
        ),
    })
}

fn tidy_node(f: &Facts, n: super::layout::Node) -> Result<super::layout::Node, SymError> {
    use super::layout::Node;
    Ok(match n {
        Node::Leaf(s, d) => Node::Leaf(f.tidy(&s)?, f.tidy(&d)?),
        Node::Tuple(v) => Node::Tuple(
            v.into_iter()
                .map(|x| tidy_node(f, x))
                .collect::<Result<_, _>>()?,
        ),
    })
}

/// Rewrites the quotients of a value that the facts (and the guards that became facts) make
/// exact: `ceil_div(M,128)` prints `M/128` under `M % 128 == 0`.
fn tidy_value(f: &Facts, v: SymValue) -> Result<SymValue, SymError> {
    Ok(match v {
        SymValue::Layout(l) => SymValue::Layout(SymLayout::new(tidy_node(f, l.root)?)),
        SymValue::Expr(p) => SymValue::Expr(f.tidy(&p)?),
        SymValue::Coord(c) => SymValue::Coord(tidy_item(f, c)?),
        SymValue::Composed(z) => {
            let z = *z;
            SymValue::Composed(Box::new(SymComposed {
                offset: f.tidy(&z.offset)?,
                inner: SymLayout::new(tidy_node(f, z.inner.root)?),
                swizzle: z.swizzle,
            }))
        }
        SymValue::Ragged(r) => {
            let r = *r;
            SymValue::Ragged(Box::new(SymRagged {
                layout: SymLayout::new(tidy_node(f, r.layout.root)?),
                points: f.tidy(&r.points)?,
                valid: f.tidy(&r.valid)?,
                holes: f.tidy(&r.holes)?,
                ..r
            }))
        }
        SymValue::RaggedSlice(r) => {
            let r = *r;
            let tidy2 = |(a, b): (Poly, Poly)| -> Result<(Poly, Poly), SymError> {
                Ok((f.tidy(&a)?, f.tidy(&b)?))
            };
            SymValue::RaggedSlice(Box::new(SymRaggedSlice {
                layout: SymLayout::new(tidy_node(f, r.layout.root)?),
                offset: f.tidy(&r.offset)?,
                points: f.tidy(&r.points)?,
                valid: f.tidy(&r.valid)?,
                holes: f.tidy(&r.holes)?,
                extents: r.extents.into_iter().map(tidy2).collect::<Result<_, _>>()?,
                ..r
            }))
        }
        SymValue::Tuple(v) => SymValue::Tuple(
            v.into_iter()
                .map(|x| tidy_value(f, x))
                .collect::<Result<_, _>>()?,
        ),
    })
}

fn apply(ctx: &mut Ctx, op: &str, mut args: Vec<Arg>) -> Result<SymValue, SymError> {
    use Arg::*;
    // A swizzled first argument: echoed, evaluated, or lifted through its inner layout.
    if let Some(Z(_)) = args.first() {
        let Z(z) = args.remove(0) else {
            unreachable!("checked above")
        };
        return match (op, args.first()) {
            ("", None) => Ok(SymValue::Composed(Box::new(z))),
            ("eval", Some(E(i))) => Ok(SymValue::Expr(swizzle::eval_composed(ctx, &z, i)?)),
            (op, _) if swizzle::LIFTED.contains(&op) => {
                args.insert(0, L(z.inner.clone()));
                match apply(ctx, op, args)? {
                    SymValue::Layout(inner) => {
                        Ok(SymValue::Composed(Box::new(SymComposed { inner, ..z })))
                    }
                    other => Ok(other),
                }
            }
            (op, _) => Err(SymError::Unsupported {
                op: "eval",
                what: format!("`{op}` is not defined on a swizzled layout symbolically"),
            }),
        };
    }
    if args.iter().any(|a| matches!(a, Z(_))) {
        return Err(SymError::Unsupported {
            op: "eval",
            what: format!("`{op}` takes a swizzled layout only as its first argument"),
        });
    }
    let mut it = args.into_iter();
    let (a0, a1, a2) = (it.next(), it.next(), it.next());
    Ok(match (op, a0, a1, a2) {
        ("", Some(L(l)), None, None) => SymValue::Layout(l),
        ("size", Some(L(l)), None, None) => SymValue::Expr(ops::size(ctx, &l)?),
        ("cosize", Some(L(l)), None, None) => SymValue::Expr(ops::cosize(ctx, &l)?),
        ("coalesce", Some(L(l)), None, None) => SymValue::Layout(ops::coalesce(ctx, &l)?),
        ("composition", Some(L(a)), Some(L(b)), None) => {
            SymValue::Layout(ops::composition(ctx, &a, &b)?)
        }
        ("complement", Some(L(a)), m, None) => {
            let m = match m {
                Some(E(p)) => Some(p),
                _ => None,
            };
            SymValue::Layout(ops::complement(ctx, &a, m.as_ref())?)
        }
        ("logical_divide", Some(L(a)), Some(T(t)), None) => {
            SymValue::Layout(ops::logical_divide(ctx, &a, &t)?)
        }
        ("zipped_divide", Some(L(a)), Some(T(t)), None) => {
            SymValue::Layout(ops::zipped_divide(ctx, &a, &t)?)
        }
        ("tiled_divide", Some(L(a)), Some(T(t)), None) => {
            SymValue::Layout(ops::tiled_divide(ctx, &a, &t)?)
        }
        ("flat_divide", Some(L(a)), Some(T(t)), None) => {
            SymValue::Layout(ops::flat_divide(ctx, &a, &t)?)
        }
        ("logical_product", Some(L(a)), Some(T(t)), None) => {
            SymValue::Layout(ops::logical_product(ctx, &a, &t)?)
        }
        ("zipped_product", Some(L(a)), Some(T(t)), None) => {
            SymValue::Layout(ops::zipped_product(ctx, &a, &t)?)
        }
        ("right_inverse", Some(L(l)), None, None) => SymValue::Layout(ops::right_inverse(ctx, &l)?),
        ("left_inverse", Some(L(l)), None, None) => SymValue::Layout(ops::left_inverse(ctx, &l)?),
        ("crd2idx", Some(C(c)), Some(L(l)), None) => SymValue::Expr(ops::crd2idx(ctx, &c, &l)?),
        ("idx2crd", Some(E(i)), Some(C(s)), None) => {
            let shape = SymLayout::new(coord_shape(&s));
            SymValue::Coord(ops::idx2crd(ctx, &i, &shape.root)?)
        }
        ("local_tile", Some(L(a)), Some(T(t)), Some(C(c))) => {
            let (l, off) = ops::local_tile(ctx, &a, &t, &c)?;
            SymValue::Tuple(vec![SymValue::Layout(l), SymValue::Expr(off)])
        }
        ("local_partition", Some(L(a)), Some(L(thr)), Some(E(i))) => {
            let (l, off) = ops::local_partition(ctx, &a, &thr, &i)?;
            SymValue::Tuple(vec![SymValue::Layout(l), SymValue::Expr(off)])
        }
        ("tiled_product", Some(L(a)), Some(T(t)), None) => {
            SymValue::Layout(product::tiled_product(ctx, &a, &t)?)
        }
        ("flat_product", Some(L(a)), Some(T(t)), None) => {
            SymValue::Layout(product::flat_product(ctx, &a, &t)?)
        }
        ("blocked_product", Some(L(a)), Some(L(b)), None) => {
            SymValue::Layout(product::blocked_product(ctx, &a, &b)?)
        }
        ("raked_product", Some(L(a)), Some(L(b)), None) => {
            SymValue::Layout(product::raked_product(ctx, &a, &b)?)
        }
        ("tile_to_shape", Some(L(a)), Some(C(s)), o) => {
            let o = match o {
                Some(C(o)) => Some(o),
                _ => None,
            };
            SymValue::Layout(product::tile_to_shape(ctx, &a, &s, o.as_ref())?)
        }
        ("slice", Some(S(c)), Some(L(l)), None) => SymValue::Layout(product::slice(ctx, &c, &l)?),
        ("eval", Some(L(l)), Some(E(i)), None) => SymValue::Expr(swizzle::eval_at(ctx, &l, &i)?),
        ("ragged_local_tile", Some(L(a)), Some(T(t)), Some(C(c))) => {
            SymValue::RaggedSlice(Box::new(ragged::ragged_local_tile(ctx, &a, &t, &c)?))
        }
        ("ragged_local_partition", Some(L(a)), Some(L(thr)), Some(E(i))) => {
            SymValue::RaggedSlice(Box::new(ragged::ragged_local_partition(ctx, &a, &thr, &i)?))
        }
        (name, Some(L(a)), Some(T(t)), None) if name.starts_with("ragged_") => {
            let arr =
                Arrangement::parse(&name["ragged_".len()..]).ok_or(SymError::Unsupported {
                    op: "eval",
                    what: format!("`{name}` is not a ragged divide"),
                })?;
            SymValue::Ragged(Box::new(ragged::ragged_divide(ctx, &a, &t, arr)?))
        }
        (op, ..) => {
            return Err(SymError::Unsupported {
                op: "eval",
                what: format!("`{op}` with these arguments is not a symbolic operation"),
            })
        }
    })
}

fn coord_shape(s: &Item) -> super::layout::Node {
    match s {
        Item::Expr(p) => super::layout::Node::Leaf(p.clone(), Poly::constant(1)),
        Item::Tuple(v) => super::layout::Node::Tuple(v.iter().map(coord_shape).collect()),
    }
}

fn parse_call(text: &str) -> Result<(&'static str, Vec<Arg>), SymError> {
    let mut r = Reader::new(text);
    let save = r.pos;
    let name = r.ident();
    let sig = name
        .as_deref()
        .and_then(|n| OPERATIONS.iter().find(|(o, _)| *o == n))
        .copied();
    let Some((op, sig)) = sig.filter(|_| r.peek() == Some(b'(')) else {
        // A bare layout.
        r.pos = save;
        let l = if swizzle::at_swizzle(&mut r) {
            Arg::Z(swizzle::read_composed(&mut r)?)
        } else {
            Arg::L(read_layout(&mut r)?)
        };
        if !r.at_end() {
            return Err(r.unexpected());
        }
        return Ok(("", vec![l]));
    };
    r.expect(b'(')?;
    let kinds: Vec<&str> = sig.split(',').collect();
    let mut args = Vec::new();
    for (i, k) in kinds.iter().enumerate() {
        if i > 0 {
            if k.ends_with('?') && r.peek() == Some(b')') {
                break;
            }
            r.expect(b',')?;
        }
        args.push(match k.trim_end_matches('?') {
            "L" if swizzle::at_swizzle(&mut r) => Arg::Z(swizzle::read_composed(&mut r)?),
            "L" => Arg::L(read_layout(&mut r)?),
            "T" => Arg::T(read_tiler(&mut r)?),
            "E" => {
                let col = r.pos;
                match r.item()? {
                    Item::Expr(p) => Arg::E(p),
                    Item::Tuple(_) => {
                        return Err(SymError::Parse {
                            column: col + 1,
                            message: format!("{op}: expected an expression, found a tuple"),
                        })
                    }
                }
            }
            "S" => Arg::S(read_slice_crd(&mut r)?),
            _ => Arg::C(r.item()?),
        });
    }
    r.expect(b')')?;
    if !r.at_end() {
        return Err(r.unexpected());
    }
    Ok((op, args))
}
