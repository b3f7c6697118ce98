//! `tessera eval --ragged`, the `"ragged": true` batch field and the ragged suggestion of a plain
//! divide's error.

mod common;

use common::tessera_stdin as tessera;

#[test]
fn eval_ragged_gemm_m1000() {
    let (code, out, err) = tessera(
        &[
            "eval",
            "--ragged",
            "--names",
            "m,k",
            "zipped_divide((1000,4096):(4096,1),(128,64))",
        ],
        None,
    );
    assert_eq!(code, 0, "{err}");
    for want in [
        "layout     ((128,64),(8,64)):((4096,1),(524288,64))",
        "4194304 padded points, 4096000 valid, 98304 holes",
        "predicate  m < 1000   (minimal, checked by enumeration)",
        "allocated padded: 4194304 slots, 98304 over-allocated",
        "98304 holes: 98304 zero-filled by the hardware",
        "sum over the tile with no predicate: strongly correct",
        "max over the tile with no predicate: not strongly correct",
    ] {
        assert!(out.contains(want), "missing `{want}` in\n{out}");
    }
}

#[test]
fn eval_ragged_local_tile_and_code() {
    let (code, out, err) = tessera(
        &[
            "eval",
            "--ragged",
            "--code",
            "local_tile((1000,4096):(4096,1),(128,64),(7,0))",
        ],
        None,
    );
    assert_eq!(code, 0, "{err}");
    assert!(
        out.contains("layout  (128,64):(4096,1) + offset 3670016"),
        "{out}"
    );
    assert!(
        out.contains("8192 points, 6656 valid, 1536 holes; valid per mode: 104 of 128, 64 of 64"),
        "{out}"
    );
    assert!(out.contains("if i_m < 1000:"), "{out}");
}

#[test]
fn eval_ragged_svg() {
    let dir = std::env::temp_dir().join(format!("tessera_ragged_{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    let path = dir.join("grid.svg");
    let (code, _, err) = tessera(
        &[
            "eval",
            "--ragged",
            "zipped_divide((10,12):(12,1),(4,8))",
            "--svg",
            path.to_str().unwrap(),
        ],
        None,
    );
    assert_eq!(code, 0, "{err}");
    let svg = std::fs::read_to_string(&path).unwrap();
    assert!(svg.starts_with("<svg"), "{}", &svg[..40.min(svg.len())]);
    assert!(
        svg.contains("192 points, 120 valid, 72 holes"),
        "picture title"
    );
    let _ = std::fs::remove_dir_all(&dir);
}

#[test]
fn batch_ragged_fields() {
    let input = concat!(
        r#"{"id":1,"expr":"zipped_divide((1000,4096):(4096,1),(128,64))","ragged":true,"names":["m","k"]}"#,
        "\n",
        r#"{"id":2,"expr":"logical_divide((3,5):(5,1),2:1)","ragged":true}"#,
        "\n",
        r#"{"id":3,"expr":"logical_divide((3,5):(5,1),2:0)","ragged":true}"#,
        "\n"
    );
    let (code, out, _) = tessera(&["batch"], Some(input));
    assert_eq!(code, 0);
    let lines: Vec<serde_json::Value> = out
        .lines()
        .map(|l| serde_json::from_str(l).unwrap())
        .collect();
    assert_eq!(lines[0]["holes"], 98304);
    assert_eq!(lines[0]["valid"], 4096000);
    assert_eq!(lines[0]["predicate"], serde_json::json!(["m < 1000"]));
    assert_eq!(lines[0]["tma"]["zero_filled"], 98304);
    assert_eq!(lines[0]["tma"]["strong_sum"], true);
    assert_eq!(lines[0]["tma"]["strong_max"], false);
    assert_eq!(lines[1]["ok"], serde_json::Value::Null);
    assert_eq!(lines[1]["index"], "(2,8):(1,2)");
    assert_eq!(lines[1]["predicate"], serde_json::json!(["n < 5"]));
    assert_eq!(lines[2]["error"]["code"], "non_injective");
}

#[test]
fn plain_divide_error_points_to_the_ragged_form() {
    let (code, _, err) = tessera(&["eval", "logical_divide((3,5):(5,1),2:1)"], None);
    assert_eq!(code, 1);
    assert!(
        err.contains("help: ragged form, 1 hole in 16 padded points")
            && err.contains("ragged_logical_divide((3,5):(5,1),2:1) = index (2,8):(1,2) [16 points, 15 valid, 1 hole]"),
        "{err}"
    );
}

#[test]
fn tour_shows_the_m1000_residue_end_to_end() {
    let (code, out, _) = tessera(&["tour"], None);
    assert_eq!(code, 0);
    for want in [
        "== 8. Ragged tiles: a GEMM with M = 1000 and 128x64 CTA tiles ==",
        "predicate  m < 1000   (minimal, checked by enumeration)",
        "checked now over all 4194304 padded coordinates: 98304 holes; `m < 1000` holds exactly at the valid ones: true; each of the 4096000 elements reached once: true",
        "98304 holes: 98304 zero-filled by the hardware",
        "= ((128,64):(4096,1),3670016) [8192 points, 6656 valid, 1536 holes]",
        "= index (2,8):(1,2) [16 points, 15 valid, 1 hole]",
    ] {
        assert!(out.contains(want), "missing `{want}`");
    }
}
