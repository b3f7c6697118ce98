//! Pictures: layouts, thread-value layouts, iteration spaces, transform DAGs and TMA tilings as
//! SVG, and self-contained HTML reports.
//!
//! Every picture is a hand-written SVG string (no dependency), deterministic (the same input gives
//! the same bytes), and bounded: a grid with more than [`MAX_CELLS`] cells or a DAG with more than
//! [`MAX_NODES`] nodes is refused with [`Error::TooLarge`]; no input panics.
//!
//! - [`layout`]: the 2-D grid of a layout's indices (hierarchical modes drawn as blocks, cells
//!   coloured by index) and the thread-value view of a TV layout (coloured by thread, labelled
//!   `T{t}V{v}`, as CUTLASS draws them).
//! - [`domain`]: an iteration domain's transform DAG, its iteration space with holes marked and its
//!   allocation with the over-allocated slots marked (the 6-by-4, three-splits and
//!   merge-split examples of ARCHITECTURE.md's glossary).
//! - [`tma`]: a tensor tiled by TMA boxes, out-of-bound elements marked (plain inputs).
//! - [`html`]: one self-contained HTML page holding the text report and the pictures.
//!
//! Colours are part of the contract (tests read them back from rendered pixels): a cell showing
//! index `i` is filled with [`index_color`]`(i)`, a thread `t` with [`thread_color`]`(t)`, a hole
//! or an out-of-bound element with [`HOLE`].

pub mod banks;
pub mod domain;
mod grid;
pub mod html;
pub mod layout;
pub mod ragged;
pub mod tma;

pub use banks::banks_svg;
pub use domain::{alloc_svg, dag_svg, space_svg};
pub use layout::{layout_svg, tv_svg};
pub use tma::{tma_svg, TmaTiling};

/// The largest grid drawn: rows × columns (64 Ki cells).
pub const MAX_CELLS: u64 = 1 << 16;

/// The largest transform DAG drawn: IterDomains plus transforms.
pub const MAX_NODES: usize = 1 << 14;

/// Why a picture could not be drawn.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub enum Error {
    /// The picture would exceed [`MAX_CELLS`] cells or [`MAX_NODES`] nodes.
    #[error("picture too large: {what} has {size} {unit}, more than the bound {bound}")]
    TooLarge {
        /// What would be drawn.
        what: String,
        /// `cells`, `nodes` or `pairs`.
        unit: &'static str,
        /// Its size (saturating).
        size: u64,
        /// The bound.
        bound: u64,
    },
    /// A layout obligation failed (evaluation, overflow, rank).
    #[error(transparent)]
    Layout(#[from] crate::Error),
    /// An iteration-domain obligation failed (symbolic extents, undetermined indices, ...).
    #[error(transparent)]
    Domain(#[from] crate::domain::Error),
    /// The inputs do not describe a picture (wrong rank, non-positive extent, ...).
    #[error("{what}: {detail}")]
    BadInput {
        /// Which input.
        what: &'static str,
        /// What is wrong with it.
        detail: String,
    },
}

impl Error {
    /// A stable snake_case code naming the failure (the inner code for wrapped errors).
    ///
    /// Pre: none. Post: one code per variant. Example: a 300×300 grid gives `"too_large"`.
    pub fn code(&self) -> &'static str {
        match self {
            Error::TooLarge { .. } => "too_large",
            Error::Layout(e) => e.code(),
            Error::Domain(e) => e.code(),
            Error::BadInput { .. } => "bad_input",
        }
    }
}

/// Result alias of the renderers.
pub type Result<T> = std::result::Result<T, Error>;

/// Checks a grid size against [`MAX_CELLS`].
///
/// Pre: `rows, cols >= 0`. Post: `Ok(rows * cols)` when at most [`MAX_CELLS`].
pub(crate) fn check_cells(what: impl FnOnce() -> String, rows: u64, cols: u64) -> Result<u64> {
    let n = rows.saturating_mul(cols);
    if n > MAX_CELLS {
        return Err(Error::TooLarge {
            what: what(),
            unit: "cells",
            size: n,
            bound: MAX_CELLS,
        });
    }
    Ok(n)
}

/// An sRGB colour.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct Rgb(pub u8, pub u8, pub u8);

impl Rgb {
    /// `#rrggbb`.
    ///
    /// Pre: none. Post: seven characters. Example: `Rgb(255, 0, 16).hex() == "#ff0010"`.
    pub fn hex(self) -> String {
        format!("#{:02x}{:02x}{:02x}", self.0, self.1, self.2)
    }
}

