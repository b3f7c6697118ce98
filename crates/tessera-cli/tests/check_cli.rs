//! `tessera check`: the public failure reports of `examples/check/` (each refuted with the right
//! code and a witness, or `valid_if` with the missing guard), the three inputs (TOML, CUTLASS
//! name, batch) giving the same answer, checked suggestions, guards, search spaces, and every
//! obligation code explained and documented.

use std::path::{Path, PathBuf};

mod common;

fn root() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("../..")
}

fn check_json(args: &[&str]) -> (i32, serde_json::Value) {
    let mut a = args.to_vec();
    a.push("--json");
    let (code, out, err) = common::sub("check", &a);
    let v = serde_json::from_str(&out).unwrap_or_else(|e| panic!("{args:?}: {e}\n{out}\n{err}"));
    (code, v)
}

const NAME: &str = "cutlass3x_sm90_tensorop_gemm_f16_f16_f32_f16_f16_128x128x64_1x2x1_0_tnn_align8_warpspecialized_cooperative_epi_tma";

#[test]
fn every_failure_report_is_refuted_with_its_code_and_a_witness() {
    let dir = root().join("examples/check");
    let mut n = 0;
    for e in std::fs::read_dir(&dir).expect("examples/check") {
        let p = e.expect("entry").path();
        if p.extension().is_none_or(|x| x != "toml") {
            continue;
        }
        let text = std::fs::read_to_string(&p).expect("reads");
        let expect = text
            .split("expect: ")
            .nth(1)
            .and_then(|r| r.lines().next())
            .unwrap_or_else(|| panic!("{}: no `expect:`", p.display()))
            .trim()
            .to_string();
        let mut words = expect.split_whitespace();
        let verdict = words.next().expect("verdict");
        let code = words.next();
        let (status, v) = check_json(&[p.to_str().expect("utf8")]);
        let obs = v["obligations"].as_array().expect("obligations");
        match verdict {
            "refuted" => {
                assert_eq!(status, 1, "{}", p.display());
                assert_eq!(v["verdict"], "invalid", "{}", p.display());
                let code = code.expect("a code");
                let o = obs
                    .iter()
                    .find(|o| o["code"] == code)
                    .unwrap_or_else(|| panic!("{}: no {code}", p.display()));
                assert_eq!(o["verdict"], "refuted", "{}: {o}", p.display());
                assert!(
                    o["witness"].as_str().is_some_and(|w| !w.is_empty()),
                    "{}: no witness",
                    p.display()
                );
                // Every suggestion shown is marked checked.
                for s in o["suggestions"].as_array().expect("list") {
                    assert_eq!(s["checked"], true);
                }
            }
            "valid_if" => {
                assert_eq!(status, 0, "{}", p.display());
                assert_eq!(v["verdict"], "valid_if", "{}: {v}", p.display());
                if let Some(code) = code {
                    let o = obs.iter().find(|o| o["code"] == code).expect("code");
                    assert_eq!(o["verdict"], "runtime");
                    assert!(o["guard"].as_str().is_some());
                }
            }
            other => panic!("{}: unknown expectation {other}", p.display()),
        }
        n += 1;
    }
    assert!(n >= 15, "{n} examples");
}

#[test]
fn the_missing_guard_of_cutlass_pr_2283_is_n_mod_8() {
    let (_, v) = check_json(&[root()
        .join("examples/check/tma_epilogue_align2.toml")
        .to_str()
        .expect("utf8")]);
    assert_eq!(v["guards"], serde_json::json!(["N % 8 == 0"]));
    // With N known and wrong, it is refuted with the byte witness.
    let (code, v) = check_json(&[
        root()
            .join("examples/check/tma_epilogue_align2.toml")
            .to_str()
            .expect("utf8"),
        "--assume",
        "N == 1001",
    ]);
    assert_eq!(code, 1);
    let o = v["obligations"]
        .as_array()
        .expect("list")
        .iter()
        .find(|o| o["code"] == "gmem_alignment")
        .cloned()
        .expect("found");
    assert_eq!(o["verdict"], "refuted");
    assert!(
        o["witness"]
            .as_str()
            .expect("witness")
            .contains("2002 bytes"),
        "{o}"
    );
}

