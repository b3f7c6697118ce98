//! Checked suggestions: nearby inputs that discharge a failed obligation.
//!
//! Candidates are generated from the failed call (nearby values of its arguments), ordered by
//! how far they are from the original inputs (relative change, summed), and **each one is
//! evaluated with [`crate::notation::eval`] before it is kept**: a suggestion that fails is never
//! returned. All of this runs only when [`crate::Error::suggestions`] is called.

use std::collections::BTreeSet;

use std::fmt;

use crate::error::{Failure, Obligation};
use crate::layout::{IntTuple, Layout, Mode, Tree};
use crate::notation::Value;

/// A call with its arguments as values (the error records them as text: [`crate::error::Call`]).
#[derive(Clone, Debug, PartialEq, Eq)]
struct Call {
    op: String,
    args: Vec<Value>,
}

impl Call {
    /// The recorded call read back: each argument is an expression evaluating to itself.
    fn read(c: &crate::error::Call) -> Option<Call> {
        let args = c
            .args
            .iter()
            .map(|a| crate::notation::eval(a).ok())
            .collect::<Option<Vec<Value>>>()?;
        Some(Call {
            op: c.op.clone(),
            args,
        })
    }
}

impl fmt::Display for Call {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        crate::error::Call::new(&self.op, &self.args).fmt(f)
    }
}

/// The most suggestions returned for one error.
pub const MAX_SUGGESTIONS: usize = 5;

/// The most candidate evaluations spent on one error.
const BUDGET: usize = 160;

/// Suggestions are searched only when every argument has at most this many leaves: candidates
/// are whole calls (one per leaf and nearby value), so the search is linear in the leaves per
/// candidate; past the bound there are no suggestions (real layouts have a few dozen leaves).
pub const MAX_SUGGEST_LEAVES: usize = 256;

/// Suggestions are searched only when every layout argument has at most this many points: each
/// candidate is checked by running the operation, which may enumerate up to the decision bound
/// (2^22 points), so past this size one error could cost seconds of checks (found by fuzzing:
/// a divide by a tiler of 3.5M points spent 14 s on its candidates).
pub const MAX_SUGGEST_POINTS: i64 = 1 << 20;

/// A checked suggestion.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Suggestion {
    /// What changed, e.g. `M = 2048` or `B = 6:4 (stride 3 → 4)`.
    pub label: String,
    /// The suggested expression, e.g. `complement1(128,16,2048)`.
    pub expr: String,
    /// What the expression evaluates to.
    pub value: String,
}

struct Candidate {
    cost: f64,
    label: String,
    call: Call,
}

/// The checked suggestions for a failure, nearest first.
pub(crate) fn suggest(f: &Failure) -> Vec<Suggestion> {
    let Some(call) = f
        .call
        .as_ref()
        .and_then(Call::read)
        .or_else(|| derive_call(f))
    else {
        return Vec::new();
    };
    if call
        .args
        .iter()
        .any(|a| leaves(a) > MAX_SUGGEST_LEAVES || exceeds(a, MAX_SUGGEST_POINTS))
    {
        return Vec::new();
    }
    let original = call.to_string();
    let mut cands = if call.op == "complement1" {
        complement1_candidates(&call)
    } else {
        generic_candidates(&call)
    };
    cands.sort_by(|x, y| x.cost.total_cmp(&y.cost).then(x.label.cmp(&y.label)));
    let mut seen = BTreeSet::new();
    seen.insert(original);
    let mut out = Vec::new();
    if let Some(s) = ragged_suggestion(&call) {
        out.push(s);
    }
    let mut spent = 0usize;
    // Large layouts make each check expensive (decisions may enumerate): spend less.
    let budget = if call.args.iter().any(large) {
        BUDGET / 10
    } else {
        BUDGET
    };
    for c in cands {
        if out.len() >= MAX_SUGGESTIONS || spent >= budget {
            break;
        }
        let expr = c.call.to_string();
        if !seen.insert(expr.clone()) {
            continue;
        }
        spent += 1;
        // The check: run the operation with the suggested inputs; a fix succeeds without a
        // note (e.g. not a complement that leaves holes).
        let (r, notes) = crate::notation::eval_noted(&expr);
        if let (Ok(v), true) = (r, notes.is_empty()) {
            out.push(Suggestion {
                label: c.label,
                expr,
                value: v.to_string(),
            });
        }
    }
    out
}

