//! The symbolic layout algebra on the worked examples of `docs/symbolic.md` (from
//! /work/shared/reference/symbolic.md §5), the three CuTe DSL issues (cutlass#3469, #3470,
//! #3471), cutlass PR #3622's case, and the typed errors of facts. Each result is also checked
//! against the integer algebra at a few sizes (the random version is
//! `tests/symbolic/symbolic_instantiation.rs`).

use std::collections::BTreeMap;
use tessera::symbolic::{eval, same_up_to_unit_strides, Facts, Pred, Syntax, Verdict};

fn show(e: &str, f: &[&str]) -> (String, Vec<String>) {
    let s = eval(e, f).unwrap_or_else(|err| panic!("{e}: {err}"));
    (
        s.value.to_string(),
        s.guards.iter().map(|g| g.to_string()).collect(),
    )
}

fn env(kv: &[(&str, i64)]) -> BTreeMap<String, i64> {
    kv.iter().map(|(k, v)| (k.to_string(), *v)).collect()
}

/// The symbolic result of `e` instantiated at `at` equals the integer algebra on `int`.
fn agrees(e: &str, f: &[&str], at: &[(&str, i64)], int: &str) {
    let s = eval(e, f).unwrap();
    let env = env(at);
    assert!(
        s.guards.iter().all(|g| g.pred.holds(&env).unwrap()),
        "guards fail at {at:?}"
    );
    let v = s.value.subs(&env).unwrap();
    let i = tessera::notation::eval(int).unwrap();
    match (&v, &i) {
        (tessera::layout::Value::Layout(a), tessera::layout::Value::Layout(b)) => {
            assert!(same_up_to_unit_strides(a, b), "{e} at {at:?}: {a} vs {b}")
        }
        _ => assert_eq!(v.to_string(), i.to_string(), "{e} at {at:?}"),
    }
}

#[test]
fn logical_divide_of_a_gemm_operand_needs_no_guard() {
    let (v, g) = show("logical_divide((M,K):(K,1),(128,64))", &[]);
    assert_eq!(
        v,
        "((128,ceil_div(M,128)),(64,ceil_div(K,64))):((K,128*K),(1,64))"
    );
    assert!(g.is_empty(), "{g:?}");
    agrees(
        "logical_divide((M,K):(K,1),(128,64))",
        &[],
        &[("M", 256), ("K", 128)],
        "logical_divide((256,128):(128,1),(128,64))",
    );
    agrees(
        "logical_divide((M,K):(K,1),(128,64))",
        &[],
        &[("M", 130), ("K", 64)],
        "logical_divide((130,64):(64,1),(128,64))",
    );
    // Under the divisibility facts, the floor form of the notation is the same layout.
    let (v, g) = show(
        "logical_divide((M,K):(K,1),(128,64))",
        &["M % 128 == 0", "K % 64 == 0"],
    );
    assert_eq!(v, "((128,M/128),(64,K/64)):((K,128*K),(1,64))");
    assert!(g.is_empty());
}

#[test]
fn coalesce_merges_what_is_proved() {
    // Example 2: a polynomial identity, no fact needed (CuTe C++ and the DSL do not merge).
    assert_eq!(show("coalesce((M,N):(1,M))", &[]), ("M*N:1".into(), vec![]));
    // Example 3: the merge needs M*N == 1; the structure is exact when no mode is 1.
    let (v, g) = show("coalesce((M,N):(N,1))", &[]);
    assert_eq!(v, "(M,N):(N,1)");
    assert!(
        g.contains(&"M != 1".to_string()) && g.contains(&"N != 1".to_string()),
        "{g:?}"
    );
    agrees(
        "coalesce((M,N):(N,1))",
        &[],
        &[("M", 3), ("N", 5)],
        "coalesce((3,5):(5,1))",
    );
}

#[test]
fn cutlass_3469_coalesce_of_a_dynamic_mode() {
    // The DSL returns (16,?):(8,128) unchanged; 16*8 == 128 merges the modes. The extent
    // N/128 is 0 for N < 128, where the integer algebra refuses the input: a guard.
    assert_eq!(
        show("coalesce((16,N/128):(8,128))", &[]),
        ("16*(N/128):8".into(), vec!["N/128 >= 1".into()])
    );
    assert_eq!(
        show("coalesce((16,N):(8,128))", &[]),
        ("16*N:8".into(), vec![])
    );
    agrees(
        "coalesce((16,N/128):(8,128))",
        &[],
        &[("N", 900)],
        "coalesce((16,7):(8,128))",
    );
    // The follow-up: a transposed 256x192 tensor with a dynamic mode 1 coalesces fully.
    assert_eq!(
        show("coalesce((192,N):(1,192))", &[]),
        ("192*N:1".into(), vec![])
    );
}

