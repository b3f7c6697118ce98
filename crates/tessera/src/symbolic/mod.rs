//! Layouts with runtime extents: the layout algebra over symbolic leaves, with facts and guards.
//!
//! A leaf is an integer expression over named runtime extents ([`Poly`]: `M`, `K/64`,
//! `128*K`); [`Facts`] about the names (`M % 128 == 0`, `K >= 64`, `M == 4*P`) feed a decision
//! procedure ([`Facts::decide`]) that answers each condition *proved*, *refuted* (with a witness
//! assignment satisfying every fact) or *unknown*. An operation ([`ops`]) runs CuTe's algorithm
//! on the symbolic leaves; every condition it branches on or requires is decided, and what is
//! not decided becomes a [`Guard`] returned with the result: for every assignment satisfying the
//! facts and the guards, instantiating the result gives exactly the integer algebra's answer
//! (up to the stride of size-1 modes, which the integer algebra prints as 0).
//!
//! This module sits above [`crate::notation`] and below [`crate::obligation`]; the integer
//! [`Layout`] and its hot path are untouched (a symbolic layout is a separate type).
//! See `docs/symbolic.md`.

pub mod call;
pub mod expr;
pub mod facts;
pub mod layout;
pub mod ops;
pub mod product;
pub mod ragged;
pub mod swizzle;

pub use call::{eval, SymValue};
pub use expr::{parse_expr, Atom, Name, Poly};
pub use facts::{Assignment, Facts, Pred, Rel, Syntax, Verdict};
pub use layout::{Node, SymLayout};

use crate::layout::Layout;
use facts::PredRef;
use std::fmt;

/// A failure of the symbolic layer.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub enum SymError {
    /// Malformed text.
    #[error("parse error at column {column}: {message}")]
    Parse {
        /// 1-based column.
        column: usize,
        /// What was expected.
        message: String,
    },
    /// A fact names a name that the expression does not use.
    #[error("unknown name `{name}` in fact `{fact}` (the expression does not use it)")]
    UnknownName {
        /// The name.
        name: String,
        /// The fact.
        fact: String,
    },
    /// Facts with no common solution.
    #[error("fact `{fact}` contradicts {}: {detail}", if with.is_empty() { "itself".to_string() } else { with.join(", ") })]
    Contradiction {
        /// The fact that made the base inconsistent.
        fact: String,
        /// The facts it contradicts.
        with: Vec<String>,
        /// Why.
        detail: String,
    },
    /// A non-linear fact (`M*K % 8 == 0`): the engine cannot decide with it.
    #[error(
        "fact `{fact}` is non-linear: facts are linear in one name (or define one name as a*Y + b)"
    )]
    NonLinearFact {
        /// The fact.
        fact: String,
    },
    /// A linear fact of a shape the engine does not take.
    #[error("fact `{fact}` is not supported: {why}")]
    UnsupportedFact {
        /// The fact.
        fact: String,
        /// Why.
        why: String,
    },
    /// An obligation that fails for every assignment satisfying the facts.
    #[error("{op}: {obligation} is false for every size allowed by the facts{}", if witness.is_empty() { String::new() } else { format!(", e.g. {}", show_env(witness)) })]
    Refuted {
        /// The operation.
        op: &'static str,
        /// The obligation.
        obligation: String,
        /// An assignment satisfying every fact.
        witness: Assignment,
    },
    /// Something the symbolic algebra does not handle (named).
    #[error("{op}: {what}")]
    Unsupported {
        /// The operation.
        op: &'static str,
        /// What is not handled.
        what: String,
    },
    /// A name without a value during instantiation.
    #[error("name `{0}` has no value")]
    UnboundName(String),
    /// A division by zero.
    #[error("division by zero in {0}")]
    DivisionByZero(String),
    /// Checked arithmetic overflowed.
    #[error("arithmetic overflow: {0} does not fit in a signed 64-bit integer")]
    Overflow(String),
    /// An error of the integer algebra (after instantiation).
    #[error("{0}")]
    Algebra(crate::Error),
}

