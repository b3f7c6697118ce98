//! Named copy atoms, partitioned over a shared-memory tile.
//!
//! The tile is the shared-memory layout's domain seen as `M × N` ([`Smem::shape2`]; for an MMA
//! operand, `(M, K)` or `(N, K)`). An atom is a TV layout over a small atom tile that is repeated
//! over the whole tile ([`Access::atom`]):
//!
//! - `ldmatrix.x4` (CuTe `SM75_U32x4_LDSM_N`) on a K-major tile: atom tile 16×16, thread `t`
//!   gives the address of row `t mod 16`, columns `8·⌊t/16⌋ …+8` (the A operand of
//!   `SM80_16x8x16`); `.x2` (`SM75_U32x2_LDSM_N`): 8×16, threads 0–15; `.x1`: 8×8, threads 0–7.
//! - `ldmatrix.x4.trans` (`SM75_U16x8_LDSM_T`) on an MN-major tile: each thread's 16 bytes run
//!   along M; `.x2.trans` (`SM75_U16x4_LDSM_T`), `.x1.trans` (`SM75_U16x2_LDSM_T`).
//! - `stmatrix` (`SM90_U32x{1,2,4}_STSM_N`, `SM90_U16x{2,4,8}_STSM_T`): the same addresses.
//! - `cp.async.{4,8,16}`, `st.shared.{1,…,16}`, `ld.shared.{1,…,16}` and `tma`: the 32 threads
//!   (16-byte pieces for `tma`) walk the tile's contiguous dimension first, `W` bytes each, as a
//!   coalesced copy from a row-major (K-major) or column-major (MN-major) global tensor does.

use super::{Access, BResult, BankError, Dtype, Instr, Smem};
use crate::layout::Layout;

/// Which dimension of the `M × N` tile is contiguous in the source (global) tensor.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Major {
    /// Mode 1 (K for an `(M, K)` operand) is contiguous.
    K,
    /// Mode 0 (M or N) is contiguous.
    MN,
}

/// The kind of a named atom.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum AtomKind {
    /// `ldmatrix`.
    Ldmatrix {
        /// 1, 2, 4.
        num: u64,
        /// `.trans`.
        trans: bool,
    },
    /// `stmatrix`.
    Stmatrix {
        /// 1, 2, 4.
        num: u64,
        /// `.trans`.
        trans: bool,
    },
    /// `cp.async` of 4, 8 or 16 bytes.
    CpAsync {
        /// Bytes.
        bytes: u64,
    },
    /// `ld.shared`/`st.shared` of 1–16 bytes.
    Shared {
        /// Bytes.
        bytes: u64,
    },
    /// A TMA write (16-byte pieces).
    Tma,
}

/// A named copy atom.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Atom {
    /// Its kind.
    pub kind: AtomKind,
}

/// The names [`Atom::parse`] accepts (besides `ld.shared.W`, `st.shared.W`, `cp.async.W`).
pub const ATOM_NAMES: &[&str] = &[
    "ldmatrix.x1",
    "ldmatrix.x2",
    "ldmatrix.x4",
    "ldmatrix.x1.trans",
    "ldmatrix.x2.trans",
    "ldmatrix.x4.trans",
    "stmatrix.x1",
    "stmatrix.x2",
    "stmatrix.x4",
    "stmatrix.x1.trans",
    "stmatrix.x2.trans",
    "stmatrix.x4.trans",
    "cp.async.4",
    "cp.async.8",
    "cp.async.16",
    "ld.shared.16",
    "st.shared.16",
    "tma",
    "SM75_U32x1_LDSM_N",
    "SM75_U32x2_LDSM_N",
    "SM75_U32x4_LDSM_N",
    "SM75_U16x2_LDSM_T",
    "SM75_U16x4_LDSM_T",
    "SM75_U16x8_LDSM_T",
    "SM90_U32x1_STSM_N",
    "SM90_U32x2_STSM_N",
    "SM90_U32x4_STSM_N",
    "SM90_U16x2_STSM_T",
    "SM90_U16x4_STSM_T",
    "SM90_U16x8_STSM_T",
    "SM80_CP_ASYNC_CACHEALWAYS_U128",
    "SM90_TMA_LOAD",
];

