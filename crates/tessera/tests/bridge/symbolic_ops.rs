//! The symbolic operations (issue 28, item 5) against `proofs/SymbolicOps.v`: Rust's
//! `symbolic::ops::{composition, complement, logical_divide}` (with `coalesce_leaves_x`,
//! `compose_node`, `compose_leaf`, `divide_part`) against the extracted `scomposition`,
//! `scomplement` and `sdivide` run by the extracted `srun`, on random symbolic layouts over
//! `K`, `M`, `N` with random facts. Rust records its decisions (`Ctx::trace`); the extracted
//! run replays them (its oracle, `branch_typical`'s side, the peek and the two syntactic
//! tests of `compose_leaf`), and must consume exactly them and return the same result layout
//! and the same guards, in order. The extracted run prints its expressions as syntax trees;
//! this side parses them (the parser builds with the same `Poly` operations Rust ran) and
//! compares canonical polynomials.

use super::{extracted, Rng};
use tessera::symbolic::ops::{self, Tiler};
use tessera::symbolic::{parse_expr, Atom, Ctx, Facts, Node, Poly, Rel, SymError, SymLayout};

const NAMES: [&str; 3] = ["K", "M", "N"];

/// Cases per operation.
const OPS_CASES: usize = 40_000;

/// The prefix tokens of a polynomial (`SymbolicOps.v`'s `sexpr`).
fn expr_tokens(p: &Poly) -> String {
    fn atom(a: &Atom) -> String {
        match a {
            Atom::Name(n) => {
                let v = NAMES.iter().position(|x| n == x).expect("a known name");
                format!("v {v}")
            }
            Atom::Floor(x, y) => format!("/ {} {}", expr_tokens(x), expr_tokens(y)),
            Atom::Ceil(x, y) => format!("^ {} {}", expr_tokens(x), expr_tokens(y)),
            other => panic!("no such atom in the generated inputs: {other:?}"),
        }
    }
    let mut acc: Option<String> = None;
    for (m, c) in p.terms() {
        let mut t = format!("c {c}");
        for (a, pw) in m {
            for _ in 0..*pw {
                t = format!("* {t} {}", atom(a));
            }
        }
        acc = Some(match acc {
            None => t,
            Some(s) => format!("+ {s} {t}"),
        });
    }
    acc.unwrap_or_else(|| "c 0".to_string())
}

fn tree_tokens(n: &Node) -> String {
    match n {
        Node::Leaf(s, d) => format!("L {} {}", expr_tokens(s), expr_tokens(d)),
        Node::Tuple(ms) => {
            let mut t = format!("T {}", ms.len());
            for m in ms {
                t.push(' ');
                t.push_str(&tree_tokens(m));
            }
            t
        }
    }
}

fn profile(n: &Node) -> String {
    match n {
        Node::Leaf(..) => "L".into(),
        Node::Tuple(ms) => format!("({})", ms.iter().map(profile).collect::<Vec<_>>().join(",")),
    }
}

fn rel_code(r: Rel) -> &'static str {
    match r {
        Rel::Ge => "0",
        Rel::Eq => "1",
        Rel::Ne => "2",
        Rel::Divides => "3",
        Rel::NotDivides => "4",
    }
}

/// Rust's answer in the extracted run's format, expressions printed canonically.
fn rust_answer(l: &SymLayout, ctx: &Ctx) -> String {
    let mut f = vec!["R".to_string(), profile(&l.root)];
    let leaves = l.root.leaves();
    f.push(leaves.len().to_string());
    for (s, d) in &leaves {
        f.push(s.to_string());
        f.push(d.to_string());
    }
    f.push(ctx.guards.len().to_string());
    for g in &ctx.guards {
        f.push(rel_code(g.pred.rel).into());
        f.push(g.pred.lhs.to_string());
        f.push(g.pred.rhs.to_string());
    }
    f.join(";")
}