#[test]
fn cutlass_3470_composition_with_a_dynamic_tiler_mode() {
    // #3470 composes (4096,8192):(1,4096) with a scaled-basis tiler (32,?,8,128); with plain
    // strides: the composition of a column-major tensor with a tiler of runtime extent T.
    let (v, g) = show("composition((4096,8192):(1,4096),(32,T):(1,32))", &[]);
    assert_eq!(v, "(32,T):(1,32)");
    // No guard: T's mode lands in the second mode of A, which extends (CuTe's semantics).
    assert!(g.is_empty(), "{g:?}");
    agrees(
        "composition((4096,8192):(1,4096),(32,T):(1,32))",
        &[],
        &[("T", 6)],
        "composition((4096,8192):(1,4096),(32,6):(1,32))",
    );
}

#[test]
fn cutlass_3471_right_inverse_of_a_dynamic_layout() {
    // The DSL raises; PyCuTe returns (16,N):(1,16) uncoalesced. Tessera: 16*N:1, no guard.
    assert_eq!(
        show("right_inverse((16,N):(1,16))", &[]),
        ("16*N:1".into(), vec![])
    );
    agrees(
        "right_inverse((16,N):(1,16))",
        &[],
        &[("N", 7)],
        "right_inverse((16,7):(1,16))",
    );
}

#[test]
fn cutlass_pr_3622_symbolic_tiler_is_refuted_or_guarded() {
    // cutlass#3513 / PR #3622: zipped_divide((12,(4,8)):(7,(1,30)), 128): CuTe returns a
    // layout of size 288 instead of 384; PR #3622 asserts only when the shape is static.
    // Tessera refutes it for every size (no name is involved).
    let err = eval("zipped_divide((12,(4,8)):(7,(1,30)),128)", &[] as &[&str]).unwrap_err();
    assert_eq!(err.code(), "refuted");
    assert!(tessera::notation::eval("zipped_divide((12,(4,8)):(7,(1,30)),128)").is_err());
    // With a symbolic tiler T the answer is guarded; every allowed T agrees with the integer
    // algebra (T = 12: a divisor of 12).
    let s = eval(
        "zipped_divide((12,(4,8)):(7,(1,30)),T)",
        &["T % 12 == 0", "T <= 12"],
    )
    .unwrap();
    let at = env(&[("T", 12)]);
    assert!(s.guards.iter().all(|g| g.pred.holds(&at).unwrap()));
    let v = s.value.subs(&at).unwrap().to_string();
    assert_eq!(
        v,
        tessera::notation::eval("zipped_divide((12,(4,8)):(7,(1,30)),12)")
            .unwrap()
            .to_string()
    );
}

#[test]
fn composition_of_a_coalescible_operand_needs_no_guard() {
    // Example 5: A coalesces to M*N:1 first, so (4,8):(1,4) for every M, N (CuTe C++'s dynamic
    // path gives a wrong layout at M = 3).
    assert_eq!(
        show("composition((M,N):(1,M),(4,8):(1,4))", &[]),
        ("(4,8):(1,4)".into(), vec![])
    );
    for (m, n) in [(3, 5), (3, 16), (8, 8)] {
        agrees(
            "composition((M,N):(1,M),(4,8):(1,4))",
            &[],
            &[("M", m), ("N", n)],
            &format!("composition(({m},{n}):(1,{m}),(4,8):(1,4))"),
        );
    }
}

#[test]
fn complement_with_a_symbolic_cotarget() {
    assert_eq!(
        show("complement(128:1,M)", &[]),
        ("ceil_div(M,128):128".into(), vec![])
    );
    agrees(
        "complement(128:1,M)",
        &[],
        &[("M", 300)],
        "complement(128:1,300)",
    );
    agrees(
        "complement(128:1,M)",
        &[],
        &[("M", 100)],
        "complement(128:1,100)",
    );
    assert_eq!(
        show("complement(128:1,M)", &["M % 128 == 0"]).0,
        "M/128:128"
    );
}

