//! The vocabulary of obligations: what an operation needs, as a value with the concrete numbers.
//!
//! Every [`crate::Error`] names one [`Obligation`] ([`crate::Error::obligation`]); the four errors
//! that teach ([`crate::Error::Divisibility`], [`crate::Error::Inadmissible`],
//! [`crate::Error::NonInjective`], [`crate::Error::NotComplementable`]) carry a [`Failure`]: the
//! obligation, the operation that checked it, and the call it was checked for (from which
//! [`crate::Error::suggestions`] derives checked alternatives).

use std::fmt;

use super::{Error, Result};

/// A proof obligation with its concrete values, printed in math notation.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Obligation {
    /// `Π factors ∣ b`; `what` is the symbolic form, e.g. `N·d ∣ M`.
    Divides {
        /// The symbolic form.
        what: &'static str,
        /// The factors of the divisor (their product is the divisor).
        factors: Vec<i64>,
        /// The dividend.
        b: i64,
    },
    /// `a ∣ b ∨ b ∣ a`.
    DividesEither {
        /// The symbolic form, e.g. `d ∣ N ∨ N ∣ d`.
        what: &'static str,
        /// The left value.
        a: i64,
        /// The right value.
        b: i64,
    },
    /// `value ≥ 0`.
    NonNegative {
        /// The symbol, e.g. `d`.
        what: &'static str,
        /// Where the value comes from, e.g. `the stride of mode 4:-1 of (4,2):(-1,4)`.
        context: String,
        /// Its value.
        value: i64,
    },
    /// `value ≥ 1`.
    Positive {
        /// What must be positive.
        what: String,
        /// Its value.
        value: i64,
    },
    /// `L` is injective on its domain.
    Injective {
        /// The layout.
        layout: String,
        /// Two coordinates with the same image.
        witness: String,
    },
    /// Sorted by stride, each mode's reach `s·d` divides the next stride (complement exists).
    Tractable {
        /// The layout.
        layout: String,
        /// The mode `s:d` whose reach fails.
        mode: (i64, i64),
        /// The next stride `d′`.
        next: i64,
    },
    /// `A ∘ B` has a layout result compatible with B.
    Admissible {
        /// The left layout A.
        a: String,
        /// The right layout (tiler) B.
        b: String,
        /// The leaf mode of B that is not admissible on its own, when one is.
        mode: Option<(usize, String)>,
        /// The failing point or condition.
        reason: String,
    },
    /// Two tuples have the same profile.
    Congruent {
        /// Which pair.
        what: String,
        /// The left tuple.
        left: String,
        /// The right tuple.
        right: String,
    },
    /// `rank ≤ bound`.
    RankAtMost {
        /// What has the rank.
        what: String,
        /// The rank.
        rank: usize,
        /// The bound.
        bound: usize,
    },
    /// Ranks match, or a mode index is in range.
    RankMatches {
        /// The ranks involved.
        detail: String,
    },
    /// An index or coordinate lies in its domain.
    InBounds {
        /// What is out of range.
        detail: String,
    },
    /// A computation fits in a signed 64-bit integer.
    Fits64 {
        /// The computation.
        what: String,
    },
    /// A decision procedure enumerates at most `bound` points.
    Enumerable {
        /// What would be enumerated.
        what: String,
        /// Its size.
        size: i64,
        /// The bound.
        bound: i64,
    },
    /// The layout has a mode of stride ±1.
    HasUnitStride {
        /// The layout.
        layout: String,
    },
    /// `Swizzle<B,M,S>`'s parameters: `B ≥ 0 ∧ M ≥ 0 ∧ |S| ≥ B ∧ B + M + |S| ≤ 62`.
    SwizzleParams {
        /// `B`.
        bits: i64,
        /// `M`.
        base: i64,
        /// `S`.
        shift: i64,
    },
    /// A result exists in the algebra's forms (layout, swizzle, composed layout).
    Expressible {
        /// The result that must be expressible, e.g. `right_inverse(Sw<3,4,3> o 0 o 8:64)`.
        what: String,
    },
    /// The text is well formed.
    WellFormed {
        /// 1-based column.
        column: usize,
        /// What was expected.
        message: String,
    },
    /// An argument has the right kind.
    WellTyped {
        /// 1-based argument position.
        position: usize,
        /// What was expected.
        expected: &'static str,
    },
    /// A call has an accepted number of arguments.
    ArityMatches {
        /// The accepted counts.
        expected: &'static str,
        /// The number given.
        found: usize,
    },
    /// The function exists.
    KnownFunction {
        /// The name.
        name: String,
    },
    /// A proof value certifies exactly the obligation it is used for.
    ProofMatches {
        /// The obligation needed, e.g. `4·2 ∣ 24`.
        needed: String,
        /// The obligation the proof certifies.
        given: String,
    },
}

