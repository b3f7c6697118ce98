//! The catalogue of error codes: for each [`Error::code`], what it means, the obligation it
//! names, and a minimal input that triggers it (`docs/errors.md` lists the same, and a test runs
//! every example). `tessera explain CODE` prints an entry.

use crate::error::{Divides, Error};
use crate::error::{Failure, Obligation};

/// The catalogue lives in [`crate::diagnostic::catalogue`]; these are the layout algebra's
/// entries ([`CATALOGUE`]) under their old names.
pub use crate::diagnostic::catalogue::{Code as Entry, Example, ALGEBRA as CATALOGUE};

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
        Example::Text(_) => None,
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
