//! Evaluating one call of the symbolic algebra from text: `logical_divide((M,K):(K,1),(128,64))`
//! with facts, answered with the result and its guards.

use super::expr::{Item, Poly, Reader};
use super::facts::{Assignment, Facts};
use super::layout::{read_layout, SymLayout};
use super::ops::{self, read_tiler, Tiler};
use super::product::{self, read_slice_crd, SliceCrd};
use super::ragged::{self, SymRagged};
use super::swizzle::{self, SymComposed};
use super::{Ctx, Sym, SymError};
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
    ("eval", "L,E"),
];

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
    let index_op = matches!(op, "idx2crd" | "local_partition" | "eval");
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
    let mut ctx = Ctx::new(facts);
    let v = apply(&mut ctx, op, args)?;
    let v = tidy_value(&ctx.facts, v)?;
    let mut out = ctx.finish(v);
    // Guards read better with the quotients the facts make exact (`M/128 > bm`); the original
    // facts (not the guards) justify the rewrite, so the guard means the same.
    for g in &mut out.guards {
        g.pred.lhs = facts_for_tidy.tidy(&g.pred.lhs)?;
        g.pred.rhs = facts_for_tidy.tidy(&g.pred.rhs)?;
    }
    Ok(out)
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
