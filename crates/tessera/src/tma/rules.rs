//! The rules: every requirement of `cuTensorMapEncodeTiled` (CUDA Driver API reference), of the
//! PTX bulk tensor copy, and nvFuser's stricter checks, each an obligation; and the descriptor
//! arguments when all driver rules hold.

use super::error::Error;
use super::{Address, DataType, Interleave, L2Promotion, OobFill, Request, Result, Swizzle};

/// How serious a finding is.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Severity {
    /// The driver refuses the descriptor (`CUDA_ERROR_INVALID_VALUE`).
    Error,
    /// The driver accepts it, but nvFuser, the PTX copy or the driver doc's own text objects.
    Warning,
}

/// The exact arguments of `cuTensorMapEncodeTiled`, driver order (dimension 0 innermost).
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Descriptor {
    /// `tensorDataType`.
    pub data_type: DataType,
    /// `tensorRank`.
    pub rank: usize,
    /// `globalAddress` when known exactly.
    pub global_address: Option<u64>,
    /// `globalDim`, innermost first.
    pub global_dim: Vec<u64>,
    /// `globalStrides` in bytes, for dimensions `1..rank` (the first is omitted).
    pub global_strides: Vec<u64>,
    /// `boxDim`, innermost first.
    pub box_dim: Vec<u64>,
    /// `elementStrides`, innermost first.
    pub element_strides: Vec<u64>,
    /// `interleave`.
    pub interleave: Interleave,
    /// `swizzle`.
    pub swizzle: Swizzle,
    /// `l2Promotion`.
    pub l2_promotion: L2Promotion,
    /// `oobFill`.
    pub oob_fill: OobFill,
    /// Bytes one copy writes to shared memory: `prod ceil(boxDim[i] / elementStrides[i])` times the
    /// element size (dimension 0 counts `boxDim[0]` when interleave is NONE: its stride is ignored),
    /// rounded up to whole bytes where a packed 4-bit count is odd (then the `TransactionBytes`
    /// warning is raised too: such a count is never a multiple of 16 bytes).
    pub copy_bytes: u64,
    /// Bytes one copy occupies in shared memory (what a kernel must reserve per box):
    /// `copy_bytes`, except with a swizzle and interleave NONE when a box row (`boxDim[0]`
    /// elements) is narrower than the swizzle span: TMA then pads every row to the span, so the
    /// box occupies `rows × span` bytes (measured on an H200: `tools/tma_swizzle_hw/`, 104 such
    /// boxes; `tests/gpu/tma_swizzle_hardware.rs`).
    pub smem_bytes: u64,
    /// Shared-memory alignment of the destination used by nvFuser: 128 B without swizzle, 256 /
    /// 512 / 1024 B for the 32B / 64B / 128B swizzles (the pattern repeats every 8 rows).
    pub smem_alignment: u64,
}

const TWO_32: u64 = 1 << 32;
const TWO_40: u64 = 1 << 40;

/// Bytes of `n` elements of `dt`, or `None` when not a whole number of bytes (or overflow).
pub(crate) fn bytes_of(dt: DataType, n: u64) -> Option<u64> {
    let bits = n.checked_mul(dt.mem_bits())?;
    (bits % 8 == 0).then_some(bits / 8)
}

fn push(out: &mut Vec<(Error, Severity)>, e: Error, s: Severity) {
    out.push((e, s));
}

