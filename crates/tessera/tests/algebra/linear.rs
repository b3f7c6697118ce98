//! Linear layouts over F2: operations checked as functions on random layouts, and the
//! conversions with CuTe layouts and swizzles as round trips (tested by evaluation).

use proptest::prelude::*;
use tessera::algebra::linear::LinearLayout;
use tessera::Layout;

/// A random linear layout: inputs `register`/`lane` with up to 4 bases each, outputs
/// `dim0`/`dim1` of sizes 2^o0, 2^o1.
fn ll() -> impl Strategy<Value = LinearLayout> {
    (1u32..4, 1u32..4).prop_flat_map(|(o0, o1)| ll_sized(o0, o1))
}

fn ll_sized(o0: u32, o1: u32) -> impl Strategy<Value = LinearLayout> {
    let basis = (0u64..(1 << o0), 0u64..(1 << o1)).prop_map(|(a, b)| vec![a, b]);
    (
        prop::collection::vec(basis.clone(), 0..4),
        prop::collection::vec(basis, 0..5),
    )
        .prop_map(move |(r, l)| {
            LinearLayout::new(
                &[("register", r), ("lane", l)],
                &[("dim0", 1 << o0), ("dim1", 1 << o1)],
            )
            .unwrap()
        })
}

/// Two layouts with the same outputs.
fn pair() -> impl Strategy<Value = (LinearLayout, LinearLayout)> {
    (1u32..4, 1u32..3).prop_flat_map(|(o0, o1)| (ll_sized(o0, o1), ll_sized(o0, o1)))
}

/// A random square bijection on `n` bits (a random invertible matrix by row operations).
fn bijection(n: u32) -> impl Strategy<Value = LinearLayout> {
    prop::collection::vec((0..n, 0..n), 0..12).prop_map(move |ops| {
        let mut b: Vec<u64> = (0..n).map(|i| 1u64 << i).collect();
        for (i, j) in ops {
            if i != j {
                b[i as usize] ^= b[j as usize];
            }
        }
        let bases: Vec<Vec<u64>> = b.iter().map(|&x| vec![x]).collect();
        LinearLayout::new(&[("offset", bases)], &[("offset", 1u64 << n)]).unwrap()
    })
}

fn all_inputs(l: &LinearLayout) -> u64 {
    1u64 << l.total_in_bits()
}

