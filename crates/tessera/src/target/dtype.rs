//! Element types: one row per type, with its short name, aliases, CUTLASS name, width and the
//! CUDA driver's TMA data type that carries it; and the driver's `CUtensorMapDataType` enum.
//!
//! Sources: CUTLASS `include/cutlass/numeric_types.h`, `float8.h`, `float_subbyte.h`,
//! `integer_subbyte.h` (names and `sizeof_bits`); CUTLASS `include/cute/arch/copy_sm90_desc.hpp`
//! `to_CUtensorMapDataType<T>()` (which driver type carries each element: every 8-bit type, signed
//! or float, travels as `UINT8`; `float_e2m1_t` as `16U4_ALIGN8B`; `float_e2m3_t` as
//! `16U6_ALIGN16B`; `int16_t` has no entry); CUDA Driver API, `CUtensorMapDataType` (the enum's
//! names and values, in declaration order).

use super::TargetError;

/// What kind of number an element type holds.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Kind {
    /// A floating-point type (IEEE or a narrow `eXmY` format).
    Float,
    /// An unsigned floating-point scale type (`ue8m0`, `ue4m3`).
    UnsignedFloat,
    /// A two's-complement signed integer.
    Signed,
    /// An unsigned integer.
    Unsigned,
}

/// One element type.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct Dtype {
    /// The short name Tessera prints (`f16`, `bf16`, `e4m3`, `i8`, …).
    pub name: &'static str,
    /// Other names accepted by [`Dtype::parse`] (`half`, `s8`, `int8`, …), lower case.
    pub aliases: &'static [&'static str],
    /// CUTLASS's type name (`half_t`, `bfloat16_t`, `float_e4m3_t`, `int8_t`, …).
    pub cutlass: &'static str,
    /// `sizeof_bits`: the width of one element in bits.
    pub bits: u32,
    /// Float, unsigned float, signed or unsigned integer.
    pub kind: Kind,
    /// The `CUtensorMapDataType` CUTLASS's `to_CUtensorMapDataType` gives it, if any.
    pub tma: Option<TmaDataType>,
}

macro_rules! dtype {
    ($c:ident, $name:literal, [$($a:literal),*], $cutlass:literal, $bits:literal, $kind:ident, $tma:expr) => {
        #[doc = concat!("`", $name, "` (CUTLASS `", $cutlass, "`, ", stringify!($bits), " bits).")]
        pub const $c: Dtype = Dtype {
            name: $name,
            aliases: &[$($a),*],
            cutlass: $cutlass,
            bits: $bits,
            kind: Kind::$kind,
            tma: $tma,
        };
    };
}

use TmaDataType as T;
dtype!(I8, "i8", ["s8", "int8"], "int8_t", 8, Signed, Some(T::U8));
dtype!(
    U8,
    "u8",
    ["uint8", "byte"],
    "uint8_t",
    8,
    Unsigned,
    Some(T::U8)
);
dtype!(
    E4M3,
    "e4m3",
    ["fp8", "float8_e4m3"],
    "float_e4m3_t",
    8,
    Float,
    Some(T::U8)
);
dtype!(
    E5M2,
    "e5m2",
    ["float8_e5m2"],
    "float_e5m2_t",
    8,
    Float,
    Some(T::U8)
);
dtype!(
    F16,
    "f16",
    ["half", "float16", "fp16"],
    "half_t",
    16,
    Float,
    Some(T::F16)
);
dtype!(
    BF16,
    "bf16",
    ["bfloat16"],
    "bfloat16_t",
    16,
    Float,
    Some(T::Bf16)
);
dtype!(I16, "i16", ["s16", "int16"], "int16_t", 16, Signed, None);
dtype!(
    F32,
    "f32",
    ["float", "float32", "fp32"],
    "float",
    32,
    Float,
    Some(T::F32)
);
dtype!(
    TF32,
    "tf32",
    ["tfloat32"],
    "tfloat32_t",
    32,
    Float,
    Some(T::Tf32)
);
dtype!(
    I32,
    "i32",
    ["s32", "int32", "int"],
    "int32_t",
    32,
    Signed,
    Some(T::I32)
);
dtype!(
    U32,
    "u32",
    ["uint32"],
    "uint32_t",
    32,
    Unsigned,
    Some(T::U32)
);
dtype!(
    F64,
    "f64",
    ["double", "float64", "fp64"],
    "double",
    64,
    Float,
    Some(T::F64)
);
dtype!(
    I64,
    "i64",
    ["s64", "int64"],
    "int64_t",
    64,
    Signed,
    Some(T::I64)
);
dtype!(
    U16,
    "u16",
    ["uint16"],
    "uint16_t",
    16,
    Unsigned,
    Some(T::U16)
);
dtype!(
    U64,
    "u64",
    ["uint64"],
    "uint64_t",
    64,
    Unsigned,
    Some(T::U64)
);
dtype!(
    UE8M0,
    "ue8m0",
    [],
    "float_ue8m0_t",
    8,
    UnsignedFloat,
    Some(T::U8)
);
dtype!(UE4M3, "ue4m3", [], "float_ue4m3_t", 8, UnsignedFloat, None);
dtype!(I4, "i4", ["s4", "int4"], "int4b_t", 4, Signed, None);
dtype!(U4, "u4", ["uint4"], "uint4b_t", 4, Unsigned, None);
dtype!(
    E2M1,
    "e2m1",
    ["fp4"],
    "float_e2m1_t",
    4,
    Float,
    Some(T::U4Align8B)
);
dtype!(
    E2M3,
    "e2m3",
    ["fp6"],
    "float_e2m3_t",
    6,
    Float,
    Some(T::U6Align16B)
);
dtype!(E3M2, "e3m2", [], "float_e3m2_t", 6, Float, None);