/// Checks every rule; no suggestions (see [`super::validate`]).
///
/// Pre: none (any request, including malformed ones). Post: errors (driver refuses) in rule order,
/// then warnings; an [`Error::Arity`] stops the check. Never panics; arithmetic is checked.
/// Example: a rank-6 request gives `[Rank { rank: 6 }]` among its errors.
pub fn check(r: &Request) -> Vec<(Error, Severity)> {
    use Severity::{Error as E, Warning as W};
    let mut out = Vec::new();
    let rank = r.rank();
    for (what, len) in [
        ("strides", r.strides.len()),
        ("box", r.box_dims.len()),
        ("element strides", r.element_strides.len()),
    ] {
        if len != rank {
            push(
                &mut out,
                Error::Arity {
                    what,
                    found: len,
                    rank,
                },
                E,
            );
        }
    }
    if !out.is_empty() {
        return out;
    }
    let dt = r.dtype;
    let d = |v: &[u64], i: usize| Request::driver(v, i).unwrap_or(0);
    if rank == 0 || rank > 5 {
        push(&mut out, Error::Rank { rank }, E);
    }
    if r.interleave != Interleave::None && rank < 3 {
        push(
            &mut out,
            Error::InterleaveRank {
                rank,
                interleave: r.interleave.name(),
            },
            E,
        );
    }
    let align16b = matches!(dt, DataType::U4Align16B | DataType::U6Align16B);
    let required = if r.interleave == Interleave::B32 || align16b {
        32
    } else {
        16
    };
    let known = r.address.alignment();
    if known < required {
        push(
            &mut out,
            Error::Address {
                address: match r.address {
                    Address::Exact(a) => a,
                    Address::Aligned(_) => 0,
                },
                known,
                required,
            },
            E,
        );
    }
    for i in 0..rank {
        let v = d(&r.shape, i);
        if v == 0 || v > TWO_32 {
            push(&mut out, Error::GlobalDim { dim: i, value: v }, E);
        }
    }
    if rank > 0 {
        let g0 = d(&r.shape, 0);
        let multiple = match dt {
            DataType::U4Align16B | DataType::U6Align16B => 128,
            DataType::U4Align8B => 2,
            _ => 1,
        };
        if g0 % multiple != 0 {
            push(
                &mut out,
                Error::PackedGlobalDim {
                    dtype: dt.cu_name(),
                    value: g0,
                    multiple,
                },
                E,
            );
        }
        let s0 = d(&r.strides, 0);
        if s0 != 1 {
            push(&mut out, Error::InnermostStride { stride: s0 }, E);
        }
    }
    let multiple = if r.interleave == Interleave::B32 || align16b {
        32
    } else {
        16
    };
    let mut stride_bytes: Vec<Option<u64>> = vec![bytes_of(dt, 1)];
    for i in 1..rank {
        let st = d(&r.strides, i);
        let b = match st.checked_mul(dt.mem_bits()) {
            None => {
                push(
                    &mut out,
                    Error::StrideTooLarge {
                        index: i - 1,
                        dim: i,
                        // The exact byte count, past 2^64 (never a saturated value).
                        bytes: u128::from(st) * u128::from(dt.mem_bits()) / 8,
                    },
                    E,
                );
                None
            }
            Some(bits) if bits % 8 != 0 => {
                push(
                    &mut out,
                    Error::FractionalStride {
                        dim: i,
                        stride: st,
                        dtype: dt.cu_name(),
                    },
                    E,
                );
                None
            }
            Some(bits) => {
                let b = bits / 8;
                if b % multiple != 0 {
                    push(
                        &mut out,
                        Error::StrideMultiple {
                            index: i - 1,
                            dim: i,
                            bytes: b,
                            multiple,
                        },
                        E,
                    );
                }
                if b >= TWO_40 {
                    push(
                        &mut out,
                        Error::StrideTooLarge {
                            index: i - 1,
                            dim: i,
                            bytes: u128::from(b),
                        },
                        E,
                    );
                }
                Some(b)
            }
        };
        stride_bytes.push(b);
    }
    for i in 0..rank {
        let v = d(&r.box_dims, i);
        if v == 0 || v > 256 {
            push(&mut out, Error::BoxDim { dim: i, value: v }, E);
        }
    }
    let box0 = d(&r.box_dims, 0);
    let inner_bits = box0.saturating_mul(dt.mem_bits());
    let inner_bytes = inner_bits / 8;
    if rank > 0 && inner_bits % 128 != 0 {
        push(
            &mut out,
            Error::InnerBoxBytes {
                box0,
                elem: bytes_of(dt, 1).unwrap_or(0),
                bytes: inner_bytes,
            },
            E,
        );
    }
    if let Some(bytes) = driver_box_bytes(r) {
        let limit = smem_limit(r);
        if bytes > limit {
            push(&mut out, Error::BoxFootprint { bytes, limit }, E);
        }
    }
    if rank > 0 && align16b && box0 != 128 {
        push(
            &mut out,
            Error::PackedBoxDim {
                dtype: dt.cu_name(),
                value: box0,
            },
            E,
        );
    }
    for i in 0..rank {
        let v = d(&r.element_strides, i);
        if v == 0 || v > 8 {
            push(&mut out, Error::ElementStride { dim: i, value: v }, E);
        }
    }
    if let (Interleave::None, Some(span)) = (r.interleave, r.swizzle.span()) {
        if rank > 0 && inner_bytes > span {
            push(
                &mut out,
                Error::SwizzleSpan {
                    swizzle: r.swizzle.name(),
                    bytes: inner_bytes,
                    span,
                },
                E,
            );
        }
    }
    if dt == DataType::U6Align16B && r.interleave != Interleave::None {
        push(
            &mut out,
            Error::PackedInterleave {
                dtype: dt.cu_name(),
                interleave: r.interleave.name(),
            },
            E,
        );
    }
    let allowed: Option<(&[Swizzle], &'static str)> = match dt {
        DataType::U6Align16B => Some((
            &[
                Swizzle::None,
                Swizzle::B128,
                Swizzle::B128Atom32B,
                Swizzle::B128Atom64B,
            ],
            "NONE, 128B, 128B_ATOM_32B, 128B_ATOM_64B (store only)",
        )),
        DataType::U4Align16B => Some((
            &[Swizzle::None, Swizzle::B128, Swizzle::B128Atom32B],
            "NONE, 128B, 128B_ATOM_32B (load only)",
        )),
        _ => None,
    };
    if let Some((ok, text)) = allowed {
        if !ok.contains(&r.swizzle) {
            push(
                &mut out,
                Error::PackedSwizzle {
                    dtype: dt.cu_name(),
                    swizzle: r.swizzle.name(),
                    allowed: text,
                },
                E,
            );
        }
    }
    if r.swizzle.is_atom() && !arch_of(r).tma_atom_swizzle {
        push(
            &mut out,
            Error::AtomSwizzleArch {
                swizzle: r.swizzle.name(),
                sm: r.sm,
            },
            E,
        );
    }
    if r.oob_fill == OobFill::NanRequestZeroFma && (!dt.is_float() || dt.is_packed()) {
        push(
            &mut out,
            Error::OobFill {
                dtype: dt.cu_name(),
            },
            E,
        );
    }
    // Warnings: accepted by the driver, refused or mis-handled elsewhere.
    if r.interleave == Interleave::B32 && r.swizzle != Swizzle::B32 {
        push(
            &mut out,
            Error::InterleaveSwizzle {
                swizzle: r.swizzle.name(),
            },
            W,
        );
    }
    if rank > 1 {
        // The driver doc's formula: each stride covers the previous dimension.
        let mut prev = bytes_of(dt, d(&r.shape, 0));
        for (i, &sb) in stride_bytes.iter().enumerate().skip(1) {
            if let (Some(p), Some(b)) = (prev, sb) {
                if b < p {
                    push(
                        &mut out,
                        Error::StrideOverlap {
                            index: i - 1,
                            prev: i - 1,
                            bytes: b,
                            required: p,
                        },
                        W,
                    );
                }
            }
            prev = sb.and_then(|b| b.checked_mul(d(&r.shape, i)));
        }
    }
    if rank > 0 && r.interleave == Interleave::None && d(&r.element_strides, 0) != 1 {
        push(
            &mut out,
            Error::InnerElementStride {
                value: d(&r.element_strides, 0),
            },
            W,
        );
    }
    if let (Interleave::None, Some(span)) = (r.interleave, r.swizzle.span()) {
        if rank > 0 && inner_bytes < span {
            push(
                &mut out,
                Error::NvFuserSwizzleExact {
                    bytes: inner_bytes,
                    span,
                },
                W,
            );
        }
    }
    for i in 0..rank {
        let v = d(&r.shape, i);
        if v > (1 << 31) && v <= TWO_32 {
            push(&mut out, Error::Coordinate32 { dim: i, value: v }, W);
        }
    }
    if let Some(bits) = copy_bits(r) {
        if bits % 128 != 0 {
            let bytes = bits.div_ceil(8);
            push(&mut out, Error::TransactionBytes { bytes }, W);
        }
    }
    out
}

