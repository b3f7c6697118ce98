//! Property tests on random transform DAGs: our predicate is equivalent to "no hole" and minimal
//! (brute force over subsets), the theorem-only derivation is already sound, nvFuser's emulated
//! choice and "predicate everything" are correct, and Theorem 5's rule agrees with enumeration.

use proptest::prelude::*;
use tessera::domain::eval::{check_predicate, count, Space};
use tessera::domain::predicate::{derive, derive_by_theorems, everything, nvfuser_choice};
use tessera::domain::{Decision, Extent, Fact, Facts, Schedule, SplitKind};

/// One random operation: kind, two operand picks, two parameters.
type Op = (u8, u8, u8, i8, i8);

/// Builds a schedule from random operations, skipping the ones that do not apply.
fn build(roots: &[i64], ops: &[Op], shuffle: u8) -> Schedule {
    let mut s = Schedule::new();
    for (k, &e) in roots.iter().enumerate() {
        s.iter(&format!("R{k}"), Extent::Const(e)).unwrap();
    }
    let mut fresh = 0;
    let mut name = || {
        fresh += 1;
        format!("T{fresh}")
    };
    for &(kind, a, b, p, q) in ops {
        let leaves = s.leaves();
        let x = leaves[a as usize % leaves.len()];
        let y = leaves[b as usize % leaves.len()];
        let ext = s.concrete_extents().unwrap();
        match kind % 4 {
            0 => {
                let f = 1 + (p.unsigned_abs() % 5) as i64;
                let kind = if q % 2 == 0 {
                    SplitKind::Inner
                } else {
                    SplitKind::Outer
                };
                let (o, i) = (name(), name());
                let _ = s.split(x, f, kind, &o, &i);
            }
            1 if x != y && ext[x] * ext[y] <= 64 => {
                let n = name();
                let _ = s.merge(x, y, &n);
            }
            2 => {
                let (l, r) = ((p % 3) as i64, (q % 3) as i64);
                if ext[x] + l + r >= 1 {
                    let n = name();
                    let _ = s.resize(x, l, r, &n);
                }
            }
            3 if x != y => {
                let (o, i) = (name(), name());
                let _ = s.swizzle(x, y, &o, &i);
            }
            _ => {}
        }
    }
    let mut l = s.leaves();
    if l.len() > 1 {
        let k = shuffle as usize % l.len();
        l.rotate_left(k);
    }
    s.loop_domain = Some(l);
    s
}

fn small(s: &Schedule) -> bool {
    Space::new(s).map(|sp| sp.points <= 4096).unwrap_or(false)
}

fn ops() -> impl Strategy<Value = Vec<Op>> {
    prop::collection::vec(
        (0u8..4, any::<u8>(), any::<u8>(), any::<i8>(), any::<i8>()),
        0..6,
    )
}

