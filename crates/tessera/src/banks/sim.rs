//! The brute-force simulator of the shared-memory model: every thread's every address,
//! enumerated, with sets of words per bank. It is the reference the analysis is tested against;
//! it shares only the resolution of the TV layout to domain indices with it. Element offsets are
//! computed here on their own from the definitions ([`element_offset`]: colex coordinates dotted
//! with the strides, the swizzle bit by bit, composed chains as function composition, linear
//! layouts as the XOR of their F2 bases), in checked 128-bit arithmetic, never through the
//! analysis's `Smem::offset` or `Smem::as_linear`: a wrap-around, a bound or a formula the
//! analysis gets wrong shows up as a disagreement or an error here (the tests plant such a
//! mistake in the analysis and see the simulator disagree).

use std::collections::{BTreeMap, BTreeSet};

use super::{pick_width, Access};
use super::{BResult, BankError, Dtype, Geometry, Report, Smem, Worst, BANKS, WORD_BYTES};
use crate::layout::AnyLayout;

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

/// The byte address of domain index `i`: [`element_offset`] times the element size, in 128 bits;
/// an address outside `[0, 2^32)` is `banks_address`.
fn byte_address(smem: &Smem, i: u64, elem: u64) -> BResult<u64> {
    let off = element_offset(smem, i)?;
    let byte = off.checked_mul(i128::from(elem));
    match byte {
        Some(byte) if off >= 0 && byte + i128::from(elem) <= 1i128 << 32 => Ok(byte as u64),
        _ => Err(BankError::Address {
            detail: format!(
                "index {i} maps to element offset {off}, byte address {}, outside the 32-bit \
                 shared window [0, 2^32)",
                byte.map_or_else(|| "past 2^127".to_string(), |b| b.to_string())
            ),
        }),
    }
}

/// The element offset of domain index `i`, from the definitions, in checked 128-bit arithmetic,
/// on its own: never through the analysis's [`Smem::offset`], [`Smem::as_linear`] or the
/// library's `eval`, so a mistake there shows up as a disagreement with the simulator.
///
/// - a plain layout: the colexicographic coordinate of `i` dotted with the strides (past the
///   domain, where a composed layout's offset can land, CuTe's `idx2crd`: C++'s truncating `%`
///   and `/`, the last leaf taking the rest);
/// - `Sw<B,M,S> ∘ L`: bit `M + k + S` of `L(i)` flips bit `M + k`, for `k < B`, one bit at a time;
/// - a linear (F2) layout: the XOR of the bases of the set bits of `i`;
/// - a composed chain `F ∘ o ∘ G`: `F(o + G(i))`, the swizzles in two's complement, evaluated
///   with an explicit stack (no recursion).
///
/// Pre: none. Post: the exact offset, or `banks_address` when it passes 2^127. Example: for
/// `Sw<1,0,1> o 0 o 4:1`, indices 0..4 give 0, 1, 3, 2.
pub(crate) fn element_offset(smem: &Smem, i: u64) -> BResult<i128> {
    let x = i128::from(i);
    match smem {
        Smem::Plain(l) => colex(l, x),
        Smem::Swizzled {
            bms: (b, m, s),
            layout,
        } => {
            let x = colex(layout, x)?;
            if x < 0 {
                return Ok(x);
            }
            let mut y = x;
            for k in 0..*b {
                if (x >> (m + k + s)) & 1 == 1 {
                    y ^= 1 << (m + k);
                }
            }
            Ok(y)
        }
        Smem::Linear(ll) => Ok(ll
            .flat_bases()
            .enumerate()
            .filter(|&(bit, _)| bit < 64 && (i >> bit) & 1 == 1)
            .fold(0i128, |acc, (_, basis)| acc ^ i128::from(basis))),
        Smem::Any(a) => chain(a, x),
    }
}

fn unrepresentable(what: String) -> BankError {
    BankError::Address {
        detail: format!("{what} is not representable in 128 bits"),
    }
}

