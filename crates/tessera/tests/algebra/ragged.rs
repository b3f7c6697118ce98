//! Ragged divides by brute force: every padded coordinate classified hole / valid; valid
//! coordinates reach each of A's indices exactly once and carry A's value.

use tessera::algebra::ragged::{
    local_partition, local_tile, ragged_divide, ragged_local_partition, ragged_local_tile,
    Arrangement, Ragged,
};
use tessera::algebra::{flat_divide, logical_divide, tiled_divide, zipped_divide, Tiler};
use tessera::Layout;

static EXACT: std::sync::atomic::AtomicUsize = std::sync::atomic::AtomicUsize::new(0);

const ARRANGEMENTS: [Arrangement; 4] = [
    Arrangement::Logical,
    Arrangement::Zipped,
    Arrangement::Tiled,
    Arrangement::Flat,
];

fn plain(a: &Layout, t: &Tiler, arr: Arrangement) -> Option<Layout> {
    match arr {
        Arrangement::Logical => logical_divide(a, t),
        Arrangement::Zipped => zipped_divide(a, t),
        Arrangement::Tiled => tiled_divide(a, t),
        Arrangement::Flat => flat_divide(a, t),
    }
    .ok()
}

/// Checks one ragged divide point by point; returns the number of holes seen.
fn brute(a: &Layout, t: &Tiler, arr: Arrangement) -> Option<Ragged> {
    let r = match ragged_divide(a, t, arr) {
        Ok(r) => r,
        Err(_) => return None,
    };
    let n = a.size().unwrap();
    assert_eq!(r.index.size().unwrap(), r.points, "{a} / {t:?}");
    if let Some(l) = &r.layout {
        assert_eq!(l.size().unwrap(), r.points);
        // A' ∘ T may refine T's shape (a hierarchical A splits a mode); the 1-D order is the same.
    }
    let mut seen_g = vec![false; r.points as usize];
    let mut seen_i = vec![false; n as usize];
    let mut holes = 0;
    for j in 0..r.points {
        let g = r.index.eval(j).unwrap();
        assert!(
            (0..r.points).contains(&g),
            "{a} / {t:?}: index {g} out of range"
        );
        assert!(!seen_g[g as usize], "{a} / {t:?}: index map not injective");
        seen_g[g as usize] = true;
        match r.classify(g) {
            None => holes += 1,
            Some(i) => {
                assert!(!seen_i[i as usize], "{a} / {t:?}: index {i} reached twice");
                seen_i[i as usize] = true;
                if let Some(l) = &r.layout {
                    assert_eq!(
                        l.eval(j).unwrap(),
                        a.eval(i).unwrap(),
                        "{a} / {t:?} ({arr:?}) at {j}: layout {l}"
                    );
                }
            }
        }
    }
    assert_eq!(holes, r.holes, "{a} / {t:?}");
    assert!(
        seen_i.iter().all(|&b| b),
        "{a} / {t:?}: some index never reached"
    );
    if r.holes == 0 {
        if let (Some(p), Some(l)) = (plain(a, t, arr), &r.layout) {
            assert_eq!(
                p.to_string(),
                l.to_string(),
                "{a} / {t:?}: exact case differs"
            );
            EXACT.fetch_add(1, std::sync::atomic::Ordering::Relaxed);
        }
    }
    for m in &r.modes {
        let sites = m.hole_sites(usize::MAX).unwrap();
        for &(tc, rc) in &sites {
            let v = m.rest_index().unwrap().eval(rc).unwrap()
                + m.tile_index().unwrap().eval(tc).unwrap();
            assert!(v >= m.size);
        }
        let want = if m.tiler.is_some() { m.holes() } else { 0 };
        assert_eq!(sites.len() as i64, want);
    }
    Some(r)
}

fn layouts() -> Vec<Layout> {
    let mut out = Vec::new();
    for n in 1..=13 {
        for d in [1, 3] {
            out.push(Layout::mode(n, d).unwrap());
        }
    }
    for s0 in 1..=5 {
        for s1 in 1..=5 {
            out.push(format!("({s0},{s1}):(1,{s0})").parse().unwrap());
            out.push(format!("({s0},{s1}):({s1},1)").parse().unwrap());
        }
    }
    for t in [
        "((2,3),5):((1,2),6)",
        "(3,(2,2)):(4,(1,2))",
        "((3,2),(2,3)):((1,3),(6,12))",
        "(3,5):(5,1)",
    ] {
        out.push(t.parse().unwrap());
    }
    out
}

fn leaf_tilers() -> Vec<Tiler> {
    let mut out = vec![Tiler::Under];
    for b in 1..=6 {
        out.push(Tiler::Int(b));
    }
    for b in 1..=3 {
        for e in 2..=3 {
            out.push(Tiler::Layout(Layout::mode(b, e).unwrap()));
        }
    }
    out.push(Tiler::Layout("(2,2):(1,4)".parse().unwrap()));
    out
}

