//! The analysis: the access's geometry, the vector-width rule, the F2-rank analysis of linear
//! accesses and the phase-by-phase enumeration of the others ([`analyze`]).

use super::*;
use crate::algebra::linear::{f2_rank, LinearLayout};
use crate::layout::Layout;

/// The largest byte span of a shared-memory tile the model addresses: PTX's `.shared` window is
/// addressed with 32 bits, so every byte address the model computes is below `2^32` and no
/// product of it wraps in 64 bits. (Far more than any GPU's shared memory: a tile past
/// [`largest_smem_per_block`] but inside the window is analysed, with the warning of
/// [`capacity_warning`].)
pub const SHARED_WINDOW_BYTES: u128 = 1 << 32;

/// The architecture whose blocks may use the most shared memory, from the one `target` table.
///
/// Pre: none. Post: the row of `target::ARCHS` with the largest `smem_per_block` (232,448 bytes,
/// 227 KiB, on Hopper and the Blackwell data-centre parts). Example:
/// `largest_smem_per_block().smem_per_block == 232_448`.
pub fn largest_smem_per_block() -> &'static crate::target::Arch {
    crate::target::ARCHS
        .iter()
        .max_by_key(|a| a.smem_per_block)
        .expect("the target table has rows")
}

/// The byte span of a tile: one past its largest element offset, times the element size, in 128
/// bits (exact for plain, swizzled and composed layouts; `2^out_bits` for a linear one).
fn byte_span(smem: &Smem, dtype: Dtype) -> BResult<u128> {
    let elems = match smem {
        Smem::Swizzled { bms, layout } => {
            let (b, m, s) = (i64::from(bms.0), i64::from(bms.1), i64::from(bms.2));
            let sw = crate::layout::Swizzle::new(b, m, s)?;
            let c = crate::layout::ComposedLayout::new(sw.into(), 0, layout.clone().into());
            // Past the cosize's enumeration bound, the power-of-two bound of `offset_bound`.
            match crate::algebra::swizzled::cosize(&c.into()) {
                Ok(n) => n as u128,
                Err(_) => smem.offset_bound()?,
            }
        }
        _ => smem.offset_bound()?,
    };
    Ok(elems.saturating_mul(u128::from(elem_bytes(dtype))))
}

/// The warning `banks_smem_capacity` when a tile spans more bytes than a block may use on any
/// target (the largest `smem_per_block` of `target::ARCHS`), though its addresses are
/// representable: the analysis still answers, for a tile no GPU can hold.
///
/// Pre: none. Post: `Some(note)` iff the tile's byte span exceeds
/// [`largest_smem_per_block`]'s `smem_per_block` (an error where the span is not computable).
/// Example: `(256,256):(256,1)` of `f32` spans 262,144 bytes > 232,448: a warning;
/// `(128,128):(128,1)` of `f32` (65,536 bytes): none.
pub fn capacity_warning(smem: &Smem, dtype: Dtype) -> BResult<Option<crate::error::Note>> {
    let span = byte_span(smem, dtype)?;
    let arch = largest_smem_per_block();
    let max = arch.smem_per_block;
    if span <= u128::from(max) {
        return Ok(None);
    }
    Ok(Some(crate::error::Note {
        code: "banks_smem_capacity",
        op: "banks",
        obligation: format!("{span} ≤ {max}"),
        symbolic: "cosize(smem) · sizeof(T) ≤ max over architectures of smem_per_block".into(),
        message: format!(
            "{} of {} spans {span} bytes, more than any GPU lets one block use ({max} bytes = \
             {} KiB, sm_{}); the counts are the model's for a tile no GPU holds",
            smem.describe(),
            dtype.name,
            max / 1024,
            arch.cc
        ),
        hole: None,
    }))
}

/// The resolved geometry of an access: what both the analysis and the simulator need.
#[derive(Clone, Debug)]
pub(crate) struct Geometry {
    pub values: u64,
    pub tv_thread: Layout,
    pub tv_value: Layout,
    pub domain: u64,
    pub shape: (u64, u64),
    pub atom: Option<(u64, u64)>,
    pub instances: u64,
    pub elem: u64,
}

