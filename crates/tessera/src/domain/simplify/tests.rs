//! Unit tests of the simplifier.

use super::*;

#[test]
fn prints_and_parses() {
    let (s, _) = simplify_text("i0 / 2 / 3", &[]).unwrap();
    assert_eq!(s, "i0 / 6");
    assert!(parse("(1 +").is_err());
    assert!(parse("i0 # 2").is_err());
    assert_eq!(parse_expr("x < 1").unwrap_err().code(), "kind");
}

/// A division by zero is refused with the column of its operator (as a parse error points at
/// its column): the first division of the text whose divisor simplifies to 0 under the
/// assumptions.
#[test]
fn division_by_zero_points_at_the_column() {
    let col = |text: &str, asm: &[&str]| match simplify_text(text, asm) {
        Err(SimplifyError::DivisionByZero { column, .. }) => column,
        other => panic!("{text}: {other:?}"),
    };
    assert_eq!(col("i / 0", &[]), Some(3));
    assert_eq!(col("  i % 0", &[]), Some(5));
    assert_eq!(col("i + j % (k - k)", &[]), Some(7));
    assert_eq!(col("x / 2 + y / 0", &[]), Some(11));
    assert_eq!(col("cdiv(i, 0)", &[]), Some(1));
    assert_eq!(col("1 + ceilDiv(i, 2 * 0)", &[]), Some(5));
    assert_eq!(col("i / 4 < j / (n - n)", &[]), Some(11));
    let e = simplify_text("i / 0", &[]).unwrap_err();
    assert_eq!(e.code(), "division_by_zero");
    assert!(
        e.to_string()
            .starts_with("column 3: obligation `divisor != 0`"),
        "{e}"
    );
    // Not a division by zero: no error, and the divisions are still read.
    assert!(simplify_text("i / 2 % 3", &[]).is_ok());
}
