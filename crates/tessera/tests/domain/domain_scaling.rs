//! Schedule analysis scales as O(n log n) in the number of statements (issue 15): the work of
//! `parse` → predicates → report → render, counted in steps (never timed) by
//! `tessera::domain::steps`, grows at most linearly-times-log from 1k to 100k statements on
//! chains of every transform; and the greedy predicate derivation, which no longer re-runs the
//! closure per candidate, chooses exactly what the per-candidate closure chooses.

use proptest::prelude::*;
use tessera::domain::predicate::{
    derive_by_theorems_assuming, derive_by_theorems_budgeted, greedy_budget, rules_assuming, Rule,
};
use tessera::domain::report::analyze;
use tessera::domain::{parse, steps, Extent, Id, Schedule, SplitKind};

/// Chains of `n` statements, one family per transform.
fn family(name: &str, n: usize) -> String {
    let mut t = String::new();
    match name {
        // Symbolic extent, divisible splits: everything is implied, nothing chosen.
        "split" => {
            t.push_str("I0 = iter N\n");
            for k in 0..n {
                t.push_str(&format!("A{k}, I{} = split I{k} by 1\n", k + 1));
            }
        }
        // Concrete, indivisible at the top: the root stays predicated.
        "outer split" => {
            t.push_str("I0 = iter 1000000007\n");
            for k in 0..n {
                t.push_str(&format!("I{}, B{k} = outer split I{k} by 1\n", k + 1));
            }
        }
        "merge" => {
            t.push_str("M0 = iter 3\n");
            for k in 0..n {
                t.push_str(&format!("R{k} = iter 1\nM{} = merge M{k}, R{k}\n", k + 1));
            }
        }
        // Pads and slices alternating: holes, a predicate on every other IterDomain.
        "resize" => {
            t.push_str("I0 = iter 7\n");
            for k in 0..n {
                let (l, r) = if k % 2 == 0 { (1, 0) } else { (0, -1) };
                t.push_str(&format!("I{} = resize I{k} by {l}, {r}\n", k + 1));
            }
        }
        "swizzle" => {
            t.push_str("X0 = iter 4\nY0 = iter 4\n");
            for k in 0..n {
                t.push_str(&format!(
                    "X{}, Y{} = swizzle xor X{k}, Y{k}\n",
                    k + 1,
                    k + 1
                ));
            }
        }
        // Distinct symbols: one launch obligation each, a product of all in the allocation.
        "symbolic roots" => {
            for k in 0..n {
                t.push_str(&format!("R{k} = iter S{k}\n"));
            }
        }
        // Strided allocation of symbolic extents: the size `1 + Σ (E_k − 1)·d_k` has n terms.
        "strided alloc" => {
            let mut alloc = String::from("alloc");
            let mut strides = String::from(" strides");
            for k in 0..n {
                t.push_str(&format!("R{k} = iter S{k}\n"));
                alloc.push_str(&format!(" R{k}"));
                strides.push_str(&format!(" {}", k % 3 + 1));
            }
            t.push_str(&alloc);
            t.push_str(&strides);
            t.push('\n');
        }
        // Adversarial shapes for the greedy derivation (`Greedy` in `predicate.rs`).
        // A balanced tree of merges over n roots (one of extent 3, the others 1), then an
        // indivisible split.
        "deep merge tree" => {
            let mut level: Vec<String> = (0..n).map(|k| format!("R{k}")).collect();
            for (k, r) in level.iter().enumerate() {
                t.push_str(&format!("{r} = iter {}\n", if k == 0 { 3 } else { 1 }));
            }
            let mut m = 0;
            while level.len() > 1 {
                let mut next = Vec::new();
                for pair in level.chunks(2) {
                    if pair.len() == 2 {
                        t.push_str(&format!("M{m} = merge {}, {}\n", pair[0], pair[1]));
                        next.push(format!("M{m}"));
                        m += 1;
                    } else {
                        next.push(pair[0].clone());
                    }
                }
                level = next;
            }
            t.push_str(&format!("O, I = split {} by 2\n", level[0]));
        }
        // A balanced tree of indivisible splits: n leaves, all in the loop domain.
        "wide fan-out" => {
            t.push_str("X0 = iter 1000000007\n");
            let mut queue = std::collections::VecDeque::from([String::from("X0")]);
            let mut k = 0;
            while k < n {
                let x = queue.pop_front().unwrap();
                t.push_str(&format!("P{k}, Q{k} = split {x} by 3\n"));
                queue.push_back(format!("P{k}"));
                queue.push_back(format!("Q{k}"));
                k += 1;
            }
        }
        // One root split n ways; one split is the loop domain, the others are computed forward
        // (every IterDomain is used by many transforms' rules: fan-in on the root).
        "fan-out by reuse" => {
            t.push_str("X = iter N\nassume N % 720720 == 0\n");
            for k in 0..n {
                t.push_str(&format!(
                    "A{k}, B{k} = split X by {}\n",
                    [2, 3, 4, 5, 6, 7][k % 6]
                ));
            }
            t.push_str("loop A0 B0\n");
        }
        // Split then merge the two outputs back, indivisibly, n times.
        "alternating split/merge" => {
            t.push_str("X0 = iter 1000003\n");
            for k in 0..n / 2 {
                t.push_str(&format!(
                    "A{k}, B{k} = split X{k} by 3\nX{} = merge A{k}, B{k}\n",
                    k + 1
                ));
            }
        }
        // Merge with the previous split's inner output, then split again, n times: a long
        // zigzag under one indivisible split.
        "merge/split zigzag" => {
            t.push_str("X0 = iter 1000003\nX1, B0 = split X0 by 3\n");
            for k in 1..n / 2 {
                t.push_str(&format!(
                    "M{k} = merge X{k}, B{}\nX{}, B{k} = split M{k} by 3\n",
                    k - 1,
                    k + 1
                ));
            }
        }
        "assume" => {
            for k in 0..n {
                t.push_str(&format!("R{k} = iter S{k}\nassume S{k} == 1\n"));
            }
        }
        _ => unreachable!(),
    }
    t
}