/// For a divide whose tiler does not divide the layout: its ragged form, with the hole count
/// (checked by evaluating it, like every suggestion).
fn ragged_suggestion(call: &Call) -> Option<Suggestion> {
    let arr = crate::algebra::ragged::Arrangement::parse(&call.op)?;
    let (Some(Value::Layout(a)), Some(t)) = (
        call.args.first(),
        call.args.get(1).and_then(|v| v.to_tiler()),
    ) else {
        return None;
    };
    let r = crate::algebra::ragged::ragged_divide(a, &t, arr).ok()?;
    if r.holes == 0 {
        return None;
    }
    let expr = format!("ragged_{call}");
    let value = crate::notation::eval(&expr).ok()?.to_string();
    Some(Suggestion {
        label: format!(
            "ragged form, {} in {} padded points (the tiler does not divide {a}; `tessera eval --ragged` gives the predicate)",
            crate::algebra::ragged::holes_text(r.holes),
            r.points
        ),
        expr,
        value,
    })
}

/// Leaves of a value (integers count one), saturating.
fn leaves(v: &Value) -> usize {
    match v {
        Value::Layout(l) => l.shape().as_ref().leaf_count(),
        Value::Tuple(items) => items
            .iter()
            .fold(0usize, |a, x| a.saturating_add(leaves(x))),
        _ => 1,
    }
}

fn large(v: &Value) -> bool {
    exceeds(v, 1 << 16)
}

/// Whether some layout inside `v` has more than `points` points (or a size that overflows).
fn exceeds(v: &Value, points: i64) -> bool {
    match v {
        Value::Layout(l) => l.size().map_or(true, |n| n > points),
        Value::Tuple(items) => items.iter().any(|x| exceeds(x, points)),
        _ => false,
    }
}

/// The call implied by a failure that was raised outside the expression language.
fn derive_call(f: &Failure) -> Option<Call> {
    let parse = |s: &str| s.parse::<Layout>().ok().map(Value::Layout);
    match &f.obligation {
        Obligation::Admissible { a, b, .. } => Some(Call {
            op: "composition".into(),
            args: vec![parse(a)?, parse(b)?],
        }),
        Obligation::Injective { layout, .. } | Obligation::Tractable { layout, .. }
            if f.op == "complement" =>
        {
            Some(Call {
                op: "complement".into(),
                args: vec![parse(layout)?],
            })
        }
        _ => None,
    }
}

fn rel(old: i64, new: i64) -> f64 {
    let d = (i128::from(new) - i128::from(old)).unsigned_abs() as f64;
    d / (old.unsigned_abs().max(1) as f64)
}

/// The Complementation theorem's example: `N·d ∣ M` fails; nearby `(N', d', M')` with `N'·d' ∣ M'`.
fn complement1_candidates(call: &Call) -> Vec<Candidate> {
    let ints: Vec<i64> = call
        .args
        .iter()
        .filter_map(|v| match v {
            Value::Int(i) => Some(*i),
            _ => None,
        })
        .collect();
    let [n, d, m] = ints[..] else {
        return Vec::new();
    };
    if n < 1 || d < 1 || m < 1 {
        return Vec::new();
    }
    let mut out = Vec::new();
    let mut push = |n2: i64, d2: i64, m2: i64| {
        if n2 < 1 || d2 < 1 || m2 < 1 {
            return;
        }
        let cost = rel(m, m2) + rel(n, n2) + rel(d, d2);
        let mut parts = Vec::new();
        for (name, old, new) in [("M", m, m2), ("N", n, n2), ("d", d, d2)] {
            if old != new {
                parts.push(format!("{name} = {new}"));
            }
        }
        let label = match parts.split_first() {
            Some((first, rest)) if !rest.is_empty() && m != m2 => {
                format!("{first} with {}", rest.join(", "))
            }
            _ => parts.join(", "),
        };
        out.push(Candidate {
            cost,
            label,
            call: Call {
                op: "complement1".into(),
                args: vec![Value::Int(n2), Value::Int(d2), Value::Int(m2)],
            },
        });
    };
    // Nearby N and d; M rounded to the nearest multiples of N'·d'.
    for dn in -8i64..=8 {
        for dd in -2i64..=2 {
            let (Some(n2), Some(d2)) = (n.checked_add(dn), d.checked_add(dd)) else {
                continue;
            };
            let Some(nd) = n2.checked_mul(d2).filter(|v| *v >= 1) else {
                continue;
            };
            let lo = m / nd * nd;
            if lo >= 1 {
                push(n2, d2, lo);
            }
            if let Some(hi) = lo.checked_add(nd) {
                push(n2, d2, hi);
            }
        }
    }
    // Keep M: d' near d dividing M, N' the divisor of M/d' nearest N.
    for dd in -4i64..=4 {
        let Some(d2) = d.checked_add(dd).filter(|v| *v >= 1) else {
            continue;
        };
        if m % d2 != 0 {
            continue;
        }
        let q = m / d2;
        let reach = (n / 2).clamp(8, 4096);
        for k in 0..=reach {
            let mut found = false;
            for n2 in [n.saturating_sub(k), n.saturating_add(k)] {
                if n2 >= 1 && q % n2 == 0 {
                    push(n2, d2, m);
                    found = true;
                }
            }
            if found {
                break;
            }
        }
    }
    out
}

