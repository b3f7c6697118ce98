//! Every TMA rule with a passing and a failing case; known-good descriptors; suggestions validate.

use proptest::prelude::*;
use tessera::tma::rules::{check, driver_box_bytes, smem_limit};
use tessera::tma::{
    descriptor, validate, Address, DataType, Error, Interleave, OobFill, Request, Severity, Source,
    Swizzle,
};

fn f16(shape: &[u64], boxes: &[u64]) -> Request {
    Request::new(DataType::F16, shape, boxes)
}

fn codes(r: &Request) -> Vec<&'static str> {
    check(r)
        .iter()
        .filter(|(_, s)| *s == Severity::Error)
        .map(|(e, _)| e.code())
        .collect()
}

fn warnings(r: &Request) -> Vec<&'static str> {
    check(r)
        .iter()
        .filter(|(_, s)| *s == Severity::Warning)
        .map(|(e, _)| e.code())
        .collect()
}

/// Asserts `good` has no error and `bad` has exactly the error `code` (among others allowed).
fn pair(good: &Request, bad: &Request, code: &str) {
    assert!(
        codes(good).is_empty(),
        "good case failed: {:?}",
        codes(good)
    );
    assert!(
        codes(bad).contains(&code),
        "bad case lacks {code}: {:?}",
        codes(bad)
    );
}

#[test]
fn rank() {
    let good = f16(&[2, 2, 2, 2, 64], &[1, 1, 1, 1, 64]);
    let bad = f16(&[2, 2, 2, 2, 2, 64], &[1, 1, 1, 1, 1, 64]);
    pair(&good, &bad, "tma_rank");
    let zero = f16(&[], &[]);
    assert_eq!(codes(&zero), vec!["tma_rank"]);
}

#[test]
fn interleave_rank() {
    let mut good = f16(&[4, 4, 64], &[1, 1, 64]);
    good.interleave = Interleave::B16;
    let mut bad = f16(&[4, 64], &[1, 64]);
    bad.interleave = Interleave::B16;
    pair(&good, &bad, "tma_interleave_rank");
}

#[test]
fn arity() {
    let mut bad = f16(&[64, 64], &[64, 64]);
    bad.box_dims = vec![64];
    assert_eq!(codes(&bad), vec!["tma_arity"]);
    bad.box_dims = vec![64, 64];
    bad.element_strides = vec![1, 1, 1];
    assert_eq!(codes(&bad), vec!["tma_arity"]);
}

#[test]
fn global_address() {
    let mut good = f16(&[64], &[64]);
    good.address = Address::Exact(0x1000_0010);
    let mut bad = good.clone();
    // nvFuser MisalignedGlobalAddress: a float tensor narrowed by 2 elements (8 bytes).
    bad.address = Address::Exact(0x1000_0008);
    pair(&good, &bad, "tma_global_address_alignment");
    // Interleave 32B needs 32-byte alignment.
    let mut g32 = f16(&[4, 4, 64], &[1, 1, 64]);
    g32.interleave = Interleave::B32;
    g32.swizzle = Swizzle::B32;
    g32.address = Address::Exact(0x1000_0020);
    let mut b32 = g32.clone();
    b32.address = Address::Exact(0x1000_0010);
    pair(&g32, &b32, "tma_global_address_alignment");
    let mut aligned = f16(&[64], &[64]);
    aligned.address = Address::Aligned(8);
    assert!(codes(&aligned).contains(&"tma_global_address_alignment"));
}

#[test]
fn global_dim() {
    let good = Request::new(DataType::U8, &[1 << 32], &[16]);
    let bad = Request::new(DataType::U8, &[(1 << 32) + 1], &[16]);
    pair(&good, &bad, "tma_global_dim");
    let zero = f16(&[0, 64], &[1, 64]);
    assert!(codes(&zero).contains(&"tma_global_dim"));
}

#[test]
fn packed_types() {
    let good = Request::new(DataType::U4Align16B, &[4, 256], &[4, 128]);
    let mut bad = Request::new(DataType::U4Align16B, &[4, 200], &[4, 128]);
    pair(&good, &bad, "tma_packed_global_dim");
    bad.shape = vec![4, 256];
    bad.box_dims = vec![4, 64];
    assert!(codes(&bad).contains(&"tma_packed_box_dim"));
    let mut sw = good.clone();
    sw.swizzle = Swizzle::B64;
    assert!(codes(&sw).contains(&"tma_packed_swizzle"));
    let mut odd = Request::new(DataType::U4Align8B, &[4, 63], &[4, 32]);
    assert!(codes(&odd).contains(&"tma_packed_global_dim"));
    odd.shape = vec![4, 64];
    odd.strides = vec![64, 1];
    assert!(codes(&odd).is_empty(), "{:?}", codes(&odd));
    let mut il = Request::new(DataType::U6Align16B, &[2, 2, 128], &[1, 1, 128]);
    il.address = Address::Aligned(256);
    assert!(codes(&il).is_empty(), "{:?}", codes(&il));
    il.interleave = Interleave::B16;
    assert!(codes(&il).contains(&"tma_packed_interleave"));
}

