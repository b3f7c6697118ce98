//! Evaluation of the expression language: values and the table of functions.

use super::parse::{parse, Expr};
use crate::algebra::swizzled::{self, Rhs};
use crate::algebra::{self, Tiler};
use crate::error::{Error, Note, Result};
pub use crate::layout::Value;
use crate::layout::{self, AnyLayout, ComposedLayout, IntTuple, Layout, SliceCoord, Swizzle, Tree};

impl Value {
    /// The value as an integer tuple, if it is one.
    pub fn to_int_tuple(&self) -> Option<IntTuple> {
        match self {
            Value::Int(v) => Some(IntTuple::leaf(*v)),
            Value::Tuple(items) => {
                let parts = items
                    .iter()
                    .map(|v| v.to_int_tuple())
                    .collect::<Option<Vec<_>>>()?;
                Some(Tree::tuple(parts.iter().map(|p| p.as_ref())))
            }
            _ => None,
        }
    }

    /// The value as a coordinate with `_`, if it is one.
    pub fn to_slice_coord(&self) -> Option<SliceCoord> {
        match self {
            Value::Int(v) => Some(SliceCoord::leaf(Some(*v))),
            Value::Under => Some(SliceCoord::leaf(None)),
            Value::Tuple(items) => {
                let parts = items
                    .iter()
                    .map(|v| v.to_slice_coord())
                    .collect::<Option<Vec<_>>>()?;
                Some(Tree::tuple(parts.iter().map(|p| p.as_ref())))
            }
            _ => None,
        }
    }

    /// The value as a tiler: a layout, an integer, `_`, or a tuple of tilers.
    pub fn to_tiler(&self) -> Option<Tiler> {
        match self {
            Value::Layout(l) => Some(Tiler::Layout(l.clone())),
            Value::Int(n) => Some(Tiler::Int(*n)),
            Value::Under => Some(Tiler::Under),
            Value::Tuple(items) => Some(Tiler::Tuple(
                items
                    .iter()
                    .map(|v| v.to_tiler())
                    .collect::<Option<Vec<_>>>()?,
            )),
            Value::Text(_) => None,
            Value::Swizzle(_) | Value::Composed(_) => None,
        }
    }

    /// The value as a layout, swizzle or composed layout, if it is one.
    pub fn to_any_layout(&self) -> Option<AnyLayout> {
        match self {
            Value::Layout(l) => Some(AnyLayout::Plain(l.clone())),
            Value::Swizzle(s) => Some(AnyLayout::Swizzle(*s)),
            Value::Composed(c) => Some(AnyLayout::Composed(c.clone())),
            _ => None,
        }
    }

    /// The value of a layout, swizzle or composed layout.
    pub fn from_any_layout(a: AnyLayout) -> Value {
        match a {
            AnyLayout::Plain(l) => Value::Layout(l),
            AnyLayout::Swizzle(s) => Value::Swizzle(s),
            AnyLayout::Composed(c) => Value::Composed(c),
        }
    }

    /// `true` for a swizzle or a composed layout (anything the plain algebra does not take).
    pub fn is_swizzled(&self) -> bool {
        match self {
            Value::Swizzle(_) | Value::Composed(_) => true,
            Value::Tuple(items) => items.iter().any(Value::is_swizzled),
            _ => false,
        }
    }

    fn kind(&self) -> String {
        match self {
            Value::Int(v) => format!("the integer {v}"),
            Value::Under => "`_`".into(),
            Value::Tuple(_) => format!("the tuple {self}"),
            Value::Layout(l) => format!("the layout {l}"),
            Value::Swizzle(sw) => format!("the swizzle {sw}"),
            Value::Composed(c) => format!("the composed layout {c}"),
            Value::Text(_) => "text".into(),
        }
    }
}

/// Parses and evaluates an expression.
///
/// ```
/// let v = tessera::notation::eval("composition(20:2,(5,4):(4,1))").unwrap();
/// assert_eq!(v.to_string(), "(5,4):(8,2)");
/// ```
pub fn eval(text: &str) -> Result<Value> {
    // The one-pass reader answers the common shapes (calls, integers, tuples, `shape:stride`)
    // without building a syntax tree; it gives up (None) on anything else, and the general
    // parser and evaluator answer, so the result is always `eval_expr(&parse(text)?)`.
    // Notes recorded by a read that gives up are dropped: the general path records them again.
    let fast = crate::error::note::collect_if(|| super::direct::eval(text), Option::is_some);
    if let Some(r) = fast {
        return r;
    }
    eval_expr(&parse(text)?)
}

