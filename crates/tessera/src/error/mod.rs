//! The error vocabulary: [`Error`] (every failed obligation, with its values), [`Result`], checked
//! [`arith`]metic, and the obligation vocabulary that errors carry ([`vocab`]: [`Obligation`],
//! [`Failure`], [`Call`], the [`Divides`] proof value), and [`Note`]s, warnings that travel with a
//! successful result ([`note`]).
//!
//! This module is the bottom layer: it imports nothing from the crate. A layout operation fails
//! with an [`Error`], and an [`Error`] records the call it failed for ([`Call`]) with each argument
//! in expression syntax, so no layout type is needed here. Nothing here runs an algebra operation
//! or reads notation; checked suggestions, explanatory notes and the
//! error catalogue live above, in [`crate::obligation`].

use std::fmt;

pub mod note;
pub mod vocab;

pub use note::Note;
pub use vocab::{Call, Divides, Failure, Obligation};

/// A failed obligation (or a malformed input).
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub enum Error {
    /// Checked 64-bit arithmetic overflowed.
    #[error("arithmetic overflow: {what} does not fit in a signed 64-bit integer")]
    Overflow {
        /// The computation that overflowed.
        what: String,
    },
    /// Malformed text.
    #[error("parse error at column {column}: {message}")]
    Parse {
        /// 1-based column of the offending character.
        column: usize,
        /// What was expected.
        message: String,
    },
    /// A shape entry is not ≥ 1.
    #[error("every shape must be >= 1, found {value} in {context}")]
    NonPositiveShape {
        /// The offending value.
        value: i64,
        /// Where it was found.
        context: String,
    },
    /// Two tuples that must have the same profile do not.
    #[error("{what}: {left} and {right} are not congruent (they must have the same nesting)")]
    NotCongruent {
        /// Which pair.
        what: String,
        /// The left tuple.
        left: String,
        /// The right tuple.
        right: String,
    },
    /// Ranks do not match or a mode index is out of range.
    #[error("{op}: rank mismatch: {detail}")]
    RankMismatch {
        /// The operation.
        op: &'static str,
        /// The ranks involved.
        detail: String,
    },
    /// A by-mode tiler has more modes than the layout.
    #[error("{op}: too many modes in tiler: rank(tiler) = {tiler} > rank(layout) = {layout}")]
    TooManyModes {
        /// The operation.
        op: &'static str,
        /// Rank of the tiler.
        tiler: usize,
        /// Rank of the layout.
        layout: usize,
    },
    /// A divisibility obligation failed (e.g. `N·d ∣ M` for `complement1`).
    #[error("{0}")]
    Divisibility(Box<Failure>),
    /// Composition `A ∘ B` has no layout result compatible with `B`.
    #[error("{0}")]
    Inadmissible(Box<Failure>),
    /// The operation needs an injective layout.
    #[error("{0}")]
    NonInjective(Box<Failure>),
    /// The operation needs a tractable layout (sorted by stride, `s_i * d_i` divides `d_{i+1}`).
    #[error("{0}")]
    NotComplementable(Box<Failure>),
    /// A proof value (e.g. [`Divides`]) certifies a different obligation than the one needed.
    #[error("{0}")]
    ProofMismatch(Box<Failure>),
    /// An index or coordinate lies outside the domain.
    #[error("{op}: {detail}")]
    OutOfDomain {
        /// The operation.
        op: &'static str,
        /// What is out of range.
        detail: String,
    },
    /// An argument has the wrong kind (layout, tuple, integer, tiler).
    #[error("{op}: argument {position} must be {expected}, found {found}")]
    Type {
        /// The operation.
        op: String,
        /// 1-based argument position.
        position: usize,
        /// What was expected.
        expected: &'static str,
        /// What was given.
        found: String,
    },
    /// A call has the wrong number of arguments.
    #[error("{op}: expected {expected} argument(s), found {found}")]
    Arity {
        /// The operation.
        op: String,
        /// The accepted counts.
        expected: &'static str,
        /// The number given.
        found: usize,
    },
    /// No such function.
    #[error("unknown function `{name}` at column {column}")]
    UnknownFunction {
        /// The name.
        name: String,
        /// 1-based column.
        column: usize,
    },
    /// A decision procedure would have to enumerate more points than allowed.
    #[error("{op}: {what} has {size} points, more than the enumeration bound {bound}")]
    TooLarge {
        /// The operation.
        op: &'static str,
        /// What would be enumerated.
        what: String,
        /// Its size.
        size: i64,
        /// The bound.
        bound: i64,
    },
    /// `downcast` needs a mode of stride ±1.
    #[error("downcast: {layout} has no stride-1 mode (adjacent elements are required)")]
    NoUnitStride {
        /// The layout.
        layout: String,
    },
    /// `Swizzle<B,M,S>` needs `B ≥ 0`, `M ≥ 0`, `|S| ≥ B` (and `B + M + |S| ≤ 62`).
    #[error("Sw<{bits},{base},{shift}> is not a swizzle: it needs B >= 0, M >= 0, |S| >= B and B + M + |S| <= 62")]
    InvalidSwizzle {
        /// `B`.
        bits: i64,
        /// `M`.
        base: i64,
        /// `S`.
        shift: i64,
    },
    /// The result of an operation on a swizzled layout has no form in the algebra (CuTe C++
    /// refuses it at compile time, and no correct answer of that form exists).
    #[error("{op}: {detail}")]
    NotExpressible {
        /// The operation.
        op: &'static str,
        /// What cannot be expressed, in math notation.
        what: String,
        /// Why, with the values.
        detail: String,
    },
}

