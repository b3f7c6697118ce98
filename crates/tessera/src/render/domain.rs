//! Iteration-domain pictures: the transform DAG (the three-splits and merge-split examples of ARCHITECTURE.md's glossary), the iteration space with
//! its holes (the 6-by-4 example) and the allocation with its over-allocated slots.

use super::grid::{dark, draw, Axis, Cell, Grid};
use super::{
    check_cells, escape, index_color, text_width, Error, Mark, Picture, Result, Rgb, Svg, HOLE,
    MAX_NODES,
};
use crate::domain::eval::Space;
use crate::domain::predicate::xor_closed;
use crate::domain::{Decision, Id, Schedule, SplitKind, Transform};

/// `I0{6}`.
fn id_label(s: &Schedule, id: Id) -> String {
    format!("{}{{{}}}", s.ids[id].name, s.ids[id].extent)
}

/// Axis over a list of IterDomains (outermost first): mixed-radix labels, blocks at the suffix
/// products (the innermost ID varies fastest).
fn id_axis(s: &Schedule, ids: &[Id], extents: &[i64]) -> Axis {
    let size: u64 = ids
        .iter()
        .fold(1u64, |a, &i| a.saturating_mul(extents[i] as u64));
    let mut blocks = Vec::new();
    let mut suffix = 1u64;
    for &i in ids.iter().skip(1).rev() {
        suffix = suffix.saturating_mul(extents[i] as u64);
        blocks.push(suffix);
    }
    let labels = (0..size)
        .map(|mut p| {
            let mut digits = vec![0u64; ids.len()];
            for k in (0..ids.len()).rev() {
                let e = extents[ids[k]] as u64;
                digits[k] = p % e;
                p /= e;
            }
            digits
                .iter()
                .map(|d| d.to_string())
                .collect::<Vec<_>>()
                .join(",")
        })
        .collect();
    let name = ids
        .iter()
        .map(|&i| id_label(s, i))
        .collect::<Vec<_>>()
        .join(" x ");
    Axis {
        name,
        labels,
        blocks,
    }
}

/// Splits the IDs of a grid into rows (the outer half) and columns (the inner half).
fn halves(ids: &[Id]) -> (&[Id], &[Id]) {
    ids.split_at(ids.len() / 2)
}

fn roots_text(roots: &[Id], idx: &[i64]) -> String {
    roots
        .iter()
        .map(|&r| idx[r].to_string())
        .collect::<Vec<_>>()
        .join(",")
}

fn hole_tooltip(s: &Schedule, space: &Space, idx: &[i64]) -> String {
    let out: Vec<String> = (0..s.ids.len())
        .filter(|&i| !space.in_bound(idx, i))
        .map(|i| {
            format!(
                "{} = {} not in [0, {})",
                s.ids[i].name, idx[i], space.extents[i]
            )
        })
        .collect();
    format!("hole: {}", out.join("; "))
}

