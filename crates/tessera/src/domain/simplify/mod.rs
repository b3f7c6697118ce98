//! An index-expression simplifier whose rewrite rules are the integer-division theorems
//! (reference Examples 20 and 26; nvFuser's `csrc/expr_simplifier.cpp`).
//!
//! Expressions are integers over named variables and constants with `+ - * / %`, `cdiv`, `gcd`,
//! `max`, `min`, `abs`; predicates are comparisons joined by `&&`. Assumptions are predicates
//! (`0 <= i0 < 32`, `i1 >= 0`, `S > 0`, `0 <= i0 < i1`).
//!
//! **Division is Euclidean** (`0 <= a % b < |b|`), as everywhere in `tessera::domain` and in
//! `proofs/Divisibility.v`. For `a >= 0, b > 0` it agrees with the C++ truncation nvFuser emits,
//! and every fixture of Example 20 has such operands. `cdiv(a, b)` is `ceil(a / b)` for `b > 0`
//! and undefined otherwise. A rule may turn an expression that is undefined for some values (a
//! division by zero) into a defined one, never the reverse: wherever the original evaluates (no
//! zero divisor, no `i64` overflow), the result evaluates to the same value (property-tested).
//!
//! **Canonical form.** Expressions are normalised to a polynomial ([`Poly`]): a sum of integer
//! multiples of monomials, each a sorted product of [`Atom`]s (variables, or `/ % cdiv gcd max
//! min abs` nodes whose arguments are polynomials). Ring laws (nvFuser's rules A–F, `distributeMul`,
//! flattening, `x - x`) are therefore implicit. Each remaining rule is a named [`Rule`] applied
//! only when its side conditions are proved from the assumptions by interval arithmetic plus
//! linear combinations of at most two assumptions ([`Context::proves_ge`]).
//!
//! **Printing.** Terms of a sum are ordered by the variables they print (case-insensitively),
//! constants last; in a product, compound factors come first and the plain part (coefficient,
//! then variables) after them, parenthesised when it has several factors; `/` and `%` are
//! parenthesised inside a product; spaces surround every binary operator. The reference strings
//! of §5 compare equal to ours once whitespace is removed; `&&` stands for `∧`.
//!
//! Work is bounded: input length, nesting depth, terms per polynomial, rewrite steps, subsets in
//! the gcd search and assumption pairs in the prover are all capped; exceeding a cap is
//! [`SimplifyError::TooLarge`]. Constant folding uses checked arithmetic.
//!
//! **Parts.** `expr` (the surface syntax and its evaluation), `parse` (the text front end), `poly`
//! (the canonical form), `interval` (interval reasoning from the assumptions), `rule` (the named
//! rules), `cpred` (canonical predicates), `engine` (the prover and the rewriting to a fixed
//! point, [`Context`]) and `print` (the canonical printing); the limits, the error type and the
//! entry points ([`simplify_expr`], [`simplify_pred`], [`simplify_text`]) are here. Every public
//! item is re-exported here, so its path is `tessera::domain::simplify::NAME`.

mod cpred;
mod engine;
mod expr;
mod interval;
mod parse;
mod poly;
mod print;
mod rule;
impl crate::diagnostic::Diagnose for SimplifyError {
    fn diagnostic(&self) -> crate::diagnostic::Diagnostic {
        crate::diagnostic::Diagnostic::new(
            self.code(),
            crate::diagnostic::Severity::Error,
            self.to_string(),
        )
    }
}

#[cfg(test)]
mod tests;

pub use cpred::*;
pub use engine::*;
pub use expr::*;
pub use interval::*;
pub use parse::*;
pub use poly::*;
pub use rule::*;

/// Longest accepted input, in bytes.
pub const MAX_INPUT: usize = 4096;
/// Deepest accepted nesting of parentheses and operators.
pub const MAX_DEPTH: usize = 48;
/// Most terms a polynomial may have.
pub const MAX_TERMS: usize = 256;
/// Most atom simplifications per call.
pub const MAX_STEPS: usize = 20_000;
/// Most assumption facts used by the prover (extra facts are ignored, which is sound).
pub const MAX_FACTS: usize = 64;
/// Most conjuncts in a predicate given to [`simplify_pred`].
pub const MAX_CONJUNCTS: usize = 64;
/// Sums with more addends than this skip the gcd-remainder subset search.
pub const MAX_SUBSET_TERMS: usize = 10;
const MAX_ROUNDS: usize = 16;
const FUEL: usize = 24;

