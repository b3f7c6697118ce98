//! The grid renderer shared by every cell picture (layouts, TV layouts, iteration spaces,
//! allocations, TMA tilings).

use super::{check_cells, escape, text_width, Error, Mark, Picture, Result, Rgb, Svg};

/// One axis of a grid: its caption, one label per row (or column), and its block sizes.
#[derive(Clone, Debug, Default)]
pub(crate) struct Axis {
    /// Caption drawn beside the axis (may be empty).
    pub name: String,
    /// One label per row or column; the length is the axis size.
    pub labels: Vec<String>,
    /// Block sizes: the boundary before position `r` is drawn thicker by one pixel for every block
    /// size `b` (with `1 < b < size`) that divides `r`.
    pub blocks: Vec<u64>,
}

impl Axis {
    /// An axis of `n` positions labelled `0..n`.
    pub(crate) fn numbered(name: impl Into<String>, n: u64, blocks: Vec<u64>) -> Axis {
        Axis {
            name: name.into(),
            labels: (0..n).map(|i| i.to_string()).collect(),
            blocks,
        }
    }

    fn size(&self) -> usize {
        self.labels.len()
    }

    /// How many block sizes make the boundary before position `r` a block boundary.
    fn strength(&self, r: usize) -> usize {
        let n = self.size() as u64;
        self.blocks
            .iter()
            .filter(|&&b| b > 1 && b < n && (r as u64).checked_rem(b) == Some(0))
            .count()
    }
}

/// One cell: fill, text, tooltip.
#[derive(Clone, Debug)]
pub(crate) struct Cell {
    pub fill: Rgb,
    pub label: String,
    pub tooltip: String,
}

/// A whole grid picture.
#[derive(Clone, Debug)]
pub(crate) struct Grid {
    /// Lines of title (the first is bold).
    pub title: Vec<String>,
    pub rows: Axis,
    pub cols: Axis,
    /// Row-major, `rows × cols` cells.
    pub cells: Vec<Cell>,
    /// Legend entries below the grid.
    pub legend: Vec<(Rgb, String)>,
    /// A red frame around the top-left `rows × cols` region (a tensor inside its boxes).
    pub outline: Option<(usize, usize)>,
}

const MARGIN: i64 = 12;
const CELL_H: i64 = 26;
const CELL_FONT: i64 = 12;
const LABEL_FONT: i64 = 11;
const TITLE_FONT: i64 = 14;
const LINE: i64 = 20;
const OUTLINE: &str = "#d62728";

/// Whether white text reads better than black on `c`.
pub(crate) fn dark(c: Rgb) -> bool {
    (c.0 as u32 + c.1 as u32 + c.2 as u32) < 3 * 128
}