impl SymError {
    /// A stable code (`unknown_name`, `contradictory_facts`, `nonlinear_fact`, …).
    ///
    /// Pre: none. Post: one code per variant (the integer algebra's own code for `Algebra`).
    /// Example: a contradiction's code is `contradictory_facts`.
    pub fn code(&self) -> &'static str {
        match self {
            SymError::Parse { .. } => "parse_error",
            SymError::UnknownName { .. } => "unknown_name",
            SymError::Contradiction { .. } => "contradictory_facts",
            SymError::NonLinearFact { .. } => "nonlinear_fact",
            SymError::UnsupportedFact { .. } => "unsupported_fact",
            SymError::Refuted { .. } => "refuted",
            SymError::Unsupported { .. } => "symbolic_unsupported",
            SymError::UnboundName(_) => "unbound_name",
            SymError::DivisionByZero(_) => "division_by_zero",
            SymError::Overflow(_) => "overflow",
            SymError::Algebra(e) => e.code(),
        }
    }
}

/// Prints an assignment as `M = 130, K = 64`.
///
/// Pre: none. Post: names in order. Example: `{M: 130}` prints `M = 130`.
pub fn show_env(env: &Assignment) -> String {
    env.iter()
        .map(|(k, v)| format!("{k} = {v}"))
        .collect::<Vec<_>>()
        .join(", ")
}

/// A condition a result depends on, with the operation that needed it.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Guard {
    /// The condition.
    pub pred: Pred,
    /// The operation that produced it.
    pub op: &'static str,
}

impl fmt::Display for Guard {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{}", self.pred)
    }
}

/// A symbolic result with the guards it depends on.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Sym<T> {
    /// The result, exact under the facts and the guards.
    pub value: T,
    /// The guards (empty: the result holds for every size the facts allow).
    pub guards: Vec<Guard>,
}

/// The context of a symbolic computation: the facts (strengthened by guards that have the
/// shape of a fact) and the guards gathered so far.
/// A computation made through [`Ctx::branch`] and [`Ctx::require`] is exact under the facts and
/// its guards: `srun_sound`, `ctx_strengthened_run_sound` (`proofs/SymbolicFacts.v`).
#[derive(Clone, Debug, Default)]
pub struct Ctx {
    /// The facts.
    pub facts: Facts,
    /// The guards so far.
    pub guards: Vec<Guard>,
    /// Quotient atoms rewritten by the decisions so far (under the facts they were rewritten
    /// under: forgotten when `facts` changes).
    memo: facts::AtomMemo,
    /// Off unless set (`Some(vec![])`): every decision of the run, for the bridge to
    /// `proofs/SymbolicOps.v`, as `(kind, answer)`: `b'd'` a `branch`/`require` decision
    /// (`None`: undecided), `b't'` `branch_typical`'s preferred side (`None` when decided),
    /// `b'p'` a peek of `coalesce_leaves_x`, `b'o'` `as_const() == Some(1)` and `b's'` a
    /// polynomial equality of `compose_leaf`.
    #[doc(hidden)]
    pub trace: Option<Vec<(u8, Option<bool>)>>,
}

impl Ctx {
    /// A context over facts.
    ///
    /// Pre: none. Post: no guards. Example: `Ctx::new(Facts::default())`.
    pub fn new(facts: Facts) -> Ctx {
        Ctx {
            facts,
            guards: Vec::new(),
            memo: facts::AtomMemo::default(),
            trace: None,
        }
    }

    fn note(&mut self, kind: u8, v: Option<bool>) {
        if let Some(t) = &mut self.trace {
            t.push((kind, v));
        }
    }

    /// A syntactic test of an operation, returned as is (traced as `kind`).
    pub(crate) fn test(&mut self, kind: u8, b: bool) -> bool {
        self.note(kind, Some(b));
        b
    }