impl AtomKind {
    /// The copy family the instruction belongs to, whose availability per architecture is in
    /// [`crate::target::Arch::copies`].
    ///
    /// Pre: none. Post: `ldmatrix` → `Ldmatrix`, `stmatrix` → `Stmatrix`, `cp.async` → `CpAsync`,
    /// `ld/st.shared` → `Shared`, `tma` → `Tma`. Example: `AtomKind::Tma.family() ==
    /// CopyFamily::Tma`.
    pub fn family(self) -> crate::target::CopyFamily {
        use crate::target::CopyFamily as F;
        match self {
            AtomKind::Ldmatrix { .. } => F::Ldmatrix,
            AtomKind::Stmatrix { .. } => F::Stmatrix,
            AtomKind::CpAsync { .. } => F::CpAsync,
            AtomKind::Shared { .. } => F::Shared,
            AtomKind::Tma => F::Tma,
        }
    }
}

impl Atom {
    /// The atom of a name (see [`ATOM_NAMES`]).
    ///
    /// Pre: none. Post: an error listing the names for an unknown one.
    /// Example: `Atom::parse("SM75_U32x4_LDSM_N")` is `ldmatrix.x4`.
    pub fn parse(name: &str) -> BResult<Atom> {
        let kind = match name {
            "SM75_U32x1_LDSM_N" => AtomKind::Ldmatrix {
                num: 1,
                trans: false,
            },
            "SM75_U32x2_LDSM_N" => AtomKind::Ldmatrix {
                num: 2,
                trans: false,
            },
            "SM75_U32x4_LDSM_N" => AtomKind::Ldmatrix {
                num: 4,
                trans: false,
            },
            "SM75_U16x2_LDSM_T" => AtomKind::Ldmatrix {
                num: 1,
                trans: true,
            },
            "SM75_U16x4_LDSM_T" => AtomKind::Ldmatrix {
                num: 2,
                trans: true,
            },
            "SM75_U16x8_LDSM_T" => AtomKind::Ldmatrix {
                num: 4,
                trans: true,
            },
            "SM90_U32x1_STSM_N" => AtomKind::Stmatrix {
                num: 1,
                trans: false,
            },
            "SM90_U32x2_STSM_N" => AtomKind::Stmatrix {
                num: 2,
                trans: false,
            },
            "SM90_U32x4_STSM_N" => AtomKind::Stmatrix {
                num: 4,
                trans: false,
            },
            "SM90_U16x2_STSM_T" => AtomKind::Stmatrix {
                num: 1,
                trans: true,
            },
            "SM90_U16x4_STSM_T" => AtomKind::Stmatrix {
                num: 2,
                trans: true,
            },
            "SM90_U16x8_STSM_T" => AtomKind::Stmatrix {
                num: 4,
                trans: true,
            },
            "SM80_CP_ASYNC_CACHEALWAYS_U128" => AtomKind::CpAsync { bytes: 16 },
            "tma" | "SM90_TMA_LOAD" => AtomKind::Tma,
            _ => {
                let parts: Vec<&str> = name.split('.').collect();
                let num = |s: &str| -> Option<u64> { s.strip_prefix('x')?.parse().ok() };
                match parts.as_slice() {
                    ["ldmatrix", x] => AtomKind::Ldmatrix {
                        num: num(x).unwrap_or(0),
                        trans: false,
                    },
                    ["ldmatrix", x, "trans"] => AtomKind::Ldmatrix {
                        num: num(x).unwrap_or(0),
                        trans: true,
                    },
                    ["stmatrix", x] => AtomKind::Stmatrix {
                        num: num(x).unwrap_or(0),
                        trans: false,
                    },
                    ["stmatrix", x, "trans"] => AtomKind::Stmatrix {
                        num: num(x).unwrap_or(0),
                        trans: true,
                    },
                    ["cp", "async", b] => AtomKind::CpAsync {
                        bytes: b.parse().unwrap_or(0),
                    },
                    ["ld" | "st", "shared", b] => AtomKind::Shared {
                        bytes: b.parse().unwrap_or(0),
                    },
                    _ => {
                        return Err(BankError::BadInput {
                            what: "atom",
                            detail: format!("unknown copy atom `{name}`"),
                            suggestions: ATOM_NAMES.iter().map(|s| s.to_string()).collect(),
                        })
                    }
                }
            }
        };
        Ok(Atom { kind })
    }

