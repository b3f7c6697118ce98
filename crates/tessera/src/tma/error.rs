//! The error type of the TMA planner: one variant per rule of `cuTensorMapEncodeTiled`, the PTX
//! bulk tensor copy and nvFuser, each naming the rule, the values and the source.
//!
//! [`Error::code`] is a stable snake_case code; [`Error::source_doc`] says where the rule comes from.

/// Where a rule comes from.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Source {
    /// CUDA Driver API reference, `cuTensorMapEncodeTiled` (Tensor Map Object Management).
    Driver,
    /// PTX ISA, `cp.async.bulk.tensor` and the mbarrier transaction count.
    Ptx,
    /// nvFuser (`csrc/tma.cpp`, `csrc/device_lower/analysis/tma.cpp`), stricter than the driver.
    NvFuser,
    /// Tessera itself (input shape, arithmetic).
    Tessera,
}

impl Source {
    /// A short citation.
    ///
    /// Pre: none. Post: a non-empty string. Example: `Source::Driver.cite()` starts with
    /// `"CUDA Driver API"`.
    pub fn cite(self) -> &'static str {
        match self {
            Source::Driver => "CUDA Driver API, cuTensorMapEncodeTiled",
            Source::Ptx => "PTX ISA, cp.async.bulk.tensor",
            Source::NvFuser => "nvFuser csrc/tma.cpp and csrc/device_lower/analysis/tma.cpp",
            Source::Tessera => "Tessera",
        }
    }
}