/// Every element type, in the order Tessera lists them.
pub const DTYPES: &[Dtype] = &[
    I8, U8, E4M3, E5M2, F16, BF16, I16, F32, TF32, I32, U32, F64, I64, U16, U64, UE8M0, UE4M3, I4,
    U4, E2M1, E2M3, E3M2,
];

impl Dtype {
    /// The element type of a name: its short name, an alias or its CUTLASS name (with or without
    /// a `cutlass::`/`cute::` prefix), case-insensitive, surrounding blanks ignored.
    ///
    /// Pre: none. Post: `Err` is [`TargetError::UnknownDtype`] listing the short names.
    /// Example: `Dtype::parse("half_t")` and `Dtype::parse("F16")` are [`F16`].
    pub fn parse(name: &str) -> Result<Dtype, TargetError> {
        let t = name.trim();
        let bare = t
            .trim_start_matches("cutlass::")
            .trim_start_matches("cute::");
        let l = t.to_ascii_lowercase();
        DTYPES
            .iter()
            .copied()
            .find(|d| d.name == l || d.aliases.contains(&l.as_str()) || d.cutlass == bare)
            .ok_or_else(|| TargetError::UnknownDtype {
                name: name.to_string(),
            })
    }

    /// The element type of a CUTLASS name (`half_t`, `cutlass::float_e4m3_t`, …), exactly.
    ///
    /// Pre: none. Post: `Some` iff some row's [`Dtype::cutlass`] equals the name without its
    /// `cutlass::`/`cute::` prefix. Example: `Dtype::of_cutlass("float") == Some(F32)`.
    pub fn of_cutlass(name: &str) -> Option<Dtype> {
        let t = name
            .trim_start_matches("cutlass::")
            .trim_start_matches("cute::");
        DTYPES.iter().copied().find(|d| d.cutlass == t)
    }

    /// Bytes per element, when the width is a whole number of bytes.
    ///
    /// Pre: none. Post: `bits / 8` when `bits % 8 == 0`, else `None`. Example: `F16.bytes() ==
    /// Some(2)`, `E2M1.bytes() == None`.
    pub fn bytes(self) -> Option<u64> {
        self.bits
            .is_multiple_of(8)
            .then_some(u64::from(self.bits / 8))
    }

    /// Whether it is a floating-point type (signed or unsigned).
    ///
    /// Pre: none. Post: `kind` is `Float` or `UnsignedFloat`. Example: `TF32.is_float()`.
    pub fn is_float(self) -> bool {
        matches!(self.kind, Kind::Float | Kind::UnsignedFloat)
    }
}