#[test]
fn inverses_of_a_row_major_layout() {
    let (v, _) = show("right_inverse((M,N):(N,1))", &[]);
    assert_eq!(v, "(N,M):(M,1)");
    agrees(
        "right_inverse((M,N):(N,1))",
        &[],
        &[("M", 3), ("N", 5)],
        "right_inverse((3,5):(5,1))",
    );
    let (v, _) = show("left_inverse((M,N):(N,1))", &[]);
    assert_eq!(v, "(N,M):(M,1)");
}

#[test]
fn local_tile_and_its_in_bounds_guards() {
    // Example 8: the tile is (128,64):(K,1) at offset 128*K*bm + 64*bk; the guards are the
    // in-bounds conditions of the CTA coordinate.
    let (v, g) = show("local_tile((M,K):(K,1),(128,64),(bm,bk))", &[]);
    assert_eq!(v, "((128,64):(K,1),128*K*bm+64*bk)");
    assert_eq!(g, vec!["ceil_div(M,128) > bm", "ceil_div(K,64) > bk"]);
    agrees(
        "local_tile((M,K):(K,1),(128,64),(bm,bk))",
        &[],
        &[("M", 300), ("K", 128), ("bm", 2), ("bk", 1)],
        "local_tile((300,128):(128,1),(128,64),(2,1))",
    );
}

#[test]
fn ragged_zipped_divide() {
    // Example 9.
    let (v, g) = show("zipped_divide((M,N):(1,M),(128,128))", &[]);
    assert_eq!(
        v,
        "((128,128),(ceil_div(M,128),ceil_div(N,128))):((1,M),(128,128*M))"
    );
    assert!(g.is_empty());
    agrees(
        "zipped_divide((M,N):(1,M),(128,128))",
        &[],
        &[("M", 300), ("N", 256)],
        "zipped_divide((300,256):(1,300),(128,128))",
    );
}

#[test]
fn local_partition_by_a_thread_layout() {
    let (v, g) = show("local_partition((M,K):(K,1),(32,4):(4,1),t)", &[]);
    assert_eq!(
        v,
        "((ceil_div(M,32),ceil_div(K,4)):(32*K,4),K*((t/4)%32)+t%4)"
    );
    assert_eq!(g, vec!["t <= 127"]);
    agrees(
        "local_partition((M,K):(K,1),(32,4):(4,1),t)",
        &[],
        &[("M", 128), ("K", 64), ("t", 3)],
        "local_partition((128,64):(64,1),(32,4):(4,1),3)",
    );
}

#[test]
fn facts_errors_name_the_fact() {
    let e = eval("coalesce((M,N):(1,M))", &["Q % 2 == 0"]).unwrap_err();
    assert_eq!(e.code(), "unknown_name");
    assert!(e.to_string().contains("Q % 2 == 0"));
    let e = eval("coalesce((M,N):(1,M))", &["M % 2 == 1", "M % 4 == 0"]).unwrap_err();
    assert_eq!(e.code(), "contradictory_facts");
    assert!(
        e.to_string().contains("M % 4 == 0") && e.to_string().contains("M % 2 == 1"),
        "{e}"
    );
    let e = eval("coalesce((M,N):(1,M))", &["M*N % 8 == 0"]).unwrap_err();
    assert_eq!(e.code(), "nonlinear_fact");
    assert!(e.to_string().contains("M*N % 8 == 0"));
    let e = eval("coalesce((M,N):(1,M))", &["M >= 10", "M <= 5"]).unwrap_err();
    assert_eq!(e.code(), "contradictory_facts");
    let e = eval(
        "coalesce((M,N):(1,M))",
        &["M % 8 == 0", "M == 4*P", "P % 2 == 1"],
    )
    .unwrap_err();
    assert_eq!(e.code(), "contradictory_facts", "{e}");
}

