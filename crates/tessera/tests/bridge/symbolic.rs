//! The symbolic decisions with facts (issue 28, item 5) against `proofs/SymbolicFacts.v`:
//! `Facts::parse` (the normalized `NameInfo` of each name), `Facts::decide_quick` and
//! `Facts::witness_any` against the extracted `facts_parse`, `decide_static` and `witness`,
//! on random fact lists over `K`, `M`, `N` (numbered 0, 1, 2 on the Coq side, the same order
//! as Rust's name order, so monomials and quotient variables sort alike) and random
//! quotient-free polynomial predicates.

use super::{compare, Rng, CASES};
use tessera::symbolic::{Atom, Ctx, Facts, Poly, Pred, Rel, SymError};

const NAMES: [&str; 3] = ["K", "M", "N"];

/// A linear fact `a*X + b OP 0` (or `a*X OP -b`) as text, with its request tokens.
fn linear_fact(rng: &mut Rng, n: usize) -> (String, String) {
    let a = [1, 1, 1, -1, 2, 3, -2][rng.range(0, 6) as usize];
    // Bounds near a value in [1, 40], so that most single facts are satisfiable.
    let b = -a * rng.range(1, 40) + rng.range(-2, 2);
    let op = [0, 0, 1, 1, 2, 3, 4][rng.range(0, 6) as usize];
    let ops = [">=", "<=", ">", "<", "=="];
    let x = match a {
        1 => NAMES[n].to_string(),
        -1 => format!("-{}", NAMES[n]),
        _ => format!("{a}*{}", NAMES[n]),
    };
    let text = if rng.range(0, 1) == 0 {
        match b {
            0 => format!("{x} {} 0", ops[op as usize]),
            b if b > 0 => format!("{x} + {b} {} 0", ops[op as usize]),
            b => format!("{x} - {} {} 0", -b, ops[op as usize]),
        }
    } else {
        format!("{x} {} {}", ops[op as usize], -b)
    };
    (text, format!("L {n} {a} {b} {op}"))
}

/// The request tokens of a polynomial: Rust's canonical terms (merged, no zero coefficient).
fn poly_tokens(p: &Poly) -> String {
    let mut toks = format!("{}", p.terms().len());
    for (m, c) in p.terms() {
        toks.push_str(&format!(" {c} {}", m.len()));
        for (a, pw) in m {
            let v = match a {
                Atom::Name(n) => NAMES.iter().position(|x| x == n).expect("a known name"),
                _ => panic!("a quotient-free polynomial"),
            };
            toks.push_str(&format!(" {v} {pw}"));
        }
    }
    toks
}

/// A random quotient-free polynomial over the names, with its request tokens.
fn random_poly(rng: &mut Rng, max_terms: i64) -> (Poly, String) {
    let t = rng.range(1, max_terms);
    let mut p = Poly::constant(0);
    for _ in 0..t {
        let mut c = rng.range(-6, 8);
        if c == 0 {
            c = 1;
        }
        let mut pows = [0u32; 3];
        for _ in 0..rng.range(0, 2) {
            pows[rng.range(0, 2) as usize] += 1;
        }
        let mut term = Poly::constant(c);
        for (v, &pw) in pows.iter().enumerate() {
            for _ in 0..pw {
                term = term.mul(&Poly::name(NAMES[v])).expect("small");
            }
        }
        p = p.add(&term).expect("small");
    }
    let toks = poly_tokens(&p);
    (p, toks)
}

/// A divisor: a constant (0 and negative ones included), a name, or a random polynomial.
fn random_divisor(rng: &mut Rng) -> (Poly, String) {
    match rng.range(0, 5) {
        0..=2 => {
            let c = [0, 1, 2, 3, 4, 6, 8, 16, -4][rng.range(0, 8) as usize];
            let p = Poly::constant(c);
            let toks = poly_tokens(&p);
            (p, toks)
        }
        3 => {
            let v = rng.range(0, 2) as usize;
            let c = [1, 2, 4][rng.range(0, 2) as usize];
            let p = Poly::constant(c).mul(&Poly::name(NAMES[v])).expect("small");
            let toks = poly_tokens(&p);
            (p, toks)
        }
        _ => random_poly(rng, 2),
    }
}

