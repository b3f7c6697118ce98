//! `equiv.rs`'s term rule at holes (issue 14, item 6): equal Theorem-5 normal forms prove
//! equivalence only together with `backward_check` (`backward_check_sound` in
//! `proofs/NormalizeBackward.v`); without it the rule was false at holes
//! (`normal_forms_unsound_at_holes`). Checks: the Coq counterexample, an exhaustive scan of its
//! family, the merge-split example still decided by rule, and random schedules that transform a split's inner
//! output after a Theorem 5 pair (the gap that let the bug through).

use proptest::prelude::*;
use tessera::domain::equiv::compare;
use tessera::domain::{Decision, Extent, Id, Schedule, SplitKind};

fn sched(text: &str) -> Schedule {
    tessera::domain::parse(text).unwrap()
}

/// `normal_forms_unsound_at_holes`'s family: merge-then-split with the inner output resized,
/// and the split-first version.
fn family(e1: i64, e2: i64, f: i64, l: i64, r: i64) -> Option<(Schedule, Schedule)> {
    let a = format!("A = iter {e1}\nB = iter {e2}\nM = merge A, B\nO, I = split M by {f}\nJ = resize I by {l}, {r}\nloop O J\n");
    let b = format!("A = iter {e1}\nB = iter {e2}\nP, Q = split B by {f}\nM = merge A, P\nJ = resize Q by {l}, {r}\nloop M J\n");
    Some((
        tessera::domain::parse(&a).ok()?,
        tessera::domain::parse(&b).ok()?,
    ))
}

#[test]
fn the_coq_counterexample_is_not_decided_by_the_rule() {
    let (a, b) = family(2, 4, 2, 1, 0).unwrap();
    let eq = compare(&a, &b).unwrap();
    // The normal forms agree, but backward_check fails both ways (`backward_check_examples`):
    // the extents are concrete, so the rule leaves the question to enumeration.
    assert_eq!(eq.by_rule, None);
    let en = eq.by_enumeration.unwrap();
    assert!(!en.equivalent);
    assert_eq!(
        en.counterexample.as_deref(),
        Some("at loop point [0, 0]: roots [-1, 3] vs [0, -1]")
    );
    // Either order.
    let eq = compare(&b, &a).unwrap();
    assert_eq!(eq.by_rule, None);
    assert!(!eq.by_enumeration.unwrap().equivalent);
}

#[test]
fn symbolic_counterexample_is_unknown_not_yes() {
    let a = sched("assume N % 2 == 0\nassume N >= 1\nA = iter 2\nB = iter N\nM = merge A, B\nO, I = split M by 2\nJ = resize I by 1, 0\nloop O J\n");
    let b = sched("assume N % 2 == 0\nassume N >= 1\nA = iter 2\nB = iter N\nP, Q = split B by 2\nM = merge A, P\nJ = resize Q by 1, 0\nloop M J\n");
    let eq = compare(&a, &b).unwrap();
    assert!(eq.by_enumeration.is_none());
    let r = eq.by_rule.unwrap();
    assert_eq!(r.equivalent, Decision::Unknown);
    assert!(r.condition.contains("backward_check"), "{}", r.condition);
}

/// The scan of the family reported with the Coq counterexample: the old rule said Yes on all
/// 1,152 pairs with equal normal forms and enumeration No on 960 of them. Now whenever the rule
/// says Yes, enumeration agrees.
#[test]
fn scanned_family_rule_yes_implies_enumeration_yes() {
    let (mut pairs, mut nf_equal, mut rule_yes, mut fallback, mut not_equiv) = (0, 0, 0, 0, 0);
    for e1 in 1..5 {
        for e2 in 1..9 {
            for f in 1..5 {
                for l in -2..=2 {
                    for r in -2..=2 {
                        let Some((a, b)) = family(e1, e2, f, l, r) else {
                            continue;
                        };
                        pairs += 1;
                        let eq = compare(&a, &b).unwrap();
                        let en = eq.by_enumeration.unwrap();
                        // The normal forms agree exactly when f | e2 (Theorem 5's redex).
                        if e2 % f == 0 {
                            nf_equal += 1;
                            if !en.equivalent {
                                not_equiv += 1;
                            }
                        }
                        match eq.by_rule {
                            Some(rule) => {
                                assert_eq!(rule.equivalent, Decision::Yes);
                                assert!(
                                    en.equivalent,
                                    "rule Yes, enumeration No: e1={e1} e2={e2} f={f} l={l} r={r}: {:?}",
                                    en.counterexample
                                );
                                rule_yes += 1;
                            }
                            None => fallback += 1,
                        }
                    }
                }
            }
        }
    }
    eprintln!(
        "pairs {pairs}, equal normal forms {nf_equal} (not equivalent {not_equiv}), rule Yes {rule_yes}, left to enumeration {fallback}"
    );
    assert_eq!(nf_equal, 1152);
    assert_eq!(not_equiv, 960);
}

