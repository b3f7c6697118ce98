//! nvFuser iteration domains: examples, equivalence, errors, code generation, property tests, scaling, symbolic extents and validity.
//!
//! One test binary for these modules (each was its own binary: linking 9 binaries cost
//! minutes on CI's two cores). Run one module with `cargo test -p tessera --test domain MODULE::`.

mod domain_codegen;
mod domain_equiv;
mod domain_errors;
mod domain_examples;
mod domain_nvfuser_examples_extra;
mod domain_proptest;
mod domain_scaling;
mod domain_symbolic;
mod domain_validity;