/// Each name's `NameInfo` as `m x0 ymax` (`-`: no bound; `* * *`: no facts).
fn name_infos(f: &Facts) -> Vec<String> {
    NAMES
        .iter()
        .map(|n| match f.info(n) {
            Some(i) => format!(
                "{} {} {}",
                i.m,
                i.x0,
                i.ymax.map_or("-".to_string(), |h| h.to_string())
            ),
            None => "* * *".to_string(),
        })
        .collect()
}

/// Rust's `Facts::parse` + `decide_quick` + `witness_any` = the extracted `facts_parse` +
/// `decide_static` + `witness` (`proofs/SymbolicFacts.v`: `facts_parse_exact`,
/// `facts_parse_contra`, `facts_decide_sound`, `facts_witness_sound`).
#[test]
#[ignore = "needs the extracted executable: bash proofs/bridge/run.sh"]
fn symbolic_facts_agree_with_the_extracted_proof() {
    let mut rng = Rng(0x5F_AC75_D3C1_DE00);
    let mut requests = Vec::with_capacity(CASES);
    let mut rust = Vec::with_capacity(CASES);
    let (mut contra, mut proved, mut refuted, mut unknown) = (0, 0, 0, 0);
    for _ in 0..CASES {
        let k = rng.range(0, 4) as usize;
        let mut facts = Vec::with_capacity(k);
        let mut ftoks = String::new();
        for _ in 0..k {
            // Mostly K and M, so names carry several facts.
            let n = [0, 0, 1, 1, 2][rng.range(0, 4) as usize];
            if rng.range(0, 2) == 0 {
                let m = rng.range(1, 12);
                let r = match rng.range(0, 29) {
                    0 => m,
                    1 => -1,
                    _ => rng.range(0, m - 1),
                };
                facts.push(format!("{} % {m} == {r}", NAMES[n]));
                ftoks.push_str(&format!(" R {n} {m} {r}"));
            } else {
                let (t, tok) = linear_fact(&mut rng, n);
                facts.push(t);
                ftoks.push_str(&format!(" {tok}"));
            }
        }
        let rel = rng.range(0, 4);
        let (l, ltoks) = if rel >= 3 {
            random_divisor(&mut rng)
        } else {
            random_poly(&mut rng, 3)
        };
        let (r, rtoks) = random_poly(&mut rng, 3);
        let pred = match rel {
            0 => Pred::ge(l, r),
            1 => Pred::eq(l, r),
            2 => Pred::ne(l, r),
            3 => Pred::divides(l, r),
            _ => Pred::divides(l, r).negate().expect("negate"),
        };
        requests.push(format!("P {k}{ftoks} {rel} {ltoks} {rtoks}"));
        let answer = match Facts::parse(&facts) {
            Err(SymError::Contradiction { .. }) => {
                contra += 1;
                "C".to_string()
            }
            Err(SymError::UnsupportedFact { .. }) => "U".to_string(),
            Err(e) => format!("error {e}"),
            Ok(f) => {
                let info = name_infos(&f);
                let verdict = match f.decide_quick(&pred).expect("decide") {
                    Some(true) => {
                        proved += 1;
                        "T"
                    }
                    Some(false) => {
                        refuted += 1;
                        "F"
                    }
                    None => {
                        unknown += 1;
                        "?"
                    }
                };
                let w = f.witness_any().expect("witness");
                let wit: Vec<String> = NAMES
                    .iter()
                    .map(|n| match f.info(n) {
                        Some(_) => w.get(*n).map_or("missing".into(), |v| v.to_string()),
                        None => "*".into(),
                    })
                    .collect();
                format!("{} | {verdict} | {}", info.join(" "), wit.join(" "))
            }
        };
        rust.push(answer);
    }
    eprintln!(
        "symbolic facts: {contra} contradictions, {proved} proved, {refuted} refuted, {unknown} unknown"
    );
    assert!(contra >= 2_000 && proved >= 10_000 && refuted >= 10_000 && unknown >= 10_000);
    compare("symbolic facts", &requests, &rust);
}

