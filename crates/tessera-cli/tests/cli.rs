//! End-to-end tests of the `tessera` binary.

mod common;

use common::tessera_stdin as tessera;

#[test]
fn eval_prints_the_value() {
    let (code, out, _) = tessera(&["eval", "composition(20:2,(5,4):(4,1))"], None);
    assert_eq!((code, out.as_str()), (0, "(5,4):(8,2)\n"));
    let (code, out, _) = tessera(
        &["eval", "--pycute", "logical_divide((4,2,3):(2,1,8),4:2)"],
        None,
    );
    assert_eq!(
        (code, out.as_str()),
        (0, "((2, 2), (2, 3)):((4, 1), (2, 8))\n")
    );
    let (code, out, _) = tessera(&["eval", "size((4,(2,3)))"], None);
    assert_eq!((code, out.trim()), (0, "24"));
}

#[test]
fn eval_failure_is_a_diagnostic_and_exit_1() {
    let (code, out, err) = tessera(&["eval", "composition((4,6,8):(2,3,5),6:3)"], None);
    assert_eq!(code, 1);
    assert!(out.is_empty());
    assert!(err.starts_with("error[inadmissible_composition]:"), "{err}");
    // A parse error is unreadable input: status 2 (docs/errors.md).
    let (code, _, err) = tessera(&["eval", "coalesce((2,3):(1,2)"], None);
    assert_eq!(code, 2);
    assert!(err.contains("parse error at column 21"), "{err}");
    assert!(
        err.contains("  | coalesce((2,3):(1,2)\n  |                     ^"),
        "{err}"
    );
}

#[test]
fn batch_answers_every_line_in_order() {
    let input = concat!(
        "{\"id\": 1, \"expr\": \"coalesce((2,(1,6)):(1,(6,2)))\"}\n",
        "not json at all\n",
        "\n",
        "{\"id\": \"x\", \"expr\": \"complement((2,2):(1,1))\"}\n",
        "{\"id\": [3], \"nope\": 1}\n",
        "{\"id\": 4, \"expr\": \"complement(4:2,24)\"}\n",
    );
    let (code, out, _) = tessera(&["batch"], Some(input));
    assert_eq!(code, 0);
    let lines: Vec<serde_json::Value> = out
        .lines()
        .map(|l| serde_json::from_str(l).expect("each output line is JSON"))
        .collect();
    // One answer per line, the blank line included (docs/batch.md).
    assert_eq!(lines.len(), 6);
    assert_eq!(lines[0], serde_json::json!({"id": 1, "ok": "12:1"}));
    assert_eq!(lines[1]["error"]["code"], "bad_request");
    assert_eq!(lines[2]["error"]["code"], "bad_request");
    assert_eq!(lines[2]["id"], serde_json::Value::Null);
    assert_eq!(lines[3]["id"], "x");
    assert_eq!(lines[3]["error"]["code"], "non_injective");
    assert!(lines[3]["error"]["suggestions"].is_array());
    assert_eq!(lines[4]["id"], serde_json::json!([3]));
    assert_eq!(lines[4]["error"]["code"], "bad_request");
    assert_eq!(lines[5], serde_json::json!({"id": 4, "ok": "(2,3):(1,8)"}));
}

#[test]
fn batch_survives_hostile_input() {
    let mut input = String::new();
    let pieces = [
        "(",
        ")",
        ":",
        ",",
        "_",
        "-",
        "9",
        "99999999999999999999",
        "composition",
        "coalesce",
        "(2,2)",
        "0",
        "\u{00e9}",
        "\"",
        "\\",
        "{",
        "}",
    ];
    let mut x: u64 = 0x9e3779b97f4a7c15;
    for i in 0..400 {
        let mut e = String::new();
        for _ in 0..(i % 13) {
            x ^= x << 13;
            x ^= x >> 7;
            x ^= x << 17;
            e.push_str(pieces[(x % pieces.len() as u64) as usize]);
        }
        input.push_str(&serde_json::json!({"id": i, "expr": e}).to_string());
        input.push('\n');
    }
    input.push_str(&"(".repeat(100_000));
    input.push('\n');
    let (code, out, _) = tessera(&["batch"], Some(&input));
    assert_eq!(code, 0);
    assert_eq!(out.lines().count(), 401);
    let (code, _, err) = tessera(&["eval", &"(".repeat(100_000)], None);
    assert_eq!(code, 2);
    assert!(
        err.contains("nesting deeper"),
        "{}",
        &err[..200.min(err.len())]
    );
}

