//! `tessera show --svg/--tv/--svg-tma`, `tessera schedule --svg`, `tessera report`: end to end.

use std::path::PathBuf;

mod common;

use common::tessera;

fn example(name: &str) -> String {
    common::example("schedules", name)
}

fn scratch(name: &str) -> PathBuf {
    let dir = std::env::temp_dir().join(format!("tessera-pictures-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    dir.join(name)
}

#[test]
fn show_svg_draws_the_index_grid() {
    let (code, out, err) = tessera(&["show", "--svg", "(2,(2,2)):(4,(2,1))"]);
    assert_eq!(code, 0, "{err}");
    assert!(out.starts_with("<svg xmlns=\"http://www.w3.org/2000/svg\""));
    for i in 0..8 {
        assert!(out.contains(&format!(">{i}</text>")), "index {i}");
    }
    // The table stays the default.
    let (code, out, _) = tessera(&["show", "(2,2):(1,2)"]);
    assert_eq!(code, 0);
    assert!(out.starts_with("(2,2):(1,2)\n"));
}

#[test]
fn show_tv_and_tma_write_files() {
    let path = scratch("tv.svg");
    let p = path.to_str().unwrap();
    let (code, out, err) = tessera(&[
        "show",
        "--tv",
        "((4,8),(2,2)):((32,1),(16,8))",
        "--tile",
        "16,8",
        "-o",
        p,
    ]);
    assert_eq!((code, out.as_str()), (0, ""), "{err}");
    let svg = std::fs::read_to_string(&path).unwrap();
    assert!(svg.contains(">T31V3</text>") && svg.contains(">T0V0</text>"));

    let (code, out, err) = tessera(&["show", "--svg-tma", "--shape", "6,10", "--box", "4,4"]);
    assert_eq!(code, 0, "{err}");
    assert!(out.contains("36 box elements out of bound") && out.contains(">oob</text>"));
}

#[test]
fn show_errors_are_typed() {
    let (code, _, err) = tessera(&["show", "--svg", "(300,300):(1,300)"]);
    assert_eq!(code, 1);
    assert!(err.starts_with("error[too_large]"), "{err}");
    let (code, _, err) = tessera(&["show", "--tv", "(4,2):(1,4)", "--tile", "2,2"]);
    assert_eq!(code, 1);
    assert!(err.contains("T0V1 maps to index 4"), "{err}");
    let (code, _, err) = tessera(&["show", "--svg", "composition("]);
    assert_eq!(code, 2);
    assert!(err.starts_with("error[parse_error]"), "{err}");
    let (code, _, err) = tessera(&["show", "--svg-tma", "--shape", "6,x", "--box", "4,4"]);
    assert_eq!(code, 2);
    assert!(err.contains("bad_argument"), "{err}");
    let (code, _, err) = tessera(&["show", "--svg-tma", "--shape", "2,2,2", "--box", "1,1,1"]);
    assert_eq!(code, 1);
    assert!(err.starts_with("error[bad_input]"), "{err}");
}

#[test]
fn schedule_svg_kinds() {
    let fig1 = example("figure1_split_6_by_4.tsch");
    let (code, out, err) = tessera(&["schedule", &fig1, "--svg", "dag"]);
    assert_eq!(code, 0, "{err}");
    assert!(out.contains(">I0{6}</text>") && out.contains(">split 4</text>"));
    let (code, out, _) = tessera(&["schedule", &fig1, "--svg", "space"]);
    assert_eq!(code, 0);
    assert!(out.contains("8 points, 6 valid, 2 holes"));
    let (code, out, _) = tessera(&["schedule", &fig1, "--svg", "alloc"]);
    assert_eq!(code, 0);
    assert!(out.contains("8 slots, 6 hold valid items, 2 holes"));
    let (code, _, err) = tessera(&["schedule", &fig1, "--svg", "tree"]);
    assert_eq!(code, 2);
    assert!(err.contains("unknown picture"), "{err}");
    let (code, _, err) = tessera(&[
        "schedule",
        &example("symbolic_extent.tsch"),
        "--svg",
        "space",
    ]);
    assert_eq!(code, 1);
    assert!(err.starts_with("error[unbound_symbol]"), "{err}");
}

#[test]
fn report_pages_are_self_contained() {
    let path = scratch("fig2.html");
    let (code, _, err) = tessera(&[
        "report",
        &example("figure2_three_indivisible_splits.tsch"),
        "-o",
        path.to_str().unwrap(),
    ]);
    assert_eq!(code, 0, "{err}");
    let h = std::fs::read_to_string(&path).unwrap();
    assert!(h.starts_with("<!DOCTYPE html>"));
    assert_eq!(h.matches("<svg").count(), 3);
    assert!(h.contains("predicate (ours)"));
    assert!(!h.contains("src=") && !h.contains("href=") && !h.contains("<script"));

    let layout = scratch("layout.txt");
    std::fs::write(
        &layout,
        "# a blocked product\nblocked_product((2,2):(1,2),\n (3,4):(1,3))\n",
    )
    .unwrap();
    let (code, out, err) = tessera(&["report", layout.to_str().unwrap()]);
    assert_eq!(code, 0, "{err}");
    assert!(out.contains("print_layout") && out.contains("<svg"));

    std::fs::write(&layout, "size(8:1)\n").unwrap();
    let (code, _, err) = tessera(&["report", layout.to_str().unwrap()]);
    assert_eq!(code, 1);
    assert!(err.contains("type_error"), "{err}");
    let (code, _, err) = tessera(&["report", "/nonexistent/file.tsch"]);
    assert_eq!(code, 2);
    assert!(err.starts_with("error[io]"), "{err}");
}
