//! `tessera schedule`: pinned outputs of the shipped examples, the three-splits example's JSON, emitted
//! Python and C++ that print the seed's sequences, equivalence, lowering, and errors.

use std::path::{Path, PathBuf};
use std::process::Command;

mod common;

fn examples() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("../../examples/schedules")
}

fn tessera(args: &[&str]) -> (i32, String, String) {
    common::sub("schedule", args)
}

fn ex(name: &str) -> String {
    common::example("schedules", name)
}

fn json(args: &[&str]) -> serde_json::Value {
    let mut a = args.to_vec();
    a.push("--json");
    let (code, out, err) = tessera(&a);
    assert_eq!(code, 0, "{err}");
    serde_json::from_str(&out).expect("valid JSON")
}

/// Every `examples/schedules/*.tsch` has pinned text (`.out`) and JSON (`.json`) outputs.
/// `TESSERA_BLESS=1` rewrites them.
#[test]
fn examples_match_pinned_outputs() {
    let bless = std::env::var("TESSERA_BLESS").is_ok();
    let mut n = 0;
    let mut files: Vec<PathBuf> = std::fs::read_dir(examples())
        .unwrap()
        .map(|e| e.unwrap().path())
        .filter(|p| p.extension().is_some_and(|e| e == "tsch"))
        .collect();
    files.sort();
    for f in files {
        let fs = f.to_string_lossy().into_owned();
        for (flag, ext) in [(None, "out"), (Some("--json"), "json")] {
            let mut args = vec![fs.as_str()];
            args.extend(flag);
            let (code, out, err) = tessera(&args);
            assert_eq!(code, 0, "{fs}: {err}");
            let pinned = f.with_extension(ext);
            if bless {
                std::fs::write(&pinned, &out).unwrap();
            }
            let want = std::fs::read_to_string(&pinned)
                .unwrap_or_else(|_| panic!("missing {}", pinned.display()));
            assert_eq!(out, want, "output of {fs} {flag:?} changed");
        }
        n += 1;
    }
    assert!(n >= 10, "only {n} examples");
}

#[test]
fn figure2_json_matches_the_issue() {
    let v = json(&[&ex("figure2_three_indivisible_splits.tsch")]);
    assert_eq!(v["iterations"], 32);
    assert_eq!(v["valid"], 15);
    assert_eq!(v["holes"], 17);
    assert_eq!(v["duplicates"], 0);
    assert_eq!(v["predicated"], serde_json::json!(["I0", "I2"]));
    assert_eq!(v["allocation"]["size"], 15);
    assert_eq!(v["dropped"][0]["id"], "I1");
    assert_eq!(v["dropped"][0]["theorem"], "Theorem 1 (split)");
    assert_eq!(
        v["strategies"]["nvfuser"]["predicated"],
        serde_json::json!(["I0", "I2"])
    );
    assert_eq!(
        v["strategies"]["everything"]["predicated"],
        serde_json::json!(["I0", "I1", "I2"])
    );
}

#[test]
fn figure1_over_allocates_two_slots() {
    let v = json(&[&ex("figure1_split_6_by_4.tsch")]);
    assert_eq!(v["allocation"]["size"], 8);
    assert_eq!(v["allocation"]["valid_items"], 6);
    assert_eq!(v["allocation"]["over_allocation"], 2);
    assert_eq!(
        (v["iterations"].clone(), v["holes"].clone()),
        (8.into(), 2.into())
    );
}

fn python() -> Option<&'static str> {
    Command::new("python3")
        .arg("--version")
        .output()
        .ok()
        .filter(|o| o.status.success())
        .map(|_| "python3")
}

