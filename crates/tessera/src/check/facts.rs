//! The element types and per-architecture numbers `tessera check` reads. (Kept here until the
//! shared `target` tables carry them; one fact, one place.)

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

/// `(elem, short name, CUTLASS type, bits)`.
const ELEMS: &[(Elem, &str, &str, u64)] = &[
    (Elem::F16, "f16", "cutlass::half_t", 16),
    (Elem::Bf16, "bf16", "cutlass::bfloat16_t", 16),
    (Elem::F32, "f32", "float", 32),
    (Elem::Tf32, "tf32", "cutlass::tfloat32_t", 32),
    (Elem::F64, "f64", "double", 64),
    (Elem::E4m3, "e4m3", "cutlass::float_e4m3_t", 8),
    (Elem::E5m2, "e5m2", "cutlass::float_e5m2_t", 8),
    (Elem::S8, "s8", "int8_t", 8),
    (Elem::U8, "u8", "uint8_t", 8),
    (Elem::S32, "s32", "int32_t", 32),
    (Elem::Void, "void", "void", 0),
];

impl Elem {
    /// Parses a short name (`f16`), a CUTLASS name (`cutlass::half_t`, `half_t`) or an alias
    /// (`fp16`, `i8`, `int8`, `bfloat16`).
    ///
    /// Pre: none. Post: `None` for unknown names. Example: `Elem::parse("bf16") == Some(Elem::Bf16)`.
    pub fn parse(s: &str) -> Option<Elem> {
        let t = s.trim().to_ascii_lowercase();
        let t = t
            .trim_start_matches("cutlass::")
            .trim_start_matches("cute::");
        let alias = match t {
            "fp16" | "half" => "f16",
            "bfloat16" => "bf16",
            "fp32" => "f32",
            "fp64" => "f64",
            "i8" | "int8" => "s8",
            "int32" | "i32" => "s32",
            "float_e4m3" | "fp8_e4m3" => "e4m3",
            "float_e5m2" | "fp8_e5m2" => "e5m2",
            o => o,
        };
        ELEMS
            .iter()
            .find(|(_, n, c, _)| *n == alias || c.trim_start_matches("cutlass::") == alias)
            .map(|(e, ..)| *e)
    }
    /// The short name (`f16`), as the CUTLASS generator writes it in kernel names.
    ///
    /// Pre: none. Post: a name [`Elem::parse`] reads back. Example: `Elem::E4m3.name() == "e4m3"`.
    pub fn name(self) -> &'static str {
        ELEMS.iter().find(|r| r.0 == self).map_or("?", |r| r.1)
    }
    /// The CUTLASS C++ type.
    ///
    /// Pre: none. Post: a C++ type name. Example: `Elem::F16.cutlass() == "cutlass::half_t"`.
    pub fn cutlass(self) -> &'static str {
        ELEMS.iter().find(|r| r.0 == self).map_or("?", |r| r.2)
    }
    /// Width in bits (0 for void).
    ///
    /// Pre: none. Post: 0, 8, 16, 32 or 64. Example: `Elem::Bf16.bits() == 16`.
    pub fn bits(self) -> u64 {
        ELEMS.iter().find(|r| r.0 == self).map_or(0, |r| r.3)
    }
    /// Width in bytes (0 for void).
    ///
    /// Pre: none. Post: `bits() / 8`. Example: `Elem::F32.bytes() == 4`.
    pub fn bytes(self) -> u64 {
        self.bits() / 8
    }
}

/// Shared memory per block (opt-in maximum) by compute capability, as CUTLASS states it
/// (`cutlass/arch/arch.h`: sm90 232,448 B = `sm90_smem_capacity_bytes`; sm80 166,912 B =
/// 163 KiB; sm86/sm89 101,376 B = 99 KiB).
///
/// Pre: none. Post: `None` for an unknown arch. Example: `smem_capacity(90) == Some(232_448)`.
pub fn smem_capacity(sm: u32) -> Option<u64> {
    match sm {
        90 => Some(232_448),
        80 => Some(166_912),
        86 | 89 => Some(101_376),
        _ => None,
    }
}

/// The largest portable thread-block cluster (CUDA programming guide: 8), and the largest with
/// `cudaFuncAttributeNonPortableClusterSizeAllowed` on sm90 (16).
pub const CLUSTER_PORTABLE: u64 = 8;
/// See [`CLUSTER_PORTABLE`].
pub const CLUSTER_NON_PORTABLE: u64 = 16;
/// Whether the arch has thread-block clusters, TMA and GMMA (sm90 and later).
///
/// Pre: none. Post: `sm >= 90`. Example: `has_tma(80) == false`.
pub fn has_tma(sm: u32) -> bool {
    sm >= 90
}
/// Threads per warp and per warpgroup.
pub const WARP: u64 = 32;
/// See [`WARP`].
pub const WARPGROUP: u64 = 128;
/// Bytes of one mbarrier.
pub const MBARRIER_BYTES: u64 = 8;
/// GMMA: the instruction M, the N range and step, and the K extent in bytes.
pub const GMMA_M: u64 = 64;
/// See [`GMMA_M`].
pub const GMMA_N_MAX: u64 = 256;
/// See [`GMMA_M`].
pub const GMMA_N_STEP: u64 = 8;
/// See [`GMMA_M`].
pub const GMMA_K_BYTES: u64 = 32;
/// TMA: global address and stride alignment in bytes, and the smem destination alignment.
pub const TMA_GMEM_ALIGN: u64 = 16;
/// See [`TMA_GMEM_ALIGN`].
pub const TMA_SMEM_ALIGN: u64 = 128;