#[test]
fn innermost_stride() {
    let good = f16(&[64, 64], &[64, 64]);
    let mut bad = good.clone();
    bad.strides = vec![1, 64]; // column-major: the last dimension is not contiguous
    pair(&good, &bad, "tma_innermost_stride");
    // The suggestion moves the stride-1 dimension inside and validates.
    let rep = validate(&bad);
    let f = rep
        .findings
        .iter()
        .find(|f| f.code() == "tma_innermost_stride")
        .unwrap();
    assert!(f.suggestions.iter().any(|s| s.valid));
}

#[test]
fn global_stride_multiple_and_bound() {
    // nvFuser MisalignedGlobalStride: float [128, 130] narrowed to 128 columns: stride 520 bytes.
    let mut bad = Request::new(DataType::F32, &[128, 128], &[32, 32]);
    bad.strides = vec![130, 1];
    let mut good = bad.clone();
    good.strides = vec![132, 1];
    pair(&good, &bad, "tma_global_stride_multiple");
    let e = check(&bad)
        .into_iter()
        .find(|(e, _)| e.code() == "tma_global_stride_multiple")
        .unwrap()
        .0;
    assert_eq!(
        e,
        Error::StrideMultiple {
            index: 0,
            dim: 1,
            bytes: 520,
            multiple: 16
        }
    );
    let mut big = Request::new(DataType::U8, &[2, 16], &[1, 16]);
    big.strides = vec![1 << 40, 1];
    assert!(codes(&big).contains(&"tma_global_stride_too_large"));
    big.strides = vec![(1 << 40) - 16, 1];
    assert!(codes(&big).is_empty());
    // Interleave 32B: strides multiple of 32.
    let mut il = f16(&[4, 4, 64], &[1, 1, 64]);
    il.interleave = Interleave::B32;
    il.swizzle = Swizzle::B32;
    il.strides = vec![4 * 72, 72, 1]; // 144 bytes: a multiple of 16, not of 32
    il.shape = vec![4, 4, 64];
    assert!(codes(&il).contains(&"tma_global_stride_multiple"));
    il.strides = vec![4 * 64, 64, 1];
    assert!(codes(&il).is_empty(), "{:?}", codes(&il));
}

#[test]
fn stride_overlap_is_a_warning() {
    let mut r = f16(&[64, 64], &[64, 64]);
    r.strides = vec![8, 1]; // rows overlap; the driver accepts it
    assert!(codes(&r).is_empty());
    assert!(warnings(&r).contains(&"tma_global_stride_overlap"));
    let ok = f16(&[64, 64], &[64, 64]);
    assert!(!warnings(&ok).contains(&"tma_global_stride_overlap"));
}

#[test]
fn box_dim() {
    let good = Request::new(DataType::F32, &[1024], &[256]);
    let bad = Request::new(DataType::F32, &[1024], &[512]);
    pair(&good, &bad, "tma_box_dim");
    assert!(
        validate(&bad).to_owned().findings[0]
            .error
            .to_string()
            .contains("512"),
        "the message names the value (nvFuser: box_dim_val = 512)"
    );
    let zero = Request::new(DataType::F32, &[1024], &[0]);
    assert!(codes(&zero).contains(&"tma_box_dim"));
}

#[test]
fn inner_box_bytes() {
    let good = Request::new(DataType::F32, &[64, 64], &[8, 4]);
    // nvFuser SizeOfTransfer: a tile of 2 floats is 8 bytes.
    let bad = Request::new(DataType::F32, &[64, 64], &[1, 2]);
    pair(&good, &bad, "tma_inner_box_bytes");
    assert!(warnings(&bad).contains(&"tma_transaction_bytes"));
    // Also with interleave (observed on the driver).
    let mut il = Request::new(DataType::F32, &[4, 4, 64], &[1, 1, 6]);
    il.interleave = Interleave::B16;
    assert!(codes(&il).contains(&"tma_inner_box_bytes"));
}