/// `CUtensorMapDataType`, the CUDA driver's TMA element types, in declaration order.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum TmaDataType {
    /// `UINT8`.
    U8,
    /// `UINT16`.
    U16,
    /// `UINT32`.
    U32,
    /// `INT32`.
    I32,
    /// `UINT64`.
    U64,
    /// `INT64`.
    I64,
    /// `FLOAT16`.
    F16,
    /// `FLOAT32`.
    F32,
    /// `FLOAT64`.
    F64,
    /// `BFLOAT16`.
    Bf16,
    /// `FLOAT32_FTZ`.
    F32Ftz,
    /// `TFLOAT32`.
    Tf32,
    /// `TFLOAT32_FTZ`.
    Tf32Ftz,
    /// `16U4_ALIGN8B`: 16 packed 4-bit values in 8 bytes (4 bits each in memory).
    U4Align8B,
    /// `16U4_ALIGN16B`: 16 packed 4-bit values in 16 bytes (8 bits each in memory).
    U4Align16B,
    /// `16U6_ALIGN16B`: 16 packed 6-bit values in 16 bytes (8 bits each in memory).
    U6Align16B,
}

/// What a driver type holds: one element type, the same with flush-to-zero, or packed values.
#[derive(Debug, Clone, Copy)]
enum Repr {
    /// Elements of this type, named and sized by it.
    Element(Dtype),
    /// Elements of this type, flushed to zero: the short name, the type.
    Ftz(&'static str, Dtype),
    /// Packed sub-byte values: the short name, the bits one value occupies in memory.
    Packed(&'static str, u64),
}

/// The driver's enum, in declaration order (the index is the enum value).
const TMA_DATA_TYPES: [(TmaDataType, &str, Repr); 16] = [
    (T::U8, "CU_TENSOR_MAP_DATA_TYPE_UINT8", Repr::Element(U8)),
    (T::U16, "CU_TENSOR_MAP_DATA_TYPE_UINT16", Repr::Element(U16)),
    (T::U32, "CU_TENSOR_MAP_DATA_TYPE_UINT32", Repr::Element(U32)),
    (T::I32, "CU_TENSOR_MAP_DATA_TYPE_INT32", Repr::Element(I32)),
    (T::U64, "CU_TENSOR_MAP_DATA_TYPE_UINT64", Repr::Element(U64)),
    (T::I64, "CU_TENSOR_MAP_DATA_TYPE_INT64", Repr::Element(I64)),
    (
        T::F16,
        "CU_TENSOR_MAP_DATA_TYPE_FLOAT16",
        Repr::Element(F16),
    ),
    (
        T::F32,
        "CU_TENSOR_MAP_DATA_TYPE_FLOAT32",
        Repr::Element(F32),
    ),
    (
        T::F64,
        "CU_TENSOR_MAP_DATA_TYPE_FLOAT64",
        Repr::Element(F64),
    ),
    (
        T::Bf16,
        "CU_TENSOR_MAP_DATA_TYPE_BFLOAT16",
        Repr::Element(BF16),
    ),
    (
        T::F32Ftz,
        "CU_TENSOR_MAP_DATA_TYPE_FLOAT32_FTZ",
        Repr::Ftz("f32_ftz", F32),
    ),
    (
        T::Tf32,
        "CU_TENSOR_MAP_DATA_TYPE_TFLOAT32",
        Repr::Element(TF32),
    ),
    (
        T::Tf32Ftz,
        "CU_TENSOR_MAP_DATA_TYPE_TFLOAT32_FTZ",
        Repr::Ftz("tf32_ftz", TF32),
    ),
    (
        T::U4Align8B,
        "CU_TENSOR_MAP_DATA_TYPE_16U4_ALIGN8B",
        Repr::Packed("16u4_align8b", 4),
    ),
    (
        T::U4Align16B,
        "CU_TENSOR_MAP_DATA_TYPE_16U4_ALIGN16B",
        Repr::Packed("16u4_align16b", 8),
    ),
    (
        T::U6Align16B,
        "CU_TENSOR_MAP_DATA_TYPE_16U6_ALIGN16B",
        Repr::Packed("16u6_align16b", 8),
    ),
];

impl TmaDataType {
    fn row(self) -> &'static (TmaDataType, &'static str, Repr) {
        // The table is in enum order (checked by a test).
        &TMA_DATA_TYPES[self as usize]
    }

    /// Parses a driver type's short name (`f16`, `f32_ftz`, `16u4_align8b`, …), its enum name
    /// (`CU_TENSOR_MAP_DATA_TYPE_FLOAT16`, case-insensitive), or any element type name
    /// [`Dtype::parse`] accepts that has a driver type (`half`, `e4m3` → `UINT8`, `int8_t` →
    /// `UINT8`).
    ///
    /// Pre: none. Post: `None` for unknown names and element types without a driver type.
    /// Example: `TmaDataType::parse("half") == Some(TmaDataType::F16)`.
    pub fn parse(s: &str) -> Option<TmaDataType> {
        let t = s.trim();
        let l = t.to_ascii_lowercase();
        TMA_DATA_TYPES
            .iter()
            .find(|(d, cu, _)| d.name() == l || cu.eq_ignore_ascii_case(t))
            .map(|(d, _, _)| *d)
            .or_else(|| Dtype::parse(t).ok()?.tma)
    }
    /// The short name.
    ///
    /// Pre: none. Post: parses back. Example: `TmaDataType::Bf16.name() == "bf16"`.
    pub fn name(self) -> &'static str {
        match self.row().2 {
            Repr::Element(d) => d.name,
            Repr::Ftz(n, _) | Repr::Packed(n, _) => n,
        }
    }
    /// The driver enum name.
    ///
    /// Pre: none. Post: a `CU_TENSOR_MAP_DATA_TYPE_*` name. Example: `TmaDataType::F16.cu_name()
    /// == "CU_TENSOR_MAP_DATA_TYPE_FLOAT16"`.
    pub fn cu_name(self) -> &'static str {
        self.row().1
    }
    /// The driver enum value.
    ///
    /// Pre: none. Post: `0..=15`. Example: `TmaDataType::F16.cu_value() == 6`.
    pub fn cu_value(self) -> u32 {
        self as u32
    }
    /// Bits one element occupies in memory (packed ALIGN16B types include the gaps).
    ///
    /// Pre: none. Post: 4, 8, 16, 32 or 64. Example: `TmaDataType::U4Align8B.mem_bits() == 4`.
    pub fn mem_bits(self) -> u64 {
        match self.row().2 {
            Repr::Element(d) | Repr::Ftz(_, d) => u64::from(d.bits),
            Repr::Packed(_, b) => b,
        }
    }
    /// Whether it is one of the packed types.
    ///
    /// Pre: none. Post: true for the three `16U*` types. Example: `!TmaDataType::F16.is_packed()`.
    pub fn is_packed(self) -> bool {
        matches!(self.row().2, Repr::Packed(..))
    }
    /// Whether it is a floating-point type (NaN OOB fill is allowed).
    ///
    /// Pre: none. Post: true for f16, bf16, f32, f64, tf32 and the FTZ variants.
    /// Example: `TmaDataType::Tf32.is_float()`.
    pub fn is_float(self) -> bool {
        match self.row().2 {
            Repr::Element(d) | Repr::Ftz(_, d) => d.is_float(),
            Repr::Packed(..) => false,
        }
    }
    /// The element type it holds, for the types that hold one (not the packed ones).
    ///
    /// Pre: none. Post: `Some` unless packed. Example: `TmaDataType::F32Ftz.element() ==
    /// Some(F32)`.
    pub fn element(self) -> Option<Dtype> {
        match self.row().2 {
            Repr::Element(d) | Repr::Ftz(_, d) => Some(d),
            Repr::Packed(..) => None,
        }
    }
    /// All types.
    ///
    /// Pre: none. Post: 16 types in enum order. Example: `TmaDataType::all()[6] ==
    /// TmaDataType::F16`.
    pub fn all() -> Vec<TmaDataType> {
        TMA_DATA_TYPES.iter().map(|x| x.0).collect()
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn driver_table_is_in_enum_order() {
        for (i, (d, _, _)) in TMA_DATA_TYPES.iter().enumerate() {
            assert_eq!(*d as usize, i);
        }
    }

    #[test]
    fn names_are_unique() {
        let mut all: Vec<&str> = Vec::new();
        for d in DTYPES {
            all.push(d.name);
            all.extend(d.aliases.iter().copied());
        }
        let n = all.len();
        all.sort_unstable();
        all.dedup();
        assert_eq!(all.len(), n, "a name or alias is used twice");
        let mut cut: Vec<&str> = DTYPES.iter().map(|d| d.cutlass).collect();
        cut.sort_unstable();
        cut.dedup();
        assert_eq!(cut.len(), DTYPES.len());
    }
}
