//! The layout algebra and the expression language: properties against slow references, CuTe and pycute differential data, swizzles, linear and Gluon layouts, ragged tiles, the seed theorems, the direct parser, and the fuzzers' regressions.
//!
//! One test binary for these modules (each was its own binary: linking 15 binaries cost
//! minutes on CI's two cores). Run one module with `cargo test -p tessera --test algebra MODULE::`.

#[path = "../common/mod.rs"]
mod common;

mod decide;
mod differential;
mod disjoint_complement;
mod fuzz_regressions;
mod gluon_oracle;
mod golden_reference;
mod into;
mod linear;
mod notation_direct;
mod properties;
mod ragged;
#[allow(clippy::module_inception)] // reference.rs holds its own `mod reference`
mod reference;
mod seed_theorems;
mod swizzle_differential;
mod swizzle_properties;