/// Parses and evaluates an expression, returning the [`Note`]s (warnings that travel with a
/// successful result, e.g. `complement_holes`) recorded while it ran; on error the notes are
/// dropped (the error says what failed).
///
/// ```
/// let (v, notes) = tessera::notation::eval_noted("complement((2,2):(1,3))");
/// assert_eq!(v.unwrap().to_string(), "1:0");
/// assert_eq!(notes[0].code, "complement_holes");
/// ```
pub fn eval_noted(text: &str) -> (Result<Value>, Vec<Note>) {
    let (r, notes) = crate::error::note::collect(|| eval(text));
    match r {
        Ok(v) => (Ok(v), notes),
        Err(e) => (Err(e), Vec::new()),
    }
}

/// Evaluates a parsed expression.
pub fn eval_expr(e: &Expr) -> Result<Value> {
    match e {
        Expr::Int { v, .. } => Ok(Value::Int(*v)),
        Expr::Under { .. } => Ok(Value::Under),
        Expr::Tuple { items, .. } => Ok(Value::Tuple(
            items.iter().map(eval_expr).collect::<Result<Vec<_>>>()?,
        )),
        Expr::Layout { shape, stride, col } => {
            let s = eval_expr(shape)?;
            let d = eval_expr(stride)?;
            let (Some(s), Some(d)) = (s.to_int_tuple(), d.to_int_tuple()) else {
                return Err(Error::Parse {
                    column: *col,
                    message: "a layout `shape:stride` needs integer tuples on both sides".into(),
                });
            };
            Ok(Value::Layout(Layout::new(&s, &d)?))
        }
        Expr::Name { name, params, col } => eval_name(name, params, *col),
        Expr::Compose { parts, col } => {
            let vals = parts.iter().map(eval_expr).collect::<Result<Vec<_>>>()?;
            // The chain's links, counted before any node is built (no value deeper than the bound).
            let inner_links: usize = vals
                .iter()
                .map(|v| match v {
                    Value::Composed(c) => 1 + c.outer.links() + c.inner.links(),
                    _ => 0,
                })
                .sum();
            layout::swizzle::check_chain_links("compose", inner_links + parts.len() / 2)?;
            let mut it = vals.into_iter().rev();
            let last = it.next().expect("a chain has parts");
            let mut acc = last.to_any_layout().ok_or_else(|| Error::Parse {
                column: *col,
                message: format!("`o` composes layouts and swizzles, found {}", last.kind()),
            })?;
            while let (Some(off), Some(f)) = (it.next(), it.next()) {
                let Value::Int(off) = off else {
                    return Err(Error::Parse {
                        column: *col,
                        message: format!(
                            "the offset of a composed layout must be an integer, found {}",
                            off.kind()
                        ),
                    });
                };
                let f = f.to_any_layout().ok_or_else(|| Error::Parse {
                    column: *col,
                    message: format!("`o` composes layouts and swizzles, found {}", f.kind()),
                })?;
                acc = ComposedLayout::new(f, off, acc).into();
            }
            Ok(Value::from_any_layout(acc))
        }
        Expr::Call { name, args, col } => {
            let vals = args.iter().map(eval_expr).collect::<Result<Vec<_>>>()?;
            apply(name, &vals, *col)
        }
    }
}

/// The function `name` of the expression language on evaluated arguments; `col` is the column of
/// the call (for `unknown_function`).
pub(crate) fn apply(name: &str, vals: &[Value], col: usize) -> Result<Value> {
    if vals.iter().any(Value::is_swizzled) {
        return call_swizzled(name, vals, col)
            .and_then(|v| match v {
                Value::Composed(c) => {
                    let links = AnyLayout::Composed(c).check_links("compose")?;
                    Ok(Value::from_any_layout(links))
                }
                v => Ok(v),
            })
            .map_err(|e| e.in_call(name, vals.to_vec()));
    }
    // The failure remembers the outermost call, from which suggestions are derived.
    call(name, vals, col).map_err(|e| e.in_call(name, vals.to_vec()))
}

struct Args<'a> {
    op: &'a str,
    vals: &'a [Value],
}

