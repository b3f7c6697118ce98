//! Errors: typed, coded, with line and column for parse errors; checked arithmetic; bounded
//! enumeration.

use tessera::domain::eval::{plan, Space, MAX_POINTS};
use tessera::domain::{parse, Error, Extent, Schedule, SplitKind};

fn err(text: &str) -> Error {
    parse(text).expect_err(text)
}

#[test]
fn parse_errors_carry_line_and_column() {
    let cases: [(&str, usize, usize, &str); 8] = [
        (
            "I0 = iter 6\nI1, I2 = split I9 by 4",
            2,
            16,
            "unknown IterDomain `I9`",
        ),
        (
            "I0 = iter 6\n\n  I1 = frobnicate I0",
            3,
            8,
            "unknown transform",
        ),
        ("I0 = iter 6 $", 1, 13, "unexpected character"),
        ("I0 = iter 99999999999999999999", 1, 11, "out of range"),
        ("I0 = iter 6\nI1 = split I0 by 2", 2, 1, "defines 2"),
        ("I0 = iter 6\nI1, I2 = split I0 by", 2, 21, "split factor"),
        ("assume N % 4 == 1", 1, 17, "only `N % m == 0`"),
        ("loop", 1, 5, "at least one"),
    ];
    for (text, line, col, needle) in cases {
        match err(text) {
            Error::Parse {
                line: l,
                column: c,
                message,
            } => {
                assert_eq!((l, c), (line, col), "{text}: {message}");
                assert!(message.contains(needle), "{text}: {message}");
            }
            other => panic!("{text}: {other:?}"),
        }
    }
    // Library errors keep their own code and gain the position.
    assert_eq!(err("I0 = iter 6\nI0 = iter 7").code(), "redefined");
    let m = err("I0 = iter 6\nI0 = iter 7").to_string();
    assert!(
        m.contains("defined twice") && m.starts_with("line 2, column 6"),
        "{m}"
    );
}

#[test]
fn library_errors_are_typed() {
    let mut s = Schedule::new();
    let i0 = s.iter("I0", Extent::Const(6)).unwrap();
    let e = s.split(i0, 0, SplitKind::Inner, "A", "B").unwrap_err();
    assert_eq!(e.code(), "bad_factor");
    assert!(e.to_string().contains("factor = 0"));
    assert_eq!(
        s.iter("I0", Extent::Const(2)).unwrap_err().code(),
        "redefined"
    );
    assert_eq!(
        s.iter("Z", Extent::Const(0)).unwrap_err().code(),
        "non_positive_extent"
    );
    assert_eq!(
        s.swizzle(i0, i0, "X", "Y").unwrap_err().code(),
        "swizzle_same_input"
    );
    assert_eq!(s.id("nope").unwrap_err().code(), "unknown_id");
    let e = s.resize(i0, -3, -3, "R").unwrap_err();
    assert_eq!(e.code(), "non_positive_extent");
    assert!(e.to_string().contains("extent = 0"), "{e}");
}

#[test]
fn overflow_is_an_error_not_a_panic() {
    let e = err("I0 = iter 9223372036854775807\nI1 = iter 2\nI2 = merge I0, I1");
    assert!(e.to_string().contains("overflow"), "{e}");
    let e = err("I0 = iter 9223372036854775807\nI1 = resize I0 by 1, 0");
    assert!(e.to_string().contains("overflow"), "{e}");
    assert_eq!(
        Error::Overflow {
            op: "mul",
            a: 1,
            b: 2
        }
        .code(),
        "overflow"
    );
}

#[test]
fn enumeration_is_bounded() {
    let s = parse("I0 = iter 4096\nI1 = iter 4097\n").unwrap();
    let e = Space::new(&s).unwrap_err();
    assert_eq!(e.code(), "too_many_points");
    assert!(e.to_string().contains(&MAX_POINTS.to_string()));
    let ok = parse("I0 = iter 4096\nI1 = iter 4096\n").unwrap();
    assert_eq!(Space::new(&ok).unwrap().points, MAX_POINTS);
}