proptest! {
    #![proptest_config(ProptestConfig { cases: 1000, failure_persistence: None, .. ProptestConfig::default() })]

    #[test]
    fn our_predicate_is_equivalent_and_minimal(
        roots in prop::collection::vec(1i64..13, 1..3),
        ops in ops(),
        shuffle in any::<u8>(),
    ) {
        let s = build(&roots, &ops, shuffle);
        prop_assume!(small(&s));
        let sp = Space::new(&s).unwrap();
        let d = derive(&s).unwrap();
        prop_assert!(d.minimal_checked);
        let c = check_predicate(&sp, &d.chosen).unwrap();
        prop_assert!(c.equivalent, "not equivalent: {:?}\n{}", d, s);
        prop_assert_eq!(c.passing, count(&sp).unwrap().valid);
        prop_assert_eq!(c.holes_passing, 0);
        prop_assert_eq!(c.out_of_range_reads, 0);
        // Brute-force minimality: no proper subset of the chosen conditions is equivalent.
        let n = d.chosen.len();
        prop_assume!(n <= 8);
        for mask in 0u32..(1 << n) {
            if mask == (1 << n) - 1 {
                continue;
            }
            let sub: Vec<usize> = (0..n).filter(|k| mask & (1 << k) != 0).map(|k| d.chosen[k]).collect();
            prop_assert!(!check_predicate(&sp, &sub).unwrap().equivalent,
                "proper subset {:?} of {:?} is equivalent\n{}", sub, d.chosen, s);
        }
    }

    #[test]
    fn theorem_rules_alone_are_sound(
        roots in prop::collection::vec(1i64..13, 1..3),
        ops in ops(),
        shuffle in any::<u8>(),
    ) {
        let s = build(&roots, &ops, shuffle);
        prop_assume!(small(&s));
        let sp = Space::new(&s).unwrap();
        let d = derive_by_theorems(&s).unwrap();
        prop_assert!(check_predicate(&sp, &d.chosen).unwrap().equivalent, "{:?}\n{}", d, s);
        // Each dropped condition's premises really imply it (checked point by point).
        for j in &d.dropped {
            sp.for_each(|idx| {
                if sp.passes(idx, &j.premises) && !sp.in_bound(idx, j.id) {
                    panic!("{} does not follow from {:?} by {}\n{}", s.name(j.id), j.premises, j.theorem, s);
                }
                Ok(true)
            }).unwrap();
        }
        // And the full derivation only removes conditions from the theorem-only one.
        let full = derive(&s).unwrap();
        prop_assert!(full.chosen.iter().all(|i| d.chosen.contains(i)));
        // The justifications are a well-founded proof: resolve them in rounds from the chosen
        // conditions and the loop IDs; every dropped condition must get resolved.
        let mut known: Vec<usize> = full.chosen.clone();
        known.extend(s.loop_ids().unwrap());
        let mut pending = full.dropped.clone();
        while !pending.is_empty() {
            let before = pending.len();
            pending.retain(|j| {
                if j.premises.iter().all(|p| known.contains(p)) {
                    known.push(j.id);
                    false
                } else {
                    true
                }
            });
            prop_assert!(pending.len() < before, "circular or dangling justifications {:?}\n{}", pending, s);
        }
        let non_loop = s.ids.len() - s.loop_ids().unwrap().len();
        prop_assert_eq!(full.chosen.len() + full.dropped.len(), non_loop);
    }

    #[test]
    fn everything_and_nvfuser_choices_are_correct(
        roots in prop::collection::vec(1i64..13, 1..3),
        ops in ops(),
        shuffle in any::<u8>(),
    ) {
        let s = build(&roots, &ops, shuffle);
        prop_assume!(small(&s));
        let sp = Space::new(&s).unwrap();
        prop_assert!(check_predicate(&sp, &everything(&s).unwrap()).unwrap().equivalent);
        let nv = nvfuser_choice(&s).unwrap();
        let c = check_predicate(&sp, &nv).unwrap();
        prop_assert!(c.equivalent, "nvfuser {:?} wrong\n{}", nv, s);
    }

    #[test]
    fn theorem5_rule_agrees_with_enumeration(e1 in 1i64..7, e2 in 1i64..13, f in 1i64..9) {
        let t1 = format!("I1 = iter {e1}\nI2 = iter {e2}\nI3, I5 = split I2 by {f}\nI4 = merge I1, I3\nloop I4 I5\n");
        let t2 = format!("I1 = iter {e1}\nI2 = iter {e2}\nI3 = merge I1, I2\nI4, I5 = split I3 by {f}\nloop I4 I5\n");
        let (a, b) = (tessera::domain::parse(&t1).unwrap(), tessera::domain::parse(&t2).unwrap());
        let eq = tessera::domain::equiv::compare(&a, &b).unwrap();
        let rule = eq.by_rule.unwrap().equivalent;
        let en = eq.by_enumeration.unwrap();
        prop_assert_eq!(rule == Decision::Yes, en.equivalent);
        prop_assert_eq!(rule == Decision::Yes, e2 % f == 0);
        prop_assert_eq!(en.counterexample.is_some(), !en.equivalent);
    }

    #[test]
    fn symbolic_divisibility_is_sound(m in 1i64..40, f in 1i64..20, c in 1i64..10, k in 1i64..30) {
        let mut facts = Facts::default();
        facts.assume(Fact::Divisible("N".into(), m)).unwrap();
        let n = Extent::Sym("N".into());
        let exprs = [n.clone(), n.ceil_div(c).unwrap(), n.mul(&Extent::Const(c)).unwrap(), n.add(c).unwrap()];
        for e in &exprs {
            if facts.divides(f, e).unwrap() == Decision::Yes {
                let mut bound = facts.clone();
                bound.assume(Fact::Equals("N".into(), m * k)).unwrap();
                let v = e.eval(&bound).unwrap().unwrap();
                prop_assert_eq!(v % f, 0, "{} with N = {}", e, m * k);
            }
        }
    }

    #[test]
    fn parser_never_panics(text in "[ -~\n]{0,200}") {
        let _ = tessera::domain::parse(&text);
    }

    #[test]
    fn parser_never_panics_on_near_miss_statements(
        words in prop::collection::vec(prop::sample::select(vec![
            "I0", "I1", "I2", "=", ",", "iter", "split", "outer", "by", "merge", "resize", "swizzle",
            "xor", "loop", "alloc", "strides", "assume", "N", "%", "==", ">=", "0", "6", "-1",
            "9223372036854775807", "-9223372036854775808", "\n", "#", "vectorize", "box",
            "unswitch", "I3", "4",
        ]), 0..40)
    ) {
        use tessera::domain::alloc::{check_lowering, Lowering};
        use tessera::domain::codegen::{emit, Lang};
        let text = words.join(" ");
        if let Ok(s) = tessera::domain::parse(&text) {
            if let Ok(r) = tessera::domain::report::analyze(&s) {
                let _ = emit(&s, &r.derivation.chosen, Lang::Python);
                let _ = emit(&s, &r.derivation.chosen, Lang::Cuda);
                let l = Lowering { predicate: r.derivation.chosen.clone(), fill: Some(0.0) };
                let _ = check_lowering(&s, &l, 0.0);
            }
        }
    }
}

