//! Ragged divides: every divide, and `local_tile`/`local_partition`, for tilers that do not
//! divide the layout.
//!
//! A mode `A` of size `N` divided by a tile layout `B` whose *period* `K` (the reach of B sorted by
//! stride: `(B, complement(B, K))` is a bijection of `[0, K)`) does not divide `N` is padded to
//! `P = ⌈N / K⌉·K`. Its *index map* `T = (B, complement(B, P))` is a bijection of `[0, P)`; the
//! padded coordinates `c` with `T(c) >= N` are the holes, the others reach each of A's indices
//! exactly once. This is the seed's reading of an indivisible split (`002`, "Divisibility of
//! Split"): `Split(I{N}, K) = DivisibleSplit(Resize(I{N}, 0, P − N), K)`; the iteration-domain form (`domain::ragged`)
//! builds that split as IterDomains and derives the holes' minimal predicate.
//!
//! The values: `A'` is A with its outermost (last) leaf extended so `size(A') >= P`; A' agrees with
//! A on `[0, N)` (colexicographic order: a 1-D index below N has its last coordinate in range), so
//! `A' ∘ T` gives A's value at every valid coordinate. It is reported when it is a layout (always
//! for a rank-1 A; a hierarchical A may make the composition inadmissible, then only the index map
//! is given). Plain divides are unchanged (see [`super::divide`]).

use super::complement::complement_exact;
use super::composition::composition;
use super::{flat_arrangement, tile_unzip, Tiler};
use crate::error::{arith, Error, Obligation, Result};
use crate::layout::{Builder, IntTuple, Layout, Mode, Tree};

/// Points a local tile or partition may enumerate per mode.
///
/// Pre/Post: beyond it [`Error::TooLarge`]. Example: a 128-row tile enumerates 128 points.
pub const MAX_SLICE_POINTS: i64 = 1 << 24;

/// Which divide's arrangement of `(tile, rest)` a ragged divide returns.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Arrangement {
    /// `logical_divide`: mode by mode `(tile, rest)`.
    Logical,
    /// `zipped_divide`: `((tiles…), (rests…))`.
    Zipped,
    /// `tiled_divide`: `((tiles…), rest0, rest1, …)`.
    Tiled,
    /// `flat_divide`: `(tile0, tile1, …, rest0, rest1, …)`.
    Flat,
}

impl Arrangement {
    /// The arrangement of a divide named as in the expression language (`"zipped_divide"`).
    ///
    /// Pre: none. Post: `None` for any other name. Example: `parse("flat_divide") == Some(Flat)`.
    pub fn parse(op: &str) -> Option<Arrangement> {
        match op {
            "logical_divide" => Some(Arrangement::Logical),
            "zipped_divide" => Some(Arrangement::Zipped),
            "tiled_divide" => Some(Arrangement::Tiled),
            "flat_divide" => Some(Arrangement::Flat),
            _ => None,
        }
    }

    /// The divide's name. Pre: none. Post: `parse(name()) == Some(self)`. Example: `"tiled_divide"`.
    pub fn name(self) -> &'static str {
        match self {
            Arrangement::Logical => "logical_divide",
            Arrangement::Zipped => "zipped_divide",
            Arrangement::Tiled => "tiled_divide",
            Arrangement::Flat => "flat_divide",
        }
    }

    fn arrange(self, logical: &Layout, tiler: &Tiler) -> Result<Layout> {
        Ok(match self {
            Arrangement::Logical => logical.clone(),
            Arrangement::Zipped => tile_unzip(logical, tiler)?,
            Arrangement::Tiled => flat_arrangement(&tile_unzip(logical, tiler)?, false),
            Arrangement::Flat => flat_arrangement(&tile_unzip(logical, tiler)?, true),
        })
    }
}

/// One divided mode of a ragged divide (a top-level mode of A, or the whole of A for a layout
/// tiler), or an untouched mode (`tiler == None`).
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct RaggedMode {
    /// The top-level mode of A (`None`: the whole of A, divided by a layout tiler).
    pub position: Option<usize>,
    /// The mode `A_i` itself.
    pub mode: Layout,
    /// `N = size(A_i)`.
    pub size: i64,
    /// The tile layout B (`None`: the mode is left alone).
    pub tiler: Option<Layout>,
    /// The period `K` of B (`N` for an untouched mode).
    pub period: i64,
    /// `P = ⌈N / K⌉·K`.
    pub padded_size: i64,
    /// The index map `T = (B, complement(B, P))`, a bijection of `[0, P)` (untouched: the
    /// compact layout of `shape(A_i)`).
    pub index: Layout,
    /// `A'`: A_i with its last leaf extended to cover `[0, P)`.
    pub padded: Layout,
    /// `A' ∘ T`, when it is a layout.
    pub layout: Option<Layout>,
}

