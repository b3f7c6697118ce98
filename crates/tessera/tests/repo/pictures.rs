//! Pictures rendered to pixels (resvg) and checked: a cell's fill is its index's colour, a hole has
//! the hole colour, a thread's cells have the thread's colour, the labels are in the SVG; the
//! example pictures under `docs/pictures/` are the current output.
//!
//! Regenerate the examples with `TESSERA_WRITE_PICTURES=1 cargo test -p tessera --test repo pictures::`.

use resvg::tiny_skia::{Pixmap, Transform};
use resvg::usvg;
use std::path::PathBuf;
use std::sync::{Arc, OnceLock};
use tessera::domain::{parse, Schedule};
use tessera::layout::{idx2crd, Layout};
use tessera::render::{
    alloc_svg, dag_svg, html, index_color, layout_svg, space_svg, thread_color, tma_svg, tv_svg,
    Mark, Picture, Rgb, TmaTiling, HOLE, SKIPPED,
};

fn repo() -> PathBuf {
    PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("../..")
}

fn fonts() -> Arc<usvg::fontdb::Database> {
    static DB: OnceLock<Arc<usvg::fontdb::Database>> = OnceLock::new();
    DB.get_or_init(|| {
        let mut db = usvg::fontdb::Database::new();
        db.load_system_fonts();
        Arc::new(db)
    })
    .clone()
}

fn render(p: &Picture) -> Pixmap {
    let opt = usvg::Options {
        fontdb: fonts(),
        ..usvg::Options::default()
    };
    let tree = usvg::Tree::from_str(&p.svg, &opt).expect("the SVG parses");
    let size = tree.size().to_int_size();
    assert_eq!(
        (size.width() as i64, size.height() as i64),
        (p.width, p.height)
    );
    let mut pix = Pixmap::new(size.width(), size.height()).expect("non-empty picture");
    resvg::render(&tree, Transform::default(), &mut pix.as_mut());
    pix
}

fn pixel(pix: &Pixmap, x: i64, y: i64) -> Rgb {
    let c = pix.pixel(x as u32, y as u32).expect("inside the picture");
    assert_eq!(c.alpha(), 255, "opaque background");
    Rgb(c.red(), c.green(), c.blue())
}

/// The fill seen in a cell, away from its borders and its centred label.
fn cell_fill(pix: &Pixmap, m: &Mark) -> Rgb {
    let a = pixel(pix, m.x + 5, m.y + 4);
    let b = pixel(pix, m.x + m.w - 5, m.y + m.h - 4);
    assert_eq!(a, b, "cell ({}, {}) is filled evenly", m.row, m.col);
    a
}

fn schedule(name: &str) -> Schedule {
    let path = repo().join("examples/schedules").join(name);
    parse(&std::fs::read_to_string(&path).expect("example schedule")).expect("parses")
}

#[test]
fn layout_cells_show_their_index_colour_and_label() {
    let l: Layout = "((2,4),(2,4)):((1,4),(2,16))".parse().unwrap();
    let p = layout_svg(&l).unwrap();
    let pix = render(&p);
    let (m0, m1) = (l.mode_at(0).unwrap(), l.mode_at(1).unwrap());
    assert_eq!(p.marks.len(), 64);
    for mark in &p.marks {
        // Independently: the layout at the coordinate ((m0, m1), (n0, n1)).
        let crd = tessera::layout::IntTuple::tuple(
            [
                idx2crd(mark.row as i64, &m0.shape()).unwrap(),
                idx2crd(mark.col as i64, &m1.shape()).unwrap(),
            ]
            .iter()
            .map(|t| t.as_ref()),
        );
        let i = l.crd2idx(&crd).unwrap();
        assert_eq!(cell_fill(&pix, mark), index_color(i), "{crd}");
        assert_eq!(mark.label, i.to_string());
        assert!(p.svg.contains(&format!(">{i}</text>")));
    }
}

#[test]
fn tv_cells_show_their_thread() {
    // CuTe's SM80 16x8 accumulator: 32 threads x 4 values over a 16x8 column-major tile.
    let tv: Layout = "((4,8),(2,2)):((32,1),(16,8))".parse().unwrap();
    let p = tv_svg(&tv, 16, 8).unwrap();
    let pix = render(&p);
    let (tm, vm) = (tv.mode_at(0).unwrap(), tv.mode_at(1).unwrap());
    for t in 0..32 {
        for v in 0..4 {
            let i = tm.eval(t).unwrap() + vm.eval(v).unwrap();
            let (row, col) = ((i % 16) as usize, (i / 16) as usize);
            let mark = &p.marks[row * 8 + col];
            assert_eq!(mark.label, format!("T{t}V{v}"));
            assert_eq!(cell_fill(&pix, mark), thread_color(t));
            assert!(p.svg.contains(&format!(">T{t}V{v}</text>")));
        }
    }
}