    /// The instruction it issues.
    pub fn instr(&self) -> Instr {
        match self.kind {
            AtomKind::Ldmatrix { num, trans } => Instr::Ldmatrix { num, trans },
            AtomKind::Stmatrix { num, trans } => Instr::Stmatrix { num, trans },
            AtomKind::CpAsync { bytes } => Instr::CpAsync { bytes },
            AtomKind::Shared { bytes } => Instr::Shared { width: Some(bytes) },
            AtomKind::Tma => Instr::Tma,
        }
    }

    /// The access of this atom repeated over `smem`'s tile. `major` says which tile dimension is
    /// contiguous in the source of a copy (`None`: K-major, or MN-major for `.trans` matrices).
    ///
    /// Pre: the atom tile divides the tile. Post: an [`Access`] with `atom = Some(..)`.
    pub fn access(&self, smem: &Smem, dtype: Dtype, major: Option<Major>) -> BResult<Access> {
        let (m, n) = smem.shape2()?;
        let (tv, tile): (String, (u64, u64)) = match self.kind {
            AtomKind::Ldmatrix { num, trans } | AtomKind::Stmatrix { num, trans } => {
                let instr = self.instr();
                super::check_dtype(instr, dtype)?;
                match (num, trans) {
                    (4, false) => ("((16,2),8):((1,128),16)".into(), (16, 16)),
                    (2, false) => ("((8,2,2),8):((1,64,0),8)".into(), (8, 16)),
                    (1, false) => ("((8,4),8):((1,0),8)".into(), (8, 8)),
                    (4, true) => ("((8,2,2),8):((16,8,128),1)".into(), (16, 16)),
                    (2, true) => ("((8,2,2),8):((8,64,0),1)".into(), (8, 16)),
                    (1, true) => ("((8,4),8):((8,0),1)".into(), (8, 8)),
                    _ => {
                        return Err(BankError::BadInput {
                            what: "atom",
                            detail: format!("{instr}: the matrix count must be 1, 2 or 4"),
                            suggestions: vec!["x1".into(), "x2".into(), "x4".into()],
                        })
                    }
                }
            }
            AtomKind::CpAsync { bytes } | AtomKind::Shared { bytes } => {
                walker(bytes, dtype, major, (m, n), self)?
            }
            AtomKind::Tma => walker(16, dtype, major, (m, n), self)?,
        };
        let tv: Layout = tv.parse()?;
        Ok(Access {
            tv,
            instr: self.instr(),
            atom: Some(tile),
        })
    }
}

/// A coalesced walker: 32 threads, `bytes` each, contiguous dimension first.
fn walker(
    bytes: u64,
    dtype: Dtype,
    major: Option<Major>,
    (m, n): (u64, u64),
    atom: &Atom,
) -> BResult<(String, (u64, u64))> {
    super::check_dtype(atom.instr(), dtype)?;
    if bytes < super::elem_bytes(dtype) || !bytes.is_multiple_of(super::elem_bytes(dtype)) {
        return Err(BankError::BadDtype {
            instr: atom.instr().to_string(),
            dtype: dtype.name.into(),
            detail: format!(
                "{}-byte elements do not fill {bytes} bytes",
                super::elem_bytes(dtype)
            ),
            suggestions: Vec::new(),
        });
    }
    let v = bytes / super::elem_bytes(dtype);
    let contig = match major.unwrap_or(Major::K) {
        Major::K => n,
        Major::MN => m,
    };
    let along = (contig / v).clamp(1, 32);
    if contig % v != 0 || 32 % along != 0 {
        return Err(BankError::BadInput {
            what: "tile",
            detail: format!("the contiguous extent {contig} is not a multiple of {v} elements per thread with a power-of-two thread count"),
            suggestions: Vec::new(),
        });
    }
    let across = 32 / along;
    Ok(match major.unwrap_or(Major::K) {
        // Thread (a along K, b along M): m = b, k = a·v + value; atom tile (across, along·v).
        Major::K => (
            format!("(({along},{across}),{v}):(({},1),{across})", across * v),
            (across, along * v),
        ),
        // Thread (a along M, b along K): m = a·v + value, k = b; atom tile (along·v, across).
        Major::MN => (
            format!("(({along},{across}),{v}):(({v},{}),1)", along * v),
            (along * v, across),
        ),
    })
}
