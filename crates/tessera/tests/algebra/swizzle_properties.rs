//! Property tests of swizzles and composed layouts: the postconditions of every operation in
//! `tessera::algebra::swizzled` on random inputs, and exhaustive checks over small swizzles.

use proptest::prelude::*;
use std::collections::HashSet;
use tessera::algebra::swizzled::{self, Rhs};
use tessera::algebra::{self, Tiler};
use tessera::layout::{AnyLayout, ComposedLayout, IntTuple, Layout, Swizzle};

fn arb_swizzle() -> impl Strategy<Value = Swizzle> {
    (0i64..4, 0i64..5, 0i64..5, any::<bool>()).prop_filter_map("|S| >= B", |(b, m, s, neg)| {
        let s = if neg { -s } else { s };
        Swizzle::new(b, m, s).ok()
    })
}

/// A rank-2 row- or column-major layout with power-of-two extents (the shape of a smem tile).
fn arb_tile() -> impl Strategy<Value = Layout> {
    (1u32..6, 1u32..7, any::<bool>()).prop_map(|(r, c, row)| {
        let (r, c) = (1i64 << r, 1i64 << c);
        let d = if row { [c, 1] } else { [1, r] };
        Layout::new(&IntTuple::flat([r, c]), &IntTuple::flat(d)).unwrap()
    })
}

fn arb_composed() -> impl Strategy<Value = AnyLayout> {
    (arb_swizzle(), arb_tile(), prop_oneof![Just(0i64), 0i64..64])
        .prop_map(|(s, l, off)| ComposedLayout::new(s.into(), off, l.into()).into())
}

fn size(f: &AnyLayout) -> i64 {
    f.size().unwrap()
}

fn ev(f: &AnyLayout, i: i64) -> i64 {
    f.eval(i).unwrap()
}

#[test]
fn every_small_swizzle_is_a_bijection_and_its_own_inverse() {
    let mut n = 0;
    for b in 0..4 {
        for m in 0..5 {
            for s in -6i64..=6 {
                let Ok(sw) = Swizzle::new(b, m, s) else {
                    assert!(s.abs() < b, "Sw<{b},{m},{s}> must be accepted");
                    continue;
                };
                let span = sw.span();
                let img: HashSet<i64> = (0..span).map(|x| sw.apply(x)).collect();
                assert_eq!(img.len() as i64, span, "{sw} is a bijection of [0, {span})");
                assert!(img.iter().all(|&y| (0..span).contains(&y)));
                assert!(
                    (0..span).all(|x| sw.apply(sw.apply(x)) == x),
                    "{sw} is an involution"
                );
                n += 1;
            }
        }
    }
    assert!(n > 100);
}

#[test]
fn bad_swizzle_parameters_are_typed_errors() {
    for (b, m, s) in [
        (3, 4, 2),
        (-1, 0, 1),
        (1, -1, 1),
        (40, 20, 40),
        (1, 0, i64::MIN),
    ] {
        let e = Swizzle::new(b, m, s).unwrap_err();
        assert_eq!(e.code(), "invalid_swizzle", "Sw<{b},{m},{s}>");
    }
}

