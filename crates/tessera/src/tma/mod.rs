//! TMA planner and validator: every rule of `cuTensorMapEncodeTiled` and of the PTX bulk tensor
//! copy as an obligation with checked suggestions, the exact descriptor arguments, and the tiling
//! of the tensor by boxes with its holes (the Fundamental Theorem of TMA Correctness).
//!
//! A [`Request`] describes a global tensor in *tensor order* (outermost dimension first, like a
//! PyTorch shape: the last dimension is the contiguous one); the driver numbers dimensions the
//! other way (dimension 0 is innermost), and every report uses the driver's numbering.
//! [`validate`] checks every rule ([`rules`]), proposes fixes ([`suggest`]), and when no error
//! remains gives the [`Descriptor`] (the [`report`], with its readable [`report::text`]);
//! [`tiling::tiling_view`] gives the tiling view and holes; [`driver`] compares with recorded
//! driver verdicts. `docs/tma.md` lists every rule with its source.
//!
//! Inside this module the order is one-way: [`error`] → [`rules`] (with [`tiling`], [`smem`]) →
//! [`suggest`] (re-runs the rules) → [`report`] → [`ragged`], [`driver`], [`wire`] (the JSON form),
//! [`symbolic`] (the rules with runtime dimensions and strides).

pub mod driver;
pub mod error;
pub mod params;
pub mod ragged;
pub mod report;
pub mod rules;
pub mod smem;
pub mod suggest;
pub mod symbolic;
pub mod tiling;
pub mod wire;

pub use error::{Error, Source};
pub use report::{validate, Finding, Report};
pub use rules::{check, descriptor, Descriptor, Severity};
pub use suggest::Suggestion;
pub use tiling::{tiling_view, DimTiling, HoleSite, TilingView};

/// `Result` with the TMA [`Error`].
pub type Result<T> = std::result::Result<T, Error>;

/// `CUtensorMapDataType`: the driver enum, its names and widths, from [`crate::target`].
pub use crate::target::TmaDataType as DataType;

/// `CUtensorMapInterleave`.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum Interleave {
    /// `NONE`.
    None,
    /// `16B`.
    B16,
    /// `32B`.
    B32,
}

impl Interleave {
    /// Parses `none`, `16B`, `32B` (case-insensitive; the `B` is optional).
    ///
    /// Pre: none. Post: `None` when unknown. Example: `Interleave::parse("32b") == Some(Interleave::B32)`.
    pub fn parse(s: &str) -> Option<Interleave> {
        match s.trim().to_ascii_lowercase().trim_end_matches('b') {
            "none" | "0" | "" => Some(Interleave::None),
            "16" => Some(Interleave::B16),
            "32" => Some(Interleave::B32),
            _ => None,
        }
    }
    /// Short name.
    ///
    /// Pre: none. Post: `NONE`, `16B` or `32B`. Example: `Interleave::B16.name() == "16B"`.
    pub fn name(self) -> &'static str {
        match self {
            Interleave::None => "NONE",
            Interleave::B16 => "16B",
            Interleave::B32 => "32B",
        }
    }
    /// Driver enum name.
    ///
    /// Pre: none. Post: `CU_TENSOR_MAP_INTERLEAVE_*`. Example: `Interleave::None.cu_name()`.
    pub fn cu_name(self) -> String {
        format!("CU_TENSOR_MAP_INTERLEAVE_{}", self.name())
    }
    /// Driver enum value.
    ///
    /// Pre: none. Post: 0, 1 or 2. Example: `Interleave::B32.cu_value() == 2`.
    pub fn cu_value(self) -> u32 {
        self as u32
    }
}

/// `CUtensorMapSwizzle`.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum Swizzle {
    /// `NONE`.
    None,
    /// `32B`: 16-byte chunks within a 32-byte span.
    B32,
    /// `64B`.
    B64,
    /// `128B`.
    B128,
    /// `128B_ATOM_32B`: 32-byte chunks within 128 bytes.
    B128Atom32B,
    /// `128B_ATOM_32B_FLIP_8B`.
    B128Atom32BFlip8B,
    /// `128B_ATOM_64B`.
    B128Atom64B,
}

