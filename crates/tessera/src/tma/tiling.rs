//! The tiling of a tensor by TMA boxes: a Tessera layout (box modes and their rest modes), the
//! holes per dimension, and whether the hardware zero-fills them (the FTTC).
//!
//! Per driver dimension of size `S`, box `B` and element stride `e` (`e = 1` for dimension 0
//! with interleave NONE, whose stride the driver ignores), nvFuser models the copy as two
//! iteration-domain splits (nvfuser.md §2.5–2.6): the *boxing split* `I{S} -> coord{ceil(S/B)},
//! box{B}` and the *striding split* `box{B} -> tile{ceil(B/e)}, stride{e}`; one copy issue is one
//! `(coord, stride)` pair and moves the `tile` elements `x + stride + k*e`. Both splits may be
//! indivisible. The holes are computed by the iteration-domain engine ([`crate::domain`]): the
//! splits are built as a [`Schedule`] and enumerated with [`Space`]. A hole of the boxing split
//! lies past the tensor end: the hardware bound check zero-fills it (TMA-protected, Theorem 1).
//! A hole of the striding split (box index `>= B`) is loaded by the hardware like any element:
//! zero only when its coordinate is out of bound, in-bound data otherwise.

use super::error::Error;
use super::{Interleave, Request, Result};
use crate::algebra::{zipped_divide, Tiler};
use crate::domain::eval::Space;
use crate::domain::{Extent, Schedule, SplitKind};
use crate::Layout;

/// Sites listed per dimension and kind at most.
pub const MAX_SITES: usize = 8;

/// Which split made a hole.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum HoleKind {
    /// The boxing split: coordinates `>= S` in the last box.
    Boxing,
    /// The striding split: box indices `>= B` reached by the last strided tile element.
    Striding,
}

/// One hole.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct HoleSite {
    /// Which split.
    pub kind: HoleKind,
    /// Box number along the dimension (`coord`).
    pub box_number: u64,
    /// Index inside the box (may be `>= B` for striding holes).
    pub offset: u64,
    /// The global coordinate `box_number * B + offset`.
    pub coordinate: u64,
    /// Whether the hardware writes zero there (coordinate out of bound).
    pub zero_filled: bool,
}

/// The tiling of one driver dimension.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct DimTiling {
    /// Driver dimension (0 innermost).
    pub dim: usize,
    /// Tensor size `S`.
    pub size: u64,
    /// Box size `B`.
    pub box_size: u64,
    /// Effective element stride `e`.
    pub element_stride: u64,
    /// Boxes along the dimension, `ceil(S / B)`.
    pub boxes: u64,
    /// Elements per copy along the dimension, `ceil(B / e)`.
    pub tile: u64,
    /// Holes of the boxing split, `boxes * B - S` (all zero-filled).
    pub boxing_holes: u64,
    /// Holes of the striding split, `boxes * (ceil(B/e) * e - B)`.
    pub striding_holes: u64,
    /// Striding holes the hardware fills with in-bound data.
    pub data_filled: u64,
    /// Striding holes the hardware zero-fills.
    pub zero_filled: u64,
    /// Up to [`MAX_SITES`] holes of each kind, in coordinate order.
    pub sites: Vec<HoleSite>,
    /// The FTTC condition `e < B < S && e ∤ B`: strong correctness impossible.
    pub fttc: bool,
    /// The engine found a copy issue mixing a valid element with a data-filled hole (the
    /// enumerated witness of `fttc`).
    pub mixed_issue: bool,
}

/// The tiling view of a whole request.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct TilingView {
    /// The tensor as a layout in driver order, `(S0,S1,…):(1,st1,…)` (elements).
    pub tensor: Layout,
    /// `zipped_divide` of the tensor (padded to whole boxes) by the boxes:
    /// `((B0,B1,…),(n0,n1,…))`, box modes then rest modes.
    pub boxes: Option<Layout>,
    /// `zipped_divide` by the strided tiles `ceil(B/e):e`, when every `e` divides its `B`.
    pub tiles: Option<Layout>,
    /// Every box lies inside the tensor and every tile inside its box (no hole).
    pub exact: bool,
    /// Per driver dimension.
    pub dims: Vec<DimTiling>,
    /// No hole is loaded with in-bound data: every hole is zero-filled with no predicate.
    pub all_holes_zero: bool,
    /// Strong correctness is achievable (no dimension satisfies the FTTC condition).
    pub strong_correctness: bool,
    /// Notes (why a layout is missing).
    pub notes: Vec<String>,
}

