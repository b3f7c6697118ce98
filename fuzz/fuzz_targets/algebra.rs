//! Structure-aware: arbitrary small flat layouts through the algebra, checking postconditions as
//! the property tests do (coalesce preserves the function; composition evaluates as A(B(i));
//! `(A, complement(A, M))` is injective).
#![no_main]
use arbitrary::Arbitrary;
use libfuzzer_sys::fuzz_target;
use tessera::algebra;
use tessera::layout::IntTuple;
use tessera::Layout;

#[derive(Arbitrary, Debug)]
struct Input {
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

fuzz_target!(|i: Input| {
    let (Some(a), Some(b)) = (layout(&i.a), layout(&i.b)) else {
        return;
    };
    let n = a.size().unwrap();
    if let Ok(c) = algebra::coalesce(&a) {
        for x in 0..n {
            assert_eq!(c.eval(x).unwrap(), a.eval(x).unwrap(), "coalesce({a}) at {x}");
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
        // (A, complement(A, M)) is injective: the complement never overlaps A.
        let both = Layout::concat([&a, &c]);
        if let Ok(d) = algebra::decide::is_injective(&both) {
            assert!(d.holds, "complement({a}, {m}) = {c} overlaps");
        }
    }
    let _ = algebra::logical_divide(&a, &b);
    let _ = algebra::logical_product(&a, &b);
    let _ = algebra::right_inverse(&a);
    let _ = algebra::left_inverse(&a);
});
