//! The batch protocol (issue 30): arbitrary bytes as JSON lines through `tessera batch`'s driver.
//! The checks are in `checks/batch.rs` (replayed on stable by `crates/tessera-cli/tests`).
#![no_main]
#[path = "../checks/batch.rs"]
mod checks;

libfuzzer_sys::fuzz_target!(|data: &[u8]| checks::check(data));
