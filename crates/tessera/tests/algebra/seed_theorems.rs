//! Exhaustive checks of the seeds' theorems over every small flat layout. They stand in for the
//! proofs (the machine-checked ones are in `proofs/`).
//!
//! Bounds: rank ≤ 2 with shapes 1..=8 and strides 0..=64; rank 3 with shapes 1..=4 and strides
//! 0..=16.

use crate::common;

use common::tractable_modes;
use tessera::algebra;
use tessera::layout::IntTuple;
use tessera::Layout;

/// Evaluation of a flat layout (independent of the library): mixed radix, last mode unbounded.
fn eval(modes: &[(i64, i64)], i: i64) -> i64 {
    let mut rest = i;
    let mut acc = 0;
    for (k, &(s, d)) in modes.iter().enumerate() {
        let digit = if k + 1 == modes.len() { rest } else { rest % s };
        rest /= s;
        acc += digit * d;
    }
    acc
}

fn modes_of(l: &Layout) -> Vec<(i64, i64)> {
    l.leaves().map(|m| (m.shape, m.stride)).collect()
}

fn make(modes: &[(i64, i64)]) -> Layout {
    Layout::new(
        &IntTuple::flat(modes.iter().map(|m| m.0)),
        &IntTuple::flat(modes.iter().map(|m| m.1)),
    )
    .unwrap()
}

/// Calls `f` on every flat layout within the bounds.
fn for_each_small_layout(mut f: impl FnMut(&[(i64, i64)])) {
    for s0 in 1..=8 {
        for d0 in 0..=64 {
            f(&[(s0, d0)]);
            for s1 in 1..=8 {
                for d1 in 0..=64 {
                    f(&[(s0, d0), (s1, d1)]);
                }
            }
        }
    }
    for s0 in 1..=4 {
        for s1 in 1..=4 {
            for s2 in 1..=4 {
                for d0 in 0..=16 {
                    for d1 in 0..=16 {
                        for d2 in 0..=16 {
                            f(&[(s0, d0), (s1, d1), (s2, d2)]);
                        }
                    }
                }
            }
        }
    }
}

/// Coalescence as normalization (ARCHITECTURE.md, glossary): `tryCoalesce` terminates (each rewrite removes one mode), every rewrite preserves the
/// function on the domain, and the normal form is CuTe's `coalesce`, which is idempotent.
#[test]
fn coalesce_terminates_and_preserves_the_function() {
    let mut count = 0;
    for_each_small_layout(|m| {
        count += 1;
        let l = make(m);
        let size: i64 = m.iter().map(|x| x.0).product();
        let (r, trace) = algebra::coalesce_trace(&l).unwrap();
        assert!(trace.len() < m.len().max(1), "{l}: {} steps", trace.len());
        for step in &trace {
            assert_eq!(step.after.rank() + 1, step.before.rank());
            let (b, a) = (modes_of(&step.before), modes_of(&step.after));
            for i in 0..size {
                assert_eq!(eval(&a, i), eval(&b, i), "{l}: step {:?}", step.rule);
            }
        }
        let c = algebra::coalesce(&l).unwrap();
        assert_eq!(r, c, "{l}: trace normal form differs from coalesce");
        let cm = modes_of(&c);
        for i in 0..size {
            assert_eq!(eval(&cm, i), eval(m, i), "{l} -> {c} at {i}");
        }
        assert_eq!(algebra::coalesce(&c).unwrap(), c);
    });
    assert!(count > 500_000);
}

/// Packed Merge Soundness (`packedMerge_sound`; ARCHITECTURE.md, glossary): when `M1·d1 = d2`,
/// `eval [(M1,d1),(M2,d2)] [x1,x2] = eval [(M1·M2, d1)] [x1 + x2·M1]`.
#[test]
fn packed_merge_is_sound() {
    for m1 in 1..=8i64 {
        for m2 in 1..=8i64 {
            for d1 in 0..=64i64 {
                let d2 = m1 * d1;
                for x1 in 0..m1 {
                    for x2 in 0..m2 {
                        let lhs = x1 * d1 + x2 * d2;
                        let rhs = eval(&[(m1 * m2, d1)], x1 + x2 * m1);
                        assert_eq!(lhs, rhs);
                    }
                }
                if m1 > 1 && m2 > 1 {
                    let c = algebra::coalesce(&make(&[(m1, d1), (m2, d2)])).unwrap();
                    assert_eq!(modes_of(&c), vec![(m1 * m2, d1)]);
                }
            }
        }
    }
}

