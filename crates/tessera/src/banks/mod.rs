//! Shared-memory bank conflicts: the model, a brute-force simulator, the analysis and swizzle
//! synthesis.
//!
//! # The model
//!
//! As the CUDA C++ Programming Guide states it (section "Shared Memory" of the compute
//! capability 5.x–9.x chapters): shared memory has 32 banks of 4 bytes; successive 4-byte words
//! go to successive banks (word `w` is in bank `w mod 32`). Tessera models a warp-wide access of
//! `W` bytes per thread (`W` = 1, 2, 4, 8, 16) as served in *phases*: one phase of 32 threads for
//! `W ≤ 4`, two of 16 threads for `W = 8`, four of 8 threads for `W = 16`. In one phase the number
//! of *wavefronts* is the largest number of distinct 4-byte words that the phase touches in any one
//! bank (threads touching the same word share it: a broadcast). An access's cost is the sum of its
//! phases' wavefronts; the ideal is the number of phases. `ldmatrix`/`stmatrix` `.x1/.x2/.x4`
//! (with or without `.trans`) move 8 rows of 16 bytes per phase, the row addresses given by 8
//! threads (threads `0..8·x`); `cp.async` of 4/8/16 bytes and `ld/st.shared` of 1–16 bytes follow
//! the rule above; a TMA write is modelled as 16-byte pieces, 8 per phase (128-byte rows).
//!
//! # The access
//!
//! A thread-value (TV) layout maps `(thread, value)` (thread in `[0, 32)`, CuTe's convention:
//! mode 0 is the thread, mode 1 the value) to an index of the shared-memory layout's domain, or of
//! an *atom tile* that is repeated over the domain ([`Access::atom`]). Each thread reads its
//! values in order, `W / sizeof(T)` at a time, with the widest `W ≤ 16` such that every aligned
//! group of `W / sizeof(T)` consecutive values is contiguous and `W`-aligned in shared memory for
//! every thread; instruction `k` moves group `k` of every thread.
//!
//! # Analysis and simulator
//!
//! [`simulate`] enumerates every thread's addresses (the reference). [`analyze`] gives the same
//! answer without enumerating when the whole access is F2-linear (power-of-two shapes, no
//! carries, a linear or swizzled shared-memory layout): every phase is then a translate of the
//! first, the words it touches form an affine subspace, and its wavefronts are
//! `2^(rank(words) − rank(banks))` (ranks over F2 of the phase's basis vectors projected to word
//! and bank bits). Otherwise it enumerates phase by phase.

pub mod atoms;
pub mod sim;
pub mod synth;
pub mod text;

use crate::algebra::linear::{f2_rank, LinearLayout};
use crate::layout::{AnyLayout, Layout};

pub use atoms::{Atom, AtomKind};
pub use sim::simulate;

/// Banks of shared memory ([`crate::target::SMEM_BANKS`]).
pub const BANKS: u64 = crate::target::SMEM_BANKS.banks;
/// Bytes per bank word ([`crate::target::SMEM_BANKS`]).
pub const WORD_BYTES: u64 = crate::target::SMEM_BANKS.word_bytes;
/// The most (instance, thread, value) points an enumeration visits.
pub const MAX_POINTS: u64 = 1 << 24;

/// An element type: the one table of [`crate::target`]. The bank model takes the types whose
/// width is a whole number of bytes ([`dtypes`]).
pub use crate::target::Dtype;

/// The element types the bank model accepts (`tessera banks --dtype`): every
/// [`crate::target::DTYPES`] row whose width is a whole number of bytes, in the table's order.
///
/// Pre: none. Post: each has `bytes().is_some()`. Example: `f16` is one, `e2m1` is not.
pub fn dtypes() -> impl Iterator<Item = Dtype> {
    crate::target::DTYPES
        .iter()
        .copied()
        .filter(|d| d.bytes().is_some())
}