impl Args<'_> {
    fn get(&self, i: usize) -> &Value {
        &self.vals[i]
    }
    fn type_err(&self, i: usize, expected: &'static str) -> Error {
        Error::Type {
            op: self.op.to_string(),
            position: i + 1,
            expected,
            found: self.get(i).kind(),
        }
    }
    fn layout(&self, i: usize) -> Result<&Layout> {
        match self.get(i) {
            Value::Layout(l) => Ok(l),
            _ => Err(self.type_err(i, "a layout")),
        }
    }
    fn int(&self, i: usize) -> Result<i64> {
        match self.get(i) {
            Value::Int(v) => Ok(*v),
            _ => Err(self.type_err(i, "an integer")),
        }
    }
    fn tuple(&self, i: usize) -> Result<IntTuple> {
        self.get(i)
            .to_int_tuple()
            .ok_or_else(|| self.type_err(i, "an integer or a tuple of integers"))
    }
    fn slice_coord(&self, i: usize) -> Result<SliceCoord> {
        self.get(i)
            .to_slice_coord()
            .ok_or_else(|| self.type_err(i, "a coordinate of integers and `_`"))
    }
    fn tiler(&self, i: usize) -> Result<Tiler> {
        self.get(i).to_tiler().ok_or_else(|| {
            self.type_err(i, "a tiler (a layout, an integer, `_` or a tuple of them)")
        })
    }
    fn layout_or_tuple(&self, i: usize) -> Result<Layout> {
        match self.get(i) {
            Value::Layout(l) => Ok(l.clone()),
            v => match v.to_int_tuple() {
                Some(t) => Layout::compact(&t),
                None => Err(self.type_err(i, "a layout or a shape")),
            },
        }
    }
}

/// The names of every function of the expression language.
pub const FUNCTIONS: &[(&str, &str)] = &[
    ("coalesce", "coalesce(L) | coalesce(L, profile)"),
    (
        "coalesce_trace",
        "coalesce_trace(L): seed II's rewrite steps",
    ),
    ("filter", "filter(L) | filter(L, profile)"),
    (
        "composition",
        "composition(A, B): B a layout, integer, shape or by-mode tiler",
    ),
    ("complement", "complement(A) | complement(A, cotarget)"),
    (
        "complement_exact",
        "complement_exact(A) | complement_exact(A, cotarget): only a tiling complement",
    ),
    (
        "complement1",
        "complement1(N, d, M): seed III's rank-1 complement",
    ),
    (
        "divides",
        "divides(a, b): b / a, checking the obligation a ∣ b",
    ),
    ("right_inverse", "right_inverse(L)"),
    ("left_inverse", "left_inverse(L)"),
    ("logical_divide", "logical_divide(A, tiler)"),
    ("zipped_divide", "zipped_divide(A, tiler)"),
    ("tiled_divide", "tiled_divide(A, tiler)"),
    ("flat_divide", "flat_divide(A, tiler)"),
    ("logical_product", "logical_product(A, tiler)"),
    ("zipped_product", "zipped_product(A, tiler)"),
    ("tiled_product", "tiled_product(A, tiler)"),
    ("flat_product", "flat_product(A, tiler)"),
    ("blocked_product", "blocked_product(A, B)"),
    ("raked_product", "raked_product(A, B)"),
    (
        "tile_to_shape",
        "tile_to_shape(L, shape) | tile_to_shape(L, shape, order)",
    ),
    (
        "make_layout",
        "make_layout(shape) | make_layout(shape, stride) | make_layout(L0, L1, ...)",
    ),
    ("make_ordered_layout", "make_ordered_layout(shape, order)"),
    ("upcast", "upcast(L, N)"),
    ("downcast", "downcast(L, N)"),
    ("nullspace", "nullspace(L)"),
    ("max_common_layout", "max_common_layout(A, B)"),
    ("max_common_vector", "max_common_vector(A, B)"),
    ("size", "size(L or tuple)"),
    ("cosize", "cosize(L)"),
    ("rank", "rank(L or tuple)"),
    ("depth", "depth(L or tuple)"),
    ("shape", "shape(L)"),
    ("stride", "stride(L)"),
    ("flatten", "flatten(L or tuple)"),
    ("get", "get(L or tuple, i): mode i"),
    ("idx2crd", "idx2crd(i, shape)"),
    ("crd2idx", "crd2idx(crd, shape, stride)"),
    ("slice", "slice(coord with _, L)"),
    (
        "local_tile",
        "local_tile(A, tiler, coord): (tile, offset) of zipped_divide(A, tiler) at rest coord",
    ),
    (
        "local_partition",
        "local_partition(A, threads, t): (thread t's elements, offset)",
    ),
    (
        "ragged_logical_divide",
        "ragged_logical_divide(A, tiler): the divide over the padded domain, with its holes (also ragged_zipped/tiled/flat_divide)",
    ),
    ("ragged_zipped_divide", "ragged_zipped_divide(A, tiler)"),
    ("ragged_tiled_divide", "ragged_tiled_divide(A, tiler)"),
    ("ragged_flat_divide", "ragged_flat_divide(A, tiler)"),
    (
        "ragged_local_tile",
        "ragged_local_tile(A, tiler, coord): one tile of the padded domain, with its holes",
    ),
    (
        "ragged_local_partition",
        "ragged_local_partition(A, threads, t): one thread's elements, with its holes",
    ),
    ("eval", "eval(L, i): L(i)"),
    (
        "make_swizzle",
        "make_swizzle(Y, Z): the swizzle with yyy mask Y and zzz mask Z",
    ),
];

