//! Times every case of the benchmark corpus (release mode) and prints one line per case:
//! `index<TAB>ns_per_op<TAB>result` (`ns_per_op` is `err` and `result` the error code when the
//! operation fails). Used by `benches/compare.py`.
//!
//! Each case times the operation's `_into` variant (e.g. `coalesce_into(&a, &mut out)`) writing
//! into one output layout reused across iterations, as a tiling search would: the by-value
//! functions (`coalesce(&a)`) are thin wrappers that add one move of the result.
//!
//! ```sh
//! cargo run --release -p tessera --example bench_corpus -- benches/corpus/cases.txt [target_ms]
//! ```

use std::hint::black_box;
use std::time::Instant;

use tessera::algebra::{self, Tiler};
use tessera::layout::IntTuple;
use tessera::notation;
use tessera::{Layout, Result};

/// An operation writing into a caller-provided output.
type Into1 = fn(&Layout, &mut Layout) -> Result<()>;
type Into2 = fn(&Layout, &Layout, &mut Layout) -> Result<()>;
type IntoT = fn(&Layout, &Tiler, &mut Layout) -> Result<()>;

/// One parsed case.
enum Case {
    Unary(Into1, Layout),
    Binary(Into2, Layout, Layout),
    Tiled(IntoT, Layout, Tiler),
    Complement(Layout, IntTuple),
}

impl Case {
    #[inline(always)]
    fn run(&self, out: &mut Layout) -> Result<()> {
        match self {
            Case::Unary(f, a) => f(black_box(a), out),
            Case::Binary(f, a, b) => f(black_box(a), black_box(b), out),
            Case::Tiled(f, a, t) => f(black_box(a), black_box(t), out),
            Case::Complement(a, m) => algebra::complement_into(black_box(a), black_box(m), out),
        }
    }
}

fn tiler(text: &str) -> Tiler {
    notation::eval(text)
        .ok()
        .and_then(|v| v.to_tiler())
        .unwrap_or_else(|| panic!("bad tiler {text}"))
}

fn layout(text: &str) -> Layout {
    text.parse()
        .unwrap_or_else(|e| panic!("bad layout {text}: {e}"))
}

fn parse(line: &str) -> Case {
    let f: Vec<&str> = line.split('\t').collect();
    let a = || layout(f[2]);
    match f[0] {
        "coalesce" => Case::Unary(algebra::coalesce_into, a()),
        "right_inverse" => Case::Unary(algebra::right_inverse_into, a()),
        "left_inverse" => Case::Unary(algebra::left_inverse_into, a()),
        "composition" => Case::Binary(algebra::composition_into, a(), layout(f[3])),
        "complement" => Case::Complement(a(), IntTuple::leaf(f[3].parse().expect("cotarget"))),
        "logical_divide" => Case::Tiled(algebra::logical_divide_into, a(), tiler(f[3])),
        "logical_product" => Case::Tiled(algebra::logical_product_into, a(), tiler(f[3])),
        op => panic!("unknown op {op}"),
    }
}

/// Median ns/op over 5 runs of a calibrated number of iterations (each run ≥ `target_ns`).
fn time(case: &Case, out: &mut Layout, target_ns: u128) -> f64 {
    let mut iters: u64 = 1;
    loop {
        let t = Instant::now();
        for _ in 0..iters {
            black_box(case.run(black_box(&mut *out)).ok());
        }
        if t.elapsed().as_nanos() >= target_ns / 4 || iters >= 1 << 30 {
            break;
        }
        iters *= 2;
    }
    iters *= 4;
    let mut runs: Vec<f64> = (0..5)
        .map(|_| {
            let t = Instant::now();
            for _ in 0..iters {
                black_box(case.run(black_box(&mut *out)).ok());
            }
            t.elapsed().as_nanos() as f64 / iters as f64
        })
        .collect();
    runs.sort_by(f64::total_cmp);
    runs[2]
}

fn main() {
    let args: Vec<String> = std::env::args().collect();
    let path = args
        .get(1)
        .map(String::as_str)
        .unwrap_or("benches/corpus/cases.txt");
    let target_ms: f64 = args.get(2).and_then(|s| s.parse().ok()).unwrap_or(2.0);
    let text = std::fs::read_to_string(path).expect("read corpus");
    // `BENCH_FIXED_ITERS=n`: run every case n times, untimed (for instruction counts under
    // `valgrind --tool=callgrind`, which a shared machine does not disturb).
    let fixed: Option<u64> = std::env::var("BENCH_FIXED_ITERS")
        .ok()
        .and_then(|s| s.parse().ok());
    let mut index = 0usize;
    for line in text.lines() {
        if line.starts_with('#') || line.trim().is_empty() {
            continue;
        }
        let case = parse(line);
        let mut out = Layout::default();
        if let Some(n) = fixed {
            for _ in 0..n {
                black_box(case.run(black_box(&mut out)).ok());
            }
            continue;
        }
        match case.run(&mut out) {
            Ok(()) => {
                let r = out.to_string();
                let ns = time(&case, &mut out, (target_ms * 1e6) as u128);
                println!("{index}\t{ns:.2}\t{r}");
            }
            Err(e) => println!("{index}\terr\t{}", e.code()),
        }
        index += 1;
    }
}