/// Bytes per element of an accepted element type.
///
/// Pre: `d.bytes()` is `Some` (checked by [`check_whole_bytes`] where an access enters the
/// model). Post: `d.bits / 8`. Example: `f32` gives 4.
pub(crate) fn elem_bytes(d: Dtype) -> u64 {
    u64::from(d.bits / 8)
}

/// Refuses an element type narrower than a byte or not a whole number of bytes.
///
/// Pre: none. Post: `Err` is [`BankError::BadInput`] naming the accepted types. Example: `e2m1`
/// (4 bits) is refused.
pub(crate) fn check_whole_bytes(d: Dtype) -> BResult<()> {
    if d.bytes().is_some() {
        return Ok(());
    }
    Err(BankError::BadInput {
        what: "dtype",
        detail: format!(
            "{} has {} bits: the bank model needs whole-byte elements",
            d.name, d.bits
        ),
        suggestions: dtypes().map(|d| d.name.to_string()).collect(),
    })
}

/// A failed obligation of the bank-conflict analysis, with checked suggestions.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub enum BankError {
    /// The access is not one warp: the TV layout's thread mode has extent ≠ 32.
    #[error("the TV layout {tv} has {found} threads in mode 0; a warp-wide access has 32")]
    ThreadExtent {
        /// The TV layout.
        tv: String,
        /// Its thread extent.
        found: i64,
        /// Checked suggestions.
        suggestions: Vec<String>,
    },
    /// The TV layout is not rank 2.
    #[error("the TV layout {tv} has rank {rank}; a TV layout has rank 2 (thread, value)")]
    TvRank {
        /// The TV layout.
        tv: String,
        /// Its rank.
        rank: usize,
    },
    /// A (thread, value) maps outside the shared-memory layout's domain (or the atom tile).
    #[error("T{thread}V{value} maps to index {index}, outside {what} [0, {size})")]
    OutOfDomain {
        /// The thread.
        thread: u64,
        /// The value.
        value: u64,
        /// The index it maps to.
        index: i64,
        /// The domain's (or atom tile's) size.
        size: u64,
        /// `the shared-memory layout's domain` or `the atom tile`.
        what: &'static str,
        /// Checked suggestions.
        suggestions: Vec<String>,
    },
    /// A vector of `W` bytes would be misaligned or not contiguous.
    #[error("a {width}-byte vector is not possible: {detail}")]
    Misaligned {
        /// The requested width.
        width: u64,
        /// The first offending thread and values.
        detail: String,
        /// Checked suggestions (legal widths).
        suggestions: Vec<String>,
    },
    /// The instruction cannot move this element type (or this width).
    #[error("{instr} cannot move {dtype}: {detail}")]
    BadDtype {
        /// The instruction.
        instr: String,
        /// The element type.
        dtype: String,
        /// Why.
        detail: String,
        /// Checked suggestions.
        suggestions: Vec<String>,
    },
    /// An unknown element type, atom or malformed input.
    #[error("{what}: {detail}")]
    BadInput {
        /// Which input.
        what: &'static str,
        /// What is wrong.
        detail: String,
        /// Accepted values.
        suggestions: Vec<String>,
    },
    /// The access would enumerate more than [`MAX_POINTS`] points.
    #[error("{what} has {size} points to enumerate, more than the bound {MAX_POINTS}")]
    TooLarge {
        /// What.
        what: String,
        /// How many.
        size: u64,
    },
    /// An element offset is negative, or a byte address does not fit the 32-bit shared window.
    #[error("shared-memory address: {detail}")]
    Address {
        /// The offending index, offset or span, with its value.
        detail: String,
    },
    /// A layout obligation failed.
    #[error(transparent)]
    Layout(#[from] crate::Error),
    /// A linear-layout obligation failed.
    #[error(transparent)]
    Linear(#[from] crate::algebra::linear::LinearError),
}

impl BankError {
    /// A stable snake_case code.
    ///
    /// Pre: none. Post: non-empty; starts with `banks_` except for wrapped errors.
    pub fn code(&self) -> &'static str {
        match self {
            BankError::ThreadExtent { .. } => "banks_thread_extent",
            BankError::TvRank { .. } => "banks_tv_rank",
            BankError::OutOfDomain { .. } => "banks_out_of_domain",
            BankError::Misaligned { .. } => "banks_misaligned_vector",
            BankError::BadDtype { .. } => "banks_bad_dtype",
            BankError::BadInput { .. } => "banks_bad_input",
            BankError::TooLarge { .. } => "banks_too_large",
            BankError::Address { .. } => "banks_address",
            BankError::Layout(e) => e.code(),
            BankError::Linear(e) => e.code(),
        }
    }

    /// The checked suggestions.
    pub fn suggestions(&self) -> Vec<String> {
        match self {
            BankError::ThreadExtent { suggestions, .. }
            | BankError::OutOfDomain { suggestions, .. }
            | BankError::Misaligned { suggestions, .. }
            | BankError::BadDtype { suggestions, .. }
            | BankError::BadInput { suggestions, .. } => suggestions.clone(),
            BankError::Linear(e) => e.suggestions().to_vec(),
            _ => Vec::new(),
        }
    }
}