mod lowering_and_access {
    use super::*;
    use tessera::domain::alloc::{check_lowering, Lowering, Reduction};
    use tessera::domain::ir::Allocation;
    use tessera::domain::vectorize::{check_access, AccessKind};

    proptest! {
        #![proptest_config(ProptestConfig { cases: 500, failure_persistence: None, .. ProptestConfig::default() })]

        /// Allocating the loop domain: our predicate with the reduction's identity as fill is
        /// strongly correct (Definition 2); predicating the roots only is weakly correct
        /// (Definition 1) and strongly correct iff no hole point has its roots in bound.
        #[test]
        fn lowering_definitions(
            roots in prop::collection::vec(1i64..10, 1..3),
            ops in ops(),
            red in prop::sample::select(vec![Reduction::Sum, Reduction::Product, Reduction::Max, Reduction::Min]),
        ) {
            let mut s = build(&roots, &ops, 0);
            prop_assume!(small(&s));
            s.allocation = Some(Allocation { ids: s.loop_ids().unwrap(), strides: None });
            let ours = derive(&s).unwrap().chosen;
            let c = check_lowering(&s, &Lowering { predicate: ours, fill: Some(red.identity()) }, red.identity()).unwrap();
            prop_assert!(c.weak && c.strong, "{:?}\n{}", c.reasons, s);
            let r = check_lowering(&s, &Lowering { predicate: s.roots(), fill: Some(red.identity()) }, red.identity()).unwrap();
            prop_assert!(r.weak, "{:?}\n{}", r.reasons, s);
            let sp = Space::new(&s).unwrap();
            let mut hole_with_roots_in_bound = false;
            sp.for_each(|idx| {
                if !sp.valid(idx) && sp.root_item(idx).is_some() {
                    hole_with_roots_in_bound = true;
                }
                Ok(true)
            }).unwrap();
            if matches!(red, Reduction::Max | Reduction::Min) {
                prop_assert_eq!(r.strong, !hole_with_roots_in_bound);
            } else if !hole_with_roots_in_bound {
                // (An item's value may coincidentally equal 0 or 1, so only one direction.)
                prop_assert!(r.strong);
            }
            // Without any fill, holes keep garbage: strong only when there are no holes.
            let g = check_lowering(&s, &Lowering { predicate: derive(&s).unwrap().chosen, fill: None }, red.identity()).unwrap();
            prop_assert_eq!(g.strong, count(&sp).unwrap().holes == 0, "{:?}\n{}", g, s);
        }

        /// The seed's rule for a box split out of a merge of (possibly) discontiguous rows agrees
        /// with enumeration whenever there is a row boundary to cross.
        #[test]
        fn box_rule_agrees_with_enumeration(e1 in 2i64..5, e2 in 1i64..10, f in 1i64..10, pad in 0i64..3) {
            let text = format!(
                "I1 = iter {e1}\nI2 = iter {e2}\nI3 = merge I1, I2\nI4, I5 = split I3 by {f}\nloop I4 I5\nalloc I1 I2 strides {} 1\nbox I5\n",
                e2 + pad
            );
            let s = tessera::domain::parse(&text).unwrap();
            let v = check_access(&s, s.id("I5").unwrap(), AccessKind::Box).unwrap();
            let rule = v.rule.unwrap();
            prop_assert_eq!(rule.contiguous_merge, Some(pad == 0));
            prop_assert_eq!(rule.legal == Decision::Yes, v.contiguous.unwrap(), "{}", text);
        }
    }
}

