//! `tessera batch` end to end: the fast path and the serde path answer alike, threads keep input
//! order, chunked input still answers a client line by line (docs/batch.md).

mod common;

use std::io::{BufRead, BufReader, Write};
use std::process::{Command, Stdio};

use common::tessera_stdin as tessera;

/// The benchmark corpus as requests, in several spellings of the same request: the common shape
/// (fast path) and shapes only serde_json reads (escaped characters, odd ids, extra fields).
fn requests() -> Vec<String> {
    let corpus = include_str!("../../../benches/corpus/cases.txt");
    let mut lines = Vec::new();
    for (i, case) in corpus
        .lines()
        .filter(|l| !l.starts_with('#') && !l.is_empty())
        .enumerate()
    {
        let f: Vec<&str> = case.split('\t').collect();
        let e = format!("{}({})", f[0], f[2..].join(","));
        lines.push(format!("{{\"id\": {i}, \"expr\": \"{e}\"}}"));
        match i % 6 {
            // `\u0028` is `(`: only serde_json decodes it.
            0 => lines.push(format!(
                "{{\"id\":[{i}],\"expr\":\"{}\"}}",
                e.replacen('(', "\\u0028", 1)
            )),
            1 => lines.push(format!(
                "\t{{ \"pycute\" : true, \"expr\":\"{e}\" ,\"id\":\"ü{i}\"}}\r"
            )),
            2 => lines.push(format!("{{\"id\":{i}.5,\"expr\":\"{e}\",\"version\":1}}")),
            3 => lines.push(format!("{{\"expr\":\" {} \"}}", e.replace(',', " , "))),
            4 => lines.push(String::new()),
            _ => lines.push(format!("{{\"id\":\"\\\"{i}\",\"expr\":\"{e}\"}}")),
        }
    }
    lines
}

#[test]
fn fast_and_general_spellings_of_a_request_get_the_same_answer() {
    let input: String = requests().iter().map(|l| format!("{l}\n")).collect();
    let (code, out, _) = tessera(&["batch", "--threads", "1"], Some(&input));
    assert_eq!(code, 0);
    let answers: Vec<serde_json::Value> = out
        .lines()
        .map(|l| serde_json::from_str(l).unwrap())
        .collect();
    assert_eq!(answers.len(), requests().len());
    // Each corpus line is followed by a differently spelled request of the same expression
    // (except the blank lines): the ok/error part of their answers agree.
    let body = |a: &serde_json::Value| {
        let mut a = a.clone();
        a.as_object_mut().unwrap().remove("id");
        a
    };
    let reqs = requests();
    let mut compared = 0;
    for (k, pair) in answers.chunks(2).enumerate() {
        if reqs[2 * k + 1].is_empty() {
            assert_eq!(pair[1]["error"]["code"], "bad_request");
            continue;
        }
        if reqs[2 * k + 1].contains("pycute") {
            // pycute prints layouts differently; only the kind of answer must agree.
            assert_eq!(pair[0].get("ok").is_some(), pair[1].get("ok").is_some());
            continue;
        }
        assert_eq!(body(&pair[0]), body(&pair[1]), "{}", reqs[2 * k]);
        compared += 1;
    }
    assert!(compared > 300, "{compared}");
}

#[test]
fn one_and_two_threads_answer_identically_in_order() {
    let mut input: String = requests().iter().map(|l| format!("{l}\n")).collect();
    // Enough lines for many chunks, and a last line without a newline.
    input = input.repeat(20);
    input.push_str("{\"id\":\"end\",\"expr\":\"size(4:1)\"}");
    let (c1, one, _) = tessera(&["batch", "--threads", "1"], Some(&input));
    let (c2, two, _) = tessera(&["batch", "--threads", "2"], Some(&input));
    let (c3, dflt, _) = tessera(&["batch"], Some(&input));
    assert_eq!((c1, c2, c3), (0, 0, 0));
    assert_eq!(one.lines().count(), input.lines().count());
    assert!(one.ends_with("{\"id\":\"end\",\"ok\":\"4\"}\n"));
    assert_eq!(one, two);
    assert_eq!(one, dflt);
}

