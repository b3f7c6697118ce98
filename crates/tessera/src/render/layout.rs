//! Layout pictures: the grid of indices, and the thread-value view of a TV layout.

use super::grid::{draw, Axis, Cell, Grid};
use super::{check_cells, index_color, thread_color, Error, Picture, Result, EMPTY};
use crate::layout::{Layout, Mode, TreeRef};
use crate::obligation::arith;

/// Block sizes of an axis drawn from a (possibly hierarchical) mode: inside every tuple, the
/// boundaries between consecutive sub-modes, scaled by the sizes of the sub-modes before them
/// (colexicographic order: the first sub-mode varies fastest).
fn blocks(t: TreeRef<'_, Mode>, scale: u64, out: &mut Vec<u64>) {
    if t.is_leaf() {
        return;
    }
    let r = t.rank();
    let mut acc = scale;
    for (j, c) in t.modes().enumerate() {
        blocks(c, acc, out);
        let size = c
            .leaves()
            .fold(1u64, |a, m| a.saturating_mul(m.shape.max(1) as u64));
        acc = acc.saturating_mul(size);
        if j + 1 < r {
            out.push(acc);
        }
    }
}

/// The row and column axes of a layout picture: rank 1 is one row, rank 2 is mode 0 × mode 1,
/// higher ranks put modes 1.. side by side as the columns.
fn axes(l: &Layout) -> (Layout, Layout) {
    let unit = Layout::concat(std::iter::empty());
    if l.is_leaf() || l.rank() == 1 {
        return (unit, l.clone());
    }
    let modes: Vec<Layout> = l.modes().collect();
    let rows = modes[0].clone();
    let cols = if modes.len() == 2 {
        modes[1].clone()
    } else {
        Layout::concat(modes[1..].iter())
    };
    (rows, cols)
}

/// The picture of a layout: the grid of `L(m, n)` with rows = mode 0 and columns = mode 1 (a
/// rank-1 layout is one row; for rank ≥ 3, modes 1.. side by side form the columns), each cell
/// filled with [`index_color`] of its index and the index written in it. Inside a hierarchical
/// mode, the boundaries between sub-mode blocks are drawn thicker (one pixel more per level of
/// block that ends there).
///
/// Pre: `size(L) <= MAX_CELLS`. Post: the marks are the cells in row-major order, cell `(m, n)`
/// labelled with `L(m, n)`; errors are typed ([`Error::TooLarge`], overflow).
///
/// ```
/// let l: tessera::Layout = "(2,(2,2)):(4,(1,2))".parse().unwrap();
/// let p = tessera::render::layout_svg(&l).unwrap();
/// assert_eq!(p.marks.len(), 8);
/// assert_eq!(p.marks[1].label, "1"); // L(0, 1) = 1
/// assert!(p.svg.starts_with("<svg"));
/// ```
pub fn layout_svg(l: &Layout) -> Result<Picture> {
    let (rows, cols) = axes(l);
    let (nr, nc) = (rows.size()?, cols.size()?);
    check_cells(|| format!("the layout {l}"), nr as u64, nc as u64)?;
    let mut rb = Vec::new();
    blocks(rows.tree(), 1, &mut rb);
    let mut cb = Vec::new();
    blocks(cols.tree(), 1, &mut cb);
    let col_offsets = (0..nc)
        .map(|n| cols.eval(n))
        .collect::<crate::Result<Vec<_>>>()?;
    let mut cells = Vec::with_capacity((nr * nc) as usize);
    for m in 0..nr {
        let r0 = rows.eval(m)?;
        for &c0 in &col_offsets {
            let i = arith::add(r0, c0)?;
            cells.push(Cell {
                fill: index_color(i),
                label: i.to_string(),
                tooltip: String::new(),
            });
        }
    }
    let one_row = l.is_leaf() || l.rank() == 1;
    let (rname, cname) = if one_row {
        (String::new(), format!("mode 0: {cols}"))
    } else if l.rank() == 2 {
        (format!("mode 0: {rows}"), format!("mode 1: {cols}"))
    } else {
        (format!("mode 0: {rows}"), format!("modes 1..: {cols}"))
    };
    draw(&Grid {
        title: vec![
            l.to_string(),
            format!(
                "size {}, cosize {}; cells coloured by index",
                l.size()?,
                l.cosize()?
            ),
        ],
        rows: Axis::numbered(rname, nr as u64, rb),
        cols: Axis::numbered(cname, nc as u64, cb),
        cells,
        legend: vec![],
        outline: None,
    })
}

