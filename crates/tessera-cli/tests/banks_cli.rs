//! `tessera banks`: JSON fields, text, SVG, typed errors with suggestions, synthesis.

use std::process::Command;

mod common;

fn banks(args: &[&str]) -> (i32, String, String) {
    common::sub("banks", args)
}

fn json(args: &[&str]) -> (i32, serde_json::Value) {
    common::sub_json("banks", args)
}

#[test]
fn json_carries_the_required_fields() {
    let (code, j) = json(&[
        "--smem",
        "(32,32):(32,1)",
        "--tv",
        "(32,1):(1,0)",
        "--dtype",
        "f32",
        "--simulate",
    ]);
    assert_eq!(code, 0);
    assert_eq!(j["vector_bytes"], 4);
    assert_eq!(j["instructions"], 1);
    assert_eq!(j["wavefronts"], 32);
    assert_eq!(j["ideal"], 1);
    assert_eq!(j["simulator_agrees"], true);
    assert_eq!(j["worst_phase"]["hits"].as_array().unwrap().len(), 32);
    let (_, j) = json(&[
        "--smem",
        "(32,32):(33,1)",
        "--tv",
        "(32,1):(1,0)",
        "--dtype",
        "f32",
    ]);
    assert_eq!(
        (j["wavefronts"].as_u64(), j["ideal"].as_u64()),
        (Some(1), Some(1))
    );
}

#[test]
fn atoms_swizzles_and_linear_layouts() {
    let (_, j) = json(&[
        "--smem",
        "(64,64):(64,1)",
        "--atom",
        "SM75_U32x4_LDSM_N",
        "--dtype",
        "f16",
        "--simulate",
    ]);
    assert_eq!(
        (j["wavefronts"].as_u64(), j["ideal"].as_u64()),
        (Some(512), Some(64))
    );
    assert_eq!(j["worst_phase"]["wavefronts"], 8);
    assert_eq!(j["simulator_agrees"], true);
    let (_, j) = json(&[
        "--smem",
        "Sw<3,3,3> o 0 o (64,64):(64,1)",
        "--atom",
        "ldmatrix.x4",
        "--dtype",
        "f16",
    ]);
    assert_eq!(j["wavefronts"], j["ideal"]);
    // The same function as a linear layout (8 rows of 8 f16, XOR swizzled by hand).
    let (code, j) = json(&[
        "--smem",
        "offset = [[1], [2], [4], [8], [16], [32]] -> offset = 64",
        "--tv",
        "((2,2,2,2,2),2):((1,2,4,8,16),32)",
        "--dtype",
        "f32",
    ]);
    assert_eq!(code, 0, "{j}");
    assert_eq!(
        (j["vector_bytes"].as_u64(), j["wavefronts"].as_u64()),
        (Some(4), Some(2))
    );
}

#[test]
fn text_and_svg() {
    let svg = std::env::temp_dir().join(format!("tessera-banks-{}.svg", std::process::id()));
    let (code, out, err) = banks(&[
        "--smem",
        "(16,16):(16,1)",
        "--tv",
        "(32,1):(1,0)",
        "--dtype",
        "f32",
        "--svg",
        svg.to_str().unwrap(),
    ]);
    assert_eq!(code, 0, "{err}");
    assert!(
        out.contains("wavefronts: 8 (ideal 1), conflict factor 8.00"),
        "{out}"
    );
    let s = std::fs::read_to_string(&svg).unwrap();
    assert!(s.starts_with("<svg") && s.contains("T14"));
    let _ = std::fs::remove_file(svg);
}