/// The generator is not degenerate: a fixed sample has many schedules with holes and non-trivial
/// predicates, and some where our predicate is smaller than nvFuser's.
#[test]
fn generator_covers_interesting_cases() {
    use proptest::strategy::ValueTree;
    use proptest::test_runner::TestRunner;
    let mut runner = TestRunner::deterministic();
    let strat = (prop::collection::vec(1i64..13, 1..3), ops(), any::<u8>());
    let (mut total, mut with_holes, mut multi, mut smaller) = (0, 0, 0, 0);
    for _ in 0..400 {
        let (roots, ops, sh) = strat.new_tree(&mut runner).unwrap().current();
        let s = build(&roots, &ops, sh);
        if !small(&s) {
            continue;
        }
        total += 1;
        let sp = Space::new(&s).unwrap();
        if count(&sp).unwrap().holes > 0 {
            with_holes += 1;
        }
        let d = derive(&s).unwrap();
        if d.chosen.len() >= 2 {
            multi += 1;
        }
        if d.chosen.len() < nvfuser_choice(&s).unwrap().len() {
            smaller += 1;
        }
    }
    eprintln!("total {total}, with holes {with_holes}, >=2 conditions {multi}, smaller than nvFuser {smaller}");
    assert!(total >= 300);
    assert!(with_holes * 3 >= total);
    assert!(multi >= 20);
    assert!(smaller >= 20);
}

mod equivalence_rules {
    use super::*;
    use tessera::domain::equiv::compare;

    proptest! {
        #![proptest_config(ProptestConfig { cases: 300, failure_persistence: None, .. ProptestConfig::default() })]

        /// A schedule and its renamed copy: the normal-form rule says equivalent, and so does
        /// enumeration.
        #[test]
        fn renamed_copy_is_equivalent(
            roots in prop::collection::vec(1i64..10, 1..3),
            ops in ops(),
            shuffle in any::<u8>(),
        ) {
            let s = build(&roots, &ops, shuffle);
            prop_assume!(small(&s));
            let renamed = tessera::domain::parse(&s.to_string().replace('T', "U")).unwrap();
            let eq = compare(&s, &renamed).unwrap();
            prop_assert!(eq.by_enumeration.unwrap().equivalent);
            // The rule applies unless some index is computed forward or an ID is used twice.
            if let Some(r) = eq.by_rule {
                prop_assert_eq!(r.equivalent, Decision::Yes);
            }
        }

        /// Theorem 5 inside a larger schedule: the rule fires exactly when the split divides the
        /// inner extent, and then enumeration agrees.
        #[test]
        fn embedded_theorem5_rule_is_sound(e1 in 1i64..5, e2 in 1i64..10, f in 1i64..6, g in 1i64..5) {
            let a = format!("I1 = iter {e1}\nI2 = iter {e2}\nA, B = split I2 by {f}\nM = merge I1, A\nC, D = split M by {g}\nloop C D B\n");
            let b = format!("I1 = iter {e1}\nI2 = iter {e2}\nX = merge I1, I2\nY, Z = split X by {f}\nC, D = split Y by {g}\nloop C D Z\n");
            let (a, b) = (tessera::domain::parse(&a).unwrap(), tessera::domain::parse(&b).unwrap());
            let eq = compare(&a, &b).unwrap();
            let en = eq.by_enumeration.unwrap();
            match eq.by_rule {
                Some(r) => {
                    prop_assert_eq!(r.equivalent, Decision::Yes);
                    prop_assert!(en.equivalent);
                    prop_assert_eq!(e2 % f, 0);
                }
                None => prop_assert!(e2 % f != 0),
            }
        }
    }
}

