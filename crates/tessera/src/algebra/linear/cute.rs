//! Linear layouts and CuTe: conversions with CuTe layouts (plain, swizzled, composed) and the
//! XOR swizzle of CuTe's `Swizzle<B,M,S>` as a linear layout.

use super::*;

impl LinearLayout {
    /// The XOR swizzle of CuTe's `Swizzle<B,M,S>` on `offset` bits, as a linear layout
    /// `offset → offset` of size `2^size_bits`: `y = x ^ ((x >> S) & (2^B − 1) << M)`.
    ///
    /// Pre: `S ≥ B` (CuTe's static assertion `abs(S) >= B`), `M + S + B ≤ size_bits ≤ 63`.
    /// Post: bijective and an involution. Example: `from_swizzle(3, 3, 3, 10)` is SW128 for
    /// 16-bit elements (CuTe's `Swizzle<3,3,3>`).
    pub fn from_swizzle(bits: u32, base: u32, shift: u32, size_bits: u32) -> LResult<LinearLayout> {
        if shift < bits {
            return Err(LinearError::DimMismatch {
                op: "from_swizzle",
                detail: format!(
                    "Swizzle<{bits},{base},{shift}> needs S >= B (the masks would overlap)"
                ),
            });
        }
        if size_bits > MAX_BITS || base + shift + bits > size_bits {
            return Err(LinearError::DimMismatch {
                op: "from_swizzle",
                detail: format!(
                    "Swizzle<{bits},{base},{shift}> reads bit {} but the domain has {size_bits} bits",
                    base + shift + bits
                ),
            });
        }
        let bases = (0..size_bits)
            .map(|i| {
                let x = 1u64 << i;
                x ^ ((x >> shift) & (mask(bits) << base))
            })
            .collect();
        Ok(offset_layout(bases, size_bits))
    }

    /// A CuTe layout as a linear layout, when it is F2-linear: every shape a power of two, every
    /// stride ≥ 0, and no two input bits' contributions `d·2^j` sharing an index bit (then sums
    /// never carry and `L(x) = ⊕ contributions`). Input dimensions are `dim0, dim1, …` (one per
    /// top-level mode, nested modes flattened colexicographically); the output is `offset`, of
    /// size the least power of two above every index.
    ///
    /// Pre: as above. Post: `r.apply_flat(x) == L(x)` for every `x < size(L)`.
    /// Otherwise an error names the leaf mode, its stride and the input bit, with checked
    /// suggestions (strides rounded to powers of two above the others' bits).
    ///
    /// ```
    /// use tessera::algebra::linear::LinearLayout;
    /// let l: tessera::Layout = "(4,8):(8,1)".parse().unwrap();
    /// let ll = LinearLayout::from_layout(&l).unwrap();
    /// assert_eq!(ll.to_string(), "dim0 = [[8], [16]], dim1 = [[1], [2], [4]] -> offset = 32");
    /// ```
    pub fn from_layout(l: &Layout) -> LResult<LinearLayout> {
        match from_layout_inner(l) {
            Ok(r) => Ok(r),
            Err(mut e) => {
                let sugg = linear_suggestions(l);
                match &mut e {
                    LinearError::NotLinear { suggestions, .. }
                    | LinearError::NotLinearMode { suggestions, .. } => *suggestions = sugg,
                    _ => {}
                }
                Err(e)
            }
        }
    }

