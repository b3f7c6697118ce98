//! GPU architectures: one row per compute capability, with the facts Tessera's checks use.
//!
//! Sources, cited per field below:
//! - \[guide\] CUDA C++ Programming Guide, "Compute Capabilities", table "Technical
//!   Specifications per Compute Capability" (shared memory per SM and per block, threads per
//!   block, registers) and "Thread Block Clusters" (cluster sizes: 8 portable; 16 with
//!   `cudaFuncAttributeNonPortableClusterSizeAllowed` on H100/B200-class parts).
//! - \[cutlass\] CUTLASS: `include/cutlass/arch/arch.h` (`sm90_smem_capacity_bytes` = 232,448 B,
//!   the opt-in per-block maximum, also used for sm_100) and the CuTe DSL's `SMEM_CAPACITY_MAP`
//!   (`sm_80`: 163 KiB, `sm_86`/`sm_89`/`sm_120`: 99 KiB, `sm_90`/`sm_100`: 227 KiB per block).
//! - \[ptx\] PTX ISA, "Target ISA notes" of each instruction: `ldmatrix` sm_75+, `cp.async`
//!   sm_80+, `stmatrix` and `cp.async.bulk.tensor` (TMA) sm_90+, `wgmma.mma_async` sm_90a,
//!   `tcgen05.*` sm_100a/sm_101a (now sm_110a)/sm_103a, tensor memory 128 lanes × 512 columns of
//!   32-bit cells per SM ("Tensor Memory"); block-scaled `mma.sync` (`kind::mxf8f6f4`)
//!   sm_120a.
//! - \[driver\] CUDA Driver API, `CUtensorMapSwizzle`: the `128B_ATOM_*` swizzle modes need
//!   compute capability 10.0 or later.

use super::TargetError;

/// A family of copy instructions (the copy atoms CuTe names after them).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum CopyFamily {
    /// `ld.shared`/`st.shared` (every architecture).
    Shared,
    /// `ldmatrix` (CuTe `SM75_*_LDSM_*`), sm_75+ \[ptx\].
    Ldmatrix,
    /// `cp.async` (CuTe `SM80_CP_ASYNC_*`), sm_80+ \[ptx\].
    CpAsync,
    /// `stmatrix` (CuTe `SM90_*_STSM_*`), sm_90+ \[ptx\].
    Stmatrix,
    /// `cp.async.bulk.tensor` (TMA, CuTe `SM90_TMA_*`), sm_90+ \[ptx\].
    Tma,
    /// `tcgen05.ld`/`st`/`cp` between registers/shared memory and tensor memory (CuTe
    /// `SM100_TMEM_*`), sm_100a family \[ptx\].
    Tmem,
}

/// A family of MMA instructions.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum MmaFamily {
    /// Warp-level `mma.sync` (CuTe `SM80_16x8x16_*`), sm_80+ for the shapes Tessera uses \[ptx\].
    MmaSync,
    /// Warpgroup `wgmma.mma_async` (CuTe GMMA), sm_90a only \[ptx\].
    Gmma,
    /// `tcgen05.mma` (CuTe UMMA), operands in shared/tensor memory, sm_100a family \[ptx\].
    Umma,
    /// Block-scaled `mma.sync` (`kind::mxf8f6f4`, `kind::mxf4nvf4`), sm_120a family \[ptx\].
    MmaSyncBlockScaled,
}

/// Shared-memory bank geometry.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct BankGeometry {
    /// Banks (word `w` is in bank `w mod banks`).
    pub banks: u64,
    /// Bytes per bank word.
    pub word_bytes: u64,
}

/// 32 banks of 4 bytes: every architecture since compute capability 5.0 \[guide\], section
/// "Shared Memory" of each compute-capability chapter.
pub const SMEM_BANKS: BankGeometry = BankGeometry {
    banks: 32,
    word_bytes: 4,
};

/// Tensor-memory geometry (per SM).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct Tmem {
    /// Lanes (rows).
    pub lanes: u64,
    /// 32-bit columns.
    pub columns: u64,
}

/// Tensor memory of the sm_100 family: 128 lanes × 512 columns of 32-bit cells \[ptx\] "Tensor
/// Memory"; nvFuser `doc/dev/tmem.md`.
pub const TMEM: Tmem = Tmem {
    lanes: 128,
    columns: 512,
};

/// Thread-block cluster limits (CTAs per cluster).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct Clusters {
    /// The portable maximum.
    pub portable: u32,
    /// The maximum with the non-portable opt-in.
    pub max: u32,
}