/// The Complementation theorem (ARCHITECTURE.md, glossary): the complement tiles without overlap. For every small layout and three cotargets,
/// `complement_exact` succeeds exactly on the tractable layouts, and then `(filter(A), R)` is a
/// bijection onto `[0, n)` with `n ≥ M`, and R is ordered.
#[test]
fn complement_tiles_without_overlap() {
    let mut checked = 0;
    for_each_small_layout(|m| {
        let a = make(m);
        let f = algebra::filter(&a).unwrap();
        let fc = f.cosize().unwrap();
        for cot in [fc, 2 * fc, fc + 3] {
            match algebra::complement_exact(&a, &IntTuple::leaf(cot)) {
                Ok(r) => {
                    assert!(
                        tractable_modes(m),
                        "complement({a}) = {r} but {a} is not tractable"
                    );
                    let rm = modes_of(&r);
                    let rs: i64 = rm.iter().map(|x| x.0).product();
                    assert!(
                        (1..rs).all(|i| eval(&rm, i - 1) < eval(&rm, i)),
                        "{r} not ordered"
                    );
                    let mut all = modes_of(&f);
                    all.extend(rm);
                    let n: i64 = all.iter().map(|x| x.0).product();
                    assert!(n >= cot, "({f},{r}) has {n} points < {cot}");
                    let mut seen = vec![false; n as usize];
                    for i in 0..n {
                        let v = eval(&all, i);
                        assert!(
                            (0..n).contains(&v) && !seen[v as usize],
                            "({f},{r}) is not a bijection onto [0,{n})"
                        );
                        seen[v as usize] = true;
                    }
                    checked += 1;
                }
                Err(e) => {
                    assert!(!tractable_modes(m), "complement({a}, {cot}) failed: {e}");
                }
            }
        }
    });
    assert!(checked > 100_000);
}

/// CuTe's complement where no tiling exists: for every small layout and three cotargets,
/// `complement` answers every tractable layout without a note; on the others it either refuses
/// (`non_injective`, or `not_complementable` where CuTe's quotient is 0) or answers with a
/// `complement_holes` note, and then R meets CuTe's postconditions (ordered, disjoint from A
/// except at 0, `cosize((A,R)) ≥ M`) while `(A, R)` is
/// injective but not onto `[0, cosize((A,R)))`, missing the note's hole first.
#[test]
fn complement_follows_cute_where_no_tiling_exists() {
    let (mut holes, mut refused) = (0, 0);
    for_each_small_layout(|m| {
        let a = make(m);
        let f = algebra::filter(&a).unwrap();
        let fc = f.cosize().unwrap();
        let cosize = |ms: &[(i64, i64)]| ms.iter().map(|x| (x.0 - 1) * x.1.abs()).sum::<i64>() + 1;
        for cot in [fc, 2 * fc, fc + 3] {
            let Ok((r, note)) = algebra::complement_with_note(&a, &IntTuple::leaf(cot)) else {
                assert!(!tractable_modes(m), "complement({a}, {cot}) failed");
                refused += 1;
                continue;
            };
            assert_eq!(
                note.is_some(),
                !tractable_modes(m),
                "complement({a}, {cot}) = {r}"
            );
            let Some(note) = note else { continue };
            holes += 1;
            let rm = modes_of(&r);
            let rs: i64 = rm.iter().map(|x| x.0).product();
            let img: Vec<i64> = (0..rs).map(|i| eval(&rm, i)).collect();
            assert!(img.windows(2).all(|w| w[0] < w[1]), "{r} not ordered");
            let am: Vec<(i64, i64)> = m.to_vec();
            let asz: i64 = am.iter().map(|x| x.0).product();
            let of_a: std::collections::HashSet<i64> = (0..asz).map(|i| eval(&am, i)).collect();
            assert!(img[1..].iter().all(|v| !of_a.contains(v)), "{r} meets {a}");
            let mut all = am.clone();
            all.extend(rm.iter().copied());
            assert!(cosize(&all) >= cot, "cosize(({a},{r})) < {cot}");
            // Injective (with A's own duplicates of 0 filtered: A is injective here) but not onto.
            let pair: Vec<(i64, i64)> =
                modes_of(&f).into_iter().chain(rm.iter().copied()).collect();
            let n: i64 = pair.iter().map(|x| x.0).product();
            let top = cosize(&pair);
            let mut seen = vec![false; top as usize];
            for i in 0..n {
                let v = eval(&pair, i) as usize;
                assert!(!seen[v], "({a},{r}) overlaps");
                seen[v] = true;
            }
            let first = seen.iter().position(|x| !x).map(|x| x as i64);
            assert_eq!(first, note.hole, "complement({a}, {cot}) = {r}: first hole");
        }
    });
    eprintln!("complement: {holes} answered with holes (CuTe's postconditions checked), {refused} refused");
    assert!(
        holes > 10_000 && refused > 10_000,
        "{holes} answered with holes, {refused} refused"
    );
}

/// The Complementation theorem, `complement1_tiles`: for `N·d | M`, `(N, d, M/(N·d)):(d, 1, N·d)` is a bijection onto
/// `[0, M)`; otherwise `complement1` refuses with the divisibility obligation.
#[test]
fn complement1_tiles_exactly_when_divisible() {
    for n in 1..=16i64 {
        for d in 1..=16i64 {
            for m in 1..=256i64 {
                match algebra::complement1(n, d, m) {
                    Ok(b) => {
                        assert_eq!(m % (n * d), 0);
                        let mut all = vec![(n, d)];
                        all.extend(modes_of(&b));
                        let mut seen = vec![false; m as usize];
                        for i in 0..m {
                            let v = eval(&all, i);
                            assert!((0..m).contains(&v) && !seen[v as usize]);
                            seen[v as usize] = true;
                        }
                    }
                    Err(e) => {
                        assert_ne!(m % (n * d), 0);
                        assert_eq!(e.code(), "divisibility");
                    }
                }
            }
        }
    }
}