#[test]
fn decisions_proved_refuted_with_witness_or_guard() {
    let f = Facts::parse(&["M % 128 == 0", "K >= 64"]).unwrap();
    let m = tessera::symbolic::parse_expr("M").unwrap();
    let k = tessera::symbolic::parse_expr("K").unwrap();
    let c = |v| tessera::symbolic::Poly::constant(v);
    assert_eq!(
        f.decide(&Pred::divides(c(64), m.clone())).unwrap(),
        Verdict::Proved
    );
    assert_eq!(
        f.decide(&Pred::ge(m.clone(), c(128))).unwrap(),
        Verdict::Proved
    );
    assert_eq!(
        f.decide(&Pred::ge(k.clone(), c(64))).unwrap(),
        Verdict::Proved
    );
    // M + 1 is never a multiple of 2: refuted, with a witness satisfying the facts.
    match f
        .decide(&Pred::divides(c(2), m.add(&c(1)).unwrap()))
        .unwrap()
    {
        Verdict::Refuted(w) => assert!(f.satisfied_by(&w) && w["M"] % 128 == 0),
        v => panic!("{v:?}"),
    }
    // 256 | M is undecided: a guard, and a counterexample that satisfies the facts.
    match f.decide(&Pred::divides(c(256), m.clone())).unwrap() {
        Verdict::Unknown(Some(w)) => assert!(f.satisfied_by(&w) && w["M"] % 256 != 0),
        v => panic!("{v:?}"),
    }
    // Definitions: M == 4*P with P % 2 == 0 proves 8 | M.
    let f = Facts::parse(&["M == 4*P", "P % 2 == 0"]).unwrap();
    assert_eq!(
        f.decide(&Pred::divides(c(8), m.clone())).unwrap(),
        Verdict::Proved
    );
}

#[test]
fn guards_print_as_cpp_and_python() {
    let p = Pred::divides(
        tessera::symbolic::Poly::constant(128),
        tessera::symbolic::parse_expr("M").unwrap(),
    );
    assert_eq!(p.render(Syntax::Cpp), "M % 128 == 0");
    assert_eq!(p.render(Syntax::Python), "M % 128 == 0");
    let q = Pred::ge(
        tessera::symbolic::parse_expr("ceil_div(M,128)").unwrap(),
        tessera::symbolic::parse_expr("bm+1").unwrap(),
    );
    assert_eq!(q.render(Syntax::Plain), "ceil_div(M,128) > bm");
    assert_eq!(q.render(Syntax::Cpp), "(M / 128 + (M % 128 != 0)) > bm");
    assert_eq!(q.render(Syntax::Python), "(-(-M // 128)) > bm");
}

#[test]
fn expressions_parse_and_print_back() {
    for (t, want) in [
        ("(128*K)/128", "K"),
        ("(M/128)*128", "128*(M/128)"),
        ("M - M + K", "K"),
        ("(4*M + 3) % 4", "3"),
        ("ceil_div(256, 128)", "2"),
        ("-(M/128)", "-(M/128)"),
        ("(M+127)/128", "(M+127)/128"),
    ] {
        let p = tessera::symbolic::parse_expr(t).unwrap();
        assert_eq!(p.to_string(), want, "{t}");
        // Printing reads back to the same polynomial.
        assert_eq!(
            tessera::symbolic::parse_expr(&p.to_string()).unwrap(),
            p,
            "{t}"
        );
    }
    let e = tessera::symbolic::parse_expr("M + * 2").unwrap_err();
    assert_eq!(e.code(), "parse_error");
    assert!(e.to_string().contains("column 5"), "{e}");
}