impl Geometry {
    pub(crate) fn new(smem: &Smem, acc: &Access, dtype: Dtype) -> BResult<Geometry> {
        check_whole_bytes(dtype)?;
        let tv = &acc.tv;
        if tv.is_leaf() || tv.rank() != 2 {
            return Err(BankError::TvRank {
                tv: tv.to_string(),
                rank: if tv.is_leaf() { 1 } else { tv.rank() },
            });
        }
        let tm = tv.mode_at(0).expect("rank 2");
        let vm = tv.mode_at(1).expect("rank 2");
        let threads = tm.size()?;
        if threads != 32 {
            return Err(BankError::ThreadExtent {
                tv: tv.to_string(),
                found: threads,
                suggestions: thread_suggestions(tv, threads)
                    .into_iter()
                    .filter(|s| {
                        // Checked: a suggested TV layout must analyse.
                        s.parse::<Layout>().map_or(true, |l| {
                            analyze(
                                smem,
                                &Access {
                                    tv: l,
                                    ..acc.clone()
                                },
                                dtype,
                            )
                            .is_ok()
                        })
                    })
                    .collect(),
            });
        }
        let values = vm.size()? as u64;
        // Every byte address the analysis and the simulator compute lies below the tile's byte
        // span, checked here in 128 bits: past the 32-bit shared window no address is
        // representable, so the tile is refused rather than analysed with wrapped addresses.
        let span = smem
            .offset_bound()?
            .saturating_mul(u128::from(elem_bytes(dtype)));
        if span > SHARED_WINDOW_BYTES {
            return Err(BankError::Address {
                detail: format!(
                    "{} spans {span} bytes of {} elements, past the 32-bit shared-memory window \
                     ({SHARED_WINDOW_BYTES} bytes; the most shared memory a block may use on any \
                     target is {} bytes)",
                    smem.describe(),
                    dtype.name,
                    largest_smem_per_block().smem_per_block
                ),
            });
        }
        let domain = smem.size()?;
        let shape = smem.shape2()?;
        let (instances, bound, what) = match acc.atom {
            None => (1, domain, "the shared-memory layout's domain"),
            Some((am, an)) => {
                if am == 0 || an == 0 || shape.0 % am != 0 || shape.1 % an != 0 {
                    return Err(BankError::BadInput {
                        what: "atom tile",
                        detail: format!(
                            "the atom tile {am}x{an} does not divide the shared-memory tile {}x{}",
                            shape.0, shape.1
                        ),
                        suggestions: Vec::new(),
                    });
                }
                ((shape.0 / am) * (shape.1 / an), am * an, "the atom tile")
            }
        };
        // Every (thread, value) must land in the domain (or the atom tile): the extreme values of
        // a layout are reached at its corners, so two points decide it without enumeration.
        for (t, v) in [
            (extreme(&tm, true)?, extreme(&vm, true)?),
            (extreme(&tm, false)?, extreme(&vm, false)?),
        ] {
            let i = tm
                .eval(t as i64)?
                .checked_add(vm.eval(v as i64)?)
                .ok_or_else(|| crate::Error::overflow("TV index"))?;
            if i < 0 || i as u64 >= bound {
                return Err(BankError::OutOfDomain {
                    thread: t,
                    value: v,
                    index: i,
                    size: bound,
                    what,
                    suggestions: domain_suggestions(smem, acc, dtype, bound),
                });
            }
        }
        Ok(Geometry {
            values,
            tv_thread: tm,
            tv_value: vm,
            domain,
            shape,
            atom: acc.atom,
            instances,
            elem: elem_bytes(dtype),
        })
    }

    /// The enumeration bound: instances × 32 × values ≤ [`MAX_POINTS`].
    pub(crate) fn check_enumerable(&self, smem: &Smem, tv: &Layout) -> BResult<()> {
        let points = self
            .instances
            .saturating_mul(32)
            .saturating_mul(self.values);
        if points > MAX_POINTS {
            return Err(BankError::TooLarge {
                what: format!("the access {tv} over {}", smem.describe()),
                size: points,
            });
        }
        Ok(())
    }

    /// The domain index of (instance, thread, value).
    #[inline]
    pub(crate) fn index(&self, inst: u64, t: u64, v: u64) -> BResult<u64> {
        let a = (self.tv_thread.eval(t as i64)? + self.tv_value.eval(v as i64)?) as u64;
        Ok(match self.atom {
            None => a,
            Some((am, an)) => {
                let bm = self.shape.0 / am;
                let (i, j) = (inst % bm, inst / bm);
                let (m, n) = (a % am, a / am);
                (i * am + m) + self.shape.0 * (j * an + n)
            }
        })
    }
}