fn arity(op: &str, n: usize, ok: &[usize], expected: &'static str) -> Result<()> {
    if ok.contains(&n) {
        Ok(())
    } else {
        Err(Error::Arity {
            op: op.to_string(),
            expected,
            found: n,
        })
    }
}

fn call(name: &str, vals: &[Value], col: usize) -> Result<Value> {
    let a = Args { op: name, vals };
    let n = vals.len();
    let lay = |l: Result<Layout>| l.map(Value::Layout);
    match name {
        "coalesce" | "filter" => {
            arity(name, n, &[1, 2], "1 or 2")?;
            let l = a.layout(0)?;
            lay(match (name, n) {
                ("coalesce", 1) => algebra::coalesce(l),
                ("coalesce", _) => algebra::coalesce_by(l, &a.tuple(1)?),
                (_, 1) => algebra::filter(l),
                _ => algebra::filter_by(l, &a.tuple(1)?),
            })
        }
        "coalesce_trace" => {
            arity(name, n, &[1], "1")?;
            let (r, trace) = algebra::coalesce_trace(a.layout(0)?)?;
            let mut text = String::new();
            for (k, step) in trace.iter().enumerate() {
                text.push_str(&format!(
                    "{}. {} on modes {},{}: {} -> {}\n",
                    k + 1,
                    step.rule.name(),
                    step.at,
                    step.at + 1,
                    step.before,
                    step.after
                ));
            }
            text.push_str(&format!("= {r}"));
            Ok(Value::Text(text))
        }
        "composition" => {
            arity(name, n, &[2], "2")?;
            lay(algebra::composition_tiler(a.layout(0)?, &a.tiler(1)?))
        }
        "complement" => {
            arity(name, n, &[1, 2], "1 or 2")?;
            let l = a.layout(0)?;
            lay(if n == 1 {
                algebra::complement_default(l)
            } else {
                algebra::complement(l, &a.tuple(1)?)
            })
        }
        "complement_exact" => {
            arity(name, n, &[1, 2], "1 or 2")?;
            let l = a.layout(0)?;
            lay(if n == 1 {
                algebra::complement_exact_default(l)
            } else {
                algebra::complement_exact(l, &a.tuple(1)?)
            })
        }
        "complement1" => {
            arity(name, n, &[3], "3")?;
            lay(algebra::complement1(a.int(0)?, a.int(1)?, a.int(2)?))
        }
        "divides" => {
            arity(name, n, &[2], "2")?;
            crate::error::Divides::check(a.int(0)?, a.int(1)?).map(|h| Value::Int(h.quotient()))
        }
        "right_inverse" | "left_inverse" | "nullspace" => {
            arity(name, n, &[1], "1")?;
            let l = a.layout(0)?;
            lay(match name {
                "right_inverse" => algebra::right_inverse(l),
                "left_inverse" => algebra::left_inverse(l),
                _ => algebra::nullspace(l),
            })
        }
        "logical_divide" | "zipped_divide" | "tiled_divide" | "flat_divide" | "logical_product"
        | "zipped_product" | "tiled_product" | "flat_product" => {
            arity(name, n, &[2], "2")?;
            let (l, t) = (a.layout(0)?, a.tiler(1)?);
            lay(match name {
                "logical_divide" => algebra::logical_divide(l, &t),
                "zipped_divide" => algebra::zipped_divide(l, &t),
                "tiled_divide" => algebra::tiled_divide(l, &t),
                "flat_divide" => algebra::flat_divide(l, &t),
                "logical_product" => algebra::logical_product(l, &t),
                "zipped_product" => algebra::zipped_product(l, &t),
                "tiled_product" => algebra::tiled_product(l, &t),
                _ => algebra::flat_product(l, &t),
            })
        }
        "blocked_product" | "raked_product" => {
            arity(name, n, &[2], "2")?;
            let (x, y) = (a.layout_or_tuple(0)?, a.layout_or_tuple(1)?);
            lay(if name == "blocked_product" {
                algebra::blocked_product(&x, &y)
            } else {
                algebra::raked_product(&x, &y)
            })
        }
        "tile_to_shape" => {
            arity(name, n, &[2, 3], "2 or 3")?;
            let order = if n == 3 { Some(a.tuple(2)?) } else { None };
            lay(algebra::tile_to_shape(
                a.layout(0)?,
                &a.tuple(1)?,
                order.as_ref(),
            ))
        }
        "make_layout" if n >= 1 && vals.iter().all(|v| matches!(v, Value::Layout(_))) => {
            let parts = (0..n).map(|i| a.layout(i)).collect::<Result<Vec<_>>>()?;
            Ok(Value::Layout(Layout::concat(parts.iter().copied())))
        }
        "make_layout" if n >= 1 && vals.iter().all(|v| matches!(v, Value::Layout(_))) => {
            let parts = (0..n).map(|i| a.layout(i)).collect::<Result<Vec<_>>>()?;
            Ok(Value::Layout(Layout::concat(parts.iter().copied())))
        }
        "make_layout" => {
            arity(name, n, &[1, 2], "1 or 2")?;
            let s = a.tuple(0)?;
            lay(if n == 1 {
                Layout::compact(&s)
            } else {
                Layout::new(&s, &a.tuple(1)?)
            })
        }
        "make_ordered_layout" => {
            arity(name, n, &[2], "2")?;
            lay(algebra::make_ordered_layout(&a.tuple(0)?, &a.tuple(1)?))
        }
        "upcast" | "downcast" => {
            arity(name, n, &[2], "2")?;
            let (l, k) = (a.layout(0)?, a.int(1)?);
            lay(if name == "upcast" {
                algebra::upcast(l, k)
            } else {
                algebra::downcast(l, k)
            })
        }
        "max_common_layout" => {
            arity(name, n, &[2], "2")?;
            lay(algebra::max_common_layout(a.layout(0)?, a.layout(1)?))
        }
        "max_common_vector" => {
            arity(name, n, &[2], "2")?;
            algebra::max_common_vector(a.layout(0)?, a.layout(1)?).map(Value::Int)
        }
        "size" | "rank" | "depth" | "flatten" => {
            arity(name, n, &[1], "1")?;
            match a.get(0) {
                Value::Layout(l) => match name {
                    "size" => l.size().map(Value::Int),
                    "rank" => Ok(Value::Int(l.rank() as i64)),
                    "depth" => Ok(Value::Int(l.depth() as i64)),
                    _ => Ok(Value::Layout(l.flatten())),
                },
                _ => {
                    let t = a.tuple(0)?;
                    let r = t.as_ref();
                    match name {
                        "size" => layout::product(r).map(Value::Int),
                        "rank" => Ok(Value::Int(r.rank() as i64)),
                        "depth" => Ok(Value::Int(r.depth() as i64)),
                        _ => Ok(int_tuple_value(&if r.is_leaf() {
                            t.clone()
                        } else {
                            IntTuple::flat(r.leaves())
                        })),
                    }
                }
            }
        }
        "cosize" => {
            arity(name, n, &[1], "1")?;
            a.layout(0)?.cosize().map(Value::Int)
        }
        "shape" | "stride" => {
            arity(name, n, &[1], "1")?;
            let l = a.layout(0)?;
            Ok(int_tuple_value(&if name == "shape" {
                l.shape()
            } else {
                l.stride()
            }))
        }
        "get" => {
            arity(name, n, &[2], "2")?;
            let i = a.int(1)?;
            let bad = || Error::RankMismatch {
                op: "get",
                detail: format!("mode {i} of {}", a.get(0)),
            };
            let idx = usize::try_from(i).map_err(|_| bad())?;
            match a.get(0) {
                Value::Layout(l) if idx < l.rank() => {
                    Ok(Value::Layout(l.mode_at(idx).ok_or_else(bad)?))
                }
                Value::Tuple(items) => items.get(idx).cloned().ok_or_else(bad),
                Value::Int(v) if idx == 0 => Ok(Value::Int(*v)),
                _ => Err(bad()),
            }
        }
        "idx2crd" => {
            arity(name, n, &[2], "2")?;
            layout::idx2crd(a.int(0)?, &a.tuple(1)?).map(|t| int_tuple_value(&t))
        }
        "crd2idx" => {
            arity(name, n, &[3], "3")?;
            let (c, shape) = (a.tuple(0)?, a.tuple(1)?);
            in_domain("crd2idx", c.as_ref(), shape.as_ref(), Some)?;
            layout::crd2idx(&c, &shape, &a.tuple(2)?).map(Value::Int)
        }
        "slice" => {
            arity(name, n, &[2], "2")?;
            let c = a.slice_coord(0)?;
            let l = a.layout(1)?;
            in_domain("slice", c.as_ref(), l.shape().as_ref(), |x| x)?;
            lay(layout::slice(&c, l))
        }
        "local_tile" | "ragged_local_tile" => {
            arity(name, n, &[3], "3")?;
            let (l, t, c) = (a.layout(0)?, a.tiler(1)?, a.tuple(2)?);
            if name == "local_tile" {
                let (tile, off) = algebra::ragged::local_tile(l, &t, &c)?;
                Ok(Value::Tuple(vec![Value::Layout(tile), Value::Int(off)]))
            } else {
                Ok(Value::Text(slice_text(
                    &algebra::ragged::ragged_local_tile(l, &t, &c)?,
                )))
            }
        }
        "local_partition" | "ragged_local_partition" => {
            arity(name, n, &[3], "3")?;
            let (l, th, i) = (a.layout(0)?, a.layout_or_tuple(1)?, a.int(2)?);
            if name == "local_partition" {
                let (part, off) = algebra::ragged::local_partition(l, &th, i)?;
                Ok(Value::Tuple(vec![Value::Layout(part), Value::Int(off)]))
            } else {
                Ok(Value::Text(slice_text(
                    &algebra::ragged::ragged_local_partition(l, &th, i)?,
                )))
            }
        }
        "ragged_logical_divide"
        | "ragged_zipped_divide"
        | "ragged_tiled_divide"
        | "ragged_flat_divide" => {
            arity(name, n, &[2], "2")?;
            let arr = algebra::ragged::Arrangement::parse(&name["ragged_".len()..])
                .expect("a divide name");
            let r = algebra::ragged::ragged_divide(a.layout(0)?, &a.tiler(1)?, arr)?;
            Ok(Value::Text(r.to_string()))
        }
        "make_swizzle" => {
            arity(name, n, &[2], "2")?;
            swizzled::make_swizzle(a.int(0)?, a.int(1)?).map(Value::Swizzle)
        }
        "eval" => {
            arity(name, n, &[2], "2")?;
            let l = a.layout(0)?;
            let c = a.tuple(1)?;
            in_domain("eval", c.as_ref(), l.shape().as_ref(), Some)?;
            match c.as_ref().leaf() {
                Some(i) => l.eval(i).map(Value::Int),
                None => l.crd2idx(&c).map(Value::Int),
            }
        }
        _ => Err(Error::UnknownFunction {
            name: name.to_string(),
            column: col,
        }),
    }
}