#[test]
fn the_other_products_tile_to_shape_and_slice() {
    type Case<'a> = (&'a str, &'a [&'a str], &'a [(&'a str, i64)], &'a str);
    let cases: &[Case] = &[
        (
            "tiled_product((M,K):(1,M),(2,3):(1,2))",
            &[],
            &[("M", 5), ("K", 7)],
            "tiled_product((5,7):(1,5),(2,3):(1,2))",
        ),
        (
            "flat_product((M,K):(1,M),(2,3):(1,2))",
            &[],
            &[("M", 5), ("K", 7)],
            "flat_product((5,7):(1,5),(2,3):(1,2))",
        ),
        (
            "blocked_product((M,4):(1,M),(2,3))",
            &[],
            &[("M", 5)],
            "blocked_product((5,4):(1,5),(2,3))",
        ),
        (
            "raked_product((M,4):(1,M),(2,3))",
            &[],
            &[("M", 5)],
            "raked_product((5,4):(1,5),(2,3))",
        ),
        (
            "tile_to_shape((2,4):(1,2),(M,N))",
            &["M % 2 == 0", "N % 4 == 0"],
            &[("M", 6), ("N", 12)],
            "tile_to_shape((2,4):(1,2),(6,12))",
        ),
        (
            "tile_to_shape((2,4):(1,2),(M,N),(1,0))",
            &["M % 2 == 0", "N % 4 == 0"],
            &[("M", 6), ("N", 12)],
            "tile_to_shape((2,4):(1,2),(6,12),(1,0))",
        ),
        (
            "slice((_,j),(M,K):(K,1))",
            &[],
            &[("M", 5), ("K", 7), ("j", 3)],
            "slice((_,3),(5,7):(7,1))",
        ),
    ];
    for (e, f, at, int) in cases {
        agrees(e, f, at, int);
    }
    assert_eq!(
        show("blocked_product((M,4):(1,M),(2,3))", &[]).0,
        "((M,2),(4,3)):((1,4*M),(M,8*M))"
    );
    assert_eq!(
        show("raked_product((M,4):(1,M),(2,3))", &[]).0,
        "((2,M),(3,4)):((4*M,1),(8*M,M))"
    );
    assert_eq!(
        show(
            "tile_to_shape((2,4):(1,2),(M,N))",
            &["M % 2 == 0", "N % 4 == 0"]
        ),
        ("((2,M/2),(4,N/4)):((1,8),(2,8*(M/2)))".into(), vec![])
    );
    // Without the facts, the divisibility of the target modes is a guard.
    let (_, g) = show("tile_to_shape((2,4):(1,2),(M,N))", &[]);
    assert_eq!(g, vec!["M % 2 == 0", "N % 4 == 0"]);
    // A slice fixes a mode at a symbolic coordinate, guarded to lie in it.
    assert_eq!(
        show("slice((_,j),(M,K):(K,1))", &[]),
        ("(M):(K)".into(), vec!["K > j".into()])
    );
    // idx2crd: the last mode takes the rest (no upper bound), as in CuTe.
    assert_eq!(show("idx2crd(i,(M,K))", &[]), ("(i%M,i/M)".into(), vec![]));
    assert_eq!(
        show("tiled_product((M,K):(1,M),(2,3):(1,2))", &[]).0,
        "((M,K),2,3):((1,M),K*M,2*K*M)"
    );
    // `_` in a tuple tiler leaves the mode alone (it is not a name).
    assert_eq!(
        show("tiled_product((M,K):(1,M),(4:1,_))", &[]).0,
        "((M,1),4,K):((1,0),M,M)"
    );
    agrees(
        "tiled_product((M,K):(1,M),(4:1,_))",
        &[],
        &[("M", 5), ("K", 7)],
        "tiled_product((5,7):(1,5),(4:1,_))",
    );
    // A block that cannot divide the target for any size is refuted, with a witness.
    let e = eval("tile_to_shape((2,4):(1,2),(2*M+1,N))", &[] as &[&str]).unwrap_err();
    assert_eq!(e.code(), "refuted", "{e}");
}

#[test]
fn ragged_divides_give_holes_and_predicate_as_expressions() {
    let s = eval(
        "ragged_zipped_divide((M,N):(1,M),(128,128))",
        &[] as &[&str],
    )
    .unwrap();
    let tessera::symbolic::SymValue::Ragged(r) = &s.value else {
        panic!("{}", s.value)
    };
    assert_eq!(
        r.holes.to_string(),
        "-M*N+16384*ceil_div(M,128)*ceil_div(N,128)"
    );
    let p: Vec<String> = r.predicate.iter().map(|p| p.to_string()).collect();
    assert_eq!(p, vec!["M > 128*r0+t0", "N > 128*r1+t1"]);
    // Under the divisibility facts there is no hole and no predicate.
    let s = eval(
        "ragged_zipped_divide((M,N):(1,M),(128,128))",
        &["M % 128 == 0", "N % 128 == 0"],
    )
    .unwrap();
    let tessera::symbolic::SymValue::Ragged(r) = &s.value else {
        panic!("{}", s.value)
    };
    assert_eq!(r.holes.to_string(), "0");
    assert!(r.predicate.is_empty());
    // At M = 300, N = 256: the integer ragged divide's counts.
    let env = env(&[("M", 300), ("N", 256)]);
    let i = match tessera::notation::ragged::evaluate(
        "ragged_zipped_divide((300,256):(1,300),(128,128))",
    ) {
        Ok(tessera::notation::ragged::Outcome::Divide(r)) => r,
        _ => panic!("integer ragged divide"),
    };
    let s = eval(
        "ragged_zipped_divide((M,N):(1,M),(128,128))",
        &[] as &[&str],
    )
    .unwrap();
    let tessera::symbolic::SymValue::Ragged(r) = &s.value else {
        panic!()
    };
    assert_eq!(r.holes.eval(&env).unwrap(), i.holes);
    assert_eq!(r.points.eval(&env).unwrap(), i.points);
}