    /// The CuTe layout of this function, when one exists: every basis (flattened over the
    /// outputs, the first output lowest) must share no bit with another (then `⊕ = Σ`). The
    /// result has one mode per input dimension (`2^k` elements, coalesced within the mode).
    ///
    /// Pre: pairwise disjoint nonzero bases. Post: `L(x) == self.apply_flat(x)` for every `x`.
    pub fn to_layout(&self) -> LResult<Layout> {
        let mut seen = 0u64;
        for d in &self.ins {
            for (i, &b) in d.bases.iter().enumerate() {
                if seen & b != 0 {
                    return Err(LinearError::NoCuteForm {
                        layout: self.to_string(),
                        target: "CuTe layout",
                        detail: format!(
                            "basis {i} of `{}` ({b}) shares bit {} with an earlier basis, so XOR and + differ",
                            d.name,
                            (seen & b).trailing_zeros()
                        ),
                    });
                }
                if b > i64::MAX as u64 {
                    return Err(LinearError::TooManyBits {
                        what: "outputs",
                        bits: 64,
                    });
                }
                seen |= b;
            }
        }
        let modes: Vec<Tree<Mode>> = self
            .ins
            .iter()
            .map(|d| {
                if d.bases.is_empty() {
                    Tree::leaf(Mode::new(1, 0))
                } else if d.bases.len() == 1 {
                    Tree::leaf(Mode::new(2, d.bases[0] as i64))
                } else {
                    Tree::flat(d.bases.iter().map(|&b| Mode::new(2, b as i64)))
                }
            })
            .collect();
        let t = if modes.len() == 1 {
            modes.into_iter().next().expect("one mode")
        } else {
            Tree::tuple(modes.iter().map(|m| m.as_ref()))
        };
        let raw = Layout::from_tree(t);
        // Coalesce within each top-level mode (keeps the rank).
        let profile: IntTuple = if self.ins.len() <= 1 {
            IntTuple::leaf(1)
        } else {
            Tree::flat(std::iter::repeat_n(1i64, self.ins.len()))
        };
        coalesce_by(&raw, &profile).map_err(|e| LinearError::NoCuteForm {
            layout: self.to_string(),
            target: "CuTe layout",
            detail: e.to_string(),
        })
    }

    /// A CuTe swizzled form `Swizzle<B,M,S> ∘ L` of this function (offset 0), when one exists:
    /// the swizzle (the identity `Swizzle<0,0,0>` when none is needed) and the plain layout `L`.
    /// Searches every `Swizzle<B,M,S>` (either sign of `S`) within the output bits; a swizzle is
    /// an involution, so `L = Sw ∘ self` must have a CuTe form ([`LinearLayout::to_layout`]).
    ///
    /// Pre: at most 62 output bits.
    /// Post: `sw.apply(L(x)) == self.apply_flat(x)` for every `x`.
    pub fn to_swizzled_layout(&self) -> LResult<(Swizzle, Layout)> {
        let id = Swizzle::new(0, 0, 0).map_err(|e| LinearError::NoCuteForm {
            layout: self.to_string(),
            target: "Swizzle<B,M,S> o layout",
            detail: e.to_string(),
        })?;
        if let Ok(l) = self.to_layout() {
            return Ok((id, l));
        }
        let n = self.total_out_bits() as i64;
        let flat = self.flatten_outs().reshape_outs(&[("offset", 1u64 << n)])?;
        for b in 1..=n {
            for a in b..=n {
                for m in 0..=(n - b - a).max(-1) {
                    for s in [a, -a] {
                        let Ok(sw) = Swizzle::new(b, m, s) else {
                            continue;
                        };
                        let swl = LinearLayout::from_swizzle_value(&sw, n as u32)?;
                        if let Ok(l) = flat.compose(&swl).and_then(|x| x.to_layout()) {
                            return Ok((sw, l));
                        }
                    }
                }
            }
        }
        Err(LinearError::NoCuteForm {
            layout: self.to_string(),
            target: "Swizzle<B,M,S> o layout",
            detail: format!("no Swizzle<B,M,S> within {n} bits makes the bases disjoint"),
        })
    }

    /// The swizzle of issue 11's [`Swizzle`] value (any sign of `S`) on `size_bits` offset bits.
    ///
    /// Pre: the swizzle's bits lie below `size_bits ≤ 63`. Post: `r.apply_flat(x) ==
    /// s.apply(x)` for every `x < 2^size_bits`; bijective.
    pub fn from_swizzle_value(s: &Swizzle, size_bits: u32) -> LResult<LinearLayout> {
        let span = 64 - (s.span().max(1) as u64 - 1).leading_zeros();
        if size_bits > MAX_BITS || span > size_bits {
            return Err(LinearError::DimMismatch {
                op: "from_swizzle",
                detail: format!("{s} reads bits up to {span} but the domain has {size_bits} bits"),
            });
        }
        let bases = (0..size_bits).map(|i| s.apply(1i64 << i) as u64).collect();
        Ok(offset_layout(bases, size_bits))
    }