/// A failed rule of TMA descriptor encoding (or a malformed request).
///
/// Dimension indices `dim` are the driver's (0 = innermost, the stride-1 dimension).
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub enum Error {
    /// `tensorRank` must be in `1..=5`.
    #[error("tensorRank must be non-zero and <= 5, found {rank} [driver]")]
    Rank {
        /// The rank.
        rank: usize,
    },
    /// With interleave, `tensorRank >= 3`.
    #[error("with interleave {interleave}, tensorRank must be >= 3, found {rank} [driver]")]
    InterleaveRank {
        /// The rank.
        rank: usize,
        /// The interleave.
        interleave: &'static str,
    },
    /// The arrays must all have one entry per dimension.
    #[error("{what} has {found} entries but the tensor has rank {rank} [tessera]")]
    Arity {
        /// Which array.
        what: &'static str,
        /// Its length.
        found: usize,
        /// The rank.
        rank: usize,
    },
    /// `globalAddress` must be 16-byte aligned (32 with interleave 32B or packed ALIGN16B types).
    #[error("globalAddress must be {required}-byte aligned, but {address} is only known to be {known}-byte aligned [driver]")]
    Address {
        /// The address (or 0 when only an alignment is known).
        address: u64,
        /// The largest power of two known to divide it (capped at 2^20).
        known: u64,
        /// The required alignment.
        required: u64,
    },
    /// `globalDim[i]` must be in `1..=2^32`.
    #[error("globalDim[{dim}] must be non-zero and <= 2^32, found {value} [driver]")]
    GlobalDim {
        /// Driver dimension.
        dim: usize,
        /// The value.
        value: u64,
    },
    /// Packed types constrain `globalDim[0]`.
    #[error("with {dtype}, globalDim[0] must be a multiple of {multiple}, found {value} [driver]")]
    PackedGlobalDim {
        /// Data type.
        dtype: &'static str,
        /// The value.
        value: u64,
        /// The required multiple.
        multiple: u64,
    },
    /// The innermost dimension must have element stride 1 (`globalStrides` has no entry for it).
    #[error("the innermost dimension must be contiguous (stride 1 element), found stride {stride} [driver: globalStrides omits dimension 0; nvFuser: \"The innermost dimension of the TMA domain must be contiguous\"]")]
    InnermostStride {
        /// The stride of the innermost dimension, in elements.
        stride: u64,
    },
    /// A stride in elements does not give a whole number of bytes (packed types).
    #[error("stride {stride} elements of {dtype} is not a whole number of bytes [driver]")]
    FractionalStride {
        /// Driver dimension.
        dim: usize,
        /// Stride in elements.
        stride: u64,
        /// Data type.
        dtype: &'static str,
    },
    /// `globalStrides[i]` must be a multiple of 16 (32 with interleave 32B / packed ALIGN16B).
    #[error("globalStrides[{index}] (stride of dimension {dim}) must be a multiple of {multiple} bytes, found {bytes} [driver]")]
    StrideMultiple {
        /// Index into `globalStrides` (`dim - 1`).
        index: usize,
        /// Driver dimension.
        dim: usize,
        /// The stride in bytes.
        bytes: u64,
        /// The required multiple.
        multiple: u64,
    },
    /// `globalStrides[i] < 2^40`.
    #[error(
        "globalStrides[{index}] (stride of dimension {dim}) must be < 2^40, found {bytes} [driver]"
    )]
    StrideTooLarge {
        /// Index into `globalStrides`.
        index: usize,
        /// Driver dimension.
        dim: usize,
        /// The stride in bytes, exact (past 2^64 too: never saturated).
        bytes: u128,
    },
    /// Each stride should cover the previous dimension (the driver doc's formula; not enforced
    /// by the driver, see `docs/tma.md`).
    #[error("globalStrides[{index}] = {bytes} bytes does not cover dimension {prev}: it must be >= {required} bytes (the driver doc's stride formula; nvFuser checks it) [nvFuser]")]
    StrideOverlap {
        /// Index into `globalStrides`.
        index: usize,
        /// The previous driver dimension.
        prev: usize,
        /// The stride in bytes.
        bytes: u64,
        /// The smallest stride that covers the previous dimension.
        required: u64,
    },
    /// `boxDim[i]` must be in `1..=256`.
    #[error("boxDim[{dim}] must be non-zero and <= 256, found {value} [driver]")]
    BoxDim {
        /// Driver dimension.
        dim: usize,
        /// The value.
        value: u64,
    },
    /// `boxDim[0] * elementSize` must be a multiple of 16 bytes (the doc says so for interleave
    /// NONE; the driver enforces it for 16B and 32B interleave too).
    #[error("boxDim[0] * elementSize must be a multiple of 16 bytes, found {box0} * {elem} = {bytes} [driver]")]
    InnerBoxBytes {
        /// `boxDim[0]`.
        box0: u64,
        /// Element size in bytes (memory footprint).
        elem: u64,
        /// The product.
        bytes: u64,
    },
    /// One copy must fit the shared memory of an SM (`target::Arch::smem_per_sm`), as the driver
    /// computes it: `elementSize * prod floor(boxDim[i] / elementStrides[i])` (observed; not in
    /// the driver doc).
    #[error("one box is {bytes} bytes as the driver counts it (elementSize * prod floor(boxDim[i] / elementStrides[i])), over the {limit}-byte shared memory of an SM [driver, observed]")]
    BoxFootprint {
        /// The driver's count.
        bytes: u64,
        /// The limit (the architecture's shared memory per SM).
        limit: u64,
    },
    /// Packed ALIGN16B types need `boxDim[0] == 128`.
    #[error("with {dtype}, boxDim[0] must be 128, found {value} [driver]")]
    PackedBoxDim {
        /// Data type.
        dtype: &'static str,
        /// The value.
        value: u64,
    },
    /// `elementStrides[i]` must be in `1..=8`.
    #[error("elementStrides[{dim}] must be non-zero and <= 8, found {value} [driver]")]
    ElementStride {
        /// Driver dimension.
        dim: usize,
        /// The value.
        value: u64,
    },
    /// With interleave NONE and a swizzle, the inner box bytes must fit the swizzle span.
    #[error("with swizzle {swizzle}, the inner box dimension boxDim[0] * elementSize = {bytes} bytes must be <= the swizzle span {span} [driver]")]
    SwizzleSpan {
        /// The swizzle.
        swizzle: &'static str,
        /// Inner box bytes.
        bytes: u64,
        /// The span.
        span: u64,
    },
    /// With interleave 32B the swizzle must be 32B.
    #[error("with interleave 32B, swizzle must be 32B, found {swizzle} [driver]")]
    InterleaveSwizzle {
        /// The swizzle.
        swizzle: &'static str,
    },
    /// 16U6_ALIGN16B needs interleave NONE.
    #[error("with {dtype}, interleave must be NONE, found {interleave} [driver]")]
    PackedInterleave {
        /// Data type.
        dtype: &'static str,
        /// The interleave.
        interleave: &'static str,
    },
    /// Packed types allow only some swizzles.
    #[error("with {dtype}, swizzle {swizzle} is not supported (allowed: {allowed}) [driver]")]
    PackedSwizzle {
        /// Data type.
        dtype: &'static str,
        /// The swizzle.
        swizzle: &'static str,
        /// The allowed ones.
        allowed: &'static str,
    },
    /// The `128B_ATOM_*` swizzles are refused below compute capability 10.0.
    #[error("swizzle {swizzle} needs compute capability >= 10.0, target is sm_{sm} [driver: refused on H100 by driver 580 / CUDA 13.0, see tools/tma_driver_check]")]
    AtomSwizzleArch {
        /// The swizzle.
        swizzle: &'static str,
        /// Target compute capability (e.g. 90).
        sm: u32,
    },
    /// NaN OOB fill needs a floating-point, non-packed type.
    #[error("oobFill NAN_REQUEST_ZERO_FMA needs a floating-point, non-packed data type, found {dtype} [driver]")]
    OobFill {
        /// Data type.
        dtype: &'static str,
    },
    /// nvFuser requires the first element stride to be 1 (the driver ignores it).
    #[error("elementStrides[0] = {value} is ignored by the driver (no stride on dimension 0); nvFuser requires it to be 1 [nvFuser]")]
    InnerElementStride {
        /// The value.
        value: u64,
    },
    /// nvFuser requires the inner box bytes to equal the swizzle span exactly.
    #[error("nvFuser requires boxDim[0] * elementSize == swizzle span ({bytes} != {span}; smaller is \"not currently supported\") [nvFuser]")]
    NvFuserSwizzleExact {
        /// Inner box bytes.
        bytes: u64,
        /// The span.
        span: u64,
    },
    /// Box coordinates are signed 32-bit: coordinates beyond `2^31 - 1` cannot be addressed.
    #[error("globalDim[{dim}] = {value} exceeds 2^31: box coordinates of cp.async.bulk.tensor are .s32, so boxes past 2^31 - 1 cannot be addressed [PTX]")]
    Coordinate32 {
        /// Driver dimension.
        dim: usize,
        /// The value.
        value: u64,
    },
    /// The transaction byte count of one copy must be a multiple of 16.
    #[error("one copy moves {bytes} bytes; the mbarrier transaction count must be a multiple of 16 [PTX/nvFuser]")]
    TransactionBytes {
        /// Bytes of one box (tile) copy.
        bytes: u64,
    },
    /// A value could not be parsed or is unknown.
    #[error("bad {what}: {value}")]
    BadInput {
        /// Which parameter.
        what: &'static str,
        /// The offending text.
        value: String,
    },
    /// Checked arithmetic overflowed.
    #[error("arithmetic overflow computing {what}")]
    Overflow {
        /// What was computed.
        what: &'static str,
    },
    /// The tiling view could not be computed.
    #[error("tiling view: {0}")]
    Tiling(String),
}