impl Error {
    /// A stable snake_case code naming the obligation.
    pub fn code(&self) -> &'static str {
        match self {
            Error::Overflow { .. } => "overflow",
            Error::Parse { .. } => "parse_error",
            Error::NonPositiveShape { .. } => "non_positive_shape",
            Error::NotCongruent { .. } => "not_congruent",
            Error::RankMismatch { .. } => "rank_mismatch",
            Error::TooManyModes { .. } => "too_many_modes",
            Error::Divisibility { .. } => "divisibility",
            Error::Inadmissible { .. } => "inadmissible_composition",
            Error::NonInjective { .. } => "non_injective",
            Error::NotComplementable { .. } => "not_complementable",
            Error::OutOfDomain { .. } => "out_of_domain",
            Error::Type { .. } => "type_error",
            Error::Arity { .. } => "arity",
            Error::UnknownFunction { .. } => "unknown_function",
            Error::TooLarge { .. } => "too_large",
            Error::NoUnitStride { .. } => "no_unit_stride",
            Error::InvalidSwizzle { .. } => "invalid_swizzle",
            Error::NotExpressible { .. } => "not_expressible",
            Error::ProofMismatch { .. } => "proof_mismatch",
        }
    }

    /// The failure record of the errors that carry one (divisibility, admissibility,
    /// injectivity, tractability, proof mismatch).
    ///
    /// Pre: none. Post: `Some` exactly for those five codes; its `call` is set when the error
    /// came through the expression language or from `complement1`/`composition`.
    ///
    /// ```
    /// let e = tessera::notation::eval("complement((2,2):(1,1))").unwrap_err();
    /// assert_eq!(e.failure().unwrap().op, "complement");
    /// ```
    pub fn failure(&self) -> Option<&Failure> {
        match self {
            Error::Divisibility(f)
            | Error::Inadmissible(f)
            | Error::NonInjective(f)
            | Error::NotComplementable(f)
            | Error::ProofMismatch(f) => Some(f),
            _ => None,
        }
    }

    /// The obligation that failed, with its values.
    ///
    /// ```
    /// let e = tessera::algebra::complement1(128, 16, 2040).unwrap_err();
    /// assert_eq!(e.obligation().to_string(), "128·16 ∣ 2040");
    /// ```
    pub fn obligation(&self) -> Obligation {
        match self {
            Error::Divisibility(f)
            | Error::Inadmissible(f)
            | Error::NonInjective(f)
            | Error::NotComplementable(f)
            | Error::ProofMismatch(f) => f.obligation.clone(),
            Error::Overflow { what } => Obligation::Fits64 { what: what.clone() },
            Error::Parse { column, message } => Obligation::WellFormed {
                column: *column,
                message: message.clone(),
            },
            Error::NonPositiveShape { value, context } => Obligation::Positive {
                what: context.clone(),
                value: *value,
            },
            Error::NotCongruent { what, left, right } => Obligation::Congruent {
                what: what.clone(),
                left: left.clone(),
                right: right.clone(),
            },
            Error::RankMismatch { detail, .. } => Obligation::RankMatches {
                detail: detail.clone(),
            },
            Error::TooManyModes { tiler, layout, .. } => Obligation::RankAtMost {
                what: "tiler".into(),
                rank: *tiler,
                bound: *layout,
            },
            Error::OutOfDomain { detail, .. } => Obligation::InBounds {
                detail: detail.clone(),
            },
            Error::Type {
                position, expected, ..
            } => Obligation::WellTyped {
                position: *position,
                expected,
            },
            Error::Arity {
                expected, found, ..
            } => Obligation::ArityMatches {
                expected,
                found: *found,
            },
            Error::UnknownFunction { name, .. } => Obligation::KnownFunction { name: name.clone() },
            Error::TooLarge {
                what, size, bound, ..
            } => Obligation::Enumerable {
                what: what.clone(),
                size: *size,
                bound: *bound,
            },
            Error::NoUnitStride { layout } => Obligation::HasUnitStride {
                layout: layout.clone(),
            },
            Error::InvalidSwizzle { bits, base, shift } => Obligation::SwizzleParams {
                bits: *bits,
                base: *base,
                shift: *shift,
            },
            Error::NotExpressible { what, .. } => Obligation::Expressible { what: what.clone() },
        }
    }

    /// Records the call the error was produced for (the outermost call wins: call this as the
    /// error leaves each operation). Only errors that carry a [`Failure`] keep it.
    ///
    /// ```
    /// let e = tessera::algebra::complement1(4, 2, 20).unwrap_err()
    ///     .in_call("complement1", [4, 2, 20]);
    /// assert_eq!(e.failure().unwrap().call.as_ref().unwrap().to_string(), "complement1(4,2,20)");
    /// ```
    pub fn in_call<A: fmt::Display>(mut self, op: &str, args: impl IntoIterator<Item = A>) -> Self {
        match &mut self {
            Error::Divisibility(f)
            | Error::Inadmissible(f)
            | Error::NonInjective(f)
            | Error::NotComplementable(f)
            | Error::ProofMismatch(f) => {
                f.call = Some(Call::new(op, args));
            }
            _ => {}
        }
        self
    }

    pub(crate) fn failed(
        code: fn(Box<Failure>) -> Error,
        op: &'static str,
        obligation: Obligation,
    ) -> Self {
        code(Failure::boxed(op, obligation))
    }

    pub(crate) fn overflow(what: impl Into<String>) -> Self {
        Error::Overflow { what: what.into() }
    }
}

