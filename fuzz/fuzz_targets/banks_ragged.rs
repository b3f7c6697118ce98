//! Structure-aware (issue 30): the bank model and the ragged verdicts against their references.
//! The input and its checks are in `checks/banks_ragged.rs` (replayed on stable by the tests).
#![no_main]
#[path = "../checks/banks_ragged.rs"]
mod checks;

libfuzzer_sys::fuzz_target!(|i: checks::Input| checks::check(i));