pub(crate) fn thread_suggestions(tv: &Layout, threads: i64) -> Vec<String> {
    // Keep the thread mode's stride with extent 32 (a prefix when there are more threads, the
    // rest broadcasting when fewer); the caller keeps only candidates that analyse.

    let mut out = Vec::new();
    let (Some(tm), Some(vm)) = (tv.mode_at(0), tv.mode_at(1)) else {
        return out;
    };
    if let Some(m) = tm.leaves().next().filter(|_| tm.is_leaf()) {
        for cand in [format!(
            "(32,{}):({},{})",
            vm.shape(),
            m.stride,
            vm.stride()
        )] {
            if let Ok(l) = cand.parse::<Layout>() {
                if l.mode_at(0).and_then(|x| x.size().ok()) == Some(32) {
                    out.push(l.to_string());
                }
            }
        }
    }
    if threads > 32 && threads % 32 == 0 {
        out.push(format!(
            "split the {threads} threads into {} warps and analyse each",
            threads / 32
        ));
    }
    out
}

pub(crate) fn domain_suggestions(
    smem: &Smem,
    acc: &Access,
    dtype: Dtype,
    bound: u64,
) -> Vec<String> {
    // Fewer values: the longest prefix of the value mode that stays inside.
    let mut out = Vec::new();
    let (Some(tm), Some(vm)) = (acc.tv.mode_at(0), acc.tv.mode_at(1)) else {
        return out;
    };
    let Ok(nv) = vm.size() else { return out };
    if let Some(m) = vm.leaves().next().filter(|_| vm.is_leaf()) {
        let mut n = nv / 2;
        while n >= 1 {
            let cand = format!("({},{}):({},{})", tm.shape(), n, tm.stride(), m.stride);
            if let Ok(l) = cand.parse::<Layout>() {
                let a = Access {
                    tv: l.clone(),
                    ..acc.clone()
                };
                if analyze(smem, &a, dtype).is_ok() {
                    out.push(format!("--tv '{l}' (the first {n} values of each thread)"));
                    break;
                }
            }
            n /= 2;
        }
    }
    out.push(format!("the index must be below {bound}"));
    out
}

/// The colexicographic index at which a layout takes its largest (`hi`) or smallest value: every
/// leaf at its last coordinate where its stride is positive (negative for the smallest), else 0.
pub(crate) fn extreme(l: &Layout, hi: bool) -> BResult<u64> {
    let mut idx = 0u64;
    let mut scale = 1u64;
    for m in l.leaves() {
        let last = (m.shape - 1) as u64;
        if (m.stride > 0) == hi && m.stride != 0 {
            idx = idx.saturating_add(last.saturating_mul(scale));
        }
        scale = scale.saturating_mul(m.shape as u64);
    }
    Ok(idx)
}

/// Why a `w`-byte vector cannot hold whole `elem`-byte elements, or `None` when it can.
pub(crate) fn not_whole_elements(w: u64, elem: u64) -> Option<String> {
    (w < elem || !w.is_multiple_of(elem))
        .then(|| format!("{w} bytes is not a whole number of {elem}-byte elements"))
}

/// The vector width and the number of instructions per instance (the definition, checked point
/// by point): the widest `W ≤ 16` (or the instruction's fixed width) such that every aligned
/// group of `W / sizeof(T)` values of every thread is contiguous and `W`-aligned.
pub(crate) fn vector_width_enum(
    smem: &Smem,
    g: &Geometry,
    instr: Instr,
    dtype: Dtype,
) -> BResult<u64> {
    let ok = |w: u64| -> BResult<Option<String>> {
        if let Some(why) = not_whole_elements(w, g.elem) {
            return Ok(Some(why));
        }
        let n = w / g.elem;
        if !g.values.is_multiple_of(n) {
            return Ok(Some(format!(
                "{} values per thread is not a multiple of {n}",
                g.values
            )));
        }
        for inst in 0..g.instances {
            for t in 0..instr.active_threads() {
                for k in 0..g.values / n {
                    let base = smem.offset(g.index(inst, t, k * n)?)?;
                    if !(base * g.elem).is_multiple_of(w) {
                        return Ok(Some(format!(
                            "T{t} values {}..{} start at byte {} (not a multiple of {w})",
                            k * n,
                            k * n + n - 1,
                            base * g.elem
                        )));
                    }
                    for j in 1..n {
                        let o = smem.offset(g.index(inst, t, k * n + j)?)?;
                        if o != base + j {
                            return Ok(Some(format!(
                                "T{t} value {} is at offset {o}, not {} (values {}..{} are not contiguous)",
                                k * n + j,
                                base + j,
                                k * n,
                                k * n + n - 1
                            )));
                        }
                    }
                }
            }
        }
        Ok(None)
    };
    pick_width(instr, dtype, g.elem, ok)
}

