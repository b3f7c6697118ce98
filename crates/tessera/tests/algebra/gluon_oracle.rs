//! Gluon layouts against Triton 3.9.0's own `to_linear_layout`: every case of
//! `tests/data/triton_layouts.jsonl` (written by `tools/oracle/triton_layouts.py`) is converted by
//! `tessera::algebra::gluon` and compared basis by basis (so point by point) with Triton's result.

use serde_json::Value as J;
use tessera::algebra::gluon::{padded_offset, to_gluon, Gluon};
use tessera::algebra::linear::LinearLayout;

/// The constructor text of a layout written as a JSON object (`class` plus fields).
fn text(v: &J) -> String {
    match v {
        J::Object(m) => {
            let class = m["class"].as_str().expect("class");
            let args: Vec<String> = m
                .iter()
                .filter(|(k, _)| k.as_str() != "class")
                .map(|(k, v)| format!("{k}={}", text(v)))
                .collect();
            format!("{class}({})", args.join(", "))
        }
        J::Array(xs) => format!("[{}]", xs.iter().map(text).collect::<Vec<_>>().join(", ")),
        J::Bool(b) => if *b { "True" } else { "False" }.into(),
        J::Number(n) => n.to_string(),
        J::Null => "None".into(),
        J::String(s) => s.clone(),
    }
}

fn bases(v: &J) -> Vec<Vec<u64>> {
    v.as_array()
        .expect("bases")
        .iter()
        .map(|b| {
            b.as_array()
                .expect("basis")
                .iter()
                .map(|x| x.as_u64().expect("u64"))
                .collect()
        })
        .collect()
}

fn expected(lin: &J, shape: &[u64], shared: bool) -> LinearLayout {
    let names: Vec<String> = (0..shape.len()).map(|d| format!("dim{d}")).collect();
    let outs: Vec<(&str, u64)> = names
        .iter()
        .map(|s| s.as_str())
        .zip(shape.iter().copied())
        .collect();
    let keys: &[(&str, &str)] = if shared {
        &[("offset", "offset_bases"), ("block", "block_bases")]
    } else {
        &[
            ("register", "reg_bases"),
            ("lane", "lane_bases"),
            ("warp", "warp_bases"),
            ("block", "block_bases"),
        ]
    };
    let ins: Vec<(&str, Vec<Vec<u64>>)> = keys.iter().map(|(n, k)| (*n, bases(&lin[*k]))).collect();
    LinearLayout::new(&ins, &outs).expect("Triton's layout is well formed")
}

#[test]
fn every_oracle_case_agrees_with_triton() {
    let data = std::fs::read_to_string(concat!(
        env!("CARGO_MANIFEST_DIR"),
        "/../../tests/data/triton_layouts.jsonl"
    ))
    .expect("oracle file");
    let mut per_class: std::collections::BTreeMap<String, (usize, usize)> = Default::default();
    let mut failures = Vec::new();
    for line in data.lines() {
        let case: J = serde_json::from_str(line).expect("json");
        let class = case["class"].as_str().expect("class").to_string();
        let shape: Vec<u64> = case["shape"]
            .as_array()
            .expect("shape")
            .iter()
            .map(|x| x.as_u64().expect("u64"))
            .collect();
        let t = text(&case["layout"]);
        let g = Gluon::parse(&t).unwrap_or_else(|e| panic!("{t}: {e}"));
        assert_eq!(
            Gluon::parse(&g.to_string()).as_ref(),
            Ok(&g),
            "round trip of {t}"
        );
        let e = per_class.entry(class.clone()).or_default();
        e.0 += 1;
        let lin = &case["linear"];
        if lin.is_null() {
            // PaddedSharedLayout: Triton has no linear layout; the linear component is the
            // offset bases as given.
            let l = g.to_linear(&shape).unwrap_or_else(|e| panic!("{t}: {e}"));
            let want = expected(
                &serde_json::json!({"offset_bases": case["layout"]["offset_bases"], "block_bases": case["layout"]["cga_layout"]}),
                &shape,
                true,
            );
            assert_eq!(l, want, "{t}");
            e.1 += 1;
            continue;
        }
        let want = expected(lin, &shape, g.is_shared());
        match g.to_linear(&shape) {
            Ok(l) if l == want => e.1 += 1,
            Ok(l) => failures.push(format!(
                "{t} over {shape:?}:\n  ours   {l}\n  triton {want}"
            )),
            Err(err) => failures.push(format!("{t} over {shape:?}: {err}")),
        }
    }
    for (c, (n, ok)) in &per_class {
        eprintln!("{c}: {ok}/{n} agree");
    }
    let total: usize = per_class.values().map(|v| v.0).sum();
    assert!(total >= 200, "the oracle has {total} cases");
    assert!(
        failures.is_empty(),
        "{} disagreements:\n{}",
        failures.len(),
        failures.join("\n")
    );
}