#[test]
fn show_prints_cute_tables() {
    let (code, out, _) = tessera(&["show", "(2,(2,2)):(4,(2,1))"], None);
    assert_eq!(code, 0);
    assert_eq!(
        out,
        concat!(
            "(2,(2,2)):(4,(2,1))\n",
            "      0   1   2   3 \n",
            "    +---+---+---+---+\n",
            " 0  | 0 | 2 | 1 | 3 |\n",
            "    +---+---+---+---+\n",
            " 1  | 4 | 6 | 5 | 7 |\n",
            "    +---+---+---+---+\n",
        )
    );
    // rank 1: one column (CuTe prints it); rank 3: a rank_mismatch naming what it needs
    let (code, out, _) = tessera(&["show", "4:2"], None);
    assert_eq!(code, 0);
    assert!(
        out.starts_with("4:2\n      0 \n") && out.contains(" 3  | 6 |"),
        "{out}"
    );
    let (code, _, err) = tessera(&["show", "(2,2,2):(1,2,4)"], None);
    assert_eq!(code, 1);
    assert!(err.contains("rank 1 or 2"), "{err}");
}

#[test]
fn tour_walks_the_seeds_and_checks_its_claims() {
    let (code, out, _) = tessera(&["tour"], None);
    assert_eq!(code, 0);
    // Each value printed by the tour is the library's own answer.
    for expr in [
        "complement1(4,2,24)",
        "zipped_divide((4096,4096):(4096,1),(128,64))",
        "tile_to_shape((8,64):(64,1),(128,64))",
    ] {
        let v = tessera::notation::eval(expr).unwrap().to_string();
        assert!(
            out.contains(&format!("  {expr}\n    = {v}\n")),
            "{expr} = {v} missing"
        );
    }
    assert!(out.contains("is a bijection onto [0,24): true"));
    assert!(out.contains("0 mismatches"));
    assert!(out.contains("error[divisibility]"));
    assert!(out.contains("no holes): true"));
    assert!(out.contains("equal to the input at all 24 points: true"));
    // The seed's iteration domains.
    assert!(out.contains("predicate (ours): I0 < 15 ∧ I2 < 6"));
    assert!(out.contains("4 | 5 => equivalent: No"));
    assert!(out.contains("4 | 8 => equivalent: Yes"));
    // TMA: a valid descriptor, a refused one with a checked fix, and the FTTC verdict.
    assert!(out.contains("boxDim         = {64, 128}"));
    assert!(out.contains("error[tma_swizzle_span]"));
    assert!(out.contains("suggestion (checked, valid): boxDim[0] = 64"));
    assert!(out.contains("FTTC: strong correctness is impossible"));
}

#[test]
fn seed_bad_tile_diagnostic_teaches() {
    let (code, out, err) = tessera(&["eval", "complement1(128, 16, 2040)"], None);
    assert_eq!(code, 1);
    assert!(out.is_empty());
    // Piped: plain text, no escape codes.
    assert!(!err.contains('\x1b'), "{err}");
    let lines: Vec<&str> = err.lines().collect();
    assert_eq!(
        lines[0],
        "error[divisibility]: complement1: failed to discharge N·d ∣ M: 128·16 ∣ 2040 is false"
    );
    assert!(
        err.contains("  = obligation: N·d ∣ M, here 128·16 ∣ 2040\n"),
        "{err}"
    );
    assert!(
        err.contains("  = note: 128·16 = 2048, and 2048 ∣ 2040 is false"),
        "{err}"
    );
    let helps: Vec<&&str> = lines.iter().filter(|l| l.starts_with("help: ")).collect();
    assert!(helps.len() >= 3, "{err}");
    assert!(
        helps[0].starts_with("help: M = 2048: complement1(128,16,2048) = "),
        "{err}"
    );
    assert!(
        helps[1].starts_with("help: M = 2032 with N = 127: complement1(127,16,2032) = "),
        "{err}"
    );
    // Every suggestion shown runs.
    for h in helps {
        let expr = h.split(": ").nth(2).unwrap().split(" = ").next().unwrap();
        let (code, _, _) = tessera(&["eval", expr], None);
        assert_eq!(code, 0, "{expr}");
    }
}

#[test]
fn batch_carries_code_message_and_checked_suggestions() {
    let input = "{\"id\": 7, \"expr\": \"complement1(128,16,2040)\"}\n";
    let (code, out, _) = tessera(&["batch"], Some(input));
    assert_eq!(code, 0);
    let v: serde_json::Value = serde_json::from_str(out.trim()).unwrap();
    assert_eq!(v["error"]["code"], "divisibility");
    assert!(v["error"]["message"]
        .as_str()
        .unwrap()
        .contains("128·16 ∣ 2040"));
    let s = v["error"]["suggestions"].as_array().unwrap();
    assert_eq!(s[0], "complement1(128,16,2048)");
    assert_eq!(s[1], "complement1(127,16,2032)");
}

#[test]
fn explain_describes_every_code_and_rejects_unknown_ones() {
    for entry in tessera::obligation::catalogue::CATALOGUE {
        let (code, out, _) = tessera(&["explain", entry.code], None);
        assert_eq!(code, 0, "{}", entry.code);
        assert!(out.starts_with(&format!("{}: ", entry.code)), "{out}");
        assert!(out.contains("minimal example:"), "{out}");
        assert!(out.contains(&format!("error[{}]", entry.code)), "{out}");
    }
    let (code, _, err) = tessera(&["explain", "no_such_code"], None);
    assert_eq!(code, 2);
    assert!(err.contains("unknown error code `no_such_code`"), "{err}");
    assert!(err.contains("divisibility"), "{err}");
}

