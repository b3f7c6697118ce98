//! Structure-aware: small flat layouts through the algebra, with postconditions.
//! The input and its checks are in `checks/algebra.rs` (replayed on stable by the tests).
#![no_main]
#[path = "../checks/algebra.rs"]
mod checks;

libfuzzer_sys::fuzz_target!(|i: checks::Input| checks::check(i));
