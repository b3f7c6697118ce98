//! The registry of operations: one row per function of the expression language.
//!
//! Every front end reads this table and nothing else to know what an operation is called, what it
//! takes, what it computes and how it is lifted: the expression evaluator and the one-pass reader
//! ([`apply`]), the ragged form (`tessera eval --ragged`, [`Op::ragged`]), the command line's help
//! ([`help`]), batch, and the Python package (`tessera.operations()`, the generic binding
//! `tessera._tessera.apply`, the stubs; a test checks each row has all of them).
//!
//! Adding an operation is one algebra function plus one row of [`OPS`] (see ARCHITECTURE.md,
//! "Add an operation").
//!
//! Dispatch costs one scan of a static table of function pointers (no allocation, no dynamic
//! dispatch beyond the one indirect call), as the `match` on names it replaces did.

use super::value::int_tuple_value;
use crate::algebra::ragged::Arrangement;
use crate::algebra::swizzled::{self, Rhs};
use crate::algebra::{self, Tiler};
use crate::error::{Error, Result};
pub use crate::layout::Value;
use crate::layout::{self, AnyLayout, IntTuple, Layout, SliceCoord};

/// What one argument of an operation is.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Kind {
    /// A layout `shape:stride` (or, where the row lifts it, a swizzle or composed layout).
    Layout,
    /// An integer.
    Int,
    /// An integer or a tuple of integers (a shape, a profile, a cotarget, a coordinate).
    Tuple,
    /// A tiler: a layout, an integer, `_` or a tuple of tilers.
    Tiler,
    /// A coordinate of integers and `_`.
    SliceCoord,
    /// A layout, or a shape (its compact column-major layout).
    LayoutOrShape,
    /// A layout or an integer tuple.
    LayoutOrTuple,
    /// An integer index or a coordinate.
    Index,
    /// Any number of layouts (the last argument kind only).
    Layouts,
}

impl Kind {
    /// The kind as a type error says it is expected.
    pub const fn expected(self) -> &'static str {
        match self {
            Kind::Layout => "a layout",
            Kind::Int => "an integer",
            Kind::Tuple => "an integer or a tuple of integers",
            Kind::Tiler => "a tiler (a layout, an integer, `_` or a tuple of them)",
            Kind::SliceCoord => "a coordinate of integers and `_`",
            Kind::LayoutOrShape => "a layout or a shape",
            Kind::LayoutOrTuple => "a layout or an integer tuple",
            Kind::Index => "an integer or a coordinate",
            Kind::Layouts => "layouts",
        }
    }
}

/// How an operation is lifted to swizzles and composed layouts `O o off o I`
/// ([`crate::algebra::swizzled`]).
#[derive(Clone, Copy)]
pub enum Lift {
    /// Not defined on them: a type error naming the first swizzled argument.
    Refuse,
    /// Applied to the innermost layout `I` (`O o off o f(I)`); the other arguments must not be
    /// swizzled. An error for a bare swizzle names the row's operation. With [`Plain::Inner`]
    /// the same function is the operation on plain arguments (`f(A, args)`): written once.
    Inner(fn(&Layout, &Args) -> Result<Layout>),
    /// Its own definition on swizzles and composed layouts.
    Func(fn(&Args) -> Result<Value>),
}

/// The operation on plain arguments (no argument swizzled; arity already checked).
#[derive(Clone, Copy)]
pub enum Plain {
    /// Its own function.
    Func(fn(&Args) -> Result<Value>),
    /// The row's [`Lift::Inner`] function applied to argument 0 (a plain layout; where the row
    /// takes [`Kind::LayoutOrShape`] first, a shape's compact layout too). Only with
    /// [`Lift::Inner`]: a compile-time check refuses any other pairing.
    Inner,
}

/// The operation's form over the padded domain (`tessera eval --ragged`,
/// [`crate::algebra::ragged`]).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum RaggedForm {
    /// None.
    No,
    /// A divide with this arrangement.
    Divide(Arrangement),
    /// `local_tile(A, tiler, coord)`.
    LocalTile,
    /// `local_partition(A, threads, t)`.
    LocalPartition,
}

/// What the operation does in pycute's face (`tessera.pycute`, `pycute=True`).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Face {
    /// The result is a layout in the face of the layout arguments (pycute's if any is).
    Argument,
    /// The result is a layout with no layout argument: always tessera's face.
    Tessera,
    /// pycute's complement: the tiling complement, else CuTe's disjoint one
    /// ([`crate::algebra::complement::complement_pycute`]); C++'s otherwise.
    Complement,
    /// The result is not a layout (an integer, a tuple, text).
    NotLayout,
}

/// What one argument of an operation over runtime extents is (`tessera eval --symbolic`,
/// [`crate::symbolic`]): its kind, and whether its names are extents (`>= 1`) or indices
/// (`>= 0`).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum SymKind {
    /// A layout over extents (first, also a swizzled layout `Sw<B,M,S> o off o L`).
    Layout,
    /// A tiler: a layout, an expression, `_` or a tuple of them.
    Tiler,
    /// An extent: an expression `>= 1` (a cotarget).
    Extent,
    /// An index: an expression `>= 0` (a thread index, a point of the domain).
    Index,
    /// A shape: an extent or a tuple of extents.
    Shape,
    /// A coordinate: an index or a tuple of indices.
    Coord,
    /// A coordinate of indices and `_`.
    SliceCoord,
}

impl SymKind {
    /// The kind as the reference names it.
    pub const fn describe(self) -> &'static str {
        match self {
            SymKind::Layout => "layout",
            SymKind::Tiler => "tiler",
            SymKind::Extent => "extent",
            SymKind::Index => "index",
            SymKind::Shape => "shape",
            SymKind::Coord => "coordinate",
            SymKind::SliceCoord => "slice coordinate",
        }
    }
}

/// The operation's form over runtime extents: its arguments there (the symbolic language's
/// own: `crd2idx(c, L)` takes a layout where the integer row takes a shape and a stride).
#[derive(Clone, Copy, Debug)]
pub struct Symbolic {
    /// The argument kinds, in order.
    pub args: &'static [SymKind],
    /// How many are required (the others are optional, last).
    pub required: usize,
}

/// The symbolic form taking every one of `args`.
const fn sym(args: &'static [SymKind]) -> Option<Symbolic> {
    Some(Symbolic {
        args,
        required: args.len(),
    })
}

