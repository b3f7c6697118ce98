//! Canonical predicates: comparisons of polynomials joined by `&&`.

use super::*;

/// A predicate over canonical polynomials.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum CPred {
    /// Decided.
    Bool(bool),
    /// `a op b`.
    Cmp(Poly, CmpOp, Poly),
    /// Conjunction of comparisons.
    And(Vec<CPred>),
}

impl CPred {
    /// Converts a surface predicate (ring normalisation only).
    ///
    /// Pre: none. Post: evaluates like `p`; nested conjunctions are flattened. Example:
    /// `0 <= i < 4` becomes `And[0 <= i, i < 4]`.
    pub fn from_pred(p: &Pred) -> Result<CPred> {
        Ok(match p {
            Pred::Bool(b) => CPred::Bool(*b),
            Pred::Cmp(a, op, b) => CPred::Cmp(Poly::from_expr(a)?, *op, Poly::from_expr(b)?),
            Pred::And(ps) => {
                let mut out = Vec::new();
                for q in ps {
                    match CPred::from_pred(q)? {
                        CPred::And(v) => out.extend(v),
                        c => out.push(c),
                    }
                }
                CPred::And(out)
            }
        })
    }

    /// Evaluates.
    ///
    /// Pre: none. Post: as [`Pred::eval`] (Kleene conjunction). Example: `true` is `Some(true)`.
    pub fn eval(&self, env: &Env) -> Option<bool> {
        match self {
            CPred::Bool(b) => Some(*b),
            CPred::Cmp(a, op, b) => Some(op.holds(a.eval(env)?, b.eval(env)?)),
            CPred::And(ps) => and_eval(ps.iter().map(|p| p.eval(env))),
        }
    }

    pub(super) fn conjuncts(&self) -> Vec<CPred> {
        match self {
            CPred::And(v) => v.clone(),
            CPred::Bool(true) => Vec::new(),
            c => vec![c.clone()],
        }
    }
}
