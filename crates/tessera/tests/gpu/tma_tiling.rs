//! The tiling view and hole report: nvfuser.md §5 Examples 12 and 13 (FTTC), exact layouts.

use tessera::tma::tiling::{dim_tiling, fttc, HoleKind};
use tessera::tma::{tiling_view, DataType, Request};

/// Example 13: the FTTC truth table `(S, B, e) -> strong correctness impossible`.
#[test]
fn example_13_truth_table() {
    for (s, b, e, want) in [
        (8, 4, 3, true),
        (4, 4, 3, false),
        (8, 4, 5, false),
        (8, 4, 2, false),
        (8, 4, 1, false),
        (16, 6, 4, true),
    ] {
        assert_eq!(fttc(s, b, e), want, "({s},{b},{e})");
        let d = dim_tiling(1, s, b, e).unwrap();
        assert_eq!(d.fttc, want);
        assert_eq!(d.mixed_issue, want, "engine witness for ({s},{b},{e})");
    }
}

/// Example 13's brute force: over `S < 40, B < 20, e <= 8` the engine's enumeration (a copy issue
/// mixing a valid element with a hole holding in-bound data) agrees with `e < B < S && e ∤ B`.
#[test]
fn example_13_brute_force() {
    for s in 1..40u64 {
        for b in 1..20u64 {
            for e in 1..=8u64 {
                let d = dim_tiling(0, s, b, e).unwrap();
                assert_eq!(d.mixed_issue, fttc(s, b, e), "S={s} B={b} e={e}");
                // Counts: every hole is data- or zero-filled; boxing holes are the tail.
                assert_eq!(d.boxing_holes, d.boxes * b - s);
                assert_eq!(d.data_filled + d.zero_filled, d.striding_holes);
            }
        }
    }
}

/// Example 12 (`no-strong-correctness-*.svg`): TMA domain `I1{8}, I2{2}`, box 4 with element
/// stride 3 on `I1`, `I2` a whole box. Holes at box offsets 4, 5: in box 0 they hold in-bound
/// data (coordinates 4, 5 → values 8R 9R 10R 11R), in box 1 zeros (coordinates 8, 9).
#[test]
fn example_12_holes() {
    let mut r = Request::new(DataType::F32, &[8, 4], &[4, 4]);
    r.element_strides = vec![3, 1];
    let t = tiling_view(&r).unwrap();
    let d = &t.dims[1];
    assert_eq!((d.size, d.box_size, d.element_stride), (8, 4, 3));
    assert_eq!((d.boxes, d.tile), (2, 2));
    assert_eq!((d.boxing_holes, d.striding_holes), (0, 4));
    assert_eq!((d.data_filled, d.zero_filled), (2, 2));
    let sites: Vec<(u64, u64, u64, bool)> = d
        .sites
        .iter()
        .map(|h| (h.box_number, h.offset, h.coordinate, h.zero_filled))
        .collect();
    assert_eq!(
        sites,
        vec![
            (0, 4, 4, false),
            (0, 5, 5, false),
            (1, 4, 8, true),
            (1, 5, 9, true)
        ]
    );
    assert!(d.fttc);
    assert!(!t.strong_correctness);
    assert!(!t.all_holes_zero);
    assert!(!t.exact);
    assert!(t.tiles.is_none(), "3 does not divide 4: no tile layout");
    assert!(t.boxes.is_some());
}

/// An indivisible boxing split: holes only at the tensor end, all zero-filled (TMA-protected).
#[test]
fn boxing_holes_are_zero_filled() {
    let r = Request::new(DataType::F16, &[100, 64], &[32, 64]);
    let t = tiling_view(&r).unwrap();
    let d = &t.dims[1];
    assert_eq!((d.boxes, d.boxing_holes), (4, 28));
    assert!(d
        .sites
        .iter()
        .all(|h| h.kind == HoleKind::Boxing && h.zero_filled && h.coordinate >= 100));
    assert_eq!(d.sites.first().map(|h| h.coordinate), Some(100));
    assert!(t.all_holes_zero && t.strong_correctness && !t.exact);
    assert_eq!(
        t.boxes.as_ref().unwrap().to_string(),
        "((64,32),(1,4)):((1,64),(0,2048))"
    );
}

/// Exact tiling: `zipped_divide` gives the box modes and the rest modes.
#[test]
fn exact_tiling_layout() {
    let r = Request::new(DataType::F16, &[1024, 4096], &[64, 128]);
    let t = tiling_view(&r).unwrap();
    assert!(t.exact);
    assert_eq!(t.tensor.to_string(), "(4096,1024):(1,4096)");
    assert_eq!(
        t.boxes.unwrap().to_string(),
        "((128,64),(32,16)):((1,4096),(128,262144))"
    );
}

/// Element strides dividing the box: the strided tile `B/e : e` divides the box exactly, the rest
/// modes are the stride offsets and the boxes.
#[test]
fn strided_tile_layout() {
    let mut r = Request::new(DataType::F32, &[64, 64], &[8, 64]);
    r.element_strides = vec![2, 1];
    let t = tiling_view(&r).unwrap();
    assert!(t.exact && t.strong_correctness);
    assert_eq!(
        t.tiles.unwrap().to_string(),
        "((64,4),(1,(2,8))):((1,128),(0,(64,512)))"
    );
}

/// Large dimensions are counted exactly without enumerating them (interior boxes are skipped).
#[test]
fn large_dimension_counts() {
    let d = dim_tiling(1, 1 << 32, 6, 4).unwrap();
    let boxes = (1u64 << 32).div_ceil(6);
    assert_eq!(d.boxes, boxes);
    assert_eq!(d.striding_holes, boxes * 2);
    assert_eq!(d.data_filled + d.zero_filled, d.striding_holes);
    assert!(d.fttc && d.mixed_issue);
}

#[test]
fn out_of_range_is_an_error() {
    assert!(dim_tiling(0, 0, 4, 1).is_err());
    assert!(dim_tiling(0, 8, 0, 1).is_err());
    assert!(dim_tiling(0, 8, 4, 9).is_err());
}
