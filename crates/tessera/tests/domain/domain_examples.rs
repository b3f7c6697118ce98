//! The worked examples of `shared/reference/nvfuser.md` §5 that concern iteration domains,
//! reproduced exactly (Examples 1–17, 22–25; 11b included).

use tessera::domain::alloc::{allocation_info, check_lowering, Lowering, Reduction};
use tessera::domain::equiv::compare;
use tessera::domain::eval::{check_predicate, count, Space};
use tessera::domain::predicate::{derive, nvfuser_choice};
use tessera::domain::report::{analyze, ObligationKind};
use tessera::domain::vectorize::{check_access, AccessKind};
use tessera::domain::{parse, Decision, Id, Schedule};

fn sched(text: &str) -> Schedule {
    parse(text).expect("schedule parses")
}

fn ids(s: &Schedule, names: &[&str]) -> Vec<Id> {
    names.iter().map(|n| s.id(n).unwrap()).collect()
}

/// Root indices of every loop point (holes included), in loop order.
fn visits(s: &Schedule, pred: &[Id]) -> Vec<Vec<i64>> {
    let sp = Space::new(s).unwrap();
    let roots = s.roots();
    let mut out = Vec::new();
    sp.for_each(|idx| {
        if sp.passes(idx, pred) {
            out.push(roots.iter().map(|&r| idx[r]).collect());
        }
        Ok(true)
    })
    .unwrap();
    out
}

fn flat(v: &[Vec<i64>]) -> Vec<i64> {
    v.iter().map(|r| r[0]).collect()
}

#[test]
fn example1_indivisible_split_creates_two_holes() {
    let s = sched("I0 = iter 6\nI1, I2 = split I0 by 4\n");
    assert_eq!(s.concrete_extents().unwrap(), vec![6, 2, 4]);
    assert_eq!(flat(&visits(&s, &[])), vec![0, 1, 2, 3, 4, 5, 6, 7]);
    let d = derive(&s).unwrap();
    assert_eq!(d.chosen, ids(&s, &["I0"]));
    assert_eq!(flat(&visits(&s, &d.chosen)), vec![0, 1, 2, 3, 4, 5]);
    // Equivalent decomposition: Resize(I{6}, 0, 2) then a divisible split.
    let r = sched("I0 = iter 6\nR = resize I0 by 0, 2\nI1, I2 = split R by 4\n");
    assert_eq!(visits(&r, &[]), visits(&s, &[]));
    let dr = derive(&r).unwrap();
    assert_eq!(dr.chosen, ids(&r, &["I0"]));
    // Allocating [I1, I2] over-allocates 2 slots (the 6-by-4 example).
    let a = sched("I0 = iter 6\nI1, I2 = split I0 by 4\nalloc I1 I2\n");
    let info = allocation_info(&a).unwrap();
    assert_eq!(info.size.as_const(), Some(8));
    assert_eq!(info.over_allocation, Some(2));
}

#[test]
fn example2_divisible_split_needs_no_predicate() {
    let s = sched("I0 = iter 6\nI1, I2 = split I0 by 2\n");
    assert_eq!(s.concrete_extents().unwrap(), vec![6, 3, 2]);
    assert_eq!(flat(&visits(&s, &[])), vec![0, 1, 2, 3, 4, 5]);
    let d = derive(&s).unwrap();
    assert!(d.chosen.is_empty());
    assert_eq!(d.dropped[0].theorem, "Lemma (divisible split)");
    let c = count(&Space::new(&s).unwrap()).unwrap();
    assert_eq!((c.iterations, c.valid, c.holes), (6, 6, 0));
}

const FIG2: &str = "I0 = iter 15\nI1, I2 = split I0 by 6\nI3, I4 = split I1 by 2\nI5, I6 = split I2 by 4\nloop I3 I4 I5 I6\n";

#[test]
fn example3_three_indivisible_splits() {
    let s = sched(FIG2);
    let sp = Space::new(&s).unwrap();
    let c = count(&sp).unwrap();
    assert_eq!((c.iterations, c.valid, c.holes), (32, 15, 17));
    let all = ids(&s, &["I1", "I2", "I0"]);
    assert_eq!(flat(&visits(&s, &all)), (0..15).collect::<Vec<_>>());
    let only_i0 = ids(&s, &["I0"]);
    assert_eq!(
        flat(&visits(&s, &only_i0)),
        vec![0, 1, 2, 3, 4, 5, 6, 7, 6, 7, 8, 9, 10, 11, 12, 13, 12, 13, 14]
    );
    let ch = check_predicate(&sp, &only_i0).unwrap();
    assert_eq!((ch.passing, ch.duplicates, ch.equivalent), (19, 4, false));
    let d = derive(&s).unwrap();
    assert_eq!(d.chosen, ids(&s, &["I0", "I2"]));
    assert_eq!(d.dropped.len(), 1);
    assert_eq!(d.dropped[0].id, s.id("I1").unwrap());
    assert_eq!(d.dropped[0].theorem, "Theorem 1 (split)");
    assert_eq!(d.dropped[0].premises, ids(&s, &["I0", "I2"]));
    assert_eq!(flat(&visits(&s, &d.chosen)), (0..15).collect::<Vec<_>>());
    assert_eq!(nvfuser_choice(&s).unwrap(), ids(&s, &["I0", "I2"]));
}

