//! Closed-form decisions: injectivity, "is a bijection onto `[0, M)`" and admissibility of
//! composition, decided from the modes alone (cost linear-logarithmic in the number of modes, not
//! in the size of the domain), so a layout of size 2^40 is decided in well under a microsecond.
//!
//! Every function returns the exact answer; where the closed form does not apply it says so
//! ([`Decision::by_enumeration`]) and falls back to bounded enumeration, or returns
//! [`Error::TooLarge`] — never a guess.
//!
//! Notation: after dropping size-1 modes, a layout is `x ↦ Σ x_i·d_i` on the box `0 ≤ x_i < s_i`.

use crate::layout::buf::Buf;

use super::coalesce::{coalesce_x_modes_into, Modes};
use super::composition::{build_candidate, certificate, enumerate, synthesize, Pieces, ENUM_LIMIT};
use crate::error::{arith, Error, Result};
use crate::layout::{Layout, Mode};

/// An exact answer and how it was reached.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Decision {
    /// The answer.
    pub holds: bool,
    /// `true` when the closed form did not apply and the domain was enumerated.
    pub by_enumeration: bool,
}

impl Decision {
    fn closed(holds: bool) -> Self {
        Decision {
            holds,
            by_enumeration: false,
        }
    }
}

/// The modes of size > 1 with `|stride|`, sorted by `|stride|`; `None` when a mode of size > 1 has
/// stride 0 (two coordinates then share an index).
fn abs_sorted(l: &Layout) -> Result<Option<Modes>> {
    let mut m: Modes = Buf::new();
    for x in l.leaves() {
        if x.shape == 1 {
            continue;
        }
        if x.stride == 0 {
            return Ok(None);
        }
        m.push(Mode::new(x.shape, arith::abs(x.stride)?));
    }
    m.sort_unstable_by_key(|x| x.stride);
    Ok(Some(m))
}

/// Is `L` injective on its domain `[0, size(L))`?
///
/// Closed form. Drop size-1 modes; a mode of size > 1 with stride 0 makes L non-injective. Flipping
/// the sign of a stride maps the box onto itself (`x_i ↦ s_i−1−x_i`) and shifts the image by a
/// constant, so only `|d_i|` matters. Sort by `|d_i|` and let `R_i = Σ_{j≤i} (s_j−1)·|d_j|` (the
/// reach of the first `i` modes).
///
/// * If `R_i < |d_{i+1}|` for every `i` (super-increasing), L is injective: two coordinates that
///   differ have a largest differing index `k`, and the lower modes change the value by at most
///   `R_{k−1} < |d_k|`, so the values differ.
/// * Otherwise let `i` be the first index with `R_i ≥ |d_{i+1}|`. The first `i` modes are
///   super-increasing, so their values `V_i` are distinct and membership in `V_i` is decided
///   greedily from the top digit (`x_j = ⌊r/|d_j|⌋`, which must be `< s_j`, because the lower modes
///   reach less than `|d_j|`). If `|d_{i+1}| ∈ V_i`, the coordinate found and `x_{i+1} = 1` hit the
///   same index: L is not injective. This always happens when `|d_i|` divides `|d_{i+1}|` (so for
///   every divisibility chain, true of every MMA, copy, smem and TMA layout in the benchmark
///   corpus): with `q = |d_{i+1}|/|d_i|`, `q ≥ s_i` would give
///   `R_i = (s_i−1)|d_i| + R_{i−1} < s_i·|d_i| ≤ |d_{i+1}|`, so `x_i = q`, rest 0.
///
/// Otherwise (e.g. `(3,3):(2,3)`, which is injective) the question contains subset-sum (is there
/// a non-zero `x` with `|x_i| < s_i` and `Σ x_i d_i = 0`?), NP-hard in general, so the domain is
/// enumerated up to [`ENUM_LIMIT`]; beyond it the answer is [`Error::TooLarge`].
///
/// ```
/// use tessera::{Layout, algebra::decide::is_injective};
/// let l: Layout = "((1024,1024),(1024,1024)):((1,1048576),(1099511627776,1073741824))".parse().unwrap();
/// assert!(is_injective(&l).unwrap().holds); // size 2^40, decided in closed form
/// let l: Layout = "(4,2):(1,2)".parse().unwrap();
/// assert!(!is_injective(&l).unwrap().holds);
/// ```
pub fn is_injective(l: &Layout) -> Result<Decision> {
    let Some(m) = abs_sorted(l)? else {
        return Ok(Decision::closed(false));
    };
    let mut reach = 0i64;
    for (i, x) in m.iter().enumerate() {
        if i > 0 && reach >= x.stride {
            // First failure of super-increase: does |d_i| lie in the image of modes 0..i?
            let mut r = x.stride;
            for y in m[..i].iter().rev() {
                let q = (r / y.stride).min(y.shape - 1);
                r -= q * y.stride;
            }
            if r == 0 {
                return Ok(Decision::closed(false));
            }
            break;
        }
        reach = arith::add(reach, arith::mul(x.shape - 1, x.stride)?)?;
        if i + 1 == m.len() {
            return Ok(Decision::closed(true));
        }
    }
    if m.is_empty() {
        return Ok(Decision::closed(true));
    }
    Ok(Decision {
        holds: injective_by_enumeration(l)?,
        by_enumeration: true,
    })
}