/// `out_of_domain` when an integer of the coordinate `c` lies outside its mode of `shape` (an
/// integer against a tuple mode ranges over the mode's size, as CuTe reads it). Ranks that do not
/// match are left to the operation (its own `rank_mismatch`). Every operation that takes a
/// coordinate (`eval`, `slice`, `crd2idx`, `local_tile`) refuses the same way; `idx2crd` keeps
/// CuTe's extrapolation of the last mode (pinned by the differential test).
fn in_domain<T: Copy>(
    op: &'static str,
    c: layout::TreeRef<'_, T>,
    shape: layout::TreeRef<'_, i64>,
    get: fn(T) -> Option<i64>,
) -> Result<()> {
    // An explicit stack: the coordinate's depth is bounded by the parser, but no recursion here.
    let mut stack = vec![(c, shape)];
    while let Some((c, s)) = stack.pop() {
        if c.is_leaf() {
            let Some(v) = c.leaf().and_then(get) else {
                continue;
            };
            let size = s
                .leaves()
                .try_fold(1i64, crate::error::arith::mul)?;
            if !(0..size).contains(&v) {
                return Err(Error::OutOfDomain {
                    op,
                    detail: format!(
                        "coordinate {v} is outside the mode of shape {} ([0, {size}))",
                        s.to_owned()
                    ),
                });
            }
        } else if !s.is_leaf() && c.rank() == s.rank() {
            stack.extend(c.modes().zip(s.modes()));
        }
    }
    Ok(())
}