/// The FTTC condition of one dimension: strong correctness is impossible iff `e < B < S` and
/// `e ∤ B`.
///
/// This is Theorem 6 of nvFuser's "TMA Modeling In Depth", proven in Coq as `tma_fttc`
/// (`proofs/Tma.v`); [`dim_tiling`] checks it against the engine's enumeration (`mixed_issue`).
///
/// Pre: none (`e == 0` never satisfies it). Post: the condition's truth value.
/// Example: `fttc(8, 4, 3)` is true, `fttc(8, 4, 2)` false (`2 | 4`), `fttc(4, 4, 3)` false.
pub fn fttc(size: u64, box_size: u64, element_stride: u64) -> bool {
    element_stride > 0
        && element_stride < box_size
        && box_size < size
        && box_size.checked_rem(element_stride) != Some(0)
}

fn dom(e: crate::domain::Error) -> Error {
    Error::Tiling(format!("iteration-domain engine: {e}"))
}

fn to_i64(v: u64, what: &'static str) -> Result<i64> {
    i64::try_from(v).map_err(|_| Error::Overflow { what })
}

/// Tiles one dimension with the iteration-domain engine.
///
/// Pre: `size, box_size, element_stride >= 1`, `box_size <= 256`, `element_stride <= 8`, `size <=
/// 2^32`. Post: counts are exact for the whole dimension; the engine enumerates only the last
/// boxes plus one interior box (interior boxes all look alike), so work is bounded by a few
/// hundred points. `fttc == mixed_issue` (checked by the tests over all small cases, Example 13).
/// Example: `S = 8, B = 4, e = 3` (nvfuser.md Example 12): 2 boxes, tiles of 2, striding holes at
/// offsets 4 and 5 of each box: data-filled in box 0 (coordinates 4, 5), zero in box 1.
pub fn dim_tiling(dim: usize, size: u64, box_size: u64, element_stride: u64) -> Result<DimTiling> {
    if size == 0 || box_size == 0 || box_size > 256 || element_stride == 0 || element_stride > 8 {
        return Err(Error::Tiling(format!(
            "dimension {dim}: size {size}, box {box_size}, element stride {element_stride} out of range"
        )));
    }
    let boxes = size.div_ceil(box_size);
    let tile = box_size.div_ceil(element_stride);
    let span = tile * element_stride; // <= 256 + 7
                                      // Interior boxes j (j*B + span <= S) all load only in-bound coordinates; skip all but one.
    let interior = if size >= span {
        ((size - span) / box_size + 1).min(boxes)
    } else {
        0
    };
    let skip = interior.saturating_sub(1);
    let offset = skip * box_size;
    let reduced = size - offset;

    let mut s = Schedule::new();
    let root = s
        .iter("I", Extent::Const(to_i64(reduced, "size")?))
        .map_err(dom)?;
    let (coord, bx) = s
        .split(
            root,
            to_i64(box_size, "box")?,
            SplitKind::Inner,
            "coord",
            "box",
        )
        .map_err(dom)?;
    let (tl, st) = s
        .split(
            bx,
            to_i64(element_stride, "element stride")?,
            SplitKind::Inner,
            "tile",
            "stride",
        )
        .map_err(dom)?;
    let space = Space::new(&s).map_err(dom)?;
    let (mut data, mut zero, mut boxing) = (0u64, 0u64, 0u64);
    let mut sites = Vec::new();
    let (mut boxing_sites, mut striding_sites) = (0usize, 0usize);
    // Per copy issue (coord, stride): (has a valid element, has a data-filled hole).
    let mut issues: std::collections::BTreeMap<(i64, i64), (bool, bool)> = Default::default();
    space
        .for_each(|idx| {
            let in_box = space.in_bound(idx, bx);
            let in_tensor = space.in_bound(idx, root);
            let (c, o, g) = (idx[coord] as u64, idx[bx] as u64, idx[root] as u64);
            let issue = issues.entry((idx[coord], idx[st])).or_default();
            let _ = tl;
            let site = |kind, zero_filled| HoleSite {
                kind,
                box_number: c + skip,
                offset: o,
                coordinate: g + offset,
                zero_filled,
            };
            match (in_box, in_tensor) {
                (true, true) => issue.0 = true,
                (true, false) => {
                    boxing += 1;
                    if boxing_sites < MAX_SITES {
                        boxing_sites += 1;
                        sites.push(site(HoleKind::Boxing, true));
                    }
                }
                (false, in_t) => {
                    if in_t {
                        data += 1;
                        issue.1 = true;
                    } else {
                        zero += 1;
                    }
                    if striding_sites < MAX_SITES {
                        striding_sites += 1;
                        sites.push(site(HoleKind::Striding, !in_t));
                    }
                }
            }
            Ok(true)
        })
        .map_err(dom)?;
    let per_box = span - box_size;
    data += skip * per_box;
    sites.sort_by_key(|h| (h.kind == HoleKind::Striding, h.coordinate, h.offset));
    let mixed_issue = issues.values().any(|&(v, d)| v && d);
    Ok(DimTiling {
        dim,
        size,
        box_size,
        element_stride,
        boxes,
        tile,
        boxing_holes: boxing,
        striding_holes: boxes * per_box,
        data_filled: data,
        zero_filled: zero,
        sites,
        fttc: fttc(size, box_size, element_stride),
        mixed_issue,
    })
}