/// Applies the width rule: the fixed width must pass `ok` (else a typed error with the legal
/// widths as checked suggestions), or the widest passing one is chosen.
pub(crate) fn pick_width(
    instr: Instr,
    dtype: Dtype,
    elem: u64,
    ok: impl Fn(u64) -> BResult<Option<String>>,
) -> BResult<u64> {
    check_dtype(instr, dtype)?;
    let legal: &[u64] = match instr {
        Instr::CpAsync { .. } => &[16, 8, 4],
        _ => &[16, 8, 4, 2, 1],
    };
    match instr.fixed_width() {
        Some(w) => {
            if let Some(why) = ok(w)? {
                let mut sugg = Vec::new();
                if matches!(instr, Instr::Shared { .. } | Instr::CpAsync { .. }) {
                    for &c in legal.iter().filter(|&&c| c != w && c >= elem) {
                        if ok(c)?.is_none() {
                            sugg.push(format!("vector width {c} bytes"));
                        }
                    }
                    sugg.sort_by_key(|s| {
                        let c: u64 = s
                            .split_whitespace()
                            .nth(2)
                            .and_then(|x| x.parse().ok())
                            .unwrap_or(0);
                        c.abs_diff(w)
                    });
                }
                return Err(BankError::Misaligned {
                    width: w,
                    detail: why,
                    suggestions: sugg,
                });
            }
            Ok(w)
        }
        None => {
            for &w in legal {
                if w >= elem && ok(w)?.is_none() {
                    return Ok(w);
                }
            }
            Err(BankError::Misaligned {
                width: elem,
                detail: format!("even one {elem}-byte element per instruction fails"),
                suggestions: Vec::new(),
            })
        }
    }
}

pub(crate) fn check_dtype(instr: Instr, dtype: Dtype) -> BResult<()> {
    check_whole_bytes(dtype)?;
    let bad = |detail: String, ok: &dyn Fn(u64) -> bool| -> BResult<()> {
        Err(BankError::BadDtype {
            instr: instr.to_string(),
            dtype: dtype.name.to_string(),
            detail,
            suggestions: dtypes()
                .filter(|d| ok(elem_bytes(*d)))
                .map(|d| d.name.to_string())
                .collect(),
        })
    };
    match instr {
        Instr::Ldmatrix { num, .. } | Instr::Stmatrix { num, .. } => {
            if ![1, 2, 4].contains(&num) {
                return Err(BankError::BadInput {
                    what: "instruction",
                    detail: format!("{instr}: the matrix count must be 1, 2 or 4"),
                    suggestions: vec!["x1".into(), "x2".into(), "x4".into()],
                });
            }
            if elem_bytes(dtype) != 2 {
                return bad(
                    format!(
                        "it moves 16-bit elements (b16), and {} has {} bytes",
                        dtype.name,
                        elem_bytes(dtype)
                    ),
                    &|b| b == 2,
                );
            }
        }
        Instr::CpAsync { bytes } => {
            if ![4, 8, 16].contains(&bytes) {
                return Err(BankError::BadInput {
                    what: "instruction",
                    detail: format!("cp.async copies 4, 8 or 16 bytes, not {bytes}"),
                    suggestions: vec![
                        "cp.async.4".into(),
                        "cp.async.8".into(),
                        "cp.async.16".into(),
                    ],
                });
            }
            if elem_bytes(dtype) > bytes {
                return bad(
                    format!("{} elements do not fit in {bytes} bytes", elem_bytes(dtype)),
                    &|b| b <= bytes,
                );
            }
        }
        Instr::Shared { width: Some(w) } => {
            if ![1, 2, 4, 8, 16].contains(&w) {
                return Err(BankError::BadInput {
                    what: "vector width",
                    detail: format!("ld/st.shared moves 1, 2, 4, 8 or 16 bytes, not {w}"),
                    suggestions: vec!["1".into(), "2".into(), "4".into(), "8".into(), "16".into()],
                });
            }
            if elem_bytes(dtype) > w {
                return bad(
                    format!(
                        "{}-byte elements do not fit in {w} bytes",
                        elem_bytes(dtype)
                    ),
                    &|b| b <= w,
                );
            }
        }
        Instr::Shared { width: None } | Instr::Tma => {}
    }
    Ok(())
}

