//! The brute-force simulator of the shared-memory model: every thread's every address,
//! enumerated, with sets of words per bank. It is the reference the analysis is tested against;
//! it shares only the resolution of the TV layout to domain indices with it. Byte addresses are
//! computed here on their own, from the layout's leaves in 128-bit arithmetic (not through the
//! analysis's `Smem::offset`), so a wrap-around or a bound missed by the analysis shows up as a
//! disagreement or an error here.

use std::collections::{BTreeMap, BTreeSet};

use super::{pick_width, Access};
use super::{BResult, BankError, Dtype, Geometry, Report, Smem, Worst, BANKS, WORD_BYTES};

/// Simulates an access: the vector width by its definition (every group of every thread checked),
/// then every phase of every instruction enumerated.
///
/// Pre: as [`super::analyze`]. Post: the model's answer, with `method = "simulation"`.
pub fn simulate(smem: &Smem, acc: &Access, dtype: Dtype) -> BResult<Report> {
    let g = Geometry::new(smem, acc, dtype)?;
    g.check_enumerable(smem, &acc.tv)?;
    let instr = acc.instr;
    let active = match instr {
        super::Instr::Ldmatrix { num, .. } | super::Instr::Stmatrix { num, .. } => 8 * num,
        _ => 32,
    };
    // Every byte address of every (instance, thread, value), in that lexicographic order in one
    // flat array (at most 2^24 entries by `check_enumerable`: 128 MiB; a map of them took over
    // 1 GiB for a 4096 × 4096 tile).
    let at = |inst: u64, t: u64, v: u64| ((inst * active + t) * g.values + v) as usize;
    let mut addr: Vec<u64> = Vec::with_capacity((g.instances * active * g.values) as usize);
    for inst in 0..g.instances {
        for t in 0..active {
            for v in 0..g.values {
                let i = g.index(inst, t, v)?;
                addr.push(byte_address(smem, i, g.elem)?);
            }
        }
    }
    let ok = |w: u64| -> BResult<Option<String>> {
        if w < g.elem || !w.is_multiple_of(g.elem) {
            return Ok(Some("not whole elements".into()));
        }
        let n = w / g.elem;
        if g.values % n != 0 {
            return Ok(Some("values not a multiple".into()));
        }
        for inst in 0..g.instances {
            for t in 0..active {
                for v in 0..g.values {
                    let a = addr[at(inst, t, v)];
                    if v % n == 0 && !a.is_multiple_of(w) {
                        return Ok(Some(format!("T{t} misaligned")));
                    }
                    if v % n != 0 && addr[at(inst, t, v - 1)] + g.elem != a {
                        return Ok(Some(format!("T{t} not contiguous")));
                    }
                }
            }
        }
        Ok(None)
    };
    let w = pick_width(instr, dtype, g.elem, ok)?;
    let n = w / g.elem;
    let pt = match instr {
        super::Instr::Ldmatrix { .. } | super::Instr::Stmatrix { .. } | super::Instr::Tma => 8,
        _ => 32 / (w / WORD_BYTES).max(1),
    };
    let phases = active / pt;
    let per = g.values / n;
    let mut total = 0;
    let mut worst: Option<Worst> = None;
    for inst in 0..g.instances {
        for k in 0..per {
            for p in 0..phases {
                let mut banks: BTreeMap<u64, BTreeSet<u64>> = BTreeMap::new();
                let mut hits: Vec<(u64, u64, u64)> = Vec::new();
                for t in p * pt..(p + 1) * pt {
                    for v in k * n..(k + 1) * n {
                        let a = addr[at(inst, t, v)];
                        for b in a..a + g.elem {
                            let word = b / WORD_BYTES;
                            banks.entry(word % BANKS).or_default().insert(word);
                            hits.push((t, word, g.index(inst, t, k * n)?));
                        }
                    }
                }
                let (mut c, mut bank) = (0, 0);
                for (&b, s) in &banks {
                    if s.len() as u64 > c {
                        c = s.len() as u64;
                        bank = b;
                    }
                }
                total += c;
                if worst.as_ref().is_none_or(|x| c > x.wavefronts) {
                    hits.retain(|h| h.1 % BANKS == bank);
                    hits.sort_unstable();
                    hits.dedup();
                    worst = Some(Worst {
                        instance: inst,
                        instruction: k,
                        phase: p,
                        wavefronts: c,
                        bank,
                        hits,
                    });
                }
            }
        }
    }
    let worst = worst.ok_or_else(|| BankError::BadInput {
        what: "access",
        detail: "no phase".into(),
        suggestions: Vec::new(),
    })?;
    Ok(Report {
        vector_bytes: w,
        instructions: g.instances * per,
        phases,
        wavefronts: total,
        ideal: g.instances * per * phases,
        worst,
        method: "simulation",
    })
}

/// The byte address of domain index `i`, computed from the definition in 128 bits: the colex
/// coordinate of `i` dotted with the strides (then the swizzle), times the element size; an
/// address outside `[0, 2^32)` is `banks_address`.
fn byte_address(smem: &Smem, i: u64, elem: u64) -> BResult<u64> {
    let eval128 = |l: &crate::Layout| -> i128 {
        let mut rest = i128::from(i);
        let mut acc = 0i128;
        for m in l.leaves() {
            let s = i128::from(m.shape);
            acc += (rest % s) * i128::from(m.stride);
            rest /= s;
        }
        acc
    };
    let off: i128 = match smem {
        Smem::Plain(l) => eval128(l),
        Smem::Swizzled {
            bms: (b, m, s),
            layout,
        } => {
            let x = eval128(layout);
            if x < 0 {
                x
            } else {
                let mask = ((1i128 << b) - 1) << m;
                x ^ ((x >> s) & mask)
            }
        }
        _ => i128::from(smem.offset(i)?),
    };
    let byte = off * i128::from(elem);
    if off < 0 || byte + i128::from(elem) > 1i128 << 32 {
        return Err(BankError::Address {
            detail: format!(
                "index {i} maps to element offset {off}, byte address {byte}, outside the 32-bit \
                 shared window [0, 2^32)"
            ),
        });
    }
    Ok(byte as u64)
}