fn dot(factors: &[i64]) -> String {
    factors
        .iter()
        .map(|v| v.to_string())
        .collect::<Vec<_>>()
        .join("·")
}

impl fmt::Display for Obligation {
    /// The obligation in math notation with its values, e.g. `128·16 ∣ 2040`.
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Obligation::Divides { factors, b, .. } => write!(f, "{} ∣ {b}", dot(factors)),
            Obligation::DividesEither { a, b, .. } => write!(f, "{a} ∣ {b} ∨ {b} ∣ {a}"),
            Obligation::NonNegative { what, value, .. } => write!(f, "{what} = {value} ≥ 0"),
            Obligation::Positive { what, value } => write!(f, "{what} = {value} ≥ 1"),
            Obligation::Injective { layout, .. } => write!(f, "injective({layout})"),
            Obligation::Tractable { mode, next, .. } => {
                write!(f, "{}·{} ∣ {next}", mode.0, mode.1)
            }
            Obligation::Admissible { a, b, mode, .. } => match mode {
                Some((k, m)) => write!(f, "admissible({a} ∘ {b}) at mode {k} of B ({m})"),
                None => write!(f, "admissible({a} ∘ {b})"),
            },
            Obligation::Congruent { left, right, .. } => write!(f, "congruent({left}, {right})"),
            Obligation::RankAtMost { rank, bound, .. } => write!(f, "{rank} ≤ {bound}"),
            Obligation::RankMatches { detail } => write!(f, "ranks match: {detail}"),
            Obligation::InBounds { detail } => write!(f, "in bounds: {detail}"),
            Obligation::Fits64 { what } => write!(f, "{what} < 2^63"),
            Obligation::Enumerable { size, bound, .. } => write!(f, "{size} ≤ {bound}"),
            Obligation::HasUnitStride { layout } => write!(f, "∃ mode of {layout} with stride 1"),
            Obligation::SwizzleParams { bits, base, shift } => write!(
                f,
                "B ≥ 0 ∧ M ≥ 0 ∧ |S| ≥ B ∧ B + M + |S| ≤ 62, here B = {bits}, M = {base}, S = {shift}"
            ),
            Obligation::Expressible { what } => write!(f, "{what} is a layout or a composed layout"),
            Obligation::WellFormed { column, .. } => write!(f, "well formed at column {column}"),
            Obligation::WellTyped { position, expected } => {
                write!(f, "argument {position} is {expected}")
            }
            Obligation::ArityMatches { expected, found } => {
                write!(f, "{found} ∈ {{{expected}}} arguments")
            }
            Obligation::KnownFunction { name } => write!(f, "`{name}` is a function"),
            Obligation::ProofMatches { needed, .. } => write!(f, "the proof certifies {needed}"),
        }
    }
}

impl Obligation {
    /// The symbolic form of the obligation, e.g. `N·d ∣ M`.
    ///
    /// ```
    /// let e = tessera::algebra::complement1(128, 16, 2040).unwrap_err();
    /// assert_eq!(e.obligation().symbolic(), "N·d ∣ M");
    /// ```
    pub fn symbolic(&self) -> String {
        match self {
            Obligation::Divides { what, .. } | Obligation::DividesEither { what, .. } => {
                (*what).to_string()
            }
            Obligation::NonNegative { what, .. } => format!("{what} ≥ 0"),
            Obligation::Positive { what, .. } => format!("{what} ≥ 1"),
            Obligation::Injective { .. } => "injective(L)".into(),
            Obligation::Tractable { .. } => "s_i·d_i ∣ d_{i+1} (sorted by stride)".into(),
            Obligation::Admissible { .. } => "admissible(A ∘ B)".into(),
            Obligation::Congruent { what, .. } => format!("congruent: {what}"),
            Obligation::RankAtMost { what, .. } => format!("rank({what}) ≤ bound"),
            Obligation::RankMatches { .. } => "ranks match".into(),
            Obligation::InBounds { .. } => "in bounds".into(),
            Obligation::Fits64 { .. } => "fits in i64".into(),
            Obligation::Enumerable { .. } => "size ≤ enumeration bound".into(),
            Obligation::HasUnitStride { .. } => "∃ stride-1 mode".into(),
            Obligation::SwizzleParams { .. } => "B ≥ 0 ∧ M ≥ 0 ∧ |S| ≥ B".into(),
            Obligation::Expressible { .. } => "expressible".into(),
            Obligation::WellFormed { .. } => "well formed".into(),
            Obligation::WellTyped { .. } => "well typed".into(),
            Obligation::ArityMatches { .. } => "arity".into(),
            Obligation::KnownFunction { .. } => "known function".into(),
            Obligation::ProofMatches { .. } => "proof matches".into(),
        }
    }

