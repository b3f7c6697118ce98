//! Swizzle synthesis: a shared-memory layout that makes a writer and a reader both conflict-free
//! at their widest vector widths.
//!
//! 1. CuTe swizzles first: every `Swizzle<B,M,S> ∘ base` with `1 ≤ B`, `S ≥ B`, `M + B + S` within
//!    the offset bits, analysed for both accesses ([`super::analyze`]); a candidate that narrows a
//!    vector or fails an obligation is dropped. The conflict-free ones are returned, smallest `B`
//!    first (CUTLASS can use them as they are).
//! 2. Then general F2 swizzles (Triton's GenericSwizzling idea): `S(x) = x ⊕ T(x_high)`, where `T`
//!    XORs the offset bits above the bank window into the bank bits above the widest vector. For an
//!    F2-linear access, a phase's wavefronts are `2^(rank words − rank banks)` of its span, so every
//!    `T` is scored by ranks alone; the search is exhaustive over the bits the spans touch, so when
//!    it finds no conflict-free `T` it is a proof that none exists in this family (every F2
//!    bijection preserving the vectors whose bank-window block is invertible reduces to it), and
//!    the best achievable cost is reported.
//!
//! Every candidate shown is checked by the model (analysed again as a layout) before it is kept.

use super::{
    analyze, atoms::Major, Access, Atom, BResult, BankError, Dtype, Report, Smem, WORD_BYTES,
};
use crate::algebra::linear::{f2_rank, LinearLayout};
use crate::layout::Layout;

/// One checked candidate.
#[derive(Clone, Debug)]
pub struct Candidate {
    /// The shared-memory layout.
    pub smem: Smem,
    /// The writer's analysis.
    pub writer: Report,
    /// The reader's analysis.
    pub reader: Report,
}

impl Candidate {
    /// Total wavefronts of both accesses.
    pub fn cost(&self) -> u64 {
        self.writer.wavefronts + self.reader.wavefronts
    }

    /// Total ideal of both accesses.
    pub fn ideal(&self) -> u64 {
        self.writer.ideal + self.reader.ideal
    }

    /// Both accesses conflict-free.
    pub fn conflict_free(&self) -> bool {
        self.cost() == self.ideal()
    }
}

/// The answer of [`synthesize`].
#[derive(Clone, Debug)]
pub struct Synthesis {
    /// The unswizzled base layout, analysed.
    pub base: Candidate,
    /// Conflict-free CuTe swizzles, smallest `B` first (at most 8).
    pub cute: Vec<Candidate>,
    /// The cheapest CuTe swizzle when none is conflict-free.
    pub best_cute: Option<Candidate>,
    /// The general F2 swizzle (searched only when no CuTe swizzle is conflict-free).
    pub general: Option<Candidate>,
    /// What the F2 search proved: `None` when not run.
    pub f2_verdict: Option<String>,
}

/// A writer and a reader over the same tile.
#[derive(Clone, Debug)]
pub struct Problem {
    /// The unswizzled layout of the tile (e.g. `(64,64):(64,1)` for a K-major f16 64-wide tile).
    pub base: Layout,
    /// The element type.
    pub dtype: Dtype,
    /// The writer (e.g. `tma`, `cp.async.16`).
    pub writer: Atom,
    /// Which dimension is contiguous in the writer's source.
    pub writer_major: Option<Major>,
    /// The reader (e.g. `ldmatrix.x4`).
    pub reader: Atom,
    /// Which dimension is contiguous for the reader (`None`: its default).
    pub reader_major: Option<Major>,
}

fn evaluate(p: &Problem, smem: Smem) -> BResult<Candidate> {
    let w = p.writer.access(&smem, p.dtype, p.writer_major)?;
    let r = p.reader.access(&smem, p.dtype, p.reader_major)?;
    Ok(Candidate {
        writer: analyze(&smem, &w, p.dtype)?,
        reader: analyze(&smem, &r, p.dtype)?,
        smem,
    })
}

