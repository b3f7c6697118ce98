//! Iteration domains: nvFuser's IterDomains transformed by split, merge, resize and swizzle.
//!
//! The engine follows nvFuser's "Divisibility of Split" (the seed `002`): a [`Schedule`] is a DAG
//! of transforms from root domains to a loop domain; [`eval`] gives the exact semantics by
//! enumeration (holes, valid items, duplicates); [`predicate`] derives a minimal predicate
//! equivalent to "no hole is visited" with Theorems 1–4; [`alloc`] checks over-allocation and
//! weak/strong correctness; [`equiv`] decides equivalence (Theorem 5); [`vectorize`] checks
//! vectorization and TMA box legality; [`symbolic`] carries symbolic extents and facts;
//! [`codegen`] emits Python and CUDA C++; [`report`] gathers everything for the CLI.
//! [`simplify`] is the index-expression simplifier (rules = the integer-division theorems);
//! [`vector_width`] holds nvFuser's vector width/word-size/walk/stride checks; [`tmem`] the
//! tensor-memory lane and column allocation; [`steps`] counts the analysis's work for the scaling
//! tests.
//!
//! Division is Euclidean everywhere (`i64::div_euclid`, `rem_euclid`), as the seed requires for
//! its theorems to hold with negative indices (left resizes produce them).

pub mod alloc;
pub mod codegen;
pub mod equiv;
pub mod error;
pub mod eval;
pub mod ir;
pub mod parse;
pub mod predicate;
pub mod ragged;
pub mod report;
pub mod simplify;
pub mod steps;
pub mod symbolic;
pub mod tmem;
pub mod unswitch;
pub mod vector_width;
pub mod vectorize;
pub mod wire;

pub use error::{Error, Result};
pub use ir::{Allocation, Id, IterDomain, Schedule, SplitKind, Transform};
pub use parse::parse;
pub use symbolic::{Decision, Extent, Fact, Facts};
