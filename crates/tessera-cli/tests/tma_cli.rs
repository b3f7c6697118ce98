//! `tessera tma`: flags, JSON files, `--json`, exit codes, the driver-verdict comparison.

use std::path::{Path, PathBuf};

mod common;

fn root() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("../..")
}

fn tma(args: &[&str]) -> (i32, String, String) {
    common::sub("tma", args)
}

fn ex(name: &str) -> String {
    common::example("tma", name)
}

fn json(args: &[&str]) -> (i32, serde_json::Value) {
    common::sub_json("tma", args)
}

#[test]
fn valid_descriptor_from_flags() {
    let (code, out, _) = tma(&[
        "--dtype",
        "f16",
        "--shape",
        "1024,4096",
        "--strides",
        "4096,1",
        "--box",
        "64,64",
        "--swizzle",
        "128B",
    ]);
    assert_eq!(code, 0);
    assert!(out.contains("valid: cuTensorMapEncodeTiled("));
    assert!(out.contains("globalDim      = {4096, 1024}"));
    assert!(out.contains("globalStrides  = {8192}"));
    assert!(out.contains("boxDim         = {64, 64}"));
    assert!(out.contains("CU_TENSOR_MAP_SWIZZLE_128B"));
    assert!(out.contains("exact: the boxes tile the tensor with no hole"));
}

#[test]
fn invalid_with_checked_suggestion() {
    let (code, out, _) = tma(&["--file", &ex("swizzle_too_wide.json")]);
    assert_eq!(code, 1);
    assert!(out.contains("error[tma_swizzle_span]"));
    assert!(out.contains("suggestion (checked, valid): boxDim[0] = 64"));
    assert!(out.contains("invalid: the driver refuses this descriptor"));
}

#[test]
fn json_output() {
    let (code, v) = json(&["--file", &ex("cutlass_f16_a_tile.json")]);
    assert_eq!(code, 0);
    assert_eq!(v["valid"], true);
    let d = &v["descriptor"];
    assert_eq!(d["tensorDataType"], "CU_TENSOR_MAP_DATA_TYPE_FLOAT16");
    assert_eq!(d["globalDim"], serde_json::json!([4096, 4096]));
    assert_eq!(d["globalStrides"], serde_json::json!([8192]));
    assert_eq!(d["boxDim"], serde_json::json!([64, 128]));
    assert_eq!(d["elementStrides"], serde_json::json!([1, 1]));
    assert_eq!(d["interleave"], "CU_TENSOR_MAP_INTERLEAVE_NONE");
    assert_eq!(d["l2Promotion"], "CU_TENSOR_MAP_L2_PROMOTION_NONE");
    assert_eq!(d["oobFill"], "CU_TENSOR_MAP_FLOAT_OOB_FILL_NONE");
    assert_eq!(v["tiling"]["exact"], true);
}

#[test]
fn fttc_report() {
    let (code, out, _) = tma(&["--file", &ex("fttc_example12.json")]);
    // The driver accepts it (inner box 16 bytes, row stride 16 bytes): the FTTC is about holes.
    assert_eq!(code, 0, "{out}");
    assert!(out.contains("striding split 4 by 3: 4 holes"));
    assert!(out.contains("box 0 offset 4 -> coordinate 4 (data)"));
    assert!(out.contains("box 1 offset 4 -> coordinate 8 (zero)"));
    assert!(out.contains("FTTC: e=3 < B=4 < S=8"));
    let (_, v) = json(&["--file", &ex("fttc_example12.json")]);
    let d = &v["tiling"]["dims"][1];
    assert_eq!(d["fttc"], true);
    assert_eq!(d["data_filled"], 2);
    assert_eq!(d["zero_filled"], 2);
    assert_eq!(v["tiling"]["strong_correctness"], false);
}

