//! Compile-time obligations: invalid static tilings fail to compile with a message that names the
//! obligation and the values (pinned in `tests/ui/*.stderr`; regenerate with
//! `TRYBUILD=overwrite cargo test -p tessera --test compile_fail` and review the diff). Only
//! failing cases live here, so trybuild runs `cargo check` once for all of them (no codegen, no
//! linking: a third of the disk and half the time of a suite with a passing case); the valid
//! tiling is `seed_good_tile_compiles_and_matches_the_runtime_complement` in `tests/repo/obligations.rs`.

#[test]
fn static_obligations() {
    let t = trybuild::TestCases::new();
    t.compile_fail("tests/ui/bad_tile.rs");
    t.compile_fail("tests/ui/zero_extent.rs");
    t.compile_fail("tests/ui/tile_does_not_divide.rs");
    t.compile_fail("tests/ui/overflow.rs");
}