/// The greedy derivation alone, on the adversarial shapes: its steps stay within a small
/// multiple of the IterDomains and rules, far below `greedy_budget` (so the budget never cut an
/// answer short there), and grow linearly from 1k to 100k statements.
#[test]
fn greedy_steps_on_adversarial_shapes() {
    for name in [
        "split",
        "merge",
        "resize",
        "swizzle",
        "deep merge tree",
        "wide fan-out",
        "fan-out by reuse",
        "alternating split/merge",
        "merge/split zigzag",
    ] {
        let mut counts = Vec::new();
        for n in [1_000usize, 10_000, 100_000] {
            let s = parse(&family(name, n)).unwrap();
            let rules = rules_assuming(&s, &[]).unwrap();
            let size: usize = rules.iter().map(|r| r.premises.len() + 1).sum();
            steps::reset();
            derive_by_theorems_assuming(&s, &[]).unwrap();
            let c = steps::count();
            let unit = (s.ids.len() + size) as u64;
            assert!(c <= 12 * unit, "{name} {n}: {c} steps for {unit}");
            let b = greedy_budget(s.ids.len(), size);
            // An exhausted budget would have cost at least `b` steps by itself.
            assert!(c < b, "{name} {n}: {c} steps, budget {b}");
            counts.push(c);
        }
        for w in 0..2 {
            let ratio = counts[w + 1] as f64 / counts[w] as f64;
            assert!(ratio <= 10.5, "{name}: {counts:?}");
        }
        eprintln!("greedy {name}: steps {counts:?}");
    }
}

/// Steps of the whole path for one text, checking the result is sane.
fn measure(text: &str) -> u64 {
    steps::reset();
    let s = parse(text).unwrap();
    let r = analyze(&s).unwrap();
    let out = r.render();
    assert!(out.contains("predicate (ours)"));
    steps::tick(out.len());
    steps::count()
}

