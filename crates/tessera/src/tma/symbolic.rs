//! TMA descriptor rules with runtime dimensions and strides: every rule of [`super::rules`] that
//! reads the global shape or strides becomes a condition over the names, decided by the
//! symbolic layer ([`crate::symbolic::Facts`]): *proved*, *refuted* with a witness assignment, or a
//! runtime *guard* (`K % 8 == 0` for an f16 row stride `K`); the rules that read only the box,
//! the element strides, the type and the modes are the integer rules' verdicts.

use super::rules::{check as int_check, Severity};
use super::Request;
use crate::symbolic::{Assignment, Facts, Poly, Pred, SymError};

/// A TMA request whose global shape and strides are expressions (tensor order, outermost
/// first, as [`Request`]); the other fields are [`Request`]'s (its `shape` and `strides` are
/// ignored).
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct SymRequest {
    /// Everything but the global shape and strides.
    pub base: Request,
    /// Global shape, outermost first.
    pub shape: Vec<Poly>,
    /// Strides in elements, outermost first (the last must be 1).
    pub strides: Vec<Poly>,
}

/// The verdict of one rule.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum RuleVerdict {
    /// Holds for every size the facts allow.
    Proved,
    /// Fails for every size the facts allow (an integer rule: for every size); the witness
    /// satisfies the facts.
    Refuted(Assignment),
    /// Holds exactly when the guards hold (checked at run time, `can_implement`).
    Guard(Vec<Pred>),
}

/// One rule of the descriptor and its verdict.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct RuleCheck {
    /// The rule's code (`tma_global_stride_multiple`, …; `docs/tma.md`).
    pub code: &'static str,
    /// Error (the driver refuses) or warning.
    pub severity: Severity,
    /// The condition, in Tessera's syntax, in the driver's dimension numbering.
    pub condition: String,
    /// Its verdict.
    pub verdict: RuleVerdict,
    /// For an integer rule that fails: the integer rule's message.
    pub message: Option<String>,
}

/// The codes of the rules that read the global shape or strides (decided symbolically here;
/// the integer check's findings with these codes are dropped).
const SHAPE_CODES: &[&str] = &[
    "tma_global_dim",
    "tma_packed_global_dim",
    "tma_innermost_stride",
    "tma_fractional_stride",
    "tma_global_stride_multiple",
    "tma_global_stride_too_large",
    "tma_global_stride_overlap",
    "tma_coordinate_32bit",
];

fn k(v: i64) -> Poly {
    Poly::constant(v)
}

