//! Symbolic layout operations of rank <= 4 (the target: <= 2 µs median each), with the parsing
//! of their inputs outside the timed loop, and the integer algebra's same operation in the same
//! run for scale.
//!
//! ```sh
//! cargo bench -p tessera --bench symbolic
//! ```
//!
//! Medians at 06:42 UTC 2026-11-28 (branch `s33-speed`, machine under load ≈ 8 on 2 cores, the
//! integer row 0.354 µs against 0.14 µs quiet), with the ratio to the integer row: coalesce 1.29 µs
//! (3.7×), coalesce rank 4 1.98 µs (5.6×), composition 1.94 µs (5.5×), complement 2.94 µs (8.3×),
//! logical_divide with facts 8.03 µs (22.7×), right_inverse 1.53 µs (4.3×), local_tile with facts
//! 15.7 µs (44×). Before (quiet, 05:20): 19.8×, 23.3×, 21.6×, 24.1×, 67.7×, 22.1×, 199×.
//! See docs/symbolic.md, "Speed" (with instruction counts per row, load-independent:
//! `examples/symbolic_count.rs`). The rows marked `(general path)` do not take
//! `logical_divide`'s closed form for a leaf mode divided by a compact constant tile.

use std::hint::black_box;

use criterion::{criterion_group, criterion_main, Criterion};
use tessera::symbolic::ops::{self, parse_tiler};
use tessera::symbolic::{Ctx, Facts, SymLayout};

fn symbolic(c: &mut Criterion) {
    let mut g = c.benchmark_group("symbolic");
    let facts = Facts::parse(&["M % 128 == 0", "K % 64 == 0", "N % 128 == 0"]).expect("facts");
    let none = Facts::default();
    let a: SymLayout = "(M,K):(K,1)".parse().expect("layout");
    let mn: SymLayout = "(M,N):(1,M)".parse().expect("layout");
    let row: SymLayout = "(16,N):(1,16)".parse().expect("layout");
    let b: SymLayout = "(4,8):(1,4)".parse().expect("layout");
    let r4: SymLayout = "(2,M,4,N):(1,2,2*M,8*M)".parse().expect("layout");
    let t = parse_tiler("(128,64)").expect("tiler");
    // Rows that do not take `logical_divide`'s closed form for a leaf mode by a compact constant
    // tile: strided tiles, and nested modes.
    let ts = parse_tiler("(128:2,64:2)").expect("tiler");
    let nested: SymLayout = "((2,M),(2,K)):((1,2),(2*M,4*M))".parse().expect("layout");
    let cot = tessera::symbolic::parse_expr("M").expect("expr");
    let tile: SymLayout = "128:1".parse().expect("layout");
    let coord = tessera::symbolic::expr::Item::Tuple(vec![
        tessera::symbolic::expr::Item::Expr(tessera::symbolic::parse_expr("bm").expect("bm")),
        tessera::symbolic::expr::Item::Expr(tessera::symbolic::parse_expr("bk").expect("bk")),
    ]);
    g.bench_function("coalesce((M,N):(1,M))", |bch| {
        bch.iter(|| ops::coalesce(&mut Ctx::new(none.clone()), black_box(&mn)))
    });
    g.bench_function("coalesce((2,M,4,N):(1,2,2M,8M))", |bch| {
        bch.iter(|| ops::coalesce(&mut Ctx::new(none.clone()), black_box(&r4)))
    });
    g.bench_function("composition((M,N):(1,M),(4,8):(1,4))", |bch| {
        bch.iter(|| ops::composition(&mut Ctx::new(none.clone()), black_box(&mn), black_box(&b)))
    });
    g.bench_function("complement(128:1,M)", |bch| {
        bch.iter(|| ops::complement(&mut Ctx::new(none.clone()), black_box(&tile), Some(&cot)))
    });
    g.bench_function("logical_divide((M,K):(K,1),(128,64)) facts", |bch| {
        bch.iter(|| ops::logical_divide(&mut Ctx::new(facts.clone()), black_box(&a), black_box(&t)))
    });
    g.bench_function(
        "logical_divide((M,K):(K,1),(128:2,64:2)) facts (general path)",
        |bch| {
            bch.iter(|| {
                ops::logical_divide(&mut Ctx::new(facts.clone()), black_box(&a), black_box(&ts))
            })
        },
    );
    g.bench_function(
        "logical_divide(((2,M),(2,K)):((1,2),(2M,4M)),(128,64)) facts (general path)",
        |bch| {
            bch.iter(|| {
                ops::logical_divide(
                    &mut Ctx::new(facts.clone()),
                    black_box(&nested),
                    black_box(&t),
                )
            })
        },
    );
    g.bench_function("right_inverse((16,N):(1,16))", |bch| {
        bch.iter(|| ops::right_inverse(&mut Ctx::new(none.clone()), black_box(&row)))
    });
    g.bench_function("local_tile((M,K):(K,1),(128,64),(bm,bk)) facts", |bch| {
        bch.iter(|| {
            ops::local_tile(
                &mut Ctx::new(facts.clone()),
                black_box(&a),
                black_box(&t),
                &coord,
            )
        })
    });
    g.bench_function(
        "local_tile((M,K):(K,1),(128:2,64:2),(bm,bk)) facts (general path)",
        |bch| {
            bch.iter(|| {
                ops::local_tile(
                    &mut Ctx::new(facts.clone()),
                    black_box(&a),
                    black_box(&ts),
                    &coord,
                )
            })
        },
    );
    // The integer algebra on an instance, for scale.
    let ia: tessera::Layout = "(4096,4096):(4096,1)".parse().expect("layout");
    let it = tessera::algebra::Tiler::Tuple(vec![
        tessera::algebra::Tiler::Int(128),
        tessera::algebra::Tiler::Int(64),
    ]);
    g.bench_function(
        "integer logical_divide((4096,4096):(4096,1),(128,64))",
        |bch| bch.iter(|| tessera::algebra::logical_divide(black_box(&ia), black_box(&it))),
    );
    g.finish();
}

criterion_group! {
    name = benches;
    config = Criterion::default()
        .sample_size(20)
        .warm_up_time(std::time::Duration::from_millis(300))
        .measurement_time(std::time::Duration::from_millis(800));
    targets = symbolic
}
criterion_main!(benches);
