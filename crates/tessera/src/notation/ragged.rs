//! The ragged form of an expression (`tessera eval --ragged`, `"ragged": true` in a batch): a
//! divide, `local_tile` or `local_partition` call evaluated over the padded domain
//! ([`crate::algebra::ragged`]).

use super::{eval_expr, parse, Expr, Value};
use crate::algebra::ragged::{
    ragged_divide, ragged_local_partition, ragged_local_tile, Arrangement, Ragged, RaggedSlice,
};
use crate::error::Error;

/// What a ragged expression evaluates to.
// Layouts are stored inline (no heap up to 24 nodes), so the variants differ in size on purpose.
#[allow(clippy::large_enum_variant)]
pub enum Outcome {
    /// A divide.
    Divide(Ragged),
    /// One tile or one thread's partition, with the divide it slices.
    Slice(&'static str, RaggedSlice, Ragged),
}

fn bad(message: String) -> Error {
    Error::Parse { column: 1, message }
}

/// Evaluates `op(args)` where `op` is a divide, `local_tile` or `local_partition` (a `ragged_`
/// prefix is allowed).
///
/// Pre: none. Post: a divide gives [`Outcome::Divide`]; `local_tile` / `local_partition` give
/// [`Outcome::Slice`] with the zipped divide they slice; anything else is an [`Error`] (parse,
/// arity, unknown function, or the operation's own). Example: `zipped_divide(10:1,4)` gives a
/// divide padded to 12 points with 2 holes.
pub fn evaluate(text: &str) -> Result<Outcome, Error> {
    let e = parse(text)?;
    let Expr::Call { name, args, .. } = &e else {
        return Err(bad(
            "--ragged takes a call: a divide, local_tile or local_partition".into(),
        ));
    };
    let op = name.strip_prefix("ragged_").unwrap_or(name);
    let vals = args.iter().map(eval_expr).collect::<Result<Vec<_>, _>>()?;
    let layout = |i: usize| match vals.get(i) {
        Some(Value::Layout(l)) => Ok(l.clone()),
        Some(v) => match v.to_int_tuple() {
            Some(t) if i == 1 => crate::Layout::compact(&t),
            _ => Err(bad(format!("{op}: argument {} must be a layout", i + 1))),
        },
        None => Err(bad(format!("{op}: missing argument {}", i + 1))),
    };
    let tiler = |i: usize| {
        vals.get(i)
            .and_then(|v| v.to_tiler())
            .ok_or_else(|| bad(format!("{op}: argument {} must be a tiler", i + 1)))
    };
    let want = |n: usize| {
        if vals.len() == n {
            Ok(())
        } else {
            Err(Error::Arity {
                op: op.to_string(),
                expected: if n == 2 { "2" } else { "3" },
                found: vals.len(),
            })
        }
    };
    if let Some(arr) = Arrangement::parse(op) {
        want(2)?;
        return Ok(Outcome::Divide(ragged_divide(
            &layout(0)?,
            &tiler(1)?,
            arr,
        )?));
    }
    match op {
        "local_tile" => {
            want(3)?;
            let (a, t) = (layout(0)?, tiler(1)?);
            let c = vals[2]
                .to_int_tuple()
                .ok_or_else(|| bad("local_tile: argument 3 must be a coordinate".into()))?;
            let s = ragged_local_tile(&a, &t, &c)?;
            Ok(Outcome::Slice(
                "local_tile",
                s,
                ragged_divide(&a, &t, Arrangement::Zipped)?,
            ))
        }
        "local_partition" => {
            want(3)?;
            let (a, th) = (layout(0)?, layout(1)?);
            let i = match vals[2] {
                Value::Int(i) => i,
                _ => return Err(bad("local_partition: argument 3 must be an integer".into())),
            };
            let s = ragged_local_partition(&a, &th, i)?;
            let sizes = th
                .modes()
                .map(|m| m.size().map(crate::algebra::Tiler::Int))
                .collect::<Result<Vec<_>, _>>()?;
            let t = if th.is_leaf() && a.is_leaf() {
                sizes[0].clone()
            } else {
                crate::algebra::Tiler::Tuple(sizes)
            };
            Ok(Outcome::Slice(
                "local_partition",
                s,
                ragged_divide(&a, &t, Arrangement::Zipped)?,
            ))
        }
        _ if super::expr::FUNCTIONS.iter().any(|(f, _)| *f == op) => Err(Error::NotExpressible {
            op: "ragged",
            what: format!("{op}(…)"),
            detail: format!(
                "`{op}` has no ragged form; the ragged forms are logical_divide, zipped_divide, \
                 tiled_divide, flat_divide, local_tile and local_partition"
            ),
        }),
        _ => Err(Error::UnknownFunction {
            name: name.clone(),
            column: 1,
        }),
    }
}
