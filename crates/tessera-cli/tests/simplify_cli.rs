//! End-to-end tests of `tessera simplify` (reference Examples 20 and 26).

mod common;

use common::tessera;

#[test]
fn simplify_prints_the_canonical_form_and_rules() {
    let (code, out, _) = tessera(&[
        "simplify",
        "((8*i0) + i1) % 128",
        "--assume",
        "0 <= i0 < 32",
        "--assume",
        "0 <= i1 < 8",
    ]);
    assert_eq!((code, out.as_str()), (0, "(i0 % 16) * 8 + i1\n"));
    let (code, out, _) = tessera(&["simplify", "i0 / 2 / 3", "--rules"]);
    assert_eq!((code, out.as_str()), (0, "i0 / 6\n  by DoubleDiv\n"));
    let (code, out, _) = tessera(&["simplify", "i >= 0 && i < 6 && i % 6 < 3"]);
    assert_eq!((code, out.as_str()), (0, "i >= 0 && i < 3\n"));
}

#[test]
fn simplify_errors_exit_2_for_parse_errors_and_1_for_refusals() {
    let (code, _, err) = tessera(&["simplify", "(x"]);
    assert_eq!(code, 2);
    assert!(err.starts_with("error[parse]: "), "{err}");
    let (code, _, err) = tessera(&["simplify", "x", "--assume", "x < 0 && x > 0"]);
    assert_eq!(code, 1);
    assert!(err.starts_with("error[contradiction]: "), "{err}");
}

/// `division_by_zero` names the column of the offending operator, as parse errors do.
#[test]
fn division_by_zero_points_at_its_column() {
    let (code, _, err) = tessera(&["simplify", "i / 0"]);
    assert_eq!(code, 1);
    assert!(
        err.starts_with("error[division_by_zero]: column 3: "),
        "{err}"
    );
    let (code, _, err) = tessera(&["simplify", "x / 2 + y % (k - k)"]);
    assert_eq!(code, 1);
    assert!(
        err.starts_with("error[division_by_zero]: column 11: "),
        "{err}"
    );
}