/// Draws the grid.
///
/// Pre: `cells.len() == rows × cols` and at most [`super::MAX_CELLS`]. Post: a [`Picture`] whose
/// marks are the cells, row-major.
pub(crate) fn draw(g: &Grid) -> Result<Picture> {
    let (nr, nc) = (g.rows.size(), g.cols.size());
    check_cells(
        || g.title.first().cloned().unwrap_or_default(),
        nr as u64,
        nc as u64,
    )?;
    if g.cells.len() != nr * nc || nr == 0 || nc == 0 {
        return Err(Error::BadInput {
            what: "grid",
            detail: format!("{} cells for {nr} x {nc}", g.cells.len()),
        });
    }
    let widest = g
        .cells
        .iter()
        .map(|c| text_width(&c.label, CELL_FONT))
        .chain(g.cols.labels.iter().map(|l| text_width(l, LABEL_FONT)))
        .max()
        .unwrap_or(0);
    let cell_w = (widest + 12).max(34);
    let title_h = LINE * g.title.len() as i64;
    let mut top = MARGIN + title_h + 6;
    let cols_caption_y = top + 14;
    if !g.cols.name.is_empty() {
        top += 18;
    }
    let col_labels_y = top + 13;
    top += 18;
    let grid_top = top;
    let rot_w = if g.rows.name.is_empty() { 0 } else { 20 };
    let row_label_w = g
        .rows
        .labels
        .iter()
        .map(|l| text_width(l, LABEL_FONT))
        .max()
        .unwrap_or(0)
        + 10;
    let grid_left = MARGIN + rot_w + row_label_w;
    let grid_w = cell_w * nc as i64;
    let grid_h = CELL_H * nr as i64;
    let legend_top = grid_top + grid_h + 12;
    let legend_h = 20 * g.legend.len() as i64;
    let width = [
        grid_left + grid_w + MARGIN,
        g.title
            .iter()
            .map(|t| text_width(t, TITLE_FONT) + 2 * MARGIN)
            .max()
            .unwrap_or(0),
        g.legend
            .iter()
            .map(|(_, t)| text_width(t, CELL_FONT) + 2 * MARGIN + 22)
            .max()
            .unwrap_or(0),
        grid_left + text_width(&g.cols.name, CELL_FONT) + MARGIN,
    ]
    .into_iter()
    .max()
    .unwrap_or(0);
    let height = legend_top + legend_h + MARGIN - if g.legend.is_empty() { 12 } else { 0 };

    let mut svg = Svg::new(width, height, g.title.first().map_or("", |s| s.as_str()));
    for (k, line) in g.title.iter().enumerate() {
        let y = MARGIN + TITLE_FONT + LINE * k as i64;
        if k == 0 {
            svg.bold(MARGIN, y, TITLE_FONT, "start", line);
        } else {
            svg.text(MARGIN, y, CELL_FONT, "start", "#333333", line);
        }
    }
    if !g.cols.name.is_empty() {
        svg.text(
            grid_left + grid_w / 2,
            cols_caption_y,
            CELL_FONT,
            "middle",
            "#333333",
            &g.cols.name,
        );
    }
    if !g.rows.name.is_empty() {
        let (x, y) = (MARGIN + 14, grid_top + grid_h / 2);
        svg.raw(&format!(
            "<text x=\"{x}\" y=\"{y}\" font-size=\"{CELL_FONT}\" text-anchor=\"middle\" \
             fill=\"#333333\" transform=\"rotate(-90 {x} {y})\">{}</text>\n",
            escape(&g.rows.name)
        ));
    }
    for (c, l) in g.cols.labels.iter().enumerate() {
        let x = grid_left + cell_w * c as i64 + cell_w / 2;
        svg.text(x, col_labels_y, LABEL_FONT, "middle", "#555555", l);
    }
    for (r, l) in g.rows.labels.iter().enumerate() {
        let y = grid_top + CELL_H * r as i64 + CELL_H / 2 + 4;
        svg.text(grid_left - 6, y, LABEL_FONT, "end", "#555555", l);
    }
    let mut marks = Vec::with_capacity(g.cells.len());
    for (k, cell) in g.cells.iter().enumerate() {
        let (r, c) = (k / nc, k % nc);
        let x = grid_left + cell_w * c as i64;
        let y = grid_top + CELL_H * r as i64;
        let tip = (!cell.tooltip.is_empty()).then_some(cell.tooltip.as_str());
        svg.rect(x, y, cell_w, CELL_H, cell.fill, "#8c8c8c", "1", tip);
        if !cell.label.is_empty() {
            let color = if dark(cell.fill) {
                "#ffffff"
            } else {
                "#000000"
            };
            svg.text(
                x + cell_w / 2,
                y + CELL_H / 2 + 4,
                CELL_FONT,
                "middle",
                color,
                &cell.label,
            );
        }
        marks.push(Mark {
            row: r,
            col: c,
            x,
            y,
            w: cell_w,
            h: CELL_H,
            fill: cell.fill,
            label: cell.label.clone(),
        });
    }
    let (right, bottom) = (grid_left + grid_w, grid_top + grid_h);
    for r in 1..nr {
        let k = g.rows.strength(r);
        if k > 0 {
            let y = grid_top + CELL_H * r as i64;
            svg.line(grid_left, y, right, y, "#000000", &(1 + k).to_string());
        }
    }
    for c in 1..nc {
        let k = g.cols.strength(c);
        if k > 0 {
            let x = grid_left + cell_w * c as i64;
            svg.line(x, grid_top, x, bottom, "#000000", &(1 + k).to_string());
        }
    }
    svg.raw(&format!(
        "<rect x=\"{grid_left}\" y=\"{grid_top}\" width=\"{grid_w}\" height=\"{grid_h}\" \
         fill=\"none\" stroke=\"#000000\" stroke-width=\"2\"/>\n"
    ));
    if let Some((orows, ocols)) = g.outline {
        let (w, h) = (cell_w * ocols.min(nc) as i64, CELL_H * orows.min(nr) as i64);
        svg.raw(&format!(
            "<rect x=\"{grid_left}\" y=\"{grid_top}\" width=\"{w}\" height=\"{h}\" \
             fill=\"none\" stroke=\"{OUTLINE}\" stroke-width=\"3\"/>\n"
        ));
    }
    for (k, (color, text)) in g.legend.iter().enumerate() {
        let y = legend_top + 20 * k as i64;
        svg.rect(MARGIN, y, 14, 14, *color, "#555555", "1", None);
        svg.text(MARGIN + 22, y + 12, CELL_FONT, "start", "#000000", text);
    }
    Ok(Picture {
        svg: svg.finish(),
        width,
        height,
        marks,
    })
}
