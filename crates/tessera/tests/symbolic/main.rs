//! Layouts over runtime extents: the symbolic algebra against instantiation, its reference, and symbolic TMA.
//!
//! One test binary for these modules (each was its own binary: linking 4 binaries cost
//! minutes on CI's two cores). Run one module with `cargo test -p tessera --test symbolic MODULE::`.

mod fast_paths;
mod reference_symbolic;
mod refusals;
mod symbolic;
mod symbolic_instantiation;
mod symbolic_tma;
