//! Proof obligations and the error type.
//!
//! Every precondition of every operation is an obligation. When one cannot be discharged, the
//! operation returns an [`Error`] whose variant names the obligation, with the concrete values.
//! [`Error::code`] is a stable snake_case identifier (used by `tessera batch`).

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
    /// A divisibility obligation failed.
    #[error("{op}: divisibility: {condition} is false for {detail}")]
    Divisibility {
        /// The operation.
        op: &'static str,
        /// The obligation in math notation, e.g. `d % N == 0 or N % d == 0`.
        condition: &'static str,
        /// The concrete values.
        detail: String,
    },
    /// Composition `A ∘ B` has no layout result compatible with `B`.
    #[error("composition {a} o {b} is not admissible: {reason}")]
    Inadmissible {
        /// The left layout.
        a: String,
        /// The right layout (tiler).
        b: String,
        /// The failing point or condition.
        reason: String,
    },
    /// The operation needs an injective layout.
    #[error("{op}: {layout} is not injective: {witness}")]
    NonInjective {
        /// The operation.
        op: &'static str,
        /// The layout.
        layout: String,
        /// Two coordinates with the same image.
        witness: String,
    },
    /// The operation needs a tractable layout (sorted by stride, `s_i * d_i` divides `d_{i+1}`).
    #[error("{op}: {layout} has no complement: sorted by stride, {detail}")]
    NotComplementable {
        /// The operation.
        op: &'static str,
        /// The layout.
        layout: String,
        /// The failing pair of modes.
        detail: String,
    },
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
        }
    }

    /// Checked suggestions that would discharge the obligation (none yet for most codes).
    pub fn suggestions(&self) -> Vec<String> {
        Vec::new()
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
        a.checked_mul(b)
            .ok_or_else(|| Error::overflow(format!("{a} * {b}")))
    }
    /// `a + b`.
    #[inline]
    pub fn add(a: i64, b: i64) -> Result<i64> {
        a.checked_add(b)
            .ok_or_else(|| Error::overflow(format!("{a} + {b}")))
    }
    /// `a - b`.
    #[inline]
    pub fn sub(a: i64, b: i64) -> Result<i64> {
        a.checked_sub(b)
            .ok_or_else(|| Error::overflow(format!("{a} - {b}")))
    }
    /// `|a|`.
    #[inline]
    pub fn abs(a: i64) -> Result<i64> {
        a.checked_abs()
            .ok_or_else(|| Error::overflow(format!("|{a}|")))
    }
    /// `ceil(a / b)` for `a >= 0`, `b > 0`.
    #[inline]
    pub fn ceil_div(a: i64, b: i64) -> i64 {
        debug_assert!(a >= 0 && b > 0);
        a / b + i64::from(a % b != 0)
    }
    /// The sign of `a` (−1, 0 or 1).
    #[inline]
    pub fn signum(a: i64) -> i64 {
        a.signum()
    }
}