const T1: &str =
    "I1 = iter 2\nI2 = iter 5\nI3, I5 = split I2 by 4\nI4 = merge I1, I3\nloop I4 I5\n";
const T2: &str =
    "I1 = iter 2\nI2 = iter 5\nI3 = merge I1, I2\nI4, I5 = split I3 by 4\nloop I4 I5\n";

fn pairs(v: &[(i64, i64)]) -> Vec<Vec<i64>> {
    v.iter().map(|&(a, b)| vec![a, b]).collect()
}

#[test]
fn example4_merge_split_not_equivalent_when_indivisible() {
    let a = sched(T1);
    let b = sched(T2);
    let listing1: Vec<(i64, i64)> = (0..2).flat_map(|r| (0..8).map(move |c| (r, c))).collect();
    assert_eq!(visits(&a, &[]), pairs(&listing1));
    let listing2 = [
        (0, 0),
        (0, 1),
        (0, 2),
        (0, 3),
        (0, 4),
        (1, 0),
        (1, 1),
        (1, 2),
        (1, 3),
        (1, 4),
        (2, 0),
        (2, 1),
    ];
    assert_eq!(visits(&b, &[]), pairs(&listing2));
    assert_eq!(derive(&a).unwrap().chosen, ids(&a, &["I2"]));
    assert_eq!(derive(&b).unwrap().chosen, ids(&b, &["I1"]));
    let eq = compare(&a, &b).unwrap();
    let rule = eq.by_rule.unwrap();
    assert_eq!(rule.equivalent, Decision::No);
    assert_eq!(rule.condition, "4 | 5");
    let en = eq.by_enumeration.unwrap();
    assert!(!en.equivalent);
    assert_eq!(
        en.counterexample.unwrap(),
        "loop extents differ: [4, 4] vs [3, 4]"
    );
}

#[test]
fn example5_divisible_case_is_equivalent() {
    let a = sched(&T1.replace("iter 5", "iter 8"));
    let b = sched(&T2.replace("iter 5", "iter 8"));
    let expect: Vec<(i64, i64)> = (0..2).flat_map(|r| (0..8).map(move |c| (r, c))).collect();
    assert_eq!(visits(&a, &[]), pairs(&expect));
    assert_eq!(visits(&b, &[]), pairs(&expect));
    let eq = compare(&a, &b).unwrap();
    assert_eq!(eq.by_rule.unwrap().equivalent, Decision::Yes);
    assert!(eq.by_enumeration.unwrap().equivalent);
}

#[test]
fn example6_split_split_rotation_holds_indivisibly() {
    let left = sched("I = iter 10\nA, B = split I by 3\nC, D = split A by 2\nloop C D B\n");
    let right = sched("I = iter 10\nE, F = split I by 6\nG, H = split F by 3\nloop E G H\n");
    assert_eq!(
        left.loop_ids()
            .unwrap()
            .iter()
            .map(|&i| left.concrete_extents().unwrap()[i])
            .collect::<Vec<_>>(),
        vec![2, 2, 3]
    );
    let eq = compare(&left, &right).unwrap();
    assert!(eq.by_rule.is_none());
    assert!(eq.by_enumeration.unwrap().equivalent);
    // Holes (1,1,1) and (1,1,2), i.e. items 10 and 11, in both.
    let sp = Space::new(&left).unwrap();
    let mut holes = Vec::new();
    sp.for_each(|idx| {
        if !sp.valid(idx) {
            holes.push(idx[left.id("I").unwrap()]);
        }
        Ok(true)
    })
    .unwrap();
    assert_eq!(holes, vec![10, 11]);
    // i = 7 -> (1, 0, 1) both ways.
    let at7 = |s: &Schedule| {
        let sp = Space::new(s).unwrap();
        let mut found = None;
        sp.for_each(|idx| {
            if idx[0] == 7 {
                found = Some(
                    s.loop_ids()
                        .unwrap()
                        .iter()
                        .map(|&l| idx[l])
                        .collect::<Vec<_>>(),
                );
            }
            Ok(true)
        })
        .unwrap();
        found.unwrap()
    };
    assert_eq!(at7(&left), vec![1, 0, 1]);
    assert_eq!(at7(&right), vec![1, 0, 1]);
}