/// One operation of the expression language.
pub struct Op {
    /// Its name, as called: `complement`.
    pub name: &'static str,
    /// Its argument kinds, in order (the last `arity`'s worth; optional ones last).
    pub args: &'static [Kind],
    /// The numbers of arguments it takes; empty: any (the operation checks).
    pub arity: &'static [usize],
    /// Its signature(s) and a short description: `complement(A) | complement(A, cotarget)`.
    pub help: &'static str,
    /// The operation on plain arguments (arity already checked).
    pub plain: Plain,
    /// Its lifting to swizzles and composed layouts.
    pub lift: Lift,
    /// Its ragged form.
    pub ragged: RaggedForm,
    /// Its pycute-face policy.
    pub pycute: Face,
    /// The catalogue codes of the obligations it can fail (`docs/errors.md`), besides the
    /// front end's own (`arity`, `type`, `unknown_function`, `overflow`).
    pub codes: &'static [&'static str],
    /// Its form over runtime extents (`tessera eval --symbolic`, batch `"assume"`, Python
    /// `SymLayout`; evaluated by [`crate::symbolic::call`]): `None` where there is none. Where
    /// the row lifts to the inner layout ([`Lift::Inner`]), so does the symbolic form.
    pub symbolic: Option<Symbolic>,
}

/// The arguments of one call, with typed accessors whose failures are the language's type errors.
pub struct Args<'a> {
    /// The operation's name.
    pub op: &'a str,
    /// The evaluated arguments.
    pub vals: &'a [Value],
}

impl Args<'_> {
    /// The number of arguments.
    #[inline]
    pub fn n(&self) -> usize {
        self.vals.len()
    }
    /// Argument `i` (in range: the arity was checked).
    #[inline]
    pub fn get(&self, i: usize) -> &Value {
        &self.vals[i]
    }
    /// The type error for argument `i`.
    pub fn type_err(&self, i: usize, expected: &'static str) -> Error {
        Error::Type {
            op: self.op.to_string(),
            position: i + 1,
            expected,
            found: self.get(i).kind(),
        }
    }
    /// Argument `i` as a layout.
    #[inline]
    pub fn layout(&self, i: usize) -> Result<&Layout> {
        match self.get(i) {
            Value::Layout(l) => Ok(l),
            _ => Err(self.type_err(i, Kind::Layout.expected())),
        }
    }
    /// Argument `i` as an integer.
    #[inline]
    pub fn int(&self, i: usize) -> Result<i64> {
        match self.get(i) {
            Value::Int(v) => Ok(*v),
            _ => Err(self.type_err(i, Kind::Int.expected())),
        }
    }
    /// Argument `i` as an integer tuple.
    pub fn tuple(&self, i: usize) -> Result<IntTuple> {
        self.get(i)
            .to_int_tuple()
            .ok_or_else(|| self.type_err(i, Kind::Tuple.expected()))
    }
    /// Argument `i` as a coordinate with `_`.
    pub fn slice_coord(&self, i: usize) -> Result<SliceCoord> {
        self.get(i)
            .to_slice_coord()
            .ok_or_else(|| self.type_err(i, Kind::SliceCoord.expected()))
    }
    /// Argument `i` as a tiler.
    pub fn tiler(&self, i: usize) -> Result<Tiler> {
        self.get(i)
            .to_tiler()
            .ok_or_else(|| self.type_err(i, Kind::Tiler.expected()))
    }
    /// Argument `i` as a layout, or a shape's compact layout.
    pub fn layout_or_tuple(&self, i: usize) -> Result<Layout> {
        match self.get(i) {
            Value::Layout(l) => Ok(l.clone()),
            v => match v.to_int_tuple() {
                Some(t) => Layout::compact(&t),
                None => Err(self.type_err(i, Kind::LayoutOrShape.expected())),
            },
        }
    }
    /// Argument `i` as a layout, swizzle or composed layout.
    pub fn any(&self, i: usize) -> Result<AnyLayout> {
        self.get(i)
            .to_any_layout()
            .ok_or_else(|| self.type_err(i, "a layout, a swizzle or a composed layout"))
    }
}

/// The row of `name`, if it is an operation.
///
/// ```
/// let op = tessera::notation::ops::lookup("complement").unwrap();
/// assert_eq!(op.arity, &[1, 2]);
/// assert!(tessera::notation::ops::lookup("no_such").is_none());
/// ```
#[inline]
pub fn lookup(name: &str) -> Option<&'static Op> {
    OPS.iter().find(|op| op.name == name)
}

/// `"1 or 2"` for `[1, 2]`: the arity as an error states it.
fn arity_text(ok: &[usize]) -> &'static str {
    match ok {
        [1] => "1",
        [2] => "2",
        [3] => "3",
        [1, 2] => "1 or 2",
        [2, 3] => "2 or 3",
        _ => "another number of",
    }
}

/// Checks the number of arguments against `ok`.
pub fn arity(op: &str, n: usize, ok: &'static [usize]) -> Result<()> {
    if ok.is_empty() || ok.contains(&n) {
        Ok(())
    } else {
        Err(Error::Arity {
            op: op.to_string(),
            expected: arity_text(ok),
            found: n,
        })
    }
}

/// The operation `name` on evaluated arguments; `col` is the column of the call (for
/// `unknown_function`). A failure remembers the call, from which suggestions are derived.
///
/// Pre: none. Post: the row's `plain` function when no argument is swizzled, else its lifting;
/// an arity or type error names the operation and the argument.
///
/// ```
/// use tessera::notation::{ops::apply, Value};
/// let l: tessera::Layout = "4:2".parse().unwrap();
/// let r = apply("complement", &[Value::Layout(l), Value::Int(24)], 1).unwrap();
/// assert_eq!(r.to_string(), "(2,3):(1,8)");
/// ```
pub fn apply(name: &str, vals: &[Value], col: usize) -> Result<Value> {
    let Some(op) = lookup(name) else {
        return Err(Error::UnknownFunction {
            name: name.to_string(),
            column: col,
        });
    };
    call(op, vals)
        .and_then(|v| match v {
            // Every composed result passes the chain bound (no value deeper than it, so no later
            // operation recurses past it).
            Value::Composed(c) => Ok(Value::from_any_layout(
                AnyLayout::Composed(c).check_links("compose")?,
            )),
            v => Ok(v),
        })
        .map_err(|e| e.in_call(name, vals.to_vec()))
}

