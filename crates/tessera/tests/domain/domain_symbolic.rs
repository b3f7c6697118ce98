//! Symbolic extents: facts decide divisibility and positivity; what they cannot decide becomes an
//! obligation; a launch-time check enables a smaller predicate, which enumeration confirms for
//! every value that passes the check.

use tessera::domain::eval::{check_predicate, Space};
use tessera::domain::predicate::{derive, derive_by_theorems_assuming};
use tessera::domain::report::{analyze, ObligationKind};
use tessera::domain::{parse, Decision, Extent, Fact, Facts};

#[test]
fn facts_decide_divisibility() {
    let mut f = Facts::default();
    let n = Extent::Sym("N".into());
    assert_eq!(f.divides(4, &n).unwrap(), Decision::Unknown);
    f.assume(Fact::Divisible("N".into(), 8)).unwrap();
    assert_eq!(f.divides(4, &n).unwrap(), Decision::Yes);
    assert_eq!(f.divides(16, &n).unwrap(), Decision::Unknown);
    // ceilDiv(N, 4) is N / 4, a multiple of 2.
    assert_eq!(
        f.divides(2, &n.ceil_div(4).unwrap()).unwrap(),
        Decision::Yes
    );
    assert_eq!(
        f.divides(4, &n.ceil_div(4).unwrap()).unwrap(),
        Decision::Unknown
    );
    // N * 3 is a multiple of 24; N + 4 of 4 only.
    assert_eq!(
        f.divides(24, &n.mul(&Extent::Const(3)).unwrap()).unwrap(),
        Decision::Yes
    );
    assert_eq!(f.divides(4, &n.add(4).unwrap()).unwrap(), Decision::Yes);
    assert_eq!(f.divides(8, &n.add(4).unwrap()).unwrap(), Decision::Unknown);
    // A value decides everything, and must agree with the facts.
    let mut g = f.clone();
    g.assume(Fact::Equals("N".into(), 24)).unwrap();
    assert_eq!(g.divides(16, &n).unwrap(), Decision::No);
    assert_eq!(
        f.clone()
            .assume(Fact::Equals("N".into(), 20))
            .unwrap_err()
            .code(),
        "contradiction"
    );
    // Facts combine by lcm.
    f.assume(Fact::Divisible("N".into(), 3)).unwrap();
    assert_eq!(f.divides(24, &n).unwrap(), Decision::Yes);
}

#[test]
fn facts_decide_positivity() {
    let mut f = Facts::default();
    let n = Extent::Sym("N".into());
    assert_eq!(f.at_least(&n, 1).unwrap(), Decision::Unknown);
    f.assume(Fact::AtLeast("N".into(), 3)).unwrap();
    assert_eq!(f.at_least(&n.add(-2).unwrap(), 1).unwrap(), Decision::Yes);
    assert_eq!(
        f.at_least(&n.add(-3).unwrap(), 1).unwrap(),
        Decision::Unknown
    );
    assert_eq!(
        f.at_least(&n.ceil_div(4).unwrap(), 1).unwrap(),
        Decision::Yes
    );
}

#[test]
fn undecided_positivity_is_a_launch_obligation() {
    let r = analyze(&parse("N0 = iter N\nI1 = resize N0 by -1, 0\n").unwrap()).unwrap();
    let launch: Vec<&str> = r
        .obligations
        .iter()
        .filter(|o| o.kind == ObligationKind::Launch)
        .map(|o| o.condition.as_str())
        .collect();
    assert_eq!(launch, vec!["N >= 1", "(N - 1) >= 1"]);
    let r =
        analyze(&parse("assume N >= 2\nN0 = iter N\nI1 = resize N0 by -1, 0\n").unwrap()).unwrap();
    assert!(r.obligations.is_empty());
    // A value that makes an extent non-positive is an error naming it.
    let e = parse("assume N == 1\nN0 = iter N\nI1 = resize N0 by -1, 0\n").unwrap_err();
    assert!(e.to_string().contains("extent >= 1"), "{e}");
}