#[test]
fn example7_differently_split_axes_differ() {
    let inp = sched("I = iter 6\nA, B = outer split I by 2\n");
    let out = sched("I = iter 6\nA0, E = split I by 4\nC, D = outer split A0 by 2\nloop C D E\n");
    assert_eq!(out.concrete_extents().unwrap(), vec![6, 2, 4, 2, 1]);
    let axis0 = |s: &Schedule, axis: &str| {
        let sp = Space::new(s).unwrap();
        let mut v = vec![-1; 6];
        let a = s.id(axis).unwrap();
        sp.for_each(|idx| {
            if sp.valid(idx) {
                v[idx[0] as usize] = idx[a];
            }
            Ok(true)
        })
        .unwrap();
        v
    };
    assert_eq!(axis0(&inp, "A"), vec![0, 0, 0, 1, 1, 1]);
    assert_eq!(axis0(&out, "C"), vec![0, 0, 0, 0, 1, 1]);
}

#[test]
fn example8_nested_non_divisible_split() {
    let s = sched("assume N == 999\nI0 = iter N\nI1, I2 = split I0 by 5\nI3, I4 = split I2 by 3\n");
    let sp = Space::new(&s).unwrap();
    assert_eq!(sp.points, 1200);
    let d = derive(&s).unwrap();
    assert_eq!(d.chosen, ids(&s, &["I0", "I2"]));
    assert_eq!(nvfuser_choice(&s).unwrap(), ids(&s, &["I0", "I2"]));
    let full = check_predicate(&sp, &d.chosen).unwrap();
    assert_eq!(
        (full.passing, full.duplicates, full.equivalent),
        (999, 0, true)
    );
    let weak = check_predicate(&sp, &ids(&s, &["I0"])).unwrap();
    assert_eq!((weak.passing, weak.duplicates), (1198, 199));
    // The divisible variant (split 4 then 2) needs only the logical predicate.
    let t = sched("assume N == 999\nI0 = iter N\nI1, I2 = split I0 by 4\nI3, I4 = split I2 by 2\n");
    assert_eq!(derive(&t).unwrap().chosen, ids(&t, &["I0"]));
}

const EX10: &str = "I1 = iter 12\nI2, I3 = split I1 by 2\nI4, I5 = split I2 by 2\nI6, I7 = split I5 by 4\nloop I4 I6 I7 I3\nalloc I4 I6 I7 I3\n";

fn buffer(s: &Schedule, pred: &[Id], fill: Option<f64>, red: Reduction) -> (Vec<i64>, bool, bool) {
    let c = check_lowering(
        s,
        &Lowering {
            predicate: pred.to_vec(),
            fill,
        },
        red.identity(),
    )
    .unwrap();
    (
        c.buffer
            .iter()
            .map(|v| v.map_or(-1, |x| x as i64))
            .collect(),
        c.weak,
        c.strong,
    )
}

#[test]
fn example10_weak_correctness_holes_hold_in_bound_data() {
    let s = sched(EX10);
    let (b, weak, strong) = buffer(&s, &s.roots(), Some(0.0), Reduction::Sum);
    assert_eq!(
        b,
        vec![0, 1, 2, 3, 4, 5, 6, 7, 4, 5, 6, 7, 8, 9, 10, 11, 8, 9, 10, 11, 0, 0, 0, 0]
    );
    assert!(weak);
    assert!(!strong);
    // Only I5 is unprotected: our predicate is `i5 < 2`, which makes the zero-fill lowering strong.
    let d = derive(&s).unwrap();
    assert_eq!(d.chosen, ids(&s, &["I5"]));
    let (b2, weak2, strong2) = buffer(&s, &d.chosen, Some(0.0), Reduction::Sum);
    assert!(weak2 && strong2);
    assert_eq!(&b2[4..8], &[0, 0, 0, 0]);
    // The same buffer is not strongly correct for a product (holes must be 1).
    let (_, w3, s3) = buffer(&s, &d.chosen, Some(0.0), Reduction::Product);
    assert!(w3 && !s3);
    let (_, w4, s4) = buffer(&s, &d.chosen, Some(1.0), Reduction::Product);
    assert!(w4 && s4);
    let (_, w5, s5) = buffer(&s, &d.chosen, Some(f64::NEG_INFINITY), Reduction::Max);
    assert!(w5 && s5);
    // No fill at all: holes keep garbage, weak only.
    let (_, w6, s6) = buffer(&s, &d.chosen, None, Reduction::Sum);
    assert!(w6 && !s6);
}