#[test]
fn figure1_holes_have_the_hole_colour() {
    let s = schedule("figure1_split_6_by_4.tsch");
    for p in [space_svg(&s).unwrap(), alloc_svg(&s).unwrap()] {
        let pix = render(&p);
        assert_eq!(p.marks.len(), 8);
        for m in &p.marks {
            let item = (m.row * 4 + m.col) as i64;
            let want = if item < 6 { index_color(item) } else { HOLE };
            assert_eq!(cell_fill(&pix, m), want, "cell {item}");
        }
        assert!(p.svg.contains(">5</text>"));
    }
}

#[test]
fn figure2_space_marks_17_holes() {
    let s = schedule("figure2_three_indivisible_splits.tsch");
    let p = space_svg(&s).unwrap();
    let pix = render(&p);
    let mut holes = 0;
    for (k, m) in p.marks.iter().enumerate() {
        // Loop point (i3, i4, i5, i6), innermost fastest.
        let (i3, i4, i5, i6) = (
            k as i64 / 16,
            k as i64 / 8 % 2,
            k as i64 / 4 % 2,
            k as i64 % 4,
        );
        let (i1, i2) = (i3 * 2 + i4, i5 * 4 + i6);
        let i0 = i1 * 6 + i2;
        let valid = i1 < 3 && i2 < 6 && i0 < 15;
        let fill = cell_fill(&pix, m);
        if valid {
            assert_eq!(fill, index_color(i0));
        } else {
            assert_eq!(fill, HOLE);
            holes += 1;
        }
        assert_eq!(m.label, i0.to_string());
    }
    assert_eq!(holes, 17);
}

#[test]
fn dag_nodes_are_drawn_with_their_fills() {
    for name in [
        "figure2_three_indivisible_splits.tsch",
        "listing2_merge_then_split.tsch",
        "resize_and_swizzle.tsch",
        "symbolic_undecided_split.tsch",
    ] {
        let s = schedule(name);
        let p = dag_svg(&s, &[]).unwrap();
        let pix = render(&p);
        assert_eq!(p.marks.len(), s.ids.len() + s.transforms.len());
        for m in &p.marks {
            assert_eq!(
                pixel(&pix, m.x + m.w / 2, m.y + 4),
                m.fill,
                "{name}: {}",
                m.label
            );
            assert!(p
                .svg
                .contains(&format!(">{}</text>", tessera::render::escape(&m.label))));
        }
        // Nodes of one layer never overlap.
        for a in &p.marks {
            for b in &p.marks {
                if a != b && a.row == b.row {
                    assert!(a.x + a.w <= b.x || b.x + b.w <= a.x, "{name}: overlap");
                }
            }
        }
    }
}

#[test]
fn tma_out_of_bound_elements_are_marked() {
    let t = TmaTiling {
        shape: vec![6, 10],
        box_shape: vec![4, 4],
        element_strides: vec![1, 2],
    };
    let p = tma_svg(&t).unwrap();
    let pix = render(&p);
    for m in &p.marks {
        let (r, c) = (m.row as i64, m.col as i64);
        let fill = cell_fill(&pix, m);
        if r >= 6 || c >= 10 {
            assert_eq!(fill, HOLE);
        } else if c % 4 % 2 == 1 {
            assert_eq!(fill, SKIPPED);
        } else {
            assert_eq!(fill, index_color(r / 4 * 3 + c / 4));
            assert_eq!(m.label, (r * 10 + c).to_string());
        }
    }
}

#[test]
fn output_is_deterministic() {
    let s = schedule("figure2_three_indivisible_splits.tsch");
    assert_eq!(dag_svg(&s, &[0]).unwrap(), dag_svg(&s, &[0]).unwrap());
    assert_eq!(space_svg(&s).unwrap(), space_svg(&s).unwrap());
    let h = html::schedule_report("figure2", None, &s).unwrap();
    assert_eq!(h, html::schedule_report("figure2", None, &s).unwrap());
}

