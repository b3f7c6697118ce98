//! Schedule validity (issue 15): self-merge, over-determined loop domains, cycles, aliasing
//! allocations are refused with typed errors at the line; large constant extents are decided in
//! closed form, checked against enumeration on small cases.

use tessera::domain::eval::{count, Space};
use tessera::domain::predicate::derive_by_theorems_assuming;
use tessera::domain::report::analyze;
use tessera::domain::{parse, Decision, Error, Extent, Schedule, SplitKind, Transform};

fn err(text: &str) -> Error {
    parse(text).expect_err(text)
}

fn at(e: &Error) -> (usize, &'static str) {
    match e {
        Error::At { line, error, .. } => (*line, error.code()),
        other => panic!("no position: {other:?}"),
    }
}

#[test]
fn meaningless_schedules_are_refused_at_their_line() {
    // The cases.
    let e = err("I0 = iter 6\nI1, I2 = split I0 by 2\nM = merge I0, I1\n");
    assert_eq!(e.code(), "overdetermined");
    assert_eq!(at(&e).0, 2, "{e}");
    let e = err("I0 = iter 6\nI1, I2 = split I0 by 2\nI3, I4 = split I0 by 3\n");
    assert_eq!(e.code(), "overdetermined", "{e}");
    assert!(
        e.to_string().contains("line 2") || e.to_string().contains("line 3"),
        "{e}"
    );
    let e = err("I0 = iter 6\nI1 = iter 6\nM = merge I0, I0\n");
    assert_eq!(at(&e), (3, "self_merge"));
    assert!(e.to_string().contains("merge of I0 with itself"), "{e}");
    let e = err("I0 = iter 6\nI1, I2 = split I0 by 2\nloop I0 I1 I2\n");
    assert_eq!(e.code(), "overdetermined");
    // Allocation aliasing: stride 0, a repeated IterDomain, overlapping strides.
    let e = err("I0 = iter 6\nI1, I2 = split I0 by 4\nalloc I1 I2 strides 0 0\n");
    assert_eq!(at(&e), (3, "aliasing_alloc"));
    assert!(e.to_string().contains("stride 0 of I1"), "{e}");
    let e = err("I0 = iter 6\nI1, I2 = split I0 by 3\nalloc I1 I1\n");
    assert_eq!(at(&e), (3, "aliasing_alloc"));
    let e = err("I0 = iter 6\nI1, I2 = split I0 by 3\nalloc I1 I2 strides 2 1\n");
    assert_eq!(e.code(), "aliasing_alloc");
    assert!(e.to_string().contains("both at 2"), "{e}");
    // Still legal: a root feeding two transforms when the loop domain determines it once
    // (the other branch is computed forward), and injective strided allocations.
    parse("I0 = iter 30\nA = resize I0 by 0, -15\nB = resize I0 by -15, 0\nloop A\n").unwrap();
    parse("I0 = iter 6\nI1, I2 = split I0 by 3\nalloc I1 I2 strides 3 1\n").unwrap();
    parse("I0 = iter 9\nI1, I2 = split I0 by 3\nalloc I1 I2 strides 2 3\n").unwrap();
}

#[test]
fn hand_built_cycles_are_refused() {
    let mut s = Schedule::new();
    let i0 = s.iter("I0", Extent::Const(6)).unwrap();
    let (a, b) = s.split(i0, 2, SplitKind::Inner, "A", "B").unwrap();
    let m = s.merge(a, b, "M").unwrap();
    // Rewire the split to read the merge's output: a cycle.
    if let Transform::Split { input, .. } = &mut s.transforms[0] {
        *input = m;
    }
    assert_eq!(s.validate().unwrap_err().code(), "cycle");
    let mut s = Schedule::new();
    let i0 = s.iter("I0", Extent::Const(6)).unwrap();
    let i1 = s.iter("I1", Extent::Const(6)).unwrap();
    s.merge(i0, i1, "M").unwrap();
    if let Transform::Merge { inner, .. } = &mut s.transforms[0] {
        *inner = i0;
    }
    assert_eq!(s.validate().unwrap_err().code(), "self_merge");
}

/// Large constant extents: hole-freedom is decided, never reported as symbolic.
#[test]
fn large_constant_extents_are_decided() {
    let r = analyze(&parse("I0 = iter 1000000000\nI1, I2 = split I0 by 7\n").unwrap()).unwrap();
    assert!(r.counts.is_none());
    assert_eq!(r.hole_free, Decision::No);
    let r = analyze(&parse("I0 = iter 1000000000\nI1, I2 = split I0 by 8\n").unwrap()).unwrap();
    assert_eq!(r.hole_free, Decision::Yes);
    assert!(!r.render().contains("symbolic"), "{}", r.render());
}

/// The closed form agrees with enumeration on every split/merge schedule of a small family.
#[test]
fn closed_form_hole_freedom_matches_enumeration() {
    let mut seed = 0x2545_f491_4f6c_dd1du64;
    let mut next = |m: u64| {
        seed ^= seed << 13;
        seed ^= seed >> 7;
        seed ^= seed << 17;
        seed % m
    };
    let mut checked = 0;
    for _ in 0..3000 {
        let mut text = String::new();
        let roots = 1 + next(2) as usize;
        let mut live: Vec<String> = Vec::new();
        for r in 0..roots {
            text.push_str(&format!("R{r} = iter {}\n", 1 + next(12)));
            live.push(format!("R{r}"));
        }
        for k in 0..(1 + next(4)) {
            if live.len() >= 2 && next(2) == 0 {
                let b = live.remove(next(live.len() as u64) as usize);
                let a = live.remove(next(live.len() as u64) as usize);
                text.push_str(&format!("M{k} = merge {a}, {b}\n"));
                live.push(format!("M{k}"));
            } else {
                let a = live.remove(next(live.len() as u64) as usize);
                let outer = if next(2) == 0 { "outer " } else { "" };
                text.push_str(&format!(
                    "O{k}, N{k} = {outer}split {a} by {}\n",
                    1 + next(5)
                ));
                live.push(format!("O{k}"));
                live.push(format!("N{k}"));
            }
        }
        let s = parse(&text).unwrap();
        let Ok(sp) = Space::new(&s) else { continue };
        let c = count(&sp).unwrap();
        let by_theorems = derive_by_theorems_assuming(&s, &[]).unwrap();
        let closed = tessera::domain::report::hole_free_closed_form(&s, &by_theorems).unwrap();
        assert_eq!(
            closed,
            if c.holes == 0 {
                Decision::Yes
            } else {
                Decision::No
            },
            "{text}"
        );
        checked += 1;
    }
    assert!(checked > 2500, "{checked}");
}

/// The collision witness of an aliasing allocation is computed exactly: with strides 2^62 the
/// offset of (0, 2) is 2^63, past i64 (it overflowed, a panic in debug builds, found by the
/// structured fuzz proptest), and (1, 0) and (0, 1) both sit at 2^62.
#[test]
fn aliasing_witness_with_offsets_past_i64() {
    let s = 1i64 << 62;
    let text = format!("A = iter 2\nB = iter 3\nloop A B\nalloc A B strides {s} {s}\n");
    let e = tessera::domain::parse(&text).unwrap_err();
    assert_eq!(e.code(), "aliasing_alloc");
    let m = e.to_string();
    assert!(
        m.contains("[0, 1] and [1, 0] both at 4611686018427387904"),
        "{m}"
    );
}
