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
use crate::notation::ops::{self as ops_registry, SymKind};
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

impl fmt::Display for SymValue {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            SymValue::Layout(l) => write!(f, "{l}"),
            SymValue::Expr(p) => write!(f, "{p}"),
            SymValue::Coord(c) => write!(f, "{c}"),
            SymValue::Ragged(r) => write!(f, "{r}"),
            SymValue::RaggedSlice(r) => write!(f, "{r}"),
            SymValue::Composed(z) => write!(f, "{z}"),
            SymValue::Tuple(v) => super::expr::write_tuple(f, v),
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

#[derive(Clone)]
enum Arg {
    L(SymLayout),
    T(Tiler),
    E(Poly),
    I(Poly),
    X(Item),
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
    for a in &args {
        match a {
            Arg::L(l) => l.root.names(&mut names),
            Arg::T(t) => names_of_tiler(t, &mut names),
            Arg::E(p) => p.names(&mut names),
            Arg::I(p) => p.names(&mut coords),
            Arg::X(c) => names_of_item(c, &mut names),
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
        require_extents(ctx, &args)?;
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

/// The obligation `e >= 1` of one extent (a shape leaf, a cotarget): the integer algebra
/// refuses a shape 0 or below (`non_positive_shape`).
fn require_extent(ctx: &mut Ctx, e: &Poly) -> Result<(), SymError> {
    if e.as_const().is_some_and(|c| c >= 1) {
        return Ok(());
    }
    ctx.require(Pred::ge(e.clone(), Poly::constant(1)), "shape")
}

fn require_node(ctx: &mut Ctx, n: &super::layout::Node) -> Result<(), SymError> {
    match n {
        super::layout::Node::Leaf(s, _) => require_extent(ctx, s),
        super::layout::Node::Tuple(v) => v.iter().try_for_each(|m| require_node(ctx, m)),
    }
}

fn require_tiler(ctx: &mut Ctx, t: &Tiler) -> Result<(), SymError> {
    match t {
        Tiler::Layout(l) => require_node(ctx, &l.root),
        Tiler::Under => Ok(()),
        Tiler::Tuple(v) => v.iter().try_for_each(|x| require_tiler(ctx, x)),
    }
}

fn require_item(ctx: &mut Ctx, it: &Item) -> Result<(), SymError> {
    match it {
        Item::Expr(p) => require_extent(ctx, p),
        Item::Tuple(v) => v.iter().try_for_each(|x| require_item(ctx, x)),
    }
}

/// Every extent of a call's arguments is at least 1, as the integer algebra requires: the
/// shapes of its layouts and tilers (a swizzled layout's inner layout), a target shape
/// (`tile_to_shape`, `idx2crd`) and a cotarget (`complement`). Each is proved from the facts,
/// or a guard (`M/2 >= 1`), or refuted (`M/2 >= 1` under `M == 1`): a case whose conditions
/// make an input extent 0 answers nothing.
fn require_extents(ctx: &mut Ctx, args: &[Arg]) -> Result<(), SymError> {
    for a in args {
        match a {
            Arg::L(l) => require_node(ctx, &l.root)?,
            Arg::Z(z) => require_node(ctx, &z.inner.root)?,
            Arg::T(t) => require_tiler(ctx, t)?,
            Arg::X(c) => require_item(ctx, c)?,
            Arg::E(p) => require_extent(ctx, p)?,
            Arg::C(_) | Arg::I(_) | Arg::S(_) => {}
        }
    }
    Ok(())
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
/// whole. A result whose guards hold for no size is no answer either: when they contradict each
/// other (a guard refuted under the facts and the others), the path is empty and the other
/// parts are explored in the same way; when only the bounded search failed to satisfy them, the
/// other parts are explored first, and when none answers the call is
/// [`SymError::Unsupported`] (`left_inverse((4*K,N):(N,4*K))` took the path
/// `N != 1 && 4*K >= 4*K*N`, empty; the part `N == 1` answers).
///
/// Pre: `f` is a computation whose refusals are right under the facts and the guards of its
/// context. Post: a result exact under the facts and its guards, and some size satisfying
/// them was found; [`SymError::Refuted`] only when every part refused or was proved empty (its
/// witness satisfies `facts`); a case split too large to explore ([`SPLIT_BUDGET`] re-runs), or
/// whose only answers have guards no size was found to satisfy, is [`SymError::Unsupported`].
/// Example: `eval("left_inverse((16,M):(M,M))", &[])` is `16:1` with the guard `M == 1`.
pub fn split_cases<T>(
    facts: &Facts,
    f: &mut dyn FnMut(&mut Ctx) -> Result<T, SymError>,
) -> Result<Sym<T>, SymError> {
    let mut budget = SPLIT_BUDGET;
    let mut fallback = None;
    let mut first = None;
    let mut r = split_part(facts, &[], f, &mut budget, &mut fallback, &mut first);
    if let (Err(SymError::Refuted { .. }), Some(answer)) = (&r, fallback) {
        // Every part refused, or answered with guards no size was found to satisfy: an answer
        // that may hold for no size is not claimed.
        let g = answer.guards;
        return Err(SymError::Unsupported {
            op: g.last().map_or("eval", |x| x.op),
            what: format!(
                "the answer holds only where {} hold, and no size the search tried satisfies \
                 them all (the decision procedure cannot refute them either); every other case \
                 refuses",
                g.iter()
                    .map(|x| x.to_string())
                    .collect::<Vec<_>>()
                    .join(" && ")
            ),
        });
    }
    if let (Err(SymError::Refuted { .. }), Some(e)) = (&r, first) {
        // The first obligation an operation refused (not a part found empty).
        r = Err(e);
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

/// What is known of the sizes where a result's guards all hold.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum Feasibility {
    /// The bounded search found one (satisfying the facts too).
    Witnessed,
    /// None: a guard is refuted under the facts strengthened by the other guards.
    Contradictory,
    /// The search found none, and no contradiction was proved.
    Unknown,
}

/// Whether some size allowed by the facts satisfies every guard: the facts are strengthened by
/// the guards that have a fact's shape, each guard is decided under them (refuted: the guards
/// contradict each other), then a bounded search looks for an assignment of the strengthened
/// facts on which every guard holds ([`Facts::witness_over`], then where `wide`
/// [`Facts::witness_wide`]).
fn feasibility(facts: &Facts, guards: &[Guard], wide: bool) -> Feasibility {
    if guards.is_empty() {
        // The facts are consistent (`Facts::parse` refuses contradictions).
        return Feasibility::Witnessed;
    }
    let mut f = facts.clone();
    for g in guards {
        f.strengthen(&g.pred);
    }
    // A strengthening that would contradict the base is not made, so a guard refuted here is
    // refuted by the facts and other guards (a guard added as a fact is proved, not refuted).
    if guards
        .iter()
        .any(|g| matches!(f.decide_quick(&g.pred), Ok(Some(false))))
    {
        return Feasibility::Contradictory;
    }
    let mut names = Vec::new();
    for g in guards {
        g.pred.lhs.names(&mut names);
        g.pred.rhs.names(&mut names);
    }
    let all = |env: &Assignment| -> Result<bool, SymError> {
        for g in guards {
            if !g.pred.holds(env)? {
                return Ok(false);
            }
        }
        Ok(true)
    };
    // The quick search first (it finds most), then, where `wide`, the wide one.
    match f.witness_over(&names, &all) {
        Ok(Some(_)) => return Feasibility::Witnessed,
        Ok(None) if wide => {}
        _ => return Feasibility::Unknown,
    }
    match f.witness_wide(&names, &all) {
        Ok(Some(_)) => Feasibility::Witnessed,
        _ => Feasibility::Unknown,
    }
}

/// One part of [`split_cases`]: the computation under `facts` and the conditions `pre`.
///
/// A result whose guards no size satisfies is not an answer: a contradiction proved
/// ([`Feasibility::Contradictory`]) makes the path empty, and the other parts of its case split
/// are explored as after a refusal; guards the bounded search cannot satisfy
/// ([`Feasibility::Unknown`]) make the result the last resort (`fallback`): when no part
/// answers with guards that hold somewhere, [`split_cases`] says so
/// ([`SymError::Unsupported`]) rather than answer for possibly no size.
fn split_part<T>(
    facts: &Facts,
    pre: &[Guard],
    f: &mut dyn FnMut(&mut Ctx) -> Result<T, SymError>,
    budget: &mut usize,
    fallback: &mut Option<Sym<T>>,
    first_refusal: &mut Option<SymError>,
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
    // A part whose conditions contradict each other (one refuted under the facts they made):
    // empty too.
    for g in pre {
        if ctx.facts.decide_quick(&g.pred)? == Some(false) {
            return Err(SymError::Refuted {
                op: g.op,
                obligation: g.pred.to_string(),
                witness: Default::default(),
            });
        }
    }
    let (refusal, path_guards, vacuous) = match f(&mut ctx) {
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
            // The wide search for the first run only (the parts of a split are many).
            let verdict = feasibility(facts, &out.guards, pre.is_empty());
            if verdict == Feasibility::Witnessed {
                return Ok(out);
            }
            // No size found where the guards hold: look for a part that answers for some
            // size; an answer not proved empty is kept (never wrong) as the last resort.
            let why = SymError::Refuted {
                op: out.guards[out.guards.len() - 1].op,
                obligation: format!(
                    "the conjunction of the guards {}",
                    out.guards
                        .iter()
                        .map(|g| g.to_string())
                        .collect::<Vec<_>>()
                        .join(" && ")
                ),
                witness: Default::default(),
            };
            let guards = out.guards.clone();
            if verdict == Feasibility::Unknown {
                fallback.get_or_insert(out);
            }
            (why, guards, true)
        }
        Err(e @ SymError::Refuted { .. }) => {
            first_refusal.get_or_insert_with(|| e.clone());
            (e, std::mem::take(&mut ctx.guards), false)
        }
        Err(e) => return Err(e),
    };
    let path: Vec<Guard> = path_guards
        .into_iter()
        .filter(|g| !pre.contains(g))
        .collect();
    // After a refusal, the parts in order (`¬g1` first); after a result that holds nowhere, the
    // part that keeps the longest prefix of its path first (the guards that made it empty come
    // late on the path: `g1 ∧ … ∧ g(k-1) ∧ ¬gk` first).
    let order: Vec<usize> = if vacuous {
        (0..path.len()).rev().collect()
    } else {
        (0..path.len()).collect()
    };
    for i in order {
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
        match split_part(facts, &part, f, budget, fallback, first_refusal) {
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
            ("eval", Some(I(i))) => Ok(SymValue::Expr(swizzle::eval_composed(ctx, &z, i)?)),
            (op, _) if swizzle::lifted(op) => {
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
        ("idx2crd", Some(I(i)), Some(X(s)), None) => {
            let shape = SymLayout::new(coord_shape(&s));
            SymValue::Coord(ops::idx2crd(ctx, &i, &shape.root)?)
        }
        ("local_tile", Some(L(a)), Some(T(t)), Some(C(c))) => {
            let (l, off) = ops::local_tile(ctx, &a, &t, &c)?;
            SymValue::Tuple(vec![SymValue::Layout(l), SymValue::Expr(off)])
        }
        ("local_partition", Some(L(a)), Some(L(thr)), Some(I(i))) => {
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
        ("tile_to_shape", Some(L(a)), Some(X(s)), o) => {
            let o = match o {
                Some(C(o)) => Some(o),
                _ => None,
            };
            SymValue::Layout(product::tile_to_shape(ctx, &a, &s, o.as_ref())?)
        }
        ("slice", Some(S(c)), Some(L(l)), None) => SymValue::Layout(product::slice(ctx, &c, &l)?),
        ("eval", Some(L(l)), Some(I(i)), None) => SymValue::Expr(swizzle::eval_at(ctx, &l, &i)?),
        ("ragged_local_tile", Some(L(a)), Some(T(t)), Some(C(c))) => {
            SymValue::RaggedSlice(Box::new(ragged::ragged_local_tile(ctx, &a, &t, &c)?))
        }
        ("ragged_local_partition", Some(L(a)), Some(L(thr)), Some(I(i))) => {
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
    // The operation's row in the registry, if it has a symbolic form.
    let row = name
        .as_deref()
        .and_then(ops_registry::lookup)
        .and_then(|o| Some((o.name, o.symbolic?)));
    let Some((op, sig)) = row.filter(|_| r.peek() == Some(b'(')) else {
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
    let mut args = Vec::new();
    for (i, k) in sig.args.iter().enumerate() {
        if i > 0 {
            if i >= sig.required && r.peek() == Some(b')') {
                break;
            }
            r.expect(b',')?;
        }
        args.push(match k {
            SymKind::Layout if swizzle::at_swizzle(&mut r) => {
                Arg::Z(swizzle::read_composed(&mut r)?)
            }
            SymKind::Layout => Arg::L(read_layout(&mut r)?),
            SymKind::Tiler => Arg::T(read_tiler(&mut r)?),
            SymKind::Extent | SymKind::Index => {
                let col = r.pos;
                match r.item()? {
                    Item::Expr(p) if *k == SymKind::Extent => Arg::E(p),
                    Item::Expr(p) => Arg::I(p),
                    Item::Tuple(_) => {
                        return Err(SymError::Parse {
                            column: col + 1,
                            message: format!("{op}: expected an expression, found a tuple"),
                        })
                    }
                }
            }
            SymKind::SliceCoord => Arg::S(read_slice_crd(&mut r)?),
            SymKind::Shape => Arg::X(r.item()?),
            SymKind::Coord => Arg::C(r.item()?),
        });
    }
    r.expect(b')')?;
    if !r.at_end() {
        return Err(r.unexpected());
    }
    Ok((op, args))
}
