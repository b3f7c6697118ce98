//! The wire form of a TMA report: the JSON `tessera tma --json` and `tessera batch` (`"tma"`
//! requests) write, built with serde from the report types (keys in the order written; the
//! request in the file format `tessera tma --file` reads).

use serde_json::{json, Map, Value};

use super::report::severity_name as severity;
use super::tiling::HoleKind;
use super::{Address, OobFill, Report, Request};

/// The request as JSON (tensor order), in the file format `tessera tma --file` reads.
///
/// Pre: none. Post: an object with `dtype`, `shape`, `strides`, `box`, `element_strides`,
/// `interleave`, `swizzle`, `l2`, `oob`, `address` or `align`, and `sm`.
///
/// ```
/// let r = tessera::tma::params::Params {
///     dtype: Some("f16".into()),
///     shape: Some(vec![64, 64]),
///     box_dims: Some(vec![64, 64]),
///     ..Default::default()
/// }
/// .request()
/// .unwrap();
/// assert_eq!(tessera::tma::wire::request_json(&r)["box"], serde_json::json!([64, 64]));
/// ```
pub fn request_json(r: &Request) -> Value {
    let mut m = Map::new();
    m.insert("dtype".into(), json!(r.dtype.name()));
    m.insert("shape".into(), json!(r.shape));
    m.insert("strides".into(), json!(r.strides));
    m.insert("box".into(), json!(r.box_dims));
    m.insert("element_strides".into(), json!(r.element_strides));
    m.insert("interleave".into(), json!(r.interleave.name()));
    m.insert("swizzle".into(), json!(r.swizzle.name()));
    m.insert(
        "l2".into(),
        json!(r
            .l2_promotion
            .cu_name()
            .trim_start_matches("CU_TENSOR_MAP_L2_PROMOTION_")),
    );
    m.insert(
        "oob".into(),
        json!(match r.oob_fill {
            OobFill::None => "none",
            OobFill::NanRequestZeroFma => "nan",
        }),
    );
    match r.address {
        Address::Exact(a) => m.insert("address".into(), json!(a)),
        Address::Aligned(a) => m.insert("align".into(), json!(a)),
    };
    m.insert("sm".into(), json!(r.sm));
    Value::Object(m)
}

/// The report as JSON (what `tessera tma --json` prints): validity, the request, findings with
/// their checked suggestions, the descriptor, the tiling view and the combined fix.
///
/// Pre: none. Post: an object; `"valid"` is `rep.valid()`.
pub fn to_json(rep: &Report) -> Value {
    let findings: Vec<Value> = rep
        .findings
        .iter()
        .map(|f| {
            json!({
                "code": f.code(),
                "severity": severity(f.severity),
                "source": f.source().cite(),
                "message": f.error.to_string(),
                "suggestions": f.suggestions.iter().map(|s| json!({
                    "text": s.text, "valid": s.valid, "request": request_json(&s.request),
                })).collect::<Vec<_>>(),
            })
        })
        .collect();
    let descriptor = rep.descriptor.as_ref().map(|d| {
        json!({
            "tensorDataType": d.data_type.cu_name(),
            "tensorDataTypeValue": d.data_type.cu_value(),
            "tensorRank": d.rank,
            "globalAddress": d.global_address,
            "globalDim": d.global_dim,
            "globalStrides": d.global_strides,
            "boxDim": d.box_dim,
            "elementStrides": d.element_strides,
            "interleave": d.interleave.cu_name(),
            "swizzle": d.swizzle.cu_name(),
            "l2Promotion": d.l2_promotion.cu_name(),
            "oobFill": d.oob_fill.cu_name(),
            "copyBytes": d.copy_bytes,
            "smemBytes": d.smem_bytes,
            "smemAlignment": d.smem_alignment,
        })
    });
    let tiling = rep.tiling.as_ref().map(|t| {
        json!({
            "tensor": t.tensor.to_string(),
            "boxes": t.boxes.as_ref().map(|l| l.to_string()),
            "tiles": t.tiles.as_ref().map(|l| l.to_string()),
            "exact": t.exact,
            "all_holes_zero": t.all_holes_zero,
            "strong_correctness": t.strong_correctness,
            "notes": t.notes,
            "dims": t.dims.iter().map(|d| json!({
                "dim": d.dim, "size": d.size, "box": d.box_size, "element_stride": d.element_stride,
                "boxes": d.boxes, "tile": d.tile, "boxing_holes": d.boxing_holes,
                "striding_holes": d.striding_holes, "data_filled": d.data_filled,
                "zero_filled": d.zero_filled, "fttc": d.fttc,
                "sites": d.sites.iter().map(|h| json!({
                    "kind": match h.kind { HoleKind::Boxing => "boxing", HoleKind::Striding => "striding" },
                    "box": h.box_number, "offset": h.offset, "coordinate": h.coordinate,
                    "zero_filled": h.zero_filled,
                })).collect::<Vec<_>>(),
            })).collect::<Vec<_>>(),
        })
    });
    json!({
        "valid": rep.valid(),
        "request": request_json(&rep.request),
        "findings": findings,
        "descriptor": descriptor,
        "tiling": tiling,
        "tiling_error": rep.tiling_error.as_ref().map(|e| e.to_string()),
        "combined": rep.combined.as_ref().map(|c| json!({
            "text": c.text, "valid": c.valid, "request": request_json(&c.request),
        })),
    })
}