/// Pushes the words a thread's access touches, `(thread, word, index)` for each word `byte / 4` to
/// `(byte + w − 1) / 4` of its `w` bytes from `byte` (`w ≥ 1`).
pub(crate) fn push_words(buf: &mut Vec<(u64, u64, u64)>, t: u64, byte: u64, w: u64, idx: u64) {
    for word in byte / WORD_BYTES..=(byte + w - 1) / WORD_BYTES {
        buf.push((t, word, idx));
    }
}

/// The wavefronts of one phase in which thread `t` touches the `w` bytes from `bytes[t]`: the words
/// of [`push_words`] counted by [`phase_cost`], as [`analyze`]'s enumeration counts each phase (a
/// hook for the bridge to the proofs: `phase_cost_correct` and `phase_words_spec` in
/// `proofs/Banks.v` prove the count the largest number of distinct words in one bank, and the bank
/// the least one with that many).
///
/// Pre: `w >= 1` (`w = 0` touches nothing: `(0, 0)`); `bytes[t] + w` below `u64::MAX`.
/// Post: `(wavefronts, bank)`. Example: `phase_wavefronts(&[0, 128, 256, 384], 4) == (4, 0)`.
#[doc(hidden)]
pub fn phase_wavefronts(bytes: &[u64], w: u64) -> (u64, u64) {
    let mut buf = Vec::new();
    if w > 0 {
        for (t, &b) in (0u64..).zip(bytes) {
            push_words(&mut buf, t, b, w, 0);
        }
    }
    phase_cost(&mut buf)
}

/// Counts the wavefronts of one phase from its `(thread, word, index)` accesses: the largest
/// number of distinct words in one bank. Returns `(wavefronts, bank)`, the bank the least one
/// with that many (`proofs/Banks.v`: `phase_cost_correct`).
pub(crate) fn phase_cost(words: &mut [(u64, u64, u64)]) -> (u64, u64) {
    words.sort_unstable_by_key(|&(_, w, _)| (w % BANKS, w));
    let mut best = (0u64, 0u64);
    let mut i = 0;
    while i < words.len() {
        let bank = words[i].1 % BANKS;
        let mut distinct = 0;
        let mut last = u64::MAX;
        while i < words.len() && words[i].1 % BANKS == bank {
            if words[i].1 != last {
                distinct += 1;
                last = words[i].1;
            }
            i += 1;
        }
        if distinct > best.0 {
            best = (distinct, bank);
        }
    }
    best
}

/// The bank-conflict analysis of an access (see the module documentation).
///
/// Pre: the TV layout has rank 2 and 32 threads; every (thread, value) lands in the domain (or the
/// atom tile); the instruction can move the element type at its width.
/// Post: equal to [`simulate`] (property-tested); `wavefronts ≥ ideal`.
///
/// ```
/// use tessera::banks::{analyze, Access, Dtype, Instr, Smem};
/// // Row-major 32×32 f32, each thread reads one element of column 0: 32-way conflict.
/// let smem = Smem::Plain("(32,32):(32,1)".parse().unwrap());
/// let acc = Access { tv: "(32,1):(1,0)".parse().unwrap(), instr: Instr::Shared { width: None }, atom: None };
/// let r = analyze(&smem, &acc, Dtype::parse("f32").unwrap()).unwrap();
/// assert_eq!((r.wavefronts, r.ideal), (32, 1));
/// ```
pub fn analyze(smem: &Smem, acc: &Access, dtype: Dtype) -> BResult<Report> {
    let g = Geometry::new(smem, acc, dtype)?;
    if let Some(r) = analyze_linear(smem, acc, &g, dtype)? {
        return Ok(r);
    }
    if let Some(r) = analyze_translates(smem, acc, &g, dtype)? {
        return Ok(r);
    }
    g.check_enumerable(smem, &acc.tv)?;
    let w = vector_width_enum(smem, &g, acc.instr, dtype)?;
    enumerate(smem, acc.instr, &g, w, "enumeration")
}