impl RaggedMode {
    /// Holes of this mode: `P − N`.
    ///
    /// Pre: none. Post: `0` iff K divides N. Example: 1000 rows by 128 give 24.
    pub fn holes(&self) -> i64 {
        self.padded_size - self.size
    }

    /// The first `limit` holes of this mode, as `(tile coordinate, rest coordinate)` (1-D,
    /// colexicographic within each part), in rest-then-tile order; empty beyond
    /// [`MAX_SLICE_POINTS`] padded points.
    ///
    /// Pre: none. Post: each listed coordinate has `T(tile, rest) >= N`. Example: 1000 rows by 128
    /// give `(104, 7), (105, 7), …`.
    pub fn hole_sites(&self, limit: usize) -> Result<Vec<(i64, i64)>> {
        let (Some(t), Some(r)) = (self.tile_index(), self.rest_index()) else {
            return Ok(Vec::new());
        };
        if self.padded_size > MAX_SLICE_POINTS || self.holes() == 0 {
            return Ok(Vec::new());
        }
        let (ts, rs) = (t.size()?, r.size()?);
        let mut out = Vec::new();
        for rc in 0..rs {
            let base = r.eval(rc)?;
            for tc in 0..ts {
                if out.len() >= limit {
                    return Ok(out);
                }
                if base + t.eval(tc)? >= self.size {
                    out.push((tc, rc));
                }
            }
        }
        Ok(out)
    }

    /// The layout of the tile part of the index map (`B`), if the mode is divided.
    ///
    /// Pre: none. Post: `Some` iff `tiler` is. Example: mode `1000:4096` by 128 gives `128:1`.
    pub fn tile_index(&self) -> Option<Layout> {
        self.tiler.as_ref().and_then(|_| self.index.mode_at(0))
    }

    /// The layout of the rest part of the index map (`complement(B, P)`), if divided.
    ///
    /// Pre: none. Post: `Some` iff `tiler` is. Example: mode `1000:4096` by 128 gives `8:128`.
    pub fn rest_index(&self) -> Option<Layout> {
        self.tiler.as_ref().and_then(|_| self.index.mode_at(1))
    }
}

/// The result of a ragged divide.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Ragged {
    /// Which divide.
    pub arrangement: Arrangement,
    /// The layout divided.
    pub original: Layout,
    /// The tiler.
    pub tiler: Tiler,
    /// The divided and untouched modes, in A's mode order (one entry for a layout tiler).
    pub modes: Vec<RaggedMode>,
    /// The arranged index map: padded coordinate → global padded index `g = Σ x_i·W_i`, where
    /// `x_i < P_i` is mode i's padded index and `W_i = Π_{k<i} P_k`. A bijection of `[0, points)`.
    pub index: Layout,
    /// The arranged `A' ∘ T` when every mode's composition is a layout: equal to A's value at
    /// every valid coordinate.
    pub layout: Option<Layout>,
    /// Points of the padded domain: `Π P_i`.
    pub points: i64,
    /// Valid points: `Π N_i = size(A)`.
    pub valid: i64,
    /// Holes: `points − valid`.
    pub holes: i64,
}

