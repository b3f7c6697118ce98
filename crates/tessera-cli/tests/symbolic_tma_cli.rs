//! `tessera tma` with runtime dimensions and strides (`--shape M,K`, `--assume`): each rule that
//! reads them proved, refuted with a witness, or a runtime guard.

mod common;

fn tma(args: &[&str]) -> (i32, String, String) {
    common::sub("tma", args)
}

#[test]
fn a_row_stride_is_a_guard_then_proved_by_a_fact() {
    let (code, out, _) = tma(&["--dtype", "f16", "--shape", "M,K", "--box", "128,64"]);
    assert_eq!(code, 0, "{out}");
    assert!(
        out.contains(
            "guard    tma_global_stride_multiple  globalStrides[0] % 16 == 0 (bytes): K % 8 == 0"
        ),
        "{out}"
    );
    assert!(
        out.contains("can_implement: ") && out.contains("K % 8 == 0"),
        "{out}"
    );
    let (code, out, _) = tma(&[
        "--dtype",
        "f16",
        "--shape",
        "M,K",
        "--box",
        "128,64",
        "--assume",
        "K % 8 == 0",
    ]);
    assert_eq!(code, 0, "{out}");
    assert!(out.contains("proved   tma_global_stride_multiple"), "{out}");
}

#[test]
fn an_odd_padded_stride_is_refuted_with_a_witness() {
    let (code, out, _) = tma(&[
        "--dtype",
        "f16",
        "--shape",
        "M,K",
        "--strides",
        "2*K+1,1",
        "--box",
        "128,64",
        "--assume",
        "K % 8 == 0",
    ]);
    assert_eq!(code, 1, "{out}");
    assert!(
        out.contains(
            "refuted  tma_global_stride_multiple  globalStrides[0] % 16 == 0 (bytes), e.g. K = 8"
        ),
        "{out}"
    );
    assert!(out.contains("invalid"), "{out}");
    // A fact naming an unknown name is a typed error.
    let (code, _, err) = tma(&[
        "--dtype",
        "f16",
        "--shape",
        "M,K",
        "--box",
        "128,64",
        "--assume",
        "Q % 2 == 0",
    ]);
    assert_ne!(code, 0);
    assert!(err.contains("unknown_name"), "{err}");
}

#[test]
fn json_gives_each_rule_its_verdict_and_the_runtime_guards() {
    let (code, out, err) = tma(&[
        "--dtype", "f16", "--shape", "M,K", "--box", "128,64", "--json",
    ]);
    assert_eq!(code, 0, "{out}{err}");
    let v: serde_json::Value = serde_json::from_str(&out).expect("JSON");
    assert_eq!(v["request"]["shape"], serde_json::json!(["M", "K"]));
    assert_eq!(v["valid"], "guarded");
    let rule = v["rules"]
        .as_array()
        .unwrap()
        .iter()
        .find(|r| r["code"] == "tma_global_stride_multiple")
        .expect("the stride rule");
    assert_eq!(rule["verdict"], "guard");
    assert_eq!(rule["guards"][0]["guard"], "K % 8 == 0");
    assert!(v["can_implement"].as_str().unwrap().contains("K % 8 == 0"));
    // A stride refuted for every size: the witness, and the request is never valid.
    let (code, out, _) = tma(&[
        "--dtype",
        "f16",
        "--shape",
        "M,K",
        "--strides",
        "2*K+1,1",
        "--box",
        "128,64",
        "--assume",
        "K % 8 == 0",
        "--json",
    ]);
    assert_eq!(code, 1, "{out}");
    let v: serde_json::Value = serde_json::from_str(&out).expect("JSON");
    assert_eq!(v["valid"], "never");
    let rule = v["rules"]
        .as_array()
        .unwrap()
        .iter()
        .find(|r| r["code"] == "tma_global_stride_multiple" && r["verdict"] == "refuted")
        .expect("refuted");
    assert_eq!(rule["witness"]["K"], 8);
}

#[test]
fn smem_checks_the_box_against_the_consumer_as_for_integers() {
    let base = [
        "--dtype",
        "f16",
        "--shape",
        "M,K",
        "--box",
        "64,64",
        "--swizzle",
        "128B",
        "--smem",
    ];
    let mut good = base.to_vec();
    good.push("tile_to_shape(GMMA::Layout_K_SW128_Atom<half_t>,(64,64))");
    let (code, out, err) = tma(&good);
    assert_eq!(code, 0, "{out}{err}");
    assert!(out.contains("the swizzle 128B matches"), "{out}");
    let mut bad = base.to_vec();
    bad.push("tile_to_shape(GMMA::Layout_K_SW64_Atom<half_t>,(64,64))");
    let (code, out, err) = tma(&bad);
    assert_eq!(code, 1, "{out}{err}");
}
