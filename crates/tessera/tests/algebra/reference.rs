//! Issue 30: every answer against its definition. `reference` below is a slow, obviously right
//! model written from the definitions (colex coordinates dotted with strides in 128-bit
//! arithmetic, the swizzle bit by bit, a composed layout as function composition), independent of
//! the fast code; each property draws random inputs of one kind — plain layouts with extents and
//! strides near 2^31 and 2^62 (the checked-arithmetic edges), swizzled and composed chains with
//! offsets of any sign, F2-linear layouts, shared-memory tiles whose byte addresses pass 2^64,
//! ragged divides — and checks the answer against the reference, or that a refusal is right.
//!
//! Case counts: [`CASES`] per operation per kind (seeded from the commit by `.ci/run`, like every
//! property test); `TESSERA_REFERENCE_CASES` raises it for a nightly-sized run.

use proptest::prelude::*;
use tessera::algebra::linear::LinearLayout;
use tessera::algebra::ragged::{ragged_divide, Arrangement};
use tessera::algebra::{self, swizzled, Tiler};
use tessera::banks::{analyze, simulate, Access, Dtype, Instr, Smem};
use tessera::domain::alloc::{check_lowering, Lowering};
use tessera::layout::{AnyLayout, ComposedLayout, IntTuple, Swizzle};
use tessera::Layout;

/// Cases per operation per kind.
const CASES: u32 = 10_000;

fn cases(n: u32) -> ProptestConfig {
    let n = std::env::var("TESSERA_REFERENCE_CASES")
        .ok()
        .and_then(|v| v.parse().ok())
        .unwrap_or(n);
    ProptestConfig {
        cases: n,
        failure_persistence: None,
        ..ProptestConfig::default()
    }
}

/// The reference model: functions from their definitions, in 128 bits.
mod reference {
    use super::*;