impl Ragged {
    /// Mode `i`'s padded index `x_i` inside the global padded index `g`.
    fn digits(&self, g: i64) -> impl Iterator<Item = i64> + '_ {
        let mut rest = g;
        self.modes.iter().map(move |m| {
            let x = rest % m.padded_size;
            rest /= m.padded_size;
            x
        })
    }

    /// Classifies a global padded index: `Some(i)` with `i` the original 1-D (colexicographic)
    /// index of A when the point is valid, `None` for a hole.
    ///
    /// Pre: `0 <= g < points`. Post: a bijection from the valid indices onto `[0, size(A))`.
    /// Example: 12:1 by 5 pads to 15; `g = 13` is a hole, `g = 7` is index 7.
    pub fn classify(&self, g: i64) -> Option<i64> {
        let mut orig = 0i64;
        let mut weight = 1i64;
        for (m, x) in self.modes.iter().zip(self.digits(g)) {
            if x >= m.size {
                return None;
            }
            orig += x * weight;
            weight *= m.size;
        }
        Some(orig)
    }

    /// The value of A at the padded coordinate with index map value `g` (`None` at a hole).
    ///
    /// Pre: `0 <= g < points`. Post: equals `layout(j)` for `g = index(j)` when `layout` exists.
    /// Example: zipped 12:1 by 5 at `g = 7` gives 7.
    pub fn value(&self, g: i64) -> Result<Option<i64>> {
        match self.classify(g) {
            Some(i) => self.original.eval(i).map(Some),
            None => Ok(None),
        }
    }

    /// Whether the tiler divides (no hole).
    ///
    /// Pre: none. Post: `holes == 0`. Example: `(8,8)` by `(4,4)` is exact.
    pub fn is_exact(&self) -> bool {
        self.holes == 0
    }
}

impl std::fmt::Display for Ragged {
    /// `layout` (or `index map T`) with the hole count.
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match &self.layout {
            Some(l) => write!(f, "{l}")?,
            None => write!(f, "index {}", self.index)?,
        }
        write!(
            f,
            " [{} points, {} valid, {}]",
            self.points,
            self.valid,
            holes_text(self.holes)
        )
    }
}

/// `"1 hole"`, `"24 holes"`.
///
/// Pre: none. Post: singular only for 1. Example: `holes_text(0) == "0 holes"`.
pub fn holes_text(n: i64) -> String {
    if n == 1 {
        "1 hole".into()
    } else {
        format!("{n} holes")
    }
}

/// The period of a tile layout: the largest reach `s·|d|` of its leaves of size > 1 (1 for a
/// layout of size 1). For an injective tractable B, `(B, complement(B, K))` tiles `[0, K)`.
fn period(b: &Layout) -> Result<i64> {
    let mut k = 1i64;
    for m in b.leaves().filter(|m| m.shape > 1) {
        if m.stride < 0 {
            return Err(Error::failed(
                Error::NotComplementable,
                "ragged_divide",
                Obligation::NonNegative {
                    what: "d",
                    context: format!(
                        "the stride of mode {}:{} of the tiler {b}",
                        m.shape, m.stride
                    ),
                    value: m.stride,
                },
            ));
        }
        if m.stride == 0 {
            return Err(Error::failed(
                Error::NonInjective,
                "ragged_divide",
                Obligation::Injective {
                    layout: b.to_string(),
                    witness: format!(
                        "the mode {}:0 maps all of its {} coordinates to one index",
                        m.shape, m.shape
                    ),
                },
            ));
        }
        k = k.max(arith::mul(m.shape, m.stride)?);
    }
    Ok(k)
}

/// Whether `t`, sorted by stride, is the mixed-radix bijection of `[0, p)` (each stride is the
/// product of the smaller leaves' shapes, and the product of all shapes is `p`).
fn is_bijection(t: &Layout, p: i64) -> bool {
    let mut leaves: Vec<Mode> = t.leaves().filter(|m| m.shape > 1).collect();
    leaves.sort_by_key(|m| m.stride);
    let mut cur = 1i64;
    for m in leaves {
        if m.stride != cur {
            return false;
        }
        match cur.checked_mul(m.shape) {
            Some(v) => cur = v,
            None => return false,
        }
    }
    cur == p
}

/// A with its last leaf extended so `size >= p` (A itself when already large enough).
fn extend_last(a: &Layout, p: i64) -> Result<Layout> {
    let n = a.size()?;
    if n >= p {
        return Ok(a.clone());
    }
    let count = a.tree().leaf_count();
    let last = a.leaves().last().map(|m| m.shape).unwrap_or(1);
    let inner = n / last;
    let grown = arith::ceil_div(p, inner);
    let mut k = 0usize;
    Ok(Layout::from_tree(a.t.try_map(|m| -> Result<Mode> {
        k += 1;
        Ok(if k == count {
            Mode::new(grown, m.stride)
        } else {
            m
        })
    })?))
}

