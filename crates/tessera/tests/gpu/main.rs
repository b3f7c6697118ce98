//! GPU-facing checks: the bank model (and its hardware record), TMA rules and tilings (and the hardware swizzle record), and the whole-kernel checker (brute force, CUTLASS's kernels).
//!
//! One test binary for these modules (each was its own binary: linking 7 binaries cost
//! minutes on CI's two cores). Run one module with `cargo test -p tessera --test gpu MODULE::`.

mod banks;
mod banks_hardware;
mod check_bruteforce;
mod check_cutlass;
mod tma_base_hardware;
mod tma_rules;
mod tma_swizzle_hardware;
mod tma_tiling;