/// A failure of the simplifier.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub enum SimplifyError {
    /// The text could not be parsed.
    #[error("column {column}: {message}")]
    Parse {
        /// 1-based column (byte offset + 1).
        column: usize,
        /// What was expected or found.
        message: String,
    },
    /// Checked arithmetic overflowed while folding constants.
    #[error("arithmetic overflow in {0}")]
    Overflow(&'static str),
    /// A work bound was exceeded.
    #[error("obligation `{what} <= {limit}` failed")]
    TooLarge {
        /// The bounded quantity.
        what: &'static str,
        /// Its bound.
        limit: usize,
    },
    /// The assumptions contradict each other.
    #[error("assumptions contradict: {0}")]
    Contradiction(String),
    /// A divisor (of `/`, `%` or `cdiv`) is the constant 0 (after simplification): the
    /// expression is undefined everywhere.
    #[error("{}obligation `divisor != 0` failed in `{expr}`: the divisor is {divisor}", at_column(*.column))]
    DivisionByZero {
        /// The 1-based column of the division's operator (`/`, `%`, or `cdiv`'s name) in the
        /// text given to [`simplify_text`]; `None` for a syntax tree, or a division of an
        /// assumption.
        column: Option<usize>,
        /// The division, as written after simplification of its operands.
        expr: String,
        /// The divisor.
        divisor: String,
    },
    /// An expression was given where a predicate was needed, or the reverse.
    #[error("expected {expected}, found {found}")]
    Kind {
        /// What was needed.
        expected: &'static str,
        /// What was given.
        found: &'static str,
    },
}

impl SimplifyError {
    /// A stable snake_case code.
    ///
    /// Pre: none. Post: one code per variant. Example: `SimplifyError::Overflow("add").code() ==
    /// "overflow"`.
    pub fn code(&self) -> &'static str {
        match self {
            SimplifyError::Parse { .. } => "parse",
            SimplifyError::Overflow(_) => "overflow",
            SimplifyError::TooLarge { .. } => "too_large",
            SimplifyError::Contradiction(_) => "contradiction",
            SimplifyError::Kind { .. } => "kind",
            SimplifyError::DivisionByZero { .. } => "division_by_zero",
        }
    }
}

/// `column N: ` before a message, or nothing.
fn at_column(column: Option<usize>) -> String {
    column.map_or_else(String::new, |c| format!("column {c}: "))
}

/// Result alias of the simplifier.
pub type Result<T> = std::result::Result<T, SimplifyError>;

fn ov(op: &'static str) -> SimplifyError {
    SimplifyError::Overflow(op)
}

/// A simplified value and the rules that produced it.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Simplified<T> {
    /// The result.
    pub value: T,
    /// Rules applied, in first-use order.
    pub rules: Vec<Rule>,
}

fn context_for(assumptions: &[Pred]) -> Result<Context> {
    let mut cs = Vec::new();
    for a in assumptions {
        cs.push(CPred::from_pred(a)?);
    }
    Context::new(&cs)
}

/// Simplifies an integer expression under assumptions.
///
/// Pre: none. Post: wherever `e` evaluates (no zero divisor, no overflow) at an assignment
/// satisfying the assumptions, the result evaluates to the same value. Example: `i0 / 2 / 3` is
/// `i0 / 6` (DoubleDiv).
pub fn simplify_expr(e: &Expr, assumptions: &[Pred]) -> Result<Simplified<Poly>> {
    let mut ctx = context_for(assumptions)?;
    let p = Poly::from_expr(e)?;
    let value = ctx.simplify(&p)?;
    Ok(Simplified {
        value,
        rules: ctx.log,
    })
}