/// Checks every rule of a TMA request with symbolic dimensions and strides.
///
/// Pre: `shape` and `strides` have the request's rank (`tma_arity` otherwise, as the integer
/// check). Post: one [`RuleCheck`] per rule that reads the shape or strides (per dimension), each
/// proved, refuted with a witness, or a guard; then every finding of the integer rules that do
/// not read them (refuted, the integer message). The descriptor is valid for exactly the sizes
/// satisfying the facts and every error-level guard. Example: f16 `[M, K]` row-major with box
/// `[128, 64]` gives the guard `K % 8 == 0` for `tma_global_stride_multiple`.
pub fn check(r: &SymRequest, facts: &Facts) -> Result<Vec<RuleCheck>, SymError> {
    let rank = r.shape.len();
    let mut out = Vec::new();
    let mut base = r.base.clone();
    // A benign instance for the rules that do not read the shape or strides.
    base.shape = vec![1 << 15; rank];
    base.strides = vec![1; r.strides.len()];
    for (e, sev) in int_check(&base) {
        if !SHAPE_CODES.contains(&e.code()) {
            out.push(RuleCheck {
                code: e.code(),
                severity: sev,
                condition: e.code().to_string(),
                verdict: RuleVerdict::Refuted(facts.witness_any()?),
                message: Some(e.to_string()),
            });
        }
    }
    if out.iter().any(|c| c.code == "tma_arity") {
        return Ok(out);
    }
    let dt = r.base.dtype;
    let bits = dt.mem_bits() as i64;
    // Driver dimension d is tensor entry rank-1-d.
    let dim = |d: usize| &r.shape[rank - 1 - d];
    let st = |d: usize| &r.strides[rank - 1 - d];
    let mut rules: Vec<(&'static str, Severity, String, Vec<Pred>)> = Vec::new();
    let two32 = k(1 << 32);
    for d in 0..rank {
        rules.push((
            "tma_global_dim",
            Severity::Error,
            format!("1 <= globalDim[{d}] <= 2^32"),
            vec![
                Pred::ge(dim(d).clone(), k(1)),
                Pred::ge(two32.clone(), dim(d).clone()),
            ],
        ));
    }
    let align16b = matches!(
        dt,
        super::DataType::U4Align16B | super::DataType::U6Align16B
    );
    if rank > 0 {
        let multiple = match dt {
            super::DataType::U4Align16B | super::DataType::U6Align16B => 128,
            super::DataType::U4Align8B => 2,
            _ => 1,
        };
        if multiple > 1 {
            rules.push((
                "tma_packed_global_dim",
                Severity::Error,
                format!("globalDim[0] % {multiple} == 0"),
                vec![Pred::divides(k(multiple), dim(0).clone())],
            ));
        }
        rules.push((
            "tma_innermost_stride",
            Severity::Error,
            "the innermost stride is 1".into(),
            vec![Pred::eq(st(0).clone(), k(1))],
        ));
    }
    let multiple = if r.base.interleave == super::Interleave::B32 || align16b {
        32
    } else {
        16
    };
    for d in 1..rank {
        let sbits = st(d).scale(bits)?;
        if bits % 8 != 0 {
            rules.push((
                "tma_fractional_stride",
                Severity::Error,
                format!("globalStrides[{}] is whole bytes", d - 1),
                vec![Pred::divides(k(8), sbits.clone())],
            ));
        }
        rules.push((
            "tma_global_stride_multiple",
            Severity::Error,
            format!("globalStrides[{}] % {multiple} == 0 (bytes)", d - 1),
            vec![Pred::divides(k(8 * multiple), sbits.clone())],
        ));
        rules.push((
            "tma_global_stride_too_large",
            Severity::Error,
            format!("globalStrides[{}] < 2^40 (bytes)", d - 1),
            vec![Pred::ge(k((1i64 << 43) - 1), sbits.clone())],
        ));
        // Warning: each stride covers the previous dimension (the driver doc's formula).
        let prev = if d == 1 {
            dim(0).scale(bits)?
        } else {
            st(d - 1).scale(bits)?.mul(dim(d - 1))?
        };
        rules.push((
            "tma_global_stride_overlap",
            Severity::Warning,
            format!(
                "globalStrides[{}] >= the extent of dimension {}",
                d - 1,
                d - 1
            ),
            vec![Pred::ge(sbits, prev)],
        ));
    }
    for d in 0..rank {
        rules.push((
            "tma_coordinate_32bit",
            Severity::Warning,
            format!("globalDim[{d}] <= 2^31 (32-bit coordinates)"),
            vec![Pred::ge(k(1 << 31), dim(d).clone())],
        ));
    }
    for (code, severity, condition, preds) in rules {
        let mut guards = Vec::new();
        let mut verdict = None;
        for p in preds {
            let p = reduce(p)?;
            match facts.decide_quick(&p)? {
                Some(true) => {}
                Some(false) => {
                    let mut names = Vec::new();
                    p.lhs.names(&mut names);
                    p.rhs.names(&mut names);
                    let w = facts.witness_over(&names, &|_| Ok(true))?;
                    verdict = Some(RuleVerdict::Refuted(w.unwrap_or_default()));
                    break;
                }
                None => guards.push(p),
            }
        }
        let verdict = verdict.unwrap_or(if guards.is_empty() {
            RuleVerdict::Proved
        } else {
            RuleVerdict::Guard(guards)
        });
        out.push(RuleCheck {
            code,
            severity,
            condition,
            verdict,
            message: None,
        });
    }
    Ok(out)
}

/// `c | g·q` with `g | c` is `c/g | q`: a stride rule reads `K % 8 == 0`, not `128 | 16*K`.
fn reduce(p: Pred) -> Result<Pred, SymError> {
    if p.rel != crate::symbolic::Rel::Divides {
        return Ok(p);
    }
    let Some(c) = p.lhs.as_const().filter(|c| *c > 0) else {
        return Ok(p);
    };
    let g = crate::symbolic::expr::gcd(c, p.rhs.content());
    if g <= 1 {
        return Ok(p);
    }
    Ok(Pred::divides(k(c / g), p.rhs.floor_div(&k(g))?))
}

/// The guards of the error-level rules: the runtime condition (`can_implement`) under which the
/// driver accepts the descriptor, when no rule is refuted.
///
/// Pre: none. Post: `None` when an error-level rule is refuted; else every error-level guard,
/// in rule order. Example: f16 `[M, K]` row-major gives `[K % 8 == 0]` (with `M, K <= 2^32`).
pub fn runtime_guards(checks: &[RuleCheck]) -> Option<Vec<Pred>> {
    let mut out = Vec::new();
    for c in checks.iter().filter(|c| c.severity == Severity::Error) {
        match &c.verdict {
            RuleVerdict::Refuted(_) => return None,
            RuleVerdict::Guard(g) => out.extend(g.iter().cloned()),
            RuleVerdict::Proved => {}
        }
    }
    Some(out)
}