    pub(crate) fn decide_fast(&mut self, p: &Pred) -> Result<Option<bool>, SymError> {
        self.decide_ref(p.as_ref())
    }

    /// [`Ctx::decide_fast`] on borrowed operands (no [`Pred`] is built).
    pub(crate) fn decide_ref(&mut self, p: PredRef<'_>) -> Result<Option<bool>, SymError> {
        // The guards gathered so far count as facts too (literally, when they recur).
        if !self.guards.is_empty() {
            if self.guards.iter().any(|g| p.is(&g.pred)) {
                return Ok(Some(true));
            }
            if p.rel == Rel::Ge && p.lhs.constant_term() == i64::MAX {
                // The negation `rhs >= lhs + 1` does not fit: the error of `negate`.
                p.lhs.add(&Poly::constant(1))?;
            }
            if self.guards.iter().any(|g| is_negation(&g.pred, p)) {
                return Ok(Some(false));
            }
        }
        self.facts.decide_quick_memo(p, &mut self.memo)
    }

    /// [`Ctx::decide_ref`] with no guard recorded (traced as `b'p'`).
    pub(crate) fn peek_ref(&mut self, p: PredRef<'_>) -> Result<Option<bool>, SymError> {
        let d = self.decide_ref(p)?;
        self.note(b'p', d);
        Ok(d)
    }

    fn push(&mut self, p: Pred, op: &'static str) {
        self.facts.strengthen(&p);
        if !self.guards.iter().any(|g| g.pred == p) {
            self.guards.push(Guard { pred: p, op });
        }
    }

    /// A branch of an algorithm on `p`: proved → `true`, refuted → `false`, undecided → the
    /// preferred answer, recording `p` (or its negation) as a guard.
    ///
    /// Pre: none. Post: the path taken is right for every assignment satisfying the facts and
    /// the guards. Example: `branch(M == 1, false)` records the guard `M != 1`.
    pub fn branch(&mut self, p: Pred, prefer: bool, op: &'static str) -> Result<bool, SymError> {
        let d = self.decide_ref(p.as_ref())?;
        self.note(b'd', d);
        match d {
            Some(b) => Ok(b),
            None => self.take(p, prefer, op),
        }
    }

    /// [`Ctx::branch`] on `lhs rel rhs`, borrowed (the condition is built only when it becomes
    /// a guard).
    pub(crate) fn branch_on(
        &mut self,
        rel: Rel,
        lhs: &Poly,
        rhs: &Poly,
        prefer: bool,
        op: &'static str,
    ) -> Result<bool, SymError> {
        let p = PredRef { rel, lhs, rhs };
        let d = self.decide_ref(p)?;
        self.note(b'd', d);
        match d {
            Some(b) => Ok(b),
            None => self.take(p.to_pred(), prefer, op),
        }
    }

    /// The undecided branch `p`: the preferred side, recorded as a guard.
    fn take(&mut self, p: Pred, prefer: bool, op: &'static str) -> Result<bool, SymError> {
        let g = if prefer { p } else { p.negate()? };
        self.push(g, op);
        Ok(prefer)
    }

    /// A branch that prefers, when undecided, the side that holds for large sizes (each name
    /// about a thousand times its modulus): a sort of symbolic strides, a `min`.
    ///
    /// Pre: none. Post: as [`Ctx::branch`]. Example: `K >= 64` prefers `true`.
    pub fn branch_typical(&mut self, p: Pred, op: &'static str) -> Result<bool, SymError> {
        self.branch_typical_on(p.rel, &p.lhs, &p.rhs, op)
    }

