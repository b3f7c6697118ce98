//! The TMA verdict for a ragged tile: which holes the hardware zero-fills, which it loads with
//! in-bound data, and whether the load is strongly correct for sum and max reductions (the FTTC
//! applied to the user's tile).
//!
//! A ragged divide by a by-mode tiler of element-strided tiles `b:e` over a tensor whose modes
//! are single leaves is a TMA load with, per mode, box `B = b·e` and element stride `e` (the box
//! spans the tile's period, so `e | B`): the boxing split of [`super::tiling`] is the ragged
//! divide's indivisible split, its holes lie past the tensor's end and are zero-filled. Modes are
//! put in driver order by stride (the stride-1 mode is dimension 0).
//!
//! [`report`] is the whole readable answer of `tessera eval --ragged`.

use super::error::Error;
use super::report::{validate, Finding};
use super::rules::Severity;
use super::tiling::{tiling_view, TilingView};
use super::{DataType, Request, Result};
use crate::algebra::ragged::{holes_text, Ragged};
use crate::domain::ragged::{analyze, predicate_text, RaggedAnalysis};
use crate::notation::ragged::{evaluate, Outcome};

/// The TMA verdict of a ragged tile.
#[derive(Clone, Debug)]
pub struct RaggedTma {
    /// The descriptor request the tile corresponds to (tensor order: outermost first).
    pub request: Request,
    /// The tiling view (holes per dimension, zero-filled or data-filled, FTTC).
    pub view: TilingView,
    /// Driver-rule errors of the request (empty: the driver accepts it).
    pub errors: Vec<Finding>,
    /// Holes of the whole padded domain the hardware zero-fills.
    pub zero_filled: i64,
    /// Holes loaded with in-bound data (element-stride holes inside the tensor).
    pub data_filled: i64,
    /// Strongly correct for a sum read unpredicated (every hole holds 0).
    pub strong_sum: bool,
    /// Strongly correct for a max read unpredicated (every hole holds −∞: only with no hole).
    pub strong_max: bool,
}

fn refuse(why: String) -> Error {
    Error::Tiling(format!("ragged tile as a TMA load: {why}"))
}

/// The TMA verdict of a ragged divide.
///
/// Pre: the tiler is by mode (or a rank-1 A with a leaf tiler); every mode of A is a single leaf
/// with a non-negative stride, one of them 1; every divided mode's tile is `b` or `b:e`
/// (otherwise [`Error::Tiling`] says why it is not a TMA box). Post: `zero_filled + data_filled
/// == ragged.holes`; `strong_sum` iff `data_filled == 0` and no dimension meets the FTTC
/// condition; `strong_max` iff there is no hole (TMA fills zero, not −∞).
/// Example: `(1000,4096):(4096,1)` by `(128,64)`: 98304 holes, all zero-filled; strongly correct
/// for sum, not for max.
pub fn ragged_verdict(r: &Ragged, dtype: DataType) -> Result<RaggedTma> {
    let a = &r.original;
    let mut dims: Vec<(i64, i64, i64, i64)> = Vec::new(); // (stride, size, box, element stride)
    for m in &r.modes {
        if m.position.is_none() && a.rank() > 1 {
            return Err(refuse(format!(
                "a layout tiler over the multi-mode {a} divides it as one 1-D domain, not a box"
            )));
        }
        let leaf: Vec<_> = m.mode.leaves().collect();
        if leaf.len() != 1 {
            return Err(refuse(format!("mode {} is hierarchical", m.mode)));
        }
        let (size, stride) = (leaf[0].shape, leaf[0].stride);
        let (b, e) = match &m.tiler {
            None => (size, 1),
            Some(t) => {
                let tl: Vec<_> = t.leaves().filter(|x| x.shape > 1).collect();
                match tl.as_slice() {
                    [] => (1, 1),
                    [x] => (x.shape, x.stride.max(1)),
                    _ => {
                        return Err(refuse(format!(
                            "the tile {t} has several modes (a box is one extent and one element stride per dimension)"
                        )))
                    }
                }
            }
        };
        let boxed = b
            .checked_mul(e)
            .ok_or_else(|| refuse("box size overflows".into()))?;
        dims.push((stride, size, boxed, e));
    }
    dims.sort_by_key(|d| std::cmp::Reverse(d.0));
    if dims.last().map(|d| d.0) != Some(1) {
        return Err(refuse(format!("no mode of {a} has stride 1")));
    }
    if let Some(d) = dims.last() {
        if d.3 > 1 {
            return Err(refuse(format!(
                "the contiguous mode has element stride {}: the driver ignores dimension 0's element stride",
                d.3
            )));
        }
    }
    let u = |v: i64| u64::try_from(v).map_err(|_| refuse(format!("negative value {v}")));
    let shape: Vec<u64> = dims.iter().map(|d| u(d.1)).collect::<Result<_>>()?;
    let boxes: Vec<u64> = dims.iter().map(|d| u(d.2)).collect::<Result<_>>()?;
    let mut request = Request::new(dtype, &shape, &boxes);
    request.strides = dims.iter().map(|d| u(d.0)).collect::<Result<_>>()?;
    request.element_strides = dims.iter().map(|d| u(d.3)).collect::<Result<_>>()?;
    let view = tiling_view(&request)?;
    let report = validate(&request);
    let errors: Vec<Finding> = report
        .findings
        .into_iter()
        .filter(|f| f.severity == Severity::Error)
        .collect();
    // Holes of the whole padded domain: a point is a hole if some dimension's coordinate is; it
    // is zero-filled if some coordinate lies past the tensor (TMA fills the whole element).
    let mut all = 1i64;
    let mut inside = 1i64;
    let mut valid = 1i64;
    for d in &view.dims {
        let padded = (d.boxes * d.box_size.div_ceil(d.element_stride) * d.element_stride) as i64;
        let size = d.size as i64;
        all = all.saturating_mul(padded);
        valid = valid.saturating_mul(size);
        // Padded coordinates inside the tensor: valid ones plus data-filled holes.
        inside = inside.saturating_mul(size + d.data_filled as i64);
    }
    let data_filled = inside - valid;
    let zero_filled = all - inside;
    Ok(RaggedTma {
        strong_sum: data_filled == 0 && view.strong_correctness,
        strong_max: all == valid,
        request,
        view,
        errors,
        zero_filled,
        data_filled,
    })
}