#[test]
fn loop_domain_must_determine_every_index() {
    // The loop domain misses the inner output: I0 cannot be computed.
    let s = parse("I0 = iter 6\nI1, I2 = split I0 by 2\nloop I1\n").unwrap();
    assert_eq!(plan(&s).unwrap_err().code(), "undetermined");
    let s = parse("I0 = iter 6\nloop I0 I0\n").unwrap();
    assert_eq!(plan(&s).unwrap_err().code(), "bad_loop");
    // Unbound symbols cannot be enumerated.
    let s = parse("I0 = iter N\n").unwrap();
    assert_eq!(Space::new(&s).unwrap_err(), Error::Unbound("N".into()));
}

#[test]
fn negative_indices_use_euclidean_division() {
    // A left pad makes the resize input negative at the first loop points; a merge above it
    // decomposes with Euclidean division, so the inner index stays in range (Theorem 2's lower
    // bound needs Euclid, not truncation).
    let s = parse("A = iter 3\nB = iter 4\nM = merge A, B\nP = resize M by 2, 0\n").unwrap();
    let sp = Space::new(&s).unwrap();
    let (a, b, m) = (s.id("A").unwrap(), s.id("B").unwrap(), s.id("M").unwrap());
    let mut first = None;
    sp.for_each(|idx| {
        first.get_or_insert((idx[m], idx[a], idx[b]));
        assert!((0..4).contains(&idx[b]));
        assert_eq!(idx[a] * 4 + idx[b], idx[m]);
        Ok(true)
    })
    .unwrap();
    assert_eq!(first, Some((-2, -1, 2)));
}

#[test]
fn hand_built_inconsistent_schedules_are_rejected_not_panicking() {
    use tessera::domain::alloc::allocation_info;
    use tessera::domain::report::analyze;
    use tessera::domain::{Allocation, Transform};
    let base = parse("I0 = iter 6\nI1, I2 = split I0 by 4\n").unwrap();
    let mut s = base.clone();
    s.loop_domain = Some(vec![99]);
    assert_eq!(analyze(&s).unwrap_err().code(), "unknown_id");
    let mut s = base.clone();
    s.allocation = Some(Allocation {
        ids: vec![1, 2],
        strides: Some(vec![4]),
    });
    assert_eq!(allocation_info(&s).unwrap_err().code(), "bad_alloc");
    s.allocation = Some(Allocation {
        ids: vec![1, 2],
        strides: Some(vec![4, -1]),
    });
    assert_eq!(allocation_info(&s).unwrap_err().code(), "bad_alloc");
    let mut s = base.clone();
    s.transforms.push(Transform::Merge {
        outer: 1,
        inner: 7,
        output: 2,
    });
    assert_eq!(analyze(&s).unwrap_err().code(), "unknown_id");
    let mut s = base.clone();
    s.transforms.push(Transform::Merge {
        outer: 1,
        inner: 2,
        output: 0,
    });
    assert_eq!(analyze(&s).unwrap_err().code(), "redefined");
    let mut s = base;
    s.vectorized.push(42);
    assert!(analyze(&s).is_err());
}

#[test]
fn large_schedules_are_bounded_not_hanging() {
    use tessera::domain::report::analyze;
    // A 4095-deep chain of splits by 1 on a symbolic extent: analyzed quickly, no deep recursion
    // trouble.
    let mut text = String::from("I0 = iter N\n");
    for k in 0..2047 {
        text.push_str(&format!("A{k}, I{} = split I{k} by 1\n", k + 1));
    }
    let t = std::time::Instant::now();
    let s = parse(&text).unwrap();
    assert_eq!(s.ids.len(), 4095);
    let r = analyze(&s).unwrap();
    assert!(r.derivation.chosen.is_empty());
    assert!(t.elapsed().as_secs() < 20, "{:?}", t.elapsed());
    // The IterDomain limit (`MAX_IDS`) and its error: `tests/domain/domain_scaling.rs`.
    // Work limit: many steps times many points.
    let mut wide = String::from("I0 = iter 4096\nJ0 = iter 4096\n");
    for k in 0..8 {
        wide.push_str(&format!("J{} = resize J{k} by 0, 0\n", k + 1));
    }
    let s = parse(&wide).unwrap();
    assert_eq!(Space::new(&s).unwrap_err().code(), "too_much_work");
    assert!(analyze(&s).unwrap().enumeration_skipped.is_some());
}
