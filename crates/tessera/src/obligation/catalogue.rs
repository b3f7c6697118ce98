//! The catalogue of error codes: for each [`Error::code`], what it means, the obligation it
//! names, and a minimal input that triggers it (`docs/errors.md` lists the same, and a test runs
//! every example). `tessera explain CODE` prints an entry.

use crate::error::{Divides, Error};
use crate::error::{Failure, Obligation};

/// How an example is run.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Example {
    /// An expression of the expression language (`tessera eval '…'`).
    Expr(&'static str),
    /// Rust code using the library (for obligations the expression language cannot reach).
    Rust(&'static str),
}

/// One catalogue entry.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Entry {
    /// The code, as [`Error::code`] returns it.
    pub code: &'static str,
    /// One line: what failed.
    pub title: &'static str,
    /// The obligation, in math notation.
    pub obligation: &'static str,
    /// What it means and how to fix it.
    pub explanation: &'static str,
    /// A minimal input that triggers the code.
    pub example: Example,
}

/// Every error code, in the order of [`Error`]'s variants.
pub const CATALOGUE: &[Entry] = &[
    Entry {
        code: "overflow",
        title: "checked 64-bit arithmetic overflowed",
        obligation: "every intermediate value < 2^63",
        explanation: "Sizes, cosizes, strides and products are computed with checked i64 \
                      arithmetic; a value that does not fit is an error, never a wrap. Use \
                      smaller extents or strides.",
        example: Example::Expr("size((4611686018427387904,4))"),
    },
    Entry {
        code: "parse_error",
        title: "the text is not a well-formed expression",
        obligation: "well formed",
        explanation: "The message gives the 1-based column and what was expected there. \
                      Layouts are written shape:stride, e.g. (2,3):(1,2).",
        example: Example::Expr("coalesce((2,3):(1,2)"),
    },
    Entry {
        code: "non_positive_shape",
        title: "a shape entry (extent) is not ≥ 1",
        obligation: "s ≥ 1 for every extent s",
        explanation: "Every mode of a layout has at least one element; complement1's N, d and \
                      M, and factors such as upcast's N, are extents too.",
        example: Example::Expr("make_layout(0)"),
    },
    Entry {
        code: "not_congruent",
        title: "two tuples that must have the same nesting do not",
        obligation: "congruent(shape, stride)",
        explanation: "A layout's shape and stride must have the same profile; \
                      make_ordered_layout's order must be weakly congruent to the shape.",
        example: Example::Expr("make_layout((2,2),(1,2,4))"),
    },
    Entry {
        code: "rank_mismatch",
        title: "ranks do not match, or a mode index is out of range",
        obligation: "rank(x) = rank(y), or i < rank(L)",
        explanation: "Coordinates must have the layout's rank; get(L, i) needs i < rank(L); \
                      print_layout needs rank 2.",
        example: Example::Expr("get((2,3):(1,2),5)"),
    },
    Entry {
        code: "too_many_modes",
        title: "a by-mode tiler has more modes than the layout",
        obligation: "rank(tiler) ≤ rank(A)",
        explanation: "A tuple tiler applies mode by mode; it cannot have more modes than A. \
                      Drop trailing modes of the tiler or use a layout tiler.",
        example: Example::Expr("logical_divide(8:1,(2,2))"),
    },
    Entry {
        code: "divisibility",
        title: "a divisibility obligation failed",
        obligation: "a ∣ b (e.g. N·d ∣ M for complement1)",
        explanation: "complement1(N, d, M) needs N·d ∣ M (the Complementation theorem); tile_to_shape needs each \
                      block mode's size to divide the target's; upcast needs d ∣ N or N ∣ d for \
                      every stride d; left_inverse needs each stride divisible by the size \
                      inverted so far. The diagnostic shows the failing arithmetic and checked \
                      alternatives, nearest first.",
        example: Example::Expr("complement1(128,16,2040)"),
    },
    Entry {
        code: "inadmissible_composition",
        title: "A ∘ B has no layout result compatible with B",
        obligation: "admissible(A ∘ B)",
        explanation: "Composition is decided exactly: some layout refining B's shape must equal \
                      A ∘ B on B's domain. Along each leaf s:d of B, t ↦ A(t·d) must be a layout \
                      function. The diagnostic names the failing mode of B and suggests nearby \
                      B shapes and strides that compose (each one checked).",
        example: Example::Expr("composition((4,6,8):(2,3,5),6:3)"),
    },
    Entry {
        code: "non_injective",
        title: "the operation needs an injective layout",
        obligation: "injective(L)",
        explanation: "complement and left_inverse need distinct coordinates to have distinct \
                      images; the message gives two colliding indices. Drop or re-stride the \
                      colliding mode.",
        example: Example::Expr("complement((2,2):(1,1))"),
    },
    Entry {
        code: "not_complementable",
        title: "the layout has no complement",
        obligation: "sorted by stride, s_i·d_i ∣ d_{i+1}",
        explanation: "complement_exact needs positive strides where each mode, sorted by \
                      stride, ends (s·d) at a divisor of the next stride; otherwise no layout \
                      completes A without overlap. complement answers such an A with CuTe's \
                      complement and a complement_holes note, and refuses it only where CuTe's \
                      quotient is 0 (a mode ends past the next stride) or a stride is negative. \
                      Adjust the stride or the extent of the failing mode.",
        example: Example::Expr("complement_exact((2,2):(1,3))"),
    },
    Entry {
        code: "out_of_domain",
        title: "an index or coordinate lies outside the domain",
        obligation: "0 ≤ i < size",
        explanation: "Indices are non-negative and coordinates lie within their mode's extent.",
        example: Example::Expr("idx2crd(-1,4)"),
    },
    Entry {
        code: "type_error",
        title: "an argument has the wrong kind",
        obligation: "argument i is a layout / integer / tuple / tiler",
        explanation: "Each function of the expression language takes arguments of given kinds; \
                      `tessera eval` lists them in its help.",
        example: Example::Expr("complement1(4:1,2,8)"),
    },
    Entry {
        code: "arity",
        title: "a call has the wrong number of arguments",
        obligation: "number of arguments accepted",
        explanation: "The message lists the accepted counts.",
        example: Example::Expr("complement1(4,2)"),
    },
    Entry {
        code: "unknown_function",
        title: "no such function",
        obligation: "the function exists",
        explanation: "See the list of functions of the expression language.",
        example: Example::Expr("complemnt(4:1)"),
    },
    Entry {
        code: "too_large",
        title: "a decision procedure would enumerate too many points",
        obligation: "size ≤ enumeration bound (2^22)",
        explanation: "Where no closed-form certificate applies, Tessera decides by enumeration, \
                      bounded to keep every answer fast (composition's B, left_inverse's L \
                      when its strides overlap). Use a smaller layout. In a schedule \
                      (`tessera schedule`): more than 2^18 IterDomains, or an extent expression \
                      of more than 64 nodes (a long chain of merges of symbolic extents; bind \
                      the symbols with `assume N == value`).",
        example: Example::Expr("left_inverse((2048,2048,2):(1,1,1))"),
    },
    Entry {
        code: "no_unit_stride",
        title: "downcast needs a mode of stride ±1",
        obligation: "∃ mode with stride 1",
        explanation: "downcast splits adjacent elements; a layout without a stride-1 mode has \
                      none.",
        example: Example::Expr("downcast(4:2,2)"),
    },
    Entry {
        code: "proof_mismatch",
        title: "a proof value certifies a different obligation than the one needed",
        obligation: "the proof certifies exactly N·d ∣ M",
        explanation: "complement1_with(N, d, M, h) takes a Divides proof h; h must be a proof of \
                      N·d ∣ M for these N, d, M (build it with Divides::check(N * d, M)).",
        example: Example::Rust(
            "complement1_with(4, 2, 24, Divides::check(8, 16)?) // 8 ∣ 16 is not 4·2 ∣ 24",
        ),
    },
    Entry {
        code: "invalid_swizzle",
        title: "Swizzle<B,M,S> parameters out of range",
        obligation: "B ≥ 0 ∧ M ≥ 0 ∧ |S| ≥ B ∧ B + M + |S| ≤ 62",
        explanation: "A swizzle XORs the B bits at M + max(0,S) into the B bits at M − min(0,S); \
                      the two groups must not overlap (|S| ≥ B, CuTe's static_assert) and must \
                      fit a 64-bit index. Use a larger |S| or fewer bits.",
        example: Example::Expr("composition(Sw<3,4,2>,8:1)"),
    },
    Entry {
        code: "not_expressible",
        title: "the result has no layout or composed-layout form",
        obligation: "the result is a layout or a composed layout",
        explanation: "Operations on swizzled layouts return Layout, Swizzle or outer ∘ offset ∘ \
                      inner; when the true result is none of these (e.g. make_swizzle of two \
                      masks with different bit counts), CuTe C++ refuses at compile time and \
                      Tessera says why. Where a correct answer exists as a chain A o O o B, \
                      Tessera returns the chain instead.",
        example: Example::Expr("make_swizzle(12,1)"),
    },
];

