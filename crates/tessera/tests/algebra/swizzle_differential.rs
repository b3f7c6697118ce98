//! Differential test of swizzles, composed layouts and the GMMA/UMMA atoms against CuTe C++
//! (all-static, host-only build).
//!
//! The data, `tests/data/cute_swizzle.jsonl`, was produced by `tools/oracle/swizzle.py` (see
//! `tools/oracle/README.md`). For every case:
//! - where CuTe C++ answers, Tessera must print exactly CuTe's text (without `_` markers), unless
//!   CuTe's answer breaks the operation's postcondition by evaluation and Tessera's satisfies it;
//! - where CuTe rejects the case (a static_assert), Tessera must reject it with a typed error or
//!   return an answer that satisfies the postcondition, checked here by evaluation;
//! - `print_layout` of a composed layout and of every atom is byte-identical to CuTe's.

use crate::common;

use common::call_args;
use std::collections::BTreeMap;

use tessera::layout::{AnyLayout, IntTuple};
use tessera::notation;

const DATA: &str = include_str!("../../../../tests/data/cute_swizzle.jsonl");

struct Case {
    id: String,
    kind: String,
    expr: String,
    cpp: Option<String>,
    cpp_error: Option<String>,
}

fn cases() -> Vec<Case> {
    DATA.lines()
        .map(|l| {
            let v: serde_json::Value = serde_json::from_str(l).expect("json line");
            let s = |k: &str| v[k].as_str().map(str::to_string);
            Case {
                id: s("id").unwrap(),
                kind: s("kind").unwrap(),
                expr: s("expr").unwrap(),
                cpp: s("cpp"),
                cpp_error: s("cpp_error"),
            }
        })
        .collect()
}

fn any(text: &str) -> Option<AnyLayout> {
    notation::eval(text).ok()?.to_any_layout()
}

fn size_of(f: &AnyLayout) -> Option<i64> {
    f.size().ok()
}

/// The defining postcondition of an integer answer: `cosize(f) = 1 + max_i |f(i)|` (issue 30:
/// CuTe answers the innermost layout's cosize, ignoring the swizzle and the offset).
fn int_postcondition(expr: &str, v: &str) -> Option<bool> {
    let (op, args) = call_args(expr);
    let v: i64 = v.parse().ok()?;
    match op.as_str() {
        "cosize" => {
            let f = args[0].to_any_layout()?;
            let n = size_of(&f)?;
            let max = (0..n)
                .map(|i| f.eval(i).map(i64::abs))
                .collect::<Result<Vec<_>, _>>()
                .ok()?;
            Some(v == 1 + max.into_iter().max().unwrap_or(0))
        }
        _ => None,
    }
}

/// The defining postcondition of `expr` for the answer `r`, decided by evaluation; `None` where
/// this test has no independent check for the operation.
fn postcondition(expr: &str, r: &AnyLayout) -> Option<bool> {
    let (op, args) = call_args(expr);
    let arg = |i: usize| args[i].to_any_layout();
    match op.as_str() {
        "composition" => {
            let a = arg(0)?;
            let b = arg(1)?;
            // Two bare swizzles have no size: compare on [0, 2^16), which holds every bit they move.
            let n = size_of(&b).or_else(|| size_of(&a)).unwrap_or(1 << 16);
            Some((0..n).all(|i| r.eval(i).ok() == b.eval(i).ok().and_then(|x| a.eval(x).ok())))
        }
        "right_inverse" => {
            // The definition: R(i) lies in f's domain and f(R(i)) = i (issue 30: CuTe's
            // `inv(I) ∘ −off ∘ inv(O)` can leave the domain, e.g. R(0) = −off).
            let f = arg(0)?;
            let n = size_of(r).or_else(|| size_of(&f))?;
            let dom = size_of(&f);
            Some((0..n).all(|i| {
                r.eval(i).ok().is_some_and(|x| {
                    dom.is_none_or(|d| (0..d).contains(&x)) && f.eval(x).ok() == Some(i)
                })
            }))
        }
        "left_inverse" => {
            let f = arg(0)?;
            let n = size_of(&f)?;
            Some((0..n).all(|i| f.eval(i).ok().and_then(|x| r.eval(x).ok()) == Some(i)))
        }
        "slice" => {
            let c = args[0].to_slice_coord()?;
            let f = arg(1)?;
            let n = size_of(r)?;
            let l = f.layout()?;
            // f at the coordinate with the `_` modes set to the sliced coordinate of i.
            let sliced = tessera::layout::slice(&c, l).ok()?;
            let at = |i: i64| -> Option<i64> {
                let sub = tessera::layout::idx2crd(i, &sliced.shape()).ok()?;
                let mut leaves = sub.as_ref().leaves();
                let mut fill = |_: Option<i64>| 0i64;
                let full: IntTuple = c.map(|x| match x {
                    Some(v) => v,
                    None => {
                        let _ = &mut fill;
                        leaves.next().unwrap_or(0)
                    }
                });
                f.crd2idx(&full).ok()
            };
            let (r0, f0) = (r.eval(0).ok()?, at(0)?);
            Some((0..n).all(|i| {
                let fi = at(i);
                r.eval(i).ok().map(|x| x - r0) == fi.map(|x| x - f0)
            }))
        }
        _ => None,
    }
}

