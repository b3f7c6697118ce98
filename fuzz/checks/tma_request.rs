//! Structure-aware TMA requests: every field arbitrary (ranks 0..=7, any u64 extents, any
//! interleave); validation never panics; `valid` holds exactly when a descriptor exists; and every
//! suggestion (and the combined fix) that says it is valid has a descriptor, as `descriptor`'s and
//! `Suggestion::valid`'s contracts promise.
//!
//! Shared by the fuzz target `fuzz_targets/tma_request.rs` and the stable replay of its corpus and
//! regressions (`crates/tessera/tests/algebra/fuzz_regressions.rs`).
use arbitrary::Arbitrary;
use tessera::tma::{descriptor, validate, Address, DataType, Interleave, Swizzle};

#[derive(Arbitrary, Debug)]
pub struct Input {
    dtype: u8,
    shape: Vec<u64>,
    strides: Vec<u64>,
    box_dims: Vec<u64>,
    element_strides: Vec<u64>,
    swizzle: u8,
    interleave: u8,
    align_log2: u8,
    sm: u32,
}

/// The checks of one input.
pub fn check(i: Input) {
    if i.shape.len() > 7 {
        return;
    }
    let dtypes = DataType::all();
    let dtype = dtypes[usize::from(i.dtype) % dtypes.len()];
    let mut r = tessera::tma::Request::new(dtype, &i.shape, &i.box_dims);
    if !i.strides.is_empty() {
        r.strides = i.strides.clone();
    }
    if !i.element_strides.is_empty() {
        r.element_strides = i.element_strides.clone();
    }
    let sw = Swizzle::all();
    r.swizzle = sw[usize::from(i.swizzle) % sw.len()];
    r.interleave =
        [Interleave::None, Interleave::B16, Interleave::B32][usize::from(i.interleave) % 3];
    r.address = Address::Aligned(1u64 << (i.align_log2 % 64));
    r.sm = i.sm;
    let rep = validate(&r);
    assert_eq!(rep.valid(), descriptor(&r).is_ok());
    for f in rep.errors() {
        for s in &f.suggestions {
            assert_eq!(s.valid, descriptor(&s.request).is_ok(), "{}", s.text);
        }
    }
    if let Some(c) = &rep.combined {
        assert!(c.valid && descriptor(&c.request).is_ok(), "{}", c.text);
    }
}
