//! A ragged divide ([`crate::algebra::ragged`]) as nvFuser IterDomains: the holes, the minimal
//! predicate in the user's coordinates, the over-allocation of a padded tile, the correctness of
//! reductions over it, and the predicated loop nest as code.
//!
//! Translation (seed `002`): the leaves of a divided mode `A_i` are root IterDomains named after
//! the user's coordinate (`m`, or `m0, m1, …` for a hierarchical mode), merged innermost-last into
//! the mode's 1-D index `M{N}` (colexicographic, as CuTe orders a mode; Theorem 2 (merge)); `M` is
//! split by the tile's period `K` (the one split that may be indivisible: it creates the
//! `P − N` holes); the inner `W{K}` is cut into the digits of the index map `T = (B, B*)` by
//! divisible splits, one loop IterDomain per leaf of T. The predicate comes from
//! [`super::predicate::derive`] (Theorems 1–4, minimality by enumeration) on one schedule per
//! divided mode: the modes are independent, so the conjunction of their minimal predicates is the
//! minimal predicate of the whole padded domain.

use super::alloc::{allocation_info, Reduction};
use super::codegen::{emit, Lang};
use super::error::{Error, Result};
use super::eval::{count, Space};
use super::ir::{Allocation, Id, Schedule, SplitKind};
use super::predicate::{derive, Derivation};
use super::symbolic::Extent;
use crate::algebra::ragged::{Ragged, RaggedMode};

/// One bound of the predicate, in the user's coordinates: `coordinate < extent`.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Bound {
    /// The user's coordinate (a root IterDomain), e.g. `m`.
    pub coordinate: String,
    /// Its extent, e.g. 1000.
    pub extent: i64,
    /// The top-level mode of A it bounds (`None`: the whole of A, for a layout tiler).
    pub mode: Option<usize>,
}

impl std::fmt::Display for Bound {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        write!(f, "{} < {}", self.coordinate, self.extent)
    }
}

/// The IterDomains of one divided mode.
#[derive(Clone, Debug)]
pub struct ModeSchedule {
    /// Position in [`Ragged::modes`].
    pub mode: usize,
    /// The schedule of this mode alone.
    pub schedule: Schedule,
    /// The minimal predicate's derivation on it.
    pub derivation: Derivation,
    /// Holes counted by enumeration (`None` beyond the engine's limits).
    pub holes_enumerated: Option<u64>,
}

/// Everything the domain engine says about a ragged divide.
#[derive(Clone, Debug)]
pub struct RaggedAnalysis {
    /// One schedule per divided mode (untouched modes have no holes and no IterDomain split).
    pub modes: Vec<ModeSchedule>,
    /// All modes in one schedule (untouched modes as roots that are loop IterDomains).
    pub combined: Schedule,
    /// The minimal predicate in the user's coordinates (empty: no hole).
    pub predicate: Vec<Bound>,
    /// Each dropped in-bound condition with the theorem that makes it redundant.
    pub dropped: Vec<String>,
    /// Minimality was checked by enumeration for every mode.
    pub minimal_checked: bool,
    /// Slots of the tile domain allocated padded, and of them holes (over-allocation).
    pub allocated: i64,
    /// `allocated − size(A)`.
    pub over_allocation: i64,
    /// Correctness of a padded allocation filled by the predicated copy, per fill and reduction
    /// (checked by the engine's lowering simulation on every divided mode).
    pub correctness: Vec<CorrectnessRow>,
    /// The loop nest with its predicate, Python.
    pub python: String,
    /// The loop nest with its predicate, CUDA C++.
    pub cuda: String,
}

/// One row of the correctness table.
#[derive(Clone, Debug, PartialEq)]
pub struct CorrectnessRow {
    /// What the holes are filled with (`None`: left unwritten).
    pub fill: Option<f64>,
    /// The reduction that reads the buffer unpredicated.
    pub reduction: Reduction,
    /// Definition 1 (weak) holds.
    pub weak: bool,
    /// Definition 2 (strong) holds.
    pub strong: bool,
}