/// The architecture a request targets ([`crate::target::Arch`]); a compute capability Tessera
/// does not know (only the library API lets one through: `tessera tma --sm` refuses it) is
/// checked as sm_90, the default.
fn arch_of(r: &Request) -> &'static crate::target::Arch {
    crate::target::Arch::of(r.sm).unwrap_or(&crate::target::arch::SM90)
}

/// The shared memory of an SM of the request's architecture, which one box must fit in
/// ([`crate::target::Arch::smem_per_sm`]: 228 KiB = 233,472 bytes on sm_90/sm_100, 100 KiB on
/// sm_120).
///
/// Pre: none. Post: as above. Example: a request for sm_90 gives 233,472.
pub fn smem_limit(r: &Request) -> u64 {
    arch_of(r).smem_per_sm
}

/// The box size the driver checks against [`smem_limit`], as observed on driver 580 (CUDA 13.0):
/// `elementSize * prod_i floor(boxDim[i] / elementStrides[i])` — truncating division, so a
/// dimension with `elementStrides[i] > boxDim[i]` counts 0, and dimension 0's element stride
/// counts although the copy ignores it with interleave NONE (210,000 recorded driver verdicts
/// agree, see `tools/tma_driver_check/RESULTS.md`). `None` when an entry is 0 (another rule
/// fails) or on overflow.
///
/// Pre: none. Post: as above. Example: f32 box `[228, 256]` counts `4 * 256 * 228 = 233472`.
pub fn driver_box_bytes(r: &Request) -> Option<u64> {
    let mut n: u64 = 1;
    for i in 0..r.rank() {
        let b = Request::driver(&r.box_dims, i)?;
        let e = Request::driver(&r.element_strides, i)?;
        if e == 0 || b == 0 {
            return None;
        }
        n = n.checked_mul(b / e)?;
    }
    bytes_of(r.dtype, n).or_else(|| n.checked_mul(r.dtype.mem_bits()).map(|b| b / 8))
}