/// The extracted answer with each expression re-parsed and printed canonically.
fn canonical(answer: &str) -> String {
    let f: Vec<&str> = answer.split(';').collect();
    if f.len() < 4 || f[0] != "R" {
        return answer.to_string();
    }
    let canon =
        |e: &str| parse_expr(e).map_or_else(|err| format!("<{e}: {err}>"), |p| p.to_string());
    let mut out = vec![f[0].to_string(), f[1].to_string(), f[2].to_string()];
    let n: usize = f[2].parse().unwrap_or(0);
    let mut i = 3;
    for _ in 0..2 * n {
        out.push(f.get(i).map_or("<missing>".into(), |e| canon(e)));
        i += 1;
    }
    let g: usize = f.get(i).and_then(|x| x.parse().ok()).unwrap_or(0);
    out.push(g.to_string());
    i += 1;
    for _ in 0..g {
        out.push(f.get(i).map_or("<missing>".into(), |x| x.to_string()));
        out.push(f.get(i + 1).map_or("<missing>".into(), |e| canon(e)));
        out.push(f.get(i + 2).map_or("<missing>".into(), |e| canon(e)));
        i += 3;
    }
    if i != f.len() {
        out.push("<trailing fields>".into());
    }
    out.join(";")
}

fn trace_tokens(ctx: &Ctx) -> String {
    let t = ctx.trace.as_ref().expect("traced");
    let mut s = t.len().to_string();
    for (k, v) in t {
        let v = match v {
            Some(true) => "1",
            Some(false) => "0",
            None => "-",
        };
        s.push_str(&format!(" {} {v}", *k as char));
    }
    s
}

fn name(rng: &mut Rng) -> Poly {
    Poly::name(NAMES[rng.range(0, 2) as usize])
}

/// An extent: a small constant, a name, a multiple of a name, or a product of names.
fn extent(rng: &mut Rng) -> Poly {
    match rng.range(0, 9) {
        0..=3 => Poly::constant([1, 2, 4, 8, 16, 3, 6, 32][rng.range(0, 7) as usize]),
        4..=6 => name(rng),
        7 => Poly::constant([2, 4, 8][rng.range(0, 2) as usize])
            .mul(&name(rng))
            .expect("small"),
        _ => name(rng).mul(&name(rng)).expect("small"),
    }
}

/// A stride: 0, a small constant, a name or a multiple of one.
fn stride(rng: &mut Rng) -> Poly {
    match rng.range(0, 7) {
        0 => Poly::constant(0),
        1..=3 => Poly::constant([1, 2, 4, 8, 16, 64, 3][rng.range(0, 6) as usize]),
        4 | 5 => name(rng),
        _ => Poly::constant([2, 4, 16][rng.range(0, 2) as usize])
            .mul(&name(rng))
            .expect("small"),
    }
}

/// A random layout of 1 to `max` leaves: compact (each stride the span so far, often) or
/// random strides, sometimes nested.
fn layout(rng: &mut Rng, max: i64) -> SymLayout {
    let n = rng.range(1, max) as usize;
    let compact = rng.range(0, 2) == 0;
    let mut span = Poly::constant(1);
    let mut leaves = Vec::with_capacity(n);
    for _ in 0..n {
        let s = extent(rng);
        let d = if compact && rng.range(0, 5) > 0 {
            span.clone()
        } else {
            stride(rng)
        };
        span = s.mul(&d).expect("small");
        if span.as_const() == Some(0) {
            span = s.clone();
        }
        leaves.push(Node::Leaf(s, d));
    }
    let root = if n == 1 {
        leaves.pop().expect("one")
    } else if n >= 3 && rng.range(0, 2) == 0 {
        let last = leaves.pop().expect("three");
        Node::Tuple(vec![Node::Tuple(leaves), last])
    } else {
        Node::Tuple(leaves)
    };
    SymLayout::new(root)
}

fn facts(rng: &mut Rng) -> Facts {
    facts_with_tokens(rng).0
}

