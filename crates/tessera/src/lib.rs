//! # Tessera
//!
//! GPU data layouts and iteration spaces, provably right.
//!
//! Tessera implements NVIDIA CuTe's layout algebra (layouts `shape:stride`; coalesce, composition,
//! complement, inverses, divides and products) and nvFuser's iteration domains (split, merge,
//! resize, swizzle, holes and predicates). Every precondition is a *proof obligation*: it is
//! discharged, or the operation returns a typed [`Error`] that names the obligation and the values.
//!
//! Module map:
//! - [`layout`]: `IntTuple`, `Layout`, coordinates (`idx2crd`, `crd2idx`), size, cosize, slicing.
//! - [`algebra`]: coalesce, composition, complement, inverses, divide, product (one file each).
//! - [`notation`]: CuTe text notation and the expression language used by the CLI.
//! - [`obligation`]: the error type; every failed precondition is one of its obligations.
//! - [`domain`]: iteration domains (nvFuser IterDomains).
//! - [`tma`]: the TMA descriptor planner and validator (driver rules, tiling view, FTTC).
//! - [`render`]: pictures (SVG) of layouts, iteration spaces, transform DAGs and TMA tilings, and
//!   self-contained HTML reports.

pub mod algebra;
pub mod banks;
pub mod domain;
pub mod error;
pub mod layout;
pub mod notation;
pub mod obligation;
pub mod render;
pub mod tma;

pub use error::{Error, Result};
pub use layout::Layout;