#[test]
fn example11_strong_correctness() {
    let s = sched("I1 = iter 6\nI2 = iter 6\nI3, I4 = split I1 by 2\nI5, I6 = split I2 by 4\nI7 = merge I3, I5\nI8 = merge I4, I6\nI9, I10 = split I7 by 4\nloop I9 I10 I8\nalloc I9 I10 I8\n");
    let (b, weak, strong) = buffer(&s, &s.roots(), Some(0.0), Reduction::Sum);
    let expect = [
        [0, 1, 2, 3, 6, 7, 8, 9],
        [4, 5, 0, 0, 10, 11, 0, 0],
        [12, 13, 14, 15, 18, 19, 20, 21],
        [16, 17, 0, 0, 22, 23, 0, 0],
        [24, 25, 26, 27, 30, 31, 32, 33],
        [28, 29, 0, 0, 34, 35, 0, 0],
        [0; 8],
        [0; 8],
    ];
    assert_eq!(b, expect.concat());
    assert!(weak && strong);
}

#[test]
fn example11b_strong_correctness_second_schedule() {
    let s = sched("I1 = iter 6\nI2 = iter 6\nI3, I4 = split I1 by 2\nI5, I6 = split I2 by 4\nI7, I8 = split I3 by 2\nI9 = merge I4, I6\nI10 = merge I5, I8\nI11, I12 = split I10 by 3\nloop I7 I11 I12 I9\nalloc I7 I11 I12 I9\n");
    assert_eq!(allocation_info(&s).unwrap().size.as_const(), Some(96));
    let (b, weak, strong) = buffer(&s, &s.roots(), Some(0.0), Reduction::Sum);
    let z = [0i64; 8];
    let expect: Vec<[i64; 8]> = vec![
        [0, 1, 2, 3, 6, 7, 8, 9],
        [12, 13, 14, 15, 18, 19, 20, 21],
        [4, 5, 0, 0, 10, 11, 0, 0],
        [16, 17, 0, 0, 22, 23, 0, 0],
        z,
        z,
        [24, 25, 26, 27, 30, 31, 32, 33],
        z,
        [28, 29, 0, 0, 34, 35, 0, 0],
        z,
        z,
        z,
    ];
    assert_eq!(b, expect.concat());
    assert!(weak && strong);
}

#[test]
fn example12_strong_correctness_impossible_data() {
    let s = sched("I1 = iter 8\nI2 = iter 2\nI3, I4 = split I1 by 4\nI5, I6 = split I4 by 3\nloop I3 I6 I5 I2\nalloc I3 I6 I5 I2\n");
    let (b, weak, strong) = buffer(&s, &s.roots(), Some(0.0), Reduction::Sum);
    assert_eq!(
        b,
        vec![0, 1, 6, 7, 2, 3, 8, 9, 4, 5, 10, 11, 8, 9, 14, 15, 10, 11, 0, 0, 12, 13, 0, 0]
    );
    assert!(weak && !strong);
    // The hole-exact predicate is I4 alone (I1 follows: its split by 4 is divisible), and I4's
    // index depends on the tile index I5, which TMA keeps inside the hardware.
    assert_eq!(derive(&s).unwrap().chosen, ids(&s, &["I4"]));
}

#[test]
fn example14_size_one_split_hidden_from_almost_exact_graph() {
    let s = sched("I = iter 8\nR1, R2 = split I by 1\nR3, R4 = split R2 by 4\nloop R1 R3 R4\n");
    let d = derive(&s).unwrap();
    // i < 8 is implied (divisible split by 1 with R2 in bound); k < 1 (R2) is the only condition.
    assert_eq!(d.chosen, ids(&s, &["R2"]));
    assert_eq!(nvfuser_choice(&s).unwrap(), ids(&s, &["I", "R2"]));
    let sp = Space::new(&s).unwrap();
    assert!(check_predicate(&sp, &d.chosen).unwrap().equivalent);
    let v = sched(
        "I = iter 8\nA, B = split I by 1\nC, D = split B by 1\nE, F = split D by 4\nloop A C E F\n",
    );
    assert_eq!(derive(&v).unwrap().chosen, ids(&v, &["D"]));
}