fn divided_mode(a: &Layout, b: &Layout, position: Option<usize>) -> Result<RaggedMode> {
    let n = a.size()?;
    let k = period(b)?;
    let p = arith::mul(arith::ceil_div(n, k), k)?;
    let rest = complement_exact(b, &IntTuple::leaf(p))?;
    let index = Layout::concat([b, &rest]);
    if !is_bijection(&index, p) {
        return Err(Error::OutOfDomain {
            op: "ragged_divide",
            detail: format!(
                "the index map ({b}, complement({b}, {p})) = {index} is not a bijection of [0, {p}); \
                 the tiler must be injective with non-negative strides"
            ),
        });
    }
    let padded = extend_last(a, p)?;
    let layout = composition(&padded, &index).ok();
    Ok(RaggedMode {
        position,
        mode: a.clone(),
        size: n,
        tiler: Some(b.clone()),
        period: k,
        padded_size: p,
        index,
        padded,
        layout,
    })
}

fn untouched_mode(a: &Layout, position: usize) -> Result<RaggedMode> {
    let n = a.size()?;
    Ok(RaggedMode {
        position: Some(position),
        mode: a.clone(),
        size: n,
        tiler: None,
        period: n,
        padded_size: n,
        index: Layout::compact(&a.shape())?,
        padded: a.clone(),
        layout: Some(a.clone()),
    })
}

fn leaf_tiler(t: &Tiler) -> Result<Option<Layout>> {
    Ok(match t {
        Tiler::Layout(l) => Some(l.clone()),
        Tiler::Int(n) => Some(Layout::mode(*n, if *n == 1 { 0 } else { 1 })?),
        Tiler::Under => None,
        Tiler::Tuple(_) => {
            return Err(Error::RankMismatch {
                op: "ragged_divide",
                detail: "a by-mode tiler nested inside a mode is not supported by the ragged \
                         divide (give one layout, integer or `_` per top-level mode)"
                    .into(),
            })
        }
    })
}

/// Scales every stride of `l` by `w`.
fn scaled(l: &Layout, w: i64) -> Result<Layout> {
    Ok(Layout::from_tree(l.t.try_map(|m| {
        Ok::<_, Error>(Mode::new(m.shape, arith::mul(m.stride, w)?))
    })?))
}