/// The thread-value picture of a TV layout, as CUTLASS draws it: the TV layout maps
/// `(thread, value)` (mode 0, mode 1) to a linear index of an `m × n` tile in column-major order
/// (`index = row + m · col`); the tile's cell holding `(t, v)` is filled with [`thread_color`]`(t)`
/// and labelled `T{t}V{v}`. A cell no pair maps to is white ([`EMPTY`]); when several pairs map to
/// one cell, the first in thread-major order is drawn and the tooltip lists the others.
///
/// Pre: `tv` has rank 2; `m, n >= 1`; `m · n <= MAX_CELLS` and `size(tv) <= 4 · MAX_CELLS`; every
/// pair maps inside the tile. Post: the marks are the tile's cells in row-major order; a pair
/// outside the tile is an [`Error::BadInput`] naming it.
///
/// ```
/// // 4 threads × 2 values over a 4×2 tile: thread t holds column-major elements t and t + 4.
/// let tv: tessera::Layout = "(4,2):(1,4)".parse().unwrap();
/// let p = tessera::render::tv_svg(&tv, 4, 2).unwrap();
/// assert_eq!(p.marks[1].label, "T0V1"); // row 0, column 1
/// assert_eq!(p.marks[1].fill, tessera::render::thread_color(0));
/// ```
pub fn tv_svg(tv: &Layout, m: i64, n: i64) -> Result<Picture> {
    if tv.is_leaf() || tv.rank() != 2 {
        return Err(Error::BadInput {
            what: "TV layout",
            detail: format!(
                "{tv} has rank {}, a TV layout has rank 2 (thread, value)",
                if tv.is_leaf() { 1 } else { tv.rank() }
            ),
        });
    }
    if m < 1 || n < 1 {
        return Err(Error::BadInput {
            what: "tile",
            detail: format!("the tile {m}x{n} must have positive extents"),
        });
    }
    check_cells(|| format!("the {m}x{n} tile"), m as u64, n as u64)?;
    let size = tv.size()?;
    if size as u64 > 4 * super::MAX_CELLS {
        return Err(Error::TooLarge {
            what: format!("the TV layout {tv}"),
            unit: "(thread, value) pairs",
            size: size as u64,
            bound: 4 * super::MAX_CELLS,
        });
    }
    let (tm, vm) = (
        tv.mode_at(0).unwrap_or_else(|| tv.clone()),
        tv.mode_at(1).unwrap_or_else(|| tv.clone()),
    );
    let (nt, nv) = (tm.size()?, vm.size()?);
    let cells_n = (m * n) as usize;
    let mut owner: Vec<Vec<(i64, i64)>> = vec![Vec::new(); cells_n];
    for t in 0..nt {
        let base = tm.eval(t)?;
        for v in 0..nv {
            let i = arith::add(base, vm.eval(v)?)?;
            if i < 0 || i >= m * n {
                return Err(Error::BadInput {
                    what: "TV layout",
                    detail: format!(
                        "T{t}V{v} maps to index {i}, outside the {m}x{n} tile [0, {})",
                        m * n
                    ),
                });
            }
            owner[i as usize].push((t, v));
        }
    }
    let mut cells = Vec::with_capacity(cells_n);
    for row in 0..m {
        for col in 0..n {
            let i = (row + m * col) as usize;
            let cell = match owner[i].split_first() {
                None => Cell {
                    fill: EMPTY,
                    label: String::new(),
                    tooltip: format!("({row},{col}): no thread holds it"),
                },
                Some((&(t, v), rest)) => {
                    let mut tip = format!("({row},{col}) index {i}: T{t} V{v}");
                    for (t2, v2) in rest {
                        tip.push_str(&format!(", also T{t2} V{v2}"));
                    }
                    Cell {
                        fill: thread_color(t),
                        label: format!("T{t}V{v}"),
                        tooltip: tip,
                    }
                }
            };
            cells.push(cell);
        }
    }
    let covered = owner.iter().filter(|o| !o.is_empty()).count();
    let mut title = vec![
        format!("TV layout {tv} on a {m}x{n} tile (column-major)"),
        format!("{nt} threads x {nv} values; cells coloured by thread, labelled T(thread)V(value)"),
    ];
    if covered < cells_n {
        title.push(format!(
            "{} of {cells_n} tile elements held by no thread (white)",
            cells_n - covered
        ));
    }
    draw(&Grid {
        title,
        rows: Axis::numbered("m", m as u64, vec![]),
        cols: Axis::numbered("n", n as u64, vec![]),
        cells,
        legend: vec![],
        outline: None,
    })
}