#[test]
fn flags_override_file_and_layout_input() {
    let (code, v) = json(&["--file", &ex("swizzle_too_wide.json"), "--swizzle", "none"]);
    assert_eq!(code, 0);
    assert_eq!(v["descriptor"]["swizzle"], "CU_TENSOR_MAP_SWIZZLE_NONE");
    let (code, v) = json(&[
        "--dtype",
        "bf16",
        "--layout",
        "(128,64):(1,128)",
        "--box",
        "64,32",
    ]);
    assert_eq!(code, 0);
    assert_eq!(v["descriptor"]["globalDim"], serde_json::json!([128, 64]));
    assert_eq!(v["descriptor"]["boxDim"], serde_json::json!([64, 32]));
}

#[test]
fn address_and_warnings() {
    let (code, v) = json(&[
        "--dtype",
        "f32",
        "--shape",
        "1024",
        "--box",
        "256",
        "--address",
        "0x1008",
    ]);
    assert_eq!(code, 1);
    assert_eq!(v["findings"][0]["code"], "tma_global_address_alignment");
    assert_eq!(
        v["findings"][0]["source"],
        "CUDA Driver API, cuTensorMapEncodeTiled"
    );
    let (code, v) = json(&[
        "--dtype",
        "f16",
        "--shape",
        "64,64",
        "--box",
        "8,32",
        "--swizzle",
        "128B",
    ]);
    assert_eq!(code, 0);
    assert_eq!(v["findings"][0]["severity"], "warning");
    assert_eq!(v["findings"][0]["code"], "tma_nvfuser_swizzle_exact");
}

#[test]
fn usage_errors() {
    let (code, _, err) = tma(&["--dtype", "f17", "--shape", "8", "--box", "8"]);
    assert_eq!(code, 2);
    assert!(err.contains("error[bad_argument]"));
    let (code, _, err) = tma(&["--dtype", "f16", "--shape", "8,-1", "--box", "8"]);
    assert_eq!(code, 2);
    assert!(err.contains("--shape"));
    let (code, _, _) = tma(&["--dtype", "f16", "--shape", "8"]);
    assert_eq!(code, 2);
    let (code, _, _) = tma(&["--file", "/nonexistent.json"]);
    assert_eq!(code, 2);
    // Absurd values never panic.
    let (code, _, _) = tma(&[
        "--dtype",
        "u8",
        "--shape",
        "18446744073709551615,18446744073709551615",
        "--strides",
        "18446744073709551615,1",
        "--box",
        "0,1000000",
        "--element-strides",
        "0,99",
    ]);
    assert_eq!(code, 1);
}

/// The recorded driver verdicts (first 2,000 cases of seed 1) all agree.
#[test]
fn driver_cases_sample_agree() {
    let p = root().join("tools/tma_driver_check/sample_cases.txt");
    let (code, out, err) = tma(&["--driver-cases", &p.to_string_lossy()]);
    assert_eq!(code, 0, "{out}{err}");
    assert!(out.contains("| 2000 | 2000 |"), "{out}");
}

#[test]
fn svg_picture_of_the_boxes() {
    let out = std::env::temp_dir().join(format!("tessera-tma-{}.svg", std::process::id()));
    let path = out.to_str().unwrap();
    let (code, _, _) = tma(&[
        "--dtype", "f32", "--shape", "6,12", "--box", "4,4", "--svg", path,
    ]);
    assert_eq!(code, 0);
    let svg = std::fs::read_to_string(&out).unwrap();
    let _ = std::fs::remove_file(&out);
    assert!(svg.starts_with("<svg"));
    assert!(
        svg.contains("Tensor 6x12 tiled by 4x4 TMA boxes"),
        "{}",
        &svg[..300.min(svg.len())]
    );
    // A rank-3 request has no picture: a typed error, not a panic.
    let (code, _, err) = tma(&[
        "--dtype", "f32", "--shape", "2,6,12", "--box", "1,4,4", "--svg", path,
    ]);
    assert_eq!(code, 1, "{err}");
    assert!(err.contains("error[svg]"), "{err}");
}