    /// A plain, swizzle or composed layout (issue 11's [`AnyLayout`]) as a linear layout, when
    /// it is F2-linear: the innermost layout as [`LinearLayout::from_layout`], a zero offset
    /// (a non-zero offset makes the function affine, not linear), and outer swizzles or plain
    /// layouts composed on the `offset` output.
    ///
    /// Pre: as above. Post: `r.apply_flat(x) == L(x)` for every `x < size(L)`.
    pub fn from_any_layout(l: &AnyLayout) -> LResult<LinearLayout> {
        match l {
            AnyLayout::Plain(p) => LinearLayout::from_layout(p),
            AnyLayout::Swizzle(s) => {
                let bits = 64 - (s.span().max(1) as u64 - 1).leading_zeros();
                LinearLayout::from_swizzle_value(s, bits)
            }
            AnyLayout::Composed(c) => {
                if c.offset != 0 {
                    return Err(LinearError::NoCuteForm {
                        layout: l.to_string(),
                        target: "linear layout",
                        detail: format!(
                            "the offset {} makes the function affine (L(0) = {}), and a linear layout maps 0 to 0",
                            c.offset,
                            c.offset
                        ),
                    });
                }
                let inner = LinearLayout::from_any_layout(&c.inner)?.flatten_outs();
                let inner = inner.reshape_outs(&[("offset", 1u64 << inner.total_out_bits())])?;
                let outer = match &c.outer {
                    AnyLayout::Swizzle(s) => {
                        let span = 64 - (s.span().max(1) as u64 - 1).leading_zeros();
                        let bits = span.max(inner.total_out_bits());
                        LinearLayout::from_swizzle_value(s, bits)?
                    }
                    other => {
                        let o = LinearLayout::from_any_layout(other)?.flatten_ins();
                        let n = o.total_in_bits();
                        o.reshape_ins(&[("offset", 1u64 << n)])?
                    }
                };
                // Widen the inner output to the outer's input bits.
                let want = outer.total_in_bits();
                if inner.total_out_bits() > want {
                    return Err(LinearError::DimMismatch {
                        op: "from_any_layout",
                        detail: format!(
                            "the inner function reaches 2^{} but the outer takes 2^{want} inputs",
                            inner.total_out_bits()
                        ),
                    });
                }
                let widened = LinearLayout {
                    ins: inner.ins.clone(),
                    outs: vec![OutDim {
                        name: "offset".into(),
                        bits: want,
                    }],
                };
                widened.compose(&outer)
            }
        }
    }

    /// This function as a CuTe plain layout or `Sw<B,M,S> o 0 o L` (issue 11's [`AnyLayout`]),
    /// when one exists ([`LinearLayout::to_swizzled_layout`]).
    ///
    /// Post: evaluates as `self.apply_flat` on `[0, 2^total_in_bits)`.
    pub fn to_any_layout(&self) -> LResult<AnyLayout> {
        let (sw, l) = self.to_swizzled_layout()?;
        if sw.is_identity() {
            return Ok(AnyLayout::Plain(l));
        }
        Ok(AnyLayout::Composed(Box::new(ComposedLayout::new(
            sw.into(),
            0,
            l.into(),
        ))))
    }
}