#[test]
fn over_long_lines_are_answered_in_place_with_threads() {
    let long = format!("{{\"id\":1,\"expr\":\"{}\"}}", "(".repeat(5000));
    let ok = "{\"id\":2,\"expr\":\"size(4:1)\"}";
    let input = format!("{ok}\n{long}\n{ok}\n{long}\n{long}");
    for threads in ["1", "3"] {
        let out = Command::new(env!("CARGO_BIN_EXE_tessera"))
            .args(["batch", "--threads", threads])
            .env("TESSERA_MAX_INPUT_BYTES", "1000")
            .stdin(Stdio::piped())
            .stdout(Stdio::piped())
            .spawn()
            .and_then(|mut c| {
                c.stdin.take().unwrap().write_all(input.as_bytes())?;
                c.wait_with_output()
            })
            .unwrap();
        let codes: Vec<String> = String::from_utf8(out.stdout)
            .unwrap()
            .lines()
            .map(|l| {
                let v: serde_json::Value = serde_json::from_str(l).unwrap();
                match v.get("ok") {
                    Some(_) => "ok".to_string(),
                    None => v["error"]["code"].as_str().unwrap().to_string(),
                }
            })
            .collect();
        assert_eq!(
            codes,
            [
                "ok",
                "input_too_large",
                "ok",
                "input_too_large",
                "input_too_large"
            ],
            "--threads {threads}"
        );
    }
}

/// A client that writes one line and waits for its answer is answered, with any thread count.
#[test]
fn a_client_driving_line_by_line_gets_each_answer_with_threads() {
    for threads in ["1", "2", "4"] {
        let mut child = Command::new(env!("CARGO_BIN_EXE_tessera"))
            .args(["batch", "--threads", threads])
            .stdin(Stdio::piped())
            .stdout(Stdio::piped())
            .spawn()
            .unwrap();
        let mut w = child.stdin.take().unwrap();
        let mut r = BufReader::new(child.stdout.take().unwrap());
        for i in 0..5 {
            // Alternate the fast path and the serde path.
            if i % 2 == 0 {
                writeln!(w, "{{\"id\":{i},\"expr\":\"size(8:1)\"}}").unwrap();
            } else {
                writeln!(w, "{{\"id\":[{i}],\"expr\":\"size(8:1)\"}}").unwrap();
            }
            w.flush().unwrap();
            let mut line = String::new();
            r.read_line(&mut line).unwrap();
            let id = if i % 2 == 0 {
                i.to_string()
            } else {
                format!("[{i}]")
            };
            assert_eq!(
                line,
                format!("{{\"id\":{id},\"ok\":\"8\"}}\n"),
                "--threads {threads}"
            );
        }
        drop(w);
        assert!(child.wait().unwrap().success());
    }
}

/// A line that never ends (`/dev/zero`) is answered `input_too_large` as soon as it passes the
/// limit, not at its end (which never comes), with any thread count; the rest is skipped in
/// bounded memory.
#[test]
fn an_endless_line_is_answered_when_it_passes_the_limit() {
    for threads in ["1", "2"] {
        let mut child = Command::new(env!("CARGO_BIN_EXE_tessera"))
            .args(["batch", "--threads", threads])
            .env("TESSERA_MAX_INPUT_BYTES", "100000")
            .stdin(std::fs::File::open("/dev/zero").unwrap())
            .stdout(Stdio::piped())
            .spawn()
            .unwrap();
        let stdout = child.stdout.take().unwrap();
        let (tx, rx) = std::sync::mpsc::channel();
        std::thread::spawn(move || {
            let mut line = String::new();
            let _ = std::io::BufReader::new(stdout).read_line(&mut line);
            let _ = tx.send(line);
        });
        let line = rx.recv_timeout(std::time::Duration::from_secs(60));
        let _ = child.kill();
        let _ = child.wait();
        let line = line.expect("an answer before the end of input");
        let v: serde_json::Value = serde_json::from_str(&line).unwrap();
        assert_eq!(
            v["error"]["code"], "input_too_large",
            "--threads {threads}: {line}"
        );
    }
}
