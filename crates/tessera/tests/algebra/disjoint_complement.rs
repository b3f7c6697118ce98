//! What the Python package's `apply_many` and `tessera.pycute.complement` rely on:
//! `complement_disjoint` (pycute's complement of a layout with no tiling complement) against an
//! independent construction and a brute-force check of its postcondition, `complement_exact_into`
//! against `complement_exact`, and `Layout::from_profile` as the inverse of
//! `(tree().profile(), tree().leaf_slice())`.

use crate::common;

use std::collections::HashSet;

use common::{arb_layout, eval, image, nested, size};
use proptest::prelude::*;
use tessera::algebra::complement::{complement_disjoint, complement_exact, complement_exact_into};
use tessera::layout::{IntTuple, Mode};
use tessera::Layout;

/// pycute's complement, built independently from the math: the filtered modes (size > 1,
/// stride ≠ 0) sorted by stride, each gap below a stride a mode, the rest up to the cotarget's
/// size a last mode; `None` when a stride is negative.
fn reference_candidate(a: &Layout, total: i64) -> Option<Vec<(i64, i64)>> {
    let mut f: Vec<(i64, i64)> = a
        .leaves()
        .map(|m| (m.shape, m.stride))
        .filter(|&(s, d)| s > 1 && d != 0)
        .collect();
    if f.iter().any(|&(_, d)| d < 0) {
        return None;
    }
    f.sort_by_key(|&(s, d)| (d, s));
    let mut modes = Vec::new();
    let mut cur = 1i64;
    for (s, d) in f {
        modes.push(((d / cur).max(1), cur));
        cur = (s * d).max(cur);
    }
    modes.push((((total + cur - 1) / cur).max(1), cur));
    Some(modes)
}

/// `true` when the flat layout `modes` is strictly increasing over its domain and meets A's
/// image only at 0 (by enumeration).
fn ordered_and_disjoint(a: &Layout, modes: &[(i64, i64)]) -> bool {
    let shapes: Vec<i64> = modes.iter().map(|m| m.0).collect();
    let strides: Vec<i64> = modes.iter().map(|m| m.1).collect();
    let r = nested(&shapes, &strides, &vec![1; modes.len()]);
    let img: HashSet<i64> = image(a).into_iter().collect();
    let vals = image(&r);
    vals.windows(2).all(|w| w[0] < w[1]) && vals.iter().skip(1).all(|v| !img.contains(v))
}

prop_compose! {
    /// A flat or nested layout with any small strides (most have no tiling complement).
    fn arb_any_layout()(
        modes in prop::collection::vec((1i64..=6, 0i64..=40), 1..=4),
        nest in any::<bool>(),
    ) -> Layout {
        let shapes: Vec<i64> = modes.iter().map(|m| m.0).collect();
        let strides: Vec<i64> = modes.iter().map(|m| m.1).collect();
        let groups = if nest && modes.len() > 1 { vec![2].into_iter().chain(vec![1; modes.len() - 2]).collect() } else { vec![1; modes.len()] };
        nested(&shapes, &strides, &groups)
    }
}