/// One architecture (a compute capability).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Arch {
    /// Compute capability × 10 (`90` for 9.0).
    pub cc: u32,
    /// Other numbers that name the same architecture (`101` for sm_110, renamed in CUDA 13).
    pub also: &'static [u32],
    /// The product family (`Hopper`, …).
    pub family: &'static str,
    /// Shared memory per SM in bytes \[guide\].
    pub smem_per_sm: u64,
    /// The most shared memory one block may use (with the opt-in attribute), in bytes
    /// \[guide\], \[cutlass\].
    pub smem_per_block: u64,
    /// Threads per block \[guide\].
    pub max_threads_per_block: u32,
    /// 32-bit registers per SM \[guide\].
    pub registers_per_sm: u32,
    /// Registers per thread \[guide\].
    pub registers_per_thread: u32,
    /// Bank geometry.
    pub banks: BankGeometry,
    /// Tensor memory, if any.
    pub tmem: Option<Tmem>,
    /// Cluster limits; `None` before sm_90 (no clusters).
    pub clusters: Option<Clusters>,
    /// Whether TMA accepts the `128B_ATOM_*` swizzle modes \[driver\].
    pub tma_atom_swizzle: bool,
    /// The copy families available.
    pub copies: &'static [CopyFamily],
    /// The MMA families available (arch-specific ones need the `a`/`f` target).
    pub mmas: &'static [MmaFamily],
}

const KIB: u64 = 1024;
const AMPERE_COPIES: &[CopyFamily] = &[
    CopyFamily::Shared,
    CopyFamily::Ldmatrix,
    CopyFamily::CpAsync,
];
const HOPPER_COPIES: &[CopyFamily] = &[
    CopyFamily::Shared,
    CopyFamily::Ldmatrix,
    CopyFamily::CpAsync,
    CopyFamily::Stmatrix,
    CopyFamily::Tma,
];
const BLACKWELL_COPIES: &[CopyFamily] = &[
    CopyFamily::Shared,
    CopyFamily::Ldmatrix,
    CopyFamily::CpAsync,
    CopyFamily::Stmatrix,
    CopyFamily::Tma,
    CopyFamily::Tmem,
];

const fn arch(
    cc: u32,
    also: &'static [u32],
    family: &'static str,
    smem_kib: u64,
    copies: &'static [CopyFamily],
    mmas: &'static [MmaFamily],
) -> Arch {
    let sm90_plus = cc >= 90;
    let tcgen05 = matches!(cc, 100 | 103 | 110);
    Arch {
        cc,
        also,
        family,
        smem_per_sm: smem_kib * KIB,
        // The guide's table: per block = per SM − 1 KiB (reserved by the system) on every
        // architecture listed here.
        smem_per_block: (smem_kib - 1) * KIB,
        max_threads_per_block: 1024,
        registers_per_sm: 65536,
        registers_per_thread: 255,
        banks: SMEM_BANKS,
        tmem: if tcgen05 { Some(TMEM) } else { None },
        clusters: if !sm90_plus {
            None
        } else if matches!(cc, 90 | 100 | 103) {
            Some(Clusters {
                portable: 8,
                max: 16,
            })
        } else {
            // The non-portable size 16 is documented for H100/B200-class parts only.
            Some(Clusters {
                portable: 8,
                max: 8,
            })
        },
        tma_atom_swizzle: cc >= 100,
        copies,
        mmas,
    }
}