#[test]
fn box_footprint() {
    let good = Request::new(DataType::F32, &[1024, 1024], &[228, 256]);
    let bad = Request::new(DataType::F32, &[1024, 1024], &[229, 256]);
    assert_eq!(driver_box_bytes(&good), Some(smem_limit(&good)));
    assert_eq!(smem_limit(&good), 233_472);
    pair(&good, &bad, "tma_box_footprint");
    // Element strides count with truncating division, dimension 0 included.
    let mut strided = bad.clone();
    strided.element_strides = vec![1, 2];
    assert!(codes(&strided).is_empty());
    let rep = validate(&bad);
    let f = rep
        .findings
        .iter()
        .find(|f| f.code() == "tma_box_footprint")
        .unwrap();
    assert!(f.suggestions.iter().any(|s| s.valid), "{:?}", f.suggestions);
}

#[test]
fn element_strides() {
    let mut good = f16(&[64, 64], &[64, 64]);
    good.element_strides = vec![8, 1];
    let mut bad = good.clone();
    bad.element_strides = vec![9, 1];
    pair(&good, &bad, "tma_element_stride");
    bad.element_strides = vec![1, 0];
    assert!(codes(&bad).contains(&"tma_element_stride"));
    // The first (innermost) is ignored by the driver but must be 1 for nvFuser.
    let mut inner = f16(&[64, 64], &[64, 64]);
    inner.element_strides = vec![1, 2];
    assert!(codes(&inner).is_empty());
    assert!(warnings(&inner).contains(&"tma_inner_element_stride"));
}

#[test]
fn swizzle_span() {
    let mut good = f16(&[1024, 4096], &[64, 64]);
    good.swizzle = Swizzle::B128;
    let mut bad = f16(&[1024, 4096], &[64, 128]);
    bad.swizzle = Swizzle::B128;
    pair(&good, &bad, "tma_swizzle_span");
    for (z, ok, no) in [(Swizzle::B32, 16, 24), (Swizzle::B64, 32, 40)] {
        let mut a = f16(&[64, 64], &[8, ok]);
        a.swizzle = z;
        let mut b = a.clone();
        b.box_dims = vec![8, no];
        pair(&a, &b, "tma_swizzle_span");
    }
    // Smaller than the span: the driver accepts, nvFuser does not.
    let mut small = f16(&[64, 64], &[8, 32]);
    small.swizzle = Swizzle::B128;
    assert!(codes(&small).is_empty());
    assert!(warnings(&small).contains(&"tma_nvfuser_swizzle_exact"));
}

#[test]
fn atom_swizzles_need_sm100() {
    let mut r = f16(&[64, 64], &[8, 64]);
    r.swizzle = Swizzle::B128Atom32B;
    assert!(codes(&r).contains(&"tma_atom_swizzle_arch"));
    r.sm = 100;
    assert!(codes(&r).is_empty());
}

#[test]
fn interleave_swizzle_is_a_warning() {
    let mut r = f16(&[4, 4, 64], &[1, 1, 64]);
    r.interleave = Interleave::B32;
    r.swizzle = Swizzle::None;
    assert!(codes(&r).is_empty());
    assert!(warnings(&r).contains(&"tma_interleave_swizzle"));
    r.swizzle = Swizzle::B32;
    assert!(!warnings(&r).contains(&"tma_interleave_swizzle"));
}

#[test]
fn oob_fill() {
    let mut good = f16(&[64], &[64]);
    good.oob_fill = OobFill::NanRequestZeroFma;
    let mut bad = Request::new(DataType::I32, &[64], &[64]);
    bad.oob_fill = OobFill::NanRequestZeroFma;
    pair(&good, &bad, "tma_oob_fill");
}

#[test]
fn coordinate_32bit_warning() {
    let r = Request::new(DataType::U8, &[(1 << 31) + 16], &[16]);
    assert!(codes(&r).is_empty());
    assert!(warnings(&r).contains(&"tma_coordinate_32bit"));
}

#[test]
fn sources_are_named() {
    assert_eq!(Error::Rank { rank: 6 }.source_doc(), Source::Driver);
    assert_eq!(
        Error::InnerElementStride { value: 2 }.source_doc(),
        Source::NvFuser
    );
    assert_eq!(
        Error::TransactionBytes { bytes: 8 }.source_doc(),
        Source::Ptx
    );
}