/// Issue 17: a complement that leaves holes is answered (CuTe C++'s text) with a note: on stderr
/// for `eval` (exit 0), as `"notes"` of the `ok` answer for `batch`; `complement_exact` refuses.
#[test]
fn complement_with_holes_is_answered_with_a_note() {
    let (code, out, err) = tessera(&["eval", "complement((8,2):(64,3),1808)"], None);
    assert_eq!((code, out.as_str()), (0, "(3,10,4):(1,6,512)\n"));
    assert!(err.starts_with("warning[complement_holes]: "), "{err}");
    assert!(err.contains("no pair reaches 60"), "{err}");
    assert!(err.contains("here 2·3 ∣ 64"), "{err}");
    let (code, out, err) = tessera(&["eval", "complement(4:2,24)"], None);
    assert_eq!((code, out.as_str(), err.as_str()), (0, "(2,3):(1,8)\n", ""));
    let (code, _, err) = tessera(&["eval", "complement_exact((8,2):(64,3),1808)"], None);
    assert_eq!(code, 1);
    assert!(err.starts_with("error[not_complementable]"), "{err}");
    let input = concat!(
        "{\"id\": 1, \"expr\": \"complement((5,2):(8,64),97)\"}\n",
        "{\"id\": 2, \"expr\": \"logical_divide(64:1,(2,2):(1,3))\"}\n",
        "{\"id\": 3, \"expr\": \"complement(4:2,24)\"}\n",
    );
    let (code, out, _) = tessera(&["batch"], Some(input));
    assert_eq!(code, 0);
    let v: Vec<serde_json::Value> = out
        .lines()
        .map(|l| serde_json::from_str(l).unwrap())
        .collect();
    assert_eq!(v[0]["ok"], "8:1");
    assert_eq!(v[0]["notes"][0]["code"], "complement_holes");
    assert_eq!(v[0]["notes"][0]["hole"], 40);
    assert_eq!(v[0]["notes"][0]["obligation"], "5·8 ∣ 64");
    assert_eq!(v[1]["ok"], "((2,2),11):((1,3),6)");
    assert_eq!(v[1]["notes"][0]["hole"], 2);
    assert_eq!(v[2], serde_json::json!({"id": 3, "ok": "(2,3):(1,8)"}));
    let (code, out, _) = tessera(&["explain", "complement_holes"], None);
    assert_eq!(code, 0);
    assert!(out.contains("warning[complement_holes]"), "{out}");
}

/// `tessera eval --help` lists every operation of the library's registry, and `eval --pycute`
/// and batch's `"pycute": true` print a value (swizzled included) the same way.
#[test]
fn eval_help_is_the_registry_and_pycute_faces_agree() {
    let (code, out, _) = tessera(&["eval", "--help"], None);
    assert_eq!(code, 0);
    for op in ::tessera::notation::ops::OPS {
        assert!(out.contains(op.help), "eval --help lacks {}", op.name);
    }
    for e in [
        "Sw<3,4,3> o 0 o (8,64):(64,1)",
        "logical_divide((4,2,3):(2,1,8),4:2)",
        "composition(Sw<2,0,2>,(4,4):(4,1))",
    ] {
        let (code, eval, _) = tessera(&["eval", "--pycute", e], None);
        assert_eq!(code, 0, "{e}");
        let line = format!("{{\"id\":1,\"expr\":\"{e}\",\"pycute\":true}}\n");
        let (code, batch, _) = tessera(&["batch"], Some(&line));
        assert_eq!(code, 0, "{e}");
        let want = format!("{{\"id\":1,\"ok\":\"{}\"}}\n", eval.trim_end());
        assert_eq!(batch, want, "{e}");
    }
}

/// `recast_layout`, a row of the registry only, in `eval`, `batch` and `eval --help`.
#[test]
fn recast_layout_works_in_eval_batch_and_help() {
    let (code, out, _) = tessera(&["eval", "recast_layout((4,8):(1,4),16,32)"], None);
    assert_eq!((code, out.as_str()), (0, "(2,8):(1,2)\n"));
    let (code, out, _) = tessera(
        &["eval", "recast_layout(Sw<3,4,3> o 0 o (8,64):(64,1),16,8)"],
        None,
    );
    assert_eq!(code, 0, "{out}");
    let line = "{\"id\":1,\"expr\":\"recast_layout((4,8):(1,4),16,8)\",\"pycute\":true}\n";
    let (code, out, _) = tessera(&["batch"], Some(line));
    assert_eq!(
        (code, out.as_str()),
        (0, "{\"id\":1,\"ok\":\"(8, 8):(1, 8)\"}\n")
    );
    let (_, help, _) = tessera(&["eval", "--help"], None);
    assert!(
        help.contains("recast_layout(L, old_bits, new_bits)"),
        "{help}"
    );
    let (code, _, err) = tessera(&["eval", "recast_layout(4:2,8,4)"], None);
    assert_eq!(code, 1);
    assert!(err.starts_with("error[no_unit_stride]"), "{err}");
}
