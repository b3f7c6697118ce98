//! The named rewrite rules (each an integer-division theorem) reported with every result.

use std::fmt;

/// A rewrite rule, named as nvFuser names the pass or test that exercises it.
#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub enum Rule {
    /// Constant folding and identities (`a / 1`, `a % 1`, `0 / b`).
    EliminateTrivialComputation,
    /// `0 <= r < |a| ⇒ r % a = r, r / a = 0` (Coq `idiv_2_5`).
    DivModLessThan,
    /// `a = b*q ⇒ a / b = q, a % b = 0` (Coq `idiv_2_9`, `ediv_of`).
    SimplifyDivisibleDivMod,
    /// Common factor `d >= 0`: `(d a)/(d b) = a/b`, `(d a) % (d b) = (a % b) * d`
    /// (Coq `idiv_2_11`, `idiv_2_13`).
    CancelDivMod,
    /// `b | a ⇒ (a + r)/b = a/b + r/b, (a + r) % b = r % b` (Coq `idiv_2_15_1`, `idiv_2_7_1`).
    DistributeDivisibleDivMod,
    /// `g | a, g | c, 0 <= b < |g| ⇒ (a + b)/c = a/c, (a + b) % c = a % c + b`
    /// (Coq `idiv_2_15_2`, `idiv_2_7_2`).
    DistributeGcdRemainderDivMod,
    /// `c > 0 ⇒ (a / c) / b = a / (c * b)` (Coq `idiv_2_11`).
    DoubleDiv,
    /// `c > 0, b | c ⇒ (a % c) % b = a % b` (Coq `idiv_2_12`, `idiv_2_7_1`, `idiv_2_5`).
    ModOfMod,
    /// `(a / b) * b + a % b = a` (Theorem 1.1; Coq `ediv_of` / `emod_of`).
    FundamentalDivisionWithRemainderProperty,
    /// `gcd(d a, d b) = gcd(a, b) * |d|` (Coq stdlib `Z.gcd_mul_mono_l`).
    FactorizeGcd,
    /// `abs(a) = a` when `a >= 0`, `-a` when `a <= 0`.
    SimplifyAbs,
    /// `max`/`min` arguments dominated by another argument are dropped.
    EliminateDominatedMaxMin,
    /// A comparison decided by the prover (`NonZeroLoopIndexStart` is one instance).
    EliminateTrivialPredicate,
    /// Common additive terms of both sides of a comparison are removed.
    CancelTermsInPredicate,
    /// `d > 0 ⇒ (i / d < D ⇔ i < D * d)` (Coq `idiv_2_16`).
    PredicateDivToMul,
    /// Each conjunct simplified assuming the others (`doc/math/logic.md` Theorem 1).
    SimplifyConjunct,
}

impl Rule {
    /// The rule's name.
    ///
    /// Pre: none. Post: nvFuser's name for the pass. Example: `Rule::DoubleDiv.name() ==
    /// "DoubleDiv"`.
    pub fn name(self) -> &'static str {
        match self {
            Rule::EliminateTrivialComputation => "EliminateTrivialComputation",
            Rule::DivModLessThan => "DivModLessThan",
            Rule::SimplifyDivisibleDivMod => "SimplifyDivisibleDivMod",
            Rule::CancelDivMod => "CancelDivMod",
            Rule::DistributeDivisibleDivMod => "DistributeDivisibleDivMod",
            Rule::DistributeGcdRemainderDivMod => "DistributeGcdRemainderDivMod",
            Rule::DoubleDiv => "DoubleDiv",
            Rule::ModOfMod => "ModOfMod",
            Rule::FundamentalDivisionWithRemainderProperty => {
                "FundamentalDivisionWithRemainderProperty"
            }
            Rule::FactorizeGcd => "FactorizeGcd",
            Rule::SimplifyAbs => "SimplifyAbs",
            Rule::EliminateDominatedMaxMin => "EliminateDominatedMaxMin",
            Rule::EliminateTrivialPredicate => "EliminateTrivialPredicate",
            Rule::CancelTermsInPredicate => "CancelTermsInPredicate",
            Rule::PredicateDivToMul => "PredicateDivToMul",
            Rule::SimplifyConjunct => "SimplifyConjunct",
        }
    }
}

impl fmt::Display for Rule {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.name())
    }
}
