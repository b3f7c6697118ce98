//! Structure-aware (issue 30): swizzled and composed chains against their definitions.
//! The input and its checks are in `checks/swizzled.rs` (replayed on stable by the tests).
#![no_main]
#[path = "../checks/swizzled.rs"]
mod checks;

libfuzzer_sys::fuzz_target!(|i: checks::Input| checks::check(i));