fn call(op: &Op, vals: &[Value]) -> Result<Value> {
    arity(op.name, vals.len(), op.arity)?;
    let a = Args { op: op.name, vals };
    if !vals.iter().any(Value::is_swizzled) {
        return match (op.plain, op.lift) {
            (Plain::Func(f), _) => f(&a),
            (Plain::Inner, Lift::Inner(f)) if op.args.first() == Some(&Kind::LayoutOrShape) => {
                lay(f(&a.layout_or_tuple(0)?, &a))
            }
            (Plain::Inner, Lift::Inner(f)) => lay(f(a.layout(0)?, &a)),
            // Refused when the crate compiles (the `const _` after `OPS`).
            (Plain::Inner, _) => Err(a.type_err(0, "an operation with a plain form")),
        };
    }
    match op.lift {
        Lift::Func(f) => f(&a),
        Lift::Inner(f) => {
            if let Some(i) = vals.iter().skip(1).position(Value::is_swizzled) {
                let k = op.args.get(i + 1).copied().unwrap_or(Kind::Tuple);
                return Err(a.type_err(i + 1, k.expected()));
            }
            let inner = a.any(0)?;
            swizzled::by_inner(&inner, op.name, &|l| f(l, &a)).map(Value::from_any_layout)
        }
        Lift::Refuse => {
            let i = vals.iter().position(Value::is_swizzled).unwrap_or(0);
            Err(Error::Type {
                op: op.name.to_string(),
                position: i + 1,
                expected: "a plain layout (this function is not defined on swizzled layouts)",
                found: vals[i].kind(),
            })
        }
    }
}

/// The help of the expression language: one line per operation, its signature and description.
pub fn help() -> String {
    let mut s = String::new();
    for op in OPS {
        s.push_str("  ");
        s.push_str(op.help);
        s.push('\n');
    }
    s
}

/// A ragged slice as text: its layout (or index map) with offset, and its hole count.
fn slice_text(s: &algebra::ragged::RaggedSlice) -> String {
    let body = match (&s.layout, s.offset) {
        // `(tile, offset)`, as `local_tile` prints its result.
        (Some(l), Some(o)) => format!("({l},{o})"),
        _ => format!("(index {},{})", s.index, s.index_offset),
    };
    format!(
        "{body} [{} points, {} valid, {}]",
        s.points,
        s.valid,
        algebra::ragged::holes_text(s.holes)
    )
}

#[inline]
fn lay(l: Result<Layout>) -> Result<Value> {
    l.map(Value::Layout)
}

fn any_out(r: Result<AnyLayout>) -> Result<Value> {
    r.map(Value::from_any_layout)
}

/// An optional integer-tuple argument `i`.
fn opt_tuple(a: &Args, i: usize) -> Result<Option<IntTuple>> {
    if a.n() > i {
        a.tuple(i).map(Some)
    } else {
        Ok(None)
    }
}

// The rows' functions, where they are longer than a line.

