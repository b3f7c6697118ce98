//! # Tessera
//!
//! GPU data layouts and iteration spaces, provably right.
//!
//! Tessera implements NVIDIA CuTe's layout algebra (layouts `shape:stride`; coalesce, composition,
//! complement, inverses, divides and products) and nvFuser's iteration domains (split, merge,
//! resize, swizzle, holes and predicates). Every precondition is a *proof obligation*: it is
//! discharged, or the operation returns a typed [`Error`] that names the obligation and the values.
//!
//! Module map, in import order: each module imports only the ones listed before it (checked by
//! `tests/repo/layering.rs`).
//! - [`error`]: the [`Error`] type, checked [`error::arith`]metic and the obligation vocabulary
//!   ([`error::Obligation`], [`error::Failure`], [`error::Call`], [`error::Divides`]). The bottom
//!   layer: it imports nothing (an [`Error`] records the call it failed for as text).
//! - [`layout`]: `IntTuple`, `Layout`, coordinates (`idx2crd`, `crd2idx`), size, cosize, slicing;
//!   [`layout::Value`], the values an expression evaluates to.
//! - [`target`]: GPU facts, each in one place: element types ([`target::Dtype`]: short, CUTLASS
//!   and CUDA driver names, width) and architectures ([`target::Arch`]: shared memory, TMA,
//!   GMMA/UMMA, tensor memory, clusters, banks). Beside `error` at the bottom; it imports nothing.
//! - [`diagnostic`]: one [`diagnostic::Diagnostic`] shape (code, severity, obligation, message,
//!   notes, witness, suggestions, verdict, guard) that every error converts into
//!   ([`diagnostic::Diagnose`]), its JSON wire form, and the one catalogue of codes
//!   ([`diagnostic::catalogue`]) that `tessera explain`, `docs/errors.md` and Python read.
//! - [`algebra`]: coalesce, composition, complement, inverses, divide, product (one file each);
//!   then swizzled layouts, linear layouts and ragged tiles built on them.
//! - [`notation`]: CuTe text notation and the expression language used by the CLI.
//! - [`symbolic`]: layouts with runtime extents: symbolic leaves, facts, the decision procedure
//!   (proved / refuted with a witness / guard) and the algebra over them.
//! - [`obligation`]: checked suggestions ([`Error::suggestions`], each evaluated in the expression
//!   language before it is returned), notes, compile-time checks and the error catalogue; it
//!   re-exports the [`error`] vocabulary.
//! - [`domain`]: iteration domains (nvFuser IterDomains).
//! - [`banks`]: the shared-memory bank model and swizzle synthesis.
//! - [`tma`]: the TMA descriptor planner and validator (driver rules, suggestions, readable
//!   reports, tiling view, FTTC); inside it `rules` → `suggest` → `report`.
//! - [`check`]: `tessera check`, a whole GEMM kernel configuration (CUTLASS's names, a TOML/JSON
//!   tree or a CUTLASS kernel name) checked obligation by obligation: proved, refuted with a
//!   witness and checked suggestions, a runtime guard, or a warning; built on [`tma`] and the
//!   smem atoms of [`algebra`].
//! - [`render`]: pictures (SVG) of layouts, iteration spaces, transform DAGs and TMA tilings, and
//!   self-contained HTML reports.
//!
//! The CLI (`tessera-cli`) and the Python bindings (`tessera-py`) sit on top: flags, I/O and
//! formats over these modules.

pub mod algebra;
pub mod banks;
pub mod check;
pub mod diagnostic;
pub mod domain;
pub mod error;
pub mod layout;
pub mod notation;
pub mod obligation;
pub mod render;
pub mod symbolic;
pub mod target;
pub mod tma;

pub use error::{Error, Result};
pub use layout::Layout;