/// CUTLASS SM90 GEMM: f16 A tile 128x64 (K-major), 128B swizzle.
#[test]
fn known_good_cutlass_f16_gemm_tile() {
    let mut r = f16(&[4096, 4096], &[128, 64]);
    r.swizzle = Swizzle::B128;
    let d = descriptor(&r).unwrap();
    assert_eq!(d.global_dim, vec![4096, 4096]);
    assert_eq!(d.global_strides, vec![8192]);
    assert_eq!(d.box_dim, vec![64, 128]);
    assert_eq!(d.element_strides, vec![1, 1]);
    assert_eq!(d.swizzle.cu_name(), "CU_TENSOR_MAP_SWIZZLE_128B");
    assert_eq!(d.data_type.cu_name(), "CU_TENSOR_MAP_DATA_TYPE_FLOAT16");
    assert_eq!(d.copy_bytes, 16384);
    assert_eq!(d.smem_alignment, 1024);
    assert!(warnings(&r).is_empty());
}

/// A packed 4-bit copy with an odd element count (element strides, interleave 16B): the driver's
/// rules hold, so the descriptor exists; its byte count is rounded up and the transaction-size
/// warning says it is not a multiple of 16 (found by `suggestions_validate`'s combined fix:
/// `descriptor` had refused it as an overflow while `check` found nothing).
#[test]
fn packed_odd_nibble_copy_rounds_up_and_warns() {
    let mut r = Request::new(DataType::U4Align8B, &[1, 1, 30], &[51, 41, 32]);
    r.strides = vec![64, 64, 1];
    r.element_strides = vec![3, 1, 3];
    r.interleave = Interleave::B16;
    r.address = Address::Exact(0x10000);
    // ceil(32/3) * 41 * ceil(51/3) = 11 * 41 * 17 = 7,667 nibbles = 3,833.5 bytes.
    let d = descriptor(&r).unwrap();
    assert_eq!(d.copy_bytes, 3834);
    assert_eq!(warnings(&r), vec!["tma_transaction_bytes"]);
    assert!(check(&r).contains(&(Error::TransactionBytes { bytes: 3834 }, Severity::Warning)));
    // One more row in the outermost dimension (11 * 41 * 18 = 8,118 nibbles): whole bytes.
    r.box_dims[0] = 52;
    assert_eq!(descriptor(&r).unwrap().copy_bytes, 4059);
}

/// The brief's example: f16 [1024, 4096] with box [64, 64] and 128B swizzle.
#[test]
fn known_good_f16_1024x4096() {
    let mut r = f16(&[1024, 4096], &[64, 64]);
    r.swizzle = Swizzle::B128;
    let d = descriptor(&r).unwrap();
    assert_eq!(d.global_dim, vec![4096, 1024]);
    assert_eq!(d.global_strides, vec![8192]);
    assert_eq!(d.box_dim, vec![64, 64]);
}

/// nvFuser TMA pointwise: 1-D float tensor with a 256-element box, no swizzle.
#[test]
fn known_good_nvfuser_1d() {
    let r = Request::new(DataType::F32, &[10240], &[256]);
    let d = descriptor(&r).unwrap();
    assert_eq!(d.global_dim, vec![10240]);
    assert!(d.global_strides.is_empty());
    assert_eq!(d.copy_bytes, 1024);
    assert_eq!(d.smem_alignment, 128);
}

/// nvFuser DefineBoxByCompositingShouldNotMerge: [2,256,2,32] float, whole tensor, 128B swizzle:
/// 4-D because merging exceeds 256 / the swizzle span.
#[test]
fn known_good_nvfuser_compositing_4d() {
    let mut r = Request::new(DataType::F32, &[2, 256, 2, 32], &[2, 256, 2, 32]);
    r.swizzle = Swizzle::B128;
    let d = descriptor(&r).unwrap();
    assert_eq!(d.global_dim, vec![32, 2, 256, 2]);
    assert_eq!(d.global_strides, vec![128, 256, 65536]);
    // Merging the two inner dimensions would give a 64-float (256-byte) inner box.
    let mut merged = Request::new(DataType::F32, &[2, 256, 64], &[2, 256, 64]);
    merged.swizzle = Swizzle::B128;
    assert!(codes(&merged).contains(&"tma_swizzle_span"));
}

#[test]
fn from_layout() {
    let l: tessera::Layout = "(128,64):(1,128)".parse().unwrap();
    let r = Request::from_layout(DataType::F16, &l, &[64, 32]).unwrap();
    assert_eq!(r.shape, vec![64, 128]);
    assert_eq!(r.strides, vec![128, 1]);
    assert_eq!(r.box_dims, vec![32, 64]);
    let d = descriptor(&r).unwrap();
    assert_eq!(d.global_dim, vec![128, 64]);
    assert_eq!(d.global_strides, vec![256]);
}

