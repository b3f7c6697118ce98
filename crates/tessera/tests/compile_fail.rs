//! Compile-time obligations: invalid static tilings fail to compile with a message that names the
//! obligation and the values (pinned in `tests/ui/*.stderr`; regenerate with
//! `TRYBUILD=overwrite cargo test -p tessera --test compile_fail` and review the diff).

#[test]
fn static_obligations() {
    let t = trybuild::TestCases::new();
    t.pass("tests/ui/good_tile.rs");
    t.compile_fail("tests/ui/bad_tile.rs");
    t.compile_fail("tests/ui/zero_extent.rs");
    t.compile_fail("tests/ui/tile_does_not_divide.rs");
    t.compile_fail("tests/ui/overflow.rs");
}