fn run_python(code: &str, args: &[&str]) -> String {
    let dir = std::env::temp_dir().join(format!("tessera-py-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    // Tests run in parallel threads: every program gets its own file.
    static NEXT: std::sync::atomic::AtomicUsize = std::sync::atomic::AtomicUsize::new(0);
    let k = NEXT.fetch_add(1, std::sync::atomic::Ordering::SeqCst);
    let f = dir.join(format!("p{k}.py"));
    std::fs::write(&f, code).unwrap();
    let out = Command::new("python3").arg(&f).args(args).output().unwrap();
    assert!(
        out.status.success(),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
    String::from_utf8(out.stdout).unwrap()
}

fn emit(file: &str, lang: &str, predicate: &str) -> String {
    let (code, out, err) = tessera(&[&ex(file), "--emit", lang, "--predicate", predicate]);
    assert_eq!(code, 0, "{err}");
    out
}

/// The seed's listings, as printed there (with its odd ` , ` spacing normalized).
const SEED_LISTING1: &str = "T[0, 0], T[0, 1], T[0, 2] , T[0, 3]
T[0, 4], T[0, 5], T[0, 6] , T[0, 7]
T[1, 0], T[1, 1], T[1, 2] , T[1, 3]
T[1, 4], T[1, 5], T[1, 6] , T[1, 7]
";
const SEED_LISTING2: &str = "T[0, 0], T[0, 1], T[0, 2] , T[0, 3]
T[0, 4], T[1, 0], T[1, 1] , T[1, 2]
T[1, 3], T[1, 4], T[2, 0] , T[2, 1]
";

fn norm(s: &str) -> String {
    s.replace(" , ", ", ")
}

#[test]
fn emitted_python_prints_the_seed_sequences() {
    if python().is_none() {
        eprintln!("python3 not found; skipping");
        return;
    }
    let f2 = run_python(
        &emit("figure2_three_indivisible_splits.tsch", "python", "ours"),
        &[],
    );
    let got: Vec<i64> = f2.lines().map(|l| l.parse().unwrap()).collect();
    assert_eq!(got, (0..15).collect::<Vec<_>>());
    // Predicating only the root prints the seed's duplicated sequence.
    let roots = run_python(
        &emit("figure2_three_indivisible_splits.tsch", "python", "roots"),
        &[],
    );
    assert_eq!(
        roots.split_whitespace().collect::<Vec<_>>().join(" "),
        "0 1 2 3 4 5 6 7 6 7 8 9 10 11 12 13 12 13 14"
    );
    // Predicating everything (the seed's "safest" listing) prints 0..14.
    let all = run_python(
        &emit(
            "figure2_three_indivisible_splits.tsch",
            "python",
            "everything",
        ),
        &[],
    );
    assert_eq!(all, f2);
    let l1 = run_python(
        &emit("listing1_split_then_merge.tsch", "python", "none"),
        &[],
    );
    assert_eq!(l1, norm(SEED_LISTING1));
    let l2 = run_python(
        &emit("listing2_merge_then_split.tsch", "python", "none"),
        &[],
    );
    assert_eq!(l2, norm(SEED_LISTING2));
    // Seed introduction: I{6} split by 4 prints 0..7 unpredicated, 0..5 predicated.
    let f1 = run_python(&emit("figure1_split_6_by_4.tsch", "python", "none"), &[]);
    assert_eq!(f1.split_whitespace().count(), 8);
    let f1p = run_python(&emit("figure1_split_6_by_4.tsch", "python", "ours"), &[]);
    assert_eq!(
        f1p.split_whitespace().collect::<Vec<_>>(),
        vec!["0", "1", "2", "3", "4", "5"]
    );
    let sym = run_python(&emit("symbolic_extent.tsch", "python", "ours"), &["24"]);
    assert_eq!(sym.lines().count(), 24);
}

fn gxx() -> bool {
    Command::new("g++")
        .arg("--version")
        .output()
        .map(|o| o.status.success())
        .unwrap_or(false)
}

#[test]
fn emitted_cuda_compiles_on_the_host_and_matches_python() {
    if !gxx() {
        eprintln!("g++ not found; skipping");
        return;
    }
    let dir = std::env::temp_dir().join(format!("tessera-cc-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    let cases: [(&str, &str, &[&str]); 7] = [
        ("figure2_three_indivisible_splits.tsch", "ours", &[]),
        ("euclid_negative_indices.tsch", "none", &[]),
        ("example15_split_feeding_merge.tsch", "ours", &[]),
        ("listing1_split_then_merge.tsch", "none", &[]),
        ("listing2_merge_then_split.tsch", "none", &[]),
        ("resize_and_swizzle.tsch", "ours", &[]),
        ("symbolic_extent.tsch", "ours", &["40"]),
    ];
    for (k, (file, pred, args)) in cases.iter().enumerate() {
        let src = dir.join(format!("k{k}.cu"));
        let bin = dir.join(format!("k{k}"));
        std::fs::write(&src, emit(file, "cuda", pred)).unwrap();
        let c = Command::new("g++")
            .args(["-std=c++17", "-Wall", "-Werror", "-x", "c++"])
            .arg(&src)
            .arg("-o")
            .arg(&bin)
            .output()
            .unwrap();
        assert!(
            c.status.success(),
            "{file}: {}",
            String::from_utf8_lossy(&c.stderr)
        );
        let out = Command::new(&bin).args(*args).output().unwrap();
        assert!(out.status.success());
        let cpp = String::from_utf8(out.stdout).unwrap();
        if python().is_some() {
            let py = run_python(&emit(file, "python", pred), args);
            assert_eq!(cpp, py, "{file}");
        }
        if *file == "listing2_merge_then_split.tsch" {
            assert_eq!(cpp, norm(SEED_LISTING2));
        }
    }
    let _ = std::fs::remove_dir_all(&dir);
}

#[test]
fn equivalence_of_the_seed_listings() {
    let v = json(&[
        &ex("listing1_split_then_merge.tsch"),
        "--equiv",
        &ex("listing2_merge_then_split.tsch"),
    ]);
    assert_eq!(v["equivalence"]["rule"]["equivalent"], false);
    assert_eq!(v["equivalence"]["rule"]["condition"], "4 | 5");
    assert_eq!(v["equivalence"]["enumeration"]["equivalent"], false);
    assert_eq!(
        v["equivalence"]["enumeration"]["counterexample"],
        "loop extents differ: [4, 4] vs [3, 4]"
    );
    let d = json(&[
        &ex("theorem5_divisible_split_then_merge.tsch"),
        "--equiv",
        &ex("theorem5_divisible_merge_then_split.tsch"),
    ]);
    assert_eq!(d["equivalence"]["rule"]["equivalent"], true);
    assert_eq!(d["equivalence"]["enumeration"]["equivalent"], true);
    let (code, _, err) = tessera(&[
        &ex("figure2_three_indivisible_splits.tsch"),
        "--equiv",
        &ex("listing1_split_then_merge.tsch"),
    ]);
    assert_eq!(code, 1);
    assert!(err.contains("error[not_comparable]"), "{err}");
}

/// `normal_forms_unsound_at_holes` (`proofs/NormalizeBackward.v`): equal normal forms, but the
/// pair differs at the hole `[0, 0]`. The rule must not answer (it used to say Yes);
/// enumeration refutes.
#[test]
fn equivalence_rule_is_silent_at_the_coq_counterexample() {
    let dir = std::env::temp_dir().join(format!("tessera-equiv-cex-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    let (a, b) = (dir.join("a.tsch"), dir.join("b.tsch"));
    std::fs::write(&a, "A = iter 2\nB = iter 4\nM = merge A, B\nO, I = split M by 2\nJ = resize I by 1, 0\nloop O J\n").unwrap();
    std::fs::write(&b, "A = iter 2\nB = iter 4\nP, Q = split B by 2\nM = merge A, P\nJ = resize Q by 1, 0\nloop M J\n").unwrap();
    let (a, b) = (a.to_str().unwrap(), b.to_str().unwrap());
    let v = json(&[a, "--equiv", b]);
    assert!(v["equivalence"]["rule"].is_null(), "{}", v["equivalence"]);
    assert_eq!(v["equivalence"]["enumeration"]["equivalent"], false);
    assert_eq!(
        v["equivalence"]["enumeration"]["counterexample"],
        "at loop point [0, 0]: roots [-1, 3] vs [0, -1]"
    );
    let (code, out, _) = tessera(&[a, "--equiv", b]);
    assert_eq!(code, 0);
    assert!(!out.contains("equivalence by normal forms"), "{out}");
    assert!(
        out.contains("equivalence by enumeration: NOT equivalent"),
        "{out}"
    );
    let _ = std::fs::remove_dir_all(&dir);
}

#[test]
fn lowering_weak_and_strong_correctness() {
    let f = ex("example10_tma_weak_correctness.tsch");
    let v = json(&[&f, "--lowering", "roots", "--fill", "0"]);
    assert_eq!(v["lowering"]["weak"], true);
    assert_eq!(v["lowering"]["strong"], false);
    let v = json(&[&f, "--lowering", "ours", "--fill", "0"]);
    assert_eq!(v["lowering"]["predicated"], serde_json::json!(["I5"]));
    assert_eq!(v["lowering"]["strong"], true);
    let v = json(&[
        &f,
        "--lowering",
        "ours",
        "--fill",
        "0",
        "--reduction",
        "max",
    ]);
    assert_eq!(v["lowering"]["strong"], false);
    let v = json(&[
        &f,
        "--lowering",
        "ours",
        "--fill",
        "-inf",
        "--reduction",
        "max",
    ]);
    assert_eq!(v["lowering"]["strong"], true);
    let (code, out, _) = tessera(&[&f, "--lowering", "roots", "--fill", "0"]);
    assert_eq!(code, 0);
    assert!(
        out.contains("weakly correct: yes, strongly correct: no"),
        "{out}"
    );
}

#[test]
fn errors_name_line_column_and_code() {
    let dir = std::env::temp_dir().join(format!("tessera-err-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    let cases = [
        (
            "I0 = iter 6\nI1, I2 = split I9 by 4\n",
            "error[parse]",
            "line 2, column 16",
            2,
        ),
        (
            "I0 = iter 6\nI1, I2 = split I0 by 0\n",
            "error[bad_factor]",
            "line 2, column 10: obligation `factor > 0`",
            1,
        ),
        (
            "I0 = iter 6\nI1 = resize I0 by -3, -3\n",
            "error[non_positive_extent]",
            "line 2, column 6: obligation `extent >= 1`",
            1,
        ),
        (
            "assume N % 8 == 0\nassume N == 20\n",
            "error[contradiction]",
            "line 2, column 8: facts about `N` contradict",
            1,
        ),
        ("I0 = iter 6 7\n", "error[parse]", "line 1, column 13", 2),
    ];
    for (k, (text, code, needle, status)) in cases.iter().enumerate() {
        let f = dir.join(format!("e{k}.tsch"));
        std::fs::write(&f, text).unwrap();
        let (c, _, err) = tessera(&[&f.to_string_lossy()]);
        assert_eq!(c, *status, "{text}");
        assert!(err.contains(code) && err.contains(needle), "{text}: {err}");
    }
    // Too many points: the report skips enumeration (bounded, never a hang) but still derives
    // the predicate by the theorems.
    let f = dir.join("big.tsch");
    std::fs::write(
        &f,
        "I0 = iter 4096\nI1 = iter 4096\nI2, I3 = split I1 by 3\n",
    )
    .unwrap();
    let v = json(&[&f.to_string_lossy()]);
    assert!(v["valid"].is_null());
    assert!(v["enumeration_skipped"]
        .as_str()
        .unwrap()
        .contains("points <= 16777216"));
    assert_eq!(v["predicated"], serde_json::json!(["I1"]));
    let _ = std::fs::remove_dir_all(&dir);
}
