//! The error type of the iteration-domain engine.
//!
//! Every variant names the obligation that failed and the values involved. [`Error::code`] gives a
//! stable snake_case code for scripts and tests.

/// A failed obligation of the iteration-domain engine.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub enum Error {
    /// The schedule text could not be parsed.
    #[error("line {line}, column {column}: {message}")]
    Parse {
        /// 1-based line.
        line: usize,
        /// 1-based column.
        column: usize,
        /// What was expected or found.
        message: String,
    },
    /// A library error at a position of the schedule text (the code is the inner error's).
    #[error("line {line}, column {column}: {error}")]
    At {
        /// 1-based line.
        line: usize,
        /// 1-based column.
        column: usize,
        /// The error.
        error: Box<Error>,
    },
    /// The loop domain determines some IterDomain's index along two routes: a transform whose
    /// inputs and outputs are all determined without it (an IterDomain consumed twice on the way
    /// to the roots, or the loop domain naming an IterDomain and one it derives from).
    #[error(
        "obligation `every index determined once` failed: `{transform}` relates {ids}, whose \
         indices the loop domain already determines along other routes (an IterDomain consumed \
         twice, or a loop domain naming both an IterDomain and one derived from it)"
    )]
    Overdetermined {
        /// The transform, in the text format.
        transform: String,
        /// Its inputs and outputs.
        ids: String,
        /// Its position among the transforms.
        index: usize,
    },
    /// A merge of an IterDomain with itself.
    #[error("obligation `outer != inner` failed: merge of {0} with itself")]
    SelfMerge(String),
    /// A transform reads an IterDomain that is defined by itself or a later transform.
    #[error("the transform DAG has a cycle: {0}")]
    Cycle(String),
    /// Two allocated points share an address.
    #[error("obligation `allocation injective` failed: {0}")]
    Aliasing(String),
    /// An input exceeds its size limit.
    #[error("{what} is {size} bytes, over the limit of {limit} bytes")]
    InputTooLarge {
        /// Which input.
        what: String,
        /// Its size (at least).
        size: u64,
        /// The limit.
        limit: u64,
    },
    /// A name was used before it was defined.
    #[error("unknown IterDomain `{0}`")]
    UnknownId(String),
    /// A name was defined twice.
    #[error("IterDomain `{0}` is defined twice")]
    Redefined(String),
    /// A split factor must be positive.
    #[error("obligation `factor > 0` failed for split of {id}: factor = {factor}")]
    BadFactor {
        /// The split input.
        id: String,
        /// The factor.
        factor: i64,
    },
    /// Every extent must be at least 1.
    #[error("obligation `extent >= 1` failed for {id}: extent = {extent}")]
    NonPositiveExtent {
        /// The IterDomain.
        id: String,
        /// The extent (evaluated).
        extent: i64,
    },
    /// A swizzle needs two distinct inputs.
    #[error("obligation `x != y` failed for swizzle of {0}")]
    SwizzleSameInput(String),
    /// A symbol's value is needed but unknown.
    #[error("symbol `{0}` has no value (add `assume {0} == <value>`)")]
    Unbound(String),
    /// Contradictory facts.
    #[error("facts about `{symbol}` contradict: {detail}")]
    Contradiction {
        /// The symbol.
        symbol: String,
        /// Which facts.
        detail: String,
    },
    /// Checked arithmetic overflowed.
    #[error("arithmetic overflow in {op}: {a} and {b}")]
    Overflow {
        /// The operation.
        op: &'static str,
        /// Left operand.
        a: i64,
        /// Right operand.
        b: i64,
    },
    /// Enumeration would visit too many points.
    #[error("obligation `points <= {limit}` failed: the loop domain has {points} points")]
    TooManyPoints {
        /// Points of the loop domain (saturated).
        points: u64,
        /// The limit.
        limit: u64,
    },
    /// Enumeration would do too much work.
    #[error("obligation `points * cost per point <= {limit}` failed: {points} points, cost {steps} per point (steps, bound checks and loop counters)")]
    TooMuchWork {
        /// Points of the loop domain.
        points: u64,
        /// Work per point ([`super::eval::Space::point_cost`]).
        steps: usize,
        /// The limit.
        limit: u64,
    },
    /// A schedule has too many IterDomains.
    #[error("obligation `IterDomains <= {limit}` failed: {count}")]
    TooLarge {
        /// IterDomains so far.
        count: usize,
        /// The limit.
        limit: usize,
    },
    /// An IterDomain's extent expression is too large.
    #[error(
        "obligation `extent expression nodes <= {limit}` failed for {id}: {nodes} nodes \
         (bind the symbols with `assume N == value`, or merge fewer symbolic extents)"
    )]
    ExtentTooLarge {
        /// The IterDomain.
        id: String,
        /// Nodes of its extent expression.
        nodes: usize,
        /// The limit.
        limit: usize,
    },
    /// Emitted code would be too large (its nested loops indent every line).
    #[error(
        "obligation `emitted code <= {limit} bytes` failed: {loops} nested loops over {lines} \
         lines indent {bytes} bytes"
    )]
    CodeTooLarge {
        /// Loops of the loop domain (the nesting depth).
        loops: usize,
        /// Lines of the loop nest.
        lines: usize,
        /// Bytes of indentation alone.
        bytes: u64,
        /// The limit ([`super::codegen::MAX_CODE_BYTES`]).
        limit: u64,
    },
    /// The loop domain does not determine some IterDomain's index.
    #[error("the loop domain does not determine the index of {0}")]
    Undetermined(String),
    /// The loop domain lists an ID twice or is empty.
    #[error("invalid loop domain: {0}")]
    BadLoop(String),
    /// An allocation description is invalid.
    #[error("invalid allocation: {0}")]
    BadAlloc(String),
    /// Two schedules cannot be compared.
    #[error("schedules are not comparable: {0}")]
    NotComparable(String),
    /// A vectorization or box query is invalid.
    #[error("invalid vectorization query: {0}")]
    BadVectorize(String),
}