/// A random predicate over the names, with its request tokens `REL LHS RHS`.
fn random_pred(rng: &mut Rng) -> (Pred, String) {
    let rel = rng.range(0, 4);
    if rng.range(0, 2) == 0 {
        // The shape of a fact (`X >= c`, `c >= X`, `X == c`, `X != c`, `m | X`), which
        // `Ctx` turns into a fact when it becomes a guard.
        let n = Poly::name(NAMES[rng.range(0, 2) as usize]);
        // Small constants often: a name's smallest value is often 1 to 4 (`X != x0` raises
        // the lower bound).
        let c = Poly::constant(match rng.range(0, 2) {
            0 => rng.range(1, 4),
            _ => rng.range(0, 24),
        });
        let m = Poly::constant([2, 4, 8, 3][rng.range(0, 3) as usize]);
        let pred = match rel {
            0 if rng.range(0, 1) == 0 => Pred::ge(n, c),
            0 => Pred::ge(c, n),
            1 => Pred::eq(n, c),
            2 => Pred::ne(n, c),
            3 => Pred::divides(m, n),
            _ => Pred::divides(m, n).negate().expect("negate"),
        };
        let toks = format!(
            "{rel} {} {}",
            poly_tokens(&pred.lhs),
            poly_tokens(&pred.rhs)
        );
        return (pred, toks);
    }
    let (l, ltoks) = if rel >= 3 {
        random_divisor(rng)
    } else {
        random_poly(rng, 2)
    };
    let (r, rtoks) = random_poly(rng, 2);
    let pred = match rel {
        0 => Pred::ge(l, r),
        1 => Pred::eq(l, r),
        2 => Pred::ne(l, r),
        3 => Pred::divides(l, r),
        _ => Pred::divides(l, r).negate().expect("negate"),
    };
    (pred, format!("{rel} {ltoks} {rtoks}"))
}

/// Rust's `Ctx` (`branch`, `require`: decisions by `decide_fast`, guards recorded, facts
/// strengthened by the guards of the shape of a fact) on random straight-line computations =
/// the extracted `ctx_run` (`proofs/SymbolicFacts.v`: `srun` with `ctx_decide_s`, proved
/// exact under the facts and the guards by `ctx_run_sound_steps`): the same answers at every
/// branch, the same guards, in order, and the same strengthened facts.
#[test]
#[ignore = "needs the extracted executable: bash proofs/bridge/run.sh"]
fn ctx_guards_agree_with_the_extracted_proof() {
    let mut rng = Rng(0xC7_6A2D_5EED_0001);
    let mut requests = Vec::with_capacity(CASES);
    let mut rust = Vec::with_capacity(CASES);
    let (mut refuted, mut guards, mut strengthened, mut contra) = (0, 0, 0, 0);
    while requests.len() < CASES {
        let k = rng.range(0, 3) as usize;
        let mut facts = Vec::with_capacity(k);
        let mut ftoks = String::new();
        for _ in 0..k {
            let n = [0, 0, 1, 1, 2][rng.range(0, 4) as usize];
            if rng.range(0, 2) == 0 {
                let m = rng.range(1, 8);
                let r = rng.range(0, m - 1);
                facts.push(format!("{} % {m} == {r}", NAMES[n]));
                ftoks.push_str(&format!(" R {n} {m} {r}"));
            } else {
                let (t, tok) = linear_fact(&mut rng, n);
                facts.push(t);
                ftoks.push_str(&format!(" {tok}"));
            }
        }
        let Ok(base) = Facts::parse(&facts) else {
            contra += 1;
            continue;
        };
        let s = rng.range(1, 4) as usize;
        let mut stoks = String::new();
        let mut ctx = Ctx::new(base.clone());
        let mut bits = String::new();
        let mut failed = false;
        for _ in 0..s {
            let (p, ptoks) = random_pred(&mut rng);
            if rng.range(0, 2) > 0 {
                let prefer = rng.range(0, 1) == 1;
                stoks.push_str(&format!(" b {} {ptoks}", u8::from(prefer)));
                if !failed {
                    let b = ctx.branch(p, prefer, "bridge").expect("branch");
                    bits.push(if b { '1' } else { '0' });
                }
            } else {
                stoks.push_str(&format!(" r 0 {ptoks}"));
                if !failed {
                    match ctx.require(p, "bridge") {
                        Ok(()) => {}
                        Err(SymError::Refuted { .. }) => failed = true,
                        Err(e) => panic!("require: {e}"),
                    }
                }
            }
        }
        requests.push(format!("G {k}{ftoks} {s}{stoks}"));
        if failed {
            refuted += 1;
            rust.push("E".to_string());
            continue;
        }
        guards += ctx.guards.len();
        if ctx.facts != base {
            strengthened += 1;
        }
        let gs: Vec<String> = ctx
            .guards
            .iter()
            .map(|g| {
                let rel = match g.pred.rel {
                    Rel::Ge => 0,
                    Rel::Eq => 1,
                    Rel::Ne => 2,
                    Rel::Divides => 3,
                    Rel::NotDivides => 4,
                };
                format!(
                    "{rel} {} {}",
                    poly_tokens(&g.pred.lhs),
                    poly_tokens(&g.pred.rhs)
                )
            })
            .collect();
        let bits = if bits.is_empty() { "-".into() } else { bits };
        rust.push(format!(
            "{bits} | {} | {}",
            gs.join(" ; "),
            name_infos(&ctx.facts).join(" ")
        ));
    }
    eprintln!(
        "ctx: {} runs ({contra} contradictory fact lists left out), {refuted} with a refuted \
         obligation, {guards} guards, {strengthened} with facts strengthened by a guard",
        requests.len()
    );
    assert!(refuted >= 5_000 && guards >= 50_000 && strengthened >= 10_000);
    compare("ctx guards", &requests, &rust);
}

