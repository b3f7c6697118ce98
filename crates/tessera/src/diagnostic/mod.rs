//! One diagnostic vocabulary: every error and finding of the library converts into a
//! [`Diagnostic`] (code, severity, obligation, message, notes, witness, suggestions, and for the
//! kernel checker a verdict and a runtime guard), whose code is an entry of the one
//! [`catalogue`]; [`Diagnostic::to_json`] is the wire form (serde) the tool writes.
//!
//! Each error type implements [`Diagnose`] in its own module (imports run one way: this module
//! sits just above `layout`, `error` and `target`, and knows none of the engines above it).
//!
//! ```
//! use tessera::diagnostic::{Diagnose, Severity};
//! let e = tessera::algebra::complement1(128, 16, 2040).unwrap_err();
//! let d = e.diagnostic();
//! assert_eq!((d.code, d.severity), ("divisibility", Severity::Error));
//! assert_eq!(d.obligation.as_deref(), Some("128·16 ∣ 2040"));
//! assert_eq!(d.suggestions[0], "complement1(128,16,2048)");
//! assert!(tessera::diagnostic::catalogue::lookup(d.code).is_some());
//! ```

pub mod catalogue;

use serde::Serialize;

/// How bad a diagnostic is.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Serialize)]
#[serde(rename_all = "snake_case")]
pub enum Severity {
    /// The operation was refused.
    Error,
    /// Accepted, but refused or mis-handled elsewhere (a driver rule, a portability limit).
    Warning,
    /// A result was returned; a stronger property the caller may expect does not hold.
    Note,
}

/// A checker's verdict on one obligation.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Serialize)]
#[serde(rename_all = "snake_case")]
pub enum Verdict {
    /// Discharged for every input.
    Proved,
    /// Broken, with a witness.
    Refuted,
    /// Holds iff a runtime guard holds ([`Diagnostic::guard`]).
    Runtime,
    /// Holds, but something is worth a warning.
    Warning,
}

/// One diagnostic.
#[derive(Clone, Debug, PartialEq, Eq, Serialize)]
pub struct Diagnostic {
    /// The code (an entry of [`catalogue`]).
    pub code: &'static str,
    /// Error, warning or note.
    pub severity: Severity,
    /// A checker's verdict, when a checker produced it.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub verdict: Option<Verdict>,
    /// The obligation, with the values that broke it.
    pub obligation: Option<String>,
    /// One sentence.
    pub message: String,
    /// The arithmetic and witnesses behind it, one line each.
    pub notes: Vec<String>,
    /// A concrete input that breaks the obligation, when one is known.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub witness: Option<String>,
    /// The runtime condition under which the obligation holds ([`Verdict::Runtime`]).
    #[serde(skip_serializing_if = "Option::is_none")]
    pub guard: Option<String>,
    /// Checked fixes, nearest first.
    pub suggestions: Vec<String>,
}

impl Diagnostic {
    /// A diagnostic with a code, a severity and a message, and nothing else.
    ///
    /// Pre: `code` is in [`catalogue`] (checked by the catalogue tests for every `code()`).
    /// Post: no obligation, notes, witness, guard, verdict or suggestions. Example:
    /// `Diagnostic::new("overflow", Severity::Error, "…")`.
    pub fn new(code: &'static str, severity: Severity, message: impl Into<String>) -> Diagnostic {
        Diagnostic {
            code,
            severity,
            verdict: None,
            obligation: None,
            message: message.into(),
            notes: Vec::new(),
            witness: None,
            guard: None,
            suggestions: Vec::new(),
        }
    }

    /// An error with its code and its `Display` as the message (the usual conversion).
    ///
    /// Pre: `code` is in [`catalogue`]. Post: `Diagnostic::new(code, Severity::Error,
    /// e.to_string())`. Example: `Diagnostic::error(e.code(), &e)`.
    pub fn error(code: &'static str, e: &impl std::fmt::Display) -> Diagnostic {
        Diagnostic::new(code, Severity::Error, e.to_string())
    }

    /// With an obligation.
    ///
    /// Pre: none. Post: `obligation == Some(o)`. Example: `.with_obligation("2 ∣ 3")`.
    pub fn with_obligation(mut self, o: impl Into<String>) -> Diagnostic {
        self.obligation = Some(o.into());
        self
    }

    /// With notes.
    ///
    /// Pre: none. Post: `notes == n`. Example: `.with_notes(vec!["3 mod 2 = 1".into()])`.
    pub fn with_notes(mut self, n: Vec<String>) -> Diagnostic {
        self.notes = n;
        self
    }

    /// With suggestions.
    ///
    /// Pre: each is checked by the caller. Post: `suggestions == s`. Example:
    /// `.with_suggestions(vec!["complement1(128,16,2048)".into()])`.
    pub fn with_suggestions(mut self, s: Vec<String>) -> Diagnostic {
        self.suggestions = s;
        self
    }

    /// With a witness.
    ///
    /// Pre: none. Post: `witness == Some(w)`. Example: `.with_witness("thread 3, value 1")`.
    pub fn with_witness(mut self, w: impl Into<String>) -> Diagnostic {
        self.witness = Some(w.into());
        self
    }

    /// With a verdict and, for [`Verdict::Runtime`], the guard.
    ///
    /// Pre: none. Post: `verdict == Some(v)`, `guard == g`. Example:
    /// `.with_verdict(Verdict::Runtime, Some("K % 64 == 0".into()))`.
    pub fn with_verdict(mut self, v: Verdict, g: Option<String>) -> Diagnostic {
        self.verdict = Some(v);
        self.guard = g;
        self
    }

    /// The catalogue entry of the code.
    ///
    /// Pre: none. Post: `None` only for a code missing from the catalogue (a test forbids it).
    /// Example: the entry's `code` equals `self.code`.
    pub fn entry(&self) -> Option<&'static catalogue::Code> {
        catalogue::lookup(self.code)
    }

    /// The wire form: one JSON object with `code`, `severity`, `obligation`, `message`, `notes`,
    /// `suggestions` (and `verdict`, `witness`, `guard` when set).
    ///
    /// Pre: none. Post: a JSON object. Example: `{"code":"divisibility","severity":"error",…}`.
    pub fn to_json(&self) -> serde_json::Value {
        serde_json::to_value(self).unwrap_or(serde_json::Value::Null)
    }

    /// The error object of `tessera batch` and the Python `info`: `code`, `message`,
    /// `obligation`, `notes`, `suggestions`, in that order (`docs/batch.md`).
    ///
    /// Pre: none. Post: a JSON object with exactly those keys. Example: `{"code":"divisibility",
    /// "message":…}`.
    pub fn to_error_json(&self) -> serde_json::Value {
        serde_json::json!({
            "code": self.code,
            "message": self.message,
            "obligation": self.obligation,
            "notes": self.notes,
            "suggestions": self.suggestions,
        })
    }
}

/// A value that converts into a [`Diagnostic`]: every error type of the library.
pub trait Diagnose {
    /// The diagnostic.
    ///
    /// Pre: none. Post: `code` equals the error's `code()` and is in [`catalogue`]; the message
    /// is the error's `Display`. Example: see the module documentation.
    fn diagnostic(&self) -> Diagnostic;
}

impl Diagnose for crate::error::Note {
    fn diagnostic(&self) -> Diagnostic {
        Diagnostic::new(self.code, Severity::Note, self.message.clone())
            .with_obligation(self.obligation.clone())
    }
}

impl Diagnose for crate::target::TargetError {
    fn diagnostic(&self) -> Diagnostic {
        Diagnostic::error(self.code(), self)
    }
}