#[test]
fn figure3_is_still_decided_by_rule() {
    // The merge-split example itself (Theorem 5's shape).
    let t1 = "I1 = iter 3\nI2 = iter 8\nI3, I5 = split I2 by 4\nI4 = merge I1, I3\nloop I4 I5\n";
    let t2 = "I1 = iter 3\nI2 = iter 8\nI3 = merge I1, I2\nI4, I5 = split I3 by 4\nloop I4 I5\n";
    let eq = compare(&sched(t1), &sched(t2)).unwrap();
    assert_eq!(eq.by_rule.unwrap().equivalent, Decision::Yes);
    assert!(eq.by_enumeration.unwrap().equivalent);
    // The merge-split example with a renamed copy of the extra root: decided by normal forms + backward_check.
    let a = sched("I0 = iter 2\nI1 = iter 3\nI2 = iter 8\nI3, I5 = split I2 by 4\nI4 = merge I1, I3\nloop I0 I4 I5\n");
    let b = sched("I0 = iter 2\nI1 = iter 3\nI2 = iter 8\nI3 = merge I1, I2\nI4, I5 = split I3 by 4\nloop I0 I4 I5\n");
    for (x, y) in [(&a, &b), (&b, &a)] {
        let eq = compare(x, y).unwrap();
        let r = eq.by_rule.unwrap();
        assert_eq!(r.equivalent, Decision::Yes);
        assert!(r.condition.contains("backward_check"), "{}", r.condition);
        assert!(eq.by_enumeration.unwrap().equivalent);
    }
    // `backward_check_examples`' embedded Theorem 5 (holes from the split by 3).
    let a = sched("I1 = iter 2\nI2 = iter 8\nA, B = split I2 by 4\nM = merge I1, A\nC, D = split M by 3\nloop C D B\n");
    let b = sched("I1 = iter 2\nI2 = iter 8\nX = merge I1, I2\nY, Z = split X by 4\nC, D = split Y by 3\nloop C D Z\n");
    let eq = compare(&a, &b).unwrap();
    assert_eq!(eq.by_rule.unwrap().equivalent, Decision::Yes);
    assert!(eq.by_enumeration.unwrap().equivalent);
}

#[test]
fn identical_terms_are_equivalent_by_rule() {
    // A split's inner output split again: backward_check fails, but the terms are identical.
    let t = "I = iter 10\nA, B = split I by 4\nC, D = split B by 3\nloop A C D\n";
    let eq = compare(&sched(t), &sched(t)).unwrap();
    let r = eq.by_rule.unwrap();
    assert_eq!(r.equivalent, Decision::Yes);
    assert!(r.rule.contains("identical"));
    assert!(eq.by_enumeration.unwrap().equivalent);
}

/// One operation applied to both schedules: kind, two leaf picks, two parameters.
type Op = (u8, u8, u8, i8, i8);

