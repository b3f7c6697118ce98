//! Replays the committed fuzzing corpora and crash inputs (`fuzz/corpus/TARGET/`,
//! `fuzz/regressions/TARGET/`) of the text targets through the same checks as the fuzz targets
//! in `fuzz/fuzz_targets/`, on the stable toolchain: every input is answered without a panic,
//! and the round trips hold. See `fuzz/README.md`.

use std::path::{Path, PathBuf};

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