impl Swizzle {
    /// Parses `none`, `32B`, `64B`, `128B`, `128B_ATOM_32B`, `128B_ATOM_32B_FLIP_8B`,
    /// `128B_ATOM_64B` (case-insensitive).
    ///
    /// Pre: none. Post: `None` when unknown. Example: `Swizzle::parse("128b") == Some(Swizzle::B128)`.
    pub fn parse(s: &str) -> Option<Swizzle> {
        let u = s.trim().to_ascii_uppercase();
        let u = u.strip_prefix("CU_TENSOR_MAP_SWIZZLE_").unwrap_or(&u);
        Swizzle::all()
            .into_iter()
            .find(|z| z.name() == u || (u == "0" && *z == Swizzle::None))
            .or(match u {
                "32" => Some(Swizzle::B32),
                "64" => Some(Swizzle::B64),
                "128" => Some(Swizzle::B128),
                _ => None,
            })
    }
    /// Short name.
    ///
    /// Pre: none. Post: as the driver spells it after `SWIZZLE_`. Example: `Swizzle::B64.name() == "64B"`.
    pub fn name(self) -> &'static str {
        match self {
            Swizzle::None => "NONE",
            Swizzle::B32 => "32B",
            Swizzle::B64 => "64B",
            Swizzle::B128 => "128B",
            Swizzle::B128Atom32B => "128B_ATOM_32B",
            Swizzle::B128Atom32BFlip8B => "128B_ATOM_32B_FLIP_8B",
            Swizzle::B128Atom64B => "128B_ATOM_64B",
        }
    }
    /// Driver enum name.
    ///
    /// Pre: none. Post: `CU_TENSOR_MAP_SWIZZLE_*`. Example: `Swizzle::B128.cu_name()`.
    pub fn cu_name(self) -> String {
        format!("CU_TENSOR_MAP_SWIZZLE_{}", self.name())
    }
    /// Driver enum value.
    ///
    /// Pre: none. Post: `0..=6`. Example: `Swizzle::B128.cu_value() == 3`.
    pub fn cu_value(self) -> u32 {
        self as u32
    }
    /// The swizzle span in bytes (`None` for no swizzle).
    ///
    /// Pre: none. Post: 32, 64 or 128. Example: `Swizzle::B128Atom64B.span() == Some(128)`.
    pub fn span(self) -> Option<u64> {
        match self {
            Swizzle::None => None,
            Swizzle::B32 => Some(32),
            Swizzle::B64 => Some(64),
            _ => Some(128),
        }
    }
    /// The shared-memory pitch, in bits, of a box row of `row_bits` bits written with this
    /// swizzle (interleave NONE): TMA pads a row narrower than the swizzle span to the span
    /// (measured on an H200, `tools/tma_swizzle_hw/`). `proofs/TmaBox.v` transcribes it
    /// (`pitch_bits`): with the `SwizzleSpan` rule the pitch is exactly the span (`span_rule_iff`).
    ///
    /// Pre: none. Post: `max(row_bits, 8·span)` with a swizzle and `row_bits > 0`, else
    /// `row_bits`. Example: `Swizzle::B32.row_pitch_bits(128) == 256` (a 16-byte row at 32 B).
    pub fn row_pitch_bits(self, row_bits: u64) -> u64 {
        match self.span() {
            Some(span) if row_bits > 0 => row_bits.max(8 * span),
            _ => row_bits,
        }
    }
    /// Whether it is one of the `128B_ATOM_*` variants.
    ///
    /// Pre: none. Post: true for the three atom variants. Example: `!Swizzle::B128.is_atom()`.
    pub fn is_atom(self) -> bool {
        matches!(
            self,
            Swizzle::B128Atom32B | Swizzle::B128Atom32BFlip8B | Swizzle::B128Atom64B
        )
    }
    /// All swizzles in enum order.
    ///
    /// Pre: none. Post: 7 values. Example: `Swizzle::all()[3] == Swizzle::B128`.
    pub fn all() -> Vec<Swizzle> {
        use Swizzle::*;
        vec![
            None,
            B32,
            B64,
            B128,
            B128Atom32B,
            B128Atom32BFlip8B,
            B128Atom64B,
        ]
    }
}