/// Atom instances on a plain layout with two leaf modes `(M,N):(a,b)`: the layout is additive, so
/// instance `(i, j)` reads instance 0's addresses shifted by `L(i·m, j·n)`. When every shift is a
/// multiple of 16 bytes, alignment and contiguity are those of instance 0 and a shift by whole
/// words only renames banks cyclically, so instance 0 is enumerated and its cost multiplied.
pub(crate) fn analyze_translates(
    smem: &Smem,
    acc: &Access,
    g: &Geometry,
    dtype: Dtype,
) -> BResult<Option<Report>> {
    let (Smem::Plain(l), Some((am, an))) = (smem, acc.atom) else {
        return Ok(None);
    };
    if g.instances <= 1 || l.is_leaf() || l.rank() != 2 || l.leaves().count() != 2 {
        return Ok(None);
    }
    let modes: Vec<crate::layout::Mode> = l.leaves().collect();
    let (bm, bn) = (g.shape.0 / am, g.shape.1 / an);
    for j in 0..bn {
        for i in 0..bm {
            let shift = (modes[0].stride as i128 * (i * am) as i128
                + modes[1].stride as i128 * (j * an) as i128)
                * g.elem as i128;
            if shift.rem_euclid(16) != 0 {
                return Ok(None);
            }
        }
    }
    let one = Geometry {
        instances: 1,
        ..g.clone()
    };
    one.check_enumerable(smem, &acc.tv)?;
    let w = vector_width_enum(smem, &one, acc.instr, dtype)?;
    let mut r = enumerate(
        smem,
        acc.instr,
        &one,
        w,
        "enumeration (one atom instance, the others are translates)",
    )?;
    r.instructions *= g.instances;
    r.wavefronts *= g.instances;
    r.ideal *= g.instances;
    Ok(Some(r))
}

/// Phase-by-phase enumeration (the fallback of [`analyze`]).
pub(crate) fn enumerate(
    smem: &Smem,
    instr: Instr,
    g: &Geometry,
    w: u64,
    method: &'static str,
) -> BResult<Report> {
    let n = w / g.elem;
    let per = g.values / n;
    let pt = instr.phase_threads(w);
    let phases = instr.active_threads() / pt;
    let words_per = w.div_ceil(WORD_BYTES);
    let mut buf: Vec<(u64, u64, u64)> = Vec::with_capacity((pt * words_per) as usize);
    let mut total = 0u64;
    let mut worst: Option<Worst> = None;
    for inst in 0..g.instances {
        for k in 0..per {
            for p in 0..phases {
                buf.clear();
                for t in p * pt..(p + 1) * pt {
                    let idx = g.index(inst, t, k * n)?;
                    let byte = smem.offset(idx)? * g.elem;
                    push_words(&mut buf, t, byte, w, idx);
                }
                let (c, bank) = phase_cost(&mut buf);
                total += c;
                if worst.as_ref().is_none_or(|x| c > x.wavefronts) {
                    worst = Some(Worst {
                        instance: inst,
                        instruction: k,
                        phase: p,
                        wavefronts: c,
                        bank,
                        hits: buf
                            .iter()
                            .filter(|h| h.1 % BANKS == bank)
                            .copied()
                            .collect(),
                    });
                }
            }
        }
    }
    let ideal = g.instances * per * phases;
    Ok(Report {
        vector_bytes: w,
        instructions: g.instances * per,
        phases,
        wavefronts: total,
        ideal,
        worst: worst.unwrap_or(Worst {
            instance: 0,
            instruction: 0,
            phase: 0,
            wavefronts: 0,
            bank: 0,
            hits: Vec::new(),
        }),
        method,
    })
}

/// The F2 path: `None` when some part of the access is not F2-linear.
pub(crate) fn analyze_linear(
    smem: &Smem,
    acc: &Access,
    g: &Geometry,
    dtype: Dtype,
) -> BResult<Option<Report>> {
    Ok(analyze_linear_traced(smem, acc, g, dtype)?.map(|(r, _)| r))
}

/// What [`analyze_linear`] computed a phase's count from (a hook for the bridge to the proofs:
/// `linear_per_phase_correct` in `proofs/BanksLinear.v` proves `per_phase` the enumeration's
/// count of every phase whose thread bytes are a translate of the span of `thread_bytes`).
#[doc(hidden)]
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct LinearTrace {
    /// `log2(sizeof(T))`: the span's first bits, the bytes of one element.
    pub elem_bits: u32,
    /// `value_byte[..nb]`: the byte offsets of the values of one vector (`elem << j`).
    pub value_bytes: Vec<u64>,
    /// `thread_byte[..log2(pt)]`: the byte offsets of the lanes of one phase.
    pub thread_bytes: Vec<u64>,
    /// The vector width `W`.
    pub vector_bytes: u64,
    /// `2^(rank(words) − rank(banks))`.
    pub per_phase: u64,
    /// The first phase's thread byte addresses, enumerated (`pt` of them).
    pub phase_bytes: Vec<u64>,
}

