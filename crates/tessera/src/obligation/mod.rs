//! Proof obligations: checked suggestions, explanatory notes, static checks and the catalogue.
//!
//! Every precondition of every operation is an obligation. When one cannot be discharged, the
//! operation returns an [`Error`] whose variant names the obligation, with the concrete values.
//! [`Error::code`] is a stable snake_case identifier (used by `tessera batch`). The error type and
//! the obligation vocabulary are defined below the algebra, in [`crate::error`] (re-exported here);
//! this module sits above the algebra and the expression language ([`crate::notation`]), because a
//! suggestion is checked by evaluating it and a note may run an algebra operation.
//!
//! - [`vocab`]: the [`Obligation`] vocabulary (math notation), [`Failure`], [`Call`], and the
//!   [`Divides`] proof value (from [`crate::error`]).
//! - [`suggest`]: checked suggestions ([`Error::suggestions`]).
//! - [`static_check`]: const-generic layouts whose obligations are checked at compile time.
//! - [`catalogue`]: every error code with an explanation and a minimal triggering input.
//! - [`note`]: [`Note`], a warning that travels with a successful result (from [`crate::error`]).

pub mod catalogue;
pub mod static_check;
pub mod suggest;

pub use crate::error::{
    arith, note, vocab, Call, Divides, Error, Failure, Note, Obligation, Result,
};
pub use suggest::Suggestion;

impl Error {
    /// Checked suggestions that would discharge the obligation, nearest first, as expressions of
    /// the expression language (e.g. `complement1(128,16,2048)`).
    ///
    /// Pre: none. Post: every expression returned evaluates without error
    /// ([`crate::notation::eval`] was run on it before it was returned); computed on demand (never
    /// on the path that returns the error); at most [`suggest::MAX_SUGGESTIONS`].
    ///
    /// ```
    /// let e = tessera::algebra::complement1(128, 16, 2040).unwrap_err();
    /// assert_eq!(e.suggestions()[0], "complement1(128,16,2048)");
    /// ```
    pub fn suggestions(&self) -> Vec<String> {
        self.checked_suggestions()
            .into_iter()
            .map(|s| s.expr)
            .collect()
    }

    /// Like [`Error::suggestions`], with a label for each (what changed, e.g. `M = 2048`) and the
    /// value the suggested expression evaluates to.
    ///
    /// Pre: none. Post: for each `s`, `eval(&s.expr)` succeeds with the value `s.value`.
    ///
    /// ```
    /// let e = tessera::notation::eval("complement1(128,16,2040)").unwrap_err();
    /// let s = &e.checked_suggestions()[1];
    /// assert_eq!((s.label.as_str(), s.expr.as_str()), ("M = 2032 with N = 127", "complement1(127,16,2032)"));
    /// ```
    pub fn checked_suggestions(&self) -> Vec<Suggestion> {
        match self.failure() {
            Some(f) => suggest::suggest(f),
            None => Vec::new(),
        }
    }

    /// Notes that explain the failure: the failing arithmetic (and, for composition, how A's
    /// modes constrain B).
    ///
    /// Pre: none. Post: plain text lines, no trailing newline.
    ///
    /// ```
    /// let e = tessera::algebra::complement1(4, 2, 20).unwrap_err();
    /// assert_eq!(e.notes()[0], "4·2 = 8, and 8 ∣ 20 is false (20 mod 8 = 4, so 8 ∤ 20)");
    /// ```
    pub fn notes(&self) -> Vec<String> {
        let mut out = Vec::new();
        let ob = self.obligation();
        if let Some(a) = ob.arithmetic() {
            out.push(a);
        }
        if let Obligation::Admissible { a, .. } = &ob {
            if let Ok(l) = a.parse::<crate::Layout>() {
                if let Ok(c) = crate::algebra::coalesce(&l) {
                    let mut place = 1i64;
                    let mut places = Vec::new();
                    for m in c.leaves() {
                        places.push(place.to_string());
                        place = place.saturating_mul(m.shape);
                    }
                    out.push(format!(
                        "each leaf s:d of B must make t ↦ A(t·d) a layout function on [0, s); \
                         A coalesces to {c}, whose modes start at indices {} (a stride should \
                         step within one of them without carrying, or be a multiple of the next)",
                        places.join(", ")
                    ));
                }
            }
        }
        out
    }
}

impl crate::diagnostic::Diagnose for Error {
    fn diagnostic(&self) -> crate::diagnostic::Diagnostic {
        crate::diagnostic::Diagnostic::new(
            self.code(),
            crate::diagnostic::Severity::Error,
            self.to_string(),
        )
        .with_obligation(self.obligation().to_string())
        .with_notes(self.notes())
        .with_suggestions(self.suggestions())
    }
}