/// Bits one copy writes: `prod ceil(box / elementStride)` elements (dimension 0 dense with
/// interleave NONE) times the element's bits. `None` when an entry is missing or 0 (another rule
/// fails) or on overflow.
///
/// Pre: none. Post: as above; a packed 4-bit type with element strides can give a count that is
/// not whole bytes (e.g. 7,667 elements of `16U4_ALIGN8B`: 30,668 bits). The count is the
/// number of points the copy moves (`copy_points`, `proofs/TmaBox.v`; bridged).
fn copy_bits(r: &Request) -> Option<u64> {
    let mut n: u64 = 1;
    for i in 0..r.rank() {
        let b = Request::driver(&r.box_dims, i)?;
        let e = Request::driver(&r.element_strides, i)?;
        let e = if i == 0 && r.interleave == Interleave::None {
            1
        } else {
            e
        };
        if e == 0 {
            return None;
        }
        n = n.checked_mul(b.div_ceil(e))?;
    }
    n.checked_mul(r.dtype.mem_bits())
}

/// Bits one copy occupies in shared memory: [`copy_bits`], with every row of `boxDim[0]`
/// elements padded to the swizzle span when a swizzle is set (interleave NONE) and the row is
/// narrower than the span. `None` as [`copy_bits`].
///
/// Pre: none. Post: `≥ copy_bits(r)`; equal without swizzle, with interleave, or when
/// `boxDim[0] · size ≥ span`. Example: f16 box `[8, 8]` (16-byte rows) with swizzle 32B occupies
/// 8 rows × 32 bytes = 2,048 bits, not the 1,024 bits it moves. `copy / row` is exact and every
/// element of the box lies inside (`smem_bits_exact`, `box_elements_in_smem`, `proofs/TmaBox.v`;
/// bridged).
pub(crate) fn smem_bits(r: &Request) -> Option<u64> {
    let copy = copy_bits(r)?;
    let row = Request::driver(&r.box_dims, 0)?.checked_mul(r.dtype.mem_bits())?;
    if r.interleave != Interleave::None || row == 0 {
        return Some(copy);
    }
    // copy = row × (rows of the box), exactly.
    (copy / row).checked_mul(r.swizzle.row_pitch_bits(row))
}

/// The descriptor arguments, or the first error-level finding.
///
/// Pre: none. Post: `Ok` iff [`check`] finds no error-level finding; then `global_dim`,
/// `box_dim`, `element_strides` are the request's arrays reversed (driver order) and
/// `global_strides[i] = strides(dim i+1) * element size` in bytes.
/// Example: f16 `[1024, 4096]` row-major, box `[64, 128]` gives `globalDim = [4096, 1024]`,
/// `globalStrides = [8192]`, `boxDim = [128, 64]`.
pub fn descriptor(r: &Request) -> Result<Descriptor> {
    if let Some((e, _)) = check(r).into_iter().find(|(_, s)| *s == Severity::Error) {
        return Err(e);
    }
    let rev = |v: &[u64]| v.iter().rev().copied().collect::<Vec<u64>>();
    let mut strides = Vec::new();
    for i in 1..r.rank() {
        let s = Request::driver(&r.strides, i).ok_or(Error::Overflow { what: "stride" })?;
        strides.push(bytes_of(r.dtype, s).ok_or(Error::Overflow {
            what: "stride in bytes",
        })?);
    }
    Ok(Descriptor {
        data_type: r.dtype,
        rank: r.rank(),
        global_address: match r.address {
            Address::Exact(a) => Some(a),
            Address::Aligned(_) => None,
        },
        global_dim: rev(&r.shape),
        global_strides: strides,
        box_dim: rev(&r.box_dims),
        element_strides: rev(&r.element_strides),
        interleave: r.interleave,
        swizzle: r.swizzle,
        l2_promotion: r.l2_promotion,
        oob_fill: r.oob_fill,
        copy_bytes: copy_bits(r)
            .ok_or(Error::Overflow { what: "copy bytes" })?
            .div_ceil(8),
        smem_bytes: smem_bits(r)
            .ok_or(Error::Overflow {
                what: "shared-memory bytes",
            })?
            .div_ceil(8),
        smem_alignment: match r.swizzle.span() {
            None => 128,
            Some(s) => s * 8,
        },
    })
}