#[test]
fn suggestions_are_checked_and_fix_the_obligation() {
    let p = root().join("examples/check/swizzle_none_vs_gmma_128b.toml");
    let (_, v) = check_json(&[p.to_str().expect("utf8")]);
    let o = v["obligations"]
        .as_array()
        .expect("list")
        .iter()
        .find(|o| o["code"] == "swizzle_match")
        .cloned()
        .expect("found");
    let s = &o["suggestions"][0];
    assert_eq!(s["text"], "tma_swizzle_a = \"128B\"");
    assert!(
        o["message"]
            .as_str()
            .expect("msg")
            .contains("56/64 (87.5%)"),
        "{o}"
    );
    // Applying it proves everything.
    let text = std::fs::read_to_string(&p)
        .expect("reads")
        .replace("tma_swizzle_a = \"none\"", "tma_swizzle_a = \"128B\"");
    let fixed =
        std::env::temp_dir().join(format!("tessera_check_fixed_{}.toml", std::process::id()));
    std::fs::write(&fixed, text).expect("writes");
    let (code, v) = check_json(&[fixed.to_str().expect("utf8")]);
    let _ = std::fs::remove_file(&fixed);
    assert_eq!(code, 0);
    assert_eq!(v["verdict"], "valid");
}

#[test]
fn the_three_inputs_agree() {
    let toml = root().join("examples/check/cutlass_name_equivalent.toml");
    let (_, a) = check_json(&[toml.to_str().expect("utf8")]);
    let (_, b) = check_json(&["--cutlass", NAME, "--problem", "M,N,K"]);
    assert_eq!(a, b, "TOML and --cutlass differ");
    // batch: the TOML as JSON, and the name.
    let cfg = serde_json::json!({
        "arch": "sm90", "kernel": "tma_warpspecialized_cooperative",
        "problem": {"m": "M", "n": "N", "k": "K", "l": 1},
        "a": {"element": "f16", "layout": "row", "alignment": 8},
        "b": {"element": "f16", "layout": "col", "alignment": 8},
        "c": {"element": "f16", "layout": "col", "alignment": 8},
        "d": {"element": "f16", "layout": "col", "alignment": 8},
        "accumulator": "f32", "tile": [128, 128, 64], "cluster": [1, 2, 1], "stages": "auto",
        "epilogue": {"schedule": "tma_warpspecialized_cooperative", "tile": "auto"}
    });
    let input = format!(
        "{}\n{}\n",
        serde_json::json!({"id": 1, "check": cfg}),
        serde_json::json!({"id": 2, "check_cutlass": NAME, "problem": ["M", "N", "K"]})
    );
    let (code, out, err) = common::tessera_stdin(&["batch"], Some(&input));
    assert_eq!(code, 0, "{err}");
    let lines: Vec<serde_json::Value> = out
        .lines()
        .map(|l| serde_json::from_str(l).expect("json"))
        .collect();
    assert_eq!(lines.len(), 2);
    assert_eq!(lines[0]["ok"], a, "batch check differs");
    assert_eq!(lines[1]["ok"], a, "batch check_cutlass differs");
}

#[test]
fn text_report_and_guards() {
    let (code, out, _) = common::sub(
        "check",
        &[
            "--cutlass",
            NAME,
            "--problem",
            "M,4096,K",
            "--assume",
            "K % 64 == 0",
        ],
    );
    assert_eq!(code, 0);
    assert!(out.contains("proved   tile_mma"), "{out}");
    assert!(out.contains("SM90_64x128x16_F32F16F16_SS"), "{out}");
    assert!(out.trim_end().ends_with("valid if M % 8 == 0"), "{out}");
    let (_, cpp, _) = common::sub(
        "check",
        &[
            "--cutlass",
            NAME,
            "--problem",
            "M,4096,K",
            "--emit-guard",
            "cpp",
        ],
    );
    assert!(
        cpp.contains(
            "inline bool can_implement(long long M, long long N, long long K, long long L)"
        ),
        "{cpp}"
    );
    assert!(
        cpp.contains("return (K % 8 == 0) && (M % 8 == 0);"),
        "{cpp}"
    );
    let (_, py, _) = common::sub(
        "check",
        &[
            "--cutlass",
            NAME,
            "--problem",
            "M,4096,K",
            "--emit-guard",
            "python",
        ],
    );
    assert!(py.contains("def can_implement(M, N, K, L=1):"), "{py}");
}