/// Fill of a hole (an iteration point or allocation slot outside every valid item) and of an
/// out-of-bound TMA element: dark grey, never produced by [`index_color`].
pub const HOLE: Rgb = Rgb(0x4a, 0x4a, 0x4a);

/// Fill of a cell that nothing maps to (a tile element no thread holds): white.
pub const EMPTY: Rgb = Rgb(0xff, 0xff, 0xff);

/// Fill of a tensor element inside a TMA box but skipped by the element stride: light grey.
pub const SKIPPED: Rgb = Rgb(0xf0, 0xf0, 0xf0);

/// The colour of index `i`: a pastel hue stepping by the golden angle, so neighbouring indices
/// get clearly different colours.
///
/// Pre: none (negative indices are fine). Post: every channel lies in `[165, 238]`, so the colour
/// is never [`HOLE`], [`EMPTY`] or [`SKIPPED`] and black text on it is readable; the same `i`
/// always gives the same colour.
///
/// ```
/// use tessera::render::{index_color, HOLE};
/// assert_eq!(index_color(5), index_color(5));
/// assert_ne!(index_color(5), index_color(6));
/// assert_ne!(index_color(5), HOLE);
/// ```
pub fn index_color(i: i64) -> Rgb {
    // 137.50776° is the golden angle; k stays small so the product is exact in f64.
    let k = i.rem_euclid(1 << 20) as f64;
    let hue = (k * 137.507_764) % 360.0;
    hsl(hue, 0.62, 0.80)
}

/// The colour of thread `t` in a thread-value picture (the same palette as [`index_color`]).
///
/// Pre: none. Post: `thread_color(t) == index_color(t)`. Example: `thread_color(0)` is the colour
/// of index 0.
pub fn thread_color(t: i64) -> Rgb {
    index_color(t)
}

/// HSL (hue in degrees, saturation and lightness in `[0, 1]`) to sRGB.
fn hsl(h: f64, s: f64, l: f64) -> Rgb {
    let c = (1.0 - (2.0 * l - 1.0).abs()) * s;
    let hp = h / 60.0;
    let x = c * (1.0 - ((hp % 2.0) - 1.0).abs());
    let (r, g, b) = match hp as u32 {
        0 => (c, x, 0.0),
        1 => (x, c, 0.0),
        2 => (0.0, c, x),
        3 => (0.0, x, c),
        4 => (x, 0.0, c),
        _ => (c, 0.0, x),
    };
    let m = l - c / 2.0;
    let to = |v: f64| ((v + m) * 255.0).round().clamp(0.0, 255.0) as u8;
    Rgb(to(r), to(g), to(b))
}

/// A rectangle of a picture that carries meaning: a grid cell or a DAG node. Tests use these to
/// find the pixels of a cell.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Mark {
    /// Grid row (DAG: the layer).
    pub row: usize,
    /// Grid column (DAG: the position in the layer).
    pub col: usize,
    /// Left edge in pixels.
    pub x: i64,
    /// Top edge in pixels.
    pub y: i64,
    /// Width in pixels.
    pub w: i64,
    /// Height in pixels.
    pub h: i64,
    /// Fill colour.
    pub fill: Rgb,
    /// The text written in it (may be empty).
    pub label: String,
}

/// A rendered picture: the SVG text, its size, and where its cells or nodes are.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Picture {
    /// The SVG document (no XML declaration, so it can be inlined in HTML).
    pub svg: String,
    /// Width in pixels.
    pub width: i64,
    /// Height in pixels.
    pub height: i64,
    /// Grid cells in row-major order, or DAG nodes (IterDomains, then transforms).
    pub marks: Vec<Mark>,
}

/// Escapes text for SVG or HTML (`&`, `<`, `>`, `"`, `'`).
///
/// Pre: none. Post: the result contains none of `<>"'` and only `&` starting an entity.
///
/// ```
/// assert_eq!(tessera::render::escape("a<b & \"c\""), "a&lt;b &amp; &quot;c&quot;");
/// ```
pub fn escape(s: &str) -> String {
    let mut o = String::with_capacity(s.len());
    for ch in s.chars() {
        match ch {
            '&' => o.push_str("&amp;"),
            '<' => o.push_str("&lt;"),
            '>' => o.push_str("&gt;"),
            '"' => o.push_str("&quot;"),
            '\'' => o.push_str("&#39;"),
            c if (c as u32) < 0x20 && c != '\n' && c != '\t' => o.push(' '),
            c => o.push(c),
        }
    }
    o
}

/// The font stack used by every picture.
pub(crate) const FONT: &str = "DejaVu Sans, Verdana, Arial, Helvetica, sans-serif";