/// Result of the bank analysis.
pub type BResult<T> = std::result::Result<T, BankError>;

/// A shared-memory layout: domain index ↦ element offset.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Smem {
    /// A plain CuTe layout.
    Plain(Layout),
    /// A linear layout (inputs flattened, the first in the low bits; outputs flattened).
    Linear(LinearLayout),
    /// CuTe's `Swizzle<B,M,S> ∘ L` (offset 0), the swizzle on element offsets:
    /// `y = x ^ ((x >> S) & ((2^B − 1) << M))`.
    Swizzled {
        /// `B`, `M`, `S`.
        bms: (u32, u32, u32),
        /// The plain layout.
        layout: Layout,
    },
    /// Any other plain, swizzled or composed layout (issue 11's [`AnyLayout`]), evaluated as it
    /// is; its shape is the innermost layout's.
    Any(AnyLayout),
}

/// CuTe's `Swizzle<B,M,S>` on an integer (`S ≥ 0`).
#[inline]
pub fn swizzle_int(x: u64, (b, m, s): (u32, u32, u32)) -> u64 {
    let mask = ((1u64 << b) - 1) << m;
    x ^ ((x >> s) & mask)
}

impl Smem {
    /// The shared-memory layout of a plain, swizzled or composed layout: `Sw<B,M,S> o 0 o L` with
    /// `S > 0` becomes [`Smem::Swizzled`], a plain layout [`Smem::Plain`], anything else
    /// [`Smem::Any`].
    pub fn from_any(l: AnyLayout) -> Smem {
        match l {
            AnyLayout::Plain(p) => Smem::Plain(p),
            AnyLayout::Composed(c) => match (&c.outer, c.offset, &c.inner) {
                (AnyLayout::Swizzle(s), 0, AnyLayout::Plain(p))
                    if s.shift() >= s.bits() && s.bits() > 0 =>
                {
                    Smem::Swizzled {
                        bms: (s.bits() as u32, s.base() as u32, s.shift() as u32),
                        layout: p.clone(),
                    }
                }
                _ => Smem::Any(AnyLayout::Composed(c)),
            },
            other => Smem::Any(other),
        }
    }

    /// The domain size (number of elements addressed).
    pub fn size(&self) -> BResult<u64> {
        Ok(match self {
            Smem::Any(a) => a.size()? as u64,
            Smem::Plain(l) | Smem::Swizzled { layout: l, .. } => l.size()? as u64,
            Smem::Linear(ll) => 1u64 << ll.total_in_bits(),
        })
    }