/// Which arguments of each operation the suggestions may change (the tiler first for divides
/// and composition; the layout for complement and inverses).
fn mutable_args(op: &str, n: usize) -> Vec<usize> {
    match op {
        "composition" | "logical_divide" | "zipped_divide" | "tiled_divide" | "flat_divide" => {
            vec![1]
        }
        "complement" | "left_inverse" | "right_inverse" => vec![0],
        "tile_to_shape" => vec![1, 0],
        "upcast" | "downcast" => vec![1, 0],
        _ => (0..n).collect(),
    }
}

fn arg_name(op: &str, i: usize) -> String {
    let names: &[&str] = match op {
        "composition" => &["A", "B"],
        "complement" => &["A", "cotarget"],
        "logical_divide" | "zipped_divide" | "tiled_divide" | "flat_divide" | "logical_product"
        | "zipped_product" | "tiled_product" | "flat_product" => &["A", "tiler"],
        "blocked_product" | "raked_product" => &["A", "B"],
        "tile_to_shape" => &["block", "shape", "order"],
        "upcast" | "downcast" => &["L", "N"],
        "divides" => &["a", "b"],
        "left_inverse" | "right_inverse" => &["L"],
        _ => &[],
    };
    names
        .get(i)
        .map(|s| (*s).to_string())
        .unwrap_or_else(|| format!("argument {}", i + 1))
}

/// A place where an integer sits inside a value.
#[derive(Clone, Copy)]
enum Knob {
    /// The k-th integer of a tuple/integer value (in leaf order).
    Int(usize),
    /// The shape of the k-th leaf of the k-th layout met in leaf order.
    Shape(usize),
    /// The stride of the k-th leaf.
    Stride(usize),
}

/// Walks a value; calls `f` on every knob with its current value.
fn knobs(v: &Value) -> Vec<(Knob, i64)> {
    fn go(v: &Value, ints: &mut usize, leaves: &mut usize, out: &mut Vec<(Knob, i64)>) {
        match v {
            Value::Int(i) => {
                out.push((Knob::Int(*ints), *i));
                *ints += 1;
            }
            Value::Tuple(items) => items.iter().for_each(|x| go(x, ints, leaves, out)),
            Value::Layout(l) => {
                for m in l.leaves() {
                    out.push((Knob::Shape(*leaves), m.shape));
                    out.push((Knob::Stride(*leaves), m.stride));
                    *leaves += 1;
                }
            }
            Value::Under | Value::Text(_) | Value::Swizzle(_) | Value::Composed(_) => {}
        }
    }
    let mut out = Vec::new();
    go(v, &mut 0, &mut 0, &mut out);
    out
}

/// `v` with the knob set to `new`.
fn set_knob(v: &Value, knob: Knob, new: i64) -> Option<Value> {
    fn go(v: &Value, knob: Knob, new: i64, ints: &mut usize, leaves: &mut usize) -> Option<Value> {
        Some(match v {
            Value::Int(i) => {
                let here = matches!(knob, Knob::Int(k) if k == *ints);
                *ints += 1;
                Value::Int(if here { new } else { *i })
            }
            Value::Tuple(items) => Value::Tuple(
                items
                    .iter()
                    .map(|x| go(x, knob, new, ints, leaves))
                    .collect::<Option<Vec<_>>>()?,
            ),
            Value::Layout(l) => {
                let t = l.tree().to_owned().map(|m| {
                    let k = *leaves;
                    *leaves += 1;
                    match knob {
                        Knob::Shape(j) if j == k => Mode::new(new, m.stride),
                        Knob::Stride(j) if j == k => Mode::new(m.shape, new),
                        _ => m,
                    }
                });
                let shape: IntTuple = t.map(|m| m.shape);
                let stride: IntTuple = t.map(|m| m.stride);
                Value::Layout(Layout::new(&shape, &stride).ok()?)
            }
            other => other.clone(),
        })
    }
    go(v, knob, new, &mut 0, &mut 0)
}