fn coalesce_trace(a: &Args) -> Result<Value> {
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

fn composition_swizzled(a: &Args) -> Result<Value> {
    let rhs = match a.get(1) {
        Value::Swizzle(_) | Value::Composed(_) => Rhs::Func(a.any(1)?),
        v if v.is_swizzled() => return Err(a.type_err(1, Kind::Tiler.expected())),
        _ => Rhs::Tiler(a.tiler(1)?),
    };
    any_out(swizzled::composition(&a.any(0)?, &rhs))
}

fn make_layout(a: &Args) -> Result<Value> {
    let n = a.n();
    if n >= 1 && a.vals.iter().all(|v| matches!(v, Value::Layout(_))) {
        let parts = (0..n).map(|i| a.layout(i)).collect::<Result<Vec<_>>>()?;
        return Ok(Value::Layout(Layout::concat(parts.iter().copied())));
    }
    arity(a.op, n, &[1, 2])?;
    let s = a.tuple(0)?;
    lay(if n == 1 {
        Layout::compact(&s)
    } else {
        Layout::new(&s, &a.tuple(1)?)
    })
}

/// `size`, `rank`, `depth` and `flatten` of a layout or an integer tuple.
fn measure(a: &Args) -> Result<Value> {
    match a.get(0) {
        Value::Layout(l) => match a.op {
            "size" => l.size().map(Value::Int),
            "rank" => Ok(Value::Int(l.rank() as i64)),
            "depth" => Ok(Value::Int(l.depth() as i64)),
            _ => Ok(Value::Layout(l.flatten())),
        },
        _ => {
            let t = a.tuple(0)?;
            let r = t.as_ref();
            match a.op {
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

/// `size`, `rank`, `depth` and `shape` of a swizzle or composed layout (of its domain).
fn measure_swizzled(a: &Args) -> Result<Value> {
    let f = a.any(0)?;
    let l = f.shape_layout("size")?;
    Ok(match a.op {
        "size" => Value::Int(l.size()?),
        "rank" => Value::Int(l.rank() as i64),
        "depth" => Value::Int(l.depth() as i64),
        _ => int_tuple_value(&l.shape()),
    })
}

fn get(a: &Args) -> Result<Value> {
    let i = a.int(1)?;
    let bad = || Error::RankMismatch {
        op: "get",
        detail: format!("mode {i} of {}", a.get(0)),
    };
    let idx = usize::try_from(i).map_err(|_| bad())?;
    match a.get(0) {
        Value::Layout(l) if idx < l.rank() => Ok(Value::Layout(l.mode_at(idx).ok_or_else(bad)?)),
        Value::Tuple(items) => items.get(idx).cloned().ok_or_else(bad),
        Value::Int(v) if idx == 0 => Ok(Value::Int(*v)),
        _ => Err(bad()),
    }
}

fn get_swizzled(a: &Args) -> Result<Value> {
    let i = usize::try_from(a.int(1)?).map_err(|_| Error::RankMismatch {
        op: "get",
        detail: format!("mode {} of {}", a.get(1), a.get(0)),
    })?;
    any_out(swizzled::get(&a.any(0)?, i))
}

fn local_tile(a: &Args) -> Result<Value> {
    let (l, t, c) = (a.layout(0)?, a.tiler(1)?, a.tuple(2)?);
    if a.op == "local_tile" {
        let (tile, off) = algebra::ragged::local_tile(l, &t, &c)?;
        Ok(Value::Tuple(vec![Value::Layout(tile), Value::Int(off)]))
    } else {
        Ok(Value::Text(slice_text(
            &algebra::ragged::ragged_local_tile(l, &t, &c)?,
        )))
    }
}

fn local_partition(a: &Args) -> Result<Value> {
    let (l, th, i) = (a.layout(0)?, a.layout_or_tuple(1)?, a.int(2)?);
    if a.op == "local_partition" {
        let (part, off) = algebra::ragged::local_partition(l, &th, i)?;
        Ok(Value::Tuple(vec![Value::Layout(part), Value::Int(off)]))
    } else {
        Ok(Value::Text(slice_text(
            &algebra::ragged::ragged_local_partition(l, &th, i)?,
        )))
    }
}

fn ragged_divide(a: &Args) -> Result<Value> {
    let arr = Arrangement::parse(&a.op["ragged_".len()..]).expect("a divide name");
    let r = algebra::ragged::ragged_divide(a.layout(0)?, &a.tiler(1)?, arr)?;
    Ok(Value::Text(r.to_string()))
}

fn eval_at(a: &Args) -> Result<Value> {
    let l = a.layout(0)?;
    let c = a.tuple(1)?;
    in_domain("eval", c.as_ref(), l.shape().as_ref(), Some)?;
    match c.as_ref().leaf() {
        Some(i) => l.eval(i).map(Value::Int),
        None => l.crd2idx(&c).map(Value::Int),
    }
}

/// `out_of_domain` when an integer of the coordinate `c` lies outside its mode of `shape` (an
/// integer against a tuple mode ranges over the mode's size, as CuTe reads it). Ranks that do not
/// match are left to the operation (its own `rank_mismatch`). Every operation that takes a
/// coordinate (`eval`, `slice`, `crd2idx`, `local_tile`) refuses the same way; `idx2crd` keeps
/// CuTe's extrapolation of the last mode (pinned by the differential test).
fn in_domain<T: Copy>(
    op: &'static str,
    c: crate::layout::TreeRef<'_, T>,
    shape: crate::layout::TreeRef<'_, i64>,
    get: fn(T) -> Option<i64>,
) -> Result<()> {
    // An explicit stack: the coordinate's depth is bounded by the parser, but no recursion here.
    let mut stack = vec![(c, shape)];
    while let Some((c, s)) = stack.pop() {
        if c.is_leaf() {
            let Some(v) = c.leaf().and_then(get) else {
                continue;
            };
            let size = s.leaves().try_fold(1i64, crate::error::arith::mul)?;
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

fn eval_swizzled(a: &Args) -> Result<Value> {
    let f = a.any(0)?;
    if let (Some(l), Some(c)) = (f.layout(), a.get(1).to_int_tuple()) {
        in_domain("eval", c.as_ref(), l.shape().as_ref(), Some)?;
    }
    match a.get(1) {
        Value::Int(i) => f.eval(*i).map(Value::Int),
        _ => f.crd2idx(&a.tuple(1)?).map(Value::Int),
    }
}

fn stride_swizzled(a: &Args) -> Result<Value> {
    Err(Error::NotExpressible {
        op: "stride",
        what: format!("stride({})", a.get(0)),
        detail: "a swizzled layout is not linear, so it has no stride (CuTe deletes \
                 stride() of a ComposedLayout)"
            .into(),
    })
}

/// A row for a divide or product by a tiler: `name(A, tiler)`, lifted to the inner layout.
macro_rules! by_tiler {
    ($name:literal, $f:path, $ragged:expr, $codes:expr) => {
        Op {
            name: $name,
            args: &[Kind::Layout, Kind::Tiler],
            arity: &[2],
            help: concat!($name, "(A, tiler)"),
            plain: Plain::Inner,
            lift: Lift::Inner(|l, a| $f(l, &a.tiler(1)?)),
            ragged: $ragged,
            pycute: Face::Argument,
            codes: $codes,
            symbolic: sym(&[SymKind::Layout, SymKind::Tiler]),
        }
    };
}

/// A row for a ragged divide (text: the divide over the padded domain with its holes).
macro_rules! ragged_divide {
    ($name:literal, $help:literal) => {
        Op {
            name: $name,
            args: &[Kind::Layout, Kind::Tiler],
            arity: &[2],
            help: $help,
            plain: Plain::Func(ragged_divide),
            lift: Lift::Refuse,
            ragged: RaggedForm::No,
            pycute: Face::NotLayout,
            codes: DIVIDE_CODES,
            symbolic: sym(&[SymKind::Layout, SymKind::Tiler]),
        }
    };
}

const DIVIDE_CODES: &[&str] = &["inadmissible_composition", "non_injective", "too_large"];
const PRODUCT_CODES: &[&str] = &[
    "inadmissible_composition",
    "non_injective",
    "not_complementable",
    "too_large",
];
const COMPLEMENT_CODES: &[&str] = &["non_injective", "not_complementable", "too_large"];

/// Every operation of the expression language, in the order the help lists them.
pub static OPS: &[Op] = ROWS;

/// [`Plain::Inner`] only with [`Lift::Inner`], checked when the crate compiles.
const _: () = {
    let mut i = 0;
    while i < ROWS.len() {
        assert!(
            !matches!(ROWS[i].plain, Plain::Inner) || matches!(ROWS[i].lift, Lift::Inner(_)),
            "a row with Plain::Inner needs Lift::Inner"
        );
        i += 1;
    }
};

const ROWS: &[Op] = &[
    Op {
        name: "composition",
        args: &[Kind::Layout, Kind::Tiler],
        arity: &[2],
        help: "composition(A, B): B a layout, integer, shape or by-mode tiler",
        plain: Plain::Func(|a| lay(algebra::composition_tiler(a.layout(0)?, &a.tiler(1)?))),
        lift: Lift::Func(composition_swizzled),
        ragged: RaggedForm::No,
        pycute: Face::Argument,
        codes: &["inadmissible_composition", "rank_mismatch", "too_large"],
        symbolic: sym(&[SymKind::Layout, SymKind::Layout]),
    },
    Op {
        name: "complement",
        args: &[Kind::Layout, Kind::Tuple],
        arity: &[1, 2],
        help: "complement(A) | complement(A, cotarget)",
        plain: Plain::Func(|a| {
            let l = a.layout(0)?;
            lay(match opt_tuple(a, 1)? {
                None => algebra::complement_default(l),
                Some(t) => algebra::complement(l, &t),
            })
        }),
        lift: Lift::Func(|a| {
            swizzled::complement(&a.any(0)?, opt_tuple(a, 1)?.as_ref()).map(Value::Layout)
        }),
        ragged: RaggedForm::No,
        pycute: Face::Complement,
        codes: COMPLEMENT_CODES,
        symbolic: Some(Symbolic {
            args: &[SymKind::Layout, SymKind::Extent],
            required: 1,
        }),
    },
    Op {
        name: "complement_exact",
        args: &[Kind::Layout, Kind::Tuple],
        arity: &[1, 2],
        help: "complement_exact(A) | complement_exact(A, cotarget): only a tiling complement",
        plain: Plain::Func(|a| {
            let l = a.layout(0)?;
            lay(match opt_tuple(a, 1)? {
                None => algebra::complement_exact_default(l),
                Some(t) => algebra::complement_exact(l, &t),
            })
        }),
        lift: Lift::Refuse,
        ragged: RaggedForm::No,
        pycute: Face::Argument,
        codes: COMPLEMENT_CODES,
        symbolic: None,
    },
    Op {
        name: "complement1",
        args: &[Kind::Int, Kind::Int, Kind::Int],
        arity: &[3],
        help: "complement1(N, d, M): the rank-1 complement of N:d in [0, M) (Complementation theorem)",
        plain: Plain::Func(|a| lay(algebra::complement1(a.int(0)?, a.int(1)?, a.int(2)?))),
        lift: Lift::Refuse,
        ragged: RaggedForm::No,
        pycute: Face::Tessera,
        codes: &["divisibility", "non_positive_shape", "proof_mismatch"],
        symbolic: None,
    },
    Op {
        name: "coalesce",
        args: &[Kind::Layout, Kind::Tuple],
        arity: &[1, 2],
        help: "coalesce(L) | coalesce(L, profile)",
        plain: Plain::Inner,
        lift: Lift::Inner(|l, a| match opt_tuple(a, 1)? {
            None => algebra::coalesce(l),
            Some(p) => algebra::coalesce_by(l, &p),
        }),
        ragged: RaggedForm::No,
        pycute: Face::Argument,
        codes: &["rank_mismatch"],
        symbolic: sym(&[SymKind::Layout]),
    },
    Op {
        name: "coalesce_trace",
        args: &[Kind::Layout],
        arity: &[1],
        help: "coalesce_trace(L): the rewrite steps of coalescence as normalization",
        plain: Plain::Func(coalesce_trace),
        lift: Lift::Refuse,
        ragged: RaggedForm::No,
        pycute: Face::NotLayout,
        codes: &[],
        symbolic: None,
    },
    Op {
        name: "filter",
        args: &[Kind::Layout, Kind::Tuple],
        arity: &[1, 2],
        help: "filter(L) | filter(L, profile)",
        plain: Plain::Inner,
        lift: Lift::Inner(|l, a| match opt_tuple(a, 1)? {
            None => algebra::filter(l),
            Some(p) => algebra::filter_by(l, &p),
        }),
        ragged: RaggedForm::No,
        pycute: Face::Argument,
        codes: &["rank_mismatch"],
        symbolic: None,
    },
    Op {
        name: "divides",
        args: &[Kind::Int, Kind::Int],
        arity: &[2],
        help: "divides(a, b): b / a, checking the obligation a ∣ b",
        plain: Plain::Func(|a| {
            crate::error::Divides::check(a.int(0)?, a.int(1)?).map(|h| Value::Int(h.quotient()))
        }),
        lift: Lift::Refuse,
        ragged: RaggedForm::No,
        pycute: Face::NotLayout,
        codes: &["divisibility"],
        symbolic: None,
    },
    Op {
        name: "right_inverse",
        args: &[Kind::Layout],
        arity: &[1],
        help: "right_inverse(L)",
        plain: Plain::Func(|a| lay(algebra::right_inverse(a.layout(0)?))),
        lift: Lift::Func(|a| any_out(swizzled::right_inverse(&a.any(0)?))),
        ragged: RaggedForm::No,
        pycute: Face::Argument,
        codes: &["too_large", "not_expressible"],
        symbolic: sym(&[SymKind::Layout]),
    },
    Op {
        name: "left_inverse",
        args: &[Kind::Layout],
        arity: &[1],
        help: "left_inverse(L)",
        plain: Plain::Func(|a| lay(algebra::left_inverse(a.layout(0)?))),
        lift: Lift::Func(|a| any_out(swizzled::left_inverse(&a.any(0)?))),
        ragged: RaggedForm::No,
        pycute: Face::Argument,
        codes: &["not_expressible", "non_injective", "too_large"],
        symbolic: sym(&[SymKind::Layout]),
    },
    by_tiler!(
        "logical_divide",
        algebra::logical_divide,
        RaggedForm::Divide(Arrangement::Logical),
        DIVIDE_CODES
    ),
    by_tiler!(
        "zipped_divide",
        algebra::zipped_divide,
        RaggedForm::Divide(Arrangement::Zipped),
        DIVIDE_CODES
    ),
    by_tiler!(
        "tiled_divide",
        algebra::tiled_divide,
        RaggedForm::Divide(Arrangement::Tiled),
        DIVIDE_CODES
    ),
    by_tiler!(
        "flat_divide",
        algebra::flat_divide,
        RaggedForm::Divide(Arrangement::Flat),
        DIVIDE_CODES
    ),
    by_tiler!(
        "logical_product",
        algebra::logical_product,
        RaggedForm::No,
        PRODUCT_CODES
    ),
    by_tiler!(
        "zipped_product",
        algebra::zipped_product,
        RaggedForm::No,
        PRODUCT_CODES
    ),
    by_tiler!(
        "tiled_product",
        algebra::tiled_product,
        RaggedForm::No,
        PRODUCT_CODES
    ),
    by_tiler!(
        "flat_product",
        algebra::flat_product,
        RaggedForm::No,
        PRODUCT_CODES
    ),
    Op {
        name: "blocked_product",
        args: &[Kind::LayoutOrShape, Kind::LayoutOrShape],
        arity: &[2],
        help: "blocked_product(A, B)",
        plain: Plain::Inner,
        lift: Lift::Inner(|l, a| algebra::blocked_product(l, &a.layout_or_tuple(1)?)),
        ragged: RaggedForm::No,
        pycute: Face::Argument,
        codes: PRODUCT_CODES,
        symbolic: sym(&[SymKind::Layout, SymKind::Layout]),
    },
    Op {
        name: "raked_product",
        args: &[Kind::LayoutOrShape, Kind::LayoutOrShape],
        arity: &[2],
        help: "raked_product(A, B)",
        plain: Plain::Inner,
        lift: Lift::Inner(|l, a| algebra::raked_product(l, &a.layout_or_tuple(1)?)),
        ragged: RaggedForm::No,
        pycute: Face::Argument,
        codes: PRODUCT_CODES,
        symbolic: sym(&[SymKind::Layout, SymKind::Layout]),
    },
    Op {
        name: "tile_to_shape",
        args: &[Kind::Layout, Kind::Tuple, Kind::Tuple],
        arity: &[2, 3],
        help: "tile_to_shape(L, shape) | tile_to_shape(L, shape, order)",
        plain: Plain::Inner,
        lift: Lift::Inner(|l, a| algebra::tile_to_shape(l, &a.tuple(1)?, opt_tuple(a, 2)?.as_ref())),
        ragged: RaggedForm::No,
        pycute: Face::Argument,
        codes: &["divisibility", "rank_mismatch"],
        symbolic: Some(Symbolic {
            args: &[SymKind::Layout, SymKind::Shape, SymKind::Coord],
            required: 2,
        }),
    },
    Op {
        name: "make_layout",
        args: &[Kind::Layouts],
        arity: &[],
        help: "make_layout(shape) | make_layout(shape, stride) | make_layout(L0, L1, ...)",
        plain: Plain::Func(make_layout),
        lift: Lift::Refuse,
        ragged: RaggedForm::No,
        pycute: Face::Argument,
        codes: &["rank_mismatch", "not_congruent", "non_positive_shape"],
        symbolic: None,
    },
    Op {
        name: "make_ordered_layout",
        args: &[Kind::Tuple, Kind::Tuple],
        arity: &[2],
        help: "make_ordered_layout(shape, order)",
        plain: Plain::Func(|a| lay(algebra::make_ordered_layout(&a.tuple(0)?, &a.tuple(1)?))),
        lift: Lift::Refuse,
        ragged: RaggedForm::No,
        pycute: Face::Tessera,
        codes: &["rank_mismatch", "non_injective"],
        symbolic: None,
    },
    Op {
        name: "upcast",
        args: &[Kind::Layout, Kind::Int],
        arity: &[2],
        help: "upcast(L, N)",
        plain: Plain::Func(|a| lay(algebra::upcast(a.layout(0)?, a.int(1)?))),
        lift: Lift::Func(|a| any_out(swizzled::recast(&a.any(0)?, a.int(1)?, true))),
        ragged: RaggedForm::No,
        pycute: Face::Argument,
        codes: &["divisibility", "no_unit_stride", "non_positive_shape", "not_expressible"],
        symbolic: None,
    },
    Op {
        name: "downcast",
        args: &[Kind::Layout, Kind::Int],
        arity: &[2],
        help: "downcast(L, N)",
        plain: Plain::Func(|a| lay(algebra::downcast(a.layout(0)?, a.int(1)?))),
        lift: Lift::Func(|a| any_out(swizzled::recast(&a.any(0)?, a.int(1)?, false))),
        ragged: RaggedForm::No,
        pycute: Face::Argument,
        codes: &["divisibility", "no_unit_stride", "non_positive_shape", "not_expressible"],
        symbolic: None,
    },
    Op {
        name: "recast_layout",
        args: &[Kind::Layout, Kind::Int, Kind::Int],
        arity: &[3],
        help: "recast_layout(L, old_bits, new_bits): L over old_bits-wide elements as new_bits-wide ones (CuTe's recast_layout<Old,New>)",
        plain: Plain::Func(|a| lay(algebra::recast_layout(a.layout(0)?, a.int(1)?, a.int(2)?))),
        lift: Lift::Func(|a| {
            let (num, den) = algebra::recast_ratio(a.int(1)?, a.int(2)?)?;
            let mut f = a.any(0)?;
            if num > 1 {
                f = swizzled::recast(&f, num, true)?;
            }
            if den > 1 {
                f = swizzled::recast(&f, den, false)?;
            }
            Ok(Value::from_any_layout(f))
        }),
        ragged: RaggedForm::No,
        pycute: Face::Argument,
        codes: &["divisibility", "no_unit_stride", "non_positive_shape", "not_expressible"],
        symbolic: None,
    },
    Op {
        name: "nullspace",
        args: &[Kind::Layout],
        arity: &[1],
        help: "nullspace(L)",
        plain: Plain::Func(|a| lay(algebra::nullspace(a.layout(0)?))),
        lift: Lift::Refuse,
        ragged: RaggedForm::No,
        pycute: Face::Argument,
        codes: &[],
        symbolic: None,
    },
    Op {
        name: "max_common_layout",
        args: &[Kind::Layout, Kind::Layout],
        arity: &[2],
        help: "max_common_layout(A, B)",
        plain: Plain::Func(|a| lay(algebra::max_common_layout(a.layout(0)?, a.layout(1)?))),
        lift: Lift::Func(|a| any_out(swizzled::max_common_layout(&a.any(0)?, &a.any(1)?))),
        ragged: RaggedForm::No,
        pycute: Face::Argument,
        codes: &["non_injective", "too_large"],
        symbolic: None,
    },
    Op {
        name: "max_common_vector",
        args: &[Kind::Layout, Kind::Layout],
        arity: &[2],
        help: "max_common_vector(A, B)",
        plain: Plain::Func(|a| algebra::max_common_vector(a.layout(0)?, a.layout(1)?).map(Value::Int)),
        lift: Lift::Func(|a| {
            swizzled::max_common_vector(&a.any(0)?, &a.any(1)?).map(Value::Int)
        }),
        ragged: RaggedForm::No,
        pycute: Face::NotLayout,
        codes: &["non_injective", "too_large"],
        symbolic: None,
    },
    Op {
        name: "size",
        args: &[Kind::LayoutOrTuple],
        arity: &[1],
        help: "size(L or tuple)",
        plain: Plain::Func(measure),
        lift: Lift::Func(measure_swizzled),
        ragged: RaggedForm::No,
        pycute: Face::NotLayout,
        codes: &[],
        symbolic: sym(&[SymKind::Layout]),
    },
    Op {
        name: "cosize",
        args: &[Kind::Layout],
        arity: &[1],
        help: "cosize(L)",
        plain: Plain::Func(|a| a.layout(0)?.cosize().map(Value::Int)),
        lift: Lift::Func(|a| swizzled::cosize(&a.any(0)?).map(Value::Int)),
        ragged: RaggedForm::No,
        pycute: Face::NotLayout,
        codes: &["too_large", "rank_mismatch"],
        symbolic: sym(&[SymKind::Layout]),
    },
    Op {
        name: "rank",
        args: &[Kind::LayoutOrTuple],
        arity: &[1],
        help: "rank(L or tuple)",
        plain: Plain::Func(measure),
        lift: Lift::Func(measure_swizzled),
        ragged: RaggedForm::No,
        pycute: Face::NotLayout,
        codes: &[],
        symbolic: None,
    },
    Op {
        name: "depth",
        args: &[Kind::LayoutOrTuple],
        arity: &[1],
        help: "depth(L or tuple)",
        plain: Plain::Func(measure),
        lift: Lift::Func(measure_swizzled),
        ragged: RaggedForm::No,
        pycute: Face::NotLayout,
        codes: &[],
        symbolic: None,
    },
    Op {
        name: "shape",
        args: &[Kind::Layout],
        arity: &[1],
        help: "shape(L)",
        plain: Plain::Func(|a| Ok(int_tuple_value(&a.layout(0)?.shape()))),
        lift: Lift::Func(measure_swizzled),
        ragged: RaggedForm::No,
        pycute: Face::NotLayout,
        codes: &[],
        symbolic: None,
    },
    Op {
        name: "stride",
        args: &[Kind::Layout],
        arity: &[1],
        help: "stride(L)",
        plain: Plain::Func(|a| Ok(int_tuple_value(&a.layout(0)?.stride()))),
        lift: Lift::Func(stride_swizzled),
        ragged: RaggedForm::No,
        pycute: Face::NotLayout,
        codes: &["not_expressible"],
        symbolic: None,
    },
    Op {
        name: "flatten",
        args: &[Kind::LayoutOrTuple],
        arity: &[1],
        help: "flatten(L or tuple)",
        plain: Plain::Func(measure),
        lift: Lift::Inner(|l, _| Ok(l.flatten())),
        ragged: RaggedForm::No,
        pycute: Face::Argument,
        codes: &[],
        symbolic: None,
    },
    Op {
        name: "get",
        args: &[Kind::LayoutOrTuple, Kind::Int],
        arity: &[2],
        help: "get(L or tuple, i): mode i",
        plain: Plain::Func(get),
        lift: Lift::Func(get_swizzled),
        ragged: RaggedForm::No,
        pycute: Face::Argument,
        codes: &["rank_mismatch"],
        symbolic: None,
    },
    Op {
        name: "idx2crd",
        args: &[Kind::Int, Kind::Tuple],
        arity: &[2],
        help: "idx2crd(i, shape)",
        plain: Plain::Func(|a| layout::idx2crd(a.int(0)?, &a.tuple(1)?).map(|t| int_tuple_value(&t))),
        lift: Lift::Refuse,
        ragged: RaggedForm::No,
        pycute: Face::NotLayout,
        codes: &["out_of_domain"],
        symbolic: sym(&[SymKind::Index, SymKind::Shape]),
    },
    Op {
        name: "crd2idx",
        args: &[Kind::Tuple, Kind::Tuple, Kind::Tuple],
        arity: &[3],
        help: "crd2idx(crd, shape, stride)",
        plain: Plain::Func(|a| {
            let (c, shape) = (a.tuple(0)?, a.tuple(1)?);
            in_domain("crd2idx", c.as_ref(), shape.as_ref(), Some)?;
            layout::crd2idx(&c, &shape, &a.tuple(2)?).map(Value::Int)
        }),
        lift: Lift::Refuse,
        ragged: RaggedForm::No,
        pycute: Face::NotLayout,
        codes: &["rank_mismatch", "out_of_domain"],
        symbolic: sym(&[SymKind::Coord, SymKind::Layout]),
    },
    Op {
        name: "slice",
        args: &[Kind::SliceCoord, Kind::Layout],
        arity: &[2],
        help: "slice(coord with _, L)",
        plain: Plain::Func(|a| {
            let c = a.slice_coord(0)?;
            let l = a.layout(1)?;
            in_domain("slice", c.as_ref(), l.shape().as_ref(), |x| x)?;
            lay(layout::slice(&c, l))
        }),
        lift: Lift::Func(|a| {
            let c = a.slice_coord(0)?;
            let f = a.any(1)?;
            if let Some(l) = f.layout() {
                in_domain("slice", c.as_ref(), l.shape().as_ref(), |x| x)?;
            }
            any_out(swizzled::slice(&c, &f))
        }),
        ragged: RaggedForm::No,
        pycute: Face::Argument,
        codes: &["rank_mismatch", "out_of_domain"],
        symbolic: sym(&[SymKind::SliceCoord, SymKind::Layout]),
    },
    Op {
        name: "local_tile",
        args: &[Kind::Layout, Kind::Tiler, Kind::Tuple],
        arity: &[3],
        help: "local_tile(A, tiler, coord): (tile, offset) of zipped_divide(A, tiler) at rest coord",
        plain: Plain::Func(local_tile),
        lift: Lift::Refuse,
        ragged: RaggedForm::LocalTile,
        pycute: Face::NotLayout,
        codes: DIVIDE_CODES,
        symbolic: sym(&[SymKind::Layout, SymKind::Tiler, SymKind::Coord]),
    },
    Op {
        name: "local_partition",
        args: &[Kind::Layout, Kind::LayoutOrShape, Kind::Int],
        arity: &[3],
        help: "local_partition(A, threads, t): (thread t's elements, offset)",
        plain: Plain::Func(local_partition),
        lift: Lift::Refuse,
        ragged: RaggedForm::LocalPartition,
        pycute: Face::NotLayout,
        codes: DIVIDE_CODES,
        symbolic: sym(&[SymKind::Layout, SymKind::Layout, SymKind::Index]),
    },
    ragged_divide!(
        "ragged_logical_divide",
        "ragged_logical_divide(A, tiler): the divide over the padded domain, with its holes (also ragged_zipped/tiled/flat_divide)"
    ),
    ragged_divide!(
        "ragged_zipped_divide",
        "ragged_zipped_divide(A, tiler)"
    ),
    ragged_divide!("ragged_tiled_divide", "ragged_tiled_divide(A, tiler)"),
    ragged_divide!("ragged_flat_divide", "ragged_flat_divide(A, tiler)"),
    Op {
        name: "ragged_local_tile",
        args: &[Kind::Layout, Kind::Tiler, Kind::Tuple],
        arity: &[3],
        help: "ragged_local_tile(A, tiler, coord): one tile of the padded domain, with its holes",
        plain: Plain::Func(local_tile),
        lift: Lift::Refuse,
        ragged: RaggedForm::No,
        pycute: Face::NotLayout,
        codes: DIVIDE_CODES,
        symbolic: sym(&[SymKind::Layout, SymKind::Tiler, SymKind::Coord]),
    },
    Op {
        name: "ragged_local_partition",
        args: &[Kind::Layout, Kind::LayoutOrShape, Kind::Int],
        arity: &[3],
        help: "ragged_local_partition(A, threads, t): one thread's elements, with its holes",
        plain: Plain::Func(local_partition),
        lift: Lift::Refuse,
        ragged: RaggedForm::No,
        pycute: Face::NotLayout,
        codes: DIVIDE_CODES,
        symbolic: sym(&[SymKind::Layout, SymKind::Layout, SymKind::Index]),
    },
    Op {
        name: "eval",
        args: &[Kind::Layout, Kind::Index],
        arity: &[2],
        help: "eval(L, i): L(i)",
        plain: Plain::Func(eval_at),
        lift: Lift::Func(eval_swizzled),
        ragged: RaggedForm::No,
        pycute: Face::NotLayout,
        codes: &["out_of_domain", "rank_mismatch"],
        symbolic: sym(&[SymKind::Layout, SymKind::Index]),
    },
    Op {
        name: "make_swizzle",
        args: &[Kind::Int, Kind::Int],
        arity: &[2],
        help: "make_swizzle(Y, Z): the swizzle with yyy mask Y and zzz mask Z",
        plain: Plain::Func(|a| swizzled::make_swizzle(a.int(0)?, a.int(1)?).map(Value::Swizzle)),
        lift: Lift::Refuse,
        ragged: RaggedForm::No,
        pycute: Face::Tessera,
        codes: &["not_expressible"],
        symbolic: None,
    },
];

/// The reference of every operation, in Markdown (`docs/operations.md` is this text; a test
/// checks it).
pub fn markdown() -> String {
    let mut s = String::from(
        "# Operations\n\n\
         Every function of the expression language (`tessera eval`, `tessera batch`, \
         `tessera.eval`, and one Python function each), generated from the registry \
         `tessera::notation::ops::OPS` (regenerate: `TESSERA_BLESS=1 cargo test -p tessera --lib \
         notation::ops`). Codes are the obligations each can fail (`tessera explain CODE`, \
         [errors.md](errors.md)); every call can also fail `arity`, `type_error` and `overflow`. *Runtime extents* lists \
         the arguments of the operation's form over names (`tessera eval --symbolic`, \
         [symbolic.md](symbolic.md); `?` optional).\n\n\
         | operation | swizzled / composed | ragged form | pycute face | runtime extents | codes |\n\
         |---|---|---|---|---|---|\n",
    );
    for op in OPS {
        let lift = match op.lift {
            Lift::Refuse => "no",
            Lift::Inner(_) => "on the inner layout",
            Lift::Func(_) => "yes",
        };
        let ragged = match op.ragged {
            RaggedForm::No => "",
            RaggedForm::Divide(_) => "divide",
            RaggedForm::LocalTile => "tile",
            RaggedForm::LocalPartition => "partition",
        };
        let face = match op.pycute {
            Face::Argument => "argument's",
            Face::Tessera => "tessera",
            Face::Complement => "pycute's complement",
            Face::NotLayout => "",
        };
        let codes = op
            .codes
            .iter()
            .map(|c| format!("`{c}`"))
            .collect::<Vec<_>>()
            .join(", ");
        let symbolic = op.symbolic.map_or(String::new(), |y| {
            y.args
                .iter()
                .enumerate()
                .map(|(i, k)| {
                    let opt = if i >= y.required { "?" } else { "" };
                    format!("{}{opt}", k.describe())
                })
                .collect::<Vec<_>>()
                .join(", ")
        });
        s.push_str(&format!(
            "| `{}` | {lift} | {ragged} | {face} | {symbolic} | {codes} |\n",
            op.help.replace('|', "\\|")
        ));
    }
    s
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn names_are_unique_and_rows_well_formed() {
        for (i, op) in OPS.iter().enumerate() {
            assert!(
                OPS[..i].iter().all(|o| o.name != op.name),
                "{} twice",
                op.name
            );
            assert!(op.help.starts_with(op.name), "{}: help", op.name);
            let max = op.arity.iter().copied().max().unwrap_or(0);
            assert!(op.args.len() >= max, "{}: argument kinds", op.name);
            assert_eq!(lookup(op.name).map(|o| o.name), Some(op.name));
        }
    }

    /// Every code a row names has a catalogue entry (`tessera explain`, docs/errors.md).
    #[test]
    fn every_code_is_catalogued() {
        for op in OPS {
            for c in op.codes {
                assert!(
                    crate::obligation::catalogue::lookup(c).is_some(),
                    "{}: code {c} has no catalogue entry",
                    op.name
                );
            }
        }
    }

    /// docs/operations.md is the registry's reference.
    #[test]
    fn documentation_is_the_registry() {
        let path = concat!(env!("CARGO_MANIFEST_DIR"), "/../../docs/operations.md");
        let want = markdown();
        if std::env::var_os("TESSERA_BLESS").is_some() {
            std::fs::write(path, &want).expect("write docs/operations.md");
        }
        let have = std::fs::read_to_string(path).unwrap_or_default();
        assert!(
            have == want,
            "docs/operations.md differs from the registry: regenerate it with \
             TESSERA_BLESS=1 cargo test -p tessera --lib notation::ops"
        );
    }

    /// Every row has a Python stub (`tessera._tessera`, generated natively from the row when it
    /// has no hand-written binding; the Python suite checks each is a `tessera` function).
    #[test]
    fn every_row_has_a_python_stub() {
        let stubs = include_str!("../../../tessera-py/python/tessera/_tessera.pyi");
        for op in OPS {
            assert!(
                stubs.contains(&format!("\ndef {}(", op.name)),
                "{}: no stub in crates/tessera-py/python/tessera/_tessera.pyi",
                op.name
            );
        }
    }

    /// A wrong argument gets the same type error through the registry whatever the front end.
    #[test]
    fn type_errors_name_the_argument() {
        let e = apply("complement", &[Value::Int(3)], 1).unwrap_err();
        assert_eq!(e.code(), "type_error");
        let e = apply("complement", &[], 1).unwrap_err();
        assert_eq!(e.code(), "arity");
        let e = apply("nope", &[], 7).unwrap_err();
        assert_eq!(e.code(), "unknown_function");
    }

    /// A row lifted to the inner layout names itself when given a bare swizzle (`filter` once said
    /// `coalesce`, the divides and products `divide/product`), and its plain form is its inner
    /// function on the layout itself.
    #[test]
    fn inner_rows_name_themselves_and_share_their_function() {
        let sw = || crate::notation::eval("Sw<3,4,3>").unwrap();
        let l: Layout = "(4,(2,6)):(12,(1,2))".parse().unwrap();
        let mut inner_rows = 0;
        for op in OPS.iter().filter(|o| matches!(o.lift, Lift::Inner(_))) {
            inner_rows += 1;
            // The smallest arity, with a harmless integer for every other argument.
            let n = op.arity.iter().copied().min().unwrap_or(1);
            let mut vals = vec![sw()];
            vals.extend((1..n).map(|_| Value::Int(2)));
            let e = apply(op.name, &vals, 1).unwrap_err();
            assert!(
                e.to_string().starts_with(&format!("{}: ", op.name)),
                "{}: {e}",
                op.name
            );
            if let (Plain::Inner, Lift::Inner(f)) = (op.plain, op.lift) {
                let mut vals = vec![Value::Layout(l.clone())];
                vals.extend((1..n).map(|_| Value::Int(2)));
                let a = Args {
                    op: op.name,
                    vals: &vals,
                };
                assert_eq!(
                    apply(op.name, &vals, 1).map(|v| v.to_string()),
                    f(&l, &a).map(|r| r.to_string()),
                    "{}",
                    op.name
                );
            }
        }
        assert!(
            inner_rows >= 14,
            "{inner_rows} rows lifted to the inner layout"
        );
        let e = crate::notation::eval("filter(Sw<3,4,3>)").unwrap_err();
        assert!(e.to_string().starts_with("filter: "), "{e}");
    }
}