/// Default names of A's top-level modes' coordinates: `i` for rank 1, `m, n` for rank 2, `m, n, k`
/// for rank 3, `m, n, k, l` for rank 4, `x0, x1, …` beyond.
///
/// Pre: none. Post: `rank` distinct identifiers. Example: `default_names(2) == ["m", "n"]`.
pub fn default_names(rank: usize) -> Vec<String> {
    match rank {
        1 => vec!["i".into()],
        2..=4 => ["m", "n", "k", "l"][..rank]
            .iter()
            .map(|s| s.to_string())
            .collect(),
        _ => (0..rank).map(|i| format!("x{i}")).collect(),
    }
}

fn root_names(name: &str, leaves: usize) -> Vec<String> {
    if leaves == 1 {
        vec![name.to_string()]
    } else {
        (0..leaves).map(|k| format!("{name}{k}")).collect()
    }
}

/// Names of a mode's user coordinates (roots), innermost first, with each root's extent.
fn mode_roots(m: &RaggedMode, names: &[String]) -> Vec<(String, i64)> {
    match m.position {
        Some(i) => {
            let leaves: Vec<i64> = m.mode.leaves().map(|x| x.shape).collect();
            root_names(&names[i], leaves.len())
                .into_iter()
                .zip(leaves)
                .collect()
        }
        None => {
            let mut out = Vec::new();
            for (i, sub) in m.mode.modes().enumerate() {
                let leaves: Vec<i64> = sub.leaves().map(|x| x.shape).collect();
                out.extend(root_names(&names[i], leaves.len()).into_iter().zip(leaves));
            }
            out
        }
    }
}

fn mode_label(m: &RaggedMode, names: &[String]) -> String {
    match m.position {
        Some(i) => names[i].clone(),
        None => names.join(""),
    }
}