/// A ragged slice as text: its layout (or index map) with offset, and its hole count.
fn slice_text(s: &algebra::ragged::RaggedSlice) -> String {
    let body = match (&s.layout, s.offset) {
        (Some(l), Some(o)) => format!("{l} + {o}"),
        _ => format!("index {} + {}", s.index, s.index_offset),
    };
    format!(
        "{body} [{} points, {} valid, {}]",
        s.points,
        s.valid,
        algebra::ragged::holes_text(s.holes)
    )
}

pub(crate) fn int_tuple_value(t: &IntTuple) -> Value {
    fn go(t: layout::TreeRef<'_, i64>) -> Value {
        match t.leaf() {
            Some(v) => Value::Int(v),
            None => Value::Tuple(t.modes().map(go).collect()),
        }
    }
    go(t.as_ref())
}

/// A named value: `Sw<B,M,S>`, pycute's `SW_b_m_s`, or a GMMA/UMMA atom `NS::Name<T>`.
fn eval_name(name: &str, params: &[String], col: usize) -> Result<Value> {
    if name == "Sw" || name == "Swizzle" || name == "cute::Swizzle" {
        let ints = params
            .iter()
            .map(|p| p.trim_start_matches('_').parse::<i64>().ok())
            .collect::<Option<Vec<_>>>();
        return match ints.as_deref() {
            Some([b, m, s]) => Ok(Value::Swizzle(Swizzle::new(*b, *m, *s)?)),
            _ => Err(Error::Parse {
                column: col,
                message: format!(
                    "{name}<B,M,S> takes three integers, found <{}>",
                    params.join(",")
                ),
            }),
        };
    }
    if let Some((b, m, s)) = super::parse::pycute_swizzle_params(name) {
        if params.is_empty() {
            return Ok(Value::Swizzle(Swizzle::new(b, m, s)?));
        }
    }
    if name.contains("::") {
        let [ty] = params else {
            return Err(Error::Parse {
                column: col,
                message: format!(
                    "{name}<T> takes one element type, found <{}>",
                    params.join(",")
                ),
            });
        };
        return crate::algebra::atoms::atom(name, ty)
            .map(Value::from_any_layout)
            .map_err(|e| match e {
                Error::UnknownFunction { name, .. } => Error::UnknownFunction { name, column: col },
                e => e,
            });
    }
    Err(Error::UnknownFunction {
        name: format!("{name}<{}>", params.join(",")),
        column: col,
    })
}