#[test]
fn example15_non_divisible_split_feeding_a_merge() {
    let s = sched(
        "I0 = iter 5\nI1 = iter 2\nI2 = merge I0, I1\nI3, I4 = split I1 by 8\nloop I0 I3 I4\n",
    );
    let sp = Space::new(&s).unwrap();
    assert_eq!(sp.points, 40);
    assert_eq!(nvfuser_choice(&s).unwrap(), ids(&s, &["I1", "I2"]));
    let d = derive(&s).unwrap();
    assert_eq!(d.chosen, ids(&s, &["I1"]));
    assert!(check_predicate(&sp, &d.chosen).unwrap().equivalent);
    // Without `i1 < 2`, 28 of the 40 threads pass but only 10 distinct items of I2 exist: 18
    // threads write duplicates (they read root items with i1 out of range).
    let without = check_predicate(&sp, &ids(&s, &["I2"])).unwrap();
    assert_eq!((without.passing, without.out_of_range_reads), (28, 18));
    let i2 = s.id("I2").unwrap();
    let mut written = std::collections::BTreeMap::new();
    sp.for_each(|idx| {
        if sp.passes(idx, &[i2]) {
            *written.entry(idx[i2]).or_insert(0) += 1;
        }
        Ok(true)
    })
    .unwrap();
    assert_eq!(written.len(), 10);
    assert_eq!(written.values().map(|c| c - 1).sum::<i32>(), 18);
}

#[test]
fn example17_vectorized_non_divisible_split_needs_launch_validation() {
    let text = "I0 = iter N\nI1, I2 = outer split I0 by 8\nI3, I4 = split I2 by 4\nvectorize I4\n";
    let r = analyze(&sched(text)).unwrap();
    assert_eq!(r.accesses[0].split_divisible, Some(Decision::Unknown));
    assert!(r
        .obligations
        .iter()
        .any(|o| o.kind == ObligationKind::Launch && o.condition == "ceilDiv(N, 8) % 4 == 0"));
    let ok = sched(&format!("assume N == 32\n{text}"));
    let v = check_access(&ok, ok.id("I4").unwrap(), AccessKind::Vectorize).unwrap();
    assert_eq!(v.split_divisible, Some(Decision::Yes));
    assert_eq!(v.contiguous, Some(true));
    let bad = sched(&format!("assume N == 8\n{text}"));
    let v = check_access(&bad, bad.id("I4").unwrap(), AccessKind::Vectorize).unwrap();
    assert_eq!(v.split_divisible, Some(Decision::No));
    assert_eq!(v.contiguous, Some(false));
    // A fact that suffices: N % 32 == 0 makes ceilDiv(N, 8) divisible by 4.
    let r = analyze(&sched(&format!(
        "assume N % 32 == 0\nassume N >= 1\n{text}"
    )))
    .unwrap();
    assert_eq!(r.accesses[0].split_divisible, Some(Decision::Yes));
    assert!(r
        .obligations
        .iter()
        .all(|o| o.kind != ObligationKind::Launch));
}

#[test]
fn example22_xor_swizzle_table() {
    let s = sched("X = iter 4\nY = iter 4\nU, V = swizzle xor X, Y\nloop U V\n");
    let sp = Space::new(&s).unwrap();
    let y = s.id("Y").unwrap();
    let mut table = Vec::new();
    sp.for_each(|idx| {
        table.push(idx[y]);
        Ok(true)
    })
    .unwrap();
    assert_eq!(table, vec![0, 1, 2, 3, 1, 0, 3, 2, 2, 3, 0, 1, 3, 2, 1, 0]);
    assert!(derive(&s).unwrap().chosen.is_empty());
    // Not a power of two: the swizzle creates holes (x ^ y can reach 3 with extent 3).
    let h = sched("X = iter 3\nY = iter 3\nU, V = swizzle xor X, Y\nloop U V\n");
    let c = count(&Space::new(&h).unwrap()).unwrap();
    assert!(c.holes > 0);
    assert_eq!(derive(&h).unwrap().chosen, ids(&h, &["Y"]));
}