/// [`facts`] with the request tokens of the facts in use (`k FACT1 .. FACTk`, as for the "P"
/// request; none when the list does not parse, as `unwrap_or_default` then gives none).
fn facts_with_tokens(rng: &mut Rng) -> (Facts, String) {
    const POOL: [(&str, &str); 10] = [
        ("M % 4 == 0", "R 1 4 0"),
        ("M >= 8", "L 1 1 -8 0"),
        ("N % 16 == 0", "R 2 16 0"),
        ("K >= 2", "L 0 1 -2 0"),
        ("K % 2 == 0", "R 0 2 0"),
        ("N >= 32", "L 2 1 -32 0"),
        ("M % 128 == 0", "R 1 128 0"),
        ("K == 4", "L 0 1 -4 4"),
        ("N <= 64", "L 2 1 -64 1"),
        ("M % 3 == 1", "R 1 3 1"),
    ];
    let k = rng.range(0, 3);
    let picked: Vec<(&str, &str)> = (0..k).map(|_| POOL[rng.range(0, 9) as usize]).collect();
    let fs: Vec<&str> = picked.iter().map(|f| f.0).collect();
    match Facts::parse(&fs) {
        Ok(f) => {
            let toks: String = picked.iter().map(|f| format!(" {}", f.1)).collect();
            (f, format!("{}{toks}", picked.len()))
        }
        Err(_) => (Facts::default(), "0".to_string()),
    }
}

/// Rust's symbolic `composition`, `complement` (with a cotarget) and `logical_divide` (by a
/// layout) = the extracted runs of `proofs/SymbolicOps.v` (`scomposition`, `scomplement`,
/// `sdivide`; `sop_run_sound`: exact under the facts and the guards), given the same
/// decisions: the same result and the same guards.
#[test]
#[ignore = "needs the extracted executable: bash proofs/bridge/run.sh"]
fn symbolic_ops_agree_with_the_extracted_proof() {
    let mut rng = Rng(0x0B5_C0DE_5EED_0028);
    for op in ["composition", "complement", "logical_divide"] {
        let mut requests = Vec::with_capacity(OPS_CASES);
        let mut rust = Vec::with_capacity(OPS_CASES);
        let (mut refuted, mut guards, mut skipped, mut quotients, mut steps) = (0, 0, 0, 0, 0);
        while requests.len() < OPS_CASES {
            let mut ctx = Ctx::new(facts(&mut rng));
            ctx.trace = Some(Vec::new());
            let a = layout(&mut rng, 3);
            let (res, code, arg) = match op {
                "composition" => {
                    let b = layout(&mut rng, 2);
                    let r = ops::composition(&mut ctx, &a, &b);
                    (r, "c", tree_tokens(&b.root))
                }
                "complement" => {
                    let m = match rng.range(0, 2) {
                        0 => extent(&mut rng),
                        _ => extent(&mut rng).mul(&extent(&mut rng)).expect("small"),
                    };
                    let r = ops::complement(&mut ctx, &a, Some(&m));
                    (r, "m", expr_tokens(&m))
                }
                _ => {
                    let b = layout(&mut rng, 2);
                    let r = ops::logical_divide(&mut ctx, &a, &Tiler::Layout(b.clone()));
                    (r, "d", tree_tokens(&b.root))
                }
            };
            let answer = match res {
                Ok(l) => {
                    guards += ctx.guards.len();
                    if l.root
                        .leaves()
                        .iter()
                        .any(|(s, d)| s.has_quotient() || d.has_quotient())
                    {
                        quotients += 1;
                    }
                    rust_answer(&l, &ctx)
                }
                Err(SymError::Refuted { .. }) => {
                    refuted += 1;
                    "E".to_string()
                }
                Err(_) => {
                    skipped += 1;
                    continue;
                }
            };
            steps += ctx.trace.as_ref().map_or(0, Vec::len);
            requests.push(format!(
                "O {code} {} {arg} {}",
                tree_tokens(&a.root),
                trace_tokens(&ctx)
            ));
            rust.push(answer);
        }
        let coq: Vec<String> = extracted(&requests).iter().map(|a| canonical(a)).collect();
        let mut bad = 0;
        for ((req, r), c) in requests.iter().zip(&rust).zip(&coq) {
            if r != c {
                if bad < 10 {
                    eprintln!("{op}: `{req}`: Rust gives `{r}`, the extracted Coq gives `{c}`");
                }
                bad += 1;
            }
        }
        eprintln!(
            "symbolic {op}: {} cases ({refuted} refuted, {guards} guards, {quotients} results \
             with a quotient atom, {steps} decisions replayed; {skipped} left out: another error)",
            requests.len()
        );
        assert_eq!(
            bad,
            0,
            "symbolic {op}: {bad} of {} cases differ",
            requests.len()
        );
        assert!(
            refuted >= OPS_CASES / 50 && guards >= OPS_CASES / 2 && quotients >= OPS_CASES / 50
        );
    }
}