/// `CUtensorMapL2promotion`.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum L2Promotion {
    /// `NONE`.
    None,
    /// `L2_64B`.
    B64,
    /// `L2_128B`.
    B128,
    /// `L2_256B`.
    B256,
}

impl L2Promotion {
    /// Parses `none`, `64B`, `128B`, `256B` (the `L2_` prefix and `B` are optional).
    ///
    /// Pre: none. Post: `None` when unknown. Example: `L2Promotion::parse("L2_128B") == Some(L2Promotion::B128)`.
    pub fn parse(s: &str) -> Option<L2Promotion> {
        let l = s.trim().to_ascii_lowercase();
        let l = l.strip_prefix("l2_").unwrap_or(&l);
        match l.trim_end_matches('b') {
            "none" | "0" | "" => Some(L2Promotion::None),
            "64" => Some(L2Promotion::B64),
            "128" => Some(L2Promotion::B128),
            "256" => Some(L2Promotion::B256),
            _ => None,
        }
    }
    /// Driver enum name.
    ///
    /// Pre: none. Post: `CU_TENSOR_MAP_L2_PROMOTION_*`. Example: `L2Promotion::B64.cu_name()`.
    pub fn cu_name(self) -> &'static str {
        match self {
            L2Promotion::None => "CU_TENSOR_MAP_L2_PROMOTION_NONE",
            L2Promotion::B64 => "CU_TENSOR_MAP_L2_PROMOTION_L2_64B",
            L2Promotion::B128 => "CU_TENSOR_MAP_L2_PROMOTION_L2_128B",
            L2Promotion::B256 => "CU_TENSOR_MAP_L2_PROMOTION_L2_256B",
        }
    }
    /// Driver enum value.
    ///
    /// Pre: none. Post: `0..=3`. Example: `L2Promotion::B256.cu_value() == 3`.
    pub fn cu_value(self) -> u32 {
        self as u32
    }
}

/// `CUtensorMapFloatOOBfill`.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum OobFill {
    /// `NONE`: out-of-bound elements read as zero.
    None,
    /// `NAN_REQUEST_ZERO_FMA`.
    NanRequestZeroFma,
}

impl OobFill {
    /// Parses `none`/`zero` or `nan`/`nan_request_zero_fma`.
    ///
    /// Pre: none. Post: `None` when unknown. Example: `OobFill::parse("nan") == Some(OobFill::NanRequestZeroFma)`.
    pub fn parse(s: &str) -> Option<OobFill> {
        match s.trim().to_ascii_lowercase().as_str() {
            "none" | "zero" | "0" => Some(OobFill::None),
            "nan" | "nan_request_zero_fma" | "1" => Some(OobFill::NanRequestZeroFma),
            _ => None,
        }
    }
    /// Driver enum name.
    ///
    /// Pre: none. Post: `CU_TENSOR_MAP_FLOAT_OOB_FILL_*`. Example: `OobFill::None.cu_name()`.
    pub fn cu_name(self) -> &'static str {
        match self {
            OobFill::None => "CU_TENSOR_MAP_FLOAT_OOB_FILL_NONE",
            OobFill::NanRequestZeroFma => "CU_TENSOR_MAP_FLOAT_OOB_FILL_NAN_REQUEST_ZERO_FMA",
        }
    }
    /// Driver enum value.
    ///
    /// Pre: none. Post: 0 or 1. Example: `OobFill::None.cu_value() == 0`.
    pub fn cu_value(self) -> u32 {
        self as u32
    }
}

/// What is known about the global base address.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Address {
    /// The exact address.
    Exact(u64),
    /// Only that it is a multiple of this many bytes (e.g. 256 for `cudaMalloc`).
    Aligned(u64),
}