/// Ampere A100 (8.0): 164 KiB shared memory per SM, 163 KiB per block.
pub const SM80: Arch = arch(80, &[], "Ampere", 164, AMPERE_COPIES, &[MmaFamily::MmaSync]);
/// Ampere GA10x (8.6): 100 KiB per SM, 99 KiB per block.
pub const SM86: Arch = arch(86, &[], "Ampere", 100, AMPERE_COPIES, &[MmaFamily::MmaSync]);
/// Ada (8.9): 100 KiB per SM, 99 KiB per block.
pub const SM89: Arch = arch(89, &[], "Ada", 100, AMPERE_COPIES, &[MmaFamily::MmaSync]);
/// Hopper (9.0): 228 KiB per SM, 227 KiB (232,448 B, CUTLASS's `sm90_smem_capacity_bytes`) per
/// block; wgmma with `sm_90a`.
pub const SM90: Arch = arch(
    90,
    &[],
    "Hopper",
    228,
    HOPPER_COPIES,
    &[MmaFamily::MmaSync, MmaFamily::Gmma],
);
/// Blackwell B200 (10.0): 228 KiB per SM, 227 KiB per block; tcgen05 with `sm_100a`.
pub const SM100: Arch = arch(
    100,
    &[],
    "Blackwell",
    228,
    BLACKWELL_COPIES,
    &[MmaFamily::MmaSync, MmaFamily::Umma],
);
/// Blackwell B300 (10.3): as sm_100.
pub const SM103: Arch = arch(
    103,
    &[],
    "Blackwell",
    228,
    BLACKWELL_COPIES,
    &[MmaFamily::MmaSync, MmaFamily::Umma],
);
/// Blackwell Thor (11.0, sm_101 before CUDA 13): 228 KiB per SM.
pub const SM110: Arch = arch(
    110,
    &[101],
    "Blackwell",
    228,
    BLACKWELL_COPIES,
    &[MmaFamily::MmaSync, MmaFamily::Umma],
);
/// Blackwell consumer (12.0): 100 KiB per SM, 99 KiB per block; no tcgen05, no tensor memory.
pub const SM120: Arch = arch(
    120,
    &[],
    "Blackwell consumer",
    100,
    HOPPER_COPIES,
    &[MmaFamily::MmaSync, MmaFamily::MmaSyncBlockScaled],
);
/// Blackwell DGX Spark (12.1): as sm_120.
pub const SM121: Arch = arch(
    121,
    &[],
    "Blackwell consumer",
    100,
    HOPPER_COPIES,
    &[MmaFamily::MmaSync, MmaFamily::MmaSyncBlockScaled],
);

/// Every architecture Tessera knows, oldest first.
pub const ARCHS: &[Arch] = &[SM80, SM86, SM89, SM90, SM100, SM103, SM110, SM120, SM121];

/// The feature-set suffix of a target: none, `a` (architecture-specific) or `f` (family).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Variant {
    /// `sm_90`: portable features only.
    Base,
    /// `sm_90a`: architecture-specific features (wgmma, tcgen05).
    Specific,
    /// `sm_100f`: family-specific features.
    Family,
}

/// A parsed target: the architecture, the number as written and its suffix.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Sm {
    /// The architecture.
    pub arch: &'static Arch,
    /// The number as written (`101` stays `101`).
    pub cc: u32,
    /// The suffix.
    pub variant: Variant,
}

impl Arch {
    /// The architecture of a compute capability × 10 (`90`, `101`, …).
    ///
    /// Pre: none. Post: `Some` iff `cc` is a row's `cc` or in its `also`. Example:
    /// `Arch::of(101) == Some(&SM110)`.
    pub fn of(cc: u32) -> Option<&'static Arch> {
        ARCHS.iter().find(|a| a.cc == cc || a.also.contains(&cc))
    }

    /// Parses `sm90`, `sm_90a`, `SM_100f`, `compute_90`, `90`, `9.0` or `10.3`.
    ///
    /// Pre: none. Post: `Err` is [`TargetError::ArchSyntax`] (with the 1-based column of the
    /// first character that does not fit), [`TargetError::UnknownArch`] (well formed, not in
    /// [`ARCHS`]) or [`TargetError::ArchSuffix`] (`a` before sm_90, `f` before sm_100).
    /// Example: `Arch::parse("sm_90a")` is sm_90 with [`Variant::Specific`].
    pub fn parse(text: &str) -> Result<Sm, TargetError> {
        let lead = text.len() - text.trim_start().len();
        let t = text.trim();
        let lower = t.to_ascii_lowercase();
        let mut pos = 0;
        for p in ["sm_", "sm", "compute_"] {
            if lower.starts_with(p) {
                pos = p.len();
                break;
            }
        }
        let syntax = |at: usize| TargetError::ArchSyntax {
            text: text.to_string(),
            column: lead + at + 1,
        };
        let b = lower.as_bytes();
        let digits_end = |from: usize| {
            (from..b.len())
                .find(|&i| !b[i].is_ascii_digit())
                .unwrap_or(b.len())
        };
        let end = digits_end(pos);
        if end == pos || end - pos > 4 {
            return Err(syntax(if end == pos { pos } else { pos + 4 }));
        }
        let major: u32 = lower[pos..end].parse().map_err(|_| syntax(pos))?;
        let (cc, rest) = if b.get(end) == Some(&b'.') && pos == 0 {
            let e2 = digits_end(end + 1);
            if e2 != end + 2 {
                return Err(syntax(end + 1));
            }
            (major * 10 + u32::from(b[end + 1] - b'0'), e2)
        } else {
            (major, end)
        };
        let variant = match &lower[rest..] {
            "" => Variant::Base,
            "a" => Variant::Specific,
            "f" => Variant::Family,
            _ => return Err(syntax(rest)),
        };
        let arch = Arch::of(cc).ok_or_else(|| TargetError::UnknownArch {
            text: text.to_string(),
            cc,
        })?;
        let ok = match variant {
            Variant::Base => true,
            Variant::Specific => arch.cc >= 90,
            Variant::Family => arch.cc >= 100,
        };
        if !ok {
            return Err(TargetError::ArchSuffix {
                text: text.to_string(),
                cc,
            });
        }
        Ok(Sm { arch, cc, variant })
    }

    /// Whether TMA (`cp.async.bulk.tensor`) is available.
    ///
    /// Pre: none. Post: `copies` has [`CopyFamily::Tma`]. Example: `SM90.tma() && !SM89.tma()`.
    pub fn tma(&self) -> bool {
        self.copies.contains(&CopyFamily::Tma)
    }

    /// Whether `cp.async` is available.
    ///
    /// Pre: none. Post: `copies` has [`CopyFamily::CpAsync`]. Example: `SM80.cp_async()`.
    pub fn cp_async(&self) -> bool {
        self.copies.contains(&CopyFamily::CpAsync)
    }

    /// Whether GMMA (`wgmma.mma_async`) is available (with the `a` target).
    ///
    /// Pre: none. Post: `mmas` has [`MmaFamily::Gmma`]. Example: `SM90.gmma() && !SM100.gmma()`.
    pub fn gmma(&self) -> bool {
        self.mmas.contains(&MmaFamily::Gmma)
    }

    /// Whether UMMA (`tcgen05.mma`) is available (with the `a`/`f` target).
    ///
    /// Pre: none. Post: `mmas` has [`MmaFamily::Umma`]. Example: `SM100.umma() && !SM120.umma()`.
    pub fn umma(&self) -> bool {
        self.mmas.contains(&MmaFamily::Umma)
    }

    /// Every compute-capability number (rows and their `also`) whose architecture has TMA,
    /// ascending.
    ///
    /// Pre: none. Post: sorted, no duplicates. Example: `[90, 100, 101, 103, 110, 120, 121]`.
    pub fn tma_numbers() -> Vec<u32> {
        let mut v: Vec<u32> = ARCHS
            .iter()
            .filter(|a| a.tma())
            .flat_map(|a| std::iter::once(a.cc).chain(a.also.iter().copied()))
            .collect();
        v.sort_unstable();
        v.dedup();
        v
    }
}