/// Rust's `Ctx::decide_fast` (`decide_quick` on canonical polynomials with quotient atoms, the
/// guards so far, the facts strengthened by guards of the shape of a fact) = the extracted
/// `rust_sdec_s` (`proofs/SymbolicOpsRust.v`: `rust_sdec_s_sound`, sound where the predicate
/// is defined), decision for decision, in runs of `composition`, `complement` and
/// `logical_divide` as above: the extracted run takes its oracle's answers (the hooks still
/// replayed) and must give Rust's result and guards.
#[test]
#[ignore = "needs the extracted executable: bash proofs/bridge/run.sh"]
fn rust_oracle_agrees_with_the_extracted_proof() {
    const CASES: usize = 10_000;
    let mut rng = Rng(0x0B5_C0DE_5EED_0029);
    for op in ["composition", "complement", "logical_divide"] {
        let mut requests = Vec::with_capacity(CASES);
        let mut rust = Vec::with_capacity(CASES);
        let (mut decided, mut steps) = (0, 0);
        while requests.len() < CASES {
            let (f, ftoks) = facts_with_tokens(&mut rng);
            let mut ctx = Ctx::new(f);
            ctx.trace = Some(Vec::new());
            let a = layout(&mut rng, 3);
            let (res, code, arg) = match op {
                "composition" => {
                    let b = layout(&mut rng, 2);
                    (
                        ops::composition(&mut ctx, &a, &b),
                        "c",
                        tree_tokens(&b.root),
                    )
                }
                "complement" => {
                    let m = extent(&mut rng);
                    (
                        ops::complement(&mut ctx, &a, Some(&m)),
                        "m",
                        expr_tokens(&m),
                    )
                }
                _ => {
                    let b = layout(&mut rng, 2);
                    let r = ops::logical_divide(&mut ctx, &a, &Tiler::Layout(b.clone()));
                    (r, "d", tree_tokens(&b.root))
                }
            };
            let answer = match res {
                Ok(l) => rust_answer(&l, &ctx),
                Err(SymError::Refuted { .. }) => "E".to_string(),
                Err(_) => continue,
            };
            let t = ctx.trace.as_ref().map_or(&[][..], Vec::as_slice);
            steps += t.iter().filter(|(k, _)| *k == b'd').count();
            decided += t.iter().filter(|(k, v)| *k == b'd' && v.is_some()).count();
            requests.push(format!(
                "OR {ftoks} {code} {} {arg} {}",
                tree_tokens(&a.root),
                trace_tokens(&ctx)
            ));
            rust.push(answer);
        }
        let coq: Vec<String> = extracted(&requests).iter().map(|a| canonical(a)).collect();
        let mut bad = 0;
        for ((req, r), c) in requests.iter().zip(&rust).zip(&coq) {
            if r != c {
                if bad < 10 {
                    eprintln!("{op}: `{req}`: Rust gives `{r}`, the extracted Coq gives `{c}`");
                }
                bad += 1;
            }
        }
        eprintln!(
            "rust oracle, {op}: {} runs, {steps} decisions by the oracle ({decided} decided)",
            requests.len()
        );
        assert_eq!(bad, 0, "{op}: {bad} of {} cases differ", requests.len());
    }
}