#[test]
fn to_gluon_names_the_shared_constructor() {
    for text in [
        "NVMMASharedLayout(swizzle_byte_width=128, element_bitwidth=16, rank=2, transposed=False, fp4_padded=False, cga_layout=[])",
        "NVMMASharedLayout(swizzle_byte_width=64, element_bitwidth=8, rank=2, transposed=True, fp4_padded=False, cga_layout=[])",
        "SwizzledSharedLayout(vec=4, per_phase=2, max_phase=4, order=[1, 0], cga_layout=[])",
    ] {
        let g = Gluon::parse(text).unwrap();
        let l = g.to_linear(&[64, 128]).unwrap();
        let back = to_gluon(&l).expect("a constructor fits");
        let l2 = Gluon::parse(&back).unwrap().to_linear(&[64, 128]).unwrap();
        assert!(l.equivalent(&l2), "{text} -> {back}");
    }
    // A layout with a non-swizzle XOR pattern has no constructor.
    let odd = LinearLayout::new(
        &[(
            "offset",
            vec![vec![0, 1], vec![1, 1], vec![0, 2], vec![2, 0]],
        )],
        &[("dim0", 4), ("dim1", 4)],
    )
    .unwrap();
    assert_eq!(to_gluon(&odd), None);
}

#[test]
fn padded_offsets_follow_the_docstring() {
    // Triton's docstring: pairs [[2, 1], [4, 2]] put e2 after one pad and e4 after 1 + 3 pads.
    let pairs = [(2, 1), (4, 2)];
    let got: Vec<u64> = (0..8).map(|o| padded_offset(&pairs, o).unwrap()).collect();
    assert_eq!(got, vec![0, 1, 3, 4, 8, 9, 11, 12]);
}

#[test]
fn parse_errors_point_at_the_column() {
    let e = Gluon::parse("BlockedLayout([1, 4], [4, 8] [4, 1], [1, 0])").unwrap_err();
    assert!(e.to_string().contains("column 30"), "{e}");
    let e = Gluon::parse("BlockedLayout([1], [32], [4], [1])").unwrap_err();
    assert!(e.to_string().contains("permutation"), "{e}");
    let e = Gluon::parse("FancyLayout(1)").unwrap_err();
    assert!(e.to_string().contains("known"), "{e}");
}