    /// The top-level shape as (rows, columns): a rank-2 layout's two modes, a rank-1 layout as
    /// one column; a linear layout's first two input dimensions.
    pub fn shape2(&self) -> BResult<(u64, u64)> {
        let l = match self {
            Smem::Any(a) => a.shape_layout("banks")?,
            Smem::Plain(l) | Smem::Swizzled { layout: l, .. } => l,
            Smem::Linear(ll) => {
                let m = ll
                    .in_dims()
                    .first()
                    .map(|x| 1u64 << x.bases.len())
                    .unwrap_or(1);
                return Ok((m, (1u64 << ll.total_in_bits()) / m));
            }
        };
        if l.is_leaf() || l.rank() == 1 {
            Ok((l.size()? as u64, 1))
        } else {
            let m = l.mode_at(0).map(|x| x.size()).transpose()?.unwrap_or(1) as u64;
            Ok((m, l.size()? as u64 / m.max(1)))
        }
    }

    /// The element offset of domain index `i`.
    ///
    /// Pre: `i < size`. Post: the offset (an error for a negative one).
    #[inline]
    pub fn offset(&self, i: u64) -> BResult<u64> {
        let v = match self {
            Smem::Plain(l) => l.eval(i as i64)?,
            Smem::Swizzled { bms, layout } => {
                let v = layout.eval(i as i64)?;
                if v < 0 {
                    v
                } else {
                    swizzle_int(v as u64, *bms) as i64
                }
            }
            Smem::Linear(ll) => return Ok(ll.apply_flat(i)),
            Smem::Any(a) => a.eval(i as i64)?,
        };
        if v < 0 {
            return Err(BankError::Address {
                detail: format!("index {i} maps to the negative offset {v}"),
            });
        }
        Ok(v as u64)
    }

    /// An upper bound on `1 + max offset` over the domain, in 128 bits (no wrap-around):
    /// `cosize` for a plain layout, the same rounded up to cover the swizzle's bits for a swizzled
    /// one, `2^out_bits` for a linear layout, and the definition's `cosize` (enumerated, or in
    /// closed form) for a composed layout.
    ///
    /// Pre: none. Post: every `offset(i) < R`; an error when the bound itself overflows.
    pub fn offset_bound(&self) -> BResult<u128> {
        let over = |what: &str| BankError::Address {
            detail: format!("the offsets of {what} are not representable in 64 bits"),
        };
        Ok(match self {
            Smem::Plain(l) => l.cosize().map_err(|_| over(&l.to_string()))? as u128,
            Smem::Swizzled { bms, layout } => {
                let c = layout.cosize().map_err(|_| over(&layout.to_string()))? as u128;
                c.next_power_of_two().max(1u128 << (bms.0 + bms.1))
            }
            Smem::Linear(ll) => 1u128 << ll.total_out_bits(),
            Smem::Any(a) => crate::algebra::swizzled::cosize(a)? as u128,
        })
    }

    /// The layout as an F2-linear map (flattened domain index ↦ element offset), if it is one.
    pub fn as_linear(&self) -> Option<LinearLayout> {
        match self {
            Smem::Any(a) => {
                let ll = LinearLayout::from_any_layout(a)
                    .ok()?
                    .flatten_ins()
                    .flatten_outs();
                Some(ll)
            }
            Smem::Plain(l) => LinearLayout::from_layout(l).ok().map(|x| x.flatten_ins()),
            Smem::Linear(ll) => Some(ll.flatten_ins().flatten_outs()),
            Smem::Swizzled { bms, layout } => {
                let base = LinearLayout::from_layout(layout).ok()?.flatten_ins();
                let bits = base.total_out_bits().max(bms.0 + bms.1 + bms.2);
                let wide = base
                    .reshape_outs(&[("offset", 1u64 << base.total_out_bits())])
                    .ok()?;
                // Widen the output to the swizzle's bits, then compose.
                let widened = widen(&wide, bits)?;
                let sw = LinearLayout::from_swizzle(bms.0, bms.1, bms.2, bits).ok()?;
                widened.compose(&sw).ok()
            }
        }
    }