proptest! {
    #![proptest_config(ProptestConfig { cases: 300, ..ProptestConfig::default() })]

    #[test]
    fn composed_layout_is_outer_of_offset_plus_inner(f in arb_composed()) {
        let AnyLayout::Composed(c) = &f else { unreachable!() };
        let l = c.inner.layout().unwrap();
        for i in 0..size(&f) {
            let want = c.outer.eval(c.offset + l.eval(i).unwrap()).unwrap();
            prop_assert_eq!(ev(&f, i), want);
            let crd = tessera::layout::idx2crd(i, &l.shape()).unwrap();
            prop_assert_eq!(f.crd2idx(&crd).unwrap(), want);
        }
    }

    #[test]
    fn composition_with_a_layout_tiler(f in arb_composed(), k in 0u32..4) {
        let n = size(&f);
        let b = Layout::mode((n >> k).max(1), 1 << k).unwrap();
        let r = swizzled::composition(&f, &Rhs::Tiler(Tiler::Layout(b.clone()))).unwrap();
        prop_assert_eq!(size(&r), b.size().unwrap());
        for i in 0..b.size().unwrap() {
            prop_assert_eq!(ev(&r, i), ev(&f, b.eval(i).unwrap()));
        }
    }

    #[test]
    fn layout_after_swizzle_is_correct_or_a_chain(l in arb_tile(), s in arb_swizzle()) {
        let a = AnyLayout::Plain(l.clone());
        let r = swizzled::composition(&a, &Rhs::Func(s.into())).unwrap();
        for i in 0..l.size().unwrap() {
            prop_assert_eq!(ev(&r, i), l.eval(s.apply(i)).unwrap());
        }
    }

    #[test]
    fn swizzle_after_swizzle(a in arb_swizzle(), b in arb_swizzle()) {
        let r = swizzled::composition(&a.into(), &Rhs::Func(b.into())).unwrap();
        for x in 0..(1 << 12) {
            prop_assert_eq!(ev(&r, x), a.apply(b.apply(x)));
        }
    }

    #[test]
    fn divides_and_products_keep_outer_and_offset(f in arb_composed()) {
        let l = f.layout().unwrap().clone();
        let t = Tiler::Tuple(vec![Tiler::Int(2), Tiler::Int(2)]);
        for (name, r) in [
            ("logical_divide", swizzled::by_inner(&f, "d", &|x| algebra::logical_divide(x, &t))),
            ("zipped_divide", swizzled::by_inner(&f, "d", &|x| algebra::zipped_divide(x, &t))),
            ("logical_product", swizzled::by_inner(&f, "p", &|x| algebra::logical_product(x, &t))),
        ] {
            let r = r.unwrap();
            let inner = match name {
                "logical_divide" => algebra::logical_divide(&l, &t).unwrap(),
                "zipped_divide" => algebra::zipped_divide(&l, &t).unwrap(),
                _ => algebra::logical_product(&l, &t).unwrap(),
            };
            let AnyLayout::Composed(c) = &f else { unreachable!() };
            for i in 0..inner.size().unwrap() {
                let want = c.outer.eval(c.offset + inner.eval(i).unwrap()).unwrap();
                prop_assert_eq!(ev(&r, i), want, "{}", name);
            }
            if name != "logical_product" {
                // A divide permutes the domain: the same multiset of values.
                let mut x: Vec<i64> = (0..size(&f)).map(|i| ev(&f, i)).collect();
                let mut y: Vec<i64> = (0..size(&r)).map(|i| ev(&r, i)).collect();
                x.sort_unstable();
                y.sort_unstable();
                prop_assert_eq!(x, y);
            }
        }
    }

    #[test]
    fn inverses_invert(f in arb_composed()) {
        let n = size(&f);
        if let Ok(r) = swizzled::right_inverse(&f) {
            // R = inv(L) ∘ −off ∘ Sw inverts f on f's image (which is [0, n) when off = 0).
            for i in 0..n {
                let y = ev(&f, i);
                prop_assert_eq!(ev(&f, ev(&r, y)), y, "right inverse {}", r);
            }
        }
        if let Ok(r) = swizzled::left_inverse(&f) {
            for i in 0..n {
                prop_assert_eq!(ev(&r, ev(&f, i)), i, "left inverse {}", r);
            }
        }
    }

    #[test]
    fn slice_is_the_function_minus_a_constant(f in arb_composed(), row in 0i64..32, col in any::<bool>()) {
        let l = f.layout().unwrap().clone();
        let (r0, c0) = (l.mode_at(0).unwrap().size().unwrap(), l.mode_at(1).unwrap().size().unwrap());
        let c = if col {
            tessera::notation::parse_slice_coord(&format!("(_,{})", row % c0)).unwrap()
        } else {
            tessera::notation::parse_slice_coord(&format!("({},_)", row % r0)).unwrap()
        };
        let (r, k) = swizzled::slice_and_offset(&c, &f).unwrap();
        for i in 0..size(&r) {
            let full = if col { IntTuple::flat([i, row % c0]) } else { IntTuple::flat([row % r0, i]) };
            prop_assert_eq!(ev(&r, i) + k, f.crd2idx(&full).unwrap());
        }
    }

    #[test]
    fn recast_moves_the_swizzle_base(s in arb_swizzle(), l in arb_tile()) {
        prop_assume!(s.base() >= 1);
        let f: AnyLayout = ComposedLayout::new(s.into(), 0, l.into()).into();
        let d = swizzled::recast(&f, 2, false).unwrap();
        let u = swizzled::recast(&d, 2, true).unwrap();
        prop_assert_eq!(u.to_string(), f.to_string());
    }

    #[test]
    fn max_common_vector_is_contiguous_in_both(f in arb_composed()) {
        let AnyLayout::Composed(c) = &f else { unreachable!() };
        prop_assume!(c.offset == 0);
        let l = AnyLayout::Plain(c.inner.layout().unwrap().clone());
        let v = swizzled::max_common_vector(&f, &l).unwrap();
        let r = swizzled::max_common_layout(&f, &l).unwrap();
        prop_assert_eq!(size(&r), v);
        // The common vector: both map R(i) to i, so a copy of v elements is contiguous in both.
        for i in 0..v {
            prop_assert_eq!(ev(&f, ev(&r, i)), i);
            prop_assert_eq!(ev(&l, ev(&r, i)), i);
        }
    }

    #[test]
    fn parse_print_round_trip(f in arb_composed()) {
        let text = f.to_string();
        let back: AnyLayout = text.parse().unwrap();
        prop_assert_eq!(&back, &f);
        let py = tessera::notation::pycute_any(&f);
        let back: AnyLayout = py.parse().unwrap();
        prop_assert_eq!(back, f);
    }
}