#[test]
fn example23_resize_slices_index_with_offset() {
    let s = sched(
        "I0 = iter 11\nI1 = iter 30\nA = resize I1 by 0, -15\nB = resize I1 by -15, 0\nloop I0 A\n",
    );
    // Two slices of the same root: the loop domain [I0, A] determines I1; B is computed forward.
    let lo = sched("I0 = iter 11\nI1 = iter 30\nA = resize I1 by 0, -15\nloop I0 A\n");
    let hi = sched("I0 = iter 11\nI1 = iter 30\nB = resize I1 by -15, 0\nloop I0 B\n");
    let item = |s: &Schedule, i0: i64, i1: i64| {
        let sp = Space::new(s).unwrap();
        let mut out = None;
        let l = s.loop_ids().unwrap();
        sp.for_each(|idx| {
            if idx[l[0]] == i0 && idx[l[1]] == i1 {
                out = sp.root_item(idx);
            }
            Ok(true)
        })
        .unwrap();
        out.unwrap() as i64
    };
    assert_eq!(item(&lo, 3, 4), 3 * 30 + 4);
    assert_eq!(item(&hi, 3, 4), 3 * 30 + (4 + 15));
    assert!(derive(&lo).unwrap().chosen.is_empty());
    assert!(derive(&hi).unwrap().chosen.is_empty());
    assert_eq!(derive(&hi).unwrap().dropped[0].theorem, "Lemma (slice)");
    assert_eq!(s.concrete_extents().unwrap(), vec![11, 30, 15, 15]);
}

#[test]
fn theorem5_inside_a_larger_schedule_by_normal_forms() {
    // The merge-split example embedded: an extra root and a split of the merged loop, with renamed IDs.
    let a = sched("I0 = iter 3\nI1 = iter 2\nI2 = iter 8\nA, B = split I2 by 4\nM = merge I1, A\nO, P = split I0 by 2\nloop O M P B\n");
    let b = sched("I0 = iter 3\nI1 = iter 2\nI2 = iter 8\nX = merge I1, I2\nY, Z = split X by 4\nQ, R = split I0 by 2\nloop Q Y R Z\n");
    let eq = compare(&a, &b).unwrap();
    let rule = eq.by_rule.unwrap();
    assert_eq!(rule.equivalent, Decision::Yes);
    assert!(rule.rule.contains("normal forms"));
    assert!(eq.by_enumeration.unwrap().equivalent);
    // Indivisible: the normal forms differ, the rule says nothing, enumeration refutes.
    let a5 = sched(&a.to_string().replace("iter 8", "iter 5"));
    let b5 = sched(&b.to_string().replace("iter 8", "iter 5"));
    let eq = compare(&a5, &b5).unwrap();
    assert!(eq.by_rule.is_none());
    assert!(!eq.by_enumeration.unwrap().equivalent);
    // Symbolic and divisible by the facts: decided without enumeration.
    let sa = sched("assume K % 4 == 0\nI1 = iter M\nI2 = iter K\nA, B = split I2 by 4\nC = merge I1, A\nloop C B\n");
    let sb = sched("assume K % 4 == 0\nI1 = iter M\nI2 = iter K\nX = merge I1, I2\nY, Z = split X by 4\nloop Y Z\n");
    let eq = compare(&sa, &sb).unwrap();
    assert_eq!(eq.by_rule.unwrap().equivalent, Decision::Yes);
    assert!(eq.by_enumeration.is_none());
}

#[test]
fn an_allocation_that_misses_items_is_refused() {
    // Allocating only the inner split output: items 0 and 4 would share a slot, because the
    // allocated index does not determine I0's (issue 15: meaningless schedules are refused).
    let e = parse("I0 = iter 6\nI1, I2 = split I0 by 4\nalloc I2\n").unwrap_err();
    assert_eq!(e.code(), "bad_alloc");
    assert!(e.to_string().contains("line 3"), "{e}");
    assert!(
        e.to_string().contains("does not determine the index of I0"),
        "{e}"
    );
    // Built by hand past the parser, the lowering check refuses it the same way.
    let mut s = sched("I0 = iter 6\nI1, I2 = split I0 by 4\n");
    s.allocation = Some(tessera::domain::Allocation {
        ids: vec![s.id("I2").unwrap()],
        strides: None,
    });
    let e = check_lowering(
        &s,
        &Lowering {
            predicate: derive(&s).unwrap().chosen,
            fill: Some(0.0),
        },
        0.0,
    )
    .unwrap_err();
    assert_eq!(e.code(), "bad_alloc");
    // An IterDomain allocated with one computed from it: slots repeat items.
    let e = parse("I0 = iter 6\nI1, I2 = split I0 by 4\nalloc I0 I1\n").unwrap_err();
    assert_eq!(e.code(), "aliasing_alloc");
    assert!(
        e.to_string().contains("I1 is allocated and computed from"),
        "{e}"
    );
}