/// A swizzled (or any) layout's grid with each cell coloured by its 16-byte chunk within the
/// 128-byte row, which is also its shared-memory bank group (banks `4k..4k+3`): cell `(m, n)`
/// holds `f(m, n)` and is filled with the colour of `(f(m, n) · bytes / 16) mod 8`, so a swizzle
/// shows as the chunk colours permuting from row to row (CUTLASS's docs draw them this way).
///
/// Pre: the innermost layout has rank 1 or 2 with at most `MAX_CELLS` cells; `bytes ≥ 1` (the
/// element size). Post: one mark per cell, in row-major order; a legend names the 8 groups.
///
/// ```
/// let f: tessera::layout::AnyLayout = "Sw<3,3,3> o 0 o (8,64):(64,1)".parse().unwrap();
/// let p = tessera::render::layout::swizzle_svg(&f, 2).unwrap();
/// assert!(p.svg.contains("16-byte chunk"));
/// ```
pub fn swizzle_svg(f: &crate::layout::AnyLayout, bytes: i64) -> Result<Picture> {
    let l = f.shape_layout("show --svg")?.clone();
    if bytes < 1 {
        return Err(crate::Error::NonPositiveShape {
            value: bytes,
            context: "element size in bytes".into(),
        }
        .into());
    }
    let (rows, cols) = axes(&l);
    let (nr, nc) = (rows.size()?, cols.size()?);
    check_cells(|| format!("the layout {f}"), nr as u64, nc as u64)?;
    let mut rb = Vec::new();
    blocks(rows.tree(), 1, &mut rb);
    let mut cb = Vec::new();
    blocks(cols.tree(), 1, &mut cb);
    let rank2 = !(l.is_leaf() || l.rank() == 1);
    let mut cells = Vec::with_capacity((nr * nc) as usize);
    for m in 0..nr {
        for n in 0..nc {
            let i = if rank2 {
                f.crd2idx(&crate::layout::IntTuple::flat([m, n]))?
            } else {
                f.eval(n)?
            };
            let chunk = arith::mul(i, bytes)?.div_euclid(16).rem_euclid(8);
            cells.push(Cell {
                fill: index_color(chunk),
                label: i.to_string(),
                tooltip: format!(
                    "byte {} · chunk {chunk} · banks {}..{}",
                    i * bytes,
                    4 * chunk,
                    4 * chunk + 3
                ),
            });
        }
    }
    let legend = (0..8)
        .map(|k| {
            (
                index_color(k),
                format!("chunk {k}: banks {}-{}", 4 * k, 4 * k + 3),
            )
        })
        .collect();
    draw(&Grid {
        title: vec![
            f.to_string(),
            format!("{bytes}-byte elements; cells coloured by 16-byte chunk (= bank group) within each 128-byte row"),
        ],
        rows: Axis::numbered(if rank2 { format!("mode 0: {rows}") } else { String::new() }, nr as u64, rb),
        cols: Axis::numbered(format!("mode 1: {cols}"), nc as u64, cb),
        cells,
        legend,
        outline: None,
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    fn lay(s: &str) -> Layout {
        s.parse().unwrap()
    }

    #[test]
    fn blocks_follow_the_hierarchy() {
        let mut b = Vec::new();
        blocks(lay("((2,2),3):((1,2),4)").tree(), 1, &mut b);
        assert_eq!(b, vec![2, 4]);
        let mut b = Vec::new();
        blocks(lay("(2,(2,3)):(1,(2,4))").tree(), 1, &mut b);
        assert_eq!(b, vec![2, 4]);
        let mut b = Vec::new();
        blocks(lay("8:1").tree(), 1, &mut b);
        assert!(b.is_empty());
    }

    #[test]
    fn cells_hold_the_layout_values() {
        let l = lay("(2,(2,2)):(4,(1,2))");
        let p = layout_svg(&l).unwrap();
        let want = [0, 1, 2, 3, 4, 5, 6, 7];
        for (k, m) in p.marks.iter().enumerate() {
            assert_eq!(m.label, want[k].to_string());
            assert_eq!(m.fill, index_color(want[k]));
        }
        assert!(p.svg.contains(">(2,(2,2)):(4,(1,2))</text>"));
    }

    #[test]
    fn rank_one_and_rank_three() {
        let p = layout_svg(&lay("8:2")).unwrap();
        assert_eq!(p.marks.len(), 8);
        assert!(p.marks.iter().all(|m| m.row == 0));
        assert_eq!(p.marks[3].label, "6");
        let p = layout_svg(&lay("(2,3,4):(1,2,6)")).unwrap();
        assert_eq!(p.marks.len(), 24);
        assert_eq!(p.marks[12 + 11].label, "23");
    }

    #[test]
    fn too_large_is_refused() {
        let e = layout_svg(&lay("(300,300):(1,300)")).unwrap_err();
        assert_eq!(e.code(), "too_large");
        let e = layout_svg(&lay("(1000000000,1000000000):(1,1000000000)")).unwrap_err();
        assert_eq!(e.code(), "too_large");
    }

    #[test]
    fn tv_errors() {
        assert_eq!(
            tv_svg(&lay("(4,2):(1,4)"), 2, 2).unwrap_err().code(),
            "bad_input"
        );
        assert_eq!(tv_svg(&lay("8:1"), 8, 1).unwrap_err().code(), "bad_input");
        assert_eq!(
            tv_svg(&lay("(4,2):(1,4)"), 0, 8).unwrap_err().code(),
            "bad_input"
        );
        assert_eq!(
            tv_svg(&lay("(4,2):(1,4)"), 1 << 40, 1 << 40)
                .unwrap_err()
                .code(),
            "too_large"
        );
    }

    #[test]
    fn tv_marks_threads_and_holes() {
        // Broadcast: both values of a thread land on one element; half the tile is empty.
        let p = tv_svg(&lay("(4,2):(1,0)"), 4, 2).unwrap();
        assert_eq!(p.marks[0].label, "T0V0");
        assert_eq!(p.marks[1].fill, EMPTY);
        assert!(p.svg.contains("also T0 V1"));
    }
}
