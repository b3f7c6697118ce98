//! Shared helpers for the CLI integration tests: run the `tessera` binary, read its answers.
#![allow(dead_code)]

use std::io::Write;
use std::path::Path;
use std::process::{Command, Output, Stdio};

/// Exit status (`-1` when killed by a signal), stdout and stderr of a finished run.
fn parts(out: Output) -> (i32, String, String) {
    (
        out.status.code().unwrap_or(-1),
        String::from_utf8_lossy(&out.stdout).into_owned(),
        String::from_utf8_lossy(&out.stderr).into_owned(),
    )
}

/// `tessera ARGS` with no stdin.
pub fn tessera(args: &[&str]) -> (i32, String, String) {
    parts(
        Command::new(env!("CARGO_BIN_EXE_tessera"))
            .args(args)
            .output()
            .expect("tessera runs"),
    )
}

/// `tessera SUB ARGS` with no stdin.
pub fn sub(sub: &str, args: &[&str]) -> (i32, String, String) {
    parts(
        Command::new(env!("CARGO_BIN_EXE_tessera"))
            .arg(sub)
            .args(args)
            .output()
            .expect("tessera runs"),
    )
}

/// `tessera ARGS` fed `stdin` (empty when `None`).
pub fn tessera_stdin(args: &[&str], stdin: Option<&str>) -> (i32, String, String) {
    let mut child = Command::new(env!("CARGO_BIN_EXE_tessera"))
        .args(args)
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .expect("runs");
    // Write stdin from another thread: a large input with large answers would otherwise fill
    // both pipes and deadlock.
    let mut input = child.stdin.take().expect("stdin");
    let text = stdin.unwrap_or("").to_string();
    let writer = std::thread::spawn(move || {
        let _ = input.write_all(text.as_bytes());
    });
    let out = child.wait_with_output().expect("waits");
    writer.join().expect("writer");
    parts(out)
}

/// `tessera SUB ARGS --json`: the exit status and the parsed JSON on stdout.
pub fn sub_json(sub_name: &str, args: &[&str]) -> (i32, serde_json::Value) {
    let mut a = args.to_vec();
    a.push("--json");
    let (code, out, err) = sub(sub_name, &a);
    (
        code,
        serde_json::from_str(&out).unwrap_or_else(|e| panic!("{e}: {out} {err}")),
    )
}

/// The path of `examples/DIR/NAME` in the repository, as a string argument.
pub fn example(dir: &str, name: &str) -> String {
    Path::new(env!("CARGO_MANIFEST_DIR"))
        .join("../../examples")
        .join(dir)
        .join(name)
        .to_string_lossy()
        .into_owned()
}
