//! Criterion benchmarks over the committed corpus `benches/corpus/cases.txt` (see
//! `benches/gen_corpus.py`): one benchmark per operation and corpus family, each iteration running
//! every case of the group once; plus the closed-form decisions against enumeration.
//!
//! ```sh
//! cargo bench -p tessera --bench algebra            # everything
//! cargo bench -p tessera --bench algebra -- decide  # only the decisions
//! ```
//!
//! `cargo test --workspace` does not run these (benches are built only by `cargo bench`).

use std::collections::BTreeMap;
use std::hint::black_box;

use criterion::{criterion_group, criterion_main, BenchmarkId, Criterion, Throughput};
use tessera::algebra::{self, decide, Tiler};
use tessera::layout::IntTuple;
use tessera::{notation, Layout, Result};

enum Case {
    Unary(fn(&Layout) -> Result<Layout>, Layout),
    Binary(fn(&Layout, &Layout) -> Result<Layout>, Layout, Layout),
    Tiled(fn(&Layout, &Tiler) -> Result<Layout>, Layout, Tiler),
    Complement(Layout, IntTuple),
}

impl Case {
    #[inline(always)]
    fn run(&self) -> Result<Layout> {
        match self {
            Case::Unary(f, a) => f(black_box(a)),
            Case::Binary(f, a, b) => f(black_box(a), black_box(b)),
            Case::Tiled(f, a, t) => f(black_box(a), black_box(t)),
            Case::Complement(a, m) => algebra::complement(black_box(a), black_box(m)),
        }
    }
}

fn layout(text: &str) -> Layout {
    text.parse().expect("corpus layout")
}

fn tiler(text: &str) -> Tiler {
    notation::eval(text)
        .ok()
        .and_then(|v| v.to_tiler())
        .expect("corpus tiler")
}

/// The corpus grouped by (operation, family); cases that Tessera rejects are left out.
fn corpus() -> BTreeMap<(String, String), Vec<Case>> {
    let path = concat!(
        env!("CARGO_MANIFEST_DIR"),
        "/../../benches/corpus/cases.txt"
    );
    let text = std::fs::read_to_string(path).expect("read benches/corpus/cases.txt");
    let mut groups: BTreeMap<(String, String), Vec<Case>> = BTreeMap::new();
    for line in text
        .lines()
        .filter(|l| !l.starts_with('#') && !l.is_empty())
    {
        let f: Vec<&str> = line.split('\t').collect();
        let case = match f[0] {
            "coalesce" => Case::Unary(algebra::coalesce, layout(f[2])),
            "right_inverse" => Case::Unary(algebra::right_inverse, layout(f[2])),
            "left_inverse" => Case::Unary(algebra::left_inverse, layout(f[2])),
            "composition" => Case::Binary(algebra::composition, layout(f[2]), layout(f[3])),
            "complement" => Case::Complement(
                layout(f[2]),
                IntTuple::leaf(f[3].parse().expect("cotarget")),
            ),
            "logical_divide" => Case::Tiled(algebra::logical_divide, layout(f[2]), tiler(f[3])),
            "logical_product" => Case::Tiled(algebra::logical_product, layout(f[2]), tiler(f[3])),
            op => panic!("unknown op {op}"),
        };
        if case.run().is_ok() {
            groups
                .entry((f[0].to_string(), f[1].to_string()))
                .or_default()
                .push(case);
        }
    }
    groups
}

fn algebra_corpus(c: &mut Criterion) {
    for ((op, family), cases) in corpus() {
        let mut g = c.benchmark_group(op);
        g.throughput(Throughput::Elements(cases.len() as u64));
        g.bench_function(BenchmarkId::from_parameter(family), |b| {
            b.iter(|| {
                for case in &cases {
                    black_box(case.run().ok());
                }
            })
        });
        g.finish();
    }
}

