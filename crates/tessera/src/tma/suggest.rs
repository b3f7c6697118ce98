//! Checked suggestions: candidate fixes for a failed rule, each re-validated before it is shown.

use super::error::Error;
use super::rules::{check, Severity};
use super::{DataType, Interleave, OobFill, Request, Swizzle};

/// A fix for one failed rule: a changed request that was checked again.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Suggestion {
    /// What changes, e.g. `boxDim[0] = 64 (inner box 128 bytes)`.
    pub text: String,
    /// The changed request.
    pub request: Request,
    /// Whether the changed request passes every driver rule.
    pub valid: bool,
}

/// Index in tensor order of driver dimension `d`.
fn t(r: &Request, d: usize) -> Option<usize> {
    r.rank().checked_sub(d + 1)
}

fn with(r: &Request, f: impl FnOnce(&mut Request)) -> Request {
    let mut c = r.clone();
    f(&mut c);
    c
}

fn candidates(r: &Request, e: &Error) -> Vec<(String, Request)> {
    let mut out = Vec::new();
    let bits = r.dtype.mem_bits();
    // Elements per 16 bytes.
    let per16 = 128 / bits;
    match *e {
        Error::Rank { rank } if rank > 5 => {
            for i in 0..rank.saturating_sub(1) {
                if let Some(m) = merge(r, i) {
                    out.push((
                        format!(
                            "merge tensor dimensions {i} and {} (contiguous, whole inner box) into one of size {}",
                            i + 1,
                            m.shape[i]
                        ),
                        m,
                    ));
                }
            }
        }
        Error::InterleaveRank { .. } => out.push((
            "interleave NONE".into(),
            with(r, |c| c.interleave = Interleave::None),
        )),
        Error::InnermostStride { .. } => {
            if let Some(p) = r.strides.iter().rposition(|&s| s == 1) {
                let mut c = r.clone();
                let last = c.rank() - 1;
                for v in [
                    &mut c.shape,
                    &mut c.strides,
                    &mut c.box_dims,
                    &mut c.element_strides,
                ] {
                    let x = v.remove(p);
                    v.insert(last, x);
                }
                out.push((
                    format!("move tensor dimension {p} (stride 1) to the innermost position"),
                    c,
                ));
            }
        }
        Error::FractionalStride { dim, stride, .. } => {
            if let (Some(i), Some(s)) = (t(r, dim), stride.checked_add(stride % 2)) {
                out.push((
                    format!("pad stride of dimension {dim} to {s} elements"),
                    with(r, |c| c.strides[i] = s),
                ));
            }
        }
        Error::StrideMultiple { dim, multiple, .. } => {
            let q = multiple * 8 / bits; // elements per `multiple` bytes
            if let Some(i) = t(r, dim) {
                let s = r.strides[i];
                if let Some(up) = s.div_ceil(q).checked_mul(q) {
                    out.push((
                        format!(
                            "pad the stride of dimension {dim} to {up} elements ({} bytes; re-allocate with a padded pitch)",
                            up * bits / 8
                        ),
                        with(r, |c| c.strides[i] = up),
                    ));
                }
            }
        }
        Error::BoxDim { dim, value } => {
            if let Some(i) = t(r, dim) {
                let size = r.shape[i];
                let mut vals = vec![];
                if value == 0 {
                    vals.push(1);
                } else {
                    vals.push(256);
                    // The largest divisor of the tensor size that fits: an exact tiling.
                    if let Some(dv) = (1..=256u64.min(size))
                        .rev()
                        .find(|&k| size.checked_rem(k) == Some(0))
                    {
                        vals.push(dv);
                    }
                    vals.push(size.min(256));
                }
                vals.sort_unstable();
                vals.dedup();
                for v in vals {
                    out.push((
                        format!("boxDim[{dim}] = {v}"),
                        with(r, |c| c.box_dims[i] = v),
                    ));
                }
            }
        }
        Error::InnerBoxBytes { box0, .. } => {
            if let Some(i) = t(r, 0) {
                let down = box0 / per16 * per16;
                let up = box0.div_ceil(per16).saturating_mul(per16);
                for v in [down, up] {
                    if v > 0 && v <= 256 {
                        out.push((
                            format!("boxDim[0] = {v} (inner box {} bytes)", v * bits / 8),
                            with(r, |c| c.box_dims[i] = v),
                        ));
                    }
                }
            }
        }
        Error::BoxFootprint { bytes, limit } => {
            // Shrink the largest outer box dimension until the footprint fits.
            let outer = (1..r.rank()).max_by_key(|&dd| t(r, dd).map_or(0, |i| r.box_dims[i]));
            if let Some(dd) = outer {
                if let Some(i) = t(r, dd) {
                    let (b, e) = (r.box_dims[i], r.element_strides[i].max(1));
                    let per = bytes / (b / e).max(1); // bytes per tile row of this dimension
                    if let Some(tiles) = limit.checked_div(per) {
                        let v = tiles.saturating_mul(e).min(b);
                        if v > 0 {
                            out.push((
                                format!(
                                    "boxDim[{dd}] = {v} (box fits the {limit}-byte shared memory)"
                                ),
                                with(r, |c| c.box_dims[i] = v),
                            ));
                        }
                    }
                }
            }
        }
        Error::PackedBoxDim { .. } => {
            if let Some(i) = t(r, 0) {
                out.push(("boxDim[0] = 128".into(), with(r, |c| c.box_dims[i] = 128)));
            }
        }
        Error::ElementStride { dim, value } => {
            if let Some(i) = t(r, dim) {
                let v = if value == 0 { 1 } else { 8 };
                for v in [v, 1] {
                    out.push((
                        format!("elementStrides[{dim}] = {v}"),
                        with(r, |c| c.element_strides[i] = v),
                    ));
                }
            }
        }
        Error::SwizzleSpan { span, bytes, .. } => {
            if let Some(i) = t(r, 0) {
                let v = span * 8 / bits;
                out.push((
                    format!("boxDim[0] = {v} (inner box {span} bytes = the swizzle span)"),
                    with(r, |c| c.box_dims[i] = v),
                ));
            }
            for z in [Swizzle::B32, Swizzle::B64, Swizzle::B128] {
                if z.span().is_some_and(|s| s >= bytes) {
                    out.push((
                        format!(
                            "swizzle {} (span {} bytes)",
                            z.name(),
                            z.span().unwrap_or(0)
                        ),
                        with(r, |c| c.swizzle = z),
                    ));
                    break;
                }
            }
        }
        Error::PackedInterleave { .. } => out.push((
            "interleave NONE".into(),
            with(r, |c| c.interleave = Interleave::None),
        )),
        Error::PackedSwizzle { .. } => {
            for z in [Swizzle::B128, Swizzle::None] {
                out.push((format!("swizzle {}", z.name()), with(r, |c| c.swizzle = z)));
            }
        }
        Error::AtomSwizzleArch { .. } => {
            out.push((
                "swizzle 128B (same span, 16-byte atoms)".into(),
                with(r, |c| c.swizzle = Swizzle::B128),
            ));
            if let Some(a) = crate::target::ARCHS.iter().find(|a| a.tma_atom_swizzle) {
                out.push((
                    format!("target sm_{} ({})", a.cc, a.family),
                    with(r, |c| c.sm = a.cc),
                ));
            }
        }
        Error::OobFill { .. } => out.push((
            "oobFill NONE (out-of-bound elements read as zero)".into(),
            with(r, |c| c.oob_fill = OobFill::None),
        )),
        Error::PackedGlobalDim { .. } if r.dtype == DataType::U4Align8B => {}
        _ => {}
    }
    out
}

