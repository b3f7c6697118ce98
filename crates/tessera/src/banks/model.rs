//! The bank model's vocabulary: bank geometry and element types (from [`crate::target`]), the
//! analysis's errors, the shared-memory layout ([`Smem`]), the instructions ([`Instr`]) and the
//! access ([`Access`]).

use crate::algebra::linear::LinearLayout;
use crate::layout::{AnyLayout, Layout};

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
        #[cfg(test)]
        if let Some(m) = mutant::get() {
            let v = self.offset_unmutated(i)?;
            return Ok(m(v));
        }
        self.offset_unmutated(i)
    }

    #[inline]
    fn offset_unmutated(&self, i: u64) -> BResult<u64> {
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
        #[cfg(test)]
        if mutant::get().is_some() {
            return None; // a planted mistake is in `offset`: the analysis enumerates through it
        }
        #[cfg(test)]
        if let Some(m) = mutant::get_linear() {
            return self.as_linear_unmutated().map(m);
        }
        self.as_linear_unmutated()
    }

    fn as_linear_unmutated(&self) -> Option<LinearLayout> {
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
pub(crate) fn widen(ll: &LinearLayout, bits: u32) -> Option<LinearLayout> {
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
    pub(crate) fn fixed_width(self) -> Option<u64> {
        match self {
            Instr::Shared { width } => width,
            Instr::CpAsync { bytes } => Some(bytes),
            Instr::Ldmatrix { .. } | Instr::Stmatrix { .. } | Instr::Tma => Some(16),
        }
    }

    /// Threads per phase for a width.
    pub(crate) fn phase_threads(self, w: u64) -> u64 {
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
    pub(crate) fn active_threads(self) -> u64 {
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

/// A mistake planted in the analysis's offset function, for the tests that show the simulator
/// catches it (`banks::sim::tests`); per thread, and compiled only in the crate's tests.
#[cfg(test)]
pub(crate) mod mutant {
    use std::cell::Cell;

    /// A mistaken offset function: the true offset in, the planted one out.
    pub(crate) type Mistake = fn(u64) -> u64;

    thread_local! {
        static MUTANT: Cell<Option<Mistake>> = const { Cell::new(None) };
    }

    /// The planted mistake, if any.
    pub(crate) fn get() -> Option<Mistake> {
        MUTANT.with(Cell::get)
    }

    /// Runs `f` with `m` applied to every offset `Smem::offset` returns (and no F2 shortcut).
    pub(crate) fn with<T>(m: Mistake, f: impl FnOnce() -> T) -> T {
        MUTANT.with(|c| c.set(Some(m)));
        let r = f();
        MUTANT.with(|c| c.set(None));
        r
    }

    /// A mistaken F2 form: the layout `Smem::as_linear` computed in, the planted one out.
    pub(crate) type LinearMistake = fn(super::LinearLayout) -> super::LinearLayout;

    thread_local! {
        static LINEAR: Cell<Option<LinearMistake>> = const { Cell::new(None) };
    }

    /// The planted mistake of the F2 form, if any.
    pub(crate) fn get_linear() -> Option<LinearMistake> {
        LINEAR.with(Cell::get)
    }

    /// Runs `f` with `m` applied to every F2 form `Smem::as_linear` returns (the F2-rank
    /// analysis's input).
    pub(crate) fn with_linear<T>(m: LinearMistake, f: impl FnOnce() -> T) -> T {
        LINEAR.with(|c| c.set(Some(m)));
        let r = f();
        LINEAR.with(|c| c.set(None));
        r
    }
}