#[test]
fn random_fields_never_panic() {
    // A fixed LCG: every class with random (often invalid) fields and shapes must give a layout
    // whose outputs are the shape, or an error, never a panic.
    let x = std::cell::Cell::new(0x2026_1127u64);
    let next = |n: u64| {
        x.set(
            x.get()
                .wrapping_mul(6364136223846793005)
                .wrapping_add(1442695040888963407),
        );
        (x.get() >> 33) % n
    };
    let classes = [
        "BlockedLayout",
        "SliceLayout",
        "DotOperandLayout",
        "NVMMADistributedLayout",
        "NVMMASharedLayout",
        "SwizzledSharedLayout",
        "SharedLinearLayout",
    ];
    for _ in 0..3000 {
        let rank = 1 + next(3) as usize;
        let v = |max: u64| -> String {
            format!(
                "[{}]",
                (0..rank)
                    .map(|_| (1u64 << next(max)).to_string())
                    .collect::<Vec<_>>()
                    .join(", ")
            )
        };
        let order = format!(
            "[{}]",
            (0..rank)
                .rev()
                .map(|d| d.to_string())
                .collect::<Vec<_>>()
                .join(", ")
        );
        let blocked = format!("BlockedLayout({}, {}, {}, {order})", v(4), v(6), v(3));
        let mma = format!(
            "NVMMADistributedLayout([{}, 0], {}, [16, {}, 16])",
            2 + next(2),
            v(3),
            8 << next(6)
        );
        let text = match classes[next(classes.len() as u64) as usize] {
            "BlockedLayout" => blocked,
            "SliceLayout" => format!("SliceLayout({}, {blocked})", next(4)),
            "DotOperandLayout" => format!("DotOperandLayout({}, {mma}, {})", next(3), 1 << next(5)),
            "NVMMADistributedLayout" => mma,
            "NVMMASharedLayout" => format!(
                "NVMMASharedLayout({}, {}, {rank}, {})",
                [0, 32, 64, 128, 7][next(5) as usize],
                8 << next(4),
                next(2) == 1
            ),
            "SwizzledSharedLayout" => format!(
                "SwizzledSharedLayout({}, {}, {}, {order})",
                1 << next(4),
                1 << next(4),
                next(9)
            ),
            _ => format!(
                "SharedLinearLayout([{}])",
                (0..next(6)).map(|_| v(5)).collect::<Vec<_>>().join(", ")
            ),
        };
        let shape: Vec<u64> = (0..rank + (next(5) == 0) as usize)
            .map(|_| 1 << next(9))
            .collect();
        let Ok(g) = Gluon::parse(&text) else { continue };
        if let Ok(l) = g.to_linear(&shape) {
            let sizes: Vec<u64> = l.out_dims().iter().map(|d| 1u64 << d.bits).collect();
            assert_eq!(sizes, shape, "{text}");
            if g.is_shared() {
                let _ = to_gluon(&l);
            }
        }
    }
    for text in [
        "BlockedLayout(",
        "[[[[[[[[[[[[[[[[[[[[1]]]]]]]]]]]]]]]]]]]",
        "BlockedLayout([99999999999999999999], [1], [1], [0])",
        "SliceLayout(0, SliceLayout(0, SliceLayout(0, BlockedLayout([1], [32], [1], [0]))))",
    ] {
        if let Ok(g) = Gluon::parse(text) {
            let _ = g.to_linear(&[4]);
        }
    }
}

#[test]
fn json_and_direction() {
    use tessera::algebra::gluon::{linear_from_text, smem_direction};
    let g = Gluon::parse("NVMMASharedLayout(128, 16)").unwrap();
    let l = g.to_linear(&[64, 64]).unwrap();
    assert_eq!(linear_from_text(&l.to_json()), Ok(l.clone()));
    assert_eq!(linear_from_text(&l.to_string()), Ok(l.clone()));
    assert!(linear_from_text("{\"in_dims\": 3}").is_ok_and(|x| x.in_dims().is_empty()));
    assert!(linear_from_text("{\"in_dims\": [{\"name\": 1}]}").is_err());
    let (inv, flipped) = smem_direction(&l).unwrap();
    assert!(flipped);
    // coordinates -> offset -> coordinates is the identity.
    for x in 0..4096u64 {
        assert_eq!(l.apply_flat(inv.apply_flat(x)), x);
    }
    let (same, flipped) = smem_direction(&inv).unwrap();
    assert!(!flipped);
    assert_eq!(same, inv);
    // fp4_padded is not injective: the right inverse picks the real (unpadded) offsets.
    let fp4 = Gluon::parse("NVMMASharedLayout(128, 8, 2, False, True)")
        .unwrap()
        .to_linear(&[64, 128])
        .unwrap();
    let (inv, _) = smem_direction(&fp4).unwrap();
    for x in 0..(64 * 128u64) {
        let off = inv.apply_flat(x);
        assert_eq!(off >> 3 & 1, 0, "offset {off} is a padded slot");
        assert_eq!(fp4.apply_flat(off), x);
    }
}
