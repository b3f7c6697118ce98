//! The repository's structure and documents: the import layering, the one catalogue of obligations (docs/errors.md), the pictures, and one registry row per operation for every engine.
//!
//! One test binary for these modules (each was its own binary: linking 3 binaries cost
//! minutes on CI's two cores). Run one module with `cargo test -p tessera --test repo MODULE::`.

mod layering;
mod obligations;
mod pictures;
mod registry;