impl Error {
    /// A stable snake_case code naming the failed obligation.
    ///
    /// Example: `Error::UnknownId("I9".into()).code() == "unknown_id"`.
    ///
    /// Pre: none. Post: one code per variant, stable across versions.
    pub fn code(&self) -> &'static str {
        match self {
            Error::Parse { .. } => "parse",
            Error::At { error, .. } => error.code(),
            Error::Overdetermined { .. } => "overdetermined",
            Error::SelfMerge(_) => "self_merge",
            Error::Cycle(_) => "cycle",
            Error::Aliasing(_) => "aliasing_alloc",
            Error::InputTooLarge { .. } => "input_too_large",
            Error::UnknownId(_) => "unknown_id",
            Error::Redefined(_) => "redefined",
            Error::BadFactor { .. } => "bad_factor",
            Error::NonPositiveExtent { .. } => "non_positive_extent",
            Error::SwizzleSameInput(_) => "swizzle_same_input",
            Error::Unbound(_) => "unbound_symbol",
            Error::Contradiction { .. } => "contradiction",
            Error::Overflow { .. } => "overflow",
            Error::TooManyPoints { .. } => "too_many_points",
            Error::TooMuchWork { .. } => "too_much_work",
            Error::TooLarge { .. } | Error::ExtentTooLarge { .. } | Error::CodeTooLarge { .. } => {
                "too_large"
            }
            Error::Undetermined(_) => "undetermined",
            Error::BadLoop(_) => "bad_loop",
            Error::BadAlloc(_) => "bad_alloc",
            Error::NotComparable(_) => "not_comparable",
            Error::BadVectorize(_) => "bad_vectorize",
        }
    }
}

/// Result alias of the iteration-domain engine.
pub type Result<T> = std::result::Result<T, Error>;

/// Checked `a + b`.
pub(crate) fn add(a: i64, b: i64) -> Result<i64> {
    a.checked_add(b).ok_or(Error::Overflow { op: "add", a, b })
}
/// Checked `a - b`.
pub(crate) fn sub(a: i64, b: i64) -> Result<i64> {
    a.checked_sub(b).ok_or(Error::Overflow { op: "sub", a, b })
}
/// Checked `a * b`.
pub(crate) fn mul(a: i64, b: i64) -> Result<i64> {
    a.checked_mul(b).ok_or(Error::Overflow { op: "mul", a, b })
}
/// Checked Euclidean division (`b != 0`).
pub(crate) fn ediv(a: i64, b: i64) -> Result<i64> {
    a.checked_div_euclid(b)
        .ok_or(Error::Overflow { op: "div", a, b })
}
/// Checked Euclidean remainder (`b != 0`), always in `[0, |b|)`.
pub(crate) fn emod(a: i64, b: i64) -> Result<i64> {
    a.checked_rem_euclid(b)
        .ok_or(Error::Overflow { op: "mod", a, b })
}
/// Checked ceiling division for `b > 0`.
pub(crate) fn cdiv(a: i64, b: i64) -> Result<i64> {
    // ceil(a / b) = -((-a) div_euclid b) for b > 0.
    let na = a.checked_neg().ok_or(Error::Overflow {
        op: "ceildiv",
        a,
        b,
    })?;
    let q = ediv(na, b)?;
    q.checked_neg().ok_or(Error::Overflow {
        op: "ceildiv",
        a,
        b,
    })
}

impl crate::diagnostic::Diagnose for Error {
    fn diagnostic(&self) -> crate::diagnostic::Diagnostic {
        crate::diagnostic::Diagnostic::error(self.code(), self)
    }
}
