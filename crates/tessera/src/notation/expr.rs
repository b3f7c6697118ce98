//! Evaluation of the expression language: a syntax tree to a value; calls go to the registry
//! of operations ([`super::ops`]).

use super::ops::apply;
use super::parse::{parse, Expr};
use crate::error::{Error, Note, Result};
pub use crate::layout::Value;
use crate::layout::{ComposedLayout, Layout, Swizzle};

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
            crate::layout::swizzle::check_chain_links("compose", inner_links + parts.len() / 2)?;
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