impl std::fmt::Display for Sm {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        let s = match self.variant {
            Variant::Base => "",
            Variant::Specific => "a",
            Variant::Family => "f",
        };
        write!(f, "sm_{}{s}", self.cc)
    }
}

/// The shapes `wgmma.mma_async` accepts (\[ptx\] "Matrix shape" of wgmma; CuTe's
/// `mma_sm90.hpp`): M is 64, N a multiple of `n_step` in `[n_min, n_max]`, K spans `k_bytes`
/// bytes of the A/B element type (16 for 16-bit types, 8 for tf32, 32 for 8-bit types).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct GmmaShapes {
    /// M of every GMMA instruction.
    pub m: u64,
    /// The smallest N.
    pub n_min: u64,
    /// The largest N.
    pub n_max: u64,
    /// N's step.
    pub n_step: u64,
    /// K × element bytes.
    pub k_bytes: u64,
}

/// GMMA's shapes (sm_90a).
pub const GMMA_SHAPES: GmmaShapes = GmmaShapes {
    m: 64,
    n_min: 8,
    n_max: 256,
    n_step: 8,
    k_bytes: 32,
};

/// Threads per warp and per warpgroup (four warps: what one GMMA instruction runs on) \[ptx\].
pub const WARP_THREADS: u64 = 32;
/// See [`WARP_THREADS`].
pub const WARPGROUP_THREADS: u64 = 128;
/// Bytes of one `mbarrier` object in shared memory (\[ptx\] "Size and alignment of mbarrier
/// object": 8 bytes).
pub const MBARRIER_BYTES: u64 = 8;
/// TMA: the global address and every global stride are multiples of 16 bytes, the shared
/// memory destination is 128-byte aligned (\[driver\] `cuTensorMapEncodeTiled`; \[ptx\]
/// `cp.async.bulk.tensor`).
pub const TMA_GMEM_ALIGN: u64 = 16;
/// See [`TMA_GMEM_ALIGN`]. Measured on an H200: destinations 16–112 bytes past a 128-byte
/// boundary fault with `cudaErrorMisalignedAddress`, with or without a swizzle (`tools/tma_base_hw/`).
pub const TMA_SMEM_ALIGN: u64 = 128;