    /// The failing arithmetic, when there is some to show.
    ///
    /// Pre: none (overflowing products are reported, not computed). Post: `None` for
    /// obligations without arithmetic (well-formedness, types).
    ///
    /// ```
    /// use tessera::obligation::Obligation;
    /// let o = Obligation::Divides { what: "N·d ∣ M", factors: vec![128, 16], b: 2040 };
    /// assert_eq!(o.arithmetic().unwrap(),
    ///            "128·16 = 2048, and 2048 ∣ 2040 is false (2040 mod 2048 = 2040, so 2048 ∤ 2040)");
    /// ```
    pub fn arithmetic(&self) -> Option<String> {
        match self {
            Obligation::Divides { factors, b, .. } => {
                let a = factors.iter().try_fold(1i64, |acc, v| acc.checked_mul(*v));
                Some(match a {
                    None => format!("{} does not fit in 64 bits", dot(factors)),
                    Some(0) => format!("0 divides only 0, and {b} ≠ 0"),
                    Some(a) => {
                        let lhs = if factors.len() > 1 {
                            format!("{} = {a}, and ", dot(factors))
                        } else {
                            String::new()
                        };
                        format!(
                            "{lhs}{a} ∣ {b} is false ({b} mod {a} = {}, so {a} ∤ {b})",
                            b.checked_rem_euclid(a).unwrap_or(0)
                        )
                    }
                })
            }
            Obligation::DividesEither { a, b, .. } => Some(format!(
                "{a} mod {b} = {} and {b} mod {a} = {}",
                a.checked_rem(*b).unwrap_or(0),
                b.checked_rem(*a).unwrap_or(0)
            )),
            Obligation::Tractable { mode, next, .. } => {
                let (s, d) = *mode;
                Some(match s.checked_mul(d) {
                    Some(r) => format!(
                        "mode {s}:{d} reaches {s}·{d} = {r}, and {next} mod {r} = {}, so the next \
                         mode (stride {next}) does not start where it ends",
                        next.checked_rem(r).unwrap_or(0)
                    ),
                    None => format!("{s}·{d} does not fit in 64 bits"),
                })
            }
            Obligation::Admissible { reason, .. } => Some(reason.clone()),
            Obligation::NonNegative { context, value, .. } => {
                Some(format!("{value} < 0, for {context}"))
            }
            Obligation::Positive { value, .. } => Some(format!("{value} < 1")),
            Obligation::RankAtMost { rank, bound, .. } => Some(format!("{rank} > {bound}")),
            Obligation::Enumerable { size, bound, .. } => Some(format!("{size} > {bound}")),
            Obligation::ProofMatches { given, .. } => {
                Some(format!("the proof given certifies {given}"))
            }
            _ => None,
        }
    }
}

/// The call an obligation was checked for: an operation of the expression language and its
/// arguments, each in expression syntax (so `error` needs no layout type, and the record reads back
/// through [`crate::notation::eval`]). Printed as the call, e.g. `complement1(128,16,2040)`.
///
/// ```
/// use tessera::obligation::Call;
/// let c = Call::new("complement1", [4, 2, 20]);
/// assert_eq!(c.to_string(), "complement1(4,2,20)");
/// assert_eq!(c.args, ["4", "2", "20"]);
/// ```
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Call {
    /// The function name (as in the expression language, `crate::notation::ops::OPS`).
    pub op: String,
    /// The argument values, each in expression syntax (the C++ face).
    pub args: Vec<String>,
}

impl Call {
    /// The call `op(args…)`, each argument written with its `Display`.
    ///
    /// Pre: none. Post: `args[i] == arg_i.to_string()`.
    ///
    /// ```
    /// assert_eq!(tessera::obligation::Call::new("divides", [3, 7]).to_string(), "divides(3,7)");
    /// ```
    pub fn new<A: fmt::Display>(op: &str, args: impl IntoIterator<Item = A>) -> Call {
        Call {
            op: op.to_string(),
            args: args.into_iter().map(|a| a.to_string()).collect(),
        }
    }
}