/// The iteration space: one cell per loop point (the outer half of the loop IDs down, the inner
/// half across, innermost fastest), labelled with the root indices it reaches. A valid point is
/// filled with [`index_color`] of its root item (the row-major position over the root extents), so
/// two points visiting the same item share a colour; a hole (some IterDomain out of bound) is
/// filled with [`HOLE`] and still shows the root indices computed there.
///
/// Pre: concrete extents; the loop domain determines every index; at most `MAX_CELLS` points.
/// Post: marks are the points in loop order (row-major); errors are typed.
///
/// ```
/// let s = tessera::domain::parse("I0 = iter 6\nI1, I2 = split I0 by 4\n").unwrap();
/// let p = tessera::render::space_svg(&s).unwrap();
/// assert_eq!(p.marks.len(), 8);
/// assert_eq!(p.marks[6].fill, tessera::render::HOLE); // I0 = 6
/// assert_eq!(p.marks[5].label, "5");
/// ```
pub fn space_svg(s: &Schedule) -> Result<Picture> {
    let extents = s.concrete_extents()?;
    let loop_ids = s.loop_ids()?;
    let (row_ids, col_ids) = halves(&loop_ids);
    let size = |ids: &[Id]| {
        ids.iter()
            .fold(1u64, |a, &i| a.saturating_mul(extents[i] as u64))
    };
    check_cells(
        || "the iteration space".to_string(),
        size(row_ids),
        size(col_ids),
    )?;
    let space = Space::new(s)?;
    let roots = s.roots();
    let mut cells = Vec::new();
    let mut valid = 0u64;
    space.for_each(|idx| {
        let label = roots_text(&roots, idx);
        let cell = if space.valid(idx) {
            valid += 1;
            let item = space.root_item(idx).unwrap_or(0) as i64;
            Cell {
                fill: index_color(item),
                tooltip: format!("valid item {label}"),
                label,
            }
        } else {
            Cell {
                fill: HOLE,
                tooltip: hole_tooltip(s, &space, idx),
                label,
            }
        };
        cells.push(cell);
        Ok(true)
    })?;
    let points = cells.len() as u64;
    let loop_names: Vec<String> = loop_ids.iter().map(|&i| id_label(s, i)).collect();
    let root_names: Vec<&str> = roots.iter().map(|&r| s.name(r)).collect();
    draw(&Grid {
        title: vec![
            format!("Iteration space of loop [{}]", loop_names.join(", ")),
            format!(
                "{points} points, {valid} valid, {} holes; a cell shows the root index ({}) it reaches",
                points - valid,
                root_names.join(", ")
            ),
        ],
        rows: id_axis(s, row_ids, &extents),
        cols: id_axis(s, col_ids, &extents),
        cells,
        legend: vec![
            (index_color(0), "valid item (coloured by root item)".into()),
            (HOLE, "hole: some IterDomain out of bound".into()),
        ],
        outline: None,
    })
}

/// The allocation: one cell per slot of the allocation domain (outer half of its IDs down, inner
/// half across), filled with [`index_color`] of the root item a valid loop point stores there and
/// labelled with its root indices; a slot no valid point writes (an allocated hole) is filled with
/// [`HOLE`]. The 6-by-4 example: 6 items allocated as 2×4 with two holes.
///
/// Pre: concrete extents; the loop domain determines every index; at most `MAX_CELLS` slots.
/// Post: marks are the slots in row-major order; errors are typed.
///
/// ```
/// let s = tessera::domain::parse("I0 = iter 6\nI1, I2 = split I0 by 4\nalloc I1 I2\n").unwrap();
/// let p = tessera::render::alloc_svg(&s).unwrap();
/// assert_eq!(p.marks.len(), 8);
/// assert_eq!(p.marks.iter().filter(|m| m.fill == tessera::render::HOLE).count(), 2);
/// ```
pub fn alloc_svg(s: &Schedule) -> Result<Picture> {
    let extents = s.concrete_extents()?;
    let alloc = s.allocation()?;
    let ids = alloc.ids.clone();
    let (row_ids, col_ids) = halves(&ids);
    let size = |ids: &[Id]| {
        ids.iter()
            .fold(1u64, |a, &i| a.saturating_mul(extents[i] as u64))
    };
    let slots = check_cells(
        || "the allocation".to_string(),
        size(row_ids),
        size(col_ids),
    )? as usize;
    let space = Space::new(s)?;
    let roots = s.roots();
    let mut stored: Vec<Option<(i64, String)>> = vec![None; slots];
    space.for_each(|idx| {
        if !space.valid(idx) {
            return Ok(true);
        }
        let mut slot = 0usize;
        for &a in &ids {
            if !space.in_bound(idx, a) {
                return Ok(true);
            }
            slot = slot * extents[a] as usize + idx[a] as usize;
        }
        if let Some(cell) = stored.get_mut(slot) {
            if cell.is_none() {
                let item = space.root_item(idx).unwrap_or(0) as i64;
                *cell = Some((item, roots_text(&roots, idx)));
            }
        }
        Ok(true)
    })?;
    let written = stored.iter().filter(|c| c.is_some()).count();
    let cells = stored
        .into_iter()
        .map(|c| match c {
            Some((item, label)) => Cell {
                fill: index_color(item),
                tooltip: format!("holds item {label}"),
                label,
            },
            None => Cell {
                fill: HOLE,
                label: String::new(),
                tooltip: "hole: no valid item is stored here".into(),
            },
        })
        .collect();
    let names: Vec<String> = ids.iter().map(|&i| id_label(s, i)).collect();
    draw(&Grid {
        title: vec![
            format!("Allocation [{}]", names.join(", ")),
            format!(
                "{slots} slots, {written} hold valid items, {} holes (over-allocation)",
                slots - written
            ),
        ],
        rows: id_axis(s, row_ids, &extents),
        cols: id_axis(s, col_ids, &extents),
        cells,
        legend: vec![
            (index_color(0), "slot holding a valid item".into()),
            (HOLE, "hole: allocated but holds no valid item".into()),
        ],
        outline: None,
    })
}