/// The tiling view of a request.
///
/// Pre: rank in `1..=5`; every size, box and element stride in range (see [`dim_tiling`]).
/// Post: `exact` iff every `B | S` and every `e | B`; `boxes` is `zipped_divide(tensor padded to
/// whole boxes, (B0,B1,…))` (the padding is the boxing holes); `strong_correctness` iff no
/// dimension satisfies the FTTC (Coq `tma_fttc`).
/// Example: f16 `[1024, 4096]` with box `[64, 128]` gives the exact layout
/// `((128,64),(32,16)):((1,4096),(128,262144))`.
pub fn tiling_view(r: &Request) -> Result<TilingView> {
    let rank = r.rank();
    if rank == 0 || rank > 5 {
        return Err(Error::Tiling(format!("rank {rank} is not in 1..=5")));
    }
    let mut dims = Vec::new();
    let mut modes = Vec::new();
    let mut padded = Vec::new();
    let mut box_tiler = Vec::new();
    let mut tile_tiler = Vec::new();
    let mut notes = Vec::new();
    let mut tiles_ok = true;
    for i in 0..rank {
        let g = |v: &[u64]| Request::driver(v, i).ok_or(Error::Overflow { what: "dimension" });
        let (s, b, mut e, st) = (
            g(&r.shape)?,
            g(&r.box_dims)?,
            g(&r.element_strides)?,
            g(&r.strides)?,
        );
        if i == 0 && r.interleave == Interleave::None {
            e = 1;
        }
        let d = dim_tiling(i, s, b, e)?;
        let st = to_i64(st, "stride")?;
        let pad = to_i64(d.boxes * b, "padded size")?;
        modes.push(Layout::mode(to_i64(s, "size")?, st).map_err(|x| Error::Tiling(x.to_string()))?);
        padded.push(Layout::mode(pad, st).map_err(|x| Error::Tiling(x.to_string()))?);
        box_tiler.push(Tiler::Int(to_i64(b, "box")?));
        if b % e == 0 {
            let l = Layout::mode(to_i64(d.tile, "tile")?, to_i64(e, "element stride")?)
                .map_err(|x| Error::Tiling(x.to_string()))?;
            tile_tiler.push(Tiler::Layout(l));
        } else {
            tiles_ok = false;
            notes.push(format!(
                "dimension {i}: element stride {e} does not divide box {b}: the strided tile {}:{e} is not a division of the box (its last element lands {} past the box)",
                d.tile,
                d.tile * e - b
            ));
        }
        dims.push(d);
    }
    let tensor = Layout::concat(modes.iter());
    let padded = Layout::concat(padded.iter());
    let boxes = match zipped_divide(&padded, &Tiler::Tuple(box_tiler)) {
        Ok(l) => Some(l),
        Err(e) => {
            notes.push(format!("box layout: {e}"));
            None
        }
    };
    let tiles = if tiles_ok {
        match zipped_divide(&padded, &Tiler::Tuple(tile_tiler)) {
            Ok(l) => Some(l),
            Err(e) => {
                notes.push(format!("tile layout: {e}"));
                None
            }
        }
    } else {
        None
    };
    let exact = dims
        .iter()
        .all(|d| d.boxing_holes == 0 && d.striding_holes == 0);
    Ok(TilingView {
        tensor,
        boxes,
        tiles,
        exact,
        all_holes_zero: dims.iter().all(|d| d.data_filled == 0),
        strong_correctness: dims.iter().all(|d| !d.fttc),
        dims,
        notes,
    })
}
