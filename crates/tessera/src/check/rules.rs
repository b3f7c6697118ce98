//! Every obligation of a GEMM kernel: its code, what it checks, its verdict with a witness, a
//! runtime guard, or the candidate fixes that [`super::check`] re-checks.

use super::config::{Config, Epilogue, Extent, Fact, Kernel, Order, Stages, SwizzleBase};
use super::derive::{
    auto_epilogue_tile, auto_stages, epilogue_shape, gmma_name, k_major, mma_problem, parse_mma,
    parse_smem_atom, round_up, schedule_threads, select_smem_atom, sm80_atom_name, sm80_warps,
    stage_ab_bytes, EpilogueShape, Mma, SmemAtom,
};
use super::facts::{self, Elem};
use crate::tma;
use std::cell::Cell;

/// Every obligation code, in report order.
pub const CODES: &[&str] = &[
    "mma_atom",
    "tile_mma",
    "tile_smem_atom",
    "swizzle_match",
    "smem_alignment",
    "tma_descriptor",
    "gmem_alignment",
    "smem_capacity",
    "stages",
    "threads",
    "coverage",
    "epilogue_tile",
    "residue",
    "cluster",
    "multicast",
    "pipeline",
    "bank_conflicts",
    "gmem_coalescing",
];

/// An obligation's verdict.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Verdict {
    /// Holds for every problem the configuration admits.
    Proved,
    /// Fails; the witness shows where.
    Refuted,
    /// Holds iff the runtime guard holds.
    Runtime,
    /// Holds, but costs performance (bank conflicts, uncoalesced access, idle CTAs).
    Warning,
}

impl Verdict {
    /// `proved`, `refuted`, `runtime` or `warning`.
    ///
    /// Pre: none. Post: the JSON spelling. Example: `Verdict::Runtime.name() == "runtime"`.
    pub fn name(self) -> &'static str {
        match self {
            Verdict::Proved => "proved",
            Verdict::Refuted => "refuted",
            Verdict::Runtime => "runtime",
            Verdict::Warning => "warning",
        }
    }
}

/// A fix: changed field values, and whether `tessera check` re-checked it (always, when shown).
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Suggestion {
    /// What changes, in config words (`stages = 4`).
    pub text: String,
    /// `(field, new value)` pairs.
    pub changes: Vec<(String, String)>,
    /// Re-checked: the obligation is no longer refuted and nothing new is refuted.
    pub checked: bool,
}

/// One obligation's result.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Obligation {
    /// The code (`tile_mma`).
    pub code: &'static str,
    /// The verdict.
    pub verdict: Verdict,
    /// The config fields it concerns.
    pub fields: Vec<&'static str>,
    /// What holds or fails, naming values.
    pub message: String,
    /// Where it fails (refuted and warning).
    pub witness: Option<String>,
    /// The C expression over the problem's names that must hold (runtime).
    pub guard: Option<String>,
    /// Checked fixes (refuted).
    pub suggestions: Vec<Suggestion>,
}