impl Error {
    /// The stable snake_case code.
    ///
    /// Pre: none. Post: non-empty, snake_case. Example: `Error::Rank { rank: 6 }.code() == "tma_rank"`.
    pub fn code(&self) -> &'static str {
        match self {
            Error::Rank { .. } => "tma_rank",
            Error::InterleaveRank { .. } => "tma_interleave_rank",
            Error::Arity { .. } => "tma_arity",
            Error::Address { .. } => "tma_global_address_alignment",
            Error::GlobalDim { .. } => "tma_global_dim",
            Error::PackedGlobalDim { .. } => "tma_packed_global_dim",
            Error::InnermostStride { .. } => "tma_innermost_stride",
            Error::FractionalStride { .. } => "tma_fractional_stride",
            Error::StrideMultiple { .. } => "tma_global_stride_multiple",
            Error::StrideTooLarge { .. } => "tma_global_stride_too_large",
            Error::StrideOverlap { .. } => "tma_global_stride_overlap",
            Error::BoxDim { .. } => "tma_box_dim",
            Error::InnerBoxBytes { .. } => "tma_inner_box_bytes",
            Error::BoxFootprint { .. } => "tma_box_footprint",
            Error::PackedBoxDim { .. } => "tma_packed_box_dim",
            Error::ElementStride { .. } => "tma_element_stride",
            Error::SwizzleSpan { .. } => "tma_swizzle_span",
            Error::InterleaveSwizzle { .. } => "tma_interleave_swizzle",
            Error::PackedInterleave { .. } => "tma_packed_interleave",
            Error::PackedSwizzle { .. } => "tma_packed_swizzle",
            Error::OobFill { .. } => "tma_oob_fill",
            Error::AtomSwizzleArch { .. } => "tma_atom_swizzle_arch",
            Error::InnerElementStride { .. } => "tma_inner_element_stride",
            Error::NvFuserSwizzleExact { .. } => "tma_nvfuser_swizzle_exact",
            Error::Coordinate32 { .. } => "tma_coordinate_32bit",
            Error::TransactionBytes { .. } => "tma_transaction_bytes",
            Error::BadInput { .. } => "tma_bad_input",
            Error::Overflow { .. } => "tma_overflow",
            Error::Tiling(_) => "tma_tiling",
        }
    }

    /// Where the rule comes from.
    ///
    /// Pre: none. Post: the source of the rule. Example: `Error::BoxDim{dim:0,value:0}.source_doc()
    /// == Source::Driver`.
    pub fn source_doc(&self) -> Source {
        match self {
            Error::Arity { .. }
            | Error::BadInput { .. }
            | Error::Overflow { .. }
            | Error::Tiling(_) => Source::Tessera,
            Error::StrideOverlap { .. }
            | Error::InnerElementStride { .. }
            | Error::NvFuserSwizzleExact { .. } => Source::NvFuser,
            Error::Coordinate32 { .. } | Error::TransactionBytes { .. } => Source::Ptx,
            _ => Source::Driver,
        }
    }
}

impl crate::diagnostic::Diagnose for Error {
    fn diagnostic(&self) -> crate::diagnostic::Diagnostic {
        crate::diagnostic::Diagnostic::new(
            self.code(),
            crate::diagnostic::Severity::Error,
            self.to_string(),
        )
    }
}