mod structured_fuzz {
    use super::*;
    use tessera::domain::alloc::{check_lowering, Lowering};
    use tessera::domain::codegen::{emit, Lang};

    /// Renders random operations as schedule text whose names are defined before use, with
    /// extreme numbers mixed in (zero and negative factors, `i64` limits, slices past the extent).
    fn render(
        roots: &[(bool, i64)],
        ops: &[(u8, u8, u8, i64, i64)],
        facts: &[(u8, i64)],
    ) -> String {
        let mut lines = Vec::new();
        let mut names: Vec<String> = Vec::new();
        for (k, &(sym, e)) in roots.iter().enumerate() {
            let n = format!("R{k}");
            lines.push(if sym {
                format!("{n} = iter N")
            } else {
                format!("{n} = iter {e}")
            });
            names.push(n);
        }
        for (k, &(kind, a, b, p, q)) in ops.iter().enumerate() {
            let x = names[a as usize % names.len()].clone();
            let y = names[b as usize % names.len()].clone();
            let (o, i) = (format!("O{k}"), format!("P{k}"));
            let line = match kind % 9 {
                0 => format!("{o}, {i} = split {x} by {p}"),
                1 => format!("{o}, {i} = outer split {x} by {p}"),
                2 => format!("{o} = merge {x}, {y}"),
                3 => format!("{o} = resize {x} by {p}, {q}"),
                4 => format!("{o}, {i} = swizzle xor {x}, {y}"),
                5 => format!("loop {x} {y}"),
                6 => format!("alloc {x} {y} strides {p} {q}"),
                7 => format!("vectorize {x}"),
                _ => format!("unswitch {y}"),
            };
            lines.push(line);
            names.push(o);
            names.push(i);
        }
        for &(kind, v) in facts {
            lines.push(match kind % 3 {
                0 => format!("assume N % {} == 0", v.max(1)),
                1 => format!("assume N >= {v}"),
                _ => format!("assume N == {v}"),
            });
        }
        lines.join("\n")
    }

    fn number() -> impl Strategy<Value = i64> {
        prop_oneof![8 => -3i64..9, 1 => Just(i64::MAX), 1 => Just(i64::MIN), 1 => Just(1 << 40)]
    }

    proptest! {
        #![proptest_config(ProptestConfig { cases: 2000, failure_persistence: None, .. ProptestConfig::default() })]

        /// Random schedules (mostly well formed, some extreme): every entry point returns `Ok`
        /// or a typed error, never panics; whatever analyzes also emits and lowers, and its
        /// counts and predicate are consistent.
        #[test]
        fn no_panics_on_random_schedules(
            roots in prop::collection::vec((any::<bool>(), prop_oneof![1i64..12, Just(i64::MAX)]), 1..3),
            ops in prop::collection::vec((any::<u8>(), any::<u8>(), any::<u8>(), number(), number()), 0..8),
            facts in prop::collection::vec((any::<u8>(), 1i64..30), 0..2),
        ) {
            let text = render(&roots, &ops, &facts);
            if let Ok(s) = tessera::domain::parse(&text) {
                if let Ok(r) = tessera::domain::report::analyze(&s) {
                    let _ = r.render();
                    prop_assert!(emit(&s, &r.derivation.chosen, Lang::Python).is_ok());
                    prop_assert!(emit(&s, &r.derivation.chosen, Lang::Cuda).is_ok());
                    let l = Lowering { predicate: r.derivation.chosen.clone(), fill: Some(0.0) };
                    let _ = check_lowering(&s, &l, 0.0);
                    if let Some(c) = r.counts {
                        prop_assert_eq!(c.holes, c.iterations - c.valid);
                        prop_assert!(r.strategies[0].check.as_ref().unwrap().equivalent, "{}", text);
                    }
                }
            }
        }
    }
}