/// The verdict in one paragraph.
///
/// Pre: none. Post: names the hole counts and both reductions. Example: "98304 holes, all
/// zero-filled by the hardware …".
pub fn verdict_text(t: &RaggedTma) -> String {
    let mut s = format!(
        "TMA: tensor {:?}, box {:?}, element strides {:?} (tensor order){}\n",
        t.request.shape,
        t.request.box_dims,
        t.request.element_strides,
        if t.errors.is_empty() {
            ": the driver accepts the descriptor".to_string()
        } else {
            format!(
                ": the driver refuses it ({})",
                t.errors
                    .iter()
                    .map(|f| f.code().to_string())
                    .collect::<Vec<_>>()
                    .join(", ")
            )
        }
    );
    let holes = t.zero_filled + t.data_filled;
    s.push_str(&format!(
        "  {holes} holes: {} zero-filled by the hardware (out of the tensor), {} loaded with in-bound data (element strides)\n",
        t.zero_filled, t.data_filled
    ));
    s.push_str(&format!(
        "  sum over the tile with no predicate: {}\n",
        if t.strong_sum {
            "strongly correct (every hole holds 0)"
        } else {
            "not strongly correct (some hole holds in-bound data: FTTC)"
        }
    ));
    s.push_str(&format!(
        "  max over the tile with no predicate: {}",
        if t.strong_max {
            "strongly correct (no hole)"
        } else {
            "not strongly correct (holes hold 0, not -inf): predicate or fill -inf"
        }
    ));
    s
}

fn names(list: Option<&str>) -> Option<Vec<String>> {
    list.map(|l| l.split(',').map(|s| s.trim().to_string()).collect())
}