#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord)]
enum Node {
    Id(Id),
    Tr(usize),
}

const ID_FILL: Rgb = Rgb(0xff, 0xff, 0xff);
const ROOT_FILL: Rgb = Rgb(0xe6, 0xe6, 0xe6);
const LOOP_FILL: Rgb = Rgb(0xcf, 0xe2, 0xff);
const OK_FILL: Rgb = Rgb(0xd5, 0xf0, 0xd5);
const HOLES_FILL: Rgb = Rgb(0xf8, 0xcf, 0xcd);
const UNKNOWN_FILL: Rgb = Rgb(0xff, 0xf0, 0xc0);
const OTHER_FILL: Rgb = Rgb(0xe4, 0xdd, 0xf7);
const PRED_STROKE: &str = "#d62728";

const FONT: i64 = 13;
const ROW_H: i64 = 58;
const ID_H: i64 = 30;
const TR_H: i64 = 26;
const GAP: i64 = 18;
const MARGIN: i64 = 14;

/// The transform DAG: IterDomain nodes `name{extent}` (roots grey, loop IDs blue, IDs of the
/// `predicated` set framed in dashed red) and operation nodes (`split f`, `outer split f`, `merge`,
/// `resize l, r`, `swizzle xor`; green when they create no hole, red when they do, yellow when the
/// facts do not decide it), joined by arrows from inputs to outputs, drawn top-down in layers (a
/// transform one layer below its lowest input). Outer outputs and X inputs attach on the left,
/// inner outputs and Y inputs on the right.
///
/// Pre: a valid schedule (transforms reference existing IDs); at most [`MAX_NODES`] nodes.
/// Post: marks are the IterDomains (in definition order), then the transforms; deterministic.
///
/// ```
/// let s = tessera::domain::parse("I0 = iter 15\nI1, I2 = split I0 by 6\n").unwrap();
/// let p = tessera::render::dag_svg(&s, &[0]).unwrap();
/// assert_eq!(p.marks.len(), 4);
/// assert!(p.svg.contains(">I0{15}</text>") && p.svg.contains(">split 6</text>"));
/// ```
pub fn dag_svg(s: &Schedule, predicated: &[Id]) -> Result<Picture> {
    s.validate()?;
    let (n_ids, n_tr) = (s.ids.len(), s.transforms.len());
    if n_ids + n_tr > MAX_NODES {
        return Err(Error::TooLarge {
            what: "the transform DAG".into(),
            unit: "nodes",
            size: (n_ids + n_tr) as u64,
            bound: MAX_NODES as u64,
        });
    }
    if n_ids == 0 {
        return Err(Error::BadInput {
            what: "schedule",
            detail: "it declares no IterDomain".into(),
        });
    }
    // Layers: IDs on even layers, transforms on odd ones.
    let mut id_layer = vec![0usize; n_ids];
    let mut tr_layer = vec![1usize; n_tr];
    for (t, tr) in s.transforms.iter().enumerate() {
        let l = tr.inputs().iter().map(|&i| id_layer[i]).max().unwrap_or(0) + 1;
        tr_layer[t] = l;
        for o in tr.outputs() {
            id_layer[o] = l + 1;
        }
    }
    let layers = id_layer
        .iter()
        .chain(tr_layer.iter())
        .max()
        .copied()
        .unwrap_or(0)
        + 1;
    let loop_ids = s.loop_ids().unwrap_or_default();
    let roots = s.roots();

    let label = |n: Node| -> String {
        match n {
            Node::Id(i) => id_label(s, i),
            Node::Tr(t) => match &s.transforms[t] {
                Transform::Split { factor, kind, .. } => match kind {
                    SplitKind::Inner => format!("split {factor}"),
                    SplitKind::Outer => format!("outer split {factor}"),
                },
                Transform::Merge { .. } => "merge".into(),
                Transform::Resize { left, right, .. } => format!("resize {left}, {right}"),
                Transform::Swizzle { .. } => "swizzle xor".into(),
            },
        }
    };
    let tr_fill = |t: usize| -> Result<Rgb> {
        let d = match &s.transforms[t] {
            Transform::Split { .. } => s.split_divisible(t)?,
            Transform::Merge { .. } => return Ok(OTHER_FILL),
            Transform::Resize { left, right, .. } => {
                if *left > 0 || *right > 0 {
                    Decision::No
                } else {
                    Decision::Yes
                }
            }
            Transform::Swizzle { x, y, .. } => xor_closed(s, *x, *y)?,
        };
        Ok(match d {
            Decision::Yes => OK_FILL,
            Decision::No => HOLES_FILL,
            Decision::Unknown => UNKNOWN_FILL,
        })
    };
    let width_of = |n: Node| -> i64 {
        let w = text_width(&label(n), FONT);
        match n {
            Node::Id(_) => w + 20,
            Node::Tr(_) => w + 26,
        }
    };

    // Place the layers top-down: each node wants to sit under its inputs; overlaps are pushed
    // right; ties keep definition order.
    let mut center = vec![0i64; n_ids + n_tr];
    let slot = |n: Node| match n {
        Node::Id(i) => i,
        Node::Tr(t) => n_ids + t,
    };
    let mut rows: Vec<Vec<Node>> = vec![Vec::new(); layers];
    for i in 0..n_ids {
        rows[id_layer[i]].push(Node::Id(i));
    }
    for t in 0..n_tr {
        rows[tr_layer[t]].push(Node::Tr(t));
    }
    for layer in rows.iter_mut() {
        let mut wanted: Vec<(i64, usize, Node)> = Vec::with_capacity(layer.len());
        for (k, &n) in layer.iter().enumerate() {
            let want = match n {
                Node::Tr(t) => {
                    let ins = s.transforms[t].inputs();
                    ins.iter().map(|&i| center[i]).sum::<i64>() / ins.len().max(1) as i64
                }
                Node::Id(i) => match s.ids[i].definition {
                    None => i64::MIN / 4,
                    Some(t) => {
                        let outs = s.transforms[t].outputs();
                        let c = center[n_ids + t];
                        if outs.len() == 2 {
                            let half = (width_of(n) + GAP) / 2;
                            if outs[0] == i {
                                c - half
                            } else {
                                c + half
                            }
                        } else {
                            c
                        }
                    }
                },
            };
            wanted.push((want, k, n));
        }
        wanted.sort();
        let mut right = i64::MIN / 4;
        layer.clear();
        for (want, _, n) in wanted {
            let w = width_of(n);
            let left = if want == i64::MIN / 4 {
                if right == i64::MIN / 4 {
                    0
                } else {
                    right + GAP
                }
            } else {
                (want - w / 2).max(if right == i64::MIN / 4 {
                    i64::MIN / 4
                } else {
                    right + GAP
                })
            };
            center[slot(n)] = left + w / 2;
            right = left + w;
            layer.push(n);
        }
    }
    let min_left = rows
        .iter()
        .flatten()
        .map(|&n| center[slot(n)] - width_of(n) / 2)
        .min()
        .unwrap_or(0);
    let shift = MARGIN - min_left;
    for c in center.iter_mut() {
        *c += shift;
    }
    let title_h = 44;
    let top = |layer: usize| MARGIN + title_h + ROW_H * layer as i64;
    let max_right = rows
        .iter()
        .flatten()
        .map(|&n| center[slot(n)] + width_of(n) - width_of(n) / 2)
        .max()
        .unwrap_or(0);
    let tr_fills = (0..n_tr).map(tr_fill).collect::<Result<Vec<Rgb>>>()?;
    let legend: Vec<(Rgb, &str, &str)> = [
        (ROOT_FILL, "#555555", "root IterDomain"),
        (LOOP_FILL, "#1f4e99", "loop IterDomain"),
        (ID_FILL, PRED_STROKE, "predicated (its bound is checked)"),
        (OK_FILL, "#555555", "transform creating no hole"),
        (HOLES_FILL, "#555555", "transform creating holes"),
        (UNKNOWN_FILL, "#555555", "undecided (symbolic extent)"),
        (OTHER_FILL, "#555555", "merge"),
    ]
    .into_iter()
    .filter(|&(fill, stroke, _)| {
        if stroke == PRED_STROKE {
            predicated.iter().any(|&i| i < n_ids)
        } else if fill == ROOT_FILL || fill == LOOP_FILL {
            true
        } else {
            tr_fills.contains(&fill)
        }
    })
    .collect();
    let legend_top = top(layers) - ROW_H + ID_H + 24;
    let loop_names: Vec<String> = loop_ids.iter().map(|&i| s.name(i).to_string()).collect();
    let title = format!(
        "Transform DAG: {n_ids} IterDomains, {n_tr} transforms; loop [{}]",
        loop_names.join(", ")
    );
    let width = (max_right + MARGIN)
        .max(text_width(&title, 14) + 2 * MARGIN)
        .max(260);
    let height = legend_top + 20 * legend.len() as i64 + MARGIN;
    let mut svg = Svg::new(width, height, &title);
    svg.raw(
        "<defs><marker id=\"arrow\" viewBox=\"0 0 10 10\" refX=\"10\" refY=\"5\" \
         markerWidth=\"7\" markerHeight=\"7\" orient=\"auto\"><path d=\"M0,0 L10,5 L0,10 z\" \
         fill=\"#444444\"/></marker></defs>\n",
    );
    svg.bold(MARGIN, MARGIN + 14, 14, "start", &title);
    svg.text(
        MARGIN,
        MARGIN + 34,
        12,
        "start",
        "#333333",
        "IterDomains name{extent}; operations between them, inputs above outputs",
    );
    let height_of = |n: Node| match n {
        Node::Id(_) => ID_H,
        Node::Tr(_) => TR_H,
    };
    let node_top = |n: Node, layer: usize| top(layer) + (ID_H - height_of(n)) / 2;
    // Edges first, so nodes are drawn over them.
    for (t, tr) in s.transforms.iter().enumerate() {
        let tn = Node::Tr(t);
        let (tc, tw) = (center[slot(tn)], width_of(tn));
        let t_top = node_top(tn, tr_layer[t]);
        let t_bottom = t_top + TR_H;
        let ins = tr.inputs();
        for (k, &i) in ins.iter().enumerate() {
            let x1 = center[i];
            let y1 = node_top(Node::Id(i), id_layer[i]) + ID_H;
            let x2 = attach(tc, tw, k, ins.len());
            edge(&mut svg, x1, y1, x2, t_top);
        }
        let outs = tr.outputs();
        for (k, &o) in outs.iter().enumerate() {
            let x1 = attach(tc, tw, k, outs.len());
            let x2 = center[o];
            let y2 = node_top(Node::Id(o), id_layer[o]);
            edge(&mut svg, x1, t_bottom, x2, y2);
        }
    }
    let mut marks = Vec::with_capacity(n_ids + n_tr);
    let mut node_marks: Vec<Option<Mark>> = vec![None; n_ids + n_tr];
    for (layer, row) in rows.iter().enumerate() {
        for (col, &n) in row.iter().enumerate() {
            let (w, h) = (width_of(n), height_of(n));
            let x = center[slot(n)] - w / 2;
            let y = node_top(n, layer);
            let text = label(n);
            let (fill, stroke, sw, dash, rx) = match n {
                Node::Id(i) => {
                    let pred = predicated.contains(&i);
                    let is_loop = loop_ids.contains(&i);
                    let fill = if is_loop {
                        LOOP_FILL
                    } else if roots.contains(&i) {
                        ROOT_FILL
                    } else {
                        ID_FILL
                    };
                    let stroke = if pred {
                        PRED_STROKE
                    } else if is_loop {
                        "#1f4e99"
                    } else {
                        "#555555"
                    };
                    let sw = if pred || is_loop { "2.5" } else { "1.5" };
                    (fill, stroke, sw, pred, 4)
                }
                Node::Tr(t) => (tr_fills[t], "#555555", "1", false, h / 2),
            };
            svg.raw(&format!(
                "<rect x=\"{x}\" y=\"{y}\" width=\"{w}\" height=\"{h}\" rx=\"{rx}\" fill=\"{}\" \
                 stroke=\"{stroke}\" stroke-width=\"{sw}\"{}><title>{}</title></rect>\n",
                fill.hex(),
                if dash {
                    " stroke-dasharray=\"5,3\""
                } else {
                    ""
                },
                escape(&match n {
                    Node::Id(i) => format!(
                        "{}{}",
                        id_label(s, i),
                        if pred_or_loop(predicated, &loop_ids, i).is_empty() {
                            String::new()
                        } else {
                            format!(" ({})", pred_or_loop(predicated, &loop_ids, i))
                        }
                    ),
                    Node::Tr(t) => s.describe(t),
                })
            ));
            let color = if dark(fill) { "#ffffff" } else { "#000000" };
            svg.text(x + w / 2, y + h / 2 + 5, FONT, "middle", color, &text);
            node_marks[slot(n)] = Some(Mark {
                row: layer,
                col,
                x,
                y,
                w,
                h,
                fill,
                label: text,
            });
        }
    }
    marks.extend(node_marks.into_iter().flatten());
    for (k, (fill, stroke, text)) in legend.iter().enumerate() {
        let y = legend_top + 20 * k as i64;
        let dash = if *stroke == PRED_STROKE {
            " stroke-dasharray=\"4,2\""
        } else {
            ""
        };
        svg.raw(&format!(
            "<rect x=\"{MARGIN}\" y=\"{y}\" width=\"22\" height=\"14\" rx=\"3\" fill=\"{}\" \
             stroke=\"{stroke}\" stroke-width=\"1.5\"{dash}/>\n",
            fill.hex()
        ));
        svg.text(MARGIN + 30, y + 12, 12, "start", "#000000", text);
    }
    Ok(Picture {
        svg: svg.finish(),
        width,
        height,
        marks,
    })
}