#[test]
fn brute_force_small_divides() {
    let mut cases = 0;
    let mut with_holes = 0;
    let mut with_layout = 0;
    for a in layouts() {
        let mut tilers = leaf_tilers();
        if a.rank() >= 2 {
            let leaves = leaf_tilers();
            for x in &leaves {
                for y in &leaves {
                    tilers.push(Tiler::Tuple(vec![x.clone(), y.clone()]));
                }
            }
        }
        for t in &tilers {
            for arr in ARRANGEMENTS {
                if let Some(r) = brute(&a, t, arr) {
                    cases += 1;
                    with_holes += (r.holes > 0) as usize;
                    with_layout += r.layout.is_some() as usize;
                }
            }
        }
    }
    eprintln!(
        "ragged brute force: {cases} divides, {with_holes} with holes, {with_layout} with a layout, {} exact ones equal to the plain divide",
        EXACT.load(std::sync::atomic::Ordering::Relaxed)
    );
    assert!(cases > 5000 && with_holes > 2000, "{cases} {with_holes}");
}

#[test]
fn the_issue_cases() {
    let a: Layout = "(1000,4096):(4096,1)".parse().unwrap();
    let t = Tiler::Tuple(vec![Tiler::Int(128), Tiler::Int(64)]);
    let r = ragged_divide(&a, &t, Arrangement::Zipped).unwrap();
    assert_eq!(r.points, 1024 * 4096);
    assert_eq!(r.holes, 24 * 4096);
    // CuTe's wrong-at-17-points case: one hole, no layout (A' ∘ T is not admissible).
    let a: Layout = "(3,5):(5,1)".parse().unwrap();
    let r = brute(
        &a,
        &Tiler::Layout("2:1".parse().unwrap()),
        Arrangement::Logical,
    )
    .unwrap();
    assert_eq!((r.points, r.holes), (16, 1));
    assert!(r.layout.is_none());
    assert_eq!(r.index.to_string(), "(2,8):(1,2)");
}

#[test]
fn local_tile_and_partition_agree_with_enumeration() {
    for a in layouts().into_iter().filter(|a| a.rank() == 2) {
        for b0 in 1..=4 {
            for b1 in 1..=4 {
                let t = Tiler::Tuple(vec![Tiler::Int(b0), Tiler::Int(b1)]);
                let r = ragged_divide(&a, &t, Arrangement::Logical).unwrap();
                let (m0, m1) = (&r.modes[0], &r.modes[1]);
                let (q0, q1) = (m0.padded_size / b0, m1.padded_size / b1);
                for c0 in 0..q0 {
                    for c1 in 0..q1 {
                        let coord = format!("({c0},{c1})").parse().unwrap();
                        let s = ragged_local_tile(&a, &t, &coord).unwrap();
                        // Enumerate the tile: global index of (t0, t1) at rest (c0, c1).
                        let mut valid = 0;
                        for t1 in 0..b1 {
                            for t0 in 0..b0 {
                                let x0 = t0 + b0 * c0;
                                let x1 = t1 + b1 * c1;
                                if x0 < m0.size && x1 < m1.size {
                                    valid += 1;
                                    let j = t0 + b0 * t1;
                                    let want = a.eval(x0 + m0.size * x1).unwrap();
                                    let l = s.layout.as_ref().unwrap();
                                    assert_eq!(l.eval(j).unwrap() + s.offset.unwrap(), want);
                                }
                            }
                        }
                        assert_eq!(s.valid, valid, "{a} {t:?} at ({c0},{c1})");
                        assert_eq!(s.points, b0 * b1);
                        if s.holes == 0 && m0.holes() == 0 && m1.holes() == 0 {
                            let (tl, off) = local_tile(&a, &t, &coord).unwrap();
                            assert_eq!(Some(tl), s.layout.clone());
                            assert_eq!(Some(off), s.offset);
                        }
                    }
                }
                // Partition by a row-major thread grid of the tile's shape.
                let threads: Layout = format!("({b0},{b1}):({b1},1)").parse().unwrap();
                for th in 0..b0 * b1 {
                    let s = ragged_local_partition(&a, &threads, th).unwrap();
                    let (c0, c1) = (th / b1, th % b1);
                    let mut valid = 0;
                    for r1 in 0..q1 {
                        for r0 in 0..q0 {
                            let x0 = c0 + b0 * r0;
                            let x1 = c1 + b1 * r1;
                            if x0 < m0.size && x1 < m1.size {
                                valid += 1;
                                let j = r0 + q0 * r1;
                                let want = a.eval(x0 + m0.size * x1).unwrap();
                                let l = s.layout.as_ref().unwrap();
                                assert_eq!(l.eval(j).unwrap() + s.offset.unwrap(), want);
                            }
                        }
                    }
                    assert_eq!(s.valid, valid, "{a} threads {threads} thread {th}");
                    if r.holes == 0 {
                        let (pl, off) = local_partition(&a, &threads, th).unwrap();
                        assert_eq!(Some(pl), s.layout.clone());
                        assert_eq!(Some(off), s.offset);
                    }
                }
            }
        }
    }
}