    /// The text of the layout (CuTe notation; `Sw<B,M,S> o L` for a swizzled one).
    pub fn describe(&self) -> String {
        match self {
            Smem::Plain(l) => l.to_string(),
            Smem::Linear(ll) => ll.to_string(),
            Smem::Swizzled { bms, layout } => {
                format!("Sw<{},{},{}> o 0 o {layout}", bms.0, bms.1, bms.2)
            }
            Smem::Any(a) => a.to_string(),
        }
    }
}

/// `ll` with its single output widened to `bits` bits.
fn widen(ll: &LinearLayout, bits: u32) -> Option<LinearLayout> {
    let ins: Vec<(String, Vec<Vec<u64>>)> = ll
        .in_dims()
        .iter()
        .map(|d| (d.name.clone(), d.bases.iter().map(|&b| vec![b]).collect()))
        .collect();
    let refs: Vec<(&str, Vec<Vec<u64>>)> =
        ins.iter().map(|(n, b)| (n.as_str(), b.clone())).collect();
    LinearLayout::new(&refs, &[("offset", 1u64 << bits)]).ok()
}

/// The instruction that moves the data.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Instr {
    /// `ld.shared`/`st.shared` with a vector width (`None`: the widest legal one).
    Shared {
        /// Bytes per thread, or the widest.
        width: Option<u64>,
    },
    /// `cp.async` of 4, 8 or 16 bytes (its shared-memory write).
    CpAsync {
        /// Bytes per thread.
        bytes: u64,
    },
    /// `ldmatrix.x{num}` (`.trans` changes registers only, not addresses).
    Ldmatrix {
        /// 1, 2 or 4.
        num: u64,
        /// `.trans`.
        trans: bool,
    },
    /// `stmatrix.x{num}`.
    Stmatrix {
        /// 1, 2 or 4.
        num: u64,
        /// `.trans`.
        trans: bool,
    },
    /// A TMA write: 16-byte pieces, 8 per phase (128-byte rows).
    Tma,
}

impl std::fmt::Display for Instr {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match self {
            Instr::Shared { width: None } => write!(f, "ld/st.shared"),
            Instr::Shared { width: Some(w) } => write!(f, "ld/st.shared.b{}", w * 8),
            Instr::CpAsync { bytes } => write!(f, "cp.async.{bytes}"),
            Instr::Ldmatrix { num, trans } => {
                write!(f, "ldmatrix.x{num}{}", if *trans { ".trans" } else { "" })
            }
            Instr::Stmatrix { num, trans } => {
                write!(f, "stmatrix.x{num}{}", if *trans { ".trans" } else { "" })
            }
            Instr::Tma => write!(f, "tma"),
        }
    }
}

impl Instr {
    /// The fixed vector width of the instruction in bytes (`None` for `ld/st.shared` widest).
    fn fixed_width(self) -> Option<u64> {
        match self {
            Instr::Shared { width } => width,
            Instr::CpAsync { bytes } => Some(bytes),
            Instr::Ldmatrix { .. } | Instr::Stmatrix { .. } | Instr::Tma => Some(16),
        }
    }

    /// Threads per phase for a width.
    fn phase_threads(self, w: u64) -> u64 {
        match self {
            Instr::Ldmatrix { .. } | Instr::Stmatrix { .. } | Instr::Tma => 8,
            _ => match w {
                16 => 8,
                8 => 16,
                _ => 32,
            },
        }
    }

    /// Threads whose addresses are used (ldmatrix/stmatrix `.x1`/`.x2` use 8/16).
    fn active_threads(self) -> u64 {
        match self {
            Instr::Ldmatrix { num, .. } | Instr::Stmatrix { num, .. } => 8 * num,
            _ => 32,
        }
    }
}