/// The report printed by `tessera eval --ragged`: the divide (layout, index map, each mode's
/// padding and holes), the slice when there is one, the minimal predicate, the padded allocation,
/// the correctness of predicated copies, the TMA verdict and, with `code`, the Python and CUDA C++
/// predicates.
///
/// Pre: none. Post: `Err` holds `error[CODE]: message`; `Ok` is plain text ending in a newline.
/// Example: `zipped_divide(10:1,4)` reports 12 padded points, 10 valid.
pub fn report(
    text: &str,
    names_list: Option<&str>,
    dtype: DataType,
    code: bool,
) -> std::result::Result<String, String> {
    let outcome = evaluate(text).map_err(|e| format!("error[{}]: {e}", e.code()))?;
    let (r, slice) = match &outcome {
        Outcome::Divide(r) => (r, None),
        Outcome::Slice(op, s, r) => (r, Some((*op, s))),
    };
    let nm = names(names_list);
    let an = analyze(r, nm.as_deref()).map_err(|e| format!("error[{}]: {e}", e.code()))?;
    let mut o = String::new();
    o.push_str(&format!("ragged {text}\n"));
    divide_lines(&mut o, r, &an);
    if let Some((op, s)) = slice {
        o.push_str(&format!("\n{op}:\n"));
        match (&s.layout, s.offset) {
            (Some(l), Some(off)) => o.push_str(&format!("  layout  {l} + offset {off}\n")),
            _ => o.push_str(&format!(
                "  index   {} + {} (no layout: A' o T is not admissible)\n",
                s.index, s.index_offset
            )),
        }
        let ext: Vec<String> = s
            .extents
            .iter()
            .map(|(v, t)| format!("{v} of {t}"))
            .collect();
        o.push_str(&format!(
            "  {} points, {} valid, {}; valid per mode: {}\n",
            s.points,
            s.valid,
            holes_text(s.holes),
            ext.join(", ")
        ));
    }
    o.push('\n');
    match ragged_verdict(r, dtype) {
        Ok(t) => o.push_str(&verdict_text(&t)),
        Err(e) => o.push_str(&format!("TMA: not a TMA box tiling: {e}")),
    }
    o.push('\n');
    if code {
        o.push_str("\nPython:\n");
        o.push_str(&an.python);
        o.push_str("\nCUDA C++:\n");
        o.push_str(&an.cuda);
    }
    Ok(o)
}

fn divide_lines(o: &mut String, r: &Ragged, an: &RaggedAnalysis) {
    match &r.layout {
        Some(l) => o.push_str(&format!(
            "  layout     {l}   (A' o T over the padded domain)\n"
        )),
        None => {
            o.push_str("  layout     none: A' o T is not admissible (the values are A(T(c)))\n")
        }
    }
    o.push_str(&format!(
        "  index map  {}   (padded coordinate -> padded index)\n",
        r.index
    ));
    for m in &r.modes {
        if let Some(t) = &m.tiler {
            let which = match m.position {
                Some(i) => format!("mode {i} ({})", m.mode),
                None => format!("{} as one 1-D domain", m.mode),
            };
            o.push_str(&format!(
                "  {which}: size {} by tile {t} (period {}): padded to {}, {}\n",
                m.size,
                m.period,
                m.padded_size,
                holes_text(m.holes())
            ));
            if let Ok(sites) = m.hole_sites(6) {
                if !sites.is_empty() {
                    let list: Vec<String> =
                        sites.iter().map(|(t, r)| format!("({t},{r})")).collect();
                    o.push_str(&format!(
                        "    holes at (tile, rest) = {}{} (T(tile, rest) >= {})\n",
                        list.join(", "),
                        if (sites.len() as i64) < m.holes() {
                            ", ..."
                        } else {
                            ""
                        },
                        m.size
                    ));
                }
            }
        }
    }
    o.push_str(&format!(
        "  {} padded points, {} valid, {}\n",
        r.points,
        r.valid,
        holes_text(r.holes)
    ));
    o.push_str(&format!(
        "  predicate  {}   (minimal{})\n",
        predicate_text(&an.predicate),
        if an.minimal_checked {
            ", checked by enumeration"
        } else {
            " by the theorems; enumeration skipped"
        }
    ));
    for d in &an.dropped {
        o.push_str(&format!("    dropped {d}\n"));
    }
    o.push_str(&format!(
        "  allocated padded: {} slots, {} over-allocated\n",
        an.allocated, an.over_allocation
    ));
    for row in &an.correctness {
        let fill = match row.fill {
            None => "holes left unwritten".to_string(),
            Some(v) => format!("holes filled with {v}"),
        };
        let verdict = if row.strong {
            "strongly correct"
        } else if row.weak {
            "weakly correct"
        } else {
            "not correct"
        };
        o.push_str(&format!(
            "  predicated copy, {fill}, read by {}: {verdict}\n",
            format!("{:?}", row.reduction).to_lowercase()
        ));
    }
}