#[test]
fn symbolic_predicate_matches_enumeration_for_every_value() {
    // With N % 8 == 0 the first split by 4 is divisible; the split of the remainder by 3 is not
    // decided. The symbolic predicate must be right for every N the facts allow, and the
    // specialized one for every N that also passes the launch check.
    let text = "assume N % 8 == 0\nassume N >= 8\nN0 = iter N\nI1, I2 = split N0 by 4\nI3, I4 = split I1 by 3\nloop I3 I4 I2\n";
    let s = parse(text).unwrap();
    let sym = derive(&s).unwrap();
    assert!(!sym.minimal_checked);
    let spec = derive_by_theorems_assuming(&s, &[1]).unwrap();
    assert!(spec.chosen.is_empty());
    for n in (8..=96).step_by(8) {
        let bound = parse(&format!("assume N == {n}\n{text}")).unwrap();
        let sp = Space::new(&bound).unwrap();
        assert!(
            check_predicate(&sp, &sym.chosen).unwrap().equivalent,
            "N = {n}"
        );
        let spec_ok = check_predicate(&sp, &spec.chosen).unwrap().equivalent;
        assert_eq!(spec_ok, (n / 4) % 3 == 0, "N = {n}");
        // The concrete derivation never needs more than the symbolic one.
        let conc = derive(&bound).unwrap();
        assert!(conc.chosen.iter().all(|i| sym.chosen.contains(i)));
    }
}

#[test]
fn vector_rule_decided_by_facts() {
    let text = "M0 = iter M\nK0 = iter K\nI3 = merge M0, K0\nI4, I5 = split I3 by 4\nalloc M0 K0 strides 1000 1\nvectorize I5\n";
    let r = analyze(&parse(text).unwrap()).unwrap();
    let rule = r.accesses[0].rule.as_ref().unwrap();
    assert_eq!(rule.legal, Decision::Unknown);
    assert!(r
        .obligations
        .iter()
        .any(|o| o.kind == ObligationKind::Launch && o.condition == "4 | K"));
    let r = analyze(&parse(&format!("assume K % 4 == 0\n{text}")).unwrap()).unwrap();
    assert_eq!(r.accesses[0].rule.as_ref().unwrap().legal, Decision::Yes);
}

#[test]
fn hole_freedom_decided_symbolically() {
    let text = "assume N % 8 == 0\nassume N >= 8\nN0 = iter N\nI1, I2 = split N0 by 4\nI3, I4 = split I1 by 2\n";
    let r = analyze(&parse(text).unwrap()).unwrap();
    assert_eq!(r.hole_free, Decision::Yes);
    assert!(r.derivation.chosen.is_empty());
    for n in (8..=80).step_by(8) {
        let b = analyze(&parse(&format!("assume N == {n}\n{text}")).unwrap()).unwrap();
        assert_eq!(b.counts.unwrap().holes, 0, "N = {n}");
    }
    // Without the fact it is undecided, and N = 12 indeed has holes.
    let plain = "N0 = iter N\nI1, I2 = split N0 by 4\nI3, I4 = split I1 by 2\n";
    assert_eq!(
        analyze(&parse(plain).unwrap()).unwrap().hole_free,
        Decision::Unknown
    );
    let twelve = analyze(&parse(&format!("assume N == 12\n{plain}")).unwrap()).unwrap();
    assert_eq!(twelve.hole_free, Decision::No);
}

#[test]
fn a_refused_fact_leaves_the_base_unchanged() {
    // Both orders: a value against a divisor, and a divisor against a value.
    let mut f = Facts::default();
    f.assume(Fact::Divisible("N".into(), 8)).unwrap();
    let before = f.clone();
    assert!(f.assume(Fact::Equals("N".into(), 3)).is_err());
    assert_eq!(f, before);
    assert_eq!(f.value("N"), None);

    let mut g = Facts::default();
    g.assume(Fact::Equals("N".into(), 12)).unwrap();
    let before = g.clone();
    assert!(g.assume(Fact::Divisible("N".into(), 8)).is_err());
    assert!(g.assume(Fact::AtLeast("N".into(), 13)).is_err());
    assert!(g.assume(Fact::Equals("N".into(), 4)).is_err());
    assert_eq!(g, before);
    // N % 8 == 0 was refused, so 4 ∣ N is known (12) but 8 is not used as a divisor.
    assert_eq!(
        g.divides(8, &Extent::Sym("N".into())).unwrap(),
        Decision::No
    );
}