/// The request tokens of a polynomial with quotient atoms: Rust's canonical terms, each atom
/// `n v` (a name), `f X Y` (`X / Y`), `c X Y` (`ceil_div(X, Y)`) or `m X Y` (`X % Y`).
fn qpoly_tokens(p: &Poly) -> String {
    let mut toks = format!("{}", p.terms().len());
    for (m, c) in p.terms() {
        toks.push_str(&format!(" {c} {}", m.len()));
        for (a, pw) in m {
            match a {
                Atom::Name(n) => {
                    let v = NAMES.iter().position(|x| x == n).expect("a known name");
                    toks.push_str(&format!(" n {v}"));
                }
                Atom::Floor(x, y) | Atom::Ceil(x, y) | Atom::Mod(x, y) => {
                    let op = match a {
                        Atom::Floor(..) => "f",
                        Atom::Ceil(..) => "c",
                        _ => "m",
                    };
                    toks.push_str(&format!(" {op} {} {}", qpoly_tokens(x), qpoly_tokens(y)));
                }
                Atom::Swizzle(..) => panic!("no swizzle in these polynomials"),
            }
            toks.push_str(&format!(" {pw}"));
        }
    }
    toks
}

/// A random divisor of a quotient: a constant (negative ones included), a name, `c*X`, or
/// `X + b` (which the facts may make 0: Rust's error).
fn random_qdivisor(rng: &mut Rng) -> Poly {
    let name = |rng: &mut Rng| Poly::name(NAMES[rng.range(0, 2) as usize]);
    match rng.range(0, 9) {
        0..=4 => Poly::constant([2, 3, 4, 8, 6, 12, 16, 1, -4][rng.range(0, 8) as usize]),
        5 | 6 => name(rng),
        7 => Poly::constant([2, 4][rng.range(0, 1) as usize])
            .mul(&name(rng))
            .expect("small"),
        _ => name(rng)
            .add(&Poly::constant(rng.range(-1, 2)))
            .expect("small"),
    }
}

/// A random factor: a name or a quotient atom (`/`, `ceil_div`, `%`) of a random polynomial
/// by a random divisor, nested up to `depth`.
fn random_qfactor(rng: &mut Rng, depth: u32) -> Poly {
    if depth == 0 || rng.range(0, 2) == 0 {
        return Poly::name(NAMES[rng.range(0, 2) as usize]);
    }
    loop {
        let x = random_qpoly(rng, depth - 1, 2);
        let y = random_qdivisor(rng);
        let r = match rng.range(0, 2) {
            0 => x.floor_div(&y),
            1 => x.ceil_div(&y),
            _ => x.rem(&y),
        };
        if let Ok(p) = r {
            return p;
        }
    }
}