/// The examples also committed as PNG (rendered here by resvg with the system's fonts).
const PNGS: [&str; 2] = ["tv_sm80_16x8", "figure2_space"];

/// The example pictures of `docs/pictures/`.
fn examples() -> Vec<(&'static str, Picture)> {
    let fig1 = schedule("figure1_split_6_by_4.tsch");
    let fig2 = schedule("figure2_three_indivisible_splits.tsch");
    let pred = tessera::domain::report::analyze(&fig2)
        .unwrap()
        .derivation
        .chosen;
    let l2 = schedule("listing2_merge_then_split.tsch");
    let l1 = schedule("listing1_split_then_merge.tsch");
    vec![
        (
            "layout_blocks",
            layout_svg(&"((2,4),(2,4)):((1,4),(2,16))".parse().unwrap()).unwrap(),
        ),
        (
            "tv_sm80_16x8",
            tv_svg(&"((4,8),(2,2)):((32,1),(16,8))".parse().unwrap(), 16, 8).unwrap(),
        ),
        ("figure1_alloc", alloc_svg(&fig1).unwrap()),
        ("figure2_dag", dag_svg(&fig2, &pred).unwrap()),
        ("figure2_space", space_svg(&fig2).unwrap()),
        ("figure3_merge_then_split_dag", dag_svg(&l2, &[]).unwrap()),
        ("figure3_split_then_merge_dag", dag_svg(&l1, &[]).unwrap()),
        (
            "tma_6x10_box_4x4",
            tma_svg(&TmaTiling {
                shape: vec![6, 10],
                box_shape: vec![4, 4],
                element_strides: vec![],
            })
            .unwrap(),
        ),
        ("ragged_10x12_by_4x8", ragged_grid()),
    ]
}

/// `zipped_divide((10,12):(12,1),(4,8))` over its padded 12x16 domain (72 holes).
fn ragged_grid() -> Picture {
    use tessera::algebra::ragged::{ragged_divide, Arrangement};
    use tessera::algebra::Tiler;
    let a = "(10,12):(12,1)".parse().unwrap();
    let t = Tiler::Tuple(vec![Tiler::Int(4), Tiler::Int(8)]);
    let r = ragged_divide(&a, &t, Arrangement::Zipped).unwrap();
    tessera::render::ragged::grid_svg(&r).unwrap()
}

#[test]
fn ragged_grid_marks_its_holes() {
    let p = ragged_grid();
    assert_eq!(p.marks.len(), 12 * 16);
    let pix = render(&p);
    let mut holes = 0;
    for (k, m) in p.marks.iter().enumerate() {
        let (row, col) = (k / 16, k % 16);
        let hole = row >= 10 || col >= 12;
        assert_eq!(m.fill == HOLE, hole, "cell ({row}, {col})");
        assert_eq!(cell_fill(&pix, m), m.fill);
        holes += hole as usize;
    }
    assert_eq!(holes, 72);
}

#[test]
fn docs_pictures_are_current() {
    let dir = repo().join("docs/pictures");
    let write = std::env::var_os("TESSERA_WRITE_PICTURES").is_some();
    for (name, p) in examples() {
        let path = dir.join(format!("{name}.svg"));
        if write {
            std::fs::create_dir_all(&dir).unwrap();
            std::fs::write(&path, &p.svg).unwrap();
            if PNGS.contains(&name) {
                render(&p)
                    .save_png(dir.join(format!("{name}.png")))
                    .unwrap();
            }
        } else {
            let on_disk = std::fs::read_to_string(&path).unwrap_or_default();
            assert!(
                on_disk == p.svg,
                "{} is stale: run TESSERA_WRITE_PICTURES=1 cargo test -p tessera --test repo pictures::",
                path.display()
            );
        }
    }
    let name = "figure2_three_indivisible_splits.tsch";
    let source = std::fs::read_to_string(repo().join("examples/schedules").join(name)).unwrap();
    let h = html::schedule_report(name, Some(&source), &parse(&source).unwrap()).unwrap();
    let path = dir.join("figure2_report.html");
    if write {
        std::fs::write(&path, &h).unwrap();
    } else {
        assert!(std::fs::read_to_string(&path).unwrap_or_default() == h);
    }
}

mod properties {
    use super::*;
    use proptest::collection::vec;
    use proptest::prelude::*;
    use tessera::domain::{eval, Extent, SplitKind};

