//! Vectorization widths, word sizes and the vectorized-ID walk (reference Example 21, §3.8).
//!
//! Three checks nvFuser makes around a vectorized IterDomain, each with a typed error:
//! * the scheduler's width bound [`max_vectorization_width`] (`n & !(n - 1)`, the largest power
//!   of two dividing `n`);
//! * the compile-time word size [`check_word_size`]: `element bits × width` must be one of
//!   8, 16, 32, 64, 128 bits (and 256 where the device supports 256-bit vectors);
//! * the compile-time walk [`vectorized_allocation_id`] from the vectorized loop ID back to the
//!   allocation domain: the vector must sit on the inner output of every split on the way, and
//!   must end on the innermost allocated ID;
//! * the launch-time stride validation [`check_vector_strides`], which skips size-1 and expanded
//!   broadcast dimensions (`VectorizationStrideValidation`).

use super::ir::{Id, Schedule, Transform};

/// A vectorization error, with nvFuser's message.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub enum VectorError {
    /// The vector's size in bits is not an allowed word size.
    #[error(
        "Tried to vectorize a dim resulting in a word size of {bits} bits, however, vector sizes \
         starting from and including {min} bits upto and including {max} bits are supported."
    )]
    WordSize {
        /// `element bits × width`.
        bits: u64,
        /// Smallest allowed size.
        min: u64,
        /// Largest allowed size.
        max: u64,
    },
    /// The vector sits on the outer output of a split (or touches a swizzle) on the way to the
    /// allocation domain.
    #[error(
        "Invalid vectorized pattern found, vectorization iter domains must be descendants of \
         inner-most dimension. Issue found in {0}"
    )]
    NotInnermostDescendant(String),
    /// The allocated ID reached is not the innermost allocated one.
    #[error("Vectorized dim for {0} has to be from an inner most position")]
    NotInnermostAllocation(String),
    /// A launch-time stride breaks the vector.
    #[error(
        "Vectorization of tensor dimension {dim} has an invalid stride: {stride} elements of \
         {elem_bytes} bytes is neither contiguous nor a multiple of the {vector_bytes}-byte vector"
    )]
    InvalidStride {
        /// The dimension, outermost first.
        dim: usize,
        /// Its stride in elements.
        stride: i64,
        /// Bytes per element.
        elem_bytes: u64,
        /// Bytes per vector.
        vector_bytes: u64,
    },
    /// The base address is not a multiple of the vector size.
    #[error(
        "memory address is not aligned: offset {offset_bytes} bytes, vector {vector_bytes} bytes"
    )]
    Misaligned {
        /// Base offset in bytes.
        offset_bytes: u64,
        /// Vector size in bytes.
        vector_bytes: u64,
    },
    /// Arguments out of range (zero element size, unknown ID, overflow).
    #[error("invalid vectorization arguments: {0}")]
    BadArguments(String),
}

/// The largest power of two dividing `n`: `n & !(n - 1)`.
///
/// Pre: none. Post: `None` for `n == 0` (nvFuser: "infinite"), else a power of two dividing `n`.
/// Example: `max_vectorization_width(96) == Some(32)`.
pub fn max_vectorization_width(n: u64) -> Option<u64> {
    (n != 0).then(|| n & !(n - 1))
}

/// The allowed vector sizes in bits.
///
/// Pre: none. Post: `[8, 16, 32, 64, 128]`, plus `256` when `supports_256_bit`. Example:
/// `allowed_vector_bits(true).last() == Some(&256)`.
pub fn allowed_vector_bits(supports_256_bit: bool) -> Vec<u64> {
    let mut v = vec![8, 16, 32, 64, 128];
    if supports_256_bit {
        v.push(256);
    }
    v
}

/// Checks the word size `elem_bits × width` of a vectorized access.
///
/// Pre: none. Post: `Ok(bits)` iff `bits` is allowed; otherwise [`VectorError::WordSize`] (or
/// [`VectorError::BadArguments`] on overflow). Example: a 4-bit element with width 1 gives
/// "Tried to vectorize a dim resulting in a word size of 4 bits, …".
pub fn check_word_size(
    elem_bits: u64,
    width: u64,
    supports_256_bit: bool,
) -> Result<u64, VectorError> {
    let bits = elem_bits
        .checked_mul(width)
        .ok_or_else(|| VectorError::BadArguments(format!("{elem_bits} bits × {width}")))?;
    let allowed = allowed_vector_bits(supports_256_bit);
    if allowed.contains(&bits) {
        Ok(bits)
    } else {
        Err(VectorError::WordSize {
            bits,
            min: allowed[0],
            max: allowed[allowed.len() - 1],
        })
    }
}