fn pow2_layout() -> impl Strategy<Value = String> {
    prop::collection::vec(
        (
            0u32..3,
            prop::sample::select(vec![0i64, 1, 2, 3, 4, 5, 8, 16, 32, 64, 6, 12]),
        ),
        1..4,
    )
    .prop_map(|m| {
        let s: Vec<String> = m.iter().map(|x| (1i64 << x.0).to_string()).collect();
        let d: Vec<String> = m.iter().map(|x| x.1.to_string()).collect();
        format!("(({}),{}):(({}),{})", s.join(","), 2, d.join(","), 128)
    })
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(300))]

    #[test]
    fn apply_is_xor_linear(l in ll(), a in 0u64..64, b in 0u64..64) {
        let m = all_inputs(&l) - 1;
        prop_assert_eq!(l.apply_flat((a ^ b) & m), l.apply_flat(a & m) ^ l.apply_flat(b & m));
    }

    #[test]
    fn text_and_parse_round_trip(l in ll()) {
        let t = l.to_string();
        prop_assert_eq!(LinearLayout::parse(&t).unwrap(), l.clone());
        let j = l.to_json();
        prop_assert!(j.starts_with(r#"{"in_dims":["#), "{}", j);
    }

    #[test]
    fn compose_is_function_composition(l in ll(), f in bijection(3)) {
        // l: (register, lane) -> (dim0, dim1); flatten its outputs into `offset` and compose with f.
        let n = l.total_out_bits();
        let flat = l.flatten_outs().reshape_outs(&[("offset", 1 << n)]).unwrap();
        prop_assume!(n <= 3);
        if n == 3 {
            let c = flat.compose(&f).unwrap();
            for x in 0..all_inputs(&l) {
                prop_assert_eq!(c.apply_flat(x), f.apply_flat(flat.apply_flat(x)));
            }
        }
    }

    #[test]
    fn injective_surjective_match_enumeration(l in ll()) {
        let n = all_inputs(&l);
        let image: std::collections::BTreeSet<u64> = (0..n).map(|x| l.apply_flat(x)).collect();
        prop_assert_eq!(l.is_injective(), image.len() as u64 == n);
        prop_assert_eq!(l.is_surjective(), image.len() as u64 == 1u64 << l.total_out_bits());
    }

    #[test]
    fn invert_is_inverse(f in bijection(5)) {
        let g = f.invert().unwrap();
        for x in 0..32 {
            prop_assert_eq!(g.apply_flat(f.apply_flat(x)), x);
            prop_assert_eq!(f.apply_flat(g.apply_flat(x)), x);
        }
    }

    #[test]
    fn invert_and_compose_solves((a, b) in pair()) {
        match a.invert_and_compose(&b) {
            Ok(c) => {
                for x in 0..all_inputs(&a) {
                    prop_assert_eq!(b.apply_flat(c.apply_flat(x)), a.apply_flat(x));
                }
            }
            Err(e) if e.code() == "linear_dim_mismatch" => {
                prop_assert!(a.out_dim_size("dim0") != b.out_dim_size("dim0") || a.out_dim_size("dim1") != b.out_dim_size("dim1"));
            }
            Err(e) => {
                // Then some value of A is outside B's image.
                let img: std::collections::BTreeSet<u64> = (0..all_inputs(&b)).map(|y| b.apply_flat(y)).collect();
                prop_assert!((0..all_inputs(&a)).any(|x| !img.contains(&a.apply_flat(x))), "{}", e);
            }
        }
    }

    #[test]
    fn pseudo_invert_is_right_inverse(l in ll()) {
        if let Ok(p) = l.pseudo_invert() {
            for y in 0..1u64 << l.total_out_bits() {
                prop_assert_eq!(l.apply_flat(p.apply_flat(y)), y);
            }
        } else {
            prop_assert!(!l.is_surjective());
        }
    }

    #[test]
    fn reshape_transpose_keep_function(l in ll()) {
        let n = l.total_in_bits();
        let r = l.reshape_ins(&[("a", 1 << (n / 2)), ("b", 1 << (n - n / 2))]).unwrap();
        let f = l.flatten_ins();
        let t = l.transpose_outs(&["dim1", "dim0"]).unwrap();
        for x in 0..all_inputs(&l) {
            prop_assert_eq!(r.apply_flat(x), l.apply_flat(x));
            prop_assert_eq!(f.apply_flat(x), l.apply_flat(x));
        }
        prop_assert!(t.equivalent(&l));
        let named = l.apply(&[("register", 1), ("lane", 0)]);
        if l.in_dim_size("register").unwrap() > 1 {
            let mut tn = t.apply(&[("register", 1), ("lane", 0)]).unwrap();
            tn.sort();
            let mut ln = named.unwrap();
            ln.sort();
            prop_assert_eq!(tn, ln);
        }
    }

    #[test]
    fn product_of_disjoint_dims(a in bijection(2), b in ll()) {
        // a: offset -> offset; b: (register, lane) -> (dim0, dim1): disjoint names.
        let p = a.product(&b).unwrap();
        for x in 0..4u64 {
            for y in 0..all_inputs(&b) {
                let got = p.apply_flat(x | y << 2);
                // outputs: offset (2 bits) then dim0, dim1
                prop_assert_eq!(got, a.apply_flat(x) | b.apply_flat(y) << 2);
            }
        }
    }

    #[test]
    fn cute_layout_round_trip(text in pow2_layout()) {
        let l: Layout = text.parse().unwrap();
        let size = l.size().unwrap();
        match LinearLayout::from_layout(&l) {
            Ok(ll) => {
                for x in 0..size {
                    prop_assert_eq!(ll.apply_flat(x as u64) as i64, l.eval(x).unwrap());
                }
                let back = ll.to_layout().unwrap();
                for x in 0..size {
                    prop_assert_eq!(back.eval(x).unwrap(), l.eval(x).unwrap());
                }
                prop_assert!(LinearLayout::from_layout(&back).unwrap().equivalent(&ll));
            }
            Err(e) => {
                // Not linear: some pair of inputs whose values do not XOR.
                let witness = (0..size).any(|a| (0..size).any(|b| {
                    a & b == 0 && l.eval(a | b).unwrap() != l.eval(a).unwrap() ^ l.eval(b).unwrap()
                }));
                prop_assert!(witness, "{}", e);
                for s in e.suggestions() {
                    prop_assert!(LinearLayout::from_layout(&s.parse().unwrap()).is_ok(), "{}", s);
                }
            }
        }
    }

    #[test]
    fn swizzled_round_trip(b in 1u32..4, m in 0u32..4, s in 1u32..5, rows in 3u32..6) {
        prop_assume!(s >= b);
        let n = rows + 6;
        prop_assume!(m + b + s <= n);
        let base: Layout = format!("({},64):(64,1)", 1 << rows).parse().unwrap();
        let sw = LinearLayout::from_swizzle(b, m, s, n).unwrap();
        let ll = LinearLayout::from_layout(&base).unwrap().compose(&sw).unwrap();
        let (sw2, plain) = ll.to_swizzled_layout().unwrap();
        for x in 0..1u64 << n {
            let y = sw2.apply(plain.eval(x as i64).unwrap()) as u64;
            prop_assert_eq!(y, ll.apply_flat(x));
            // CuTe's formula.
            let o = base.eval(x as i64).unwrap() as u64;
            prop_assert_eq!(ll.apply_flat(x), o ^ ((o >> s) & (((1 << b) - 1) << m)));
        }
    }
}

#[test]
fn triton_style_printing_and_json() {
    let l = LinearLayout::new(
        &[
            ("register", vec![vec![0, 1], vec![0, 2]]),
            (
                "lane",
                vec![vec![1, 0], vec![2, 0], vec![4, 0], vec![8, 0], vec![0, 4]],
            ),
        ],
        &[("dim0", 16), ("dim1", 8)],
    )
    .unwrap();
    assert_eq!(
        l.to_string(),
        "register = [[0, 1], [0, 2]], lane = [[1, 0], [2, 0], [4, 0], [8, 0], [0, 4]] -> dim0 = 16, dim1 = 8"
    );
    assert_eq!(
        l.to_json(),
        r#"{"in_dims":[{"name":"register","bases":[[0,1],[0,2]]},{"name":"lane","bases":[[1,0],[2,0],[4,0],[8,0],[0,4]]}],"out_dims":[{"name":"dim0","size":16},{"name":"dim1","size":8}]}"#
    );
    assert!(l.is_invertible());
    // Errors name the obligation.
    assert_eq!(
        LinearLayout::new(&[("a", vec![vec![3]])], &[("x", 3)])
            .unwrap_err()
            .code(),
        "linear_not_power_of_two"
    );
    assert_eq!(
        LinearLayout::new(&[("a", vec![vec![4]])], &[("x", 4)])
            .unwrap_err()
            .code(),
        "linear_basis_out_of_range"
    );
    let e = LinearLayout::from_layout(&"(4,2):(3,16)".parse().unwrap()).unwrap_err();
    assert_eq!(
        e.to_string(),
        "(4,2):(3,16) is not F2-linear: mode 0 (shape 4, stride 3) bit 1 contributes 6, which shares bit 1 of the index with 3 (mode 0, bit 0)"
    );
    assert!(e.suggestions().contains(&"(4,2):(4,16)".to_string()));
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(200))]

    /// Issue 11's composed layouts `Sw<B,M,S> o 0 o L` (either sign of S) convert exactly, and
    /// back to a CuTe form that evaluates the same.
    #[test]
    fn composed_layout_round_trip(b in 1i64..4, m in 0i64..4, s in 1i64..5, neg in any::<bool>(), rows in 3u32..6) {
        use tessera::layout::{AnyLayout, ComposedLayout, Swizzle};
        prop_assume!(s >= b);
        let s = if neg { -s } else { s };
        let base: Layout = format!("({},64):(64,1)", 1 << rows).parse().unwrap();
        let sw = Swizzle::new(b, m, s).unwrap();
        let c = AnyLayout::Composed(Box::new(ComposedLayout::new(sw.into(), 0, base.clone().into())));
        let ll = LinearLayout::from_any_layout(&c).unwrap();
        for x in 0..(64i64 << rows) {
            prop_assert_eq!(ll.apply_flat(x as u64) as i64, c.eval(x).unwrap());
        }
        let back = ll.to_any_layout().unwrap();
        for x in 0..(64i64 << rows) {
            prop_assert_eq!(back.eval(x).unwrap(), c.eval(x).unwrap());
        }
    }
}

#[test]
fn composed_layout_with_offset_is_affine() {
    let c: tessera::layout::AnyLayout = "Sw<3,3,3> o 8 o (64,64):(64,1)".parse().unwrap();
    let e = LinearLayout::from_any_layout(&c).unwrap_err();
    assert_eq!(e.code(), "linear_no_cute_form");
    assert!(e.to_string().contains("affine"));
}