/// Roots `A{e1}, B{e2}` (and `C{e3}`); schedule 1 merges `A, B` then splits by `f`, schedule 2
/// splits `B` by `f` then merges `A` with the outer output; then the same random operations on
/// corresponding leaves of both, biased to the split's inner output. Returns `None` when an
/// operation is refused.
fn pair(e: (i64, i64, i64), f: i64, ops: &[Op], shuffle: u8) -> Option<(Schedule, Schedule)> {
    let mut s1 = Schedule::new();
    let mut s2 = Schedule::new();
    let mut l1: Vec<Id> = Vec::new();
    let mut l2: Vec<Id> = Vec::new();
    for s in [&mut s1, &mut s2] {
        s.iter("A", Extent::Const(e.0)).ok()?;
        s.iter("B", Extent::Const(e.1)).ok()?;
        if e.2 > 0 {
            s.iter("C", Extent::Const(e.2)).ok()?;
        }
    }
    let (a1, b1) = (s1.id("A").ok()?, s1.id("B").ok()?);
    let m = s1.merge(a1, b1, "M").ok()?;
    let (o, i) = s1.split(m, f, SplitKind::Inner, "O", "I").ok()?;
    l1.extend([o, i]);
    let (a2, b2) = (s2.id("A").ok()?, s2.id("B").ok()?);
    let (p, q) = s2.split(b2, f, SplitKind::Inner, "P", "Q").ok()?;
    let m = s2.merge(a2, p, "M").ok()?;
    l2.extend([m, q]);
    if e.2 > 0 {
        l1.push(s1.id("C").ok()?);
        l2.push(s2.id("C").ok()?);
    }
    for (k, &(kind, x, y, p, q)) in ops.iter().enumerate() {
        // Half of the first operands are the split's inner output (or what replaced it).
        let x = if x % 2 == 0 {
            1 % l1.len()
        } else {
            x as usize % l1.len()
        };
        let y = y as usize % l1.len();
        let (o, n) = (format!("T{k}o"), format!("T{k}i"));
        let ext = s1.concrete_extents().ok()?;
        match kind % 4 {
            0 => {
                let f = 1 + (p.unsigned_abs() % 4) as i64;
                let sk = if q % 3 == 0 {
                    SplitKind::Outer
                } else {
                    SplitKind::Inner
                };
                let r1 = s1.split(l1[x], f, sk, &o, &n).ok()?;
                let r2 = s2.split(l2[x], f, sk, &o, &n).ok()?;
                l1.splice(x..=x, [r1.0, r1.1]);
                l2.splice(x..=x, [r2.0, r2.1]);
            }
            1 if x != y && ext[l1[x]] * ext[l1[y]] <= 64 => {
                let r1 = s1.merge(l1[x], l1[y], &o).ok()?;
                let r2 = s2.merge(l2[x], l2[y], &o).ok()?;
                let (lo, hi) = (x.min(y), x.max(y));
                for (l, r) in [(&mut l1, r1), (&mut l2, r2)] {
                    l.remove(hi);
                    l[lo] = r;
                }
            }
            2 => {
                let (lp, rp) = ((p % 3) as i64, (q % 3) as i64);
                let r1 = s1.resize(l1[x], lp, rp, &o).ok()?;
                let r2 = s2.resize(l2[x], lp, rp, &o).ok()?;
                l1[x] = r1;
                l2[x] = r2;
            }
            3 if x != y => {
                let r1 = s1.swizzle(l1[x], l1[y], &o, &n).ok()?;
                let r2 = s2.swizzle(l2[x], l2[y], &o, &n).ok()?;
                l1[x] = r1.0;
                l1[y] = r1.1;
                l2[x] = r2.0;
                l2[y] = r2.1;
            }
            _ => {}
        }
    }
    let k = shuffle as usize % l1.len();
    l1.rotate_left(k);
    l2.rotate_left(k);
    s1.loop_domain = Some(l1);
    s2.loop_domain = Some(l2);
    let small = |s: &Schedule| {
        tessera::domain::eval::Space::new(s)
            .map(|sp| sp.points <= 4096)
            .unwrap_or(false)
    };
    (small(&s1) && small(&s2)).then_some((s1, s2))
}

fn ops() -> impl Strategy<Value = Vec<Op>> {
    prop::collection::vec(
        (0u8..4, any::<u8>(), any::<u8>(), any::<i8>(), any::<i8>()),
        0..5,
    )
}