/// Finds swizzled layouts for a writer and a reader (see the module documentation).
///
/// Pre: the accesses are legal on the base layout. Post: every returned candidate was analysed
/// by the model; `cute` holds only conflict-free ones with vectors no narrower than the base's.
///
/// ```
/// use tessera::banks::{synth::{synthesize, Problem}, Atom, Dtype};
/// let p = Problem {
///     base: "(64,64):(64,1)".parse().unwrap(), dtype: Dtype::parse("f16").unwrap(),
///     writer: Atom::parse("tma").unwrap(), writer_major: None,
///     reader: Atom::parse("ldmatrix.x4").unwrap(), reader_major: None,
/// };
/// let s = synthesize(&p).unwrap();
/// assert_eq!(s.cute[0].smem.describe(), "Sw<3,3,3> o 0 o (64,64):(64,1)"); // CUTLASS's SW128
/// ```
pub fn synthesize(p: &Problem) -> BResult<Synthesis> {
    let base = evaluate(p, Smem::Plain(p.base.clone()))?;
    let cosize = p.base.cosize()? as u64;
    let n = 64 - (cosize.max(2) - 1).leading_zeros();
    let mut cute: Vec<Candidate> = Vec::new();
    let mut best: Option<Candidate> = None;
    if !base.conflict_free() {
        for b in 1..=n.min(5) {
            for s in b..=n {
                for m in 0..=n.saturating_sub(b + s) {
                    let smem = Smem::Swizzled {
                        bms: (b, m, s),
                        layout: p.base.clone(),
                    };
                    let Ok(c) = evaluate(p, smem) else { continue };
                    if c.writer.vector_bytes < base.writer.vector_bytes
                        || c.reader.vector_bytes < base.reader.vector_bytes
                    {
                        continue;
                    }
                    if c.conflict_free() {
                        if cute.len() < 8 {
                            cute.push(c);
                        }
                    } else if best.as_ref().is_none_or(|x| c.cost() < x.cost()) {
                        best = Some(c);
                    }
                }
            }
        }
    }
    let mut general = None;
    let mut verdict = None;
    if cute.is_empty() && !base.conflict_free() {
        match f2_search(p, &base) {
            Ok((Some(c), v)) => {
                general = Some(c);
                verdict = Some(v);
            }
            Ok((None, v)) => verdict = Some(v),
            Err(e) => verdict = Some(format!("the F2 search does not apply: {e}")),
        }
    }
    let best_cute = if !cute.is_empty() { None } else { best };
    Ok(Synthesis {
        base,
        cute,
        best_cute,
        general,
        f2_verdict: verdict,
    })
}

/// The span of an access's first phase in byte-offset space of `base` (linear), and its weight
/// (number of phases in total). `None` if the access is not F2-linear.
fn span(
    base: &LinearLayout,
    acc: &Access,
    shape: (u64, u64),
    elem: u64,
    rep: &Report,
) -> Option<Vec<u64>> {
    let tvl = LinearLayout::from_layout(&acc.tv).ok()?;
    let tb: Vec<u64> = tvl.flat_bases().collect();
    let (am, _) = acc.atom.unwrap_or((shape.0 * shape.1, 1));
    let place = |a: u64| -> u64 {
        match acc.atom {
            None => a,
            Some(_) => (a % am) + shape.0 * (a / am),
        }
    };
    let eb = elem.trailing_zeros();
    let byte = |a: u64| base.apply_flat(place(a)) << eb;
    let nb = (rep.vector_bytes / elem).trailing_zeros() as usize;
    let pt = match acc.instr {
        super::Instr::Ldmatrix { .. } | super::Instr::Stmatrix { .. } | super::Instr::Tma => 8u64,
        _ => 32 / (rep.vector_bytes / WORD_BYTES).max(1),
    };
    let mut v: Vec<u64> = (0..eb).map(|i| 1u64 << i).collect();
    v.extend(tb[5..5 + nb].iter().map(|&b| byte(b)));
    v.extend(tb[..pt.trailing_zeros() as usize].iter().map(|&b| byte(b)));
    Some(v)
}

fn phase_wavefronts(span: &[u64], t: &[(u32, u64)], elem_shift: u32) -> u64 {
    // Apply S on element offsets: x ⊕ Σ_{high bit h set} t_h, in bytes.
    let words: Vec<u64> = span
        .iter()
        .map(|&b| {
            let e = b >> elem_shift;
            let mut s = e;
            for &(h, th) in t {
                if e >> h & 1 == 1 {
                    s ^= th;
                }
            }
            ((s << elem_shift) | (b & ((1u64 << elem_shift) - 1))) / WORD_BYTES
        })
        .collect();
    let banks: Vec<u64> = words.iter().map(|w| w % 32).collect();
    1u64 << (f2_rank(&words) - f2_rank(&banks))
}

