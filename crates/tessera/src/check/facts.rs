//! The element types `tessera check` names, and the GPU facts it reads, all from
//! [`crate::target`] (one fact, one place): widths and CUTLASS names from
//! [`crate::target::Dtype`], capacity, clusters, TMA and GMMA from [`crate::target::Arch`] and
//! its constants. Only the spelling of kernel names (CUTLASS's generator writes `s8`, `s32`) is
//! this module's.

use crate::target::{self, Arch, Dtype};

pub use crate::target::{
    MBARRIER_BYTES, TMA_GMEM_ALIGN, TMA_SMEM_ALIGN, WARPGROUP_THREADS as WARPGROUP,
    WARP_THREADS as WARP,
};

/// GMMA's M (see [`crate::target::GMMA_SHAPES`]).
pub const GMMA_M: u64 = target::GMMA_SHAPES.m;
/// GMMA's largest N.
pub const GMMA_N_MAX: u64 = target::GMMA_SHAPES.n_max;
/// GMMA's N step (and smallest N).
pub const GMMA_N_STEP: u64 = target::GMMA_SHAPES.n_step;
/// GMMA's K extent in bytes.
pub const GMMA_K_BYTES: u64 = target::GMMA_SHAPES.k_bytes;

/// An element type of a GEMM operand or accumulator.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum Elem {
    /// IEEE half.
    F16,
    /// bfloat16.
    Bf16,
    /// IEEE single.
    F32,
    /// TensorFloat-32 (stored in 32 bits).
    Tf32,
    /// IEEE double.
    F64,
    /// FP8 E4M3.
    E4m3,
    /// FP8 E5M2.
    E5m2,
    /// Signed 8-bit integer.
    S8,
    /// Unsigned 8-bit integer.
    U8,
    /// Signed 32-bit integer.
    S32,
    /// No tensor (a void C: no source).
    Void,
}

/// `(elem, the generator's short name, the target table's row)`.
const ELEMS: &[(Elem, &str, Option<Dtype>)] = &[
    (Elem::F16, "f16", Some(target::dtype::F16)),
    (Elem::Bf16, "bf16", Some(target::dtype::BF16)),
    (Elem::F32, "f32", Some(target::dtype::F32)),
    (Elem::Tf32, "tf32", Some(target::dtype::TF32)),
    (Elem::F64, "f64", Some(target::dtype::F64)),
    (Elem::E4m3, "e4m3", Some(target::dtype::E4M3)),
    (Elem::E5m2, "e5m2", Some(target::dtype::E5M2)),
    (Elem::S8, "s8", Some(target::dtype::I8)),
    (Elem::U8, "u8", Some(target::dtype::U8)),
    (Elem::S32, "s32", Some(target::dtype::I32)),
    (Elem::Void, "void", None),
];

impl Elem {
    /// Parses the generator's short name (`f16`, `s8`, `s32`, `void`) or any name of the target
    /// table (`half_t`, `i8`, `int8`, `cutlass::bfloat16_t`, `fp16`, …).
    ///
    /// Pre: none. Post: `None` for other names. Example: `Elem::parse("bf16") == Some(Elem::Bf16)`.
    pub fn parse(s: &str) -> Option<Elem> {
        let t = s.trim().to_ascii_lowercase();
        let t = t
            .trim_start_matches("cutlass::")
            .trim_start_matches("cute::");
        if let Some((e, ..)) = ELEMS.iter().find(|(_, n, _)| *n == t) {
            return Some(*e);
        }
        let alias = match t {
            "fp16" => "f16",
            "fp32" => "f32",
            "fp64" => "f64",
            "fp8_e4m3" => "e4m3",
            "fp8_e5m2" => "e5m2",
            o => o,
        };
        let d = Dtype::parse(alias).ok()?;
        ELEMS
            .iter()
            .find(|(_, _, r)| r.is_some_and(|r| r.name == d.name))
            .map(|(e, ..)| *e)
    }
    /// The short name as the CUTLASS generator writes it in kernel names.
    ///
    /// Pre: none. Post: a name [`Elem::parse`] reads back. Example: `Elem::S8.name() == "s8"`.
    pub fn name(self) -> &'static str {
        ELEMS.iter().find(|r| r.0 == self).map_or("?", |r| r.1)
    }
    /// The CUTLASS C++ type.
    ///
    /// Pre: none. Post: `cutlass::<type>` or a builtin type. Example: `Elem::F16.cutlass() == "half_t"`.
    pub fn cutlass(self) -> &'static str {
        ELEMS
            .iter()
            .find(|r| r.0 == self)
            .and_then(|r| r.2)
            .map_or("void", |d| d.cutlass)
    }
    /// Width in bits (0 for void), from the target table.
    ///
    /// Pre: none. Post: 0, 8, 16, 32 or 64. Example: `Elem::Bf16.bits() == 16`.
    pub fn bits(self) -> u64 {
        ELEMS
            .iter()
            .find(|r| r.0 == self)
            .and_then(|r| r.2)
            .map_or(0, |d| u64::from(d.bits))
    }
    /// The `CUtensorMapDataType` CUTLASS gives it (the target table's), if any.
    ///
    /// Pre: none. Post: `None` for void. Example: `Elem::E4m3.tma() == Some(TmaDataType::U8)`.
    pub fn tma(self) -> Option<target::TmaDataType> {
        ELEMS
            .iter()
            .find(|r| r.0 == self)
            .and_then(|r| r.2)
            .and_then(|d| d.tma)
    }
    /// Width in bytes (0 for void).
    ///
    /// Pre: none. Post: `bits() / 8`. Example: `Elem::F32.bytes() == 4`.
    pub fn bytes(self) -> u64 {
        self.bits() / 8
    }
}

/// Shared memory per block (the opt-in maximum) by compute capability, from the target table
/// (sm90 232,448 B = CUTLASS's `sm90_smem_capacity_bytes`; sm80 166,912 B; sm86/sm89 101,376 B).
///
/// Pre: none. Post: `None` for an unknown arch. Example: `smem_capacity(90) == Some(232_448)`.
pub fn smem_capacity(sm: u32) -> Option<u64> {
    Arch::of(sm).map(|a| a.smem_per_block)
}

/// The largest cluster: portable, or with the non-portable opt-in; `None` without clusters.
///
/// Pre: none. Post: from the target table. Example: `cluster_limit(90, true) == Some(16)`.
pub fn cluster_limit(sm: u32, non_portable: bool) -> Option<u64> {
    Arch::of(sm)?
        .clusters
        .map(|c| u64::from(if non_portable { c.max } else { c.portable }))
}

/// Whether the arch has TMA (and so thread-block clusters and, with sm_90a, GMMA).
///
/// Pre: none. Post: from the target table. Example: `has_tma(80) == false`.
pub fn has_tma(sm: u32) -> bool {
    Arch::of(sm).is_some_and(|a| a.tma())
}