mod predicates {
    use super::*;
    use proptest::prelude::*;
    use tessera::domain::ragged::{analyze, Bound};

    /// The user coordinates (root values) of global padded index `g`: per mode, the colex
    /// digits of its padded index over the mode's leaves, the last one unbounded.
    fn roots(r: &Ragged, g: i64) -> Vec<i64> {
        let mut out = Vec::new();
        let mut rest = g;
        for m in &r.modes {
            let mut x = rest % m.padded_size;
            rest /= m.padded_size;
            let leaves: Vec<i64> = m.mode.leaves().map(|l| l.shape).collect();
            for (k, s) in leaves.iter().enumerate() {
                if k + 1 == leaves.len() {
                    out.push(x);
                } else {
                    out.push(x % s);
                    x /= s;
                }
            }
        }
        out
    }

    /// Root names in the same order as [`roots`].
    fn root_names(a: &tessera::domain::ragged::RaggedAnalysis) -> Vec<String> {
        let s = &a.combined;
        s.roots().iter().map(|&i| s.name(i).to_string()).collect()
    }

    fn holds(bounds: &[Bound], names: &[String], vals: &[i64]) -> bool {
        bounds.iter().all(|b| {
            let k = names
                .iter()
                .position(|n| *n == b.coordinate)
                .expect("a root");
            vals[k] < b.extent
        })
    }

    /// Equivalence and minimality of the predicate by enumeration of the padded domain.
    pub fn check(a: &Layout, t: &Tiler) -> Option<(usize, bool)> {
        let r = ragged_divide(a, t, Arrangement::Logical).ok()?;
        let an = analyze(&r, None).unwrap();
        let names = root_names(&an);
        assert_eq!(an.over_allocation, r.holes);
        let mut witness = vec![false; an.predicate.len()];
        for g in 0..r.points {
            let v = roots(&r, g);
            let valid = r.classify(g).is_some();
            assert_eq!(
                holds(&an.predicate, &names, &v),
                valid,
                "{a} / {t:?}: predicate {:?} wrong at {v:?}",
                an.predicate
            );
            for (k, w) in witness.iter_mut().enumerate() {
                let mut rest = an.predicate.clone();
                rest.remove(k);
                if !valid && holds(&rest, &names, &v) {
                    *w = true;
                }
            }
        }
        assert!(
            witness.iter().all(|&w| w),
            "{a} / {t:?}: predicate {:?} is not minimal",
            an.predicate
        );
        assert_eq!(an.predicate.is_empty(), r.holes == 0);
        Some((an.predicate.len(), an.minimal_checked))
    }

    #[test]
    fn predicates_exact_and_minimal_on_small_divides() {
        let mut cases = 0;
        let mut bounds = 0;
        for a in layouts() {
            let mut tilers = leaf_tilers();
            if a.rank() >= 2 {
                for x in leaf_tilers() {
                    for y in leaf_tilers() {
                        tilers.push(Tiler::Tuple(vec![x.clone(), y]));
                    }
                }
            }
            for t in &tilers {
                if let Some((n, checked)) = check(&a, t) {
                    assert!(checked);
                    cases += 1;
                    bounds += n;
                }
            }
        }
        eprintln!("ragged predicates: {cases} divides, {bounds} bounds, each exact and minimal");
        assert!(cases > 10000);
    }

    fn leaf_tiler() -> impl Strategy<Value = Tiler> {
        prop_oneof![
            Just(Tiler::Under),
            (1i64..40).prop_map(Tiler::Int),
            (1i64..12, 1i64..5).prop_map(|(b, e)| Tiler::Layout(Layout::mode(b, e).unwrap())),
        ]
    }

    proptest! {
        #![proptest_config(ProptestConfig::with_cases(200))]
        #[test]
        fn random_ragged_divides(
            s0 in 1i64..60, s1 in 1i64..60, split in 1i64..4, rowmajor: bool,
            t0 in leaf_tiler(), t1 in leaf_tiler(), whole: bool,
        ) {
            // A hierarchical first mode when `split` divides s0.
            let a: Layout = if split > 1 && s0 % split == 0 {
                let q = s0 / split;
                format!("(({split},{q}),{s1}):((1,{split}),{s0})").parse().unwrap()
            } else if rowmajor {
                format!("({s0},{s1}):({s1},1)").parse().unwrap()
            } else {
                format!("({s0},{s1}):(1,{s0})").parse().unwrap()
            };
            let t = if whole { t0 } else { Tiler::Tuple(vec![t0, t1]) };
            check(&a, &t);
            brute(&a, &t, Arrangement::Zipped);
        }
    }
}
