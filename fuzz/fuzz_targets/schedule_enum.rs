//! Structure-aware: split/merge schedules against brute-force enumeration.
//! The input and its checks are in `checks/schedule_enum.rs` (replayed on stable by the tests).
#![no_main]
#[path = "../checks/schedule_enum.rs"]
mod checks;

libfuzzer_sys::fuzz_target!(|i: checks::Input| checks::check(i));