proptest! {
    #![proptest_config(ProptestConfig { cases: 10000, failure_persistence: None, .. ProptestConfig::default() })]

    /// Transforms after a Theorem 5 pair, on the split's inner output among others: whenever
    /// the rule says Yes, enumeration agrees (both orders).
    #[test]
    fn rule_yes_implies_enumeration_yes_after_theorem5(
        e1 in 1i64..5, e2 in 1i64..13, e3 in 0i64..4, f in 1i64..6,
        ops in ops(), shuffle in any::<u8>(),
    ) {
        let Some((a, b)) = pair((e1, e2, e3), f, &ops, shuffle) else {
            return Ok(());
        };
        for (x, y) in [(&a, &b), (&b, &a)] {
            let eq = compare(x, y).unwrap();
            let en = eq.by_enumeration.unwrap();
            if let Some(r) = eq.by_rule {
                // The merge-split example's exact shape is Theorem 5's iff: No is a decision there too.
                prop_assert_ne!(r.equivalent, Decision::Unknown);
                prop_assert_eq!(r.equivalent == Decision::Yes, en.equivalent, "rule {:?}, enumeration {:?}\n{}\n---\n{}", r, en.counterexample, x, y);
            }
        }
    }
}

/// The same generator, counted over a fixed sweep: how often the rule decides, how often it is
/// left to enumeration with equal normal forms, and how many of the pairs are not equivalent.
/// The sweep must reach rule-Yes cases and non-equivalent pairs with transforms after the split.
#[test]
fn generator_reaches_both_outcomes() {
    use proptest::strategy::ValueTree;
    use proptest::test_runner::{Config, RngAlgorithm, TestRng, TestRunner};
    let mut runner = TestRunner::new_with_rng(
        Config::default(),
        TestRng::from_seed(RngAlgorithm::ChaCha, &[7; 32]),
    );
    let strat = (1i64..5, 1i64..13, 0i64..4, 1i64..6, ops(), any::<u8>());
    let (mut built, mut rule_yes, mut rule_no, mut left) = (0, 0, 0, 0);
    let (mut not_equiv, mut rule_yes_with_ops, mut nf_equal, mut nf_equal_not_equiv) = (0, 0, 0, 0);
    for _ in 0..3000 {
        let (e1, e2, e3, f, ops, shuffle) = strat.new_tree(&mut runner).unwrap().current();
        let Some((a, b)) = pair((e1, e2, e3), f, &ops, shuffle) else {
            continue;
        };
        built += 1;
        let eq = compare(&a, &b).unwrap();
        let en = eq.by_enumeration.unwrap();
        if !en.equivalent {
            not_equiv += 1;
        }
        // The operations after the pair are the same on both sides and normalization is a
        // congruence, so the normal forms agree exactly when f | e2: where the old rule could
        // answer Yes (when it built the terms).
        if e2 % f == 0 {
            nf_equal += 1;
            if !en.equivalent {
                nf_equal_not_equiv += 1;
            }
        }
        match eq.by_rule {
            Some(r) if r.equivalent == Decision::No => {
                assert!(!en.equivalent, "{a}\n---\n{b}");
                rule_no += 1;
            }
            Some(r) => {
                assert_eq!(r.equivalent, Decision::Yes);
                assert!(en.equivalent, "{a}\n---\n{b}");
                rule_yes += 1;
                if !ops.is_empty() {
                    rule_yes_with_ops += 1;
                }
            }
            None => left += 1,
        }
    }
    eprintln!("built {built}, rule Yes {rule_yes} ({rule_yes_with_ops} with operations after the pair), rule No {rule_no}, left to enumeration {left}, not equivalent {not_equiv}; equal normal forms {nf_equal}, of which not equivalent {nf_equal_not_equiv}");
    // Pairs on which the unguarded rule answered a wrong Yes.
    assert!(nf_equal_not_equiv >= 50);
    assert!(rule_yes >= 100);
    assert!(rule_yes_with_ops >= 50);
    assert!(not_equiv >= 100);
}