#[test]
fn analysis_steps_grow_as_n_log_n() {
    for name in [
        "split",
        "outer split",
        "merge",
        "resize",
        "swizzle",
        "symbolic roots",
        "strided alloc",
        "assume",
        "deep merge tree",
        "wide fan-out",
        "fan-out by reuse",
        "alternating split/merge",
        "merge/split zigzag",
    ] {
        let sizes = [1_000usize, 10_000, 100_000];
        let counts: Vec<u64> = sizes.iter().map(|&n| measure(&family(name, n))).collect();
        for w in 0..2 {
            let ratio = counts[w + 1] as f64 / counts[w] as f64;
            // Ten times the statements: ten times the steps, up to the log factor (log2 10k /
            // log2 1k = 1.33) and the fixed start-up; a quadratic path would give 100.
            assert!(
                ratio <= 10.0 * 1.34,
                "{name}: {} -> {} statements took {} -> {} steps (x{ratio:.1})",
                sizes[w],
                sizes[w + 1],
                counts[w],
                counts[w + 1]
            );
        }
        eprintln!("{name}: steps {counts:?} for {sizes:?} statements");
    }
}

#[test]
fn the_limit_is_documented_and_enforced() {
    use tessera::domain::ir::{MAX_EXTENT_NODES, MAX_IDS};
    // One IterDomain past the limit is refused with `too_large`.
    let mut s = Schedule::new();
    for k in 0..MAX_IDS {
        s.iter(&format!("I{k}"), Extent::Const(1)).unwrap();
    }
    let e = s.iter("extra", Extent::Const(1)).unwrap_err();
    assert_eq!(e.code(), "too_large");
    // Symbolic merges: the extent expression stops at its node limit, with the IterDomain named.
    let mut text = String::from("M0 = iter N0\n");
    let mut k = 0;
    let err = loop {
        k += 1;
        text.push_str(&format!(
            "N{k} = iter S{k}\nM{k} = merge M{}, N{k}\n",
            k - 1
        ));
        match parse(&text) {
            Ok(_) => continue,
            Err(e) => break e,
        }
    };
    assert_eq!(err.code(), "too_large");
    assert!(
        err.to_string().contains(&format!("<= {MAX_EXTENT_NODES}")),
        "{err}"
    );
    assert!(err.to_string().contains(&format!("M{k}")), "{err}");
    assert_eq!(k, MAX_EXTENT_NODES / 2, "{err}");
}

/// What `rules` prove from `assumed` (over `n` IDs), by rounds until nothing changes: the
/// closure written the obvious way, independently of `predicate.rs`.
fn naive_closure(rules: &[Rule], n: usize, assumed: &[Id]) -> Vec<bool> {
    let mut proved = vec![false; n];
    for &a in assumed {
        proved[a] = true;
    }
    loop {
        let mut changed = false;
        for r in rules {
            if !proved[r.conclusion] && r.premises.iter().all(|&p| proved[p]) {
                proved[r.conclusion] = true;
                changed = true;
            }
        }
        if !changed {
            return proved;
        }
    }
}

/// The greedy pass as first written: one full closure per candidate (quadratic).
fn reference_chosen(s: &Schedule, divisible: &[usize]) -> Option<Vec<Id>> {
    let rules: Vec<Rule> = rules_assuming(s, divisible).ok()?;
    let n = s.ids.len();
    let loop_ids = s.loop_ids().ok()?;
    let closure = |assumed: &[Id]| naive_closure(&rules, n, assumed);
    let mut set: Vec<Id> = (0..n).filter(|i| !loop_ids.contains(i)).collect();
    let roots = s.roots();
    let mut order: Vec<Id> = set.iter().copied().filter(|i| !roots.contains(i)).collect();
    order.reverse();
    order.extend(set.iter().copied().filter(|i| roots.contains(i)).rev());
    for &x in &order {
        let rest: Vec<Id> = set.iter().copied().filter(|&i| i != x).collect();
        if closure(&rest)[x] {
            set = rest;
        }
    }
    Some(set)
}