#[test]
fn swizzled_layouts_with_a_symbolic_inner_layout() {
    // The divide lifts through the inner layout, as the integer algebra's.
    let e = "zipped_divide(Sw<3,4,3> o 0 o (8,K):(K,1),(8,64))";
    let (v, g) = show(e, &["K % 64 == 0"]);
    assert_eq!(v, "Sw<3,4,3> o 0 o ((8,64),(1,K/64)):((K,1),(0,64))");
    assert!(g.is_empty(), "{g:?}");
    agrees(
        e,
        &["K % 64 == 0"],
        &[("K", 128)],
        "zipped_divide(Sw<3,4,3> o 0 o (8,128):(128,1),(8,64))",
    );
    // Evaluation: the swizzle of the inner layout's value, an atom that instantiates exactly.
    let s = eval("eval(Sw<3,4,3> o 0 o (8,K):(K,1),i)", &[] as &[&str]).unwrap();
    assert_eq!(s.value.to_string(), "Sw<3,4,3>(K*(i%8)+i/8)");
    for (k, i) in [(64, 9), (128, 13), (72, 40)] {
        let env = env(&[("K", k), ("i", i)]);
        let int =
            tessera::notation::eval(&format!("eval(Sw<3,4,3> o 0 o (8,{k}):({k},1),{i})")).unwrap();
        assert_eq!(s.value.subs(&env).unwrap().to_string(), int.to_string());
    }
    // The swizzle atom reads back, and a constant swizzles at once.
    let p = tessera::symbolic::parse_expr("Sw<3,4,3>(K*(i%8)+i/8)").unwrap();
    assert_eq!(p.to_string(), "Sw<3,4,3>(K*(i%8)+i/8)");
    assert_eq!(
        tessera::symbolic::parse_expr("Sw<3,4,3>(128)")
            .unwrap()
            .to_string(),
        "144"
    );
}

#[test]
fn a_refusal_holds_for_every_allowed_size() {
    // The path keeps the mode M under the guard M != 1, where the strides overlap; at M = 1 the
    // layout is 16:1: the case split answers there instead of refusing every size.
    assert_eq!(
        show("left_inverse((16,M):(M,M))", &[]),
        ("16:1".to_string(), vec!["M == 1".to_string()])
    );
    agrees(
        "left_inverse((16,M):(M,M))",
        &[],
        &[("M", 1)],
        "left_inverse((16,1):(1,1))",
    );
    // A product of names equal to 1 splits into one fact per name.
    assert_eq!(
        show("left_inverse((K,N,4):(4,4*K,3))", &[]),
        (
            "(3,4):(0,1)".to_string(),
            vec!["K == 1".to_string(), "N == 1".to_string()]
        )
    );
    // Under a fact excluding M = 1, every size is refused.
    let e = eval("left_inverse((16,M):(M,M))", &["M >= 2"]).unwrap_err();
    assert_eq!(e.code(), "refuted", "{e}");
    // CuTe's stride condition fails, but the integer algebra (exact admissibility) answers: a
    // call without names takes its answer; with names, the refusal is not claimed.
    assert_eq!(
        show("composition((16,2,16):(32,16,1),(3,4):(1,3))", &[]).0,
        "(3,4):(32,96)"
    );
    let e = eval("complement((3,M):(1,5),100)", &["M % 16 == 0"]).unwrap_err();
    assert_eq!(e.code(), "symbolic_unsupported", "{e}");
    assert!(tessera::notation::eval("complement((3,16):(1,5),100)").is_ok());
}

