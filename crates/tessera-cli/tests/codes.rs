//! Every error code the tool can print is explained by `tessera explain` and documented in
//! `docs/errors.md`. The codes are enumerated from the sources: the string literals of every
//! `fn code(&self)`, the codes the CLI passes to `fail`, `error`, `status` or returns as
//! `("code", …)` / `("code".to_string(), …)` pairs, and the literal `error[code]` it prints.

use std::path::{Path, PathBuf};
use std::process::Command;

fn sources(dir: &Path, out: &mut Vec<PathBuf>) {
    for e in std::fs::read_dir(dir).unwrap() {
        let p = e.unwrap().path();
        if p.is_dir() {
            sources(&p, out);
        } else if p.extension().is_some_and(|x| x == "rs") {
            out.push(p);
        }
    }
}

fn is_code(s: &str) -> bool {
    s.len() > 1
        && s.bytes().next().is_some_and(|b| b.is_ascii_lowercase())
        && s.bytes()
            .all(|b| b.is_ascii_lowercase() || b.is_ascii_digit() || b == b'_')
}

/// The snake_case literal starting right after `prefix` at each occurrence.
fn literals_after(text: &str, prefix: &str, out: &mut Vec<String>) {
    let mut rest = text;
    while let Some(k) = rest.find(prefix) {
        rest = &rest[k + prefix.len()..];
        if let Some(end) = rest.find('"') {
            let lit = &rest[..end];
            if is_code(lit) {
                out.push(lit.to_string());
            }
        }
    }
}

fn codes_in_sources() -> Vec<String> {
    let root = Path::new(env!("CARGO_MANIFEST_DIR")).join("..");
    let mut files = Vec::new();
    sources(&root.join("tessera/src"), &mut files);
    sources(&root.join("tessera-cli/src"), &mut files);
    let mut codes = Vec::new();
    for f in &files {
        let text = std::fs::read_to_string(f).unwrap();
        // Bodies of `fn code(&self)`.
        let mut rest = text.as_str();
        while let Some(k) = rest.find("fn code(&self)") {
            rest = &rest[k..];
            let end = rest.find("\n    }\n").unwrap_or(rest.len());
            literals_after(&rest[..end], "=> \"", &mut codes);
            rest = &rest[end..];
        }
        let cli = f.to_string_lossy().contains("tessera-cli");
        if cli {
            // Whitespace removed, so that calls split over lines read as one.
            let flat: String = text.chars().filter(|c| !c.is_whitespace()).collect();
            for p in ["fail(\"", "error(\"", "status(\"", "\"code\":\""] {
                literals_after(&flat, p, &mut codes);
            }
            // Diagnostics written as text: `error[code]`.
            for piece in flat.split("error[").skip(1) {
                if let Some((lit, _)) = piece.split_once(']') {
                    if is_code(lit) {
                        codes.push(lit.to_string());
                    }
                }
            }
            // `("code", format!(…))` and `("code".to_string(), …)` pairs (not `f("x", …)` calls).
            let mut rest = flat.as_str();
            while let Some(k) = rest.find("(\"") {
                let bare = !rest[..k]
                    .chars()
                    .next_back()
                    .is_some_and(|c| c.is_alphanumeric() || c == '_' || c == '!');
                rest = &rest[k + 2..];
                let Some(end) = rest.find('"') else { break };
                let lit = &rest[..end];
                let after = &rest[end + 1..];
                if bare
                    && is_code(lit)
                    && (after.starts_with(",format!") || after.starts_with(".to_string(),"))
                {
                    codes.push(lit.to_string());
                }
            }
        }
    }
    codes.sort();
    codes.dedup();
    codes
}

#[test]
fn every_printable_code_is_explained_and_documented() {
    let codes = codes_in_sources();
    // The enumeration itself must see the known families.
    for must in [
        "divisibility",
        "self_merge",
        "overdetermined",
        "aliasing_alloc",
        "tma_swizzle_span",
        "parse",
        "bad_request",
        "io",
        "input_too_large",
        "invalid_utf8",
        "kind",
    ] {
        assert!(
            codes.iter().any(|c| c == must),
            "{must} not found in {codes:?}"
        );
    }
    assert!(codes.len() >= 70, "{} codes: {codes:?}", codes.len());
    eprintln!("{} codes enumerated from the sources", codes.len());
    let docs =
        std::fs::read_to_string(Path::new(env!("CARGO_MANIFEST_DIR")).join("../../docs/errors.md"))
            .unwrap();
    let mut missing = Vec::new();
    for c in &codes {
        if !docs.contains(&format!("## `{c}`")) {
            missing.push(format!("{c} (docs/errors.md)"));
        }
        let out = Command::new(env!("CARGO_BIN_EXE_tessera"))
            .args(["explain", c])
            .output()
            .unwrap();
        let text = String::from_utf8_lossy(&out.stdout);
        if out.status.code() != Some(0) || !text.starts_with(&format!("{c}: ")) {
            missing.push(format!("{c} (tessera explain)"));
        }
    }
    assert!(missing.is_empty(), "unexplained codes: {missing:?}");
}

#[test]
fn exit_statuses_follow_one_convention() {
    let bin = env!("CARGO_BIN_EXE_tessera");
    let run = |args: &[&str]| Command::new(bin).args(args).output().unwrap().status.code();
    // 0: an answer; 1: understood and refused; 2: usage or unreadable input.
    assert_eq!(run(&["eval", "size(4:1)"]), Some(0));
    assert_eq!(run(&["eval", "complement1(128,16,2040)"]), Some(1));
    assert_eq!(run(&["eval", "size(4:"]), Some(2));
    assert_eq!(run(&["simplify", "x +"]), Some(2));
    assert_eq!(run(&["schedule", "/no/such/file.tsch"]), Some(2));
    assert_eq!(run(&["report", "/no/such/file.tsch"]), Some(2));
    assert_eq!(run(&["tma", "--file", "/no/such/file.json"]), Some(2));
    assert_eq!(run(&["tma", "--shape", "64,64", "--box", "64,64"]), Some(2));
    assert_eq!(run(&["explain", "no_such_code"]), Some(2));
    assert_eq!(run(&["no-such-subcommand"]), Some(2));
    assert_eq!(
        run(&["tma", "--dtype", "f16", "--shape", "64,64", "--box", "512,64"]),
        Some(1)
    );
}