/// The ragged form of a divide: `arrangement` of `A` by `tiler`, over the padded domain.
///
/// Pre: a tuple tiler has rank ≤ rank(A) and one layout, integer or `_` per mode; a layout tiler
/// divides the whole of A as a 1-D domain; every tile layout is injective with non-negative
/// strides and tractable ([`Error::NonInjective`], [`Error::NotComplementable`]).
/// Post: `index` is a bijection of `[0, points)`; `points = Π P_i`, `valid = size(A)`,
/// `holes = points − valid`; [`Ragged::classify`] maps the valid points one to one onto A's
/// indices, and where `layout` exists it gives A's value there. With no hole, `layout` is the
/// plain divide's result when that is admissible (tested). Seed `002`: an indivisible split is a
/// resize adding `P − N` holes followed by a divisible split.
///
/// ```
/// use tessera::{Layout, algebra::{Tiler, ragged::{ragged_divide, Arrangement}}};
/// let a: Layout = "(1000,4096):(4096,1)".parse().unwrap();
/// let t = Tiler::Tuple(vec![Tiler::Int(128), Tiler::Int(64)]);
/// let r = ragged_divide(&a, &t, Arrangement::Zipped).unwrap();
/// assert_eq!(r.layout.unwrap().to_string(), "((128,64),(8,64)):((4096,1),(524288,64))");
/// assert_eq!(r.holes, 24 * 4096);
/// ```
pub fn ragged_divide(a: &Layout, tiler: &Tiler, arrangement: Arrangement) -> Result<Ragged> {
    let modes: Vec<RaggedMode> = match tiler {
        Tiler::Tuple(ts) => {
            if ts.len() > a.rank() {
                return Err(Error::TooManyModes {
                    op: "ragged_divide",
                    tiler: ts.len(),
                    layout: a.rank(),
                });
            }
            let mut out = Vec::with_capacity(a.rank());
            for (i, m) in a.modes().enumerate() {
                match ts.get(i).map(leaf_tiler).transpose()?.flatten() {
                    Some(b) => out.push(divided_mode(&m, &b, Some(i))?),
                    None => out.push(untouched_mode(&m, i)?),
                }
            }
            out
        }
        Tiler::Under => (0..a.rank())
            .map(|i| untouched_mode(&a.mode_at(i).expect("mode"), i))
            .collect::<Result<_>>()?,
        leaf => {
            let b = leaf_tiler(leaf)?.expect("leaf tiler");
            vec![divided_mode(a, &b, None)?]
        }
    };
    let mut points = 1i64;
    let mut idx_parts = Vec::with_capacity(modes.len());
    for m in &modes {
        idx_parts.push(scaled(&m.index, points)?);
        points = arith::mul(points, m.padded_size)?;
    }
    let valid = a.size()?;
    let whole = matches!(tiler, Tiler::Layout(_) | Tiler::Int(_));
    if matches!(tiler, Tiler::Under) {
        // `_` leaves A alone (as the plain divides do).
        return Ok(Ragged {
            arrangement,
            original: a.clone(),
            tiler: tiler.clone(),
            modes,
            index: arrangement.arrange(&Layout::compact(&a.shape())?, tiler)?,
            layout: Some(arrangement.arrange(a, tiler)?),
            points,
            valid,
            holes: 0,
        });
    }
    let logical_index = if whole {
        idx_parts[0].clone()
    } else {
        concat_modes(&idx_parts)
    };
    let logical_value = if modes.iter().all(|m| m.layout.is_some()) {
        let parts: Vec<Layout> = modes.iter().filter_map(|m| m.layout.clone()).collect();
        Some(if whole {
            parts[0].clone()
        } else {
            concat_modes(&parts)
        })
    } else {
        None
    };
    let index = arrangement.arrange(&logical_index, tiler)?;
    let layout = match logical_value {
        Some(l) => Some(arrangement.arrange(&l, tiler)?),
        None => None,
    };
    Ok(Ragged {
        arrangement,
        original: a.clone(),
        tiler: tiler.clone(),
        modes,
        index,
        layout,
        points,
        valid,
        holes: arith::sub(points, valid)?,
    })
}

fn concat_modes(parts: &[Layout]) -> Layout {
    let mut b = Builder::new();
    b.open();
    for p in parts {
        b.push(p.tree());
    }
    b.close();
    Layout::from_tree(b.finish())
}

/// Number of hole points of the ragged divide of A by `tiler` (0 when the tiler divides).
///
/// Pre: as [`ragged_divide`]. Post: `Π P_i − size(A)`. Example: `(3,5):(5,1)` by `2:1` has 1.
pub fn hole_count(a: &Layout, tiler: &Tiler) -> Result<i64> {
    Ok(ragged_divide(a, tiler, Arrangement::Logical)?.holes)
}

/// A slice of a ragged divide: one tile (`local_tile`) or one thread's elements
/// (`local_partition`).
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct RaggedSlice {
    /// The layout of the slice over the padded domain (values of A at valid points), when the
    /// ragged divide's layout exists.
    pub layout: Option<Layout>,
    /// The index-map layout of the slice (into the global padded index, offset excluded).
    pub index: Layout,
    /// The value offset of the slice's first point (`None` when no layout exists).
    pub offset: Option<i64>,
    /// The global padded index of the slice's first point.
    pub index_offset: i64,
    /// Per divided mode: `(valid, total)` points of the slice along that mode.
    pub extents: Vec<(i64, i64)>,
    /// Points of the slice.
    pub points: i64,
    /// Valid points of the slice.
    pub valid: i64,
    /// `points − valid`.
    pub holes: i64,
}

/// How many of `base + part(j)`, `j < size(part)`, are below `n`.
fn count_below(part: &Layout, base: i64, n: i64) -> Result<i64> {
    let size = part.size()?;
    let leaves: Vec<Mode> = part.leaves().filter(|m| m.shape > 1).collect();
    // One leaf s:d (the common case): closed form.
    if leaves.len() <= 1 {
        let (s, d) = leaves.first().map_or((1, 0), |m| (m.shape, m.stride));
        if base >= n {
            return Ok(0);
        }
        if d == 0 {
            return Ok(s);
        }
        return Ok(s.min(arith::ceil_div(n - base, d)));
    }
    if size > MAX_SLICE_POINTS {
        return Err(Error::TooLarge {
            op: "ragged slice",
            what: format!("the slice {part}"),
            size,
            bound: MAX_SLICE_POINTS,
        });
    }
    let mut c = 0;
    for j in 0..size {
        if arith::add(base, part.eval(j)?)? < n {
            c += 1;
        }
    }
    Ok(c)
}