#[test]
fn ragged_local_tile_and_partition_over_symbols() {
    // A tile at a symbolic coordinate: the predicate over the tile index, the full side of the
    // valid count as a guard (the last tile of a mode is the other side).
    let s = eval(
        "ragged_local_tile((M,N):(1,M),(128,128),(bm,bn))",
        &["M % 128 == 0"],
    )
    .unwrap();
    assert_eq!(
        s.value.to_string(),
        "((128,128):(1,M),128*M*bn+128*bm) [16384 points, 16384 valid, 0 holes] valid iff N > 128*bn+t1"
    );
    assert!(s.guards.iter().any(|g| g.to_string() == "N > 128*bn+127"));
    // The last tile of a 20-element mode: 4 valid of 16, as the integer algebra says.
    let s = eval("ragged_local_tile(M:1,16,1)", &["M <= 31"]).unwrap();
    let at = env(&[("M", 20)]);
    assert!(s.guards.iter().all(|g| g.pred.holds(&at).unwrap()));
    assert_eq!(
        s.value.subs(&at).unwrap().to_string(),
        "(16:1,16,16,4,12)",
        "{}",
        s.value
    );
    assert!(tessera::notation::eval("ragged_local_tile(20:1,16,1)")
        .unwrap()
        .to_string()
        .starts_with("(16:1,16) [16 points, 4 valid, 12 holes]"));
    // A thread's elements: exact counts, no guard for a constant thread index.
    let s = eval(
        "ragged_local_partition((M,N):(N,1),(4,8):(8,1),13)",
        &[] as &[&str],
    )
    .unwrap();
    assert!(s.guards.is_empty(), "{:?}", s.guards);
    let at = env(&[("M", 10), ("N", 12)]);
    assert_eq!(
        s.value.subs(&at).unwrap().to_string(),
        "((3,2):(48,8),17,6,3,3)"
    );
    assert!(
        tessera::notation::eval("ragged_local_partition((10,12):(12,1),(4,8):(8,1),13)")
            .unwrap()
            .to_string()
            .starts_with("((3,2):(48,8),17) [6 points, 3 valid, 3 holes]")
    );
}

/// Whether some assignment of `names` in `1..=64` satisfies the facts and every guard of `e`.
fn guards_hold_somewhere(e: &str, f: &[&str], names: &[&str]) -> Option<BTreeMap<String, i64>> {
    let s = eval(e, f).unwrap();
    let facts = Facts::parse(f).unwrap();
    let total = 64usize.pow(names.len() as u32);
    (0..total).find_map(|k| {
        let at: BTreeMap<String, i64> = names
            .iter()
            .enumerate()
            .map(|(i, n)| (n.to_string(), 1 + ((k / 64usize.pow(i as u32)) % 64) as i64))
            .collect();
        (facts.satisfied_by(&at) && s.guards.iter().all(|g| g.pred.holds(&at).unwrap_or(false)))
            .then_some(at)
    })
}

#[test]
fn a_result_whose_guards_never_hold_is_not_an_answer() {
    // CuTe's path took `N != 1` and then `4*K >= 4*K*N` (so N <= 1): a result for no size.
    // The case split moves on to the other parts; the one that answers is N == 1.
    let (v, g) = show("left_inverse((4*K,N):(N,4*K))", &[]);
    assert_eq!(v, "4*K:1");
    assert!(g.contains(&"N == 1".to_string()), "{g:?}");
    let at = guards_hold_somewhere("left_inverse((4*K,N):(N,4*K))", &[], &["K", "N"])
        .expect("the guards hold for some size");
    let (k, n) = (at["K"], at["N"]);
    agrees(
        "left_inverse((4*K,N):(N,4*K))",
        &[],
        &[("K", k), ("N", n)],
        &format!("left_inverse(({},{n}):({n},{}))", 4 * k, 4 * k),
    );
    // For N >= 2 the integer algebra refuses (the strides overlap): with that fact, a refusal.
    let e = eval("left_inverse((4*K,N):(N,4*K))", &["N >= 2"]).unwrap_err();
    assert_eq!(e.code(), "refuted", "{e}");
    assert!(tessera::notation::eval("left_inverse((8,2):(2,8))").is_err());
    // A guard the decision procedure cannot refute but the search never satisfies
    // (`ceil_div(N,2*N) != 1`: the rest mode of the complement is always 1): the part where it
    // is false answers, for every N >= 2 (before: the answer held for no N).
    for (e, names) in [
        ("complement(N:2,N)", &["N"][..]),
        ("complement((2*N,1):(2,1))", &["N"][..]),
        ("composition((M/4,4):(4,1),2:3)", &["M"][..]),
    ] {
        assert!(
            guards_hold_somewhere(e, &[], names).is_some(),
            "{e}: {:?}",
            show(e, &[])
        );
    }
    assert_eq!(show("complement(N:2,N)", &[]).0, "2:1");
    for n in 2..=8 {
        agrees(
            "complement(N:2,N)",
            &[],
            &[("N", n)],
            &format!("complement({n}:2,{n})"),
        );
    }
    // A result the search satisfies only off its quick grid (M = 24) stays the answer.
    assert_eq!(show("composition((M/4,4):(4,1),2:3)", &[]).0, "2:12");
    agrees(
        "composition((M/4,4):(4,1),2:3)",
        &[],
        &[("M", 24)],
        "composition((6,4):(4,1),2:3)",
    );
}

