//! Bank-conflict analysis of a 128×128 f16 shared-memory tile with a named atom (CUTLASS's SW128
//! K-major atom `Sw<3,3,3> o (8,64):(64,1)` tiled to 128×128, unswizzled, padded): the analysis
//! (F2 ranks, no enumeration of the tile) against the brute-force simulator in the same run, and
//! the enumeration fallback on a padded (non-linear) tile.
//!
//! ```sh
//! cargo bench -p tessera --bench banks
//! ```

use std::hint::black_box;

use criterion::{criterion_group, criterion_main, Criterion};
use tessera::banks::{analyze, simulate, Atom, Dtype, Smem};
use tessera::layout::AnyLayout;

fn banks(c: &mut Criterion) {
    let f16 = Dtype::parse("f16").expect("f16");
    let mut g = c.benchmark_group("banks_128x128_f16");
    for (name, smem) in [
        (
            "sw128_atom_tiled_ldmatrix_x4",
            "Sw<3,3,3> o 0 o ((8,16),(64,2)):((64,512),(1,8192))",
        ),
        ("plain_ldmatrix_x4", "(128,128):(128,1)"),
        ("padded_ldmatrix_x4", "(128,128):(136,1)"),
    ] {
        let smem = Smem::from_any(smem.parse::<AnyLayout>().expect("layout"));
        let acc = Atom::parse("SM75_U32x4_LDSM_N")
            .expect("atom")
            .access(&smem, f16, None)
            .expect("access");
        let r = analyze(&smem, &acc, f16).expect("analysis");
        println!(
            "{name}: {} wavefronts, ideal {}, method {}",
            r.wavefronts, r.ideal, r.method
        );
        g.bench_function(format!("{name}/analyze"), |b| {
            b.iter(|| analyze(black_box(&smem), black_box(&acc), f16))
        });
        g.bench_function(format!("{name}/simulate"), |b| {
            b.iter(|| simulate(black_box(&smem), black_box(&acc), f16))
        });
    }
    g.finish();
}

criterion_group!(benches, banks);
criterion_main!(benches);