fn slice_common(
    r: &Ragged,
    fixed: &[i64],
    keep_tile: bool,
    op: &'static str,
) -> Result<RaggedSlice> {
    let divided: Vec<&RaggedMode> = r.modes.iter().collect();
    if fixed.len() != divided.len() {
        return Err(Error::RankMismatch {
            op,
            detail: format!(
                "{} coordinate entries for {} modes",
                fixed.len(),
                divided.len()
            ),
        });
    }
    let (mut points, mut valid, mut g0) = (1i64, 1i64, 0i64);
    let mut extents = Vec::new();
    let mut weight = 1i64;
    let mut idx_parts = Vec::new();
    let mut val_parts = Vec::new();
    let mut offset = Some(0i64);
    for (m, &c) in divided.iter().zip(fixed) {
        let (tile, rest) = match (m.tile_index(), m.rest_index()) {
            (Some(t), Some(rr)) => (t, rr),
            _ => {
                return Err(Error::RankMismatch {
                    op,
                    detail: format!("mode {} is not divided (`_`): tile every mode", m.mode),
                })
            }
        };
        let (fixed_part, free_part, free_mode) = if keep_tile {
            (rest, tile, 0usize)
        } else {
            (tile, rest, 1usize)
        };
        let fsize = fixed_part.size()?;
        if !(0..fsize).contains(&c) {
            return Err(Error::OutOfDomain {
                op,
                detail: format!("coordinate {c} is outside [0, {fsize}) of {fixed_part}"),
            });
        }
        let base = fixed_part.eval(c)?;
        let v = count_below(&free_part, base, m.size)?;
        let total = free_part.size()?;
        extents.push((v, total));
        points = arith::mul(points, total)?;
        valid = arith::mul(valid, v)?;
        g0 = arith::add(g0, arith::mul(base, weight)?)?;
        idx_parts.push(scaled(&free_part, weight)?);
        weight = arith::mul(weight, m.padded_size)?;
        match &m.layout {
            Some(l) => {
                let fixed_val = l.mode_at(1 - free_mode).expect("rank 2");
                let free_val = l.mode_at(free_mode).expect("rank 2");
                offset = match offset {
                    Some(o) => Some(arith::add(o, fixed_val.eval(c)?)?),
                    None => None,
                };
                val_parts.push(free_val);
            }
            None => offset = None,
        }
    }
    let single = r.modes.len() == 1 && r.modes[0].position.is_none();
    let pick = |parts: &[Layout]| {
        if single {
            parts[0].clone()
        } else {
            concat_modes(parts)
        }
    };
    let layout = if offset.is_some() {
        Some(pick(&val_parts))
    } else {
        None
    };
    Ok(RaggedSlice {
        layout,
        index: pick(&idx_parts),
        offset,
        index_offset: g0,
        extents,
        points,
        valid,
        holes: arith::sub(points, valid)?,
    })
}

fn coords(coord: &IntTuple) -> Result<Vec<i64>> {
    let r = coord.as_ref();
    if r.is_leaf() {
        return Ok(vec![r.leaf().expect("leaf")]);
    }
    r.modes()
        .map(|m| {
            m.leaf().ok_or_else(|| Error::RankMismatch {
                op: "local_tile",
                detail: format!("coordinate {coord}: give one integer per mode"),
            })
        })
        .collect()
}

