//! The ragged form of an expression (`tessera eval --ragged`, `"ragged": true` in a batch): a
//! divide, `local_tile` or `local_partition` call evaluated over the padded domain
//! ([`crate::algebra::ragged`]).

use super::ops::{self, RaggedForm};
use super::{eval_expr, parse, Expr};
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
    let Expr::Call { name, args, col } = &e else {
        return Err(bad(
            "--ragged takes a call: a divide, local_tile or local_partition".into(),
        ));
    };
    let vals = args.iter().map(eval_expr).collect::<Result<Vec<_>, _>>()?;
    let Some(op) = ops::lookup(name.strip_prefix("ragged_").unwrap_or(name)) else {
        return Err(Error::UnknownFunction {
            name: name.clone(),
            column: *col,
        });
    };
    // The registry's arity and argument types: the same errors as `tessera eval`.
    ops::arity(op.name, vals.len(), op.arity)?;
    let a = ops::Args {
        op: op.name,
        vals: &vals,
    };
    match op.ragged {
        RaggedForm::Divide(arr) => Ok(Outcome::Divide(ragged_divide(
            a.layout(0)?,
            &a.tiler(1)?,
            arr,
        )?)),
        RaggedForm::LocalTile => {
            let (l, t, c) = (a.layout(0)?, a.tiler(1)?, a.tuple(2)?);
            let s = ragged_local_tile(l, &t, &c)?;
            Ok(Outcome::Slice(
                "local_tile",
                s,
                ragged_divide(l, &t, Arrangement::Zipped)?,
            ))
        }
        RaggedForm::LocalPartition => {
            let (l, th, i) = (a.layout(0)?, a.layout_or_tuple(1)?, a.int(2)?);
            let s = ragged_local_partition(l, &th, i)?;
            let sizes = th
                .modes()
                .map(|m| m.size().map(crate::algebra::Tiler::Int))
                .collect::<Result<Vec<_>, _>>()?;
            let t = if th.is_leaf() && l.is_leaf() {
                sizes[0].clone()
            } else {
                crate::algebra::Tiler::Tuple(sizes)
            };
            Ok(Outcome::Slice(
                "local_partition",
                s,
                ragged_divide(l, &t, Arrangement::Zipped)?,
            ))
        }
        RaggedForm::No => Err(bad(format!(
            "--ragged takes a call: a divide, local_tile or local_partition; {} has no ragged form",
            op.name
        ))),
    }
}
