//! The bank picture: a shared-memory tile coloured by bank, the worst phase's collisions marked.

use super::grid::{draw, Axis, Cell, Grid};
use super::{check_cells, index_color, Error, Picture, Result, HOLE};
use crate::banks::{Dtype, Report, Smem, BANKS, WORD_BYTES};

/// Draws the tile of `smem` (rows = mode 0, columns = mode 1, as [`Smem::shape2`]): each element
/// is coloured by the bank of its first byte and labelled `b{bank}`; the elements the worst phase
/// of `report` reads in its worst bank are dark and labelled `T{thread}`.
///
/// Pre: the tile has at most [`super::MAX_CELLS`] cells. Post: one mark per element, row-major.
///
/// ```
/// use tessera::banks::{analyze, Access, Dtype, Instr, Smem};
/// let smem = Smem::Plain("(32,32):(32,1)".parse().unwrap());
/// let acc = Access { tv: "(32,1):(1,0)".parse().unwrap(), instr: Instr::Shared { width: None }, atom: None };
/// let f32 = Dtype::parse("f32").unwrap();
/// let r = analyze(&smem, &acc, f32).unwrap();
/// let p = tessera::render::banks_svg(&smem, f32, &r).unwrap();
/// assert_eq!(p.marks[0].label, "T0"); // column 0 is the worst phase: all in bank 0
/// assert_eq!(p.marks[1].label, "b1");
/// ```
pub fn banks_svg(smem: &Smem, dtype: Dtype, report: &Report) -> Result<Picture> {
    let (m, n) = smem.shape2().map_err(bad)?;
    check_cells(|| format!("the {m}x{n} shared-memory tile"), m, n)?;
    let mut marked: Vec<(u64, u64)> = report.worst.hits.iter().map(|&(t, _, i)| (i, t)).collect();
    marked.sort_unstable();
    let mut cells = Vec::with_capacity((m * n) as usize);
    for row in 0..m {
        for col in 0..n {
            let i = row + m * col;
            let off = smem.offset(i).map_err(bad)?;
            let byte = off * crate::banks::elem_bytes(dtype);
            let bank = (byte / WORD_BYTES) % BANKS;
            let hit = marked
                .binary_search_by_key(&i, |h| h.0)
                .ok()
                .map(|k| marked[k].1);
            cells.push(match hit {
                Some(t) => Cell {
                    fill: HOLE,
                    label: format!("T{t}"),
                    tooltip: format!(
                        "({row},{col}) offset {off}, bank {bank}: read by T{t} in the worst phase"
                    ),
                },
                None => Cell {
                    fill: index_color(bank as i64),
                    label: format!("b{bank}"),
                    tooltip: format!("({row},{col}) offset {off}, byte {byte}, bank {bank}"),
                },
            });
        }
    }
    let w = &report.worst;
    draw(&Grid {
        title: vec![
            format!("{} ({}), cells coloured by bank", smem.describe(), dtype.name),
            format!(
                "{} wavefronts for an ideal {} ({}-byte vectors); worst phase: instance {}, instruction {}, phase {}: {} distinct words in bank {} (dark)",
                report.wavefronts, report.ideal, report.vector_bytes, w.instance, w.instruction, w.phase, w.wavefronts, w.bank
            ),
        ],
        rows: Axis::numbered("m", m, vec![]),
        cols: Axis::numbered("n", n, vec![]),
        cells,
        legend: vec![(HOLE, format!("read by the worst phase in bank {}", w.bank))],
        outline: None,
    })
}

fn bad(e: crate::banks::BankError) -> Error {
    Error::BadInput {
        what: "shared-memory layout",
        detail: e.to_string(),
    }
}