/// A random schedule: operands picked among all IterDomains (so some are consumed twice), a
/// loop domain of leaves, sometimes with one leaf swapped for an earlier IterDomain.
fn random_schedule(roots: &[i64], ops: &[(u8, u16, u16, i8, i8)], swap: u16) -> Schedule {
    let mut s = Schedule::new();
    for (k, &e) in roots.iter().enumerate() {
        if e == 0 {
            s.iter(&format!("R{k}"), Extent::Sym(format!("S{k}")))
                .unwrap();
        } else {
            s.iter(&format!("R{k}"), Extent::Const(e)).unwrap();
        }
    }
    for (j, &(kind, a, b, p, q)) in ops.iter().enumerate() {
        let pick = |v: u16, s: &Schedule| {
            let leaves = s.leaves();
            if v.is_multiple_of(16) {
                v as usize % s.ids.len()
            } else {
                leaves[v as usize % leaves.len()]
            }
        };
        let (x, y) = (pick(a, &s), pick(b, &s));
        let (o, i) = (format!("T{j}a"), format!("T{j}b"));
        let _ = match kind % 4 {
            0 => {
                let k = if q % 2 == 0 {
                    SplitKind::Inner
                } else {
                    SplitKind::Outer
                };
                s.split(x, 1 + (p.unsigned_abs() % 4) as i64, k, &o, &i)
                    .map(|_| ())
            }
            1 => s.merge(x, y, &o).map(|_| ()),
            2 => s.resize(x, (p % 3) as i64, (q % 3) as i64, &o).map(|_| ()),
            _ => s.swizzle(x, y, &o, &i).map(|_| ()),
        };
    }
    let mut l = s.leaves();
    if swap.is_multiple_of(8) && !l.is_empty() {
        let k = swap as usize % l.len();
        l[k] = swap as usize % s.ids.len();
    }
    s.loop_domain = Some(l);
    s
}

proptest! {
    #![proptest_config(ProptestConfig { cases: 2000, failure_persistence: None, .. ProptestConfig::default() })]

    #[test]
    fn greedy_derivation_matches_the_per_candidate_closure(
        roots in prop::collection::vec(0i64..13, 1..4),
        ops in prop::collection::vec((0u8..4, any::<u16>(), any::<u16>(), any::<i8>(), any::<i8>()), 0..40),
        swap in any::<u16>(),
        assumed in prop::collection::vec(any::<u16>(), 0..4),
    ) {
        let s = random_schedule(&roots, &ops, swap);
        let splits: Vec<usize> = (0..s.transforms.len())
            .filter(|&t| matches!(s.transforms[t], tessera::domain::Transform::Split { .. }))
            .collect();
        let divisible: Vec<usize> = if splits.is_empty() {
            vec![]
        } else {
            assumed.iter().map(|&a| splits[a as usize % splits.len()]).collect()
        };
        let fast = derive_by_theorems_assuming(&s, &divisible).ok().map(|d| d.chosen);
        prop_assert_eq!(&fast, &reference_chosen(&s, &divisible), "{}", s);
        // Past a small budget the answer may keep more, but stays a proof of every condition.
        for budget in [0u64, 3, 20] {
            let Ok(d) = derive_by_theorems_budgeted(&s, &divisible, Some(budget)) else { continue };
            let rules = rules_assuming(&s, &divisible).unwrap();
            let proved = naive_closure(&rules, s.ids.len(), &d.chosen);
            prop_assert!(proved.iter().all(|&p| p), "budget {}: {:?} proves too little\n{}", budget, d.chosen, s);
        }
    }
}