/// Example 13: with TMA, the hardware bound-checks the root and the tile index stays inside the
/// hardware, so a lowering may additionally predicate only IDs computable without the tile index.
/// Strong correctness (zero-filled holes) is achievable iff NOT (e < B < S ∧ e ∤ B) — the FTTC.
fn strong_correctness_achievable(size: i64, boxed: i64, stride: i64) -> bool {
    let s = sched(&format!(
        "I1 = iter {size}\nI3, I4 = split I1 by {boxed}\nI5, I6 = split I4 by {stride}\nloop I3 I6 I5\nalloc I3 I6 I5\n"
    ));
    let ext = s.concrete_extents().unwrap();
    let (i1, i4, i5) = (
        s.id("I1").unwrap(),
        s.id("I4").unwrap(),
        s.id("I5").unwrap(),
    );
    // I4 = I5 * e + I6 is computable outside the hardware only when the tile has one element.
    let mut options = vec![vec![i1]];
    if ext[i5] == 1 {
        options.push(vec![i1, i4]);
    }
    options.into_iter().any(|predicate| {
        check_lowering(
            &s,
            &Lowering {
                predicate,
                fill: Some(0.0),
            },
            0.0,
        )
        .unwrap()
        .strong
    })
}

#[test]
fn example13_fttc_truth_table() {
    for (s, b, e, impossible) in [
        (8, 4, 3, true),
        (4, 4, 3, false),
        (8, 4, 5, false),
        (8, 4, 2, false),
        (8, 4, 1, false),
        (16, 6, 4, true),
    ] {
        assert_eq!(
            !strong_correctness_achievable(s, b, e),
            impossible,
            "({s},{b},{e})"
        );
    }
    for s in 1..40 {
        for b in 1..20 {
            for e in 1..=8 {
                let fttc = e < b && b < s && b % e != 0;
                assert_eq!(
                    !strong_correctness_achievable(s, b, e),
                    fttc,
                    "({s},{b},{e})"
                );
            }
        }
    }
}

#[test]
fn example24_contiguous_predicate_indexing_with_a_hidden_divisible_split() {
    use tessera::domain::codegen::{emit, Lang};
    // tv1: the reshape split is divisible; merged into one loop, no predicate is needed at all
    // (nvFuser emits the trivial `i < I0*I1`).
    let t1 = sched("I0 = iter 10\nI1 = iter 20\nA, B = outer split I0 by 2\nM1 = merge B, I1\nM2 = merge A, M1\n");
    assert!(derive(&t1).unwrap().chosen.is_empty());
    // tv2: split(0, 5) of a symbolic I0 is not known divisible: nvFuser predicates both logical
    // IDs; I1 is a Euclidean remainder, so I0 alone is equivalent.
    let t2 = sched(
        "I0 = iter N0\nI1 = iter N1\nA, B = split I0 by 5\nM1 = merge B, I1\nM2 = merge A, M1\n",
    );
    assert_eq!(nvfuser_choice(&t2).unwrap(), ids(&t2, &["I0", "I1"]));
    assert_eq!(derive(&t2).unwrap().chosen, ids(&t2, &["I0"]));
    // Index formulas: I0 = i / (5*I1) * 5 + i % (5*I1) / I1 and I1 = i % (5*I1) % I1.
    let py = emit(&t2, &ids(&t2, &["I0", "I1"]), Lang::Python).unwrap();
    for line in [
        "    i_A = i_M2 // (5 * N1)",
        "    i_M1 = i_M2 % (5 * N1)",
        "    i_B = i_M1 // N1",
        "    i1 = i_M1 % N1",
        "    i0 = i_A * 5 + i_B",
    ] {
        assert!(py.lines().any(|l| l == line), "missing `{line}` in\n{py}");
    }
    // Check the formulas and both predicates on concrete sizes.
    for (n0, n1) in [(10, 20), (7, 3), (12, 5)] {
        let c = sched(&format!("assume N0 == {n0}\nassume N1 == {n1}\n{t2}"));
        let sp = Space::new(&c).unwrap();
        let (i0, i1, m2) = (
            c.id("I0").unwrap(),
            c.id("I1").unwrap(),
            c.id("M2").unwrap(),
        );
        sp.for_each(|idx| {
            let i = idx[m2];
            assert_eq!(idx[i0], i / (5 * n1) * 5 + i % (5 * n1) / n1);
            assert_eq!(idx[i1], i % (5 * n1) % n1);
            Ok(true)
        })
        .unwrap();
        assert!(check_predicate(&sp, &ids(&c, &["I0"])).unwrap().equivalent);
    }
}