/// [`analyze`]'s F2 path with what it computed: `Ok(None)` when the access does not take it.
///
/// Pre: as [`analyze`]. Post: the report is `analyze`'s when it is `Some`. Example: a row-major
/// `(32,32):(32,1)` of `f32` read one column per thread (`(32,1):(1,0)`) takes it with
/// `per_phase == 32` and thread bytes `128, 256, .., 2048`.
#[doc(hidden)]
pub fn linear_trace(
    smem: &Smem,
    acc: &Access,
    dtype: Dtype,
) -> BResult<Option<(Report, LinearTrace)>> {
    let g = Geometry::new(smem, acc, dtype)?;
    let Some((r, mut trace)) = analyze_linear_traced(smem, acc, &g, dtype)? else {
        return Ok(None);
    };
    for t in 0..acc.instr.phase_threads(trace.vector_bytes) {
        trace
            .phase_bytes
            .push(smem.offset(g.index(0, t, 0)?)? * g.elem);
    }
    Ok(Some((r, trace)))
}

/// [`translate_trace`]'s answer: the report, the vector width, every phase's thread bytes.
#[doc(hidden)]
pub type TranslateTrace = (Report, u64, Vec<Vec<u64>>);

/// [`analyze`]'s translate path with every phase it stands for: `Ok(None)` when the access does
/// not take it (the F2 path or the enumeration answers it). Returns the report, the vector width
/// and the thread byte addresses of every phase of every instruction of every instance, enumerated
/// (a hook for the bridge to the proofs: `translate_phase_cost` in `proofs/BanksLinear.v` proves
/// each instance's phase costs instance 0's).
///
/// Pre: as [`analyze`]. Post: the report is `analyze`'s when it is `Some`. Example: a padded
/// `(32,16):(20,1)` of `f32` with a `16x8` atom read one element a thread takes it.
#[doc(hidden)]
pub fn translate_trace(smem: &Smem, acc: &Access, dtype: Dtype) -> BResult<Option<TranslateTrace>> {
    let g = Geometry::new(smem, acc, dtype)?;
    if analyze_linear(smem, acc, &g, dtype)?.is_some() {
        return Ok(None);
    }
    let Some(r) = analyze_translates(smem, acc, &g, dtype)? else {
        return Ok(None);
    };
    let w = r.vector_bytes;
    let n = w / g.elem;
    let pt = acc.instr.phase_threads(w);
    let mut phases = Vec::new();
    for inst in 0..g.instances {
        for k in 0..g.values / n {
            for p in 0..r.phases {
                let mut bytes = Vec::with_capacity(pt as usize);
                for t in p * pt..(p + 1) * pt {
                    bytes.push(smem.offset(g.index(inst, t, k * n)?)? * g.elem);
                }
                phases.push(bytes);
            }
        }
    }
    Ok(Some((r, w, phases)))
}