#[test]
fn combined_fix_for_several_errors() {
    // f32 [128, 130] narrowed to 128 columns (520-byte stride) with a 2-float inner box.
    let mut r = Request::new(DataType::F32, &[128, 128], &[32, 2]);
    r.strides = vec![130, 1];
    let rep = validate(&r);
    assert_eq!(rep.errors().count(), 2);
    let c = rep.combined.expect("a chain of checked fixes");
    assert!(c.valid && descriptor(&c.request).is_ok());
    assert_eq!(c.request.strides, vec![132, 1]);
    assert_eq!(c.request.box_dims, vec![32, 4]);
}

#[test]
fn rank_suggestion_merges_contiguous_dims() {
    let r = f16(&[2, 2, 2, 2, 2, 64], &[1, 1, 1, 1, 2, 64]);
    let rep = validate(&r);
    let f = rep
        .findings
        .iter()
        .find(|f| f.code() == "tma_rank")
        .unwrap();
    assert!(f
        .suggestions
        .iter()
        .any(|s| s.valid && s.request.rank() == 5));
}

fn arb_request() -> impl Strategy<Value = Request> {
    (
        0usize..16,
        1usize..6,
        proptest::collection::vec((1u64..600, 0u64..300, 1u64..10, 0u64..40), 1..7),
        0usize..3,
        0usize..7,
        0u64..64,
        any::<bool>(),
    )
        .prop_map(|(dt, _, dims, il, sw, addr, nan)| {
            let dtype = DataType::all()[dt];
            let shape: Vec<u64> = dims.iter().map(|d| d.0).collect();
            let boxes: Vec<u64> = dims.iter().map(|d| d.1).collect();
            let mut r = Request::new(dtype, &shape, &boxes);
            r.element_strides = dims.iter().map(|d| d.2).collect();
            // Pad some strides.
            let n = r.rank();
            for (i, d) in dims.iter().enumerate() {
                if i + 1 < n {
                    r.strides[i] = r.strides[i].saturating_add(d.3);
                }
            }
            r.interleave = [Interleave::None, Interleave::B16, Interleave::B32][il];
            r.swizzle = Swizzle::all()[sw];
            r.address = Address::Exact(0x10000 + addr * 8);
            if nan {
                r.oob_fill = OobFill::NanRequestZeroFma;
            }
            r
        })
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(400))]
    /// Every suggestion shown passes the check again: its rule no longer fails and it has fewer
    /// errors; `valid` is exact. Never panics.
    #[test]
    fn suggestions_validate(r in arb_request()) {
        let rep = validate(&r);
        let errors = rep.errors().count();
        prop_assert_eq!(rep.valid(), errors == 0);
        for f in rep.errors() {
            for s in &f.suggestions {
                let again: Vec<Error> = check(&s.request)
                    .into_iter()
                    .filter(|(_, sev)| *sev == Severity::Error)
                    .map(|(e, _)| e)
                    .collect();
                prop_assert!(!again.contains(&f.error));
                prop_assert!(again.len() < errors);
                prop_assert_eq!(s.valid, again.is_empty());
                prop_assert_eq!(s.valid, descriptor(&s.request).is_ok());
            }
        }
        if let Some(c) = &rep.combined {
            prop_assert!(c.valid);
            prop_assert!(descriptor(&c.request).is_ok());
        }
    }
}

fn edge() -> impl Strategy<Value = u64> {
    prop_oneof![
        Just(0u64),
        Just(1u64),
        Just(u64::MAX),
        Just(1u64 << 32),
        Just((1u64 << 32) + 1),
        Just(1u64 << 40),
        0u64..300,
        any::<u64>(),
    ]
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(300))]
    /// Arbitrary values, including 0, 2^32, 2^40 and u64::MAX, never panic; the verdict is the
    /// same whether asked through `validate` or `descriptor`.
    #[test]
    fn never_panics(
        dt in 0usize..16,
        dims in proptest::collection::vec((edge(), edge(), edge(), edge()), 0..7),
        sw in 0usize..7,
        il in 0usize..3,
        addr in edge(),
    ) {
        let mut r = Request::new(DataType::all()[dt], &dims.iter().map(|d| d.0).collect::<Vec<_>>(),
            &dims.iter().map(|d| d.1).collect::<Vec<_>>());
        r.strides = dims.iter().map(|d| d.2).collect();
        r.element_strides = dims.iter().map(|d| d.3).collect();
        r.swizzle = Swizzle::all()[sw];
        r.interleave = [Interleave::None, Interleave::B16, Interleave::B32][il];
        r.address = Address::Exact(addr);
        let rep = validate(&r);
        prop_assert_eq!(rep.valid(), descriptor(&r).is_ok());
    }
}