/// A sum of many symbolic terms: [`Extent::sum`] builds it in steps linear in the terms (a chain
/// of [`Extent::plus`], as the allocation size was first built, copies its accumulator at every
/// step: quadratic), and its printing, which every report does, is as long as the terms.
#[test]
fn sums_are_built_in_linear_steps() {
    let terms = |n: usize| -> Vec<Extent> {
        (0..n)
            .map(|k| {
                Extent::Sym(format!("S{k}"))
                    .add(-1)
                    .unwrap()
                    .mul(&Extent::Const(2))
                    .unwrap()
            })
            .collect()
    };
    let (mut sum_steps, mut chain_steps) = (Vec::new(), Vec::new());
    for n in [1_000usize, 4_000] {
        let t = terms(n);
        steps::reset();
        let s = Extent::sum(&t).unwrap();
        sum_steps.push(steps::count());
        assert_eq!(
            s.nodes(),
            t.iter().map(Extent::nodes).sum::<usize>() + n - 1
        );
        let text = s.to_string();
        assert!(
            text.starts_with("((S0 - 1) * 2 + (S1 - 1) * 2 + "),
            "{}",
            &text[..80]
        );
        steps::reset();
        let mut c = Extent::Const(0);
        for x in &t {
            c = c.plus(x).unwrap();
        }
        chain_steps.push(steps::count());
        // Same value, same printing.
        assert_eq!(c.to_string(), s.to_string());
    }
    let (rs, rc) = (
        sum_steps[1] as f64 / sum_steps[0] as f64,
        chain_steps[1] as f64 / chain_steps[0] as f64,
    );
    assert!(rs <= 4.1, "sum: {sum_steps:?} steps for 1k, 4k terms");
    assert!(
        rc >= 12.0,
        "plus chain: {chain_steps:?} (expected quadratic)"
    );
    // Constants are gathered: `(N - 1) + 1 + (M - 1)` is `((N + M) - 1)`.
    let nm = [
        Extent::Sym("N".into()).add(-1).unwrap(),
        Extent::Const(1),
        Extent::Sym("M".into()).add(-1).unwrap(),
    ];
    assert_eq!(Extent::sum(&nm).unwrap().to_string(), "((N + M) - 1)");
    assert_eq!(Extent::sum(&[]).unwrap(), Extent::Const(0));
}

/// The enumeration pass of `derive` (the minimality check) is charged for everything it does:
/// the steps it counts stay within `minimality_work`, which is what `derive` compares with
/// `MINIMALITY_WORK` before running it, on the slowest schedules we could build (independent
/// indivisible splits, whose points grow as 4^k while every condition is kept), 50,000 loop
/// IterDomains of extent 1 (free now: never enumerated), the examples, and the slow units the
/// fuzzing campaign kept.
#[test]
fn the_minimality_budget_counts_all_its_work() {
    use tessera::domain::eval::Space;
    use tessera::domain::predicate::{
        derive, derive_by_theorems, minimality_work, MINIMALITY_WORK,
    };
    let holes = |k: usize| {
        let mut t = String::new();
        for i in 0..k {
            t.push_str(&format!("R{i} = iter 3\nA{i}, B{i} = split R{i} by 2\n"));
        }
        t
    };
    // Pad then slice back: every root is always in bound, which the theorems cannot see (a pad's
    // output does not bound its input) and enumeration can: every check enumerates every point.
    let pad_slice = |k: usize| {
        let mut t = String::new();
        for i in 0..k {
            t.push_str(&format!(
                "R{i} = iter 2\nP{i} = resize R{i} by 1, 0\nQ{i} = resize P{i} by -1, 0\n"
            ));
        }
        t
    };
    let mut wide = String::new();
    for i in 0..10 {
        wide.push_str(&format!("A{i} = iter 2\nX{i}, Y{i} = split A{i} by 3\n"));
    }
    for i in 0..50_000 {
        wide.push_str(&format!("R{i} = iter 1\n"));
    }
    let mut texts: Vec<(String, String)> = vec![
        ("8 independent holes".into(), holes(8)),
        ("9 independent holes".into(), holes(9)),
        ("10 independent holes (over budget)".into(), holes(10)),
        ("10 holes and 50,000 extent-1 loops".into(), wide),
        ("17 pads sliced back".into(), pad_slice(17)),
        ("18 pads sliced back (over budget)".into(), pad_slice(18)),
    ];
    let root = concat!(env!("CARGO_MANIFEST_DIR"), "/../..");
    for dir in ["examples/schedules", "fuzz/regressions/slow"] {
        let mut files: Vec<_> = std::fs::read_dir(format!("{root}/{dir}"))
            .unwrap()
            .map(|e| e.unwrap().path())
            .collect();
        files.sort();
        for f in files {
            let name = f.file_name().unwrap().to_string_lossy().into_owned();
            if dir.ends_with("slow") || name.ends_with(".tsch") {
                texts.push((name, std::fs::read_to_string(&f).unwrap()));
            }
        }
    }
    let (mut checked, mut largest) = (0, (0u64, String::new()));
    for (name, text) in &texts {
        let Ok(s) = parse(text) else { continue };
        steps::reset();
        let Ok(theorems) = derive_by_theorems(&s) else {
            continue;
        };
        let t1 = steps::count();
        steps::reset();
        let space = Space::new(&s);
        let t2 = steps::count();
        steps::reset();
        let d = derive(&s).unwrap();
        let pass = steps::count() - t1 - t2;
        match space {
            Ok(sp) => {
                let bound = minimality_work(&sp, theorems.chosen.len());
                assert_eq!(d.minimal_checked, bound <= MINIMALITY_WORK, "{name}");
                if d.minimal_checked {
                    assert!(pass <= bound, "{name}: {pass} steps > bound {bound}");
                    checked += 1;
                    if pass > largest.0 {
                        largest = (pass, name.clone());
                    }
                } else {
                    assert_eq!(pass, 0, "{name}");
                }
                eprintln!(
                    "{name}: {} points, cost {} per point, {} conditions: pass {pass} <= bound {bound} (budget {MINIMALITY_WORK})",
                    sp.points,
                    sp.point_cost(),
                    theorems.chosen.len()
                );
            }
            Err(_) => assert!(!d.minimal_checked && pass == 0, "{name}"),
        }
    }
    assert!(checked >= 10, "{checked}");
    // The largest pass enumerates every point for every condition: it comes within 20% of its
    // bound, itself within the budget (the bound is tight, the count real).
    assert_eq!(largest.1, "17 pads sliced back");
    let s = parse(&pad_slice(17)).unwrap();
    let bound = minimality_work(&Space::new(&s).unwrap(), 17);
    assert!(largest.0 * 5 >= bound * 4, "{} of {bound}", largest.0);
    assert!(bound <= MINIMALITY_WORK && bound * 2 > MINIMALITY_WORK / 2);
}

