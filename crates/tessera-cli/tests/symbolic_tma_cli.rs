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