fn analyze_linear_traced(
    smem: &Smem,
    acc: &Access,
    g: &Geometry,
    dtype: Dtype,
) -> BResult<Option<(Report, LinearTrace)>> {
    let Some(sl) = smem.as_linear() else {
        return Ok(None);
    };
    let pow2 = |x: u64| x.is_power_of_two();
    if !pow2(g.values) || !pow2(g.elem) || !pow2(g.domain) {
        return Ok(None);
    }
    let Ok(tvl) = LinearLayout::from_layout(&acc.tv) else {
        return Ok(None);
    };
    let (am, an) = acc.atom.unwrap_or((g.domain, 1));
    if acc.atom.is_some() && !(pow2(am) && pow2(an) && pow2(g.shape.0) && pow2(g.shape.1)) {
        return Ok(None);
    }
    if sl.total_in_bits() != g.domain.trailing_zeros() {
        return Ok(None);
    }
    // Every piece is linear, so the composite (instance, thread, value) ↦ element offset is; its
    // bases are its values at single bits.
    let tv_bases: Vec<u64> = tvl.flat_bases().collect(); // 5 thread bits then value bits
    let tb = 5usize;
    let vb = g.values.trailing_zeros() as usize;
    if tv_bases.len() != tb + vb {
        return Ok(None);
    }
    let place = |a: u64, inst_bits: u64| -> u64 {
        match acc.atom {
            None => a,
            Some((am, _)) => {
                let bm = g.shape.0 / am;
                let (i, j) = (inst_bits % bm, inst_bits / bm);
                let (m, n) = (a % am, a / am);
                (i * am + m) + g.shape.0 * (j * an + n)
            }
        }
    };
    let off = |idx: u64| sl.apply_flat(idx);
    let eb = g.elem.trailing_zeros();
    let byte = |o: u64| o << eb;
    // Width: the widest W whose first log2(W) byte-bits are the identity and every other basis is
    // W-aligned.
    let value_byte: Vec<u64> = tv_bases[tb..]
        .iter()
        .map(|&b| byte(off(place(b, 0))))
        .collect();
    let thread_byte: Vec<u64> = tv_bases[..tb]
        .iter()
        .map(|&b| byte(off(place(b, 0))))
        .collect();
    let inst_bits = g.instances.trailing_zeros();
    let inst_byte: Vec<u64> = (0..inst_bits)
        .map(|i| byte(off(place(0, 1u64 << i))))
        .collect();
    let active = acc.instr.active_threads().trailing_zeros() as usize;
    let ok = |w: u64| -> BResult<Option<String>> {
        if let Some(why) = not_whole_elements(w, g.elem) {
            return Ok(Some(why));
        }
        let n = w / g.elem;
        let nb = n.trailing_zeros() as usize;
        if nb > vb {
            return Ok(Some(format!(
                "{} values per thread is not a multiple of {n}",
                g.values
            )));
        }
        for (j, &b) in value_byte[..nb].iter().enumerate() {
            if b != g.elem << j {
                // Not contiguous: report through the enumeration's wording.
                return Ok(Some(format!(
                    "value {} of every thread is at byte offset {} from value 0, not {} (not contiguous)",
                    1u64 << j,
                    b,
                    g.elem << j
                )));
            }
        }
        let others = value_byte[nb..]
            .iter()
            .chain(&thread_byte[..active])
            .chain(&inst_byte);
        for &b in others {
            if b % w != 0 {
                return Ok(Some(format!(
                    "a thread's group starts at a byte offset {b} apart, not a multiple of {w}"
                )));
            }
        }
        Ok(None)
    };
    let w = match pick_width(acc.instr, dtype, g.elem, ok) {
        Ok(w) => w,
        // The enumeration gives the error with the first offending thread.
        Err(e @ BankError::Misaligned { .. }) => {
            if g.check_enumerable(smem, &acc.tv).is_err() {
                return Err(e);
            }
            vector_width_enum(smem, g, acc.instr, dtype)?;
            return Ok(None);
        }
        Err(e) => return Err(e),
    };
    let n = w / g.elem;
    let nb = n.trailing_zeros() as usize;
    let pt = acc.instr.phase_threads(w);
    let phases = acc.instr.active_threads() / pt;
    let per = g.values / n;
    // The first phase's span: the bytes of one vector and the lanes of one phase.
    let mut span: Vec<u64> = (0..eb).map(|i| 1u64 << i).collect();
    span.extend_from_slice(&value_byte[..nb]);
    span.extend_from_slice(&thread_byte[..pt.trailing_zeros() as usize]);
    let words: Vec<u64> = span.iter().map(|b| b / WORD_BYTES).collect();
    let banks: Vec<u64> = words.iter().map(|w| w % BANKS).collect();
    let (rw, rb) = (f2_rank(&words), f2_rank(&banks));
    let per_phase = 1u64 << (rw - rb);
    let ideal = g.instances * per * phases;
    // The worst phase (all are equal): the first one, enumerated to name its threads.
    let mut first = enumerate_one(smem, acc.instr, g, w)?;
    first.wavefronts = per_phase;
    let (mut value_bytes, mut thread_bytes) = (value_byte, thread_byte);
    value_bytes.truncate(nb);
    thread_bytes.truncate(pt.trailing_zeros() as usize);
    let trace = LinearTrace {
        elem_bits: eb,
        value_bytes,
        thread_bytes,
        vector_bytes: w,
        per_phase,
        phase_bytes: Vec::new(),
    };
    Ok(Some((
        Report {
            vector_bytes: w,
            instructions: g.instances * per,
            phases,
            wavefronts: ideal * per_phase,
            ideal,
            worst: first,
            method: "f2-rank",
        },
        trace,
    )))
}

/// The first phase of the first instruction, enumerated (≤ 32 threads).
pub(crate) fn enumerate_one(smem: &Smem, instr: Instr, g: &Geometry, w: u64) -> BResult<Worst> {
    let pt = instr.phase_threads(w);
    let mut buf = Vec::new();
    for t in 0..pt {
        let idx = g.index(0, t, 0)?;
        let byte = smem.offset(idx)? * g.elem;
        push_words(&mut buf, t, byte, w, idx);
    }
    let (c, bank) = phase_cost(&mut buf);
    Ok(Worst {
        instance: 0,
        instruction: 0,
        phase: 0,
        wavefronts: c,
        bank,
        hits: buf
            .iter()
            .filter(|h| h.1 % BANKS == bank)
            .copied()
            .collect(),
    })
}