/// Merges tensor dimensions `i` and `i + 1` when that is exact: contiguous (`stride[i] ==
/// stride[i+1] * shape[i+1]`), the inner box whole and element stride 1 (nvFuser's compositing).
fn merge(r: &Request, i: usize) -> Option<Request> {
    let j = i + 1;
    if j >= r.rank()
        || r.strides[i] != r.strides[j].checked_mul(r.shape[j])?
        || r.box_dims[j] != r.shape[j]
        || r.element_strides[j] != 1
    {
        return None;
    }
    let mut c = r.clone();
    c.shape[i] = r.shape[i].checked_mul(r.shape[j])?;
    c.strides[i] = r.strides[j];
    c.box_dims[i] = r.box_dims[i].checked_mul(r.shape[j])?;
    for v in [
        &mut c.shape,
        &mut c.strides,
        &mut c.box_dims,
        &mut c.element_strides,
    ] {
        v.remove(j);
    }
    Some(c)
}

/// Checked suggestions for error `e` of request `r`, which has `errors` error-level findings.
///
/// Pre: `e` is one of `check(r)`'s errors. Post: every suggestion's request no longer fails `e`
/// and has fewer error-level findings than `errors`; `valid` says whether it has none.
/// Example: `boxDim[1] = 512` suggests `boxDim[1] = 256` (and an exact divisor of the size).
pub fn suggest(r: &Request, e: &Error, errors: usize) -> Vec<Suggestion> {
    let mut shown: Vec<Suggestion> = Vec::new();
    for (text, c) in candidates(r, e) {
        let found = check(&c);
        let errs: Vec<&Error> = found
            .iter()
            .filter(|(_, s)| *s == Severity::Error)
            .map(|(x, _)| x)
            .collect();
        if errs.contains(&e) || errs.len() >= errors {
            continue;
        }
        if shown.iter().any(|s| s.request == c) {
            continue;
        }
        shown.push(Suggestion {
            text,
            valid: errs.is_empty(),
            request: c,
        });
    }
    shown
}