/// A random polynomial of 1 to `max_terms` terms whose factors may be quotient atoms.
fn random_qpoly(rng: &mut Rng, depth: u32, max_terms: i64) -> Poly {
    let mut p = Poly::constant(0);
    for _ in 0..rng.range(1, max_terms) {
        let mut c = rng.range(-6, 8);
        if c == 0 {
            c = 1;
        }
        let mut term = Poly::constant(c);
        for _ in 0..rng.range(0, 2) {
            term = term.mul(&random_qfactor(rng, depth)).expect("small");
        }
        p = p.add(&term).expect("small");
    }
    p
}

/// Rust's `Facts::decide_quick` on predicates with quotient atoms (floor, ceil and mod by
/// constants, names and `X + b`, nested) = the extracted `qdecide` (`proofs/SymbolicQuot.v`:
/// `qdecide_sound`), under random fact lists (as for `symbolic_facts_agree_with_the_extracted_proof`).
#[test]
#[ignore = "needs the extracted executable: bash proofs/bridge/run.sh"]
fn quotient_decisions_agree_with_the_extracted_proof() {
    let mut rng = Rng(0x9A07_1E47_D3C1_DE01);
    let mut requests = Vec::with_capacity(CASES);
    let mut rust = Vec::with_capacity(CASES);
    let (mut proved, mut refuted, mut unknown, mut errors, mut nested) = (0, 0, 0, 0, 0);
    while requests.len() < CASES {
        let k = rng.range(0, 3) as usize;
        let mut facts = Vec::with_capacity(k);
        let mut ftoks = String::new();
        for _ in 0..k {
            let n = [0, 0, 1, 1, 2][rng.range(0, 4) as usize];
            if rng.range(0, 2) == 0 {
                let m = [2, 3, 4, 6, 8, 12][rng.range(0, 5) as usize];
                let r = rng.range(0, m - 1);
                facts.push(format!("{} % {m} == {r}", NAMES[n]));
                ftoks.push_str(&format!(" R {n} {m} {r}"));
            } else {
                let (t, tok) = linear_fact(&mut rng, n);
                facts.push(t);
                ftoks.push_str(&format!(" {tok}"));
            }
        }
        if rng.range(0, 9) == 0 {
            // A nested constant quotient that flattens only in quotient variables:
            // `(X/a + Y)/c - Y/c` under `Y % c == 0` and `X <= B` is `(x0 + m*X')/(a*c)`.
            let (x, y) = (rng.range(0, 1) as usize, 2);
            let (a, c, b) = (
                rng.range(2, 4),
                [2, 4][rng.range(0, 1) as usize],
                rng.range(8, 60),
            );
            facts.push(format!("{} % {c} == 0", NAMES[y]));
            facts.push(format!("{} <= {b}", NAMES[x]));
            let ftoks = format!("{ftoks} R {y} {c} 0 L {x} 1 {} 1", -b);
            let (xp, yp) = (Poly::name(NAMES[x]), Poly::name(NAMES[y]));
            let cp = Poly::constant(c);
            let q = xp
                .floor_div(&Poly::constant(a))
                .and_then(|v| v.add(&yp))
                .and_then(|v| v.floor_div(&cp))
                .and_then(|v| v.sub(&yp.floor_div(&cp)?))
                .expect("small");
            let kc = Poly::constant(rng.range(0, b / 2));
            let (rel, l, r) = match rng.range(0, 2) {
                0 => (0, kc, q),
                1 => (0, q, kc),
                _ => (1, q, kc),
            };
            let Ok(f) = Facts::parse(&facts) else {
                continue;
            };
            requests.push(format!(
                "QA {}{ftoks} {rel} {} {}",
                k + 2,
                qpoly_tokens(&l),
                qpoly_tokens(&r)
            ));
            let pred = if rel == 0 {
                Pred::ge(l, r)
            } else {
                Pred::eq(l, r)
            };
            rust.push(match f.decide_quick(&pred) {
                Ok(Some(b)) => {
                    nested += 1;
                    if b {
                        proved += 1;
                        "T".to_string()
                    } else {
                        refuted += 1;
                        "F".to_string()
                    }
                }
                Ok(None) => {
                    unknown += 1;
                    "?".to_string()
                }
                Err(e) => format!("error {e}"),
            });
            continue;
        }
        let Ok(f) = Facts::parse(&facts) else {
            continue;
        };
        let rel = rng.range(0, 4);
        let l = if rel >= 3 {
            match rng.range(0, 2) {
                0 => random_qdivisor(&mut rng),
                _ => random_qpoly(&mut rng, 1, 1),
            }
        } else {
            random_qpoly(&mut rng, 2, 2)
        };
        // Often a constant on the right: `M/4 >= 3`, `M % 8 == 2` (decidable more often).
        let r = match rng.range(0, 2) {
            0 => Poly::constant(rng.range(-2, 12)),
            _ => random_qpoly(&mut rng, 2, 2),
        };
        if !l.has_quotient() && !r.has_quotient() {
            continue;
        }
        requests.push(format!(
            "QA {k}{ftoks} {rel} {} {}",
            qpoly_tokens(&l),
            qpoly_tokens(&r)
        ));
        let pred = match rel {
            0 => Pred::ge(l, r),
            1 => Pred::eq(l, r),
            2 => Pred::ne(l, r),
            3 => Pred::divides(l, r),
            _ => Pred::divides(l, r).negate().expect("negate"),
        };
        rust.push(match f.decide_quick(&pred) {
            Ok(Some(true)) => {
                proved += 1;
                "T".to_string()
            }
            Ok(Some(false)) => {
                refuted += 1;
                "F".to_string()
            }
            Ok(None) => {
                unknown += 1;
                "?".to_string()
            }
            Err(SymError::DivisionByZero(_)) => {
                errors += 1;
                "E".to_string()
            }
            Err(e) => format!("error {e}"),
        });
    }
    eprintln!(
        "quotient decisions: {proved} proved, {refuted} refuted, {unknown} unknown, \
         {errors} division by a divisor the facts make 0; {nested} nested constant quotients decided"
    );
    compare("quotient decisions", &requests, &rust);
}

