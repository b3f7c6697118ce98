//! Structure-aware: arbitrary small flat layouts through the algebra, checking postconditions as
//! the property tests do (coalesce preserves the function; composition evaluates as A(B(i));
//! `(filter(A), complement(A, M))` is injective).
//!
//! Shared by the fuzz target `fuzz_targets/algebra.rs` and the stable replay of its corpus and
//! regressions (`crates/tessera/tests/algebra/fuzz_regressions.rs`).
use arbitrary::Arbitrary;
use tessera::algebra;
use tessera::layout::IntTuple;
use tessera::Layout;

#[derive(Arbitrary, Debug)]
pub struct Input {
    a: Vec<(u8, i8)>,
    b: Vec<(u8, i8)>,
    m: u16,
}

fn layout(modes: &[(u8, i8)]) -> Option<Layout> {
    if modes.is_empty() || modes.len() > 6 {
        return None;
    }
    let shape = IntTuple::flat(modes.iter().map(|&(s, _)| i64::from(s % 9) + 1));
    let stride = IntTuple::flat(modes.iter().map(|&(_, d)| i64::from(d)));
    Layout::new(&shape, &stride).ok()
}

/// The checks of one input.
pub fn check(i: Input) {
    let (Some(a), Some(b)) = (layout(&i.a), layout(&i.b)) else {
        return;
    };
    let n = a.size().unwrap();
    if let Ok(c) = algebra::coalesce(&a) {
        for x in 0..n {
            assert_eq!(
                c.eval(x).unwrap(),
                a.eval(x).unwrap(),
                "coalesce({a}) at {x}"
            );
        }
    }
    if let Ok(r) = algebra::composition(&a, &b) {
        for x in 0..b.size().unwrap() {
            let bx = b.eval(x).unwrap();
            if (0..n).contains(&bx) {
                assert_eq!(r.eval(x).unwrap(), a.eval(bx).unwrap(), "{a} o {b} at {x}");
            }
        }
    }
    let m = i64::from(i.m % 512) + 1;
    if let Ok(c) = algebra::complement(&a, &IntTuple::leaf(m)) {
        // (filter(A), complement(A, M)) is injective: the complement never overlaps A (stride-0
        // modes are dropped first, as CuTe's complement ignores them).
        let f = algebra::filter(&a).unwrap();
        let both = Layout::concat([&f, &c]);
        if let Ok(d) = algebra::decide::is_injective(&both) {
            assert!(d.holds, "complement({a}, {m}) = {c} overlaps");
        }
    }
    let t = algebra::Tiler::Layout(b.clone());
    let _ = algebra::logical_divide(&a, &t);
    let _ = algebra::logical_product(&a, &t);
    let _ = algebra::right_inverse(&a);
    let _ = algebra::left_inverse(&a);
}