/// Estimated width in pixels of `text` at `size` px (DejaVu Sans averages about 0.62 em).
pub(crate) fn text_width(text: &str, size: i64) -> i64 {
    let n = text.chars().count() as i64;
    (n * size * 62 + 99) / 100
}

/// A small SVG writer: every coordinate is an integer, so output is byte-for-byte stable.
pub(crate) struct Svg {
    pub(crate) out: String,
}

impl Svg {
    /// Opens a document of the given size with a white background.
    pub(crate) fn new(width: i64, height: i64, title: &str) -> Svg {
        let mut out = String::new();
        out.push_str(&format!(
            "<svg xmlns=\"http://www.w3.org/2000/svg\" width=\"{width}\" height=\"{height}\" \
             viewBox=\"0 0 {width} {height}\" font-family=\"{FONT}\">\n"
        ));
        out.push_str(&format!("<title>{}</title>\n", escape(title)));
        out.push_str(&format!(
            "<rect x=\"0\" y=\"0\" width=\"{width}\" height=\"{height}\" fill=\"#ffffff\"/>\n"
        ));
        Svg { out }
    }

    /// A filled rectangle with a thin border and an optional tooltip.
    #[allow(clippy::too_many_arguments)]
    pub(crate) fn rect(
        &mut self,
        x: i64,
        y: i64,
        w: i64,
        h: i64,
        fill: Rgb,
        stroke: &str,
        stroke_width: &str,
        tooltip: Option<&str>,
    ) {
        self.out.push_str(&format!(
            "<rect x=\"{x}\" y=\"{y}\" width=\"{w}\" height=\"{h}\" fill=\"{}\" stroke=\"{stroke}\" \
             stroke-width=\"{stroke_width}\"",
            fill.hex()
        ));
        match tooltip {
            Some(t) => self
                .out
                .push_str(&format!("><title>{}</title></rect>\n", escape(t))),
            None => self.out.push_str("/>\n"),
        }
    }

    /// Text; `anchor` is `start`, `middle` or `end`; `y` is the baseline.
    pub(crate) fn text(&mut self, x: i64, y: i64, size: i64, anchor: &str, color: &str, s: &str) {
        self.out.push_str(&format!(
            "<text x=\"{x}\" y=\"{y}\" font-size=\"{size}\" text-anchor=\"{anchor}\" \
             fill=\"{color}\">{}</text>\n",
            escape(s)
        ));
    }

    /// Bold text.
    pub(crate) fn bold(&mut self, x: i64, y: i64, size: i64, anchor: &str, s: &str) {
        self.out.push_str(&format!(
            "<text x=\"{x}\" y=\"{y}\" font-size=\"{size}\" text-anchor=\"{anchor}\" \
             font-weight=\"bold\" fill=\"#000000\">{}</text>\n",
            escape(s)
        ));
    }

    /// A straight line.
    pub(crate) fn line(&mut self, x1: i64, y1: i64, x2: i64, y2: i64, color: &str, width: &str) {
        self.out.push_str(&format!(
            "<line x1=\"{x1}\" y1=\"{y1}\" x2=\"{x2}\" y2=\"{y2}\" stroke=\"{color}\" \
             stroke-width=\"{width}\" stroke-linecap=\"square\"/>\n"
        ));
    }

    /// Raw markup (already escaped).
    pub(crate) fn raw(&mut self, s: &str) {
        self.out.push_str(s);
    }

    /// Closes the document.
    pub(crate) fn finish(mut self) -> String {
        self.out.push_str("</svg>\n");
        self.out
    }
}

impl crate::diagnostic::Diagnose for Error {
    fn diagnostic(&self) -> crate::diagnostic::Diagnostic {
        crate::diagnostic::Diagnostic::new(
            self.code(),
            crate::diagnostic::Severity::Error,
            self.to_string(),
        )
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn palette_is_pastel_and_distinct_from_special_fills() {
        for i in -1000..5000 {
            let c = index_color(i);
            for ch in [c.0, c.1, c.2] {
                assert!((165..=238).contains(&ch), "{i}: {c:?}");
            }
            assert!(c != HOLE && c != EMPTY && c != SKIPPED);
        }
        for i in 0..64 {
            assert_ne!(index_color(i), index_color(i + 1));
        }
    }

    #[test]
    fn escape_and_hex() {
        assert_eq!(Rgb(255, 0, 16).hex(), "#ff0010");
        assert_eq!(escape("<I0>&'"), "&lt;I0&gt;&amp;&#39;");
    }
}