/// The functions of the expression language on swizzles and composed layouts
/// (`crate::algebra::swizzled`): reached when an argument is a swizzle or a composed layout.
fn call_swizzled(name: &str, vals: &[Value], col: usize) -> Result<Value> {
    let a = Args { op: name, vals };
    let n = vals.len();
    let any = |i: usize| -> Result<AnyLayout> {
        a.get(i)
            .to_any_layout()
            .ok_or_else(|| a.type_err(i, "a layout, a swizzle or a composed layout"))
    };
    let out = |r: Result<AnyLayout>| r.map(Value::from_any_layout);
    let tiler_of = |i: usize| -> Result<Tiler> {
        if a.get(i).is_swizzled() {
            Err(a.type_err(i, "a tiler (a layout, an integer, `_` or a tuple of them)"))
        } else {
            a.tiler(i)
        }
    };
    match name {
        "composition" => {
            arity(name, n, &[2], "2")?;
            let rhs = match a.get(1) {
                Value::Swizzle(_) | Value::Composed(_) => Rhs::Func(any(1)?),
                _ => Rhs::Tiler(tiler_of(1)?),
            };
            out(swizzled::composition(&any(0)?, &rhs))
        }
        "logical_divide" | "zipped_divide" | "tiled_divide" | "flat_divide" | "logical_product"
        | "zipped_product" | "tiled_product" | "flat_product" => {
            arity(name, n, &[2], "2")?;
            let t = tiler_of(1)?;
            let f: &dyn Fn(&Layout) -> Result<Layout> = match name {
                "logical_divide" => &|l| algebra::logical_divide(l, &t),
                "zipped_divide" => &|l| algebra::zipped_divide(l, &t),
                "tiled_divide" => &|l| algebra::tiled_divide(l, &t),
                "flat_divide" => &|l| algebra::flat_divide(l, &t),
                "logical_product" => &|l| algebra::logical_product(l, &t),
                "zipped_product" => &|l| algebra::zipped_product(l, &t),
                "tiled_product" => &|l| algebra::tiled_product(l, &t),
                _ => &|l| algebra::flat_product(l, &t),
            };
            out(swizzled::by_inner(&any(0)?, "divide/product", f))
        }
        "blocked_product" | "raked_product" => {
            arity(name, n, &[2], "2")?;
            let b = a.layout_or_tuple(1)?;
            let f: &dyn Fn(&Layout) -> Result<Layout> = if name == "blocked_product" {
                &|l| algebra::blocked_product(l, &b)
            } else {
                &|l| algebra::raked_product(l, &b)
            };
            out(swizzled::by_inner(&any(0)?, "product", f))
        }
        "tile_to_shape" => {
            arity(name, n, &[2, 3], "2 or 3")?;
            let shape = a.tuple(1)?;
            let order = if n == 3 { Some(a.tuple(2)?) } else { None };
            out(swizzled::by_inner(&any(0)?, "tile_to_shape", &|l| {
                algebra::tile_to_shape(l, &shape, order.as_ref())
            }))
        }
        "coalesce" | "filter" => {
            arity(name, n, &[1, 2], "1 or 2")?;
            let prof = if n == 2 { Some(a.tuple(1)?) } else { None };
            let f: &dyn Fn(&Layout) -> Result<Layout> = match (name, &prof) {
                ("coalesce", None) => &algebra::coalesce,
                ("coalesce", Some(p)) => &move |l| algebra::coalesce_by(l, p),
                (_, None) => &algebra::filter,
                (_, Some(p)) => &move |l| algebra::filter_by(l, p),
            };
            out(swizzled::by_inner(&any(0)?, "coalesce", f))
        }
        "flatten" => {
            arity(name, n, &[1], "1")?;
            out(swizzled::by_inner(
                &any(0)?,
                "flatten",
                &|l| Ok(l.flatten()),
            ))
        }
        "get" => {
            arity(name, n, &[2], "2")?;
            let i = usize::try_from(a.int(1)?).map_err(|_| Error::RankMismatch {
                op: "get",
                detail: format!("mode {} of {}", a.get(1), a.get(0)),
            })?;
            out(swizzled::get(&any(0)?, i))
        }
        "slice" => {
            arity(name, n, &[2], "2")?;
            let c = a.slice_coord(0)?;
            let f = any(1)?;
            if let Some(l) = f.layout() {
                in_domain("slice", c.as_ref(), l.shape().as_ref(), |x| x)?;
            }
            out(swizzled::slice(&c, &f))
        }
        "right_inverse" | "left_inverse" => {
            arity(name, n, &[1], "1")?;
            out(if name == "right_inverse" {
                swizzled::right_inverse(&any(0)?)
            } else {
                swizzled::left_inverse(&any(0)?)
            })
        }
        "upcast" | "downcast" => {
            arity(name, n, &[2], "2")?;
            out(swizzled::recast(&any(0)?, a.int(1)?, name == "upcast"))
        }
        "max_common_layout" => {
            arity(name, n, &[2], "2")?;
            out(swizzled::max_common_layout(&any(0)?, &any(1)?))
        }
        "max_common_vector" => {
            arity(name, n, &[2], "2")?;
            swizzled::max_common_vector(&any(0)?, &any(1)?).map(Value::Int)
        }
        "complement" => {
            arity(name, n, &[1, 2], "1 or 2")?;
            let t = if n == 2 { Some(a.tuple(1)?) } else { None };
            swizzled::complement(&any(0)?, t.as_ref()).map(Value::Layout)
        }
        "size" | "rank" | "depth" | "shape" => {
            arity(name, n, &[1], "1")?;
            let f = any(0)?;
            let l = f.shape_layout("size")?;
            Ok(match name {
                "size" => Value::Int(l.size()?),
                "rank" => Value::Int(l.rank() as i64),
                "depth" => Value::Int(l.depth() as i64),
                _ => int_tuple_value(&l.shape()),
            })
        }
        "cosize" => {
            arity(name, n, &[1], "1")?;
            swizzled::cosize(&any(0)?).map(Value::Int)
        }
        "eval" => {
            arity(name, n, &[2], "2")?;
            let f = any(0)?;
            if let (Some(l), Some(c)) = (f.layout(), a.get(1).to_int_tuple()) {
                in_domain("eval", c.as_ref(), l.shape().as_ref(), Some)?;
            }
            match a.get(1) {
                Value::Int(i) => f.eval(*i).map(Value::Int),
                _ => f.crd2idx(&a.tuple(1)?).map(Value::Int),
            }
        }
        "stride" => Err(Error::NotExpressible {
            op: "stride",
            what: format!("stride({})", a.get(0)),
            detail: "a swizzled layout is not linear, so it has no stride (CuTe deletes \
                     stride() of a ComposedLayout)"
                .into(),
        }),
        _ if FUNCTIONS.iter().any(|(f, _)| *f == name) => Err(Error::Type {
            op: name.to_string(),
            position: vals.iter().position(Value::is_swizzled).unwrap_or(0) + 1,
            expected: "a plain layout (this function is not defined on swizzled layouts)",
            found: vals
                .iter()
                .find(|v| v.is_swizzled())
                .map(|v| v.kind())
                .unwrap_or_default(),
        }),
        _ => Err(Error::UnknownFunction {
            name: name.to_string(),
            column: col,
        }),
    }
}
