//! The TMA picture: a tensor tiled by boxes, out-of-bound elements marked.
//!
//! Plain inputs (no dependency on a TMA descriptor type): the tensor's shape, the box shape and
//! the element strides (`cuTensorMapEncodeTiled`'s `globalDim`, `boxDim`, `elementStrides`), all
//! listed outermost first (rows, then columns), like a C array; the CUDA API lists them innermost
//! first, so reverse them when wiring a descriptor.

use super::grid::{draw, Axis, Cell, Grid};
use super::{check_cells, index_color, Error, Picture, Result, Rgb, HOLE, SKIPPED};
use crate::obligation::arith;

/// A tensor of rank 1 or 2 tiled by TMA boxes, outermost dimension first.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct TmaTiling {
    /// Tensor extents (`rows, cols`, or one extent).
    pub shape: Vec<i64>,
    /// Box extents, one per tensor dimension.
    pub box_shape: Vec<i64>,
    /// Element strides: a box loads every `stride`-th element along each dimension. Empty means
    /// all 1.
    pub element_strides: Vec<i64>,
}

/// Draws the tensor tiled by boxes: the grid covers every box (`ceil(extent / box)` boxes per
/// dimension, starting at the origin); an element inside the tensor that a box loads is filled
/// with [`index_color`] of its box's number (row-major over boxes) and labelled with its row-major
/// offset in the tensor; an element a box skips (element stride) is [`SKIPPED`]; an element outside
/// the tensor is out of bound, filled with [`HOLE`] and, when loaded, labelled `oob` (TMA fills it
/// with zeros). Box boundaries are thick lines and the tensor is framed in red.
///
/// Pre: rank 1 or 2; `box_shape` (and `element_strides` when given) has the same rank; every
/// extent, box extent and stride ≥ 1; the boxes cover at most `MAX_CELLS` elements. Post: marks are
/// the grid's cells in row-major order; a bad input is [`Error::BadInput`], never a panic.
///
/// ```
/// use tessera::render::{tma_svg, TmaTiling, HOLE};
/// let t = TmaTiling { shape: vec![6, 10], box_shape: vec![4, 4], element_strides: vec![] };
/// let p = tma_svg(&t).unwrap();
/// assert_eq!(p.marks.len(), 8 * 12); // 2 × 3 boxes of 4 × 4
/// assert_eq!(p.marks[6 * 12].fill, HOLE); // row 6 is past the tensor's 6 rows
/// assert_eq!(p.marks[0].label, "0");
/// ```
pub fn tma_svg(t: &TmaTiling) -> Result<Picture> {
    let rank = t.shape.len();
    if !(1..=2).contains(&rank) {
        return Err(Error::BadInput {
            what: "tensor shape",
            detail: format!("rank {rank}; the TMA picture draws rank 1 or 2"),
        });
    }
    if t.box_shape.len() != rank {
        return Err(Error::BadInput {
            what: "box shape",
            detail: format!("{} box extents for a rank-{rank} tensor", t.box_shape.len()),
        });
    }
    let strides = if t.element_strides.is_empty() {
        vec![1; rank]
    } else {
        t.element_strides.clone()
    };
    if strides.len() != rank {
        return Err(Error::BadInput {
            what: "element strides",
            detail: format!("{} strides for a rank-{rank} tensor", strides.len()),
        });
    }
    for (what, v) in [
        ("tensor shape", &t.shape),
        ("box shape", &t.box_shape),
        ("element strides", &strides),
    ] {
        if let Some(bad) = v.iter().find(|&&x| x < 1) {
            return Err(Error::BadInput {
                what,
                detail: format!("{bad} in {v:?}; every entry must be >= 1"),
            });
        }
    }
    let pad = |v: &[i64]| -> [i64; 2] {
        if v.len() == 1 {
            [1, v[0]]
        } else {
            [v[0], v[1]]
        }
    };
    let (shape, bx, st) = (pad(&t.shape), pad(&t.box_shape), pad(&strides));
    let boxes = [
        arith::ceil_div(shape[0], bx[0]),
        arith::ceil_div(shape[1], bx[1]),
    ];
    let grid = [
        (boxes[0] as u64).saturating_mul(bx[0] as u64),
        (boxes[1] as u64).saturating_mul(bx[1] as u64),
    ];
    check_cells(
        || format!("the tiling of {:?} by {:?}", t.shape, t.box_shape),
        grid[0],
        grid[1],
    )?;
    let (gr, gc) = (grid[0] as i64, grid[1] as i64);
    let mut cells = Vec::with_capacity((gr * gc) as usize);
    let (mut oob, mut loaded_oob) = (0u64, 0u64);
    for r in 0..gr {
        for c in 0..gc {
            let b = (r / bx[0]) * boxes[1] + c / bx[1];
            let loaded = (r % bx[0]) % st[0] == 0 && (c % bx[1]) % st[1] == 0;
            let inside = r < shape[0] && c < shape[1];
            let offset = r * shape[1] + c;
            let coord = if rank == 1 {
                format!("({c})")
            } else {
                format!("({r},{c})")
            };
            let cell = match (inside, loaded) {
                (true, true) => Cell {
                    fill: index_color(b),
                    label: offset.to_string(),
                    tooltip: format!("element {coord}, offset {offset}, box {b}"),
                },
                (true, false) => Cell {
                    fill: SKIPPED,
                    label: offset.to_string(),
                    tooltip: format!("element {coord}: in box {b}, skipped by the element stride"),
                },
                (false, l) => {
                    oob += 1;
                    loaded_oob += u64::from(l);
                    Cell {
                        fill: HOLE,
                        label: if l { "oob".into() } else { String::new() },
                        tooltip: format!("{coord} is out of bound (box {b}); TMA fills zeros"),
                    }
                }
            };
            cells.push(cell);
        }
    }
    let dims = |v: &[i64]| {
        v.iter()
            .map(|x| x.to_string())
            .collect::<Vec<_>>()
            .join("x")
    };
    let mut title = vec![
        format!(
            "Tensor {} tiled by {} TMA boxes",
            dims(&t.shape),
            dims(&t.box_shape)
        ),
        format!(
            "{} boxes ({}), {oob} box elements out of bound ({loaded_oob} loaded as zeros)",
            boxes[0] * boxes[1],
            dims(&boxes[2 - rank..])
        ),
    ];
    if st != [1, 1] {
        title.push(format!("element strides {}", dims(&strides)));
    }
    let mut legend: Vec<(Rgb, String)> = vec![
        (
            index_color(0),
            "element loaded by a box (coloured by box)".into(),
        ),
        (HOLE, "out of bound: outside the tensor".into()),
        (Rgb(0xd6, 0x27, 0x28), "tensor bounds (red frame)".into()),
    ];
    if st != [1, 1] {
        legend.insert(1, (SKIPPED, "skipped by the element stride".into()));
    }
    let rows = if rank == 1 {
        Axis::numbered("", 1, vec![])
    } else {
        Axis::numbered("dim 0 (rows)", gr as u64, vec![bx[0] as u64])
    };
    let cols = Axis::numbered(
        if rank == 1 {
            "dim 0"
        } else {
            "dim 1 (columns, contiguous)"
        },
        gc as u64,
        vec![bx[1] as u64],
    );
    draw(&Grid {
        title,
        rows,
        cols,
        cells,
        legend,
        outline: Some((shape[0] as usize, shape[1] as usize)),
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    fn tiling(shape: &[i64], bx: &[i64], st: &[i64]) -> TmaTiling {
        TmaTiling {
            shape: shape.to_vec(),
            box_shape: bx.to_vec(),
            element_strides: st.to_vec(),
        }
    }

    #[test]
    fn counts_out_of_bound_elements() {
        let p = tma_svg(&tiling(&[6, 10], &[4, 4], &[])).unwrap();
        // 8 x 12 grid, tensor 60 elements: 36 out of bound.
        assert_eq!(p.marks.iter().filter(|m| m.fill == HOLE).count(), 36);
        assert!(p.svg.contains("36 box elements out of bound"));
        // Element (1, 5) is in box 1 (row 0 of boxes, column 1).
        assert_eq!(p.marks[12 + 5].fill, index_color(1));
        assert_eq!(p.marks[12 + 5].label, "15");
    }

    #[test]
    fn element_strides_skip() {
        let p = tma_svg(&tiling(&[4, 4], &[4, 4], &[1, 2])).unwrap();
        assert_eq!(p.marks[1].fill, SKIPPED);
        assert_eq!(p.marks[2].fill, index_color(0));
    }

    #[test]
    fn rank_one_and_errors() {
        let p = tma_svg(&tiling(&[10], &[4], &[])).unwrap();
        assert_eq!(p.marks.len(), 12);
        assert_eq!(p.marks[10].label, "oob");
        for bad in [
            tiling(&[], &[], &[]),
            tiling(&[2, 2, 2], &[1, 1, 1], &[]),
            tiling(&[4, 4], &[4], &[]),
            tiling(&[4, 4], &[0, 4], &[]),
            tiling(&[4, -4], &[4, 4], &[]),
            tiling(&[4, 4], &[4, 4], &[1]),
        ] {
            assert_eq!(tma_svg(&bad).unwrap_err().code(), "bad_input", "{bad:?}");
        }
        let huge = tiling(&[i64::MAX, i64::MAX], &[3, 3], &[]);
        assert_eq!(tma_svg(&huge).unwrap_err().code(), "too_large");
    }
}