/// CuTe's `local_tile(A, tiler, coord)`, ragged: the tile at rest coordinate `coord` of
/// `zipped_divide(A, tiler)` over the padded domain, with its holes.
///
/// Pre: as [`ragged_divide`], and every mode is divided (no `_`); `coord` has one integer per
/// mode (one for a layout tiler), each inside its mode's rest. Post: `layout` is mode 0 of the
/// zipped ragged layout, `offset` its rest value at `coord`; `extents[i] = (valid, tile size)`
/// along mode i; `valid` counts the tile's points inside A.
///
/// ```
/// use tessera::{Layout, algebra::{Tiler, ragged::ragged_local_tile}};
/// let a: Layout = "(1000,4096):(4096,1)".parse().unwrap();
/// let t = Tiler::Tuple(vec![Tiler::Int(128), Tiler::Int(64)]);
/// let s = ragged_local_tile(&a, &t, &"(7,0)".parse().unwrap()).unwrap();
/// assert_eq!((s.extents[0], s.holes), ((104, 128), 24 * 64));
/// ```
pub fn ragged_local_tile(a: &Layout, tiler: &Tiler, coord: &IntTuple) -> Result<RaggedSlice> {
    let r = ragged_divide(a, tiler, Arrangement::Logical)?;
    slice_common(&r, &coords(coord)?, true, "local_tile")
}

/// The tiler that divides `a` by a thread layout: the size of each of its modes (a single
/// integer when both are leaves).
fn thread_tiler(a: &Layout, threads: &Layout) -> Result<Tiler> {
    let sizes: Vec<Tiler> = threads
        .modes()
        .map(|m| m.size().map(Tiler::Int))
        .collect::<Result<_>>()?;
    Ok(if threads.is_leaf() && a.is_leaf() {
        sizes[0].clone()
    } else {
        Tiler::Tuple(sizes)
    })
}

/// The thread coordinate of `thread` in a thread layout: per top-level mode, the 1-D
/// (colexicographic) coordinate `c_i` with `threads(c) == thread` (CuTe's `get_flat_coord`).
fn thread_coord(threads: &Layout, thread: i64) -> Result<Vec<i64>> {
    let n = threads.size()?;
    if n > MAX_SLICE_POINTS {
        return Err(Error::TooLarge {
            op: "local_partition",
            what: format!("the thread layout {threads}"),
            size: n,
            bound: MAX_SLICE_POINTS,
        });
    }
    // CuTe finds the thread's coordinate by idx2crd through the strides, which is the thread's
    // only coordinate when the thread layout is injective; a non-injective one gives two threads
    // the same elements (and CuTe's coordinate differs from any search): refused with a witness.
    let mut vals: Vec<(i64, i64)> = (0..n)
        .map(|x| Ok((threads.eval(x)?, x)))
        .collect::<Result<_>>()?;
    vals.sort_unstable();
    if let Some(w) = vals.windows(2).find(|w| w[0].0 == w[1].0) {
        return Err(Error::failed(
            Error::NonInjective,
            "local_partition",
            crate::error::Obligation::Injective {
                layout: threads.to_string(),
                witness: format!(
                    "indices {} and {} of {threads} both map to {} (two threads would share elements)",
                    w[0].1, w[1].1, w[0].0
                ),
            },
        ));
    }
    for x in 0..n {
        if threads.eval(x)? == thread {
            let mut out = Vec::new();
            let mut rest = x;
            for m in threads.modes() {
                let s = m.size()?;
                out.push(rest % s);
                rest /= s;
            }
            return Ok(out);
        }
    }
    Err(Error::OutOfDomain {
        op: "local_partition",
        detail: format!("thread {thread} is not in the image of the thread layout {threads}"),
    })
}

/// CuTe's `local_partition(A, threads, thread)`, ragged: the elements of one thread when A is
/// divided by the thread layout's per-mode sizes (`zipped_divide(A, product_each(shape(threads)))`
/// sliced at the thread's coordinate), over the padded domain, with its holes.
///
/// Pre: rank(threads) ≤ rank(A) (a rank-1 integer-shaped thread layout divides A as a whole only
/// when A has rank 1); `thread` is a value of the thread layout. Post: `layout` is the rest part
/// (the thread's elements), `offset` the thread's tile value; `extents[i] = (valid, total)` of the
/// thread's elements along mode i.
///
/// ```
/// use tessera::{Layout, algebra::ragged::ragged_local_partition};
/// let a: Layout = "(10,12):(12,1)".parse().unwrap();
/// let threads: Layout = "(4,8):(8,1)".parse().unwrap();
/// let s = ragged_local_partition(&a, &threads, 13).unwrap(); // thread coordinate (1, 5)
/// assert_eq!(s.extents, vec![(3, 3), (1, 2)]); // rows 1, 5, 9; columns 5 (13 is a hole)
/// ```
pub fn ragged_local_partition(a: &Layout, threads: &Layout, thread: i64) -> Result<RaggedSlice> {
    let c = thread_coord(threads, thread)?;
    let tiler = thread_tiler(a, threads)?;
    let r = ragged_divide(a, &tiler, Arrangement::Logical)?;
    let mut fixed = c;
    // Modes of A past the thread layout are not divided: refuse (as local_tile does).
    fixed.resize(r.modes.len(), 0);
    slice_common(&r, &fixed, false, "local_partition")
}