fn pred_or_loop(predicated: &[Id], loop_ids: &[Id], i: Id) -> String {
    let mut v = Vec::new();
    if loop_ids.contains(&i) {
        v.push("loop");
    }
    if predicated.contains(&i) {
        v.push("predicated");
    }
    v.join(", ")
}

/// Where the `k`-th of `n` edges attaches to a node centred at `c` of width `w`.
fn attach(c: i64, w: i64, k: usize, n: usize) -> i64 {
    if n < 2 {
        c
    } else if k == 0 {
        c - w / 4
    } else {
        c + w / 4
    }
}

fn edge(svg: &mut Svg, x1: i64, y1: i64, x2: i64, y2: i64) {
    let ym = (y1 + y2) / 2;
    svg.raw(&format!(
        "<path d=\"M{x1},{y1} C{x1},{ym} {x2},{ym} {x2},{y2}\" fill=\"none\" stroke=\"#444444\" \
         stroke-width=\"1.5\" marker-end=\"url(#arrow)\"/>\n"
    ));
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::domain::parse;

    const FIG2: &str = "I0 = iter 15\nI1, I2 = split I0 by 6\nI3, I4 = split I1 by 2\n\
                        I5, I6 = split I2 by 4\nloop I3 I4 I5 I6\n";

    #[test]
    fn figure2_space_has_17_holes_and_duplicates_share_colours() {
        let s = parse(FIG2).unwrap();
        let p = space_svg(&s).unwrap();
        assert_eq!(p.marks.len(), 32);
        assert_eq!(p.marks.iter().filter(|m| m.fill == HOLE).count(), 17);
        // Point (0,0,1,2): i2 = 6 is out of bound, i0 = 6 is in bound: a hole showing 6.
        assert_eq!(p.marks[6].fill, HOLE);
        assert_eq!(p.marks[6].label, "6");
        assert_eq!(p.marks[5].fill, index_color(5));
        assert!(p.svg.contains("32 points, 15 valid, 17 holes"));
    }

    #[test]
    fn figure2_dag_layers() {
        let s = parse(FIG2).unwrap();
        let p = dag_svg(&s, &[0, 2]).unwrap();
        assert_eq!(p.marks.len(), 7 + 3);
        // I0 on layer 0, I1 and I2 on layer 2, I3..I6 on layer 4.
        assert_eq!(p.marks[0].row, 0);
        assert_eq!((p.marks[1].row, p.marks[2].row), (2, 2));
        assert!(p.marks[3..7].iter().all(|m| m.row == 4));
        // Outer outputs sit left of inner ones.
        assert!(p.marks[1].x < p.marks[2].x && p.marks[3].x < p.marks[4].x);
        assert!(p.marks[4].x + p.marks[4].w <= p.marks[5].x);
        // Indivisible splits are red.
        assert!(p.marks[7..].iter().all(|m| m.fill == HOLES_FILL));
        assert!(p.svg.contains("stroke-dasharray=\"5,3\""));
    }

    #[test]
    fn resize_swizzle_and_symbolic() {
        let s = parse(
            "I0 = iter 6\nI1 = resize I0 by -1, 2\nX = iter 4\nY = iter 4\n\
             SX, SY = swizzle xor X, Y\nloop I1 SX SY\n",
        )
        .unwrap();
        let d = dag_svg(&s, &[]).unwrap();
        assert!(d.svg.contains(">resize -1, 2</text>") && d.svg.contains(">swizzle xor</text>"));
        let p = space_svg(&s).unwrap();
        assert_eq!(p.marks.len(), 7 * 16);
        let sym = parse("I0 = iter N\nI1, I2 = split I0 by 4\n").unwrap();
        assert!(dag_svg(&sym, &[]).is_ok());
        assert_eq!(space_svg(&sym).unwrap_err().code(), "unbound_symbol");
        assert_eq!(alloc_svg(&sym).unwrap_err().code(), "unbound_symbol");
    }

    #[test]
    fn big_spaces_are_refused() {
        let s = parse("I0 = iter 1000\nI1 = iter 1000\n").unwrap();
        assert_eq!(space_svg(&s).unwrap_err().code(), "too_large");
        assert_eq!(alloc_svg(&s).unwrap_err().code(), "too_large");
        assert!(dag_svg(&s, &[]).is_ok());
    }

    #[test]
    fn names_are_escaped() {
        let mut s = Schedule::new();
        s.iter("<a&b>", crate::domain::Extent::Const(3)).unwrap();
        let d = dag_svg(&s, &[]).unwrap();
        assert!(d.svg.contains("&lt;a&amp;b&gt;{3}"));
        assert!(!d.svg.contains("<a&b>"));
    }
}
