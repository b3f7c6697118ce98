//! Structure-aware (issue 30): the bank model and the ragged verdicts against their references.
//!
//! Banks: a shared-memory layout of rank ≤ 3 (strides of any sign, up to 2^62, so byte addresses
//! can pass 2^64) and a TV layout of 32 threads; the analysis and the brute-force simulator (which
//! computes its addresses on its own, in 128 bits) either refuse with the same code or agree.
//! Ragged: a divide of a rank ≤ 2 layout by integers; the closed-form verdicts (weak/strong for
//! each fill and reduction) equal those of `check_lowering`'s enumeration of every mode.
//!
//! Shared by the fuzz target `fuzz_targets/banks_ragged.rs` and the stable replay of its corpus and
//! regressions (`crates/tessera/tests/algebra/fuzz_regressions.rs`).
use arbitrary::Arbitrary;
use tessera::algebra::ragged::{ragged_divide, Arrangement};
use tessera::algebra::Tiler;
use tessera::banks::{analyze, simulate, Access, Instr, Smem};
use tessera::domain::alloc::{check_lowering, Lowering};
use tessera::layout::IntTuple;
use tessera::Layout;

#[derive(Arbitrary, Debug)]
pub struct Input {
    smem: Vec<(u8, i8, u8)>,
    tv: (i8, u8, i8),
    dtype: u8,
    width: u8,
    ragged: Vec<(u8, u8)>,
    arrangement: u8,
}

fn smem_layout(modes: &[(u8, i8, u8)]) -> Option<Layout> {
    if modes.is_empty() || modes.len() > 3 {
        return None;
    }
    let shape = IntTuple::flat(modes.iter().map(|&(s, _, _)| i64::from(s % 64) + 1));
    // Strides d · 2^k with k < 63: small ones, and ones whose byte addresses pass 2^64.
    let stride = IntTuple::flat(
        modes
            .iter()
            .map(|&(_, d, k)| i64::from(d).checked_shl(u32::from(k % 63)).unwrap_or(1)),
    );
    Layout::new(&shape, &stride).ok()
}

/// The checks of one input.
pub fn check(i: Input) {
    if let Some(l) = smem_layout(&i.smem) {
        let (td, nv, vd) = i.tv;
        let tv = format!("(32,{}):({},{})", nv % 8 + 1, td, vd);
        if let Ok(tv) = tv.parse::<Layout>() {
            let dtype = ["f16", "f32", "i8", "f64"][usize::from(i.dtype % 4)];
            let dtype = tessera::banks::Dtype::parse(dtype).unwrap();
            let width = [None, Some(4), Some(8), Some(16)][usize::from(i.width % 4)];
            let acc = Access {
                tv,
                instr: Instr::Shared { width },
                atom: None,
            };
            let smem = Smem::Plain(l.clone());
            match (analyze(&smem, &acc, dtype), simulate(&smem, &acc, dtype)) {
                (Ok(a), Ok(s)) => assert!(a.agrees_with(&s), "{l} {:?}: {a:?} vs {s:?}", acc.tv),
                // Both refuse; the simulator checks every address first (on its own, in 128
                // bits), so an input with two faults may be refused for either.
                (Err(a), Err(s)) => assert!(
                    a.code() == s.code()
                        || s.code() == "banks_address"
                        || a.code() == "banks_address",
                    "{l}: {a} vs {s}"
                ),
                (Err(a), Ok(_)) if a.code() == "banks_too_large" => {}
                (Ok(_), Err(s)) if s.code() == "banks_too_large" => {}
                (a, s) => panic!("{l} {:?}: analysis {a:?}, simulator {s:?}", acc.tv),
            }
        }
    }
    if i.ragged.is_empty() || i.ragged.len() > 2 {
        return;
    }
    let shape = IntTuple::flat(i.ragged.iter().map(|&(n, _)| i64::from(n % 40) + 1));
    let Ok(a) = Layout::compact(&shape) else {
        return;
    };
    let tiler = Tiler::Tuple(
        i.ragged
            .iter()
            .map(|&(_, t)| Tiler::Int(i64::from(t % 12) + 1))
            .collect(),
    );
    let arr = [Arrangement::Logical, Arrangement::Zipped][usize::from(i.arrangement % 2)];
    let Ok(r) = ragged_divide(&a, &tiler, arr) else {
        return;
    };
    let Ok(an) = tessera::domain::ragged::analyze(&r, None) else {
        return;
    };
    for row in &an.correctness {
        let (mut weak, mut strong) = (true, true);
        for m in &an.modes {
            let c = check_lowering(
                &m.schedule,
                &Lowering {
                    predicate: m.derivation.chosen.clone(),
                    fill: row.fill,
                },
                row.reduction.identity(),
            )
            .unwrap();
            weak &= c.weak;
            strong &= c.strong;
        }
        assert_eq!(
            (row.weak, row.strong),
            (weak, strong),
            "{a} by {tiler:?}: {row:?}"
        );
    }
}