/// Walks from a vectorized loop ID back to the allocation domain (nvFuser's
/// `getDependentAllocIDs` and `validateAllocationVectorizedId`).
///
/// Pre: `id` exists in `s`. Post: `Ok(a)` with `a` the innermost allocated ID when, going
/// backward, the vector is on the inner output of every split (it then moves to the input), a
/// merge output (it moves to the inner input) or a resize output (it passes); a split's outer
/// output or any swizzle is [`VectorError::NotInnermostDescendant`]; reaching an allocated ID
/// other than the last is [`VectorError::NotInnermostAllocation`]. Example (`Vectorization2`):
/// `I1, I2 = split I0 by 4` with `I1` vectorized is an error.
pub fn vectorized_allocation_id(s: &Schedule, id: Id) -> Result<Id, VectorError> {
    let alloc = s
        .allocation()
        .map_err(|e| VectorError::BadArguments(e.to_string()))?;
    if id >= s.ids.len() {
        return Err(VectorError::BadArguments(format!("no IterDomain {id}")));
    }
    let mut cur = id;
    for _ in 0..=s.ids.len() {
        if let Some(pos) = alloc.ids.iter().position(|&a| a == cur) {
            if pos + 1 != alloc.ids.len() {
                return Err(VectorError::NotInnermostAllocation(s.name(id).to_string()));
            }
            return Ok(cur);
        }
        let Some(t) = s.ids[cur].definition else {
            return Err(VectorError::BadArguments(format!(
                "{} does not lead to the allocation domain",
                s.name(id)
            )));
        };
        cur = match s.transforms[t] {
            Transform::Split { input, inner, .. } if inner == cur => input,
            Transform::Split { .. } | Transform::Swizzle { .. } => {
                return Err(VectorError::NotInnermostDescendant(s.describe(t)))
            }
            Transform::Merge { inner, .. } => inner,
            Transform::Resize { input, .. } => input,
        };
    }
    Err(VectorError::BadArguments("cyclic schedule".into()))
}

/// One dimension of a tensor argument at launch: size and element stride (stride 0 with size
/// above 1: an expanded broadcast).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct TensorDim {
    /// Size.
    pub size: i64,
    /// Stride in elements.
    pub stride: i64,
}

/// Launch-time validation of a vectorized tensor's base offset and strides (nvFuser's
/// `executor_utils` checks).
///
/// Pre: none. Post: `Ok` iff `offset × elem_bytes` is a multiple of the vector bytes and,
/// walking from the innermost dimension and skipping size-1 and expanded (stride-0) dimensions,
/// the first remaining dimension has stride 1 and every other is contiguous (stride = product of
/// the inner non-skipped sizes) or has `stride × elem_bytes` a multiple of the vector bytes.
/// Example (`VectorizationStrideValidation`): `[2, 1→5, 3]` with strides `[3, 0, 1]`, float ×2,
/// is accepted.
pub fn check_vector_strides(
    dims: &[TensorDim],
    offset: i64,
    elem_bytes: u64,
    width: u64,
) -> Result<(), VectorError> {
    let bad = |m: &str| VectorError::BadArguments(m.to_string());
    let vector_bytes = elem_bytes
        .checked_mul(width)
        .filter(|&v| v > 0)
        .ok_or_else(|| bad("vector size is zero or overflows"))?;
    let offset_bytes = u64::try_from(offset)
        .ok()
        .and_then(|o| o.checked_mul(elem_bytes))
        .ok_or_else(|| bad("negative or overflowing offset"))?;
    if offset_bytes % vector_bytes != 0 {
        return Err(VectorError::Misaligned {
            offset_bytes,
            vector_bytes,
        });
    }
    let mut expected: i64 = 1;
    let mut innermost = true;
    for (dim, d) in dims.iter().enumerate().rev() {
        if d.size < 0 || d.stride < 0 {
            return Err(bad("negative size or stride"));
        }
        if d.size == 1 || d.stride == 0 {
            continue;
        }
        let ok = if innermost {
            d.stride == 1
        } else {
            d.stride == expected
                || u64::try_from(d.stride)
                    .ok()
                    .and_then(|s| s.checked_mul(elem_bytes))
                    .is_some_and(|b| b % vector_bytes == 0)
        };
        if !ok {
            return Err(VectorError::InvalidStride {
                dim,
                stride: d.stride,
                elem_bytes,
                vector_bytes,
            });
        }
        innermost = false;
        expected = d
            .stride
            .checked_mul(d.size)
            .ok_or_else(|| bad("stride overflow"))?;
    }
    Ok(())
}