/// `minimality_work` for the three-splits example, as its doc says: 2 conditions × (32 points × (cost 11 + 2) + 2).
#[test]
fn figure_2_minimality_work() {
    use tessera::domain::eval::Space;
    use tessera::domain::predicate::minimality_work;
    let s = parse(
        "I0 = iter 15\nI1, I2 = split I0 by 6\nI3, I4 = split I1 by 2\nI5, I6 = split I2 by 4\n",
    )
    .unwrap();
    let sp = Space::new(&s).unwrap();
    assert_eq!((sp.points, sp.point_cost()), (32, 11));
    assert_eq!(minimality_work(&sp, 2), 836);
}

/// The aliasing check's collision search enumerates only the allocated dimensions of extent > 1:
/// an allocation whose first collision is at point 2^15, beside 1k → 10k → 40k allocated
/// IterDomains of extent 1, costs steps linear in the text (it was 2^15 × the rank: 8.9 s at
/// 40k).
#[test]
fn the_collision_search_ignores_extent_one_dimensions() {
    let text = |n: usize| {
        let mut t = String::new();
        for i in 0..16 {
            t.push_str(&format!("A{i} = iter 2\n"));
        }
        let mut ids = String::new();
        let mut st = String::new();
        for i in 0..n {
            t.push_str(&format!("R{i} = iter 1\n"));
            ids.push_str(&format!(" R{i}"));
            st.push_str(" 1");
        }
        // A0's stride is the sum of the others': (1,0,…,0) collides with (0,1,…,1), the
        // 2^15-th point.
        for i in 0..16 {
            ids.push_str(&format!(" A{i}"));
            st.push_str(&format!(" {}", if i == 0 { 32767 } else { 1 << (15 - i) }));
        }
        format!("{t}alloc{ids} strides{st}\n")
    };
    let mut counts = Vec::new();
    for n in [1_000usize, 10_000, 40_000] {
        let t = text(n);
        steps::reset();
        let e = parse(&t).unwrap_err();
        assert_eq!(e.code(), "aliasing_alloc");
        assert!(
            e.to_string().contains("both at 32767"),
            "{}",
            &e.to_string()[..200]
        );
        counts.push(steps::count());
    }
    // 2^16 · 17 steps of search at most, whatever n, plus what grows with the text.
    assert!(counts[2] - counts[0] < 50 * 39_000, "{counts:?}");
    assert!(counts[0] <= (1 << 16) * 17 + 50 * 1_000, "{counts:?}");
    eprintln!("collision search: steps {counts:?} for 1k, 10k, 40k extent-1 dimensions");
}