/// Simplifies a predicate under assumptions; each conjunct is simplified assuming the others
/// (`doc/math/logic.md` Theorem 1: `p ⇒ (q ⇔ r)` gives `p ∧ q ⇔ p ∧ r`), repeated to a fixed
/// point; `true` conjuncts are dropped and a `false` one makes the whole predicate `false`.
///
/// Pre: none. Post: at every assignment satisfying the assumptions where `p` is defined, the
/// result has the same truth value. Example (reference Example 26): `i >= 0 && i < 6 && i % 6 <
/// 3` is `i >= 0 && i < 3`.
pub fn simplify_pred(p: &Pred, assumptions: &[Pred]) -> Result<Simplified<CPred>> {
    let mut global = Vec::new();
    for a in assumptions {
        global.push(CPred::from_pred(a)?);
    }
    // Contradictory global assumptions are reported once.
    let mut gctx = Context::new(&global)?;
    let mut rules: Vec<Rule> = Vec::new();
    let note = |rs: &[Rule], rules: &mut Vec<Rule>| {
        for r in rs {
            if !rules.contains(r) {
                rules.push(*r);
            }
        }
    };
    let mut conj = CPred::from_pred(p)?.conjuncts();
    if conj.len() > MAX_CONJUNCTS {
        return Err(SimplifyError::TooLarge {
            what: "conjuncts",
            limit: MAX_CONJUNCTS,
        });
    }
    let single = conj.len() <= 1;
    for _ in 0..MAX_ROUNDS {
        let before = conj.clone();
        let mut k = 0;
        while k < conj.len() {
            // Only conjuncts defined everywhere (under the assumptions) may be assumed: an
            // undefined one would make every claim vacuously provable.
            let mut asm = global.clone();
            for (j, c) in conj.iter().enumerate() {
                if j != k && gctx.is_total_pred(c) {
                    asm.push(c.clone());
                }
            }
            let mut ctx = match Context::new(&asm) {
                Ok(c) => c,
                // The other conjuncts contradict the assumptions: the conjunction is false.
                Err(SimplifyError::Contradiction(_)) => {
                    note(&[Rule::SimplifyConjunct], &mut rules);
                    return Ok(Simplified {
                        value: CPred::Bool(false),
                        rules,
                    });
                }
                Err(e) => return Err(e),
            };
            let s = match &conj[k] {
                CPred::Cmp(a, op, b) => ctx.simplify_cmp(a, *op, b)?,
                other => other.clone(),
            };
            note(ctx.rules(), &mut rules);
            match s {
                CPred::Bool(true) => {
                    conj.remove(k);
                }
                CPred::Bool(false) => {
                    return Ok(Simplified {
                        value: CPred::Bool(false),
                        rules,
                    })
                }
                s => {
                    conj[k] = s;
                    k += 1;
                }
            }
        }
        if conj == before {
            break;
        }
        if !single {
            note(&[Rule::SimplifyConjunct], &mut rules);
        }
    }
    let value = match conj.len() {
        0 => CPred::Bool(true),
        1 => conj.remove(0),
        _ => CPred::And(conj),
    };
    Ok(Simplified { value, rules })
}

/// Parses and simplifies `text` (an expression or a predicate) under assumption texts; returns
/// the canonical printing and the rules applied.
///
/// Pre: every text parses; assumptions are predicates. Post: as [`simplify_expr`] /
/// [`simplify_pred`]. Example: `simplify_text("i0 / 2 / 3", &[])` is `"i0 / 6"`.
pub fn simplify_text(text: &str, assumptions: &[&str]) -> Result<(String, Vec<Rule>)> {
    let mut asm = Vec::new();
    for a in assumptions {
        asm.push(parse_pred(a)?);
    }
    let (term, divisions) = parse_with_divisions(text)?;
    let r = match term {
        Term::Expr(e) => simplify_expr(&e, &asm).map(|s| (s.value.to_string(), s.rules)),
        Term::Pred(p) => simplify_pred(&p, &asm).map(|s| (s.value.to_string(), s.rules)),
    };
    match r {
        // Point at the first division of the text whose divisor simplifies to the constant 0.
        Err(SimplifyError::DivisionByZero {
            column: None,
            expr,
            divisor,
        }) => {
            let column = divisions.iter().find_map(|(c, d)| {
                let s = simplify_expr(d, &asm).ok()?;
                (s.value.as_const() == Some(0)).then_some(*c)
            });
            Err(SimplifyError::DivisionByZero {
                column,
                expr,
                divisor,
            })
        }
        r => r,
    }
}