#[test]
fn example25_linear_indexing_through_merge_and_split() {
    use tessera::domain::codegen::{emit, Lang};
    let s = sched("I0 = iter N0\nI1 = iter N1\nM = merge I0, I1\nA, B = split M by 4\n");
    assert_eq!(
        s.ids[s.id("A").unwrap()].extent.to_string(),
        "ceilDiv(N0 * N1, 4)"
    );
    let py = emit(&s, &[], Lang::Python).unwrap();
    for line in [
        "        i_M = i_A * 4 + i_B",
        "        i0 = i_M // N1",
        "        i1 = i_M % N1",
    ] {
        assert!(py.lines().any(|l| l == line), "missing `{line}` in\n{py}");
    }
    // Consumer index ((i0*4 + i1) / I1) * I1 + (i0*4 + i1) % I1 is the merged index itself.
    let c = sched(&format!("assume N0 == 3\nassume N1 == 7\n{s}"));
    let sp = Space::new(&c).unwrap();
    let (a, b, i0, i1) = (
        c.id("A").unwrap(),
        c.id("B").unwrap(),
        c.id("I0").unwrap(),
        c.id("I1").unwrap(),
    );
    sp.for_each(|idx| {
        let lin = idx[a] * 4 + idx[b];
        assert_eq!(idx[i0] * 7 + idx[i1], (lin / 7) * 7 + lin % 7);
        Ok(true)
    })
    .unwrap();
    assert_eq!(derive(&c).unwrap().chosen, ids(&c, &["I0"]));
}

#[test]
fn example16_one_extra_split_predicate() {
    // Extra IDs nvFuser predicates beyond the roots: exactly one in both fixtures.
    let extra = |s: &Schedule| {
        let roots = s.roots();
        nvfuser_choice(s)
            .unwrap()
            .into_iter()
            .filter(|i| !roots.contains(i))
            .count()
    };
    // FusionNonDivisibleSplit2 (input 13 x 17): split(0, 2), split(-1, 4), then split the
    // 4-extent inner by 3.
    let s2 = sched("I0 = iter 13\nI1 = iter 17\nA, B = split I0 by 2\nC, D = split I1 by 4\nE, F = split D by 3\n");
    assert_eq!(extra(&s2), 1);
    assert_eq!(nvfuser_choice(&s2).unwrap(), ids(&s2, &["I0", "I1", "D"]));
    assert_eq!(derive(&s2).unwrap().chosen, ids(&s2, &["I0", "I1", "D"]));
    // FusionNonDivisibleSplit5: split 8, split 2, then split the outer 4 by 3.
    let s5 = sched("assume N == 1000\nI = iter N\nA, B = split I by 8\nC, D = split B by 2\nE, F = split C by 3\n");
    assert_eq!(extra(&s5), 1);
    let sp = Space::new(&s5).unwrap();
    assert!(
        check_predicate(&sp, &nvfuser_choice(&s5).unwrap())
            .unwrap()
            .equivalent
    );
    assert!(
        check_predicate(&sp, &derive(&s5).unwrap().chosen)
            .unwrap()
            .equivalent
    );
}

#[test]
fn example9_unswitched_predicate() {
    use tessera::domain::unswitch::{index_expressions, unswitch};
    let s = sched("assume N == 999\nI0 = iter N\nI1, I2 = split I0 by 5\nI3, I4 = split I2 by 3\nunswitch I3\n");
    let d = derive(&s).unwrap();
    assert_eq!(d.chosen, ids(&s, &["I0", "I2"]));
    let u = unswitch(&s, &d.chosen).unwrap();
    // Stop: i0*5 + ((2-1)*3 + tidx) < I and ((2-1)*3 + tidx) < 5 (BIDx = i1, TIDx = i4).
    assert_eq!(
        u.stop,
        vec![
            "i1*5 + ((2-1)*3 + i4) < N".to_string(),
            "(2-1)*3 + i4 < 5".to_string()
        ]
    );
    // Start: i0*5 + (0*3 + tidx) >= 0 is provably true here, so it is not emitted; its
    // expression is still available.
    assert!(u.start.is_empty());
    let i3 = s.id("I3").unwrap();
    let lo = index_expressions(&s, &[(i3, "0".into())]).unwrap();
    assert_eq!(lo[s.id("I0").unwrap()], "i1*5 + (0*3 + i4)");
    assert_eq!(u.sound, Some(true));
    // A non-monotone index (XOR) makes unswitching unsound; enumeration finds it.
    let x = sched("X = iter 4\nY = iter 3\nSX, SY = swizzle xor X, Y\nloop SX SY\nunswitch SY\n");
    let ux = unswitch(&x, &derive(&x).unwrap().chosen).unwrap();
    assert_eq!(ux.sound, Some(false));
    assert!(ux.counterexample.unwrap().contains("[2]"));
    // Unswitching something that is not a loop is an error.
    let mut bad = s.clone();
    bad.unswitched = vec![s.id("I2").unwrap()];
    assert_eq!(unswitch(&bad, &d.chosen).unwrap_err().code(), "bad_loop");
}
