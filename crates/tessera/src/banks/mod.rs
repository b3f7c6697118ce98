//! Shared-memory bank conflicts: the model, a brute-force simulator, the analysis and swizzle
//! synthesis.
//!
//! # The model
//!
//! As the CUDA C++ Programming Guide states it (section "Shared Memory" of the compute
//! capability 5.x–9.x chapters): shared memory has 32 banks of 4 bytes; successive 4-byte words
//! go to successive banks (word `w` is in bank `w mod 32`). Tessera models a warp-wide access of
//! `W` bytes per thread (`W` = 1, 2, 4, 8, 16) as served in *phases*: one phase of 32 threads for
//! `W ≤ 4`, two of 16 threads for `W = 8`, four of 8 threads for `W = 16`. In one phase the number
//! of *wavefronts* is the largest number of distinct 4-byte words that the phase touches in any one
//! bank (threads touching the same word share it: a broadcast). An access's cost is the sum of its
//! phases' wavefronts; the ideal is the number of phases. `ldmatrix`/`stmatrix` `.x1/.x2/.x4`
//! (with or without `.trans`) move 8 rows of 16 bytes per phase, the row addresses given by 8
//! threads (threads `0..8·x`); `cp.async` of 4/8/16 bytes and `ld/st.shared` of 1–16 bytes follow
//! the rule above; a TMA write is modelled as 16-byte pieces, 8 per phase (128-byte rows).
//!
//! # The access
//!
//! A thread-value (TV) layout maps `(thread, value)` (thread in `[0, 32)`, CuTe's convention:
//! mode 0 is the thread, mode 1 the value) to an index of the shared-memory layout's domain, or of
//! an *atom tile* that is repeated over the domain ([`Access::atom`]). Each thread reads its
//! values in order, `W / sizeof(T)` at a time, with the widest `W ≤ 16` such that every aligned
//! group of `W / sizeof(T)` consecutive values is contiguous and `W`-aligned in shared memory for
//! every thread; instruction `k` moves group `k` of every thread.
//!
//! # Analysis and simulator
//!
//! [`simulate`] enumerates every thread's addresses (the reference). [`analyze`] gives the same
//! answer without enumerating when the whole access is F2-linear (power-of-two shapes, no
//! carries, a linear or swizzled shared-memory layout): every phase is then a translate of the
//! first, the words it touches form an affine subspace, and its wavefronts are
//! `2^(rank(words) − rank(banks))` (ranks over F2 of the phase's basis vectors projected to word
//! and bank bits). Otherwise it enumerates phase by phase.

pub mod analysis;
pub mod atoms;
pub mod model;
pub mod report;
pub mod sim;
pub mod synth;
pub mod text;

pub use analysis::*;
pub use model::*;
pub use report::*;

pub use atoms::{Atom, AtomKind};
pub use sim::simulate;

impl crate::diagnostic::Diagnose for BankError {
    fn diagnostic(&self) -> crate::diagnostic::Diagnostic {
        crate::diagnostic::Diagnostic::new(
            self.code(),
            crate::diagnostic::Severity::Error,
            self.to_string(),
        )
        .with_suggestions(self.suggestions())
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn f(s: &str) -> Dtype {
        Dtype::parse(s).unwrap()
    }

    fn acc(tv: &str) -> Access {
        Access {
            tv: tv.parse().unwrap(),
            instr: Instr::Shared { width: None },
            atom: None,
        }
    }

    #[test]
    fn classic_column_read() {
        let smem = Smem::Plain("(32,32):(32,1)".parse().unwrap());
        let r = analyze(&smem, &acc("(32,1):(1,0)"), f("f32")).unwrap();
        assert_eq!((r.vector_bytes, r.wavefronts, r.ideal), (4, 32, 1));
        let s = simulate(&smem, &acc("(32,1):(1,0)"), f("f32")).unwrap();
        assert_eq!(
            Report {
                method: "simulation",
                ..r
            },
            s
        );
        let padded = Smem::Plain("(32,32):(33,1)".parse().unwrap());
        let r = analyze(&padded, &acc("(32,1):(1,0)"), f("f32")).unwrap();
        assert_eq!((r.wavefronts, r.ideal), (1, 1));
        let s = simulate(&padded, &acc("(32,1):(1,0)"), f("f32")).unwrap();
        assert_eq!(
            Report {
                method: "simulation",
                ..r
            },
            s
        );
    }
}
