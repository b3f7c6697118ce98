//! Structure-aware (issue 30): swizzled and composed chains `F0 o off0 o F1 o … o Fk` (each `F` a
//! swizzle or a small plain layout, offsets of any sign, up to four links) through eval, cosize,
//! the inverses and composition, each answer checked against the definition computed here on
//! its own (colex coordinates dotted with strides in 128 bits, the swizzle bit by bit):
//! `eval` equals the reference wherever the reference fits 64 bits; `cosize = 1 + max |f(i)|`;
//! a right inverse `R` has `R(i)` in f's domain and `f(R(i)) = i`; `A ∘ B` evaluates as `A(B(i))`.
//!
//! Shared by the fuzz target `fuzz_targets/swizzled.rs` and the stable replay of its corpus and
//! regressions (`crates/tessera/tests/algebra/fuzz_regressions.rs`).
use arbitrary::Arbitrary;
use tessera::algebra::swizzled;
use tessera::layout::{AnyLayout, ComposedLayout, IntTuple, Swizzle};
use tessera::Layout;

#[derive(Arbitrary, Debug)]
enum Part {
    Sw(u8, u8, i8),
    Plain(Vec<(u8, i16)>),
}

#[derive(Arbitrary, Debug)]
pub struct Input {
    parts: Vec<(Part, i16)>,
    other: Vec<(u8, i16)>,
}

fn plain(modes: &[(u8, i16)]) -> Option<Layout> {
    if modes.is_empty() || modes.len() > 4 {
        return None;
    }
    let shape = IntTuple::flat(modes.iter().map(|&(s, _)| i64::from(s % 8) + 1));
    let stride = IntTuple::flat(modes.iter().map(|&(_, d)| i64::from(d)));
    Layout::new(&shape, &stride).ok()
}

fn part(p: &Part) -> Option<AnyLayout> {
    match p {
        Part::Sw(b, m, s) => Swizzle::new(i64::from(b % 4), i64::from(m % 5), i64::from(*s % 6))
            .ok()
            .map(AnyLayout::from),
        Part::Plain(modes) => plain(modes).map(AnyLayout::from),
    }
}

/// The reference: the function from the definition, in 128 bits.
fn reference(f: &AnyLayout, x: i128) -> i128 {
    match f {
        AnyLayout::Plain(l) => {
            let mut rest = x;
            let mut acc = 0i128;
            let leaves: Vec<_> = l.leaves().collect();
            for (k, m) in leaves.iter().enumerate() {
                let s = i128::from(m.shape);
                // Past the domain, CuTe's idx2crd: C++'s truncating `%` and `/`, the last mode
                // taking the rest.
                let c = if k + 1 == leaves.len() {
                    rest
                } else {
                    rest % s
                };
                acc += c * i128::from(m.stride);
                rest /= s;
            }
            acc
        }
        AnyLayout::Swizzle(s) => {
            let mut y = x;
            let z0 = s.base() - s.shift().min(0);
            for k in 0..s.bits() {
                let (zb, yb) = (z0 + k, z0 + k + s.shift());
                if (x >> yb) & 1 == 1 {
                    y ^= 1 << zb;
                }
            }
            y
        }
        AnyLayout::Composed(c) => {
            reference(&c.outer, i128::from(c.offset) + reference(&c.inner, x))
        }
    }
}

/// The checks of one input.
pub fn check(i: Input) {
    if i.parts.is_empty() || i.parts.len() > 4 {
        return;
    }
    let mut parts = Vec::new();
    for (p, off) in &i.parts {
        let Some(f) = part(p) else { return };
        parts.push((f, i64::from(*off)));
    }
    let (last, _) = parts.pop().unwrap();
    let mut f = last;
    while let Some((g, off)) = parts.pop() {
        f = ComposedLayout::new(g, off, f).into();
    }
    let Ok(n) = f.size() else { return };
    // eval against the reference.
    let mut max_abs = 0i128;
    for x in 0..n {
        let want = reference(&f, i128::from(x));
        match f.eval(x) {
            Ok(v) => assert_eq!(i128::from(v), want, "{f} at {x}"),
            Err(e) => assert!(
                i64::try_from(want).is_err() || e.code() == "overflow",
                "{f} at {x}: {e} but the reference is {want}"
            ),
        }
        max_abs = max_abs.max(want.abs());
    }
    // cosize by the definition.
    if let Ok(c) = swizzled::cosize(&f) {
        if !f.is_plain() {
            assert_eq!(i128::from(c), max_abs + 1, "cosize({f})");
        }
    }
    // A right inverse meets the definition on its domain.
    if let Ok(r) = swizzled::right_inverse(&f) {
        if !f.is_plain() {
            let m = r.size().unwrap_or(0).min(1 << 12);
            for x in 0..m {
                let y = reference(&r, i128::from(x));
                assert!(
                    (0..i128::from(n)).contains(&y),
                    "right_inverse({f}) = {r}: R({x}) = {y}"
                );
                assert_eq!(
                    reference(&f, y),
                    i128::from(x),
                    "right_inverse({f}) = {r} at {x}"
                );
            }
        }
    }
    // Composition evaluates as A(B(i)) on B's domain.
    if let Some(b) = plain(&i.other) {
        if let Ok(r) = swizzled::composition(&f, &swizzled::Rhs::Func(b.clone().into())) {
            for x in 0..b.size().unwrap() {
                let bx = reference(&AnyLayout::Plain(b.clone()), i128::from(x));
                if (0..i128::from(n)).contains(&bx) {
                    assert_eq!(
                        reference(&r, i128::from(x)),
                        reference(&f, bx),
                        "{f} o {b} at {x}"
                    );
                }
            }
        }
    }
}