/// A warp-wide access: a TV layout, the instruction, and optionally the atom tile it covers
/// (then the access is repeated over the domain, atom tile by atom tile, column-major order).
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Access {
    /// `(thread, value) ↦` index of the domain (or of the atom tile), thread extent 32.
    pub tv: Layout,
    /// The instruction.
    pub instr: Instr,
    /// `Some((m, n))`: the TV layout maps into an `m × n` (column-major) atom tile, repeated over
    /// the domain seen as [`Smem::shape2`].
    pub atom: Option<(u64, u64)>,
}

/// The worst phase: which threads collide in which bank.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Worst {
    /// The atom instance (0 without an atom).
    pub instance: u64,
    /// The instruction within the instance.
    pub instruction: u64,
    /// The phase within the instruction.
    pub phase: u64,
    /// Its wavefronts.
    pub wavefronts: u64,
    /// The bank with the most distinct words.
    pub bank: u64,
    /// `(thread, word, domain index)` of every access to that bank in that phase.
    pub hits: Vec<(u64, u64, u64)>,
}

/// The answer of the analysis (and of the simulator).
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Report {
    /// Bytes per thread per instruction.
    pub vector_bytes: u64,
    /// Instructions in total (atom instances × instructions per instance).
    pub instructions: u64,
    /// Phases per instruction.
    pub phases: u64,
    /// Wavefronts in total.
    pub wavefronts: u64,
    /// The ideal: the total number of phases.
    pub ideal: u64,
    /// The worst phase.
    pub worst: Worst,
    /// `f2-rank` (no enumeration) or `enumeration`.
    pub method: &'static str,
}

impl Report {
    /// `wavefronts / ideal`.
    pub fn conflict_factor(&self) -> f64 {
        self.wavefronts as f64 / self.ideal.max(1) as f64
    }

    /// JSON with `vector_bytes`, `instructions`, `phases_per_instruction`, `wavefronts`, `ideal`,
    /// `conflict_factor`, `method` and the worst phase (compact, keys in that order).
    ///
    /// Pre: none. Post: [`Report::to_json_value`] as text. Example: starts with
    /// `{"vector_bytes":`.
    pub fn to_json(&self) -> String {
        self.to_json_value().to_string()
    }

    /// [`Report::to_json`] as a JSON value (serde), the wire form `tessera banks --json` writes.
    ///
    /// Pre: none. Post: an object; `conflict_factor` rounded to 3 decimals, written as an
    /// integer when whole. Example: `conflict_factor` of 8 wavefronts over an ideal of 1 is `8`.
    pub fn to_json_value(&self) -> serde_json::Value {
        let hits: Vec<serde_json::Value> = self
            .worst
            .hits
            .iter()
            .map(|(t, w, i)| serde_json::json!({"thread": t, "word": w, "index": i}))
            .collect();
        serde_json::json!({
            "vector_bytes": self.vector_bytes,
            "instructions": self.instructions,
            "phases_per_instruction": self.phases,
            "wavefronts": self.wavefronts,
            "ideal": self.ideal,
            "conflict_factor": factor_json(self.conflict_factor()),
            "method": self.method,
            "worst_phase": {
                "instance": self.worst.instance,
                "instruction": self.worst.instruction,
                "phase": self.worst.phase,
                "wavefronts": self.worst.wavefronts,
                "bank": self.worst.bank,
                "hits": hits,
            },
        })
    }
}

/// The conflict factor as a JSON number: 3 decimals, trailing zeros dropped (an integer when
/// whole).
fn factor_json(f: f64) -> serde_json::Value {
    let s = fmt_factor(f);
    if let Ok(n) = s.parse::<u64>() {
        return n.into();
    }
    s.parse::<f64>()
        .ok()
        .and_then(serde_json::Number::from_f64)
        .map_or(serde_json::Value::Null, serde_json::Value::Number)
}

fn fmt_factor(f: f64) -> String {
    let s = format!("{f:.3}");
    let s = s.trim_end_matches('0').trim_end_matches('.');
    s.to_string()
}

