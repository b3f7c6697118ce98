//! Replays the committed fuzzing corpora and crash inputs (`fuzz/corpus/TARGET/`,
//! `fuzz/regressions/TARGET/`) through the same checks as the fuzz targets in
//! `fuzz/fuzz_targets/`, on the stable toolchain. The text targets: every input is answered
//! without a panic, and the round trips hold. The structure-aware targets (`algebra`,
//! `schedule_enum`, `tma_request`, `swizzled`, `banks_ragged`): each input is decoded as
//! libFuzzer's `fuzz_target!` decodes it (`arbitrary`'s `arbitrary_take_rest`) and run through
//! the target's own checks (`fuzz/checks/TARGET.rs`, compiled here as modules), so every
//! postcondition the fuzzer asserts is asserted again. The batch target's inputs are replayed by
//! `crates/tessera-cli/tests/fuzz_batch.rs`. See `fuzz/README.md`.

use std::path::{Path, PathBuf};

use arbitrary::{Arbitrary, Unstructured};

#[path = "../../../../fuzz/checks/algebra.rs"]
mod algebra;
#[path = "../../../../fuzz/checks/banks_ragged.rs"]
mod banks_ragged;
#[path = "../../../../fuzz/checks/schedule_enum.rs"]
mod schedule_enum;
#[path = "../../../../fuzz/checks/swizzled.rs"]
mod swizzled;
#[path = "../../../../fuzz/checks/tma_request.rs"]
mod tma_request;

fn inputs(target: &str) -> Vec<(PathBuf, Vec<u8>)> {
    let root = Path::new(env!("CARGO_MANIFEST_DIR")).join("../../fuzz");
    let mut out = Vec::new();
    for dir in ["corpus", "regressions"] {
        let Ok(rd) = std::fs::read_dir(root.join(dir).join(target)) else {
            continue;
        };
        for e in rd.flatten() {
            let p = e.path();
            if p.is_file() {
                out.push((p.clone(), std::fs::read(&p).unwrap()));
            }
        }
    }
    out.sort();
    out
}

fn notation(text: &str) {
    if let Ok(tessera::notation::Value::Layout(l)) = tessera::notation::eval(text) {
        let printed = l.to_string();
        let back: tessera::Layout = printed.parse().expect("a printed layout parses");
        assert_eq!(back, l, "{printed}");
    }
    if let Err(e) = tessera::notation::eval(text) {
        let _ = e.to_string();
        let _ = e.suggestions();
    }
}

fn schedule(text: &str) {
    let Ok(s) = tessera::domain::parse(text) else {
        return;
    };
    if let Ok(r) = tessera::domain::report::analyze(&s) {
        let _ = r.render();
    }
    let _ = tessera::domain::parse(&s.to_string());
}

fn report(text: &str) {
    let _ = tessera::render::html::layout_report(text);
    if let Ok(s) = tessera::domain::parse(text) {
        let _ = tessera::render::html::schedule_report("fuzz", Some(text), &s);
    }
}

#[test]
fn committed_fuzz_inputs_replay_cleanly() {
    let mut n = 0;
    for (target, check) in [
        ("notation", notation as fn(&str)),
        ("schedule", schedule),
        ("report", report),
    ] {
        for (path, bytes) in inputs(target) {
            if let Ok(text) = std::str::from_utf8(&bytes) {
                let r = std::panic::catch_unwind(|| check(text));
                assert!(r.is_ok(), "{target}: {} panicked", path.display());
                n += 1;
            }
        }
    }
    for (path, bytes) in inputs("simplify") {
        // The target reads two strings; the replay tries the whole input as the expression.
        if let Ok(text) = std::str::from_utf8(&bytes) {
            let r = std::panic::catch_unwind(|| {
                let _ = tessera::domain::simplify::simplify_text(text, &[]);
            });
            assert!(r.is_ok(), "simplify: {} panicked", path.display());
            n += 1;
        }
    }
    eprintln!("{n} committed fuzz inputs replayed");
}

/// Replays `target`'s inputs through `check`, decoding each as `fuzz_target!(|i: T| …)` does
/// (inputs shorter than `T`'s size hint and undecodable ones are skipped there, and here).
/// Returns the number of inputs checked.
fn replay<T: for<'a> Arbitrary<'a>>(target: &str, check: fn(T)) -> usize {
    let mut n = 0;
    for (path, bytes) in inputs(target) {
        if bytes.len() < T::size_hint(0).0 {
            continue;
        }
        let Ok(input) = T::arbitrary_take_rest(Unstructured::new(&bytes)) else {
            continue;
        };
        let r = std::panic::catch_unwind(std::panic::AssertUnwindSafe(|| check(input)));
        assert!(r.is_ok(), "{target}: {} fails its checks", path.display());
        n += 1;
    }
    n
}

#[test]
fn structure_aware_fuzz_inputs_meet_their_postconditions() {
    let counts = [
        ("algebra", replay("algebra", algebra::check)),
        (
            "schedule_enum",
            replay("schedule_enum", schedule_enum::check),
        ),
        ("tma_request", replay("tma_request", tma_request::check)),
        ("swizzled", replay("swizzled", swizzled::check)),
        ("banks_ragged", replay("banks_ragged", banks_ragged::check)),
    ];
    // Every target has a committed corpus: a decoder or a path that reads nothing fails here.
    for (target, n) in counts {
        assert!(n > 0, "{target}: no committed input decoded");
    }
    eprintln!("structure-aware fuzz inputs replayed: {counts:?}");
}