/// A compact layout of size 2^bits with its modes permuted (injective, a bijection onto
/// [0, 2^bits)), and the same with one stride off by one (still injective for bits ≥ 4, no chain).
fn decision_layouts(bits: u32) -> (Layout, Layout) {
    let shapes = [
        1i64 << (bits / 4),
        1 << (bits / 4),
        1 << (bits / 4),
        1 << (bits - 3 * (bits / 4)),
    ];
    let order = [2usize, 0, 3, 1];
    let mut strides = [0i64; 4];
    let mut cur = 1i64;
    for &i in &order {
        strides[i] = cur;
        cur *= shapes[i];
    }
    let text = |d: &[i64; 4]| {
        format!(
            "({},{},{},{}):({},{},{},{})",
            shapes[0], shapes[1], shapes[2], shapes[3], d[0], d[1], d[2], d[3]
        )
    };
    let mut skew = strides;
    skew[order[3]] += 1;
    (layout(&text(&strides)), layout(&text(&skew)))
}

fn decide_vs_enumeration(c: &mut Criterion) {
    let mut g = c.benchmark_group("decide");
    for bits in [8u32, 12, 16, 20] {
        let (l, _) = decision_layouts(bits);
        let m = 1i64 << bits;
        g.bench_with_input(BenchmarkId::new("is_injective/closed", bits), &l, |b, l| {
            b.iter(|| decide::is_injective(black_box(l)).unwrap())
        });
        g.bench_with_input(
            BenchmarkId::new("is_injective/enumerate", bits),
            &l,
            |b, l| b.iter(|| decide::injective_by_enumeration(black_box(l)).unwrap()),
        );
        g.bench_with_input(BenchmarkId::new("is_bijection/closed", bits), &l, |b, l| {
            b.iter(|| decide::is_bijection_onto(black_box(l), m).unwrap())
        });
        g.bench_with_input(
            BenchmarkId::new("is_bijection/enumerate", bits),
            &l,
            |b, l| b.iter(|| decide::bijection_by_enumeration(black_box(l), m).unwrap()),
        );
    }
    let (l, skew) = decision_layouts(40);
    g.bench_with_input(BenchmarkId::new("is_injective/closed", 40), &l, |b, l| {
        b.iter(|| decide::is_injective(black_box(l)).unwrap())
    });
    g.bench_with_input(
        BenchmarkId::new("is_injective/closed-skewed", 40),
        &skew,
        |b, l| b.iter(|| decide::is_injective(black_box(l))),
    );
    g.bench_with_input(BenchmarkId::new("is_bijection/closed", 40), &l, |b, l| {
        b.iter(|| decide::is_bijection_onto(black_box(l), 1 << 40).unwrap())
    });
    let a = layout("(1048576,1048576):(1048576,1)");
    let bl = layout("(1024,1024,1048576):(1,1024,1048576)");
    g.bench_function(BenchmarkId::new("is_admissible/closed", 40), |b| {
        b.iter(|| decide::is_admissible(black_box(&a), black_box(&bl)).unwrap())
    });
    for bits in [8u32, 12, 16, 20] {
        // A row-major matrix and a 2-D tile of size 2^bits inside it: closed-form certificate vs
        // the reference check by enumeration (R(i) == A(B(i)) over B's domain).
        let n = 1i64 << bits;
        let a = layout(&format!("({n},{n}):({n},1)"));
        let h = 1i64 << (bits / 2);
        let b = layout(&format!("({h},{}):({n},1)", n / h));
        g.bench_with_input(
            BenchmarkId::new("is_admissible/closed", bits),
            &(&a, &b),
            |bch, (a, b)| bch.iter(|| decide::is_admissible(black_box(a), black_box(b)).unwrap()),
        );
        let r = algebra::composition(&a, &b).unwrap();
        let size = b.size().unwrap();
        g.bench_with_input(
            BenchmarkId::new("is_admissible/enumerate", bits),
            &(&a, &b),
            |bch, (a, b)| {
                bch.iter(|| {
                    (0..size).all(|i| a.eval(b.eval(i).unwrap()).unwrap() == r.eval(i).unwrap())
                })
            },
        );
    }
    g.finish();
}

criterion_group!(benches, algebra_corpus, decide_vs_enumeration);
criterion_main!(benches);