/// A random tiler for `a` and its request tokens (`SymbolicTiler.v`'s `stiler`): `_` ("U"), a
/// layout ("B TREE") or, below `depth` 2, a tuple ("S n ..") of at most the mode's rank
/// (sometimes one more: Rust's Unsupported), whose components tile the modes in order.
fn tiler(rng: &mut Rng, a: &Node, depth: u32) -> (Tiler, String) {
    let k = rng.range(0, 9);
    if k == 0 {
        return (Tiler::Under, "U".into());
    }
    if depth >= 2 || k <= 2 {
        let b = layout(rng, 2);
        let toks = format!("B {}", tree_tokens(&b.root));
        return (Tiler::Layout(b), toks);
    }
    let modes = match a {
        Node::Leaf(..) => std::slice::from_ref(a),
        Node::Tuple(ms) => ms.as_slice(),
    };
    let n = if rng.range(0, 19) == 0 {
        modes.len() + 1
    } else {
        rng.range(1, modes.len().max(1) as i64) as usize
    };
    let (mut ts, mut toks) = (Vec::with_capacity(n), format!("S {n}"));
    for i in 0..n {
        let (t, s) = match modes.get(i) {
            Some(m) => tiler(rng, m, depth + 1),
            None => tiler(rng, &Node::Leaf(Poly::constant(1), Poly::constant(0)), 2),
        };
        ts.push(t);
        toks.push(' ');
        toks.push_str(&s);
    }
    (Tiler::Tuple(ts), toks)
}

/// Rust's symbolic `logical_divide` by a tiler (mostly tuples: `by_mode`, the guards of every
/// mode accumulating in one `Ctx`) = the extracted run of `proofs/SymbolicTiler.v`'s `stile`
/// (`tiler_divide_guards_sufficient`: under the facts and all the guards, mode by mode the
/// one-mode divide), given the same decisions: the same result, the same guards, the same
/// Unsupported for a tiler of larger rank.
#[test]
#[ignore = "needs the extracted executable: bash proofs/bridge/run.sh"]
fn symbolic_tiler_agrees_with_the_extracted_proof() {
    const CASES: usize = 10_000;
    let mut rng = Rng(0x0B5_C0DE_5EED_0035);
    let mut requests = Vec::with_capacity(CASES);
    let mut rust = Vec::with_capacity(CASES);
    let (mut refuted, mut unsupported, mut guards, mut multi, mut skipped) = (0, 0, 0, 0, 0);
    while requests.len() < CASES {
        let mut ctx = Ctx::new(facts(&mut rng));
        ctx.trace = Some(Vec::new());
        let a = layout(&mut rng, 3);
        // The top-level tiler is a tuple (the layout and `_` cases are the "O" test's).
        let (t, toks) = loop {
            let (t, toks) = tiler(&mut rng, &a.root, 0);
            if matches!(t, Tiler::Tuple(_)) {
                break (t, toks);
            }
        };
        let answer = match ops::logical_divide(&mut ctx, &a, &t) {
            Ok(l) => {
                guards += ctx.guards.len();
                // Two or more modes divided, in one context.
                let divided = toks.matches('B').count();
                if divided >= 2 {
                    multi += 1;
                }
                rust_answer(&l, &ctx)
            }
            Err(SymError::Refuted { .. }) => {
                refuted += 1;
                "E".to_string()
            }
            Err(SymError::Unsupported { what, .. }) if what.starts_with("a tiler of rank") => {
                unsupported += 1;
                "U".to_string()
            }
            Err(_) => {
                skipped += 1;
                continue;
            }
        };
        requests.push(format!(
            "OT {} {toks} {}",
            tree_tokens(&a.root),
            trace_tokens(&ctx)
        ));
        rust.push(answer);
    }
    let coq: Vec<String> = extracted(&requests).iter().map(|a| canonical(a)).collect();
    let mut bad = 0;
    for ((req, r), c) in requests.iter().zip(&rust).zip(&coq) {
        if r != c {
            if bad < 10 {
                eprintln!("tiler: `{req}`: Rust gives `{r}`, the extracted Coq gives `{c}`");
            }
            bad += 1;
        }
    }
    eprintln!(
        "symbolic logical_divide by a tuple tiler: {} cases ({refuted} refuted, {unsupported} \
         unsupported ranks, {guards} guards, {multi} with two or more modes divided; {skipped} \
         left out: another error)",
        requests.len()
    );
    assert_eq!(bad, 0, "tiler: {bad} of {} cases differ", requests.len());
    assert!(refuted >= CASES / 100 && unsupported >= CASES / 100 && multi >= CASES / 10);
    assert!(guards >= CASES / 2);
}