/// The entry for a code.
///
/// ```
/// let e = tessera::obligation::catalogue::lookup("divisibility").unwrap();
/// assert_eq!(e.obligation, "a ∣ b (e.g. N·d ∣ M for complement1)");
/// assert!(tessera::obligation::catalogue::lookup("nope").is_none());
/// ```
pub fn lookup(code: &str) -> Option<&'static Entry> {
    CATALOGUE.iter().find(|e| e.code == code)
}

/// Runs an entry's example: the error it produces (`None` if it unexpectedly succeeds).
///
/// ```
/// use tessera::obligation::catalogue::{lookup, run_example};
/// let e = run_example(lookup("divisibility").unwrap()).unwrap();
/// assert_eq!(e.code(), "divisibility");
/// ```
pub fn run_example(entry: &Entry) -> Option<Error> {
    match entry.example {
        Example::Expr(text) => crate::notation::eval(text).err(),
        Example::Rust(_) => match entry.code {
            "proof_mismatch" => Divides::check(8, 16)
                .and_then(|h| crate::algebra::complement1_with(4, 2, 24, h))
                .err(),
            _ => None,
        },
    }
}

/// One value of every variant of [`Error`]. [`variant_index`] matches without a wildcard, so a
/// new variant does not compile until it is listed there (and here), and then the catalogue test
/// asks for its entry.
#[doc(hidden)]
pub fn one_of_each() -> Vec<Error> {
    let ob = || Obligation::Positive {
        what: String::new(),
        value: 0,
    };
    let s = String::new;
    vec![
        Error::overflow("x"),
        Error::Parse {
            column: 1,
            message: s(),
        },
        Error::NonPositiveShape {
            value: 0,
            context: s(),
        },
        Error::NotCongruent {
            what: s(),
            left: s(),
            right: s(),
        },
        Error::RankMismatch {
            op: "",
            detail: s(),
        },
        Error::TooManyModes {
            op: "",
            tiler: 2,
            layout: 1,
        },
        Error::Divisibility(Failure::boxed("", ob())),
        Error::Inadmissible(Failure::boxed("", ob())),
        Error::NonInjective(Failure::boxed("", ob())),
        Error::NotComplementable(Failure::boxed("", ob())),
        Error::OutOfDomain {
            op: "",
            detail: s(),
        },
        Error::Type {
            op: s(),
            position: 1,
            expected: "",
            found: s(),
        },
        Error::Arity {
            op: s(),
            expected: "",
            found: 0,
        },
        Error::UnknownFunction {
            name: s(),
            column: 1,
        },
        Error::TooLarge {
            op: "",
            what: s(),
            size: 0,
            bound: 0,
        },
        Error::NoUnitStride { layout: s() },
        Error::ProofMismatch(Failure::boxed("", ob())),
        Error::InvalidSwizzle {
            bits: 1,
            base: 0,
            shift: 0,
        },
        Error::NotExpressible {
            op: "",
            what: s(),
            detail: s(),
        },
    ]
}

/// The variant's position in [`one_of_each`] (no wildcard: adding a variant breaks this until
/// it is catalogued).
#[doc(hidden)]
pub fn variant_index(e: &Error) -> usize {
    match e {
        Error::Overflow { .. } => 0,
        Error::Parse { .. } => 1,
        Error::NonPositiveShape { .. } => 2,
        Error::NotCongruent { .. } => 3,
        Error::RankMismatch { .. } => 4,
        Error::TooManyModes { .. } => 5,
        Error::Divisibility(_) => 6,
        Error::Inadmissible(_) => 7,
        Error::NonInjective(_) => 8,
        Error::NotComplementable(_) => 9,
        Error::OutOfDomain { .. } => 10,
        Error::Type { .. } => 11,
        Error::Arity { .. } => 12,
        Error::UnknownFunction { .. } => 13,
        Error::TooLarge { .. } => 14,
        Error::NoUnitStride { .. } => 15,
        Error::ProofMismatch(_) => 16,
        Error::InvalidSwizzle { .. } => 17,
        Error::NotExpressible { .. } => 18,
    }
}