#[test]
fn an_extent_is_at_least_one() {
    // The integer algebra refuses a shape 0 (`non_positive_shape`): M/2 is 0 at M = 1, so the
    // answer carries the guard, and facts that force the 0 refuse.
    assert!(tessera::notation::eval("size(0:1)").is_err());
    assert_eq!(
        show("size((M-1):1)", &[]),
        ("M-1".to_string(), vec!["M >= 2".to_string()])
    );
    let (_, g) = show("logical_divide((M/2,4):(1,M/2),(2,2))", &[]);
    assert_eq!(g, vec!["M/2 >= 1".to_string()]);
    agrees(
        "logical_divide((M/2,4):(1,M/2),(2,2))",
        &[],
        &[("M", 9)],
        "logical_divide((4,4):(1,4),(2,2))",
    );
    for (e, facts) in [
        ("logical_divide(M/2:1,2:1)", &["M == 1"][..]),
        ("size((M-1):1)", &["M <= 1"][..]),
        ("size(0:1)", &[][..]),
        ("complement(4:1,M-4)", &["M <= 4"][..]),
        ("tile_to_shape(2:1,(M/4,4))", &["M <= 3"][..]),
    ] {
        let err = eval(e, facts).unwrap_err();
        assert_eq!(err.code(), "refuted", "{e} under {facts:?}: {err}");
    }
    // Proved from the facts: no guard.
    assert_eq!(
        show("size((M/2,4):(1,M/2))", &["M >= 2"]).1,
        Vec::<String>::new()
    );
    // A cotarget, a target shape and idx2crd's shape are extents too; coordinates, indices and
    // tile_to_shape's order are not.
    assert_eq!(
        show("complement(4:1,M-4)", &[]).1,
        vec!["M >= 5".to_string()]
    );
    assert_eq!(
        show("idx2crd(i,(M,N/2))", &[]).1,
        vec!["N/2 >= 1".to_string()]
    );
    assert!(show("tile_to_shape(M:1,(16,K),(0,1))", &[])
        .1
        .iter()
        .all(|g| !g.contains(">= 1") || g.contains('/')));
    assert_eq!(
        show("crd2idx((i,j),(M,N):(1,M))", &[]).1,
        vec!["M > i".to_string(), "N > j".to_string()]
    );
}

/// Coefficients at the edge of `i64` divide without a panic: `i64::MIN * M` by `-M` (whose
/// exact quotient `-i64::MIN` does not fit) and a constant `i64::MIN` under a negative divisor.
#[test]
fn quotients_at_the_edge_of_i64_do_not_panic() {
    use tessera::symbolic::parse_expr;
    let min_m = parse_expr("-9223372036854775807*M - M").expect("i64::MIN * M");
    let neg_m = parse_expr("-M").expect("-M");
    for r in [
        min_m.floor_div(&neg_m),
        min_m.ceil_div(&neg_m),
        min_m.rem(&neg_m),
    ] {
        // an answer (a quotient atom) or a typed error, never a panic
        let _ = r;
    }
    let min = parse_expr("-9223372036854775807 - 1").expect("i64::MIN");
    for d in ["-1", "-2", "3", "M"] {
        let d = parse_expr(d).expect("divisor");
        let _ = (min.floor_div(&d), min.ceil_div(&d), min.rem(&d));
    }
}