/// A flat layout of rank ≥ 2 without top-level mode `k`.
fn drop_mode(v: &Value, k: usize) -> Option<Value> {
    let Value::Layout(l) = v else { return None };
    if l.is_leaf() || l.rank() < 2 || l.tree().modes().any(|m| !m.is_leaf()) {
        return None;
    }
    let kept: Vec<Mode> = l
        .leaves()
        .enumerate()
        .filter(|(i, _)| *i != k)
        .map(|(_, m)| m)
        .collect();
    Some(Value::Layout(if kept.len() == 1 {
        Layout::from_tree(Tree::leaf(kept[0]))
    } else {
        Layout::flat(kept)
    }))
}

/// Numbers that make good candidates: every integer of the call, the reach `s·d` and the
/// prefix products (place values) of every layout.
fn pool(call: &Call) -> BTreeSet<i64> {
    let mut p = BTreeSet::new();
    for a in &call.args {
        collect_pool(a, &mut p);
    }
    p.retain(|v| *v >= 1);
    p
}

fn collect_pool(v: &Value, p: &mut BTreeSet<i64>) {
    match v {
        Value::Int(i) => {
            p.insert(i.saturating_abs());
        }
        Value::Tuple(items) => items.iter().for_each(|x| collect_pool(x, p)),
        Value::Layout(l) => {
            let mut place = 1i64;
            for m in l.leaves() {
                p.insert(m.shape);
                p.insert(m.stride.saturating_abs());
                if let Some(r) = m.shape.checked_mul(m.stride.saturating_abs()) {
                    p.insert(r);
                }
                place = place.saturating_mul(m.shape);
                p.insert(place);
            }
        }
        Value::Under | Value::Text(_) | Value::Swizzle(_) | Value::Composed(_) => {}
    }
}

/// Values near `v` for a knob: ±1, ±2, divisors, nearby pool values and their multiples, the
/// nearest powers of two.
fn nearby(v: i64, is_shape: bool, pool: &BTreeSet<i64>) -> Vec<i64> {
    let mut c: BTreeSet<i64> = BTreeSet::new();
    for dv in [-2i64, -1, 1, 2] {
        if let Some(x) = v.checked_add(dv) {
            c.insert(x);
        }
    }
    let a = v.saturating_abs();
    let sign = if v < 0 { -1 } else { 1 };
    for k in 1..=64i64.min(a) {
        if a % k == 0 {
            c.insert(sign * k);
            c.insert(sign * (a / k));
        }
    }
    for &p in pool {
        c.insert(sign * p);
        if a >= 1 && p >= 1 {
            let lo = a / p * p;
            c.insert(sign * lo);
            c.insert(sign * lo.saturating_add(p));
        }
    }
    if a >= 1 {
        let lo = 1i64 << (63 - a.leading_zeros()).min(62);
        c.insert(sign * lo);
        c.insert(sign * lo.saturating_mul(2));
    }
    c.remove(&v);
    c.into_iter()
        .filter(|x| !is_shape || *x >= 1)
        .filter(|x| x.unsigned_abs() <= (a.unsigned_abs().saturating_mul(8)).max(64))
        .collect()
}

fn generic_candidates(call: &Call) -> Vec<Candidate> {
    let pool = pool(call);
    let mut out = Vec::new();
    for i in mutable_args(&call.op, call.args.len()) {
        let Some(arg) = call.args.get(i) else {
            continue;
        };
        let name = arg_name(&call.op, i);
        let with = |new: Value| {
            let mut args = call.args.clone();
            args[i] = new;
            Call {
                op: call.op.clone(),
                args,
            }
        };
        for (knob, old) in knobs(arg) {
            let (is_shape, what) = match knob {
                Knob::Int(_) => (false, "entry"),
                Knob::Shape(_) => (true, "shape"),
                Knob::Stride(_) => (false, "stride"),
            };
            for new in nearby(old, is_shape, &pool) {
                let Some(v) = set_knob(arg, knob, new) else {
                    continue;
                };
                // Degenerate fixes (a mode of extent 1, a stride of 0) come after real ones.
                let degenerate = match knob {
                    Knob::Shape(_) if new == 1 => 0.5,
                    Knob::Stride(_) if new == 0 => 0.5,
                    _ => 0.0,
                };
                let label = if matches!(arg, Value::Int(_)) {
                    format!("{name} = {v}")
                } else {
                    format!("{name} = {v} ({what} {old} → {new})")
                };
                out.push(Candidate {
                    cost: rel(old, new) + degenerate,
                    label,
                    call: with(v),
                });
            }
        }
        if let Value::Layout(l) = arg {
            if let Some((v, cost)) = respaced(l) {
                out.push(Candidate {
                    cost,
                    label: format!("{name} = {v} (strides re-spaced so that no two modes overlap)"),
                    call: with(Value::Layout(v)),
                });
            }
            if call.op == "composition" && i == 1 {
                let fixed = match call.args.first() {
                    Some(Value::Layout(a)) => leafwise_admissible(a, l, &pool),
                    _ => None,
                };
                if let Some((v, cost)) = fixed {
                    out.push(Candidate {
                        cost,
                        label: format!("{name} = {v} (each mode of B made admissible)"),
                        call: with(Value::Layout(v)),
                    });
                }
            }
            for (k, m) in l.leaves().enumerate() {
                if let Some(v) = drop_mode(arg, k) {
                    out.push(Candidate {
                        cost: 0.9,
                        label: format!(
                            "{name} = {v} (mode {k}, {}:{}, dropped)",
                            m.shape, m.stride
                        ),
                        call: with(v),
                    });
                }
            }
        }
    }
    out
}