/// A plain layout at `x` by its definition (see [`element_offset`]).
fn colex(l: &crate::Layout, x: i128) -> BResult<i128> {
    let leaves: Vec<_> = l.leaves().collect();
    let mut rest = x;
    let mut acc = 0i128;
    for (k, m) in leaves.iter().enumerate() {
        let s = i128::from(m.shape.max(1));
        let c = if k + 1 == leaves.len() {
            rest
        } else {
            rest % s
        };
        acc = c
            .checked_mul(i128::from(m.stride))
            .and_then(|t| acc.checked_add(t))
            .ok_or_else(|| unrepresentable(format!("{l} at {x}")))?;
        rest /= s;
    }
    Ok(acc)
}

/// `Sw<B,M,S>` at `x` in two's complement, bit by bit: for `k < B`, bit `z + k + S` flips bit
/// `z + k`, `z = M − min(0, S)`.
fn swizzle_bits(s: &crate::layout::Swizzle, x: i128) -> i128 {
    let z = s.base() - s.shift().min(0);
    let mut y = x;
    for k in 0..s.bits() {
        let from = z + k + s.shift();
        let bit = if from >= 127 {
            x < 0
        } else {
            (x >> from) & 1 == 1
        };
        if bit && z + k < 127 {
            y ^= 1 << (z + k);
        }
    }
    y
}

