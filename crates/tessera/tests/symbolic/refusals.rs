//! Refusals are right: a symbolic refusal (`SymError::Refuted`, "false for every size allowed
//! by the facts") and a refutation of the decision procedure (`Verdict::Refuted`) are checked at
//! many assignments satisfying the facts, boundary values first: the witness, every name 1, every
//! name at its smallest allowed value, typical large sizes (`x0 + 1000·m`), all names equal to
//! each of 2..=8, one name at each of 1..=8 (the others smallest), small multiples of each
//! name's modulus, large powers of two and a few random ones (an operation's case is checked at
//! the first 24 of them where it instantiates, a condition at all of them).
//!
//! * For an operation (the cases of `symbolic_instantiation.rs`, which calls [`check_refusal`]
//!   on each of its refused cases): the integer algebra must refuse the instantiated call at
//!   every probe (an input that is not a valid integer layout there is skipped).
//! * For `Facts::decide`: the refuted condition must be false at every probe.

use super::symbolic_instantiation::{facts, instantiate, shape_leaf, Case, Rng, NAMES};
use std::collections::BTreeMap;
use tessera::symbolic::{parse_expr, Assignment, Facts, Pred, Verdict};

/// Assignments of `M`, `N`, `K` satisfying `f` (deduplicated), boundary values first.
pub(crate) fn probes(f: &Facts, witness: &Assignment, r: &mut Rng) -> Vec<Assignment> {
    let base = |n: &str| f.info(n).map_or((1, 1), |i| (i.x0, i.m));
    let smallest: Assignment = NAMES.iter().map(|n| (n.to_string(), base(n).0)).collect();
    let mut out: Vec<Assignment> = Vec::new();
    let add = |env: Assignment, out: &mut Vec<Assignment>| {
        if f.satisfied_by(&env) && !out.contains(&env) {
            out.push(env);
        }
    };
    let mut w = smallest.clone();
    w.extend(witness.iter().map(|(k, v)| (k.clone(), *v)));
    add(w, &mut out);
    add(NAMES.iter().map(|n| (n.to_string(), 1)).collect(), &mut out);
    add(smallest.clone(), &mut out);
    for y in [1000, 1023] {
        add(
            NAMES
                .iter()
                .map(|n| (n.to_string(), base(n).0 + y * base(n).1))
                .collect(),
            &mut out,
        );
    }
    for v in 2..=8 {
        add(NAMES.iter().map(|n| (n.to_string(), v)).collect(), &mut out);
    }
    for v in 1..=8 {
        for n in NAMES {
            let mut e = smallest.clone();
            e.insert(n.to_string(), v);
            add(e, &mut out);
        }
    }
    for k in 1..=3 {
        for n in NAMES {
            let (x0, m) = base(n);
            let mut e = smallest.clone();
            e.insert(n.to_string(), x0 + k * m);
            add(e, &mut out);
        }
    }
    for v in [64, 128, 1024, 4096, 4097] {
        add(NAMES.iter().map(|n| (n.to_string(), v)).collect(), &mut out);
    }
    for _ in 0..4 {
        let e = NAMES
            .iter()
            .map(|n| {
                let (x0, m) = base(n);
                (n.to_string(), x0 + m * *r.pick(&[0, 1, 2, 3, 5, 7, 15, 31]))
            })
            .collect();
        add(e, &mut out);
    }
    out
}

/// Probes at which one refused case is instantiated at most (the boundary ones come first).
const MAX_PROBES: usize = 24;

/// A refused case against the integer algebra at the probes (the first [`MAX_PROBES`] that instantiate): the number of probes where the
/// call instantiates, and the first probe where the integer algebra answers (a wrong refusal)
/// with its answer.
pub(crate) fn check_refusal(
    c: &Case,
    f: &Facts,
    witness: &Assignment,
    r: &mut Rng,
) -> (usize, Option<(Assignment, String, String)>) {
    let mut checked = 0;
    for env in probes(f, witness, r) {
        if checked == MAX_PROBES {
            break;
        }
        let Some(itext) = instantiate(c, &env) else {
            continue;
        };
        checked += 1;
        if let Ok(v) = tessera::notation::eval(&itext) {
            return (checked, Some((env, itext, v.to_string())));
        }
    }
    (checked, None)
}