/// A swizzled box whose rows are narrower than the swizzle span occupies rows × span bytes (TMA
/// pads the rows; measured on an H200, `tools/tma_swizzle_hw/`): the report says both counts, the
/// JSON has `smemBytes`, and `--smem` accepts the padded consumer layout and refuses the dense one.
#[test]
fn narrow_swizzled_rows_are_padded_to_the_span() {
    let base = [
        "--dtype",
        "f16",
        "--shape",
        "8,8",
        "--box",
        "8,8",
        "--swizzle",
        "32B",
    ];
    let (code, out, _) = tma(&base);
    assert_eq!(code, 0, "{out}");
    assert!(
        out.contains("one copy: moves 128 bytes but occupies 256 bytes of shared memory"),
        "{out}"
    );
    let (_, j) = json(&base);
    assert_eq!(j["descriptor"]["copyBytes"], 128, "{j}");
    assert_eq!(j["descriptor"]["smemBytes"], 256, "{j}");
    let mut padded = base.to_vec();
    padded.extend(["--smem", "Sw<1,3,3> o 0 o (8,8):(16,1)"]);
    let (code, out, _) = tma(&padded);
    assert_eq!(code, 0, "{out}");
    let mut dense = base.to_vec();
    dense.extend(["--smem", "Sw<1,3,3> o 0 o (8,8):(8,1)"]);
    let (code, out, err) = tma(&dense);
    assert_eq!(code, 1, "{out}{err}");
}

/// `--sm` (and the file's `sm`) read every spelling `target::Arch::parse` reads; a malformed one is
/// refused with its column, an unknown or TMA-less one by name.
#[test]
fn sm_accepts_every_arch_spelling() {
    let base = ["--dtype", "f16", "--shape", "64,64", "--box", "64,64"];
    for (text, cc) in [
        ("sm90", 90),
        ("sm_90a", 90),
        ("90", 90),
        ("9.0", 90),
        ("sm_100f", 100),
        ("10.3", 103),
        ("compute_120", 120),
    ] {
        let mut args = base.to_vec();
        args.extend(["--sm", text]);
        let (code, v) = json(&args);
        assert_eq!(code, 0, "{text}: {v}");
        assert_eq!(v["request"]["sm"], cc, "{text}");
    }
    for (text, code, needle) in [
        ("sm_9x", "arch_syntax", "column 5"),
        ("  sm9.0", "arch_syntax", "column 6"),
        ("sm_75", "unknown_arch", "compute capability 75"),
        ("sm_86a", "arch_suffix", "`a` from sm_90"),
    ] {
        let (status, _, err) = tma(&[
            "--dtype", "f16", "--shape", "64,64", "--box", "64,64", "--sm", text,
        ]);
        assert_eq!(status, 2, "{text}: {err}");
        assert!(
            err.starts_with(&format!("error[{code}]: --sm: ")),
            "{text}: {err}"
        );
        assert!(err.contains(needle), "{text}: {err}");
    }
    // A known architecture without TMA.
    let (status, _, err) = tma(&[
        "--dtype", "f16", "--shape", "64,64", "--box", "64,64", "--sm", "sm_80",
    ]);
    assert_eq!(status, 2, "{err}");
    assert!(err.contains("not a compute capability with TMA"), "{err}");
    // The request file takes the same spellings (a string or a number).
    for sm in ["\"sm_100a\"", "\"10.0\"", "100"] {
        let dir = std::env::temp_dir().join(format!("tessera-sm-{}", std::process::id()));
        std::fs::create_dir_all(&dir).unwrap();
        let f = dir.join("r.json");
        std::fs::write(
            &f,
            format!("{{\"dtype\":\"f16\",\"shape\":[64,64],\"box\":[64,64],\"sm\":{sm}}}"),
        )
        .unwrap();
        let (code, v) = json(&["--file", f.to_str().unwrap()]);
        assert_eq!(code, 0, "{sm}: {v}");
        assert_eq!(v["request"]["sm"], 100, "{sm}");
    }
}