/// `l` with its strides spaced so that, sorted by stride, each mode starts at a multiple of where
/// the previous one ends (`s_i·d_i ∣ d_{i+1}`): injective and complementable. Shapes and
/// stride-0 modes are kept; each stride moves up to the nearest such multiple.
fn respaced(l: &Layout) -> Option<(Layout, f64)> {
    let leaves: Vec<Mode> = l.leaves().collect();
    let mut order: Vec<usize> = (0..leaves.len())
        .filter(|&i| leaves[i].stride > 0 && leaves[i].shape > 1)
        .collect();
    order.sort_by_key(|&i| (leaves[i].stride, i));
    let mut strides: Vec<i64> = leaves.iter().map(|m| m.stride).collect();
    let mut reach = 1i64;
    let mut cost = 0.0;
    for &i in &order {
        let d = leaves[i].stride;
        let new = d.checked_add(reach - 1)? / reach * reach;
        cost += rel(d, new);
        strides[i] = new;
        reach = new.checked_mul(leaves[i].shape)?;
    }
    if cost == 0.0 {
        return None;
    }
    let mut k = 0usize;
    let t = l.tree().to_owned().map(|m| {
        let s = strides[k];
        k += 1;
        Mode::new(m.shape, s)
    });
    let shape: IntTuple = t.map(|m| m.shape);
    let stride: IntTuple = t.map(|m| m.stride);
    Some((Layout::new(&shape, &stride).ok()?, cost))
}

/// B with every leaf that is not admissible on its own (`A ∘ s:d` fails) replaced by its
/// nearest admissible neighbour (one knob each): fixes several modes at once.
fn leafwise_admissible(a: &Layout, b: &Layout, pool: &BTreeSet<i64>) -> Option<(Layout, f64)> {
    let leaves: Vec<Mode> = b.leaves().collect();
    if leaves.len() < 2 || leaves.len() > 8 {
        return None;
    }
    let ok = |m: Mode| {
        Layout::mode(m.shape, m.stride)
            .and_then(|leaf| crate::algebra::composition(a, &leaf))
            .is_ok()
    };
    let mut fixed = leaves.clone();
    let mut cost = 0.0;
    let mut changed = 0;
    for (i, m) in leaves.iter().enumerate() {
        if ok(*m) {
            continue;
        }
        let mut opts: Vec<(f64, Mode)> = Vec::new();
        for s2 in nearby(m.shape, true, pool) {
            opts.push((
                rel(m.shape, s2) + if s2 == 1 { 0.5 } else { 0.0 },
                Mode::new(s2, m.stride),
            ));
        }
        for d2 in nearby(m.stride, false, pool) {
            opts.push((
                rel(m.stride, d2) + if d2 == 0 { 0.5 } else { 0.0 },
                Mode::new(m.shape, d2),
            ));
        }
        opts.sort_by(|x, y| x.0.total_cmp(&y.0));
        let (c, best) = opts.into_iter().take(24).find(|(_, m2)| ok(*m2))?;
        fixed[i] = best;
        cost += c;
        changed += 1;
    }
    if changed < 2 {
        return None;
    }
    let mut k = 0usize;
    let t = b.tree().to_owned().map(|_| {
        let m = fixed[k];
        k += 1;
        m
    });
    let shape: IntTuple = t.map(|m| m.shape);
    let stride: IntTuple = t.map(|m| m.stride);
    Some((Layout::new(&shape, &stride).ok()?, cost))
}
