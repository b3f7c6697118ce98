//! `tessera banks` with Gluon and linear shared layouts, and the README's "Triton and Gluon"
//! console examples run byte for byte.

mod common;

/// Splits a console command line into words (single quotes group, as in the README).
fn words(line: &str) -> Vec<String> {
    let mut out = Vec::new();
    let mut cur = String::new();
    let mut quoted = false;
    let mut any = false;
    for c in line.chars() {
        match c {
            '\'' => {
                quoted = !quoted;
                any = true;
            }
            ' ' if !quoted => {
                if any {
                    out.push(std::mem::take(&mut cur));
                    any = false;
                }
            }
            _ => {
                cur.push(c);
                any = true;
            }
        }
    }
    if any {
        out.push(cur);
    }
    out
}

#[test]
fn readme_triton_section_console_examples() {
    let readme =
        std::fs::read_to_string(concat!(env!("CARGO_MANIFEST_DIR"), "/../../README.md")).unwrap();
    let start = readme
        .find("## Triton and Gluon")
        .expect("the README has the section");
    let section = &readme[start..];
    let section = &section[..section[3..].find("\n## ").map_or(section.len(), |i| i + 3)];
    let mut ran = 0;
    for block in section.split("```console\n").skip(1) {
        let block = &block[..block.find("```").expect("closed block")];
        // Commands start with `$ `; the output runs to the next blank line before a command.
        let mut cmds: Vec<(String, String)> = Vec::new();
        for line in block.lines() {
            if let Some(c) = line.strip_prefix("$ ") {
                cmds.push((c.to_string(), String::new()));
            } else if let Some(last) = cmds.last_mut() {
                last.1.push_str(line);
                last.1.push('\n');
            }
        }
        for (cmd, want) in cmds {
            let w = words(&cmd);
            assert_eq!(w[0], "tessera");
            let args: Vec<&str> = w[1..].iter().map(|s| s.as_str()).collect();
            let (code, out, err) = common::tessera(&args);
            assert_eq!(code, 0, "{cmd}: {err}");
            assert_eq!(out.trim_end(), want.trim_end(), "{cmd}");
            ran += 1;
        }
    }
    assert!(ran >= 2);
}

#[test]
fn gluon_and_linear_smem_agree_with_the_cute_form() {
    // The same 128-byte swizzle given three ways gives the same wavefronts.
    let cases = [
        vec!["--smem", "NVMMASharedLayout(swizzle_byte_width=128, element_bitwidth=16, rank=2, transposed=False, fp4_padded=False, cga_layout=[])", "--shape", "64,64"],
        vec!["--smem", "Sw<3,3,3> o 0 o (64,64):(64,1)"],
        vec!["--smem", "SwizzledSharedLayout(vec=8, per_phase=1, max_phase=8, order=[1, 0])", "--shape", "64,64"],
    ];
    let mut seen = Vec::new();
    for c in cases {
        let mut args = c.clone();
        args.extend(["--atom", "ldmatrix.x4", "--dtype", "f16"]);
        let (code, j) = common::sub_json("banks", &args);
        assert_eq!(code, 0, "{c:?}");
        seen.push(j["wavefronts"].clone());
    }
    assert!(seen.iter().all(|w| *w == seen[0] && *w == 64), "{seen:?}");
    // The JSON of a linear layout, in the coordinates -> offset direction, is read as it is.
    let json = r#"{"in_dims":[{"name":"dim0","bases":[[64],[128],[256],[512],[1024],[2048]]},{"name":"dim1","bases":[[1],[2],[4],[8],[16],[32]]}],"out_dims":[{"name":"offset","size":4096}]}"#;
    let (code, out, _) = common::sub(
        "banks",
        &["--smem", json, "--atom", "ldmatrix.x4", "--dtype", "f16"],
    );
    assert_eq!(code, 0);
    assert!(
        out.starts_with("read as: a linear layout coordinates -> offset\n"),
        "{out}"
    );
    assert!(out.contains("wavefronts: 512 (ideal 64)"), "{out}");
}

#[test]
fn gluon_smem_errors_name_the_fix() {
    let (code, _, err) = common::sub(
        "banks",
        &[
            "--smem",
            "NVMMASharedLayout(128, 16)",
            "--atom",
            "ldmatrix.x4",
            "--dtype",
            "f16",
        ],
    );
    assert_eq!(code, 2);
    assert!(
        err.contains("needs the tensor shape") && err.contains("--shape 64,64"),
        "{err}"
    );
    let (code, _, err) = common::sub(
        "banks",
        &[
            "--smem",
            "BlockedLayout([1], [32], [4], [0])",
            "--shape",
            "128",
            "--atom",
            "ldmatrix.x4",
            "--dtype",
            "f16",
        ],
    );
    assert_eq!(code, 2);
    assert!(err.contains("register layout"), "{err}");
    let (code, _, err) = common::sub(
        "banks",
        &[
            "--smem",
            "NVMMASharedLayout(128, 16)",
            "--shape",
            "4,4",
            "--atom",
            "ldmatrix.x4",
            "--dtype",
            "f16",
        ],
    );
    assert_eq!(code, 2);
    assert!(err.contains("swizzle tile"), "{err}");
}