    /// Builds a schedule from random operations on the current leaves; invalid steps are skipped.
    fn build(roots: &[i64], ops: &[(u8, usize, usize, i64, i64)]) -> Schedule {
        let mut s = Schedule::new();
        let mut n = 0;
        let mut fresh = || {
            n += 1;
            format!("I{n}")
        };
        for &e in roots {
            let _ = s.iter(&fresh(), Extent::Const(e));
        }
        for &(kind, a, b, x, y) in ops {
            let leaves = s.leaves();
            if leaves.is_empty() {
                break;
            }
            let (p, q) = (leaves[a % leaves.len()], leaves[b % leaves.len()]);
            let _ = match kind % 5 {
                0 => s
                    .split(p, x.rem_euclid(5) + 1, SplitKind::Inner, &fresh(), &fresh())
                    .map(|_| ()),
                1 => s
                    .split(p, x.rem_euclid(5) + 1, SplitKind::Outer, &fresh(), &fresh())
                    .map(|_| ()),
                2 if p != q => s.merge(p, q, &fresh()).map(|_| ()),
                3 => s
                    .resize(p, x.rem_euclid(5) - 2, y.rem_euclid(5) - 2, &fresh())
                    .map(|_| ()),
                4 if p != q => s.swizzle(p, q, &fresh(), &fresh()).map(|_| ()),
                _ => Ok(()),
            };
        }
        s
    }

    proptest! {
        #![proptest_config(ProptestConfig::with_cases(96))]

        #[test]
        fn schedules_never_panic_and_holes_match_enumeration(
            roots in vec(1i64..9, 1..3),
            ops in vec((any::<u8>(), any::<usize>(), any::<usize>(), any::<i64>(), any::<i64>()), 0..6),
        ) {
            let s = build(&roots, &ops);
            prop_assert!(dag_svg(&s, &[0]).is_ok());
            if let Ok(p) = space_svg(&s) {
                let space = eval::Space::new(&s).unwrap();
                let c = eval::count(&space).unwrap();
                prop_assert_eq!(p.marks.len() as u64, c.iterations);
                prop_assert_eq!(p.marks.iter().filter(|m| m.fill == HOLE).count() as u64, c.holes);
            }
            let _ = alloc_svg(&s);
            let _ = html::schedule_report("random", None, &s);
        }

        #[test]
        fn layouts_never_panic(
            shape in vec(1i64..7, 1..6),
            stride in vec(-40i64..40, 6),
            nest in 0usize..4,
            tile in (0i64..20, 0i64..20),
        ) {
            let k = shape.len();
            let leaf = |i: usize| (shape[i], stride[i]);
            // Nest the first `nest` leaves into a sub-mode when there is room.
            let (sh, st): (Vec<String>, Vec<String>) = (0..k).map(|i| {
                let (a, b) = leaf(i);
                (a.to_string(), b.to_string())
            }).unzip();
            let group = |v: &[String]| {
                let j = nest.min(v.len());
                if j >= 2 {
                    let mut parts = vec![format!("({})", v[..j].join(","))];
                    parts.extend(v[j..].iter().cloned());
                    format!("({})", parts.join(","))
                } else {
                    format!("({})", v.join(","))
                }
            };
            let text = format!("{}:{}", group(&sh), group(&st));
            let l: Layout = text.parse().unwrap();
            let p = layout_svg(&l).unwrap();
            prop_assert_eq!(p.marks.len() as i64, l.size().unwrap());
            let _ = tv_svg(&l, tile.0, tile.1);
        }

        #[test]
        fn tma_never_panics(
            shape in vec(any::<i64>(), 0..4),
            bx in vec(-2i64..9, 0..4),
            st in vec(-1i64..4, 0..3),
            small in vec(1i64..30, 2),
        ) {
            let _ = tma_svg(&TmaTiling { shape: shape.clone(), box_shape: bx.clone(), element_strides: st.clone() });
            let t = TmaTiling { shape: small.clone(), box_shape: vec![4, 8], element_strides: vec![] };
            let p = tma_svg(&t).unwrap();
            let oob = p.marks.iter().filter(|m| m.fill == HOLE).count() as i64;
            let padded = small[0].div_euclid(4) * 4 + if small[0] % 4 == 0 { 0 } else { 4 };
            let padded_c = small[1].div_euclid(8) * 8 + if small[1] % 8 == 0 { 0 } else { 8 };
            prop_assert_eq!(oob, padded * padded_c - small[0] * small[1]);
        }
    }
}