/// A plain, swizzled or composed layout at `x`: `outer(offset + inner(x))` for a composed one,
/// with an explicit stack of the outer parts still to apply.
fn chain(f: &AnyLayout, x: i128) -> BResult<i128> {
    let mut pending: Vec<(&AnyLayout, i64)> = Vec::new();
    let (mut f, mut x) = (f, x);
    loop {
        match f {
            AnyLayout::Composed(c) => {
                pending.push((&c.outer, c.offset));
                f = &c.inner;
                continue;
            }
            AnyLayout::Plain(l) => x = colex(l, x)?,
            AnyLayout::Swizzle(s) => x = swizzle_bits(s, x),
        }
        let Some((outer, offset)) = pending.pop() else {
            return Ok(x);
        };
        x = x
            .checked_add(i128::from(offset))
            .ok_or_else(|| unrepresentable(format!("{x} + {offset}")))?;
        f = outer;
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::banks::{analyze, model::mutant, text::parse_smem, Instr};

    fn access(tv: &str) -> Access {
        Access {
            tv: tv.parse().unwrap(),
            instr: Instr::Shared { width: None },
            atom: None,
        }
    }

    /// One tile of each kind and an access over it: the simulator's offsets are the library's,
    /// and the analysis agrees with the simulator.
    fn tiles() -> Vec<(Smem, Access, Dtype)> {
        let f32 = Dtype::parse("f32").unwrap();
        let f16 = Dtype::parse("f16").unwrap();
        vec![
            // A composed chain with a non-zero offset (not F2-linear: the analysis enumerates).
            (
                parse_smem("Sw<2,2,3> o 3 o (16,16):(16,1)").unwrap(),
                access("(32,4):(4,1)"),
                f32,
            ),
            // A composed chain with offset 0 and a negative-shift swizzle.
            (
                parse_smem("Sw<2,4,-3> o 0 o (32,8):(8,1)").unwrap(),
                access("(32,8):(8,1)"),
                f16,
            ),
            // A linear (F2) layout: the analysis's F2-rank path.
            (
                parse_smem(
                    "offset = [[0, 1], [0, 2], [0, 4], [1, 0], [2, 0], [4, 0], [8, 0], [16, 0], \
                     [0, 8], [0, 16]] -> dim0 = 32, dim1 = 32",
                )
                .unwrap(),
                access("(32,1):(32,0)"),
                f32,
            ),
            // A linear layout read with 3 values a thread (not F2: enumerated).
            (
                parse_smem("offset = [[1], [2], [4], [8], [16], [32], [64]] -> offset = 128")
                    .unwrap(),
                access("(32,3):(3,1)"),
                f32,
            ),
            (
                Smem::Plain("(32,32):(33,1)".parse().unwrap()),
                access("(32,1):(1,0)"),
                f32,
            ),
        ]
    }

    #[test]
    fn the_simulator_computes_the_library_offsets_on_its_own() {
        for (smem, _, _) in tiles() {
            for i in 0..smem.size().unwrap() {
                assert_eq!(
                    element_offset(&smem, i).unwrap(),
                    i128::from(smem.offset(i).unwrap()),
                    "{} at {i}",
                    smem.describe()
                );
            }
        }
        // A composed chain whose inner offset lands past the plain layout's domain (CuTe's
        // extrapolation) and one whose offsets pass 2^64 before the outer layout folds them.
        let a: AnyLayout = "Sw<1,0,1> o -3 o 8:1".parse().unwrap();
        let c = Smem::from_any(a.clone());
        for i in 0..8 {
            // -3 = …11101: bit 1 is clear, so Sw<1,0,1> leaves it; -1 = …11111 flips bit 0.
            assert_eq!(
                element_offset(&c, i).unwrap(),
                i128::from(a.eval(i as i64).unwrap())
            );
        }
        assert_eq!(element_offset(&c, 0).unwrap(), -3);
        assert_eq!(element_offset(&c, 2).unwrap(), -2);
        let big = Smem::from_any(
            "2:1 o 0 o (2,2):(4611686018427387904,4611686018427387904)"
                .parse()
                .unwrap(),
        );
        assert_eq!(element_offset(&big, 3).unwrap(), 1i128 << 63);
    }

    #[test]
    fn the_simulator_catches_a_mistake_planted_in_the_analysis() {
        for (smem, acc, dtype) in tiles() {
            let good = analyze(&smem, &acc, dtype).unwrap();
            let sim = simulate(&smem, &acc, dtype).unwrap();
            assert!(
                good.agrees_with(&sim),
                "{}: {good:?} vs {sim:?}",
                smem.describe()
            );
            // A mistake in the analysis's offset function (every element scaled into one bank's
            // column of words): the analysis changes its answer, the simulator does not.
            let bad = mutant::with(|o| o * 32, || analyze(&smem, &acc, dtype));
            let sim_then = mutant::with(|o| o * 32, || simulate(&smem, &acc, dtype)).unwrap();
            assert_eq!(sim_then, sim, "the simulator used the analysis's offsets");
            match bad {
                Ok(bad) => assert!(
                    !bad.agrees_with(&sim),
                    "{}: the planted mistake went unnoticed: {bad:?}",
                    smem.describe()
                ),
                Err(e) => panic!("{}: {e}", smem.describe()),
            }
        }
    }

    /// The F2-rank analysis's input mistaken: the linear form of the tile with its output bits
    /// rotated by 5 (a permutation of the words, as a wrong basis would give). The analysis still
    /// answers by F2 ranks, and differently; the simulator, which XORs the tile's own bases,
    /// does not change.
    #[test]
    fn the_simulator_catches_a_mistake_planted_in_the_f2_analysis() {
        fn rotate(
            ll: crate::algebra::linear::LinearLayout,
        ) -> crate::algebra::linear::LinearLayout {
            let bits = ll.total_out_bits();
            let mask = (1u64 << bits) - 1;
            let rot = |b: u64| ((b << 5) | (b >> (bits - 5))) & mask;
            let ins: Vec<(&str, Vec<Vec<u64>>)> = ll
                .in_dims()
                .iter()
                .map(|d| {
                    (
                        d.name.as_str(),
                        d.bases.iter().map(|&b| vec![rot(b)]).collect(),
                    )
                })
                .collect();
            let out = ll.out_dims()[0].name.clone();
            crate::algebra::linear::LinearLayout::new(&ins, &[(out.as_str(), 1u64 << bits)])
                .expect("a permutation of the output bits is a linear layout")
        }
        let (smem, acc, dtype) = tiles().swap_remove(2);
        let good = analyze(&smem, &acc, dtype).unwrap();
        assert_eq!(good.method, "f2-rank");
        let sim = simulate(&smem, &acc, dtype).unwrap();
        assert!(good.agrees_with(&sim));
        let bad = mutant::with_linear(rotate, || analyze(&smem, &acc, dtype)).unwrap();
        assert_eq!(
            bad.method, "f2-rank",
            "the planted mistake is in the F2 path"
        );
        let sim_then = mutant::with_linear(rotate, || simulate(&smem, &acc, dtype)).unwrap();
        assert_eq!(sim_then, sim, "the simulator used the analysis's F2 form");
        assert!(
            !bad.agrees_with(&sim),
            "the planted mistake went unnoticed: {bad:?}"
        );
    }
}