/// Adds the IterDomains of one mode to `s`; returns the loop IterDomains in T's leaf order, each
/// with its stride in the mode's padded index.
fn build_mode(s: &mut Schedule, m: &RaggedMode, names: &[String]) -> Result<Vec<(Id, i64)>> {
    let roots_ext = mode_roots(m, names);
    let roots: Vec<Id> = roots_ext
        .iter()
        .map(|(n, e)| s.iter(n, Extent::Const(*e)))
        .collect::<Result<_>>()?;
    let label = mode_label(m, names);
    if m.tiler.is_none() {
        let mut w = 1i64;
        let mut out = Vec::new();
        for (&r, (_, e)) in roots.iter().zip(&roots_ext) {
            out.push((r, w));
            w = w.saturating_mul(*e);
        }
        return Ok(out);
    }
    // Colexicographic 1-D index: the last leaf is outermost.
    let mut merged = *roots.last().expect("a mode has a leaf");
    for (k, &r) in roots.iter().enumerate().rev().skip(1) {
        let name = if k == 0 {
            format!("{label}_idx")
        } else {
            format!("{label}_m{k}")
        };
        merged = s.merge(merged, r, &name)?;
    }
    // T's leaves of size > 1, named tile / rest in T's order.
    let tile_n = m
        .tile_index()
        .map_or(0, |t| t.leaves().filter(|x| x.shape > 1).count());
    let rest_n = m
        .rest_index()
        .map_or(0, |t| t.leaves().filter(|x| x.shape > 1).count());
    let mut leaves: Vec<(String, i64, i64)> = Vec::new(); // (name, shape, stride)
    let mut ti = 0;
    let mut ri = 0;
    for (part, count, tag) in [(m.tile_index(), tile_n, "t"), (m.rest_index(), rest_n, "r")] {
        for x in part.iter().flat_map(|p| p.leaves().collect::<Vec<_>>()) {
            if x.shape <= 1 {
                continue;
            }
            let k = if tag == "t" { &mut ti } else { &mut ri };
            let name = if count == 1 {
                format!("{label}_{tag}")
            } else {
                format!("{label}_{tag}{k}")
            };
            *k += 1;
            leaves.push((name, x.shape, x.stride));
        }
    }
    let k = m.period;
    let outer_leaf = leaves.iter().position(|l| l.2 == k && k > 0);
    let outer_name = match outer_leaf {
        Some(p) => leaves[p].0.clone(),
        None => format!("{label}_o"),
    };
    // Digits of W{K}: leaves with stride < K, by ascending stride (divisible splits).
    let mut digits: Vec<usize> = (0..leaves.len())
        .filter(|&p| Some(p) != outer_leaf)
        .collect();
    digits.sort_by_key(|&p| leaves[p].2);
    let q = digits.len();
    let w_name = if q == 1 {
        leaves[digits[0]].0.clone()
    } else {
        format!("{label}_w")
    };
    let (outer, w) = s.split(merged, k, SplitKind::Inner, &outer_name, &w_name)?;
    let mut ids: Vec<Option<Id>> = vec![None; leaves.len()];
    if let Some(p) = outer_leaf {
        ids[p] = Some(outer);
    }
    let mut cur = w;
    if q == 1 {
        ids[digits[0]] = Some(w);
    }
    for j in 0..q.saturating_sub(1) {
        let outer_next = if j + 2 == q {
            leaves[digits[q - 1]].0.clone()
        } else {
            format!("{label}_w{}", j + 1)
        };
        let (o, i) = s.split(
            cur,
            leaves[digits[j]].1,
            SplitKind::Inner,
            &outer_next,
            &leaves[digits[j]].0,
        )?;
        ids[digits[j]] = Some(i);
        cur = o;
        if j + 2 == q {
            ids[digits[q - 1]] = Some(o);
        }
    }
    let mut out: Vec<(Id, i64)> = ids
        .into_iter()
        .zip(&leaves)
        .filter_map(|(i, l)| i.map(|i| (i, l.2)))
        .collect();
    if outer_leaf.is_none() {
        out.push((outer, k));
    }
    if q == 0 {
        out.push((w, 1));
    }
    Ok(out)
}

/// The IterDomains of one mode, as its own schedule, with the loop domain set.
///
/// Pre: `names` has one name per top-level mode of A. Post: a valid schedule whose loop points
/// are the mode's padded coordinates (`P` of them) and whose valid points are its `N` indices.
/// Example: mode `1000:4096` divided by 128 gives `m_r, m_t = split m by 128`.
pub fn mode_schedule(m: &RaggedMode, names: &[String]) -> Result<Schedule> {
    let mut s = Schedule::new();
    let l: Vec<Id> = build_mode(&mut s, m, names)?
        .into_iter()
        .map(|x| x.0)
        .collect();
    s.loop_domain = Some(l.clone());
    s.allocation = Some(Allocation {
        ids: l,
        strides: None,
    });
    Ok(s)
}

/// The user's coordinate names are identifiers (`[A-Za-z_][A-Za-z0-9_]*`) that do not collide:
/// distinct, and none is another followed by `_` (the analysis derives `m_r`, `m_t`, `m_idx`, …
/// from `m`). A failure is a parse error at the name's column in the comma-separated list.
fn check_names(names: &[String]) -> Result<()> {
    let mut column = 1;
    for (i, n) in names.iter().enumerate() {
        let bad = |message: String| Error::Parse {
            line: 1,
            column,
            message,
        };
        let mut chars = n.chars();
        let ident = chars
            .next()
            .is_some_and(|c| c.is_ascii_alphabetic() || c == '_')
            && chars.all(|c| c.is_ascii_alphanumeric() || c == '_');
        if !ident {
            return Err(bad(format!(
                "coordinate name {n:?} is not an identifier ([A-Za-z_][A-Za-z0-9_]*)"
            )));
        }
        for (j, o) in names.iter().enumerate().filter(|&(j, _)| j != i) {
            if o == n && j < i {
                return Err(bad(format!("coordinate name `{n}` is given twice")));
            }
            if n.strip_prefix(o.as_str())
                .is_some_and(|r| r.starts_with('_'))
            {
                return Err(bad(format!(
                    "coordinate name `{n}` collides with the names derived from `{o}` ({o}_r, \
                     {o}_t, {o}_idx, …)"
                )));
            }
        }
        column += n.len() + 1;
    }
    Ok(())
}