/// Rust's `Facts::tidy` (quotients the facts make exact: `ceil_div(x, y)` to `x / y` and
/// `x % y` to 0 when `y | x` is proved, every atom rebuilt by `floor_div`/`ceil_div`/`rem`) =
/// the extracted `qtidy` (`proofs/SymbolicQuot.v`: `qtidy_sound`), compared as canonical
/// polynomials, term for term, on random polynomials with quotient atoms under random facts.
#[test]
#[ignore = "needs the extracted executable: bash proofs/bridge/run.sh"]
fn tidy_agrees_with_the_extracted_proof() {
    let mut rng = Rng(0x71D7_A6E0_5EED_0002);
    let mut requests = Vec::with_capacity(CASES);
    let mut rust = Vec::with_capacity(CASES);
    let (mut changed, mut same, mut errors) = (0, 0, 0);
    while requests.len() < CASES {
        let k = rng.range(0, 3) as usize;
        let mut facts = Vec::with_capacity(k);
        let mut ftoks = String::new();
        for _ in 0..k {
            let n = [0, 0, 1, 1, 2][rng.range(0, 4) as usize];
            if rng.range(0, 3) > 0 {
                // Residues often 0, so that quotients become exact.
                let m = [2, 3, 4, 6, 8, 12, 16][rng.range(0, 6) as usize];
                let r = if rng.range(0, 1) == 0 {
                    0
                } else {
                    rng.range(0, m - 1)
                };
                facts.push(format!("{} % {m} == {r}", NAMES[n]));
                ftoks.push_str(&format!(" R {n} {m} {r}"));
            } else {
                let (t, tok) = linear_fact(&mut rng, n);
                facts.push(t);
                ftoks.push_str(&format!(" {tok}"));
            }
        }
        let Ok(f) = Facts::parse(&facts) else {
            continue;
        };
        let p = random_qpoly(&mut rng, 2, 3);
        if !p.has_quotient() {
            continue;
        }
        requests.push(format!("TI {k}{ftoks} {}", qpoly_tokens(&p)));
        rust.push(match f.tidy(&p) {
            Ok(t) => {
                if t == p {
                    same += 1;
                } else {
                    changed += 1;
                }
                qpoly_tokens(&t)
            }
            Err(SymError::DivisionByZero(_)) => {
                errors += 1;
                "E".to_string()
            }
            Err(e) => format!("error {e}"),
        });
    }
    eprintln!(
        "tidy: {changed} polynomials rewritten, {same} unchanged, {errors} division by a divisor \
         the facts make 0"
    );
    compare("tidy", &requests, &rust);
}
