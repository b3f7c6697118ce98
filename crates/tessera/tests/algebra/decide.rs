//! The closed-form decisions agree with enumeration of the domain.

use crate::common;

use common::{arb_layout, nested};
use proptest::prelude::*;
use tessera::algebra::{self, decide};
use tessera::Layout;

prop_compose! {
    /// Arbitrary strides (negative, zero, non-chain) on small shapes.
    fn arb_wild(max_rank: usize)(
        modes in prop::collection::vec((1i64..=5, -7i64..=13), 1..=max_rank),
        cuts in any::<u8>(),
    ) -> Layout {
        let (s, d): (Vec<i64>, Vec<i64>) = modes.into_iter().unzip();
        let n = s.len();
        let groups = if cuts % 2 == 0 { vec![n] } else { vec![1; n] };
        nested(&s, &d, &groups)
    }
}

fn check_injective(l: &Layout) {
    let d = decide::is_injective(l).unwrap();
    assert_eq!(d.holds, decide::injective_by_enumeration(l).unwrap(), "{l}");
}

fn check_bijection(l: &Layout) {
    let size = l.size().unwrap();
    for m in [size, size + 1, l.cosize().unwrap()] {
        assert_eq!(
            decide::is_bijection_onto(l, m).unwrap(),
            decide::bijection_by_enumeration(l, m).unwrap(),
            "{l} onto [0,{m})"
        );
    }
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(2000))]

    #[test]
    fn injective_agrees_with_enumeration(l in arb_layout(5)) {
        check_injective(&l);
    }

    #[test]
    fn injective_agrees_on_wild_strides(l in arb_wild(4)) {
        check_injective(&l);
    }

    #[test]
    fn bijection_agrees_with_enumeration(l in arb_layout(5)) {
        check_bijection(&l);
    }

    #[test]
    fn bijection_agrees_on_wild_strides(l in arb_wild(4)) {
        check_bijection(&l);
    }

    #[test]
    fn admissible_agrees_with_composition(a in arb_layout(4), b in arb_wild(3)) {
        match (decide::is_admissible(&a, &b), algebra::composition(&a, &b)) {
            (Ok(d), Ok(_)) => prop_assert!(d.holds, "{} o {}", a, b),
            (Ok(d), Err(e)) => prop_assert!(!d.holds, "{} o {}: {}", a, b, e.code()),
            (Err(e), r) => prop_assert!(r.is_err(), "{} o {}: {}", a, b, e.code()),
        }
    }
}

#[test]
fn chain_layouts_are_decided_in_closed_form() {
    for text in [
        "((4,8),(2,2,2)):((32,1),(16,8,128))",
        "((4,8,4),(2,2,32)):((128,1,16),(64,8,512))",
        "(64,64):(1,65)",
        "(4,2):(1,2)",
        "(2,2):(1,1)",
        "((1024,1024),(1024,1024)):((1,1048576),(1099511627776,1073741824))",
    ] {
        let l: Layout = text.parse().unwrap();
        let d = decide::is_injective(&l).unwrap();
        assert!(!d.by_enumeration, "{text}");
        if l.size().unwrap() <= 1 << 20 {
            assert_eq!(d.holds, decide::injective_by_enumeration(&l).unwrap());
        }
    }
    // Not a chain and not super-increasing: injective, found by enumeration.
    let l: Layout = "(3,3):(2,3)".parse().unwrap();
    let d = decide::is_injective(&l).unwrap();
    assert!(d.holds && d.by_enumeration);
}

#[test]
fn huge_layouts_are_decided() {
    let l: Layout = "((1024,1024),(1024,1024)):((1048576,1),(1073741824,1024))"
        .parse()
        .unwrap();
    assert!(decide::is_bijection_onto(&l, 1 << 40).unwrap());
    assert!(decide::is_injective(&l).unwrap().holds);
    let bad: Layout = "((1024,1024),(1024,1024)):((1048576,1),(1073741824,1023))"
        .parse()
        .unwrap();
    assert!(!decide::is_bijection_onto(&bad, 1 << 40).unwrap());
    assert!(!decide::is_injective(&bad).unwrap().holds);
}