#[test]
fn typed_errors_name_the_obligation() {
    let (code, j) = json(&[
        "--smem",
        "(32,32):(32,1)",
        "--tv",
        "(16,2):(1,16)",
        "--dtype",
        "f32",
    ]);
    assert_eq!(code, 1); // understood and refused
    assert_eq!(j["error"]["code"], "banks_thread_extent");
    assert_eq!(j["error"]["suggestions"][0], "(32,2):(1,16)");
    let (_, j) = json(&[
        "--smem",
        "(32,32):(32,1)",
        "--tv",
        "(32,64):(1,32)",
        "--dtype",
        "f32",
    ]);
    assert_eq!(j["error"]["code"], "banks_out_of_domain");
    let (_, j) = json(&[
        "--smem",
        "(32,32):(33,1)",
        "--tv",
        "(32,32):(1,32)",
        "--instr",
        "ld.shared.16",
        "--dtype",
        "f32",
    ]);
    assert_eq!(j["error"]["code"], "banks_misaligned_vector");
    assert_eq!(j["error"]["suggestions"][0], "vector width 4 bytes");
    let (_, j) = json(&[
        "--smem",
        "(64,64):(64,1)",
        "--atom",
        "ldmatrix.x4",
        "--dtype",
        "f32",
    ]);
    assert_eq!(j["error"]["code"], "banks_bad_dtype");
    let (code, _, err) = banks(&[
        "--smem",
        "(32,32):(32,1)",
        "--tv",
        "(32,1):(1,0)",
        "--dtype",
        "f33",
    ]);
    assert_eq!(code, 2);
    assert!(
        err.contains("error[banks_bad_input]") && err.contains("help: f32"),
        "{err}"
    );
    let (_, j) = json(&[
        "--smem",
        "(3,5):(1,3)",
        "--tv",
        "(32,1):(1,0)",
        "--dtype",
        "f32",
    ]);
    assert_eq!(j["error"]["code"], "banks_out_of_domain");
}

#[test]
fn synthesis_finds_sw128() {
    let (code, j) = json(&[
        "--smem",
        "(64,64):(64,1)",
        "--dtype",
        "f16",
        "--synth",
        "--writer",
        "tma",
        "--reader",
        "ldmatrix.x4",
    ]);
    assert_eq!(code, 0);
    assert_eq!(j["cute"][0]["smem"], "Sw<3,3,3> o 0 o (64,64):(64,1)");
    assert_eq!(j["cute"][0]["conflict_free"], true);
    assert_eq!(j["base"]["conflict_free"], false);
}

#[test]
fn tour_section_checks_every_claim() {
    let out = Command::new(env!("CARGO_BIN_EXE_tessera"))
        .arg("tour")
        .output()
        .expect("tessera runs");
    let text = String::from_utf8_lossy(&out.stdout);
    let section = text
        .split("== 9. Will these loads stomp on each other?")
        .nth(1)
        .expect("the section");
    assert_eq!(
        section.matches("simulator agrees: true").count(),
        4,
        "{section}"
    );
    assert!(
        !section.contains("false") && !section.contains("error["),
        "{section}"
    );
    assert!(section.contains("32 wavefronts for an ideal 1"));
    assert!(section.contains("512 wavefronts for an ideal 64 (8-way"));
    assert!(section.contains("tiled down the rows: true"));
}

/// A tile past every GPU's shared memory per block (but addressable) is answered, exit 0, with
/// the catalogued warning on stderr (text) or in `"notes"` (JSON); the figure is the target
/// table's.
#[test]
fn tiles_past_the_largest_block_warn() {
    let max = tessera::banks::largest_smem_per_block().smem_per_block;
    let args = [
        "--smem",
        "(256,256):(256,1)",
        "--tv",
        "(32,1):(1,0)",
        "--dtype",
        "f32",
    ];
    let (code, out, err) = banks(&args);
    assert_eq!(code, 0, "{err}");
    assert!(out.contains("wavefronts"), "{out}");
    assert!(err.starts_with("warning[banks_smem_capacity]: "), "{err}");
    assert!(err.contains(&format!("({max} bytes")), "{err}");
    let (code, j) = json(&args);
    assert_eq!(code, 0);
    assert_eq!(j["notes"][0]["code"], "banks_smem_capacity");
    assert_eq!(j["wavefronts"], 32);
    // A tile that fits: no warning.
    let (_, _, err) = banks(&[
        "--smem",
        "(128,128):(128,1)",
        "--tv",
        "(32,1):(1,0)",
        "--dtype",
        "f32",
    ]);
    assert!(err.is_empty(), "{err}");
    let (_, j) = json(&[
        "--smem",
        "(128,128):(128,1)",
        "--tv",
        "(32,1):(1,0)",
        "--dtype",
        "f32",
    ]);
    assert!(j.get("notes").is_none(), "{j}");
}