    /// [`Ctx::branch_typical`] on `lhs rel rhs`, borrowed.
    pub(crate) fn branch_typical_on(
        &mut self,
        rel: Rel,
        lhs: &Poly,
        rhs: &Poly,
        op: &'static str,
    ) -> Result<bool, SymError> {
        let p = PredRef { rel, lhs, rhs };
        if let Some(b) = self.decide_ref(p)? {
            self.note(b'd', Some(b));
            self.note(b't', None);
            return Ok(b);
        }
        let p = p.to_pred();
        let mut names = Vec::new();
        p.lhs.names(&mut names);
        p.rhs.names(&mut names);
        let env = self.facts.typical(&names);
        let prefer = p.holds(&env).unwrap_or(true);
        self.note(b't', Some(prefer));
        // Undecided (deciding again would answer the same): the preferred side, guarded.
        self.note(b'd', None);
        self.take(p, prefer, op)
    }

    /// An obligation: proved → nothing, undecided → a guard, refuted → [`SymError::Refuted`]
    /// with a witness satisfying the facts.
    ///
    /// Pre: none. Post: `p` holds under the facts and the guards when this returns `Ok`.
    /// Example: `require(128 | M)` under `M % 64 == 0` records the guard `M % 128 == 0`.
    pub fn require(&mut self, p: Pred, op: &'static str) -> Result<(), SymError> {
        let d = self.decide_ref(p.as_ref())?;
        self.note(b'd', d);
        match d {
            Some(true) => Ok(()),
            Some(false) => self.refuted(p.as_ref(), op),
            None => {
                self.push(p, op);
                Ok(())
            }
        }
    }

    /// [`Ctx::require`] on `lhs rel rhs`, borrowed (the condition is built only when it
    /// becomes a guard or an error).
    pub(crate) fn require_on(
        &mut self,
        rel: Rel,
        lhs: &Poly,
        rhs: &Poly,
        op: &'static str,
    ) -> Result<(), SymError> {
        let p = PredRef { rel, lhs, rhs };
        let d = self.decide_ref(p)?;
        self.note(b'd', d);
        match d {
            Some(true) => Ok(()),
            Some(false) => self.refuted(p, op),
            None => {
                self.push(p.to_pred(), op);
                Ok(())
            }
        }
    }

    fn refuted(&self, p: PredRef<'_>, op: &'static str) -> Result<(), SymError> {
        Err(SymError::Refuted {
            op,
            obligation: p.to_pred().to_string(),
            witness: self.facts.witness_any()?,
        })
    }

    /// Wraps a value with the guards gathered.
    ///
    /// Pre: none. Post: the guards in order of first need. Example: see [`ops`].
    pub fn finish<T>(self, value: T) -> Sym<T> {
        Sym {
            value,
            guards: self.guards,
        }
    }
}

/// Whether `g == p.negate()`, decided without building the negation (`p.negate()` fits).
fn is_negation(g: &Pred, p: PredRef<'_>) -> bool {
    match p.rel {
        // !(l >= r) is r >= l + 1.
        Rel::Ge => g.rel == Rel::Ge && g.lhs == *p.rhs && g.rhs.const_diff(p.lhs) == Some(1),
        Rel::Eq | Rel::Ne | Rel::Divides | Rel::NotDivides => {
            let n = match p.rel {
                Rel::Eq => Rel::Ne,
                Rel::Ne => Rel::Eq,
                Rel::Divides => Rel::NotDivides,
                _ => Rel::Divides,
            };
            g.rel == n && g.lhs == *p.lhs && g.rhs == *p.rhs
        }
    }
}

/// Equality of integer layouts up to the stride of size-1 modes (which CuTe prints as 0 or
/// keeps, depending on the path): the comparison the instantiation tests use.
///
/// Pre: none. Post: `true` iff the trees have the same structure, the same shapes, and the same
/// strides wherever the shape is not 1. Example: `(128,1):(K,0)` matches `(128,1):(K,128)`.
pub fn same_up_to_unit_strides(a: &Layout, b: &Layout) -> bool {
    a.shape() == b.shape()
        && a.leaves()
            .zip(b.leaves())
            .all(|(x, y)| x.shape == 1 || x.stride == y.stride)
}