/// A random condition over the names: sides built from the generators' shape leaves,
/// multiples, sums, products and quotients; every relation of [`Pred`].
fn condition(r: &mut Rng, names: &[&str]) -> Pred {
    let side = |r: &mut Rng| -> String {
        let a = shape_leaf(r, names);
        match r.below(8) {
            0 | 1 => a,
            2 => format!("{}*{a}", r.pick(&[2, 3, 15, 16])),
            3 => format!("{a}+{}", r.pick(&[-1, 1, 7, 128])),
            4 => format!("{a}*{}", shape_leaf(r, names)),
            5 => format!("ceil_div({a},{})", r.pick(&[2, 8, 128])),
            6 => format!("{a}-{}", shape_leaf(r, names)),
            _ => r.pick(&[0, 1, 2, 16, 128]).to_string(),
        }
    };
    let (l, rr) = (side(r), side(r));
    let (l, rr) = (parse_expr(&l).unwrap(), parse_expr(&rr).unwrap());
    match r.below(5) {
        0 => Pred::ge(l, rr),
        1 => Pred::eq(l, rr),
        2 => Pred::ne(l, rr),
        3 => Pred::divides(
            tessera::symbolic::Poly::constant(*r.pick(&[2, 4, 8, 16, 128])),
            l,
        ),
        _ => Pred::divides(l, rr),
    }
}

#[test]
fn decide_refutes_only_what_is_false_at_every_allowed_size() {
    let n: usize = std::env::var("TESSERA_SYM_CASES")
        .ok()
        .and_then(|s| s.parse().ok())
        .unwrap_or(10_000);
    let mut r = Rng(0x5EED_2026 ^ 0xDEC1DE);
    let (mut refuted, mut probed, mut wrong) = (0usize, 0usize, Vec::new());
    for _ in 0..n {
        let names: Vec<&str> = NAMES[..1 + r.below(3)].to_vec();
        let fs = facts(&mut r, &names);
        let p = condition(&mut r, &names);
        let f = Facts::parse(&fs).unwrap();
        let Ok(Verdict::Refuted(w)) = f.decide(&p) else {
            continue;
        };
        refuted += 1;
        for env in probes(&f, &w, &mut r) {
            match p.holds(&env) {
                Ok(true) => {
                    wrong.push(format!("{p} under {fs:?} holds at {env:?}"));
                    break;
                }
                Ok(false) => probed += 1,
                Err(_) => {}
            }
        }
    }
    eprintln!(
        "decide | conditions {n} | refuted {refuted} | probes where false {probed} | wrong {}",
        wrong.len()
    );
    assert!(refuted > n / 20, "only {refuted} refutations to check");
    assert!(wrong.is_empty(), "wrong refutations:\n{}", wrong.join("\n"));
}

/// The probes of an empty fact base include every name at 1 and at 1..=8.
#[test]
fn probes_cover_the_boundary() {
    let f = Facts::parse::<&str>(&[]).unwrap();
    let ps = probes(&f, &BTreeMap::new(), &mut Rng(7));
    let one: Assignment = NAMES.iter().map(|n| (n.to_string(), 1)).collect();
    assert!(ps.contains(&one));
    for v in 1..=8 {
        let mut e = one.clone();
        e.insert("K".into(), v);
        assert!(ps.contains(&e), "{e:?}");
    }
    let f = Facts::parse(&["M % 16 == 0"]).unwrap();
    let ps = probes(&f, &BTreeMap::new(), &mut Rng(7));
    assert!(ps.iter().all(|e| e["M"] % 16 == 0));
    assert!(ps.iter().any(|e| e["M"] == 16 && e["N"] == 1));
}