fn check_disjoint(a: &Layout, total: i64) -> Result<(), TestCaseError> {
    let ct = IntTuple::leaf(total);
    let got = complement_disjoint(a, &ct);
    match complement_exact(a, &ct) {
        // The tiling complement when there is one.
        Ok(exact) => {
            prop_assert_eq!(got.map(|r| r.to_string()).ok(), Some(exact.to_string()));
            return Ok(());
        }
        // Any other failure than "no tiling complement" is complement_disjoint's too.
        Err(e) if e.code() != "not_complementable" => {
            prop_assert_eq!(got.err().map(|g| g.code()), Some(e.code()));
            return Ok(());
        }
        Err(_) => {}
    }
    let expected = reference_candidate(a, total).filter(|m| ordered_and_disjoint(a, m));
    match (got, expected) {
        (Ok(r), Some(m)) => {
            // The same function as the reference candidate (the library coalesces it).
            let shapes: Vec<i64> = m.iter().map(|x| x.0).collect();
            let strides: Vec<i64> = m.iter().map(|x| x.1).collect();
            let reference = nested(&shapes, &strides, &vec![1; m.len()]);
            prop_assert_eq!(size(&r), size(&reference));
            prop_assert_eq!(image(&r), image(&reference), "{} against {}", r, reference);
        }
        (Err(e), None) => prop_assert!(
            ["not_complementable", "non_injective"].contains(&e.code()),
            "{}",
            e
        ),
        (got, expected) => prop_assert!(
            false,
            "complement_disjoint({a}, {total}) = {got:?}, reference {expected:?}"
        ),
    }
    Ok(())
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(600))]

    #[test]
    fn disjoint_complement_matches_the_reference(a in arb_any_layout(), total in 1i64..=300) {
        check_disjoint(&a, total)?;
    }

    #[test]
    fn disjoint_complement_of_cute_style_layouts(a in arb_layout(4), total in 1i64..=600) {
        check_disjoint(&a, total)?;
    }

    #[test]
    fn exact_into_is_exact(a in arb_any_layout(), total in 1i64..=300, prev in arb_layout(4)) {
        let ct = IntTuple::leaf(total);
        let mut out = prev;
        let into = complement_exact_into(&a, &ct, &mut out).map(|()| out.to_string());
        let by_value = complement_exact(&a, &ct).map(|r| r.to_string());
        match (&into, &by_value) {
            (Ok(x), Ok(y)) => prop_assert_eq!(x, y),
            (Err(x), Err(y)) => {
                prop_assert_eq!(x.code(), y.code());
                prop_assert_eq!(out.to_string(), "1:0");
            }
            _ => prop_assert!(false, "{:?} against {:?}", into, by_value),
        }
    }

    #[test]
    fn from_profile_inverts_profile_and_leaves(a in arb_layout(6)) {
        let t = a.tree();
        let b = Layout::from_profile(t.profile(), t.leaf_slice()).unwrap();
        prop_assert_eq!(&b, &a);
        prop_assert_eq!(b.to_string(), a.to_string());
        for i in 0..size(&a).min(64) {
            prop_assert_eq!(b.eval(i).unwrap(), eval(&a, i));
        }
    }

    #[test]
    fn from_profile_rejects_what_is_not_one_tree(
        toks in prop::collection::vec(0u32..5, 0..8),
        n in 0usize..6,
    ) {
        let leaves = vec![Mode::new(2, 1); n];
        // One complete pre-order tree of exactly `n` leaves, or an error (never a panic).
        let mut pending = 1i64;
        let mut ok = true;
        let mut count = 0;
        for &t in &toks {
            if pending == 0 {
                ok = false;
            }
            pending -= 1;
            if t == 0 { count += 1 } else { pending += t as i64 - 1 }
        }
        let expect = ok && pending == 0 && count == n;
        match Layout::from_profile(&toks, &leaves) {
            Ok(l) => {
                prop_assert!(expect);
                prop_assert_eq!(l.tree().profile(), &toks[..]);
                prop_assert_eq!(l.tree().leaf_slice(), &leaves[..]);
            }
            Err(e) => {
                prop_assert!(!expect, "{} rejected: {}", format!("{toks:?}"), e);
                prop_assert_eq!(e.code(), "not_congruent");
            }
        }
    }
}

#[test]
fn from_profile_rejects_a_non_positive_shape() {
    let e = Layout::from_profile(&[0], &[Mode::new(0, 1)]).unwrap_err();
    assert_eq!(e.code(), "non_positive_shape");
}

/// The corpus's one complement with no tiling complement: pycute's answer, checked disjoint
/// without building A's image (4,096 values).
#[test]
fn disjoint_complement_of_a_skewed_layout() {
    let a: Layout = "(64,64):(1,65)".parse().unwrap();
    let r = complement_disjoint(&a, &IntTuple::leaf(16384)).unwrap();
    assert_eq!(r.to_string(), "4:4160");
    // (2,2):(1,3) has the image {0,1,3,4}; pycute's candidate for 8, 3:2 (values 0,2,4), meets
    // it at 4: no disjoint complement.
    let b: Layout = "(2,2):(1,3)".parse().unwrap();
    assert_eq!(
        reference_candidate(&b, 8),
        Some(vec![(1, 1), (1, 2), (2, 6)])
    );
    let got = complement_disjoint(&b, &IntTuple::leaf(8));
    let expected = reference_candidate(&b, 8).filter(|m| ordered_and_disjoint(&b, m));
    assert_eq!(got.is_ok(), expected.is_some(), "{got:?}");
}