/// Result alias.
pub type Result<T> = std::result::Result<T, Error>;

/// Checked arithmetic on `i64`: overflow is an [`Error::Overflow`], never a wrap.
pub mod arith {
    use super::{Error, Result};

    /// `a * b`.
    #[inline]
    pub fn mul(a: i64, b: i64) -> Result<i64> {
        match a.checked_mul(b) {
            Some(v) => Ok(v),
            None => Err(overflow2(a, "*", b)),
        }
    }
    /// `a + b`.
    #[inline]
    pub fn add(a: i64, b: i64) -> Result<i64> {
        match a.checked_add(b) {
            Some(v) => Ok(v),
            None => Err(overflow2(a, "+", b)),
        }
    }
    /// `a - b`.
    #[inline]
    pub fn sub(a: i64, b: i64) -> Result<i64> {
        match a.checked_sub(b) {
            Some(v) => Ok(v),
            None => Err(overflow2(a, "-", b)),
        }
    }
    /// `|a|`.
    #[inline]
    pub fn abs(a: i64) -> Result<i64> {
        a.checked_abs()
            .ok_or_else(|| Error::overflow(format!("|{a}|")))
    }
    /// The overflow error of `a op b`, built off the hot path (the checked operations above
    /// inline to a multiply and a branch).
    #[cold]
    #[inline(never)]
    fn overflow2(a: i64, op: &str, b: i64) -> Error {
        Error::overflow(format!("{a} {op} {b}"))
    }
    /// `(a / b, a % b)` for `a >= 0`, `b > 0`, with a shift and a mask when `b` is a power of
    /// two and a 32-bit division when both fit (a 64-bit `idiv` costs tens of cycles).
    #[inline(always)]
    pub fn div_rem_pos(a: i64, b: i64) -> (i64, i64) {
        debug_assert!(a >= 0 && b > 0);
        if b & (b - 1) == 0 {
            (a >> b.trailing_zeros(), a & (b - 1))
        } else if let (Ok(x), Ok(y)) = (u32::try_from(a), u32::try_from(b)) {
            (i64::from(x / y), i64::from(x % y))
        } else {
            (a / b, a % b)
        }
    }
    /// `ceil(a / b)` for `a >= 0`, `b > 0`.
    #[inline]
    pub fn ceil_div(a: i64, b: i64) -> i64 {
        let (q, r) = div_rem_pos(a, b);
        q + i64::from(r != 0)
    }
    /// The sign of `a` (−1, 0 or 1).
    #[inline]
    pub fn signum(a: i64) -> i64 {
        a.signum()
    }
}