/// Rust's symbolic `complement(A, None)` (the cotarget `cosize(A)`: a `d >= 0` branch per leaf,
/// then `complement` with it) = the extracted run of `proofs/SymbolicCosize.v`'s
/// `scomplement_nc` (`complement_nc_guards_sufficient`), given the same decisions: the same
/// result and guards (the cosize's and the complement's), or the same refutation. One leaf in
/// four has its stride negated (the cosize's other side, then a refuted `d >= 1`).
#[test]
#[ignore = "needs the extracted executable: bash proofs/bridge/run.sh"]
fn complement_without_cotarget_agrees_with_the_extracted_proof() {
    const CASES: usize = 10_000;
    let mut rng = Rng(0x0B5_C0DE_5EED_0036);
    let mut requests = Vec::with_capacity(CASES);
    let mut rust = Vec::with_capacity(CASES);
    let (mut refuted, mut guards, mut negated, mut skipped) = (0, 0, 0, 0);
    while requests.len() < CASES {
        let mut ctx = Ctx::new(facts(&mut rng));
        ctx.trace = Some(Vec::new());
        let mut leaves = layout(&mut rng, 3).root.leaves();
        for (_, d) in leaves.iter_mut() {
            if rng.range(0, 3) == 0 && d.as_const() != Some(0) {
                *d = d.scale(-1).expect("small");
                negated += 1;
            }
        }
        let root = match leaves.len() {
            1 => {
                let (s, d) = leaves.pop().expect("one");
                Node::Leaf(s, d)
            }
            _ => Node::Tuple(leaves.into_iter().map(|(s, d)| Node::Leaf(s, d)).collect()),
        };
        let a = SymLayout::new(root);
        let answer = match ops::complement(&mut ctx, &a, None) {
            Ok(l) => {
                guards += ctx.guards.len();
                rust_answer(&l, &ctx)
            }
            Err(SymError::Refuted { .. }) => {
                refuted += 1;
                "E".to_string()
            }
            Err(_) => {
                skipped += 1;
                continue;
            }
        };
        requests.push(format!(
            "ON {} {}",
            tree_tokens(&a.root),
            trace_tokens(&ctx)
        ));
        rust.push(answer);
    }
    let coq: Vec<String> = extracted(&requests).iter().map(|a| canonical(a)).collect();
    let mut bad = 0;
    for ((req, r), c) in requests.iter().zip(&rust).zip(&coq) {
        if r != c {
            if bad < 10 {
                eprintln!("cosize: `{req}`: Rust gives `{r}`, the extracted Coq gives `{c}`");
            }
            bad += 1;
        }
    }
    eprintln!(
        "symbolic complement without a cotarget: {} cases ({refuted} refuted, {guards} guards, \
         {negated} strides negated; {skipped} left out: another error)",
        requests.len()
    );
    assert_eq!(bad, 0, "cosize: {bad} of {} cases differ", requests.len());
    assert!(refuted >= CASES / 20 && guards >= CASES / 2);
}
