//! Replays the batch fuzz target's committed regressions (`fuzz/regressions/batch/`, every one)
//! and corpus (`fuzz/corpus/batch/`: the quarter whose content-hash names start with `0`–`3`, so
//! the test stays a few seconds in debug; `TESSERA_FUZZ_REPLAY_ALL=1` replays all of it) on the
//! stable toolchain, through the target's own checks (`fuzz/checks/batch.rs`, compiled here as a
//! module): one answer per line, in order, every answer an object with `ok` or a catalogued
//! error, the fast path equal to serde_json's, plain `expr` answers equal to the library's
//! evaluation (and to the definitions of composition and coalesce), and every sentinel request
//! answered at its place. See `fuzz/README.md`.

use std::path::{Path, PathBuf};

#[path = "../../../fuzz/checks/batch.rs"]
mod checks;

fn files(dir: &str, keep: impl Fn(&str) -> bool) -> Vec<PathBuf> {
    let root = Path::new(env!("CARGO_MANIFEST_DIR")).join("../../fuzz");
    let Ok(rd) = std::fs::read_dir(root.join(dir).join("batch")) else {
        return Vec::new();
    };
    let mut paths: Vec<PathBuf> = rd
        .flatten()
        .map(|e| e.path())
        .filter(|p| p.is_file())
        .filter(|p| keep(&p.file_name().unwrap_or_default().to_string_lossy()))
        .collect();
    paths.sort();
    paths
}

fn replay(paths: &[PathBuf]) {
    for p in paths {
        let bytes = std::fs::read(p).unwrap();
        let r = std::panic::catch_unwind(|| checks::check(&bytes));
        assert!(r.is_ok(), "batch: {} fails its checks", p.display());
    }
}

#[test]
fn committed_batch_regressions_meet_the_protocol() {
    let regressions = files("regressions", |_| true);
    assert!(regressions.len() >= 3, "{regressions:?}");
    replay(&regressions);
    eprintln!("batch fuzz regressions replayed: {}", regressions.len());
}

#[test]
fn committed_batch_corpus_meets_the_protocol() {
    let all = std::env::var("TESSERA_FUZZ_REPLAY_ALL").is_ok();
    let corpus = files("corpus", |name| {
        all || name.starts_with(['0', '1', '2', '3'])
    });
    assert!(corpus.len() > 100, "{} corpus inputs", corpus.len());
    replay(&corpus);
    eprintln!("batch fuzz corpus inputs replayed: {}", corpus.len());
}