    /// `L(x)`: the colexicographic coordinate of `x` dotted with the strides, exactly. Past the
    /// domain (a chain's inner offset can land there) CuTe's `idx2crd` rules: C++'s truncating
    /// `%` and `/`, the last leaf taking the rest.
    pub fn plain(l: &Layout, x: i128) -> i128 {
        let leaves: Vec<_> = l.leaves().collect();
        let mut rest = x;
        let mut acc = 0i128;
        for (k, m) in leaves.iter().enumerate() {
            let s = i128::from(m.shape);
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

    /// Whether 64-bit checked arithmetic can form `L(x)` for `x` in the domain: every product
    /// `c·d` and every partial sum fits (the library may refuse with `overflow` only then).
    pub fn plain_fits_i64(l: &Layout, x: i128) -> bool {
        let mut rest = x;
        let mut acc = 0i128;
        for m in l.leaves() {
            let s = i128::from(m.shape);
            let c = rest.rem_euclid(s);
            let t = c * i128::from(m.stride);
            acc += t;
            if i64::try_from(t).is_err() || i64::try_from(acc).is_err() {
                return false;
            }
            rest = rest.div_euclid(s);
        }
        true
    }

    /// `Sw<B,M,S>(x)`: for each of the B bit pairs, the bit at `zzz + k + S` flips the bit at
    /// `zzz + k` (`zzz = M − min(0, S)`), two's complement.
    pub fn swizzle(s: &Swizzle, x: i128) -> i128 {
        let z0 = s.base() - s.shift().min(0);
        let mut y = x;
        for k in 0..s.bits() {
            if (x >> (z0 + k + s.shift())) & 1 == 1 {
                y ^= 1 << (z0 + k);
            }
        }
        y
    }

    /// `f(x)` for any layout: `outer(offset + inner(x))` for a composed one.
    pub fn any(f: &AnyLayout, x: i128) -> i128 {
        match f {
            AnyLayout::Plain(l) => plain(l, x),
            AnyLayout::Swizzle(s) => swizzle(s, x),
            AnyLayout::Composed(c) => any(&c.outer, i128::from(c.offset) + any(&c.inner, x)),
        }
    }

    /// CuTe's `cosize` of a plain layout: `Σ (s − 1)·|d| + 1`.
    pub fn cosize_plain(l: &Layout) -> i128 {
        1 + l
            .leaves()
            .map(|m| i128::from(m.shape - 1) * i128::from(m.stride).abs())
            .sum::<i128>()
    }

    /// `cosize` of any other layout: one past the largest absolute index reached.
    pub fn cosize_any(f: &AnyLayout, n: i64) -> i128 {
        1 + (0..n).map(|i| any(f, i.into()).abs()).max().unwrap_or(0)
    }

    /// The byte address of element offset `o` of an `elem`-byte type, and its bank (4-byte
    /// words, 32 banks).
    pub fn bank(o: i128, elem: i128) -> (i128, i128) {
        let byte = o * elem;
        (byte, (byte / 4).rem_euclid(32))
    }

    /// An F2-linear layout at `x`: the XOR of the images of `x`'s set bits.
    pub fn linear(bases: &[u64], x: u64) -> u64 {
        bases
            .iter()
            .enumerate()
            .filter(|&(j, _)| (x >> j) & 1 == 1)
            .fold(0, |acc, (_, &b)| acc ^ b)
    }
}

// ------------------------------------------------------------------------------------ inputs

/// An extent or stride near an edge: small, near 2^31, near 2^62, or near i64::MAX.
fn edge() -> impl Strategy<Value = i64> {
    prop_oneof![
        4 => -9i64..=9,
        1 => (-3i64..=3).prop_map(|d| (1i64 << 31) + d),
        1 => (-3i64..=3).prop_map(|d| (1i64 << 62) + d),
        1 => (0i64..=3).prop_map(|d| i64::MAX - d),
        1 => (0i64..=3).prop_map(|d| -(i64::MAX - d)),
    ]
}

/// Plain flat layouts of rank 1–3 whose strides may sit at the edges (extents kept small enough
/// to enumerate, but up to 2^31 + 3 on one mode for eval at chosen points).
fn plain_edge() -> impl Strategy<Value = Layout> {
    prop::collection::vec(
        (
            prop_oneof![3 => 1i64..=6, 1 => (-3i64..=3).prop_map(|d| (1i64 << 31) + d)],
            edge(),
        ),
        1..=3,
    )
    .prop_filter_map("a layout", |m| {
        Layout::new(
            &IntTuple::flat(m.iter().map(|x| x.0)),
            &IntTuple::flat(m.iter().map(|x| x.1)),
        )
        .ok()
    })
}

fn small_plain() -> impl Strategy<Value = Layout> {
    prop::collection::vec((1i64..=6, -20i64..=20), 1..=3).prop_filter_map("a layout", |m| {
        Layout::new(
            &IntTuple::flat(m.iter().map(|x| x.0)),
            &IntTuple::flat(m.iter().map(|x| x.1)),
        )
        .ok()
    })
}

fn swizzle() -> impl Strategy<Value = Swizzle> {
    (0i64..=3, 0i64..=4, -6i64..=6)
        .prop_filter_map("a swizzle", |(b, m, s)| Swizzle::new(b, m, s).ok())
}

/// Chains `F0 o off0 o … o Fk` (1–3 links) whose parts are swizzles or small plain layouts,
/// offsets of any sign, the innermost a plain layout (so the chain has a domain).
fn chain() -> impl Strategy<Value = AnyLayout> {
    let part = prop_oneof![
        swizzle().prop_map(AnyLayout::from),
        small_plain().prop_map(AnyLayout::from)
    ];
    (
        prop::collection::vec((part, -70i64..=70), 1..=3),
        small_plain(),
    )
        .prop_map(|(parts, inner)| {
            let mut f: AnyLayout = inner.into();
            for (g, off) in parts.into_iter().rev() {
                f = ComposedLayout::new(g, off, f).into();
            }
            f
        })
}

// ------------------------------------------------------------------------------------ plain

proptest! {
    #![proptest_config(cases(CASES))]

    /// eval of plain layouts at the checked-arithmetic edges: the reference value, or `overflow`
    /// exactly where 64-bit arithmetic cannot form it.
    #[test]
    fn eval_plain_edges(l in plain_edge(), pick in any::<u64>()) {
        let n = match l.size() {
            Ok(n) => n,
            Err(e) => {
                // Refused only when the product of the extents passes i64.
                let size: i128 = l.leaves().map(|m| i128::from(m.shape)).product();
                prop_assert!(e.code() == "overflow" && i64::try_from(size).is_err(), "{}: {}", l, e);
                return Ok(());
            }
        };
        for x in [0, n - 1, (pick % n as u64) as i64] {
            let want = reference::plain(&l, x.into());
            match l.eval(x) {
                Ok(v) => prop_assert_eq!(i128::from(v), want, "{} at {}", l, x),
                Err(e) => {
                    prop_assert_eq!(e.code(), "overflow");
                    prop_assert!(!reference::plain_fits_i64(&l, x.into()), "{} at {}: {}", l, x, e);
                }
            }
        }
    }

    /// cosize of plain layouts at the edges: CuTe's `Σ (s−1)|d| + 1`, or `overflow` exactly when
    /// that passes i64.
    #[test]
    fn cosize_plain_edges(l in plain_edge()) {
        let want = reference::cosize_plain(&l);
        match l.cosize() {
            Ok(c) => prop_assert_eq!(i128::from(c), want, "{}", l),
            Err(e) => {
                prop_assert_eq!(e.code(), "overflow");
                // The terms are non-negative, so a partial sum passes i64 only if the total does.
                prop_assert!(i64::try_from(want).is_err(), "{}: {}", l, e);
            }
        }
    }

    /// right_inverse and left_inverse of small plain layouts meet the definition on their domain.
    #[test]
    fn inverses_plain(l in small_plain()) {
        let n = l.size().unwrap();
        if let Ok(r) = algebra::right_inverse(&l) {
            for i in 0..r.size().unwrap() {
                let x = reference::plain(&r, i.into());
                prop_assert!((0..i128::from(n)).contains(&x), "right_inverse({}) = {}: R({}) = {}", l, r, i, x);
                prop_assert_eq!(reference::plain(&l, x), i128::from(i), "right_inverse({}) = {}", l, r);
            }
        }
    }
}

// --------------------------------------------------------------------------- swizzled chains

proptest! {
    #![proptest_config(cases(CASES))]

    /// eval of swizzled and composed chains (offsets of any sign) equals the reference.
    #[test]
    fn eval_chains(f in chain()) {
        let n = f.size().unwrap();
        for x in 0..n {
            let want = reference::any(&f, x.into());
            match f.eval(x) {
                Ok(v) => prop_assert_eq!(i128::from(v), want, "{} at {}", f, x),
                Err(e) => prop_assert!(i64::try_from(want).is_err() || e.code() == "overflow", "{} at {}: {}", f, x, e),
            }
        }
    }

    /// cosize of a chain is one past the largest absolute index (CuTe's innermost cosize is not).
    #[test]
    fn cosize_chains(f in chain()) {
        let n = f.size().unwrap();
        let want = reference::cosize_any(&f, n);
        prop_assert_eq!(i128::from(swizzled::cosize(&f).unwrap()), want, "cosize({})", f);
    }

    /// A right inverse of a chain meets the definition; a refusal is right: 0 is not reached, or
    /// CuTe's candidate `inv(I) ∘ −off ∘ inv(O)` fails the definition.
    #[test]
    fn right_inverse_chains(f in chain()) {
        let n = f.size().unwrap();
        match swizzled::right_inverse(&f) {
            Ok(r) => {
                let m = r.size().unwrap_or_else(|_| {
                    // No shape: the prefix of f's image.
                    let img: std::collections::HashSet<i128> =
                        (0..n).map(|i| reference::any(&f, i.into())).collect();
                    (0..).take_while(|v| img.contains(&i128::from(*v))).count() as i64
                });
                for i in 0..m {
                    let x = reference::any(&r, i.into());
                    prop_assert!((0..i128::from(n)).contains(&x), "right_inverse({}) = {}: R({}) = {}", f, r, i, x);
                    prop_assert_eq!(reference::any(&f, x), i128::from(i), "right_inverse({}) = {}", f, r);
                }
            }
            Err(e) => {
                prop_assert!(matches!(e.code(), "not_expressible" | "too_large" | "non_injective" | "inadmissible_composition" | "overflow"), "{}: {}", f, e);
                if e.code() == "not_expressible" {
                    prop_assert!(e.to_string().contains("not an inverse") || e.to_string().contains("not expressible") || e.to_string().contains("CuTe"), "{}", e);
                }
            }
        }
    }

    /// A left inverse of a chain maps every value back: `R(f(i)) = i`.
    #[test]
    fn left_inverse_chains(f in chain()) {
        let n = f.size().unwrap();
        if let Ok(r) = swizzled::left_inverse(&f) {
            let dom = r.size().ok();
            for i in 0..n {
                let y = reference::any(&f, i.into());
                if let Some(d) = dom {
                    prop_assert!((0..i128::from(d)).contains(&y), "left_inverse({}) = {}: f({}) = {}", f, r, i, y);
                }
                prop_assert_eq!(reference::any(&r, y), i128::from(i), "left_inverse({}) = {}", f, r);
            }
        }
    }

    /// Composition of a chain with a plain layout evaluates as `f(B(i))` where `B(i)` is in f's
    /// domain.
    #[test]
    fn composition_chains(f in chain(), b in small_plain()) {
        let n = f.size().unwrap();
        if let Ok(r) = swizzled::composition(&f, &swizzled::Rhs::Func(b.clone().into())) {
            for x in 0..b.size().unwrap() {
                let bx = reference::plain(&b, x.into());
                if (0..i128::from(n)).contains(&bx) {
                    prop_assert_eq!(reference::any(&r, x.into()), reference::any(&f, bx), "{} o {} at {}", f, b, x);
                }
            }
        }
    }
}

// ------------------------------------------------------------------------------- linear (F2)

proptest! {
    #![proptest_config(cases(CASES))]

    /// A random linear layout applies as the XOR of its bases; an invertible one inverts.
    #[test]
    fn linear_apply_and_invert(bits in 1u32..=6, seed in prop::collection::vec(any::<u64>(), 6)) {
        let size = 1u64 << bits;
        let bases: Vec<u64> = seed.iter().take(bits as usize).map(|s| s % size).collect();
        let ll = LinearLayout::new(
            &[("in", bases.iter().map(|&b| vec![b]).collect())],
            &[("out", size)],
        ).unwrap();
        for x in 0..size {
            prop_assert_eq!(ll.apply_flat(x), reference::linear(&bases, x));
        }
        let injective = {
            let mut img: Vec<u64> = (0..size).map(|x| reference::linear(&bases, x)).collect();
            img.sort_unstable();
            img.windows(2).all(|w| w[0] != w[1])
        };
        prop_assert_eq!(ll.is_injective(), injective);
        if let Ok(inv) = ll.invert() {
            for x in 0..size {
                prop_assert_eq!(inv.apply_flat(ll.apply_flat(x)), x);
            }
        } else {
            prop_assert!(!injective);
        }
    }

    /// A CuTe layout converts to a linear layout exactly when its contributions never carry
    /// (then XOR = +), and the conversion is the same function.
    #[test]
    fn linear_from_layout(m in prop::collection::vec((0u32..=2, 0i64..=40), 1..=3)) {
        let l = Layout::new(
            &IntTuple::flat(m.iter().map(|x| 1i64 << x.0)),
            &IntTuple::flat(m.iter().map(|x| x.1)),
        ).unwrap();
        let n = l.size().unwrap();
        // The contributions d·2^j, one per bit of the flat index.
        let contrib: Vec<u64> = l.leaves().flat_map(|md| {
            (0..md.shape.trailing_zeros()).map(move |j| (md.stride as u64) << j)
        }).collect();
        let no_carry = (0..n as u64).all(|x| reference::linear(&contrib, x) as i128 == reference::plain(&l, x.into()));
        match LinearLayout::from_layout(&l) {
            Ok(ll) => {
                prop_assert!(no_carry, "{} converted but carries", l);
                for x in 0..n as u64 {
                    prop_assert_eq!(i128::from(ll.apply_flat(x)), reference::plain(&l, x.into()));
                }
            }
            // Refused only where some contributions carry (two share a bit: XOR differs from +).
            Err(e) => prop_assert!(!no_carry, "{} refused ({}) but never carries", l, e),
        }
    }
}

// ------------------------------------------------------------------------------------ banks

proptest! {
    #![proptest_config(cases(CASES))]

    /// The bank model at the address edges: every byte address below 2^32 (by the reference, in
    /// 128 bits) ⇒ the analysis and the simulator agree, and each thread's first access sits in
    /// the reference's bank; any address past the window (or negative) ⇒ `banks_address` from
    /// both, never a wrapped answer.
    #[test]
    fn banks_at_the_edges(
        smem in prop::collection::vec((1i64..=8, prop_oneof![3 => 0i64..=40, 1 => (1u32..=62).prop_map(|k| 1i64 << k), 1 => -3i64..=-1]), 1..=2),
        td in 0i64..=8, nv in 1i64..=4, vd in 0i64..=64, elem in 0usize..4,
    ) {
        let l = Layout::new(
            &IntTuple::flat(smem.iter().map(|x| x.0)),
            &IntTuple::flat(smem.iter().map(|x| x.1)),
        ).unwrap();
        let n = l.size().unwrap();
        let tv: Layout = format!("(32,{nv}):({td},{vd})").parse().unwrap();
        let dtype = Dtype::parse(["i8", "f16", "f32", "f64"][elem]).unwrap();
        let e = [1i128, 2, 4, 8][elem];
        let acc = Access { tv: tv.clone(), instr: Instr::Shared { width: None }, atom: None };
        let smem = Smem::Plain(l.clone());
        let (a, s) = (analyze(&smem, &acc, dtype), simulate(&smem, &acc, dtype));
        let in_domain = (0..32).all(|t| (0..nv).all(|v| (0..n).contains(&(t * td + v * vd))));
        if !in_domain {
            prop_assert!(a.is_err() && s.is_err());
            return Ok(());
        }
        // The offsets the access reaches, and whether each byte address lies in the window.
        let accessed: Vec<i128> = (0..32)
            .flat_map(|t| (0..nv).map(move |v| t * td + v * vd))
            .map(|i| reference::plain(&l, i.into()))
            .collect();
        let fits = accessed.iter().all(|&o| o >= 0 && (o + 1) * e <= 1i128 << 32);
        let span_fits = reference::cosize_plain(&l) * e <= 1i128 << 32 && accessed.iter().all(|&o| o >= 0);
        let offsets = accessed;
        match (&a, &s) {
            (Ok(a), Ok(s)) => {
                prop_assert!(fits, "{} analysed although an address leaves the window", l);
                prop_assert!(a.agrees_with(s), "{}: {:?} vs {:?}", l, a, s);
                prop_assert_eq!(a.vector_bytes, s.vector_bytes);
                let (_, b0) = reference::bank(offsets[0], e);
                prop_assert!((0..32).contains(&b0));
            }
            (Err(x), Err(y)) => {
                // The simulator checks every address first (on its own), so an input with two
                // faults may be refused for either.
                prop_assert!(
                    x.code() == y.code() || x.code() == "banks_address" || y.code() == "banks_address",
                    "{}: {} vs {}", l, x, y
                );
                if x.code() == "banks_address" {
                    prop_assert!(!span_fits, "{}: {}", l, x);
                }
            }
            _ => prop_assert!(false, "{}: analysis {:?}, simulator {:?}", l, a.as_ref().map(|_| ()), s.as_ref().map(|_| ())),
        }
    }
}

// ----------------------------------------------------------------------------------- ragged

/// The verdicts of every lowering by enumeration (`check_lowering` over each mode's schedule).
fn enumerated_verdicts(an: &tessera::domain::ragged::RaggedAnalysis) -> Vec<(bool, bool)> {
    an.correctness
        .iter()
        .map(|row| {
            an.modes.iter().fold((true, true), |(w, s), m| {
                let c = check_lowering(
                    &m.schedule,
                    &Lowering {
                        predicate: m.derivation.chosen.clone(),
                        fill: row.fill,
                    },
                    row.reduction.identity(),
                )
                .unwrap();
                (w && c.weak, s && c.strong)
            })
        })
        .collect()
}

proptest! {
    #![proptest_config(cases(CASES))]

    /// The closed-form verdicts of a ragged divide equal the enumeration's, for every fill and
    /// reduction.
    #[test]
    fn ragged_verdicts_closed_form(
        dims in prop::collection::vec((1i64..=30, 1i64..=9), 1..=2),
        zipped in any::<bool>(),
    ) {
        let a = Layout::compact(&IntTuple::flat(dims.iter().map(|d| d.0))).unwrap();
        let t = Tiler::Tuple(dims.iter().map(|d| Tiler::Int(d.1)).collect());
        let arr = if zipped { Arrangement::Zipped } else { Arrangement::Logical };
        let r = ragged_divide(&a, &t, arr).unwrap();
        let an = tessera::domain::ragged::analyze(&r, None).unwrap();
        let closed: Vec<(bool, bool)> = an.correctness.iter().map(|r| (r.weak, r.strong)).collect();
        prop_assert_eq!(closed, enumerated_verdicts(&an), "{} by {:?}", a, dims);
    }
}

/// The verdicts no longer depend on the extent: a divide with one hole is never "strongly
/// correct" with holes left unwritten, at 2^16 ± 1, 2^31 and beyond (closed form; the
/// enumeration would not reach there).
#[test]
fn ragged_verdicts_at_large_extents() {
    for n in [
        (1i64 << 16) - 1,
        (1 << 16) + 1,
        (1 << 31) + 1,
        (1 << 40) + 1,
    ] {
        let a: Layout = format!("{n}:1").parse().unwrap();
        let r = ragged_divide(&a, &Tiler::Int(2), Arrangement::Logical).unwrap();
        assert_eq!(r.holes, 1, "{n}");
        let an = tessera::domain::ragged::analyze(&r, None).unwrap();
        for row in &an.correctness {
            let strong = row.fill == Some(row.reduction.identity());
            assert!(row.weak, "{n}: {row:?}");
            assert_eq!(row.strong, strong, "{n}: {row:?}");
        }
    }
    // No hole: strongly correct everywhere.
    let a: Layout = format!("{}:1", 1i64 << 32).parse().unwrap();
    let r = ragged_divide(&a, &Tiler::Int(1 << 16), Arrangement::Logical).unwrap();
    let an = tessera::domain::ragged::analyze(&r, None).unwrap();
    assert!(an.correctness.iter().all(|row| row.weak && row.strong));
}

/// The chain bound: a value never holds more than `MAX_CHAIN_LINKS` links, whatever builds it.
#[test]
fn chains_past_the_bound_are_too_large() {
    use tessera::layout::swizzle::MAX_CHAIN_LINKS;
    let text = |k: usize| format!("4:1{}", " o 0 o Sw<1,0,1>".repeat(k));
    let ok: AnyLayout = text(MAX_CHAIN_LINKS).parse().unwrap();
    assert_eq!(ok.links(), MAX_CHAIN_LINKS);
    for k in [MAX_CHAIN_LINKS + 1, 5000] {
        let e = text(k).parse::<AnyLayout>().unwrap_err();
        assert_eq!(e.code(), "too_large", "{k}");
    }
    // An operation whose result would pass the bound refuses it too.
    let half = text(40);
    let e = tessera::notation::eval(&format!("composition({half},Sw<1,0,1> o 3 o {half})"))
        .unwrap_err();
    assert_eq!(e.code(), "too_large");
}