/// The largest byte span of a shared-memory tile: PTX's `.shared` window is addressed with 32
/// bits (and no GPU has more than 228 KiB of shared memory per block), so every byte address
/// the model computes is below `2^32` and no product of it wraps in 64 bits.
pub const SHARED_WINDOW_BYTES: u128 = 1 << 32;

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
                     ({SHARED_WINDOW_BYTES} bytes; no GPU has more than 228 KiB of shared memory \
                     per block)",
                    smem.describe(),
                    dtype.name
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

fn thread_suggestions(tv: &Layout, threads: i64) -> Vec<String> {
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

fn domain_suggestions(smem: &Smem, acc: &Access, dtype: Dtype, bound: u64) -> Vec<String> {
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
fn extreme(l: &Layout, hi: bool) -> BResult<u64> {
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
fn not_whole_elements(w: u64, elem: u64) -> Option<String> {
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

fn check_dtype(instr: Instr, dtype: Dtype) -> BResult<()> {
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

/// Counts the wavefronts of one phase from its `(thread, word, index)` accesses: the largest
/// number of distinct words in one bank. Returns `(wavefronts, bank)`.
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
fn analyze_translates(
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
                    let first = byte / WORD_BYTES;
                    let last = (byte + w - 1) / WORD_BYTES;
                    for word in first..=last {
                        buf.push((t, word, idx));
                    }
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
fn analyze_linear(
    smem: &Smem,
    acc: &Access,
    g: &Geometry,
    dtype: Dtype,
) -> BResult<Option<Report>> {
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
    Ok(Some(Report {
        vector_bytes: w,
        instructions: g.instances * per,
        phases,
        wavefronts: ideal * per_phase,
        ideal,
        worst: first,
        method: "f2-rank",
    }))
}

/// The first phase of the first instruction, enumerated (≤ 32 threads).
fn enumerate_one(smem: &Smem, instr: Instr, g: &Geometry, w: u64) -> BResult<Worst> {
    let pt = instr.phase_threads(w);
    let mut buf = Vec::new();
    for t in 0..pt {
        let idx = g.index(0, t, 0)?;
        let byte = smem.offset(idx)? * g.elem;
        for word in byte / WORD_BYTES..=(byte + w - 1) / WORD_BYTES {
            buf.push((t, word, idx));
        }
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

impl crate::diagnostic::Diagnose for BankError {
    fn diagnostic(&self) -> crate::diagnostic::Diagnostic {
        crate::diagnostic::Diagnostic::new(
            self.code(),
            crate::diagnostic::Severity::Error,
            self.to_string(),
        )
        .with_suggestions(self.suggestions())
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn f(s: &str) -> Dtype {
        Dtype::parse(s).unwrap()
    }

    fn acc(tv: &str) -> Access {
        Access {
            tv: tv.parse().unwrap(),
            instr: Instr::Shared { width: None },
            atom: None,
        }
    }

    #[test]
    fn classic_column_read() {
        let smem = Smem::Plain("(32,32):(32,1)".parse().unwrap());
        let r = analyze(&smem, &acc("(32,1):(1,0)"), f("f32")).unwrap();
        assert_eq!((r.vector_bytes, r.wavefronts, r.ideal), (4, 32, 1));
        let s = simulate(&smem, &acc("(32,1):(1,0)"), f("f32")).unwrap();
        assert_eq!(
            Report {
                method: "simulation",
                ..r
            },
            s
        );
        let padded = Smem::Plain("(32,32):(33,1)".parse().unwrap());
        let r = analyze(&padded, &acc("(32,1):(1,0)"), f("f32")).unwrap();
        assert_eq!((r.wavefronts, r.ideal), (1, 1));
        let s = simulate(&padded, &acc("(32,1):(1,0)"), f("f32")).unwrap();
        assert_eq!(
            Report {
                method: "simulation",
                ..r
            },
            s
        );
    }
}