fn names_for(r: &Ragged, names: Option<&[String]>) -> Result<Vec<String>> {
    let rank = r.original.rank();
    match names {
        None => Ok(default_names(rank)),
        Some(n) if n.len() == rank => {
            check_names(n)?;
            Ok(n.to_vec())
        }
        Some(n) => Err(Error::BadLoop(format!(
            "{} coordinate names for a layout of rank {rank}",
            n.len()
        ))),
    }
}

/// Analyzes a ragged divide with the domain engine.
///
/// Pre: `names` (default [`default_names`]) has one identifier per top-level mode of A.
/// Post: `predicate` holds at a padded point iff the point is valid (every mode's padded index
/// below its size), and no bound can be dropped (checked by enumeration per mode when
/// `minimal_checked`); `over_allocation == r.holes`; `correctness` holds the engine's verdicts.
/// Example: `zipped_divide((1000,4096):(4096,1),(128,64))` gives the predicate `m < 1000`.
pub fn analyze(r: &Ragged, names: Option<&[String]>) -> Result<RaggedAnalysis> {
    let names = names_for(r, names)?;
    let mut modes = Vec::new();
    let mut predicate = Vec::new();
    let mut dropped = Vec::new();
    let mut minimal_checked = true;
    let mut correctness: Vec<CorrectnessRow> = Vec::new();
    let fills = [None, Some(0.0)];
    let reductions = [Reduction::Sum, Reduction::Max];
    for f in fills {
        for red in reductions {
            correctness.push(CorrectnessRow {
                fill: f,
                reduction: red,
                weak: true,
                strong: true,
            });
        }
    }
    for (k, m) in r.modes.iter().enumerate() {
        if m.tiler.is_none() {
            continue;
        }
        let s = mode_schedule(m, &names)?;
        let d = derive(&s)?;
        minimal_checked &= d.minimal_checked;
        let holes_enumerated = Space::new(&s).ok().map(|sp| count(&sp)).transpose()?;
        let holes_enumerated = holes_enumerated.map(|c| c.holes);
        for &id in &d.chosen {
            predicate.push(Bound {
                coordinate: s.name(id).to_string(),
                extent: s.concrete_extents()?[id],
                mode: m.position,
            });
        }
        let ext = s.concrete_extents()?;
        for j in &d.dropped {
            let via = match j.transform {
                Some(t) => format!(" on `{}`", s.describe(t)),
                None => String::new(),
            };
            let from: Vec<String> = j
                .premises
                .iter()
                .map(|&p| format!("{} < {}", s.name(p), ext[p]))
                .collect();
            dropped.push(format!(
                "{} < {}: {}{via}{}",
                s.name(j.id),
                ext[j.id],
                j.theorem,
                if from.is_empty() {
                    String::new()
                } else {
                    format!(" from {}", from.join(", "))
                }
            ));
        }
        // The verdicts in closed form, for every extent (a verdict never depends on how many
        // cells a buffer can list). The padded loop domain is allocated contiguously, so valid
        // points never share a slot, and the predicate holds exactly at valid points
        // (`predicate_iff_no_hole`): every lowering is weakly correct. A slot no valid point
        // writes exists iff the mode has a hole (P − N > 0), and it then holds garbage (no fill)
        // or the fill: strong iff there is no hole, or the fill is the reduction's identity.
        // `tests/algebra/ragged.rs` checks this against `check_lowering`'s enumeration.
        let holes = m.holes();
        for row in correctness.iter_mut() {
            let fill_is_identity = row.fill == Some(row.reduction.identity());
            row.strong &= holes == 0 || fill_is_identity;
        }
        modes.push(ModeSchedule {
            mode: k,
            schedule: s,
            derivation: d,
            holes_enumerated,
        });
    }
    // One schedule for all modes: code and allocation.
    let mut combined = Schedule::new();
    let mut loop_ids = Vec::new();
    for m in &r.modes {
        loop_ids.extend(
            build_mode(&mut combined, m, &names)?
                .into_iter()
                .map(|x| x.0),
        );
    }
    combined.loop_domain = Some(loop_ids.clone());
    combined.allocation = Some(Allocation {
        ids: loop_ids,
        strides: None,
    });
    let chosen: Vec<Id> = predicate
        .iter()
        .map(|b| combined.id(&b.coordinate))
        .collect::<Result<_>>()?;
    let info = allocation_info(&combined)?;
    let allocated = info
        .size
        .eval(&combined.facts)?
        .ok_or_else(|| Error::Unbound("size".into()))?;
    let over_allocation = info.over_allocation.unwrap_or(allocated - r.valid);
    // The loop nest past `MAX_CODE_BYTES` (thousands of modes) is replaced by a comment saying
    // so: the analysis itself stays available.
    let code = |lang: Lang, comment: &str| match emit(&combined, &chosen, lang) {
        Err(e @ Error::CodeTooLarge { .. }) => Ok(format!("{comment} not emitted: {e}\n")),
        other => other,
    };
    Ok(RaggedAnalysis {
        modes,
        python: code(Lang::Python, "#")?,
        cuda: code(Lang::Cuda, "//")?,
        combined,
        predicate,
        dropped,
        minimal_checked,
        allocated,
        over_allocation,
        correctness,
    })
}