/// Is `L` a bijection from its domain `[0, size(L))` onto `[0, M)`?
///
/// Always closed form: it holds iff `size(L) == M` and, after dropping size-1 modes and sorting by
/// stride, every stride is positive and equals the product of the shapes before it (`d_1 = 1`,
/// `d_{i+1} = s_i·d_i`): L is a permutation of the compact column-major layout.
///
/// Proof. Sufficiency: then `L(x)` is the mixed-radix number with digits `x_i`. Necessity: a
/// negative or zero stride of a mode of size > 1 puts a negative index in the image or repeats
/// one. With positive strides, let `P_i = s_1⋯s_i` and assume by induction that the first `i`
/// modes map onto `[0, P_i)`. Any coordinate using a later mode has value ≥ `d_{i+1}`, so
/// `d_{i+1} ≥ P_i` (else it collides with a value in `[0, P_i)`), and if `P_i < M` the value `P_i`
/// must be hit, which needs `d_{i+1} ≤ P_i`. Hence `d_{i+1} = P_i`. Cardinality gives `M = size`.
///
/// ```
/// use tessera::{Layout, algebra::decide::is_bijection_onto};
/// let l: Layout = "((4,8),(2,2)):((32,1),(16,8))".parse().unwrap(); // SM80 16x8 C layout
/// assert!(is_bijection_onto(&l, 128).unwrap());
/// assert!(!is_bijection_onto(&l, 256).unwrap());
/// ```
pub fn is_bijection_onto(l: &Layout, m: i64) -> Result<bool> {
    if l.size()? != m {
        return Ok(false);
    }
    let mut modes: Modes = Buf::new();
    for x in l.leaves() {
        if x.shape == 1 {
            continue;
        }
        if x.stride <= 0 {
            return Ok(false);
        }
        modes.push(x);
    }
    modes.sort_unstable_by_key(|x| x.stride);
    let mut p = 1i64;
    for x in &modes {
        if x.stride != p {
            return Ok(false);
        }
        p = arith::mul(p, x.shape)?;
    }
    Ok(true)
}

/// Is `composition(A, B)` admissible (some layout compatible with B computes `A ∘ B` on B's
/// domain)? Decided exactly, as [`super::composition()`] decides it: CuTe's candidate is checked by
/// the closed-form no-carry certificate (see `composition.rs`); only where the certificate does
/// not apply is B's domain enumerated (bounded by [`ENUM_LIMIT`]), which
/// [`Decision::by_enumeration`] reports.
///
/// ```
/// use tessera::{Layout, algebra::decide::is_admissible};
/// let a: Layout = "(1048576,1048576):(1048576,1)".parse().unwrap();
/// let b: Layout = "(1024,1024,1048576):(1,1024,1048576)".parse().unwrap(); // size 2^40
/// let d = is_admissible(&a, &b).unwrap();
/// assert!(d.holds && !d.by_enumeration);
/// ```
pub fn is_admissible(a: &Layout, b: &Layout) -> Result<Decision> {
    // The steps of `composition`, without building the result or the error message.
    let mut ax = Modes::new();
    coalesce_x_modes_into(a.tree(), &mut ax)?;
    let leaves: &[Mode] = b.tree().leaf_slice();
    let mut pieces = Pieces::new();
    let mut candidate = Layout::default();
    candidate.t.clear();
    build_candidate(&ax, b.tree(), &mut candidate.t, &mut pieces)?;
    let mut betas: Buf<i64, 16> = Buf::new();
    let mut prod: Buf<i64, 16> = Buf::from_elem(1, leaves.len());
    for p in &pieces {
        betas.push(arith::mul(leaves[p.leaf].stride, prod[p.leaf])?);
        prod[p.leaf] = arith::mul(prod[p.leaf], p.r)?;
    }
    let compatible = leaves.iter().zip(&prod).all(|(l, &p)| l.shape == p);
    if compatible && certificate(&ax, &pieces, &betas)? {
        return Ok(Decision::closed(true));
    }
    let holds = (compatible && enumerate(&ax, leaves, &pieces, &betas)?.is_none())
        || synthesize(&ax, b, leaves)?.is_some();
    Ok(Decision {
        holds,
        by_enumeration: true,
    })
}

/// Exact injectivity by enumerating the domain (the reference the closed forms are tested and
/// benchmarked against).
///
/// Pre: `size(L) <= ENUM_LIMIT` ([`Error::TooLarge`] otherwise).
pub fn injective_by_enumeration(l: &Layout) -> Result<bool> {
    let size = l.size()?;
    if size > ENUM_LIMIT {
        return Err(Error::TooLarge {
            op: "is_injective",
            what: "the domain (no closed form applies)".into(),
            size,
            bound: ENUM_LIMIT,
        });
    }
    let mut seen: Vec<i64> = (0..size).map(|i| l.eval(i)).collect::<Result<_>>()?;
    seen.sort_unstable();
    Ok(seen.windows(2).all(|w| w[0] != w[1]))
}

/// Exact "bijection onto `[0, M)`" by enumerating the domain (reference for tests and benchmarks).
///
/// Pre: `size(L) <= ENUM_LIMIT` ([`Error::TooLarge`] otherwise).
pub fn bijection_by_enumeration(l: &Layout, m: i64) -> Result<bool> {
    let size = l.size()?;
    if size > ENUM_LIMIT {
        return Err(Error::TooLarge {
            op: "is_bijection_onto",
            what: "the domain".into(),
            size,
            bound: ENUM_LIMIT,
        });
    }
    if size != m {
        return Ok(false);
    }
    let mut hit = vec![false; size as usize];
    for i in 0..size {
        let v = l.eval(i)?;
        if v < 0 || v >= m || hit[v as usize] {
            return Ok(false);
        }
        hit[v as usize] = true;
    }
    Ok(true)
}