#[test]
fn swizzle_cases_agree_with_cute_or_cute_is_wrong() {
    let mut stats: BTreeMap<&'static str, usize> = BTreeMap::new();
    let mut failures = Vec::new();
    let all = cases();
    assert!(all.len() > 300, "the oracle data has {} cases", all.len());
    for c in &all {
        let got = notation::eval(&c.expr);
        let verdict: Result<&'static str, String> = match c.kind.as_str() {
            "print_layout" => {
                let want = c.cpp.as_deref().expect("print_layout records have output");
                let f = got.ok().and_then(|v| v.to_any_layout());
                match f.map(|f| notation::print_layout_any(&f)) {
                    Some(Ok(t)) if t == want => Ok("print_layout identical"),
                    other => Err(format!("print_layout differs: {other:?}")),
                }
            }
            _ => match (&c.cpp, got) {
                (Some(want), Ok(v)) if v.to_string() == *want => Ok("same text"),
                (Some(want), Ok(v)) => {
                    let mine = v.to_any_layout();
                    let theirs = any(want);
                    let ok_mine = mine
                        .as_ref()
                        .and_then(|m| postcondition(&c.expr, m))
                        .or_else(|| int_postcondition(&c.expr, &v.to_string()));
                    let ok_theirs = theirs
                        .as_ref()
                        .and_then(|t| postcondition(&c.expr, t))
                        .or_else(|| int_postcondition(&c.expr, want));
                    match (ok_mine, ok_theirs) {
                        (Some(true), Some(false)) => Ok("CuTe wrong by evaluation, Tessera right"),
                        _ => Err(format!(
                            "Tessera {v} vs CuTe {want} (postcondition: Tessera {ok_mine:?}, CuTe {ok_theirs:?})"
                        )),
                    }
                }
                (Some(want), Err(e)) => {
                    let theirs = any(want);
                    match theirs.as_ref().and_then(|t| postcondition(&c.expr, t)) {
                        Some(false) => Ok("CuTe wrong by evaluation, Tessera refuses"),
                        _ => Err(format!(
                            "Tessera error {} ({e}) but CuTe gives {want}",
                            e.code()
                        )),
                    }
                }
                (None, Err(_)) => Ok("both refuse"),
                (None, Ok(v)) => match v.to_any_layout().and_then(|m| postcondition(&c.expr, &m)) {
                    Some(true) => Ok("CuTe refuses, Tessera answers correctly"),
                    other => Err(format!(
                        "CuTe refuses ({:?}) but Tessera answers {v} (postcondition {other:?})",
                        c.cpp_error
                    )),
                },
            },
        };
        match verdict {
            Ok(k) => *stats.entry(k).or_default() += 1,
            Err(msg) => failures.push(format!("{} {}: {msg}", c.id, c.expr)),
        }
    }
    eprintln!("{stats:#?}");
    assert!(
        failures.is_empty(),
        "{} of {} cases fail:\n{}",
        failures.len(),
        all.len(),
        failures.join("\n")
    );
}

#[test]
fn every_atom_tiles_exactly_as_cute() {
    let all = cases();
    let tiles: Vec<_> = all
        .iter()
        .filter(|c| c.id.starts_with("atile-") && c.cpp.is_some())
        .collect();
    assert!(tiles.len() >= 100, "{} atom tilings", tiles.len());
    for c in tiles {
        let v = notation::eval(&c.expr).unwrap_or_else(|e| panic!("{}: {e}", c.expr));
        assert_eq!(Some(v.to_string()), c.cpp, "{}", c.expr);
    }
}