/// All modes in one schedule whose loop domain is one padded IterDomain per mode (`m_pad{P}`,
/// the merge of the mode's loop IterDomains from the largest stride down): the loop points are the
/// padded coordinates in the user's order, as the iteration-space picture draws them.
///
/// Pre: as [`analyze`]. Post: `P_0 · P_1 · …` loop points, of which `size(A)` valid; the holes are
/// those of the ragged divide (the merges add none, Theorem 2 (merge)).
/// Example: `(10,12):(12,1)` by `(4,8)` gives the loop domain `[m_pad{12}, n_pad{16}]`.
pub fn padded_schedule(r: &Ragged, names: Option<&[String]>) -> Result<Schedule> {
    let names = names_for(r, names)?;
    let mut s = Schedule::new();
    let mut loop_ids = Vec::new();
    for m in &r.modes {
        let mut ids = build_mode(&mut s, m, &names)?;
        ids.sort_by_key(|x| std::cmp::Reverse(x.1));
        let label = mode_label(m, &names);
        let mut cur = ids[0].0;
        for (k, x) in ids.iter().enumerate().skip(1) {
            let name = if k + 1 == ids.len() {
                format!("{label}_pad")
            } else {
                format!("{label}_pad{k}")
            };
            cur = s.merge(cur, x.0, &name)?;
        }
        loop_ids.push(cur);
    }
    s.loop_domain = Some(loop_ids);
    Ok(s)
}

/// The predicate as one expression, `m < 1000 && n < 4100` (`true` when there is no hole).
///
/// Pre: none. Post: the bounds joined by `&&`. Example: `[m < 1000]` gives `"m < 1000"`.
pub fn predicate_text(p: &[Bound]) -> String {
    if p.is_empty() {
        "true".into()
    } else {
        p.iter()
            .map(|b| b.to_string())
            .collect::<Vec<_>>()
            .join(" && ")
    }
}
