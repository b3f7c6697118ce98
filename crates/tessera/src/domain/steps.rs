//! A step counter for the scaling tests: the analysis loops that grow with the schedule (lexing,
//! planning, rule building, predicate derivation, report building) add their iterations here, so
//! a test can check that the work grows as O(n log n) without timing anything.
//!
//! The counter is per thread and only ever read by tests and benchmarks; it costs one
//! thread-local addition per batch of work.

use std::cell::Cell;

thread_local! {
    static STEPS: Cell<u64> = const { Cell::new(0) };
}

/// Adds `n` steps to this thread's counter.
///
/// Pre: none. Post: [`count`] grows by `n` (saturating). Example: `tick(3)` after `reset()` makes
/// `count() == 3`.
#[inline]
pub fn tick(n: usize) {
    STEPS.with(|s| s.set(s.get().saturating_add(n as u64)));
}

/// Steps counted on this thread since the last [`reset`].
///
/// Pre: none. Post: no side effects. Example: `0` right after `reset()`.
pub fn count() -> u64 {
    STEPS.with(|s| s.get())
}

/// Sets this thread's counter to zero.
///
/// Pre: none. Post: `count() == 0`. Example: call before the measured analysis.
pub fn reset() {
    STEPS.with(|s| s.set(0));
}