impl Address {
    /// The largest power of two known to divide the address, capped at 2^20.
    ///
    /// Pre: none. Post: a power of two in `1..=2^20`. Example: `Address::Exact(48).alignment() == 16`.
    pub fn alignment(self) -> u64 {
        let v = match self {
            Address::Exact(a) => a,
            Address::Aligned(a) => a,
        };
        if v == 0 {
            1 << 20
        } else {
            (1u64 << v.trailing_zeros().min(20)).min(1 << 20)
        }
    }
}

/// A TMA descriptor request, in tensor order (outermost dimension first).
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Request {
    /// Element type.
    pub dtype: DataType,
    /// Tensor shape, outermost first.
    pub shape: Vec<u64>,
    /// Strides in elements, outermost first (the last must be 1).
    pub strides: Vec<u64>,
    /// Box sizes, outermost first.
    pub box_dims: Vec<u64>,
    /// Element strides (traversal steps), outermost first.
    pub element_strides: Vec<u64>,
    /// Interleave.
    pub interleave: Interleave,
    /// Swizzle.
    pub swizzle: Swizzle,
    /// L2 promotion.
    pub l2_promotion: L2Promotion,
    /// OOB fill.
    pub oob_fill: OobFill,
    /// The global base address or its known alignment.
    pub address: Address,
    /// Target compute capability times ten plus minor (90 for H100).
    pub sm: u32,
}

impl Request {
    /// A request for a contiguous row-major tensor with dense boxes, no interleave, no swizzle,
    /// no L2 promotion, zero OOB fill, a 256-byte aligned base (as from `cudaMalloc`), sm_90.
    ///
    /// Pre: none (nothing is checked here; see [`validate`]). Post: `strides` are row-major
    /// (saturating), `element_strides` all 1.
    /// Example: `Request::new(DataType::F16, &[1024, 4096], &[64, 128])`.
    pub fn new(dtype: DataType, shape: &[u64], box_dims: &[u64]) -> Request {
        let mut strides = vec![1u64; shape.len()];
        for i in (0..shape.len().saturating_sub(1)).rev() {
            strides[i] = strides[i + 1].saturating_mul(shape[i + 1]);
        }
        Request {
            dtype,
            shape: shape.to_vec(),
            strides,
            box_dims: box_dims.to_vec(),
            element_strides: vec![1; shape.len()],
            interleave: Interleave::None,
            swizzle: Swizzle::None,
            l2_promotion: L2Promotion::None,
            oob_fill: OobFill::None,
            address: Address::Aligned(256),
            sm: 90,
        }
    }

    /// A request from a Tessera layout: mode `i` of the (flattened) layout is driver dimension `i`
    /// (CuTe's column-major order matches the driver's innermost-first order).
    ///
    /// Pre: every stride is non-negative. Post: tensor order is the reverse of the layout's modes;
    /// `box_dims` are given in the layout's mode order too.
    /// Example: `(128,64):(1,128)` with box `(64,32)` is the tensor `[64,128]` with box `[32,64]`.
    pub fn from_layout(
        dtype: DataType,
        layout: &crate::Layout,
        box_dims_in_mode_order: &[u64],
    ) -> Result<Request> {
        let mut shape = Vec::new();
        let mut strides = Vec::new();
        for m in layout.flatten().leaves() {
            let (s, d) = (m.shape, m.stride);
            if s < 0 || d < 0 {
                return Err(Error::BadInput {
                    what: "layout",
                    value: format!("negative stride or shape in {layout}"),
                });
            }
            shape.push(s as u64);
            strides.push(d as u64);
        }
        shape.reverse();
        strides.reverse();
        let mut b = box_dims_in_mode_order.to_vec();
        b.reverse();
        let mut r = Request::new(dtype, &shape, &b);
        r.strides = strides;
        Ok(r)
    }

    /// The rank (number of dimensions of the shape).
    ///
    /// Pre: none. Post: `shape.len()`. Example: `Request::new(DataType::F16, &[4, 8], &[4, 8]).rank() == 2`.
    pub fn rank(&self) -> usize {
        self.shape.len()
    }

    /// Entry `i` of a tensor-order array at driver dimension `d` (`None` if out of range).
    pub(crate) fn driver(v: &[u64], d: usize) -> Option<u64> {
        v.len().checked_sub(d + 1).map(|i| v[i])
    }
}