/// Candidate fixes per refuted code.
pub type Candidates = Vec<(&'static str, Vec<Candidate>)>;

/// What [`run`] returns: the obligations, the candidate fixes, the derived kernel.
pub type Run = (Vec<Obligation>, Candidates, Derived);

/// A candidate fix before it is re-checked.
#[derive(Debug, Clone)]
pub struct Candidate {
    /// See [`Suggestion::text`].
    pub text: String,
    /// See [`Suggestion::changes`].
    pub changes: Vec<(String, String)>,
    /// The changed configuration.
    pub config: Config,
}

/// What the builder derives, for the report.
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct Derived {
    /// Threads per CTA.
    pub threads: u64,
    /// Stage count.
    pub stages: u64,
    /// Where the stage count came from.
    pub stages_source: String,
    /// A + B bytes of one stage (before rounding).
    pub stage_bytes: u64,
    /// The kernel's shared storage (`sizeof(GemmKernel::SharedStorage)` as modelled).
    pub smem_bytes: u64,
    /// `sizeof(CollectiveEpilogue::SharedStorage)` (1 for an epilogue without shared memory).
    pub epilogue_smem: u64,
    /// Its parts: `(what, bytes)`.
    pub smem_parts: Vec<(String, u64)>,
    /// Shared memory capacity.
    pub smem_capacity: u64,
    /// The MMA atom.
    pub mma: String,
    /// The TiledMma: atom layout and tile.
    pub tiled_mma: String,
    /// Smem layout atoms of A and B (CUTLASS name and CuTe notation).
    pub smem_layout_a: String,
    /// See [`Derived::smem_layout_a`].
    pub smem_layout_b: String,
    /// TMA descriptors (A, B, C, D) or gmem copies, one line each.
    pub copies: Vec<(String, String)>,
    /// Epilogue: schedule, tile, stages.
    pub epilogue: String,
    /// Grid and cluster tiling.
    pub grid: String,
    /// What guards the residues.
    pub residue: String,
    /// Bank conflict factors: `(access, factor)`.
    pub banks: Vec<(String, String)>,
}

/// Whether `d` divides an extent, given the facts.
enum Div {
    Yes,
    No(u64),
    Unknown(String),
}

fn divides(e: &Extent, d: u64, facts: &[Fact]) -> Div {
    if d <= 1 {
        return Div::Yes;
    }
    match e {
        Extent::Static(v) => {
            if v % d == 0 {
                Div::Yes
            } else {
                Div::No(*v)
            }
        }
        Extent::Runtime(n) => {
            for f in facts {
                match f {
                    Fact::Equals(m, v) if m == n => {
                        return if v % d == 0 { Div::Yes } else { Div::No(*v) };
                    }
                    Fact::Divisible(m, q) if m == n && q % d == 0 => return Div::Yes,
                    _ => {}
                }
            }
            Div::Unknown(format!("{n} % {d} == 0"))
        }
    }
}

/// The `divides` decision as text, for the bridge to the proofs (`tests/bridge.rs`): `Y`
/// (proved), `N v` (refuted: the extent is `v`) or the runtime guard.
///
/// Pre: none. Post: `check_divides` of `proofs/Check.v` on the same input (`divides_sound`).
/// Example: `divides_verdict(&Extent::Static(24), 16, &[]) == "N 24"`.
#[doc(hidden)]
pub fn divides_verdict(e: &Extent, d: u64, facts: &[Fact]) -> String {
    match divides(e, d, facts) {
        Div::Yes => "Y".into(),
        Div::No(v) => format!("N {v}"),
        Div::Unknown(g) => g,
    }
}

/// Whether an SM80 gmem copy of `tc` threads along the contiguous extent `contig`, each
/// copying `vec` elements, and `max(threads / tc, 1)` thread rows along `other`, writes every
/// element of the `contig × other` stage tile exactly once: three divisibility tests, which
/// `copy_decision_iff` (`proofs/Check.v`) proves equivalent to enumerating the copy.
///
/// Pre: `tc, vec >= 1`. Post: `threads % tc == 0 && contig % (tc·vec) == 0 && other % rows == 0`.
/// Example: `copy_covers(128, 8, 8, 64, 128) == true`.
#[doc(hidden)]
pub fn copy_covers(threads: u64, tc: u64, vec: u64, contig: u64, other: u64) -> bool {
    let rows = (threads / tc).max(1);
    threads.is_multiple_of(tc) && contig.is_multiple_of(tc * vec) && other.is_multiple_of(rows)
}

/// Whether the TiledMma (its `m × n` MMA atom repeated over `am × an` warps or warpgroups, each
/// taking a floor partition of whole atoms) computes every element of the `tm × tn` C tile by
/// exactly one (thread, value): the C part of the `coverage` obligation. `mma_decision_iff`
/// (`proofs/Check.v`) proves the test equivalent to enumerating the TiledMma, for every atom
/// whose C layout is a bijection (bridged in `tests/bridge/check.rs`).
///
/// Pre: none. Post: `m·am > 0 && n·an > 0 && tm % (m·am) == 0 && tn % (n·an) == 0` (products
/// saturate; a saturated product divides no tile below `u64::MAX`).
/// Example: `mma_covers(128, 128, 64, 128, 2, 1) == true`, `mma_covers(96, 128, 64, 128, 2, 1) == false`.
#[doc(hidden)]
pub fn mma_covers(tm: u64, tn: u64, m: u64, n: u64, am: u64, an: u64) -> bool {
    let (qm, qn) = (m.saturating_mul(am), n.saturating_mul(an));
    qm > 0 && qn > 0 && tm.is_multiple_of(qm) && tn.is_multiple_of(qn)
}

/// Whether a tile extent `t` is a whole number of TiledMma steps of `atom · warps` (the atom's
/// extent times the atom layout's along that dimension): `tile_mma`'s test on M, N and K. On K,
/// `k_decision_iff` (`proofs/CheckCover.v`) proves it equivalent to "every K slice of the tile is
/// consumed by exactly one (K step, atom, atom slice)", the K loop rounded down (bridged in
/// `tests/bridge/check.rs`).
///
/// Pre: none. Post: `atom·warps > 0 && t % (atom·warps) == 0` (the product saturates; a saturated
/// product divides no extent below `u64::MAX`).
/// Example: `tiled_extent_covers(64, 16, 1) == true`, `tiled_extent_covers(40, 16, 1) == false`.
#[doc(hidden)]
pub fn tiled_extent_covers(t: u64, atom: u64, warps: u64) -> bool {
    let q = atom.saturating_mul(warps);
    q > 0 && t.is_multiple_of(q)
}

/// Whether the `f` CTAs of a multicast group, each loading a box of `floor(ext / f)` rows (the
/// slice) of an operand's `ext`-row stage tile and multicasting it to the whole group, write every
/// element of each CTA's tile exactly once: the SM90 box part of `coverage`, whose negation the
/// `multicast` obligation refutes. `box_decision_iff` (`proofs/CheckCover.v`) proves the test
/// equivalent to enumerating the boxes (bridged in `tests/bridge/check.rs`).
///
/// Pre: none. Post: `f > 0 && ext % f == 0 && ext / f > 0`.
/// Example: `multicast_covers(128, 2) == true`, `multicast_covers(96, 64) == false`.
#[doc(hidden)]
pub fn multicast_covers(ext: u64, f: u64) -> bool {
    f > 0 && ext.is_multiple_of(f) && ext / f > 0
}

/// What the shared-storage byte sum of `smem_capacity` reads from a configuration (a hook for the
/// bridge to the proofs, `tests/bridge/check.rs`; `run` fills it).
#[doc(hidden)]
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct SmemInputs {
    /// An SM90 kernel (TMA, warp-specialized); otherwise SM80's multistage mainloop.
    pub sm90: bool,
    /// The kernel schedule (its `SharedStorage` layout).
    pub kernel: Kernel,
    /// A from registers (the RS mainloop aligns each buffer to its swizzle).
    pub rs: bool,
    /// Bytes of one stage of A and of B.
    pub sa: u64,
    /// See [`SmemInputs::sa`].
    pub sb: u64,
    /// The stage count.
    pub stages: u64,
    /// The swizzle repeat of A's and B's smem atoms, when they have one.
    pub repeat_a: Option<u64>,
    /// See [`SmemInputs::repeat_a`].
    pub repeat_b: Option<u64>,
    /// The TMA epilogue's `(tensor storage bytes, C stages, alignment)`, when it has one.
    pub epi: Option<(u64, u64, u64)>,
    /// SM80: bytes of one stage of A and B together.
    pub stage_bytes: u64,
}

/// The shared-storage byte sum of the `smem_capacity` obligation: CUTLASS's `SharedStorage` of
/// the kernel (mainloop A/B buffers per stage, epilogue tensors, pipeline barriers, the order
/// barriers and tile scheduler, each member at the next offset aligned to its alignment, each
/// struct padded to its own), with the parts listed for the report. `proofs/SmemSum.v`
/// transcribes it (`smem_sum`) and proves it the end of a layout of disjoint, aligned byte ranges
/// (`smem_sum_is_layout`, `smem_layout_disjoint`), growing with the stage count.
///
/// Pre: none. Post: the exact sum when it is below `u64::MAX` (every step saturates, so a sum
/// past it reads `u64::MAX` and exceeds every capacity). Example: SM80 with 2 stages of 32 KiB
/// gives 65,536.
#[doc(hidden)]
pub fn smem_sum(s: &SmemInputs) -> (u64, Vec<(String, u64)>) {
    let mut parts: Vec<(String, u64)> = Vec::new();
    let total = if s.sm90 {
        let a_bytes = s.sa.saturating_mul(s.stages);
        let b_bytes = s.sb.saturating_mul(s.stages);
        // SS mainloop: TensorStorage is an aligned_struct<128>; the RS mainloop aligns each
        // buffer and the struct to its swizzle (alignment_for_swizzle: the repeat, 128 for INTER).
        let rep = |r: Option<u64>| r.map_or(128, |r| r.max(128));
        let (align_a, align_b, main_align) = if s.rs {
            let (x, y) = (rep(s.repeat_a), rep(s.repeat_b));
            (x, y, x.max(y))
        } else {
            (16, 16, 128)
        };
        let main_tensors = round_up(
            round_up(round_up(a_bytes, align_a), align_b).saturating_add(b_bytes),
            main_align,
        );
        // Saturating throughout: a saturated sum exceeds every capacity below u64::MAX, so the
        // verdict stays that of the exact sum (a wrapped one could pass; `stages` is unbounded).
        let main_pipe = (2 * facts::MBARRIER_BYTES).saturating_mul(s.stages);
        let (epi_tensors, epi_pipe, epi_align) = match s.epi {
            Some((tensors, stages_c, align)) => (
                tensors,
                (2 * facts::MBARRIER_BYTES).saturating_mul(stages_c),
                align,
            ),
            None => (1, 1, 1),
        };
        parts.push((format!("A: {} stages × {}", s.stages, s.sa), a_bytes));
        parts.push((format!("B: {} stages × {}", s.stages, s.sb), b_bytes));
        parts.push((
            "mainloop barriers (full + empty per stage)".into(),
            main_pipe,
        ));
        parts.push((
            "epilogue storage (C/D buffers, fusion)".into(),
            if s.epi.is_some() { epi_tensors } else { 0 },
        ));
        parts.push((
            "epilogue load barriers".into(),
            if s.epi.is_some() { epi_pipe } else { 0 },
        ));
        // The TensorStorage aligns to the largest member alignment (128 for the mainloop,
        // alignment_for_swizzle of C/D for the epilogue).
        let t_align = epi_align.max(main_align);
        let sum = match s.kernel {
            Kernel::TmaWs => {
                // SharedStorage { union { mainloop; epilogue } tensors; pipelines { mainloop; epi_load } }.
                let tens = round_up(main_tensors.max(epi_tensors), t_align);
                let pipes = round_up(main_pipe, 16).saturating_add(round_up(epi_pipe, 16));
                round_up(tens.saturating_add(pipes), t_align)
            }
            _ => {
                // SharedStorage { pipelines { mainloop; epi_load; [math order]; load order };
                //   alignas(16) scheduler; TensorStorage { epilogue; mainloop } tensors }.
                let order = 2 * facts::MBARRIER_BYTES;
                let math = if s.kernel == Kernel::TmaWsPingpong {
                    4 * facts::MBARRIER_BYTES
                } else {
                    0
                };
                let pipelines = round_up(main_pipe, 16)
                    .saturating_add(round_up(epi_pipe, 16))
                    .saturating_add(round_up(order, 16))
                    .saturating_add(round_up(math, 16));
                let sched = 16;
                parts.push((
                    "order barriers and tile scheduler".into(),
                    order + math + sched,
                ));
                let offset = round_up(pipelines.saturating_add(sched), t_align);
                let tens = round_up(
                    round_up(epi_tensors, main_align).saturating_add(main_tensors),
                    t_align,
                );
                round_up(offset.saturating_add(tens), t_align)
            }
        };
        let listed = parts.iter().fold(0u64, |a, p| a.saturating_add(p.1));
        parts.push(("alignment padding".into(), sum.saturating_sub(listed)));
        sum
    } else {
        let main = s.stage_bytes.saturating_mul(s.stages);
        parts.push((
            format!("A + B: {} stages × {}", s.stages, s.stage_bytes),
            main,
        ));
        main
    };
    (total, parts)
}

/// The largest stage count in `[2, n − 1]` for which `fits` holds, `2` when none does (`n` itself
/// when `n <= 2`): a binary search, right when `fits` holds below some count and fails above it
/// (the byte sum grows with the stages: `smem_sum_monotone`; the search is `largest_fitting` of
/// `proofs/SmemSum.v`, proved in `largest_fitting_correct`).
///
/// Pre: `fits` is monotone (true, then false). Post: as above, with O(log n) calls.
/// Example: `largest_fitting(10, |s| s <= 6) == 6`.
#[doc(hidden)]
pub fn largest_fitting(n: u64, fits: impl Fn(u64) -> bool) -> u64 {
    if n <= 2 {
        return n;
    }
    let (mut lo, mut hi) = (2, n - 1);
    while lo < hi {
        let mid = lo + (hi - lo).div_ceil(2);
        if fits(mid) {
            lo = mid;
        } else {
            hi = mid - 1;
        }
    }
    lo
}

/// A representative value of an extent for descriptor rules (static value, a stated value, or
/// a multiple of the tile).
fn representative(e: &Extent, tile: u64, facts: &[Fact]) -> u64 {
    match e {
        Extent::Static(v) => *v,
        Extent::Runtime(n) => {
            for f in facts {
                if let Fact::Equals(m, v) = f {
                    if m == n {
                        return *v;
                    }
                }
            }
            let mut v = tile.max(1).saturating_mul(16);
            for f in facts {
                match f {
                    Fact::Divisible(m, q) if m == n => v = round_up(v, *q),
                    Fact::AtLeast(m, lo) if m == n => v = v.max(round_up(*lo, tile.max(1))),
                    _ => {}
                }
            }
            v
        }
    }
}

struct Ctx<'a> {
    c: &'a Config,
    out: Vec<Obligation>,
    cands: Vec<(&'static str, Vec<Candidate>)>,
}

impl Ctx<'_> {
    fn push(
        &mut self,
        code: &'static str,
        verdict: Verdict,
        fields: &[&'static str],
        message: String,
    ) -> usize {
        self.out.push(Obligation {
            code,
            verdict,
            fields: fields.to_vec(),
            message,
            witness: None,
            guard: None,
            suggestions: Vec::new(),
        });
        self.out.len() - 1
    }
    fn refute(
        &mut self,
        code: &'static str,
        fields: &[&'static str],
        message: String,
        witness: String,
    ) {
        let i = self.push(code, Verdict::Refuted, fields, message);
        self.out[i].witness = Some(witness);
    }
    fn runtime(
        &mut self,
        code: &'static str,
        fields: &[&'static str],
        message: String,
        guard: String,
    ) {
        let i = self.push(code, Verdict::Runtime, fields, message);
        self.out[i].guard = Some(guard);
    }
    fn warn(
        &mut self,
        code: &'static str,
        fields: &[&'static str],
        message: String,
        witness: String,
    ) {
        let i = self.push(code, Verdict::Warning, fields, message);
        self.out[i].witness = Some(witness);
    }
    fn cand(
        &mut self,
        code: &'static str,
        text: String,
        changes: &[(&str, String)],
        f: impl FnOnce(&mut Config),
    ) {
        let mut config = self.c.clone();
        f(&mut config);
        let cand = Candidate {
            text,
            changes: changes
                .iter()
                .map(|(k, v)| (k.to_string(), v.clone()))
                .collect(),
            config,
        };
        match self.cands.iter_mut().find(|(c, _)| *c == code) {
            Some((_, v)) => v.push(cand),
            None => self.cands.push((code, vec![cand])),
        }
    }
}

/// f32 operands of a tensor-core MMA are multiplied as tf32.
fn tf32(e: Elem) -> Elem {
    if e == Elem::F32 {
        Elem::Tf32
    } else {
        e
    }
}

fn elem_is_k_only(e: Elem) -> bool {
    e.bits() != 16
}

/// Runs every obligation; returns them, the candidate fixes per refuted code, and the derived
/// kernel.
///
/// Pre: none. Post: see [`super::check`]. Example: `run(&Config::sm90_example())`.
pub fn run(c: &Config) -> Run {
    let mut x = Ctx {
        c,
        out: Vec::with_capacity(24),
        cands: Vec::new(),
    };
    let mut d = Derived::default();
    let sm90 = c.kernel.is_tma();
    let [tm, tn, tk] = c.tile;
    let capacity = c
        .smem_capacity
        .or_else(|| facts::smem_capacity(c.sm))
        .unwrap_or(0);
    d.smem_capacity = capacity;

    // ---------------------------------------------------------------- arch and kernel
    if sm90 && !facts::has_tma(c.sm) {
        x.refute(
            "mma_atom",
            &["arch", "kernel"],
            format!(
                "kernel {} needs TMA and GMMA (sm90); arch is sm{}",
                c.kernel.name(),
                c.sm
            ),
            format!("sm{} has no TMA unit and no wgmma", c.sm),
        );
        x.cand(
            "mma_atom",
            "arch = \"sm90\"".into(),
            &[("arch", "sm90".into())],
            |k| k.sm = 90,
        );
        x.cand(
            "mma_atom",
            "kernel = \"cp_async_multistage\"".into(),
            &[("kernel", "cp_async_multistage".into())],
            |k| {
                k.kernel = Kernel::CpAsyncMultistage;
                k.epilogue = Epilogue::Sm80Default;
                k.cluster = [1, 1, 1];
            },
        );
    }
    if tm == 0 || tn == 0 || tk == 0 {
        x.refute(
            "tile_mma",
            &["tile"],
            format!("tile {tm}x{tn}x{tk} has an empty mode"),
            "tile extents must be positive".into(),
        );
        return finish(x, d);
    }

    // ---------------------------------------------------------------- mma_atom
    let ea = c.a.element;
    let eb = c.b.element;
    let a_k = k_major(true, c.a.layout);
    let b_k = k_major(false, c.b.layout);
    let mma: Mma = if sm90 {
        let k = (facts::GMMA_K_BYTES * 8) / ea.bits().max(1);
        let mut n = 0;
        let slice_n = tn / c.atom_layout.map_or(1, |l| l[1].max(1));
        let mut cand = facts::GMMA_N_MAX;
        while cand >= facts::GMMA_N_STEP {
            if slice_n.is_multiple_of(cand) {
                n = cand;
                break;
            }
            cand -= facts::GMMA_N_STEP;
        }
        let n = if n == 0 { slice_n.clamp(8, 256) } else { n };
        let rs = (elem_is_k_only(ea) || elem_is_k_only(eb)) && !(a_k && b_k);
        let derived = Mma {
            name: gmma_name(n, k, c.accumulator, tf32(ea), tf32(eb), rs),
            sm: 90,
            shape: [facts::GMMA_M, n, k],
            acc: c.accumulator,
            a: ea,
            b: eb,
            rs,
        };
        match &c.mma {
            Some(name) => match parse_mma(name) {
                Some(m) => m,
                None => {
                    x.refute(
                        "mma_atom",
                        &["mma"],
                        format!("mma = {name} is not an MMA atom name (SM90_64xNxK_<D><A><B>_SS or SM80_16x8xK_<D><A><B><C>_TN)"),
                        name.clone(),
                    );
                    derived
                }
            },
            None => derived,
        }
    } else {
        let inst = match ea {
            Elem::F16 | Elem::Bf16 => [16, 8, 16],
            Elem::Tf32 | Elem::F32 => [16, 8, 8],
            Elem::S8 | Elem::U8 | Elem::E4m3 | Elem::E5m2 => [16, 8, 32],
            _ => [8, 8, 4],
        };
        let derived = Mma {
            name: sm80_atom_name(inst, c.accumulator, ea, eb),
            sm: if matches!(ea, Elem::E4m3 | Elem::E5m2) {
                89
            } else {
                80
            },
            shape: inst,
            acc: c.accumulator,
            a: ea,
            b: eb,
            rs: false,
        };
        match c.mma.as_deref().and_then(parse_mma) {
            Some(m) => m,
            None => derived,
        }
    };
    d.mma = mma.name.clone();
    let mut mma_ok = true;
    if !x.out.iter().any(|o| o.code == "mma_atom") {
        let tf = |e: Elem| if e == Elem::F32 { Elem::Tf32 } else { e };
        if let Some(why) = mma_problem(&mma) {
            mma_ok = false;
            x.refute(
                "mma_atom",
                &["mma", "a.element", "b.element", "accumulator"],
                format!("{}: {why}", mma.name),
                why.clone(),
            );
        } else if (mma.sm >= 90) != sm90 || (mma.sm > c.sm) {
            mma_ok = false;
            x.refute(
                "mma_atom",
                &["mma", "arch", "kernel"],
                format!(
                    "{} is an sm{} instruction; the kernel is {} on sm{}",
                    mma.name,
                    mma.sm,
                    c.kernel.name(),
                    c.sm
                ),
                format!("{} on sm{}", mma.name, c.sm),
            );
        } else if tf(mma.a) != tf(ea) || tf(mma.b) != tf(eb) || mma.acc != c.accumulator {
            mma_ok = false;
            x.refute(
                "mma_atom",
                &["mma", "a.element", "b.element", "accumulator"],
                format!(
                    "{} takes {} × {} into {}; the configuration has {} × {} into {}",
                    mma.name,
                    mma.a.name(),
                    mma.b.name(),
                    mma.acc.name(),
                    ea.name(),
                    eb.name(),
                    c.accumulator.name()
                ),
                format!("A is {}, the atom reads {}", ea.name(), mma.a.name()),
            );
        } else if sm90 && !mma.rs && ((elem_is_k_only(ea) && !a_k) || (elem_is_k_only(eb) && !b_k))
        {
            mma_ok = false;
            let (op, lay) = if elem_is_k_only(ea) && !a_k {
                ("A", c.a.layout)
            } else {
                ("B", c.b.layout)
            };
            x.refute(
                "mma_atom",
                &["mma", "a.layout", "b.layout"],
                format!(
                    "{}: GMMA reads 8-bit and tf32 operands from shared memory K-major only; {op} is MN-major (layout {})",
                    mma.name,
                    if lay == Order::Row { "row" } else { "col" }
                ),
                format!("{op} MN-major with {}-bit elements in an SS GMMA", if op == "A" { ea.bits() } else { eb.bits() }),
            );
        } else {
            let note = if mma.rs && c.mma.is_none() {
                " (A through registers: the builder's RS mainloop transposes the MN-major operand)"
            } else {
                ""
            };
            x.push(
                "mma_atom",
                Verdict::Proved,
                &["mma", "a.element", "b.element", "accumulator"],
                format!(
                    "{} exists on sm{} for {} × {} → {}{note}",
                    mma.name,
                    c.sm,
                    ea.name(),
                    eb.name(),
                    c.accumulator.name()
                ),
            );
        }
    }
    if !mma_ok && c.mma.is_some() {
        let mut k = c.clone();
        k.mma = None;
        x.cand(
            "mma_atom",
            "mma = (derived by the builder)".into(),
            &[("mma", "auto".into())],
            |cfg| *cfg = k,
        );
    }

    // ---------------------------------------------------------------- TiledMma and tile_mma
    let atom_layout = c.atom_layout.unwrap_or(if sm90 {
        if c.kernel == Kernel::TmaWsCooperative {
            [2, 1, 1]
        } else {
            [1, 1, 1]
        }
    } else {
        sm80_warps(c.tile)
    });
    let tiled = [
        mma.shape[0].saturating_mul(atom_layout[0]),
        mma.shape[1].saturating_mul(atom_layout[1]),
        mma.shape[2].saturating_mul(atom_layout[2]),
    ];
    let mma_threads = mma
        .threads()
        .saturating_mul(atom_layout.iter().product::<u64>());
    d.tiled_mma = format!(
        "TiledMma<{}, Layout<Shape<_{},_{},_{}>>>: {}x{}x{} per step, {} threads",
        mma.name,
        atom_layout[0],
        atom_layout[1],
        atom_layout[2],
        tiled[0],
        tiled[1],
        tiled[2],
        mma_threads
    );
    let names = ["M", "N", "K"];
    // Two consumer warpgroups of 64 rows each step (`k_decision_iff` with atom 64, layout 2).
    if sm90
        && c.kernel == Kernel::TmaWsCooperative
        && c.atom_layout.is_none()
        && !tiled_extent_covers(tm, 64, 2)
    {
        x.refute(
            "tile_mma",
            &["tile", "kernel"],
            format!("the cooperative kernel splits tile M across 2 consumer warpgroups of 64 rows: tile M = {tm} is not a multiple of 128"),
            format!("tile M = {tm} < 128: the second warpgroup has no rows"),
        );
        x.cand(
            "tile_mma",
            "kernel = \"tma_warpspecialized_pingpong\"".into(),
            &[("kernel", "tma_warpspecialized_pingpong".into())],
            |k| {
                k.kernel = Kernel::TmaWsPingpong;
                if k.epilogue == Epilogue::TmaCooperative {
                    k.epilogue = Epilogue::Tma;
                }
            },
        );
        x.cand(
            "tile_mma",
            format!("tile = [{}, {tn}, {tk}]", round_up(tm, 128)),
            &[("tile", text(format!("[{}, {tn}, {tk}]", round_up(tm, 128))))],
            |k| k.tile[0] = round_up(tm, 128),
        );
    } else {
        let mut bad = Vec::new();
        #[allow(clippy::needless_range_loop)]
        for i in 0..3 {
            if !tiled_extent_covers(c.tile[i], mma.shape[i], atom_layout[i]) {
                bad.push(i);
            }
        }
        if let Some(&i) = bad.first() {
            let t = c.tile[i];
            let q = tiled[i].max(1);
            let what = if atom_layout[i] == 1 {
                format!("the MMA {} = {q} ({})", names[i], mma.name)
            } else {
                format!(
                    "the TiledMma {} = {q} ({} x {})",
                    names[i], atom_layout[i], mma.shape[i]
                )
            };
            x.refute(
                "tile_mma",
                &["tile", "mma", "atom_layout"],
                format!("tile {} = {t} is not a multiple of {what}", names[i]),
                format!(
                    "tile {} = {t} = {}·{q} + {}: {} {} of the tile are in no MMA",
                    names[i],
                    t / q,
                    t % q,
                    t % q,
                    ["rows", "columns", "K slices"][i]
                ),
            );
            for v in [t / q * q, round_up(t, q)] {
                if v > 0 && v != t {
                    let mut tile = c.tile;
                    tile[i] = v;
                    x.cand(
                        "tile_mma",
                        format!("tile = [{}, {}, {}]", tile[0], tile[1], tile[2]),
                        &[(
                            "tile",
                            text(format!("[{}, {}, {}]", tile[0], tile[1], tile[2])),
                        )],
                        |k| k.tile = tile,
                    );
                }
            }
            if c.mma.is_some() {
                x.cand(
                    "tile_mma",
                    "mma = (derived by the builder)".into(),
                    &[("mma", "auto".into())],
                    |k| k.mma = None,
                );
            }
            if c.atom_layout.is_some() {
                x.cand(
                    "tile_mma",
                    "atom_layout = (derived)".into(),
                    &[("atom_layout", "auto".into())],
                    |k| k.atom_layout = None,
                );
            }
        } else {
            x.push(
                "tile_mma",
                Verdict::Proved,
                &["tile", "mma", "atom_layout"],
                format!(
                    "tile {tm}x{tn}x{tk} = {}x{}x{} TiledMma steps of {}x{}x{}",
                    tm / tiled[0],
                    tn / tiled[1],
                    tk / tiled[2],
                    tiled[0],
                    tiled[1],
                    tiled[2]
                ),
            );
        }
    }

    // ---------------------------------------------------------------- smem atoms
    let atom_for = |is_a: bool| -> (Result<SmemAtom, u64>, bool) {
        let (op, e, mn) = if is_a { (&c.a, ea, tm) } else { (&c.b, eb, tn) };
        let km = k_major(is_a, op.layout);
        let given = if is_a {
            &c.smem_layout_a
        } else {
            &c.smem_layout_b
        };
        match given {
            Some(name) => (parse_smem_atom(name, e).ok_or(0), true),
            None => (
                select_smem_atom(e.bits(), km, if km { tk } else { mn }),
                false,
            ),
        }
    };
    let mut atoms: [Option<SmemAtom>; 2] = [None, None];
    for (i, is_a) in [true, false].into_iter().enumerate() {
        let opn = if is_a { "A" } else { "B" };
        let field: &'static str = if is_a {
            "smem_layout_a"
        } else {
            "smem_layout_b"
        };
        let e = if is_a { ea } else { eb };
        let mn = if is_a { tm } else { tn };
        let km = k_major(is_a, if is_a { c.a.layout } else { c.b.layout });
        match atom_for(is_a) {
            (Ok(a), given) => {
                let (contig, other) = if a.k_major { (tk, mn) } else { (mn, tk) };
                if a.k_major != km {
                    x.refute(
                        "tile_smem_atom",
                        &[field, if is_a { "a.layout" } else { "b.layout" }],
                        format!("{}: a {} atom for {opn}, which is {} in global memory; TMA copies boxes in the global order", a.name(e), if a.k_major { "K-major" } else { "MN-major" }, if km { "K-major" } else { "MN-major" }),
                        format!("smem majorness ≠ gmem majorness of {opn}"),
                    );
                    x.cand(
                        "tile_smem_atom",
                        format!("{field} = (derived)"),
                        &[(field, "auto".into())],
                        |k| {
                            if is_a {
                                k.smem_layout_a = None
                            } else {
                                k.smem_layout_b = None
                            }
                        },
                    );
                } else if contig % a.width != 0 || other % 8 != 0 {
                    let (ext, w) = if contig % a.width != 0 {
                        (contig, a.width)
                    } else {
                        (other, 8)
                    };
                    x.refute(
                        "tile_smem_atom",
                        &[field, "tile"],
                        format!("{} is {}x{}: it does not divide {opn}'s stage tile ({ext} is not a multiple of {w})", a.name(e), if a.k_major { 8 } else { a.width }, if a.k_major { a.width } else { 8 }),
                        format!("{ext} = {}·{w} + {}", ext / w, ext % w),
                    );
                    if given {
                        x.cand(
                            "tile_smem_atom",
                            format!("{field} = (derived)"),
                            &[(field, "auto".into())],
                            |k| {
                                if is_a {
                                    k.smem_layout_a = None
                                } else {
                                    k.smem_layout_b = None
                                }
                            },
                        );
                    }
                } else {
                    x.push(
                        "tile_smem_atom",
                        Verdict::Proved,
                        &[field, "tile"],
                        format!(
                            "{} ({}) divides {opn}'s {}x{} stage tile{}",
                            a.name(e),
                            a.cute(),
                            mn,
                            tk,
                            if given {
                                ""
                            } else {
                                " (ss_smem_selector: the widest swizzle that divides)"
                            }
                        ),
                    );
                    atoms[i] = Some(a);
                }
            }
            (Err(_), true) => {
                x.refute(
                    "tile_smem_atom",
                    &[field],
                    format!("{field}: `{}` is not a GMMA smem atom (GMMA::Layout_{{K,MN}}_{{INTER,SW32,SW64,SW128}}_Atom<T>)", if is_a { c.smem_layout_a.clone() } else { c.smem_layout_b.clone() }.unwrap_or_default()),
                    "unknown atom".into(),
                );
            }
            (Err(minw), false) => {
                let ext = if km { tk } else { mn };
                let which = if km {
                    "BLK_K"
                } else if is_a {
                    "BLK_M"
                } else {
                    "BLK_N"
                };
                x.refute(
                    "tile_smem_atom",
                    &["tile"],
                    format!("{which} = {ext} is not a multiple of {minw} ({}-byte INTER atom for {}): no smem atom divides {opn}'s tile", 16, e.name()),
                    format!("{ext} = {}·{minw} + {}", ext / minw, ext % minw),
                );
                let mut tile = c.tile;
                let idx = if km {
                    2
                } else if is_a {
                    0
                } else {
                    1
                };
                for v in [tile[idx] / minw * minw, round_up(tile[idx], minw)] {
                    if v > 0 {
                        tile[idx] = v;
                        x.cand(
                            "tile_smem_atom",
                            format!("tile = [{}, {}, {}]", tile[0], tile[1], tile[2]),
                            &[(
                                "tile",
                                text(format!("[{}, {}, {}]", tile[0], tile[1], tile[2])),
                            )],
                            |k| k.tile = tile,
                        );
                    }
                }
            }
        }
    }
    let desc = |a: Option<SmemAtom>, e: Elem| {
        a.map_or("(none)".to_string(), |a| {
            format!("{} = {}", a.name(e), a.cute())
        })
    };
    d.smem_layout_a = desc(atoms[0], ea);
    d.smem_layout_b = desc(atoms[1], eb);

    // ---------------------------------------------------------------- swizzle_match
    if sm90 {
        let mut all_ok = true;
        for (i, opn) in ["A", "B"].iter().enumerate() {
            let Some(a) = atoms[i] else { continue };
            let tma_sw = c.tma_swizzle[i].unwrap_or(a.swizzle);
            if tma_sw != a.swizzle {
                all_ok = false;
                let (frac, wit) = swizzle_disagreement(tma_sw, a.swizzle, a.bits);
                let field: &'static str = if i == 0 {
                    "tma_swizzle_a"
                } else {
                    "tma_swizzle_b"
                };
                x.refute(
                    "swizzle_match",
                    &[field, if i == 0 { "smem_layout_a" } else { "smem_layout_b" }],
                    format!(
                        "TMA writes {opn} with swizzle {} but the GMMA descriptor and the smem layout read {} ({}): {frac} of {opn}'s 16-byte chunks land elsewhere",
                        sw_name(tma_sw),
                        sw_name(a.swizzle),
                        a.cute()
                    ),
                    wit,
                );
                let s = sw_name(a.swizzle);
                x.cand(
                    "swizzle_match",
                    format!("{field} = \"{s}\""),
                    &[(field, s.to_string())],
                    |k| k.tma_swizzle[i] = Some(a.swizzle),
                );
            }
        }
        // A consumer slice must not split a swizzle atom (NVIDIA/Fuser#4771).
        for (i, opn) in ["A", "B"].iter().enumerate() {
            let Some(a) = atoms[i] else { continue };
            if a.k_major || a.swizzle == 0 {
                continue;
            }
            let split = atom_layout[i].max(1);
            let ext = if i == 0 { tm } else { tn };
            let slice = ext / split;
            if split > 1 && !slice.is_multiple_of(a.width) {
                all_ok = false;
                x.refute(
                    "swizzle_match",
                    &["atom_layout", if i == 0 { "smem_layout_a" } else { "smem_layout_b" }],
                    format!("each of {split} consumer slices takes {slice} of {opn}'s {ext} {}, which splits the {}-element {} swizzle atom (NVIDIA/Fuser#4771)", if i == 0 { "rows" } else { "columns" }, a.width, sw_name(a.swizzle)),
                    format!("slice 1 starts at {slice}, inside the atom [{}, {})", slice / a.width * a.width, slice / a.width * a.width + a.width),
                );
                x.cand(
                    "swizzle_match",
                    "atom_layout = (derived)".into(),
                    &[("atom_layout", "auto".into())],
                    |k| k.atom_layout = None,
                );
            }
        }
        if all_ok && atoms.iter().all(|a| a.is_some()) {
            x.push(
                "swizzle_match",
                Verdict::Proved,
                &["tma_swizzle_a", "tma_swizzle_b", "smem_layout_a", "smem_layout_b"],
                format!(
                    "TMA swizzle = smem swizzle = GMMA descriptor layout: A {}, B {} (make_tma_copy derives the TMA swizzle from the smem layout)",
                    sw_name(atoms[0].map_or(0, |a| a.swizzle)),
                    sw_name(atoms[1].map_or(0, |a| a.swizzle))
                ),
            );
        }
    }

    // ---------------------------------------------------------------- epilogue shape
    let epi: Option<EpilogueShape> = if sm90 && c.epilogue.is_tma() {
        let t = c.epilogue_tile.unwrap_or_else(|| auto_epilogue_tile(c));
        Some(epilogue_shape(c, t))
    } else {
        None
    };

    // ---------------------------------------------------------------- smem_alignment
    if sm90 {
        let mut ok_all = true;
        let bufs: Vec<(usize, &str, Option<SmemAtom>)> = {
            let mut v = vec![(0, "A", atoms[0]), (1, "B", atoms[1])];
            if let Some(e) = &epi {
                if c.c.element != Elem::Void {
                    v.push((2, "C", e.atom_c));
                }
                v.push((3, "D", e.atom_d));
            }
            v
        };
        let mut parts = Vec::new();
        for (i, opn, atom) in bufs {
            let Some(a) = atom else { continue };
            let need = match c.swizzle_base {
                SwizzleBase::Address => facts::TMA_SMEM_ALIGN,
                SwizzleBase::Offset => a.repeat_bytes().max(facts::TMA_SMEM_ALIGN),
            };
            // CUTLASS: A, B in an aligned_struct<128>; C, D alignas(alignment_for_swizzle).
            let have = c.smem_align[i].unwrap_or(if i < 2 {
                128
            } else {
                a.repeat_bytes().max(128)
            });
            let field: &'static str = [
                "smem_align_a",
                "smem_align_b",
                "smem_align_c",
                "smem_align_d",
            ][i];
            if !have.is_multiple_of(need) {
                ok_all = false;
                let why = if c.swizzle_base == SwizzleBase::Offset && need > facts::TMA_SMEM_ALIGN {
                    format!("the swizzle is computed from offsets relative to the buffer, so the {} buffer {opn} must start on its {need}-byte repeat (tile-ai/tilelang#2379)", sw_name(a.swizzle))
                } else {
                    format!("a TMA destination must be {need}-byte aligned")
                };
                x.refute(
                    "smem_alignment",
                    &[field, "swizzle_base"],
                    format!("smem buffer {opn} is {have}-byte aligned: {why}"),
                    format!("base ≡ {} (mod {need}): the hardware swizzle phase at the base is {}, the formula assumes 0", have % need, (have % need) / 128 % 8),
                );
                x.cand(
                    "smem_alignment",
                    format!("{field} = {need}"),
                    &[(field, need.to_string())],
                    |k| k.smem_align[i] = Some(need),
                );
            } else {
                parts.push(format!("{opn} {have} B (needs {need})"));
            }
        }
        if ok_all {
            x.push(
                "smem_alignment",
                Verdict::Proved,
                &["smem_align_a", "smem_align_b", "swizzle_base"],
                format!(
                    "{}; {}",
                    parts.join(", "),
                    if c.swizzle_base == SwizzleBase::Address {
                        "TMA and GMMA both swizzle by address bits, so 128 B suffices"
                    } else {
                        "offset-based swizzle: each buffer sits on its swizzle repeat"
                    }
                ),
            );
        }
    }

    // ---------------------------------------------------------------- tma_descriptor
    let l_ext = &c.problem[3];
    let rep = |i: usize, t: u64| representative(&c.problem[i], t, &c.assume);
    if sm90 {
        let mut tma_ok = true;
        let mut lines = Vec::new();
        let mc = [c.cluster[1].max(1), c.cluster[0].max(1)];
        for (i, opn) in ["A", "B"].iter().enumerate() {
            let Some(a) = atoms[i] else { continue };
            let (e, o, mn_i, mn_t) = if i == 0 {
                (ea, c.a.layout, 0, tm)
            } else {
                (eb, c.b.layout, 1, tn)
            };
            let km = k_major(i == 0, o);
            let Some(dt) = tma_dtype(e) else { continue };
            let (mext, kext) = (rep(mn_i, mn_t), rep(2, tk));
            let lrep = rep(3, 1);
            let sw = c.tma_swizzle[i].unwrap_or(a.swizzle);
            let inner_w = if a.swizzle == 0 {
                if km {
                    tk
                } else {
                    mn_t
                }
            } else {
                a.width
            };
            let (shape, boxd) = if km {
                (
                    vec![lrep, mext, kext],
                    vec![1, mn_t / mc[i], inner_w.min(if km { tk } else { mn_t })],
                )
            } else {
                (
                    vec![lrep, kext, mext],
                    vec![1, tk, inner_w.min(mn_t / mc[i])],
                )
            };
            let mut r = tma::Request::new(dt, &shape, &boxd);
            r.swizzle = tma_sw(sw);
            r.sm = 90;
            let errs: Vec<_> = tma::check(&r)
                .into_iter()
                .filter(|(_, s)| *s == tma::Severity::Error)
                .collect();
            lines.push((
                format!("tma_{}", opn.to_ascii_lowercase()),
                format!(
                    "{} tensor {:?} box {:?} swizzle {}{}",
                    dt.name(),
                    shape,
                    boxd,
                    sw_name(sw),
                    if mc[i] > 1 {
                        format!(", multicast x{}", mc[i])
                    } else {
                        String::new()
                    }
                ),
            ));
            if let Some((e0, _)) = errs.first() {
                tma_ok = false;
                x.refute(
                    "tma_descriptor",
                    &[if i == 0 { "tma_swizzle_a" } else { "tma_swizzle_b" }, "tile", "cluster"],
                    format!("the TMA descriptor of {opn} (tensor {:?}, box {:?}, swizzle {}) is refused by the driver: {e0}", shape, boxd, sw_name(sw)),
                    format!("{}: {e0}", e0.code()),
                );
                if c.tma_swizzle[i].is_some() {
                    x.cand(
                        "tma_descriptor",
                        format!("tma_swizzle_{} = (derived)", opn.to_ascii_lowercase()),
                        &[(
                            if i == 0 {
                                "tma_swizzle_a"
                            } else {
                                "tma_swizzle_b"
                            },
                            "auto".into(),
                        )],
                        |k| k.tma_swizzle[i] = None,
                    );
                }
            }
        }
        if let Some(ep) = &epi {
            for (i, opn, op) in [(2usize, "C", c.c), (3, "D", c.d)] {
                let Some(a) = (if i == 2 { ep.atom_c } else { ep.atom_d }) else {
                    continue;
                };
                let Some(dt) = tma_dtype(op.element) else {
                    continue;
                };
                let (mr, nr) = (rep(0, tm), rep(1, tn));
                let sw = c.tma_swizzle[i].unwrap_or(a.swizzle);
                let (shape, boxd) = if op.layout == Order::Row {
                    (
                        vec![rep(3, 1), mr, nr],
                        vec![
                            1,
                            ep.tile[0],
                            ep.tile[1].min(if a.swizzle == 0 { ep.tile[1] } else { a.width }),
                        ],
                    )
                } else {
                    (
                        vec![rep(3, 1), nr, mr],
                        vec![
                            1,
                            ep.tile[1],
                            ep.tile[0].min(if a.swizzle == 0 { ep.tile[0] } else { a.width }),
                        ],
                    )
                };
                let mut r = tma::Request::new(dt, &shape, &boxd);
                r.swizzle = tma_sw(sw);
                let errs: Vec<_> = tma::check(&r)
                    .into_iter()
                    .filter(|(_, s)| *s == tma::Severity::Error)
                    .collect();
                lines.push((
                    format!("tma_{}", opn.to_ascii_lowercase()),
                    format!(
                        "{} tensor {:?} box {:?} swizzle {}",
                        dt.name(),
                        shape,
                        boxd,
                        sw_name(sw)
                    ),
                ));
                if let Some((e0, _)) = errs.first() {
                    tma_ok = false;
                    x.refute(
                        "tma_descriptor",
                        &["epilogue.tile", if i == 2 { "tma_swizzle_c" } else { "tma_swizzle_d" }],
                        format!("the TMA descriptor of {opn} (tensor {:?}, box {:?}, swizzle {}) is refused by the driver: {e0}", shape, boxd, sw_name(sw)),
                        format!("{}: {e0}", e0.code()),
                    );
                    if c.tma_swizzle[i].is_some() {
                        x.cand(
                            "tma_descriptor",
                            format!("tma_swizzle_{} = (derived)", opn.to_ascii_lowercase()),
                            &[("tma_swizzle", "auto".into())],
                            |k| k.tma_swizzle[i] = None,
                        );
                    }
                }
            }
        }
        if tma_ok && !lines.is_empty() {
            x.push(
                "tma_descriptor",
                Verdict::Proved,
                &["tile", "cluster", "tma_swizzle_a", "tma_swizzle_b"],
                format!("{} descriptor(s) pass every cuTensorMapEncodeTiled rule (runtime extents at representative values; their strides are gmem_alignment's)", lines.len()),
            );
        }
        d.copies = lines;
    }
    let _ = l_ext;

    // ---------------------------------------------------------------- gmem_alignment
    {
        let mut guards = Vec::new();
        let mut refuted = false;
        let tma_epi = sm90 && c.epilogue.is_tma();
        for (i, opn, op, is_a) in [
            (0usize, "A", c.a, Some(true)),
            (1, "B", c.b, Some(false)),
            (2, "C", c.c, None),
            (3, "D", c.d, None),
        ] {
            if op.element == Elem::Void {
                continue;
            }
            let bits = op.element.bits().max(1);
            let field: &'static str =
                ["a.alignment", "b.alignment", "c.alignment", "d.alignment"][i];
            let by_tma = if i < 2 { sm90 } else { tma_epi };
            let align_bits = op.alignment.saturating_mul(bits);
            if i < 2 && sm90 && align_bits % 128 != 0 {
                refuted = true;
                let want = 128 / bits;
                x.refute(
                    "gmem_alignment",
                    &[field],
                    format!("Alignment{opn} = {} ({} bytes): TMA needs 16-byte aligned rows (CollectiveBuilder: is_aligned<…, tma_alignment_bytes = 16>)", op.alignment, align_bits / 8),
                    format!("{} × {} bits = {} bits, not a multiple of 128", op.alignment, bits, align_bits),
                );
                x.cand(
                    "gmem_alignment",
                    format!("{field} = {want}"),
                    &[(field, want.to_string())],
                    |k| match i {
                        0 => k.a.alignment = want,
                        _ => k.b.alignment = want,
                    },
                );
                continue;
            }
            if !sm90 && i < 2 && (align_bits % 32 != 0 || align_bits > 128) {
                refuted = true;
                x.refute(
                    "gmem_alignment",
                    &[field],
                    format!(
                        "Alignment{opn} = {} ({} bits): cp.async copies 4, 8 or 16 bytes",
                        op.alignment, align_bits
                    ),
                    format!("{align_bits} bits per vector"),
                );
                let want = 128 / bits;
                x.cand(
                    "gmem_alignment",
                    format!("{field} = {want}"),
                    &[(field, want.to_string())],
                    |k| match i {
                        0 => k.a.alignment = want,
                        _ => k.b.alignment = want,
                    },
                );
                continue;
            }
            // The contiguous extent: A row → K, A col → M; B col → K, B row → N; C/D row → N, col → M.
            let ext_i = match is_a {
                Some(true) => {
                    if op.layout == Order::Row {
                        2
                    } else {
                        0
                    }
                }
                Some(false) => {
                    if op.layout == Order::Col {
                        2
                    } else {
                        1
                    }
                }
                None => {
                    if op.layout == Order::Row {
                        1
                    } else {
                        0
                    }
                }
            };
            let need = if by_tma {
                op.alignment.max(128 / bits)
            } else {
                op.alignment
            };
            match divides(&c.problem[ext_i], need, &c.assume) {
                Div::Yes => {}
                Div::No(v) => {
                    refuted = true;
                    let stride = v.saturating_mul(bits) / 8;
                    x.refute(
                        "gmem_alignment",
                        &["problem", field],
                        format!(
                            "{opn} is {}: its leading dimension {} = {v} must be a multiple of {need} ({}){}",
                            if op.layout == Order::Row { "row-major" } else { "column-major" },
                            names[ext_i],
                            if by_tma { "TMA strides are multiples of 16 bytes" } else { "the vector alignment" },
                            if by_tma && need > op.alignment { format!("; Alignment{opn} = {} alone does not ensure it (NVIDIA/cutlass PR #2283)", op.alignment) } else { String::new() }
                        ),
                        format!("{} = {v}: row stride {stride} bytes ≡ {} (mod 16)", names[ext_i], stride % 16),
                    );
                }
                Div::Unknown(g) => guards.push((g, opn, by_tma && need > op.alignment)),
            }
        }
        if !refuted {
            if guards.is_empty() {
                x.push("gmem_alignment", Verdict::Proved, &["problem", "a.alignment", "b.alignment", "c.alignment", "d.alignment"], "every leading dimension meets its alignment (TMA: 16-byte strides; cp.async: the vector)".into());
            } else {
                let mut gs: Vec<String> = Vec::new();
                for (g, _, _) in &guards {
                    if !gs.contains(g) {
                        gs.push(g.clone());
                    }
                }
                let ops: Vec<&str> = guards.iter().map(|(_, o, _)| *o).collect();
                let pr = guards.iter().any(|(_, _, p)| *p);
                x.runtime(
                    "gmem_alignment",
                    &["problem", "a.alignment", "b.alignment", "c.alignment", "d.alignment"],
                    format!(
                        "the leading dimensions of {} must be multiples of their alignment{}",
                        ops.join(", "),
                        if pr { " (TMA needs 16-byte strides, more than the declared alignment: NVIDIA/cutlass PR #2283)" } else { "" }
                    ),
                    gs.join(" && "),
                );
            }
        }
    }

    // ---------------------------------------------------------------- stages and smem_capacity
    let (sa, sb) = stage_ab_bytes(c);
    d.stage_bytes = sa.saturating_add(sb);
    let epi_carveout = match &epi {
        Some(e) => e.shared_storage,
        None => 1,
    };
    d.epilogue_smem = epi_carveout;
    let (stages, source) = match c.stages {
        Stages::Fixed(n) => (n, format!("StageCount<{n}> (given)")),
        Stages::Auto if sm90 => {
            let s = auto_stages(capacity, epi_carveout, d.stage_bytes);
            (s, format!("StageCountAutoCarveout<{epi_carveout}> (sizeof the epilogue's SharedStorage): ({} − {}) / ({} + 16) = {s}", capacity / 128 * 128, round_up(epi_carveout, 128), round_up(d.stage_bytes, 128)))
        }
        Stages::Auto => {
            let s = capacity / d.stage_bytes.max(1);
            (
                s,
                format!(
                    "capacity / stage bytes = {capacity} / {} = {s}",
                    d.stage_bytes
                ),
            )
        }
        Stages::Carveout(b) => {
            let s = auto_stages(capacity, b, d.stage_bytes);
            (
                s,
                format!(
                    "StageCountAutoCarveout<{b}>: ({} − {}) / ({} + 16) = {s}",
                    capacity / 128 * 128,
                    round_up(b, 128),
                    round_up(d.stage_bytes, 128)
                ),
            )
        }
    };
    d.stages = stages;
    d.stages_source = source.clone();
    if stages < 2 {
        x.refute(
            "stages",
            &["stages"],
            format!("{stages} stage(s): the multistage pipeline needs at least 2 (\"Specialization requires Stages set to value 2 or more\"); {source}"),
            format!("stages = {stages}"),
        );
        x.cand(
            "stages",
            "stages = 2".into(),
            &[("stages", "2".into())],
            |k| k.stages = Stages::Fixed(2),
        );
        let half = c.tile[2] / 2;
        if half >= 8 {
            x.cand(
                "stages",
                format!("tile = [{tm}, {tn}, {half}]"),
                &[("tile", text(format!("[{tm}, {tn}, {half}]")))],
                |k| k.tile[2] = half,
            );
        }
    } else {
        x.push(
            "stages",
            Verdict::Proved,
            &["stages"],
            format!("{stages} stages ({source})"),
        );
    }
    let smem_in = SmemInputs {
        sm90,
        kernel: c.kernel,
        rs: mma.rs,
        sa,
        sb,
        stages,
        repeat_a: atoms[0].map(|a| a.repeat_bytes()),
        repeat_b: atoms[1].map(|a| a.repeat_bytes()),
        epi: epi
            .as_ref()
            .map(|e| (e.tensor_storage, e.stages_c, e.align)),
        stage_bytes: d.stage_bytes,
    };
    let (total, parts) = smem_sum(&smem_in);
    d.smem_bytes = total;
    d.smem_parts = parts.clone();
    if capacity == 0 {
        x.refute(
            "smem_capacity",
            &["arch", "smem_capacity"],
            format!("no shared-memory capacity known for sm{}", c.sm),
            "give smem_capacity".into(),
        );
    } else if total > capacity {
        let sum: Vec<String> = parts
            .iter()
            .filter(|p| p.1 > 0)
            .map(|p| format!("{} {}", p.0, p.1))
            .collect();
        x.refute(
            "smem_capacity",
            &["stages", "tile", "smem_capacity"],
            format!(
                "shared storage {total} B exceeds sm{}'s {capacity} B by {} B",
                c.sm,
                total - capacity
            ),
            format!("{} = {total} > {capacity}", sum.join(" + ")),
        );
        if let (Stages::Fixed(n), false) = (c.stages, LITE.with(Cell::get)) {
            // Largest stage count below n that fits, else 2 (checked again). The byte sum grows
            // with the stages, so a binary search finds it in O(log n) runs; inside those runs
            // (`LITE`) no search starts, which kept this from recursing (2^n runs).
            let fits = |s: u64| {
                let mut k = c.clone();
                k.stages = Stages::Fixed(s);
                run_lite(&k).2 <= capacity
            };
            let s = largest_fitting(n, fits);
            if s < n {
                x.cand(
                    "smem_capacity",
                    format!("stages = {s}"),
                    &[("stages", s.to_string())],
                    |k| k.stages = Stages::Fixed(s),
                );
            }
            if sm90 {
                x.cand(
                    "smem_capacity",
                    "stages = \"auto\"".into(),
                    &[("stages", "auto".into())],
                    |k| k.stages = Stages::Auto,
                );
            }
        }
        let half = tk / 2;
        if half >= 16 {
            x.cand(
                "smem_capacity",
                format!("tile = [{tm}, {tn}, {half}]"),
                &[("tile", text(format!("[{tm}, {tn}, {half}]")))],
                |k| k.tile[2] = half,
            );
        }
    } else {
        x.push(
            "smem_capacity",
            Verdict::Proved,
            &["stages", "tile", "smem_capacity"],
            format!(
                "shared storage {total} B ≤ sm{}'s {capacity} B ({} B free)",
                c.sm,
                capacity - total
            ),
        );
    }

    // ---------------------------------------------------------------- threads
    let threads = schedule_threads(c, mma_threads);
    d.threads = threads;
    let expected_mma = match c.kernel {
        Kernel::TmaWsCooperative => 2 * facts::WARPGROUP,
        Kernel::TmaWs | Kernel::TmaWsPingpong => facts::WARPGROUP,
        _ => mma_threads,
    };
    if let Some(t) = c.threads.filter(|t| *t != threads) {
        x.refute(
            "threads",
            &["threads", "kernel", "atom_layout"],
            format!(
                "threads = {t}, but {} launches {threads} ({})",
                c.kernel.name(),
                threads_why(c, mma_threads)
            ),
            format!("{t} ≠ {threads}"),
        );
        x.cand(
            "threads",
            format!("threads = {threads}"),
            &[("threads", threads.to_string())],
            |k| k.threads = Some(threads),
        );
    } else if sm90 && mma_threads != expected_mma {
        x.refute(
            "threads",
            &["atom_layout", "kernel"],
            format!(
                "the {} schedule runs {expected_mma} MMA threads, the TiledMma needs {mma_threads}",
                c.kernel.name()
            ),
            format!("{mma_threads} ≠ {expected_mma}"),
        );
        x.cand(
            "threads",
            "atom_layout = (derived)".into(),
            &[("atom_layout", "auto".into())],
            |k| k.atom_layout = None,
        );
    } else if threads > 1024 {
        x.refute(
            "threads",
            &["atom_layout"],
            format!("{threads} threads per CTA exceed 1024"),
            format!("{threads} > 1024"),
        );
    } else {
        x.push(
            "threads",
            Verdict::Proved,
            &["threads", "kernel"],
            format!("{threads} threads: {}", threads_why(c, mma_threads)),
        );
    }

    // ---------------------------------------------------------------- coverage
    {
        let mut fails = false;
        let c_covered = mma_covers(
            tm,
            tn,
            mma.shape[0],
            mma.shape[1],
            atom_layout[0],
            atom_layout[1],
        );
        if !c_covered {
            fails = true;
            // Which coordinate of C no (thread, value) writes when partitions round down (a
            // zero TiledMma extent is `tile_mma`'s refutation).
            let i = (0..2).find(|&i| tiled[i] > 0 && !c.tile[i].is_multiple_of(tiled[i]));
            if let Some(i) = i {
                let full = c.tile[i] / tiled[i] * tiled[i];
                let coord = if i == 0 {
                    format!("C({full}, 0)")
                } else {
                    format!("C(0, {full})")
                };
                let over = round_up(c.tile[i], tiled[i]);
                x.refute(
                    "coverage",
                    &["tile", "atom_layout", "threads"],
                    format!(
                        "the TiledMma ({}x{} per step) does not cover the {tm}x{tn} C tile exactly: {} {}..{} are written by no (thread, value) when the partition rounds down (tile-ai/tilelang#2537), and CuTe's rounded-up partition computes {}..{} outside the tile",
                        tiled[0], tiled[1],
                        if i == 0 { "rows" } else { "columns" },
                        full, c.tile[i] - 1, c.tile[i], over - 1
                    ),
                    format!("{coord} written 0 times"),
                );
            } else {
                fails = false;
            }
        }
        // Per-stage smem coverage by the copies.
        if !fails {
            let mut notes = Vec::new();
            if sm90 {
                for (i, opn) in ["A", "B"].iter().enumerate() {
                    let mcf = if i == 0 {
                        c.cluster[1].max(1)
                    } else {
                        c.cluster[0].max(1)
                    };
                    let ext = if i == 0 { tm } else { tn };
                    if multicast_covers(ext, mcf) {
                        notes.push(format!(
                            "{opn}: {mcf} box(es) of {} × K per stage, each element once",
                            ext / mcf
                        ));
                    }
                }
            } else {
                for (i, opn) in ["A", "B"].iter().enumerate() {
                    let op = if i == 0 { c.a } else { c.b };
                    let km = k_major(i == 0, op.layout);
                    let mn = if i == 0 { tm } else { tn };
                    let (contig, other) = if km { (tk, mn) } else { (mn, tk) };
                    let given = if i == 0 { c.gmem_copy_a } else { c.gmem_copy_b };
                    let vec = given.map_or(
                        op.alignment.min(128 / op.element.bits().max(1)).max(1),
                        |g| g[1].max(1),
                    );
                    let tc = given.map_or_else(
                        || {
                            let mut t = 1;
                            while t * 2 <= threads && contig % (t * 2 * vec) == 0 {
                                t *= 2;
                            }
                            t
                        },
                        |g| g[0].max(1),
                    );
                    let rows = (threads / tc).max(1);
                    if !copy_covers(threads, tc, vec, contig, other) {
                        fails = true;
                        let (what, wit) = if contig % (tc * vec) != 0 {
                            let cov = contig / (tc * vec) * tc * vec;
                            (format!("{tc} threads × {vec} elements = {} do not divide the contiguous extent {contig}", tc * vec), format!("{opn} element {cov} of each row written 0 times (rounded down) or 2 (wrapped)"))
                        } else if !threads.is_multiple_of(tc) {
                            (
                                format!("{threads} threads are not a whole number of rows of {tc}"),
                                format!("thread {} has no row", threads / tc * tc),
                            )
                        } else {
                            (
                                format!(
                                    "{rows} thread rows do not divide the other extent {other}"
                                ),
                                format!("{opn} row {} written 0 times", other / rows * rows),
                            )
                        };
                        let field: &'static str =
                            if i == 0 { "gmem_copy_a" } else { "gmem_copy_b" };
                        x.refute("coverage", &[field, "tile", "threads"], format!("{opn}'s gmem copy does not cover its {mn}x{tk} stage tile exactly once: {what}"), wit);
                        x.cand(
                            "coverage",
                            format!("{field} = (derived)"),
                            &[(field, "auto".into())],
                            |k| {
                                if i == 0 {
                                    k.gmem_copy_a = None
                                } else {
                                    k.gmem_copy_b = None
                                }
                            },
                        );
                    } else {
                        notes.push(format!(
                            "{opn}: {tc}x{rows} threads × {vec} elements, {} copies per stage",
                            (contig / (tc * vec)) * (other / rows)
                        ));
                    }
                    d.copies.push((
                        format!("gmem_{}", opn.to_ascii_lowercase()),
                        format!(
                            "cp.async {} bytes, {tc} threads along the contiguous extent × {rows}",
                            vec * op.element.bits() / 8
                        ),
                    ));
                }
            }
            if !fails {
                x.push(
                    "coverage",
                    Verdict::Proved,
                    &["tile", "atom_layout", "threads"],
                    format!(
                        "each C element is computed by exactly one (thread, value): the atom's C layout is a bijection onto {}x{} and the tile is {}x{} TiledMma tiles; {}",
                        mma.shape[0], mma.shape[1], tm / tiled[0].max(1), tn / tiled[1].max(1), notes.join("; ")
                    ),
                );
            }
        }
    }

    // ---------------------------------------------------------------- epilogue_tile
    if let Some(ep) = &epi {
        let t = ep.tile;
        let mut bad = None;
        // Each dimension is a loop of whole epilogue tiles (`k_decision_iff` with one "atom").
        if !tiled_extent_covers(tm, t[0], 1) || !tiled_extent_covers(tn, t[1], 1) {
            bad = Some(format!("epilogue tile {}x{} does not divide the CTA tile {tm}x{tn} (\"EPI_TILE_N must divide CTA_N\"; NVIDIA/cutlass#2133)", t[0], t[1]));
        } else if c.epilogue_tile.is_some() {
            let want_m = if c.epilogue == Epilogue::TmaCooperative {
                128
            } else {
                64
            };
            if t[0] != want_m.min(tm) || t[1] % 16 != 0 {
                bad = Some(format!("epilogue tile {}x{}: the {} epilogue takes M = {} and N a multiple of 16 (\"Unsupported tile shape\")", t[0], t[1], c.epilogue.name(), want_m));
            }
        }
        if let Some(m) = bad {
            x.refute(
                "epilogue_tile",
                &["epilogue.tile", "tile"],
                m,
                format!(
                    "{tm} % {} = {}, {tn} % {} = {}",
                    t[0],
                    tm % t[0].max(1),
                    t[1],
                    tn % t[1].max(1)
                ),
            );
            x.cand(
                "epilogue_tile",
                "epilogue.tile = \"auto\"".into(),
                &[("epilogue.tile", "auto".into())],
                |k| k.epilogue_tile = None,
            );
        } else {
            x.push(
                "epilogue_tile",
                Verdict::Proved,
                &["epilogue.tile", "tile"],
                format!("epilogue tile {}x{} divides {tm}x{tn} ({} subtiles; StagesC = {}, StagesD = {}{})", t[0], t[1], ep.epi_tiles, ep.stages_c, ep.stages_d, if ep.reuse_smem_c { ", D reuses C's buffer" } else { "" }),
            );
        }
        d.epilogue = format!(
            "{} tile {}x{}, {} subtiles, StagesC {}, StagesD {}, SharedStorage {} B",
            c.epilogue.name(),
            t[0],
            t[1],
            ep.epi_tiles,
            ep.stages_c,
            ep.stages_d,
            ep.shared_storage
        );
    } else {
        d.epilogue = format!("{} (stores from registers)", c.epilogue.name());
    }

    // ---------------------------------------------------------------- residue
    match c.kernel {
        Kernel::TmaWs | Kernel::TmaWsCooperative | Kernel::TmaWsPingpong => {
            x.push(
                "residue",
                Verdict::Proved,
                &["problem", "kernel", "epilogue.schedule"],
                format!(
                    "M, N, K residues: TMA zero-fills out-of-bounds box elements in the mainloop; the {} epilogue {}",
                    c.epilogue.name(),
                    if c.epilogue.is_tma() { "stores through TMA, which clips at the tensor bounds" } else { "predicates each store on the residue" }
                ),
            );
            d.residue =
                "mainloop: TMA OOB zero fill; epilogue: TMA clipping / predicated stores".into();
        }
        Kernel::CpAsyncMultistage => {
            // Predicates per copy vector: the contiguous extents must be multiples of the vector (cutlass#3488).
            let mut gs = Vec::new();
            let mut refd = false;
            for (i, op, is_a) in [(0, c.a, true), (1, c.b, false)] {
                let ext_i = if k_major(is_a, op.layout) {
                    2
                } else if is_a {
                    0
                } else {
                    1
                };
                let vec = op.alignment;
                match divides(&c.problem[ext_i], vec, &c.assume) {
                    Div::Yes => {}
                    Div::No(v) => {
                        refd = true;
                        x.refute(
                            "residue",
                            &["problem", if i == 0 { "a.alignment" } else { "b.alignment" }],
                            format!("cp.async predicates one {vec}-element vector at a time (only its first element is tested): {} = {v} leaves a partial vector (NVIDIA/cutlass#3488)", names[ext_i]),
                            format!("{} = {v}: the last vector covers {}..{}, past the extent", names[ext_i], v / vec * vec, v / vec * vec + vec - 1),
                        );
                    }
                    Div::Unknown(g) => gs.push(g),
                }
            }
            if !refd {
                if gs.is_empty() {
                    x.push("residue", Verdict::Proved, &["problem"], "M, N, K residues: identity-tensor predicates per copy vector, and every contiguous extent is a multiple of its vector".into());
                } else {
                    gs.dedup();
                    x.runtime("residue", &["problem", "a.alignment", "b.alignment"], "cp.async predicates whole vectors: the contiguous extents must be multiples of the vector".into(), gs.join(" && "));
                }
            }
            d.residue = "identity-tensor predicates, one per copy vector; K residue shifted to the first k-tile".into();
        }
        Kernel::CpAsyncUnpredicated => {
            let mut gs = Vec::new();
            let mut refd = false;
            #[allow(clippy::needless_range_loop)]
            for i in 0..3 {
                match divides(&c.problem[i], c.tile[i], &c.assume) {
                    Div::Yes => {}
                    Div::No(v) => {
                        refd = true;
                        x.refute(
                            "residue",
                            &["problem", "kernel", "tile"],
                            format!("MainloopSm80CpAsyncUnpredicated reads whole tiles: {} = {v} is not a multiple of tile {} = {}", names[i], names[i], c.tile[i]),
                            format!("tile {} covers up to {}, past {} = {v}", v / c.tile[i] + 1, round_up(v, c.tile[i]) - 1, names[i]),
                        );
                    }
                    Div::Unknown(g) => gs.push(g),
                }
            }
            if refd {
                x.cand(
                    "residue",
                    "kernel = \"cp_async_multistage\"".into(),
                    &[("kernel", "cp_async_multistage".into())],
                    |k| k.kernel = Kernel::CpAsyncMultistage,
                );
            } else if gs.is_empty() {
                x.push(
                    "residue",
                    Verdict::Proved,
                    &["problem", "tile"],
                    "every extent is a multiple of its tile: no residue".into(),
                );
            } else {
                x.runtime(
                    "residue",
                    &["problem", "tile", "kernel"],
                    "the unpredicated mainloop needs extents that are multiples of the tile".into(),
                    gs.join(" && "),
                );
            }
            d.residue = "none: the unpredicated mainloop assumes whole tiles".into();
        }
    }

    // ---------------------------------------------------------------- cluster
    let [cm, cn, ck] = c.cluster;
    let size = cm.saturating_mul(cn).saturating_mul(ck);
    {
        let limit = facts::cluster_limit(c.sm, c.non_portable_cluster).unwrap_or(1);
        let opt_in = facts::cluster_limit(c.sm, true).unwrap_or(1);
        if size == 0 {
            x.refute(
                "cluster",
                &["cluster"],
                "cluster has an empty mode".into(),
                format!("{cm}x{cn}x{ck}"),
            );
        } else if size > 1 && !facts::has_tma(c.sm) {
            x.refute(
                "cluster",
                &["cluster", "arch"],
                format!("thread-block clusters need sm90; arch is sm{}", c.sm),
                format!("cluster {cm}x{cn}x{ck} on sm{}", c.sm),
            );
            x.cand(
                "cluster",
                "cluster = [1, 1, 1]".into(),
                &[("cluster", "[1, 1, 1]".into())],
                |k| k.cluster = [1, 1, 1],
            );
        } else if size > limit {
            let opt = if !c.non_portable_cluster && size <= opt_in {
                " without cudaFuncAttributeNonPortableClusterSizeAllowed (cupy/cupy#8778)"
            } else {
                ""
            };
            x.refute(
                "cluster",
                &["cluster", "non_portable_cluster"],
                format!("cluster {cm}x{cn}x{ck} has {size} CTAs; the limit is {limit}{opt}"),
                format!("{size} > {limit}: CUDA_ERROR_INVALID_CLUSTER_SIZE at launch"),
            );
            if size <= opt_in && !c.non_portable_cluster {
                x.cand(
                    "cluster",
                    "non_portable_cluster = true".into(),
                    &[("non_portable_cluster", "true".into())],
                    |k| k.non_portable_cluster = true,
                );
            }
            let half = if cn >= cm {
                [cm, cn / 2, ck]
            } else {
                [cm / 2, cn, ck]
            };
            x.cand(
                "cluster",
                format!("cluster = [{}, {}, {}]", half[0], half[1], half[2]),
                &[(
                    "cluster",
                    text(format!("[{}, {}, {}]", half[0], half[1], half[2])),
                )],
                |k| k.cluster = half,
            );
        } else if ck != 1 || !cm.is_power_of_two() || !cn.is_power_of_two() {
            x.refute(
                "cluster",
                &["cluster"],
                format!("cluster {cm}x{cn}x{ck}: CUTLASS's SM90 GEMMs take power-of-two cluster M and N and cluster K = 1"),
                format!("{cm}x{cn}x{ck}"),
            );
            x.cand(
                "cluster",
                "cluster = [1, 1, 1]".into(),
                &[("cluster", "[1, 1, 1]".into())],
                |k| k.cluster = [1, 1, 1],
            );
        } else {
            // The grid of tiles versus the cluster.
            let mut warn = Vec::new();
            let mut err = None;
            for (i, cl) in [(0usize, cm), (1, cn)] {
                if cl <= 1 {
                    continue;
                }
                match divides(&c.problem[i], c.tile[i].saturating_mul(cl), &c.assume) {
                    Div::Yes => {}
                    Div::No(v) => {
                        let tiles = v.div_ceil(c.tile[i]);
                        if tiles % cl != 0 {
                            let w = format!("{} = {v}: {tiles} tiles along {} is not a multiple of cluster {} = {cl}", names[i], names[i], names[i]);
                            if c.grouped {
                                err = Some(w);
                            } else {
                                warn.push(w);
                            }
                        }
                    }
                    Div::Unknown(g) => {
                        if c.grouped {
                            err = Some(format!(
                                "per group, ceil({}/{}) must be a multiple of {cl} ({g})",
                                names[i], c.tile[i]
                            ));
                        } else {
                            warn.push(format!("when ceil({}/{}) is not a multiple of {cl} the grid rounds up and the extra CTAs idle", names[i], c.tile[i]));
                        }
                    }
                }
            }
            if let Some(e) = err {
                x.refute(
                    "cluster",
                    &["cluster", "grouped", "problem"],
                    format!("grouped GEMM: the CTAs of one cluster can straddle two groups with different K-loop lengths, and the cluster barriers deadlock (deepseek-ai/DeepGEMM PR #429): {e}"),
                    e,
                );
                x.cand(
                    "cluster",
                    "cluster = [1, 1, 1]".into(),
                    &[("cluster", "[1, 1, 1]".into())],
                    |k| k.cluster = [1, 1, 1],
                );
            } else if !warn.is_empty() {
                x.warn(
                    "cluster",
                    &["cluster", "problem"],
                    format!(
                        "cluster {cm}x{cn}x{ck} ({size} CTAs ≤ {limit}); {}",
                        warn.join("; ")
                    ),
                    warn.join("; "),
                );
            } else {
                x.push(
                    "cluster",
                    Verdict::Proved,
                    &["cluster"],
                    format!(
                        "cluster {cm}x{cn}x{ck}: {size} CTA(s) ≤ {limit}{}",
                        if size > 1 {
                            ", and the tile grid is a whole number of clusters"
                        } else {
                            ""
                        }
                    ),
                );
            }
        }
        d.grid = format!(
            "grid ceil(M/{tm}) x ceil(N/{tn}) x L CTAs in clusters of {cm}x{cn}x{ck}{}",
            if size > 1 {
                " (rounded up to whole clusters)"
            } else {
                ""
            }
        );
    }

    // ---------------------------------------------------------------- multicast
    if sm90 {
        let mut ok = true;
        for (opn, ext, f, what) in [("A", tm, cn, "cluster N"), ("B", tn, cm, "cluster M")] {
            if f > 1 && !multicast_covers(ext, f) {
                ok = false;
                x.refute(
                    "multicast",
                    &["cluster", "tile"],
                    format!("{opn} is multicast to the {f} CTAs along {what}: each loads 1/{f} of the box, but the box's {ext} rows are not divisible by {f} (NVIDIA/cutlass PR #3458)"),
                    format!("{ext} = {}·{f} + {}", ext / f, ext % f),
                );
                x.cand(
                    "multicast",
                    "cluster = [1, 1, 1]".into(),
                    &[("cluster", "[1, 1, 1]".into())],
                    |k| k.cluster = [1, 1, 1],
                );
            }
        }
        if ok {
            x.push(
                "multicast",
                Verdict::Proved,
                &["cluster", "tile"],
                format!("A multicast x{cn} ({}-row slices), B multicast x{cm} ({}-row slices): each factor divides its box", tm / cn.max(1), tn / cm.max(1)),
            );
        }
    }

    // ---------------------------------------------------------------- pipeline
    if sm90 {
        let tx = sa + sb;
        let consumers = match c.kernel {
            Kernel::TmaWsCooperative => 2,
            _ => 1,
        };
        let arrivals = (cm + cn).saturating_sub(1).max(1) * consumers;
        x.push(
            "pipeline",
            Verdict::Proved,
            &["tile", "cluster", "stages"],
            format!(
                "each stage's full barrier expects {tx} transaction bytes = A {sa} + B {sb}, what the TMA loads deliver to this CTA (its own slices plus its {} multicast peers'); the empty barrier expects {arrivals} arrival(s) = (cluster M + cluster N − 1) × {consumers} consumer warpgroup(s)",
                (cm + cn).saturating_sub(2)
            ),
        );
    }

    // ---------------------------------------------------------------- bank_conflicts
    {
        let mut lines = Vec::new();
        let mut worst: Option<(String, f64, &'static str)> = None;
        for (i, opn) in ["A", "B"].iter().enumerate() {
            let Some(a) = atoms[i] else { continue };
            let e = if i == 0 { ea } else { eb };
            let (f, instr) = atom_conflict(&a, e, sm90);
            lines.push((format!("{instr} {opn}"), format!("{f}-way")));
            if f > 1.0 && worst.as_ref().is_none_or(|w| w.1 < f) {
                worst = Some((opn.to_string(), f, instr));
            }
        }
        d.banks = lines.clone();
        match worst {
            Some((opn, f, instr)) => {
                x.warn(
                    "bank_conflicts",
                    &["smem_layout_a", "smem_layout_b", "tile"],
                    format!("{instr} on {opn}'s smem atom has conflict factor {f} (tessera banks)"),
                    format!("{f}-way conflict on {opn}"),
                );
            }
            None if !lines.is_empty() => {
                x.push(
                    "bank_conflicts",
                    Verdict::Proved,
                    &["smem_layout_a", "smem_layout_b"],
                    format!(
                        "conflict-free: {}",
                        lines
                            .iter()
                            .map(|l| format!("{} {}", l.0, l.1))
                            .collect::<Vec<_>>()
                            .join(", ")
                    ),
                );
            }
            None => {}
        }
    }

    // ---------------------------------------------------------------- gmem_coalescing
    {
        let mut w = Vec::new();
        if sm90 {
            for (i, opn) in ["A", "B"].iter().enumerate() {
                let Some(a) = atoms[i] else { continue };
                let row = a.width.saturating_mul(a.bits) / 8;
                if row < 32 {
                    w.push(format!(
                        "{opn}: TMA box rows of {row} bytes use {row} of each 32-byte sector"
                    ));
                }
            }
        } else {
            for (i, opn) in ["A", "B"].iter().enumerate() {
                let op = if i == 0 { c.a } else { c.b };
                let bytes = op.alignment.saturating_mul(op.element.bits()) / 8;
                if bytes < 16 {
                    w.push(format!("{opn}: {bytes}-byte cp.async vectors ({} sectors per warp request where 16-byte vectors need {})", (32 * bytes).div_ceil(32), 32 * 16 / 32));
                }
            }
        }
        if w.is_empty() {
            x.push(
                "gmem_coalescing",
                Verdict::Proved,
                &["a.alignment", "b.alignment", "tile"],
                "every global copy moves whole 32-byte sectors (ideal sectors per request)".into(),
            );
        } else {
            x.warn(
                "gmem_coalescing",
                &["a.alignment", "b.alignment", "tile"],
                format!("fewer bytes per sector than ideal: {}", w.join("; ")),
                w.join("; "),
            );
        }
    }

    finish(x, d)
}

thread_local! {
    // Set while `run_lite` runs: the stage search of `smem_capacity` does not start again.
    static LITE: Cell<bool> = const { Cell::new(false) };
}

/// Smem bytes only (for searching a stage count that fits).
fn run_lite(c: &Config) -> ((), (), u64) {
    let mut k = c.clone();
    k.threads = None;
    let outer = LITE.with(|l| l.replace(true));
    let (_, _, d) = run(&k);
    LITE.with(|l| l.set(outer));
    ((), (), d.smem_bytes)
}

fn finish(x: Ctx<'_>, d: Derived) -> Run {
    let mut out = x.out;
    // Report order: CODES order, refuted entries of one code first.
    out.sort_by_key(|o| {
        (
            CODES
                .iter()
                .position(|c| *c == o.code)
                .unwrap_or(CODES.len()),
            o.verdict != Verdict::Refuted,
        )
    });
    // One entry per code (the first refuted one, or the only one): merge duplicates' messages.
    let mut merged: Vec<Obligation> = Vec::with_capacity(out.len());
    for o in out {
        match merged.last_mut() {
            Some(last) if last.code == o.code => {
                if o.verdict == Verdict::Refuted
                    && last.verdict == Verdict::Refuted
                    && !last.message.contains(&o.message)
                {
                    last.message = format!("{}; {}", last.message, o.message);
                }
            }
            _ => merged.push(o),
        }
    }
    (merged, x.cands, d)
}

/// A suggested field value.
fn text(s: String) -> String {
    s
}

fn threads_why(c: &Config, mma_threads: u64) -> String {
    match c.kernel {
        Kernel::TmaWs => format!("1 producer warpgroup (128) + 1 consumer warpgroup ({mma_threads})"),
        Kernel::TmaWsCooperative => format!("1 producer warpgroup (128) + a {mma_threads}-thread TiledMma over 2 consumer warpgroups"),
        Kernel::TmaWsPingpong => format!("1 producer warpgroup (128) + 2 consumer warpgroups of {mma_threads}"),
        _ => format!("size(TiledMma) = {mma_threads}"),
    }
}

fn sw_name(b: u64) -> &'static str {
    match b {
        128 => "128B",
        64 => "64B",
        32 => "32B",
        _ => "none",
    }
}

fn tma_sw(b: u64) -> tma::Swizzle {
    match b {
        128 => tma::Swizzle::B128,
        64 => tma::Swizzle::B64,
        32 => tma::Swizzle::B32,
        _ => tma::Swizzle::None,
    }
}

fn tma_dtype(e: Elem) -> Option<tma::DataType> {
    e.tma()
}

/// CuTe's `Swizzle<B,4,3>` on a byte offset for a swizzle span of `sw` bytes (128 → B = 3,
/// 64 → 2, 32 → 1; 0 = none): bits [7, 7+B) are XORed into bits [4, 4+B).
///
/// Pre: none. Post: a bijection on each 2^(7+B)-byte block. Example: `swizzle_bytes(128, 128) == 144`.
pub fn swizzle_bytes(addr: u64, sw: u64) -> u64 {
    let b = match sw {
        128 => 3,
        64 => 2,
        32 => 1,
        _ => return addr,
    };
    addr ^ (((addr >> 7) & ((1 << b) - 1)) << 4)
}

/// The first chunk two swizzles place differently: `(row, chunk, TMA's byte, GMMA's byte)`.
type FirstDiff = Option<(u64, u64, u64, u64)>;

/// How many 16-byte chunks of one repeat of 8 rows of `span = max(tma_sw, mma_sw, 16)` bytes the
/// two swizzles place at different bytes, out of how many, and the first such chunk: the count
/// behind `swizzle_match`'s fraction. `disagreement_counts_bytes` (`proofs/Banks.v`) proves the
/// count the number of bytes of the repeat placed differently over 16 (the swizzles move a chunk's
/// bytes together), 0 exactly when the placements agree, and for the named swizzles (none, 32B,
/// 64B, 128B) exactly when they are the same (bridged in `tests/bridge/banks.rs`).
///
/// Pre: spans of a few KiB at most (the loop runs `span / 2` times). Post: `(diff, 8 · span / 16, first)`.
/// Example: `chunk_disagreement(0, 128).0 == 56`.
#[doc(hidden)]
pub fn chunk_disagreement(tma_sw: u64, mma_sw: u64) -> (u64, u64, FirstDiff) {
    let span = tma_sw.max(mma_sw).max(16);
    let chunks = span / 16;
    let rows = 8;
    let mut diff = 0;
    let mut first = None;
    for r in 0..rows {
        for ch in 0..chunks {
            let addr = r * span + ch * 16;
            let a = swizzle_bytes(addr, tma_sw);
            let b = swizzle_bytes(addr, mma_sw);
            if a != b {
                diff += 1;
                if first.is_none() {
                    first = Some((r, ch, a, b));
                }
            }
        }
    }
    (diff, rows * chunks, first)
}

/// How many 16-byte chunks of one 8-row repeat land at different bytes under two swizzles (rows
/// of the wider span), as a fraction, and the first differing element.
fn swizzle_disagreement(tma_sw: u64, mma_sw: u64, bits: u64) -> (String, String) {
    let (diff, total, first) = chunk_disagreement(tma_sw, mma_sw);
    let span = tma_sw.max(mma_sw).max(16);
    let rows = 8;
    let frac = format!(
        "{diff}/{total} ({:.1}%)",
        100.0 * diff as f64 / total as f64
    );
    let wit = match first {
        Some((r, ch, a, b)) => format!(
            "row {r}, elements {}..{} of the {}-byte repeat: TMA writes byte {a}, GMMA reads byte {b}",
            ch * 128 / bits.max(1),
            (ch + 1) * 128 / bits.max(1) - 1,
            rows * span
        ),
        None => "none".into(),
    };
    (frac, wit)
}

thread_local! {
    static BANKS: std::cell::RefCell<Vec<(String, &'static str, &'static str, f64)>> = const { std::cell::RefCell::new(Vec::new()) };
}

/// The bank-conflict factor of the access that touches an smem atom, computed by
/// [`crate::banks`] (cached per atom, element type and instruction): a TMA write on SM90 (GMMA
/// reads through descriptors), an `ldmatrix.x1` (`.trans` for MN-major) on SM80.
fn atom_conflict(a: &SmemAtom, e: Elem, sm90: bool) -> (f64, &'static str) {
    let instr: &'static str = if sm90 {
        "tma"
    } else if a.k_major {
        "ldmatrix.x1"
    } else {
        "ldmatrix.x1.trans"
    };
    let cute = a.cute();
    let dt: &'static str = match e.bits() {
        8 => "u8",
        16 => "f16",
        32 => "f32",
        _ => "f64",
    };
    if let Some(f) = BANKS.with(|b| {
        b.borrow()
            .iter()
            .find(|r| r.0 == cute && r.1 == dt && r.2 == instr)
            .map(|r| r.3)
    }) {
        return (f, instr);
    }
    let f = (|| {
        let smem = crate::banks::text::parse_smem(&cute).ok()?;
        let dtype = crate::banks::text::parse_dtype(dt).ok()?;
        let atom = crate::banks::Atom::parse(instr).ok()?;
        let acc = atom.access(&smem, dtype, None).ok()?;
        crate::banks::analyze(&smem, &acc, dtype)
            .ok()
            .map(|r| r.conflict_factor())
    })()
    .unwrap_or(1.0);
    BANKS.with(|b| b.borrow_mut().push((cute, dt, instr, f)));
    (f, instr)
}

#[cfg(test)]
mod catalogue_tests {
    /// `tessera explain` reads every obligation's text from the one catalogue.
    #[test]
    fn every_obligation_code_is_in_the_one_catalogue() {
        for c in super::CODES {
            let e = crate::diagnostic::catalogue::lookup(c);
            assert!(e.is_some_and(|e| !e.explanation.is_empty()), "{c}");
        }
    }
}
