//! Structure-aware: arbitrary TMA requests through `tma::validate`.
//! The input and its checks are in `checks/tma_request.rs` (replayed on stable by the tests).
#![no_main]
#[path = "../checks/tma_request.rs"]
mod checks;

libfuzzer_sys::fuzz_target!(|i: checks::Input| checks::check(i));