/// CuTe's `local_tile(A, tiler, coord)` (exact): the tile of `zipped_divide(A, tiler)` at rest
/// coordinate `coord`, and its offset `rest(coord)`.
///
/// Pre: as [`super::zipped_divide`]; `coord` is a coordinate of the rest mode. Post: `(mode 0 of
/// the zipped divide, mode 1 at coord)`.
///
/// ```
/// use tessera::{Layout, algebra::{Tiler, ragged::local_tile}};
/// let a: Layout = "(8,8):(8,1)".parse().unwrap();
/// let t = Tiler::Tuple(vec![Tiler::Int(4), Tiler::Int(2)]);
/// let (tile, off) = local_tile(&a, &t, &"(1,2)".parse().unwrap()).unwrap();
/// assert_eq!((tile.to_string(), off), ("(4,2):(8,1)".to_string(), 36));
/// ```
pub fn local_tile(a: &Layout, tiler: &Tiler, coord: &IntTuple) -> Result<(Layout, i64)> {
    let z = super::zipped_divide(a, tiler)?;
    let (tile, rest) = tile_and_rest(&z, "local_tile")?;
    let off = rest_eval(&rest, coord, "local_tile")?;
    Ok((tile, off))
}

/// Modes 0 and 1 of a zipped divide (a `_` tiler leaves A as it is: a rank-1 A has no rest mode).
fn tile_and_rest(z: &Layout, op: &'static str) -> Result<(Layout, Layout)> {
    match (z.mode_at(0), z.mode_at(1)) {
        (Some(t), Some(r)) => Ok((t, r)),
        _ => Err(Error::RankMismatch {
            op,
            detail: format!(
                "the zipped divide {z} has no rest mode (rank {} < 2)",
                z.rank()
            ),
        }),
    }
}

fn rest_eval(l: &Layout, coord: &IntTuple, op: &'static str) -> Result<i64> {
    let c = coord.as_ref();
    let in_range = match c.leaf() {
        Some(v) => (0..l.size()?).contains(&v),
        None => {
            l.tree().congruent(c)
                && l.leaves()
                    .zip(c.leaves())
                    .all(|(m, v)| (0..m.shape).contains(&v))
        }
    };
    if !in_range {
        return Err(Error::OutOfDomain {
            op,
            detail: format!("coordinate {coord} is outside the domain of {l}"),
        });
    }
    match c.leaf() {
        Some(v) => l.eval(v),
        None => l.crd2idx(coord),
    }
}

/// CuTe's `local_partition(A, threads, thread)` (exact): thread `thread`'s elements of
/// `zipped_divide(A, product_each(shape(threads)))`, and its offset.
///
/// Pre: as [`super::zipped_divide`]; `thread` is a value of the thread layout. Post: `(mode 1 of
/// the zipped divide, mode 0 at the thread's coordinate)`.
///
/// ```
/// use tessera::{Layout, algebra::ragged::local_partition};
/// let a: Layout = "(8,8):(8,1)".parse().unwrap();
/// let (part, off) = local_partition(&a, &"(4,2):(2,1)".parse().unwrap(), 3).unwrap();
/// assert_eq!((part.to_string(), off), ("(2,4):(32,2)".to_string(), 9));
/// ```
pub fn local_partition(a: &Layout, threads: &Layout, thread: i64) -> Result<(Layout, i64)> {
    let c = thread_coord(threads, thread)?;
    let tiler = thread_tiler(a, threads)?;
    let z = super::zipped_divide(a, &tiler)?;
    let (tile, rest) = tile_and_rest(&z, "local_partition")?;
    let coord = if c.len() == 1 {
        IntTuple::leaf(c[0])
    } else {
        Tree::flat(c.iter().copied())
    };
    let off = rest_eval(&tile, &coord, "local_partition")?;
    Ok((rest, off))
}