#[test]
fn a_search_space_is_summarized_by_first_refuted_obligation() {
    let space =
        std::env::temp_dir().join(format!("tessera_check_space_{}.toml", std::process::id()));
    std::fs::write(
        &space,
        "arch = \"sm90\"\nkernel = [\"tma_warpspecialized_cooperative\", \"tma_warpspecialized_pingpong\"]\n\
         tile = [[128, 128, 64], [128, 256, 64], [64, 128, 64], [256, 256, 128], [128, 120, 24]]\n\
         cluster = [[1, 1, 1], [2, 1, 1], [4, 4, 1]]\nstages = [\"auto\", 6]\n",
    )
    .expect("writes");
    let (code, out, err) = common::sub(
        "check",
        &["--space", space.to_str().expect("utf8"), "--json"],
    );
    let _ = std::fs::remove_file(&space);
    assert_eq!(code, 0, "{err}");
    let v: serde_json::Value = serde_json::from_str(&out).expect("json");
    assert_eq!(v["configs"], 60);
    let total = v["valid"].as_u64().expect("n")
        + v["valid_if"].as_u64().expect("n")
        + v["invalid"].as_u64().expect("n");
    assert_eq!(total, 60);
    let by = v["by_first_refuted"].as_array().expect("list");
    assert!(by.iter().any(|e| e[0] == "cluster"), "{v}");
    assert!(by.iter().any(|e| e[0] == "smem_capacity"), "{v}");
}

#[test]
fn every_obligation_code_is_explained_and_documented() {
    let docs = std::fs::read_to_string(root().join("docs/errors.md")).expect("docs");
    let check_md = std::fs::read_to_string(root().join("docs/check.md")).expect("docs/check.md");
    for code in tessera::check::rules::CODES {
        assert!(
            docs.contains(&format!("## `{code}`")),
            "{code} not in docs/errors.md"
        );
        assert!(
            check_md.contains(&format!("`{code}`")),
            "{code} not in docs/check.md"
        );
        let (status, out, _) = common::tessera(&["explain", code]);
        assert_eq!(status, 0, "explain {code}");
        assert!(out.starts_with(&format!("{code}: ")), "{out}");
    }
}

#[test]
fn bad_inputs_are_usage_errors() {
    let (code, _, err) = common::sub("check", &["--cutlass", "cutlass_nonsense"]);
    assert_eq!(code, 2, "{err}");
    assert!(err.contains("error[bad_config]"), "{err}");
    let (code, _, err) = common::sub("check", &[]);
    assert_eq!(code, 2, "{err}");
}

/// The configuration's `arch` reads every spelling `target::Arch::parse` reads; a malformed one is
/// refused with its column, an architecture the checker does not model by name.
#[test]
fn arch_accepts_every_spelling() {
    let toml = std::fs::read_to_string(root().join("examples/check/cutlass_name_equivalent.toml"))
        .expect("example");
    let dir = std::env::temp_dir().join(format!("tessera-arch-{}", std::process::id()));
    std::fs::create_dir_all(&dir).expect("temp dir");
    let with = |arch: &str| {
        let f = dir.join(format!("{}.toml", arch.replace(['.', ' '], "_")));
        let text = toml.replace("arch = \"sm90\"", &format!("arch = \"{arch}\""));
        assert!(text.contains(&format!("\narch = \"{arch}\"\n")));
        std::fs::write(&f, text).expect("write");
        f
    };
    let (_, reference) = check_json(&[with("sm90").to_str().expect("utf8")]);
    for arch in ["sm_90a", "90", "9.0", "compute_90", "SM90"] {
        let (_, v) = check_json(&[with(arch).to_str().expect("utf8")]);
        assert_eq!(v, reference, "{arch}");
    }
    for (arch, needle) in [
        ("sm_9x", "column 5"),
        ("sm_75", "compute capability 75"),
        ("sm_86a", "`a` from sm_90"),
        ("sm_100", "the checker models sm80, sm86, sm89 and sm90"),
    ] {
        let (code, _, err) = common::sub("check", &[with(arch).to_str().expect("utf8")]);
        assert_eq!(code, 2, "{arch}: {err}");
        assert!(
            err.contains("arch") && err.contains(needle),
            "{arch}: {err}"
        );
    }
}