impl fmt::Display for Call {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{}(", self.op)?;
        for (i, a) in self.args.iter().enumerate() {
            if i > 0 {
                f.write_str(",")?;
            }
            write!(f, "{a}")?;
        }
        f.write_str(")")
    }
}

/// A failed obligation: the operation that checked it, the obligation with its values, and the
/// call it was checked for (the outermost one known). Its `Display` is the error's message.
///
/// ```
/// let e = tessera::notation::eval("logical_product((2,2):(1,1),4:1)").unwrap_err();
/// let f = e.failure().unwrap();
/// assert_eq!(f.op, "complement"); // the check that failed ...
/// assert_eq!(f.call.as_ref().unwrap().op, "logical_product"); // ... for this call
/// ```
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Failure {
    /// The operation that checked the obligation.
    pub op: &'static str,
    /// The obligation, with the concrete values.
    pub obligation: Obligation,
    /// The call, when known (the expression language always records it).
    pub call: Option<Call>,
}

impl fmt::Display for Failure {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let ob = &self.obligation;
        match ob {
            Obligation::Admissible { a, b, mode, .. } => {
                write!(f, "{}: {a} ∘ {b} is not admissible", self.op)?;
                if let Some((k, m)) = mode {
                    write!(f, " (mode {k} of B, {m}, is not admissible on its own)")?;
                }
                Ok(())
            }
            Obligation::Injective { layout, witness } => {
                write!(f, "{}: {layout} is not injective: {witness}", self.op)
            }
            Obligation::Tractable { layout, .. } => write!(
                f,
                "{}: {layout} has no complement: failed to discharge {}: {ob} is false",
                self.op,
                ob.symbolic()
            ),
            Obligation::ProofMatches { needed, given } => write!(
                f,
                "{}: the proof given certifies {given}, but {needed} is needed",
                self.op
            ),
            Obligation::NonNegative { context, .. } => write!(
                f,
                "{}: failed to discharge {}: {ob} is false for {context}",
                self.op,
                ob.symbolic()
            ),
            _ => write!(
                f,
                "{}: failed to discharge {}: {ob} is false",
                self.op,
                ob.symbolic()
            ),
        }
    }
}

impl Failure {
    pub(crate) fn boxed(op: &'static str, obligation: Obligation) -> Box<Failure> {
        Box::new(Failure {
            op,
            obligation,
            call: None,
        })
    }
}

/// A proof that `a ∣ b` (with `a, b ≥ 1`): only [`Divides::check`] creates one, so holding a
/// `Divides` means the check succeeded.
///
/// Pre: none. Post: `divisor() ∣ dividend()`, both ≥ 1.
///
/// ```
/// use tessera::obligation::Divides;
/// let h = Divides::check(128 * 16, 4096).unwrap();
/// assert_eq!((h.divisor(), h.dividend(), h.quotient()), (2048, 4096, 2));
/// assert_eq!(Divides::check(2048, 2040).unwrap_err().code(), "divisibility");
/// ```
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct Divides {
    a: i64,
    b: i64,
}

impl Divides {
    /// Checks `a ∣ b` for `a, b ≥ 1`; the proof value on success.
    ///
    /// Pre: none (`a < 1` or `b < 1` is [`Error::NonPositiveShape`]).
    /// Post: `Ok(h)` iff `a ≥ 1`, `b ≥ 1` and `b mod a = 0`; `h.divisor() = a`.
    ///
    /// ```
    /// assert!(tessera::obligation::Divides::check(16, 2048).is_ok());
    /// ```
    pub fn check(a: i64, b: i64) -> Result<Divides> {
        for (name, v) in [("a", a), ("b", b)] {
            if v < 1 {
                return Err(Error::NonPositiveShape {
                    value: v,
                    context: format!("divides: {name}"),
                });
            }
        }
        if b % a != 0 {
            return Err(Error::Divisibility(Failure::boxed(
                "divides",
                Obligation::Divides {
                    what: "a ∣ b",
                    factors: vec![a],
                    b,
                },
            ))
            .in_call("divides", [a, b]));
        }
        Ok(Divides { a, b })
    }

    /// A proof whose obligation the caller has discharged (compile-time checks).
    pub(crate) const fn new_unchecked(a: i64, b: i64) -> Divides {
        Divides { a, b }
    }

    /// The divisor `a`.
    pub const fn divisor(&self) -> i64 {
        self.a
    }

    /// The dividend `b`.
    pub const fn dividend(&self) -> i64 {
        self.b
    }

    /// `b / a` (exact).
    pub const fn quotient(&self) -> i64 {
        self.b / self.a
    }
}