fn from_layout_inner(l: &Layout) -> LResult<LinearLayout> {
    let text = l.to_string();
    let mut ins = Vec::new();
    let mut seen: Vec<(u64, usize, u32)> = Vec::new(); // (contribution, mode, bit)
    let mut union = 0u64;
    let mut leaf = 0usize;
    let tops: Vec<Layout> = if l.is_leaf() {
        vec![l.clone()]
    } else {
        l.modes().collect()
    };
    let mut total_in = 0u32;
    for (k, top) in tops.iter().enumerate() {
        let mut bases = Vec::new();
        for m in top.leaves() {
            let bad = |reason: &'static str| LinearError::NotLinearMode {
                layout: text.clone(),
                mode: leaf,
                shape: m.shape,
                stride: m.stride,
                reason,
                suggestions: Vec::new(),
            };
            if m.shape < 1 || !(m.shape as u64).is_power_of_two() {
                return Err(bad("its shape is not a power of two"));
            }
            if m.stride < 0 {
                return Err(bad("its stride is negative"));
            }
            let kbits = (m.shape as u64).trailing_zeros();
            total_in += kbits;
            check_in_bits(total_in as usize)?;
            for j in 0..kbits {
                let c = (m.stride as u64)
                    .checked_shl(j)
                    .filter(|c| c >> j == m.stride as u64);
                let Some(c) = c.filter(|&c| c <= i64::MAX as u64) else {
                    return Err(bad("a contribution overflows"));
                };
                if c & union != 0 {
                    let (oc, om, ob) = seen
                        .iter()
                        .copied()
                        .find(|&(o, _, _)| o & c != 0)
                        .unwrap_or((0, 0, 0));
                    return Err(LinearError::NotLinear {
                        layout: text.clone(),
                        mode: leaf,
                        shape: m.shape,
                        stride: m.stride,
                        bit: j,
                        contribution: c as i64,
                        other: format!("{oc} (mode {om}, bit {ob})"),
                        shared_bit: (oc & c).trailing_zeros(),
                        suggestions: Vec::new(),
                    });
                }
                union |= c;
                if c != 0 {
                    seen.push((c, leaf, j));
                }
                bases.push(c);
            }
            leaf += 1;
        }
        ins.push(InDim {
            name: format!("dim{k}"),
            bases,
        });
    }
    let out_bits = 64 - union.leading_zeros();
    check_out_bits(out_bits)?;
    Ok(LinearLayout {
        ins,
        outs: vec![OutDim {
            name: "offset".into(),
            bits: out_bits,
        }],
    })
}

/// Checked suggestions for a layout that is not F2-linear: change one leaf's stride (or shape)
/// to a nearby value and keep the candidates that convert.
fn linear_suggestions(l: &Layout) -> Vec<String> {
    let leaves: Vec<Mode> = l.leaves().collect();
    let mut out: Vec<String> = Vec::new();
    for (i, m) in leaves.iter().enumerate() {
        let mut cands: Vec<Mode> = Vec::new();
        let s = m.shape.max(1) as u64;
        if !s.is_power_of_two() {
            let lo = 1u64 << (63 - s.leading_zeros());
            cands.push(Mode::new(lo as i64, m.stride));
            if let Some(hi) = s.checked_next_power_of_two() {
                cands.push(Mode::new(hi as i64, m.stride));
            }
        }
        let d = m.stride.unsigned_abs();
        if d > 0 {
            if let Some(hi) = d.checked_next_power_of_two() {
                cands.push(Mode::new(m.shape, hi as i64));
            }
            let lo = 1u64 << (63 - d.leading_zeros());
            cands.push(Mode::new(m.shape, lo as i64));
            // Past every other contribution.
            let others: i64 = leaves
                .iter()
                .enumerate()
                .filter(|&(j, _)| j != i)
                .map(|(_, o)| o.stride.saturating_abs().saturating_mul(o.shape))
                .max()
                .unwrap_or(1);
            if let Some(p) = (others.max(1) as u64).checked_next_power_of_two() {
                cands.push(Mode::new(m.shape, p as i64));
            }
        }
        for c in cands {
            let mut k = 0usize;
            let t = l.t.map(|x| {
                let r = if k == i { c } else { x };
                k += 1;
                r
            });
            let cand = Layout::from_tree(t);
            if from_layout_inner(&cand).is_ok() {
                let s = cand.to_string();
                if !out.contains(&s) && out.len() < 5 {
                    out.push(s);
                }
            }
        }
    }
    out
}