/// The most `T` matrices the F2 search scores.
pub const F2_BUDGET: u64 = 1 << 22;

fn f2_search(p: &Problem, base: &Candidate) -> BResult<(Option<Candidate>, String)> {
    let bl = LinearLayout::from_layout(&p.base)?.flatten_ins();
    let plain = Smem::Plain(p.base.clone());
    let shape = plain.shape2()?;
    let wa = p.writer.access(&plain, p.dtype, p.writer_major)?;
    let ra = p.reader.access(&plain, p.dtype, p.reader_major)?;
    let elem = super::elem_bytes(p.dtype);
    let es = elem.trailing_zeros();
    let (Some(sw), Some(sr)) = (
        span(&bl, &wa, shape, elem, &base.writer),
        span(&bl, &ra, shape, elem, &base.reader),
    ) else {
        return Ok((
            None,
            "the accesses are not F2-linear; the F2 search does not apply".into(),
        ));
    };
    let vmax = base
        .writer
        .vector_bytes
        .max(base.reader.vector_bytes)
        .max(WORD_BYTES);
    // Bank window above the vector, in element bits: byte bits log2(vmax)..7.
    let lo = vmax.trailing_zeros().saturating_sub(es);
    let hi = 7u32.saturating_sub(es);
    if lo >= hi {
        return Ok((
            None,
            format!(
                "a {vmax}-byte vector covers the whole bank window; no swizzle changes the banks"
            ),
        ));
    }
    let dbits = hi - lo;
    // High element bits that the spans touch.
    let support = sw.iter().chain(&sr).fold(0u64, |a, &b| a | (b >> es));
    let highs: Vec<u32> = (hi..64).filter(|&h| support >> h & 1 == 1).collect();
    let choices = 1u64 << dbits;
    let total = (highs.len() as u32)
        .checked_mul(dbits)
        .filter(|&b| b < 63)
        .map(|b| 1u64 << b)
        .unwrap_or(u64::MAX);
    if total > F2_BUDGET {
        return Ok((
            None,
            format!(
                "{total} candidate XOR matrices exceed the search budget {F2_BUDGET}; undecided"
            ),
        ));
    }
    let (pw, pr) = (base.writer.ideal, base.reader.ideal);
    let mut best: Option<(u64, Vec<(u32, u64)>)> = None;
    for code in 0..total {
        let t: Vec<(u32, u64)> = highs
            .iter()
            .enumerate()
            .map(|(i, &h)| (h, ((code >> (i as u32 * dbits)) % choices) << lo))
            .collect();
        let cost = pw * phase_wavefronts(&sw, &t, es) + pr * phase_wavefronts(&sr, &t, es);
        if best.as_ref().is_none_or(|b| cost < b.0) {
            best = Some((cost, t));
            if cost == pw + pr {
                break;
            }
        }
    }
    let Some((cost, t)) = best else {
        return Ok((None, "no candidate".into()));
    };
    // Build S ∘ base as a linear layout and check it with the model.
    let nbits = bl.total_out_bits();
    let sbases: Vec<Vec<u64>> = (0..nbits)
        .map(|i| {
            let mut v = 1u64 << i;
            if let Some(&(_, th)) = t.iter().find(|&&(h, _)| h == i) {
                v ^= th;
            }
            vec![v]
        })
        .collect();
    let s = LinearLayout::new(&[("offset", sbases)], &[("offset", 1u64 << nbits)])?;
    let ll = LinearLayout::from_layout(&p.base)?.compose(&s)?;
    let cand = evaluate(p, Smem::Linear(ll))?;
    if cand.cost() != cost {
        return Err(BankError::BadInput {
            what: "synthesis",
            detail: format!(
                "the F2 score {cost} disagrees with the model's {}",
                cand.cost()
            ),
            suggestions: Vec::new(),
        });
    }
    let verdict = if cand.conflict_free() {
        format!(
            "conflict-free F2 swizzle found ({} XOR matrices searched at most)",
            total
        )
    } else {
        format!(
            "no conflict-free layout exists among the {total} F2 swizzles that XOR the {} bits above the bank window into the {dbits} bank bits above the {vmax}-byte vector; the best achievable cost is {} wavefronts (ideal {})",
            highs.len(),
            cand.cost(),
            cand.ideal()
        )
    };
    Ok((Some(cand), verdict))
}
