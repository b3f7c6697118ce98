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
