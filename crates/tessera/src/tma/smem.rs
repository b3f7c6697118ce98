//! The shared-memory layout a TMA box is written with, and the check that it equals the layout
//! the consumer (a GMMA/UMMA operand) expects.
//!
//! TMA writes a box row-major by its dimensions (the innermost box dimension contiguous; with a
//! swizzle, a row narrower than the swizzle span is padded to the span), then
//! permutes 16-byte chunks with the swizzle mode: over byte addresses, 32B is `Sw<1,4,3>`, 64B
//! `Sw<2,4,3>`, 128B `Sw<3,4,3>`, 128B_ATOM_32B `Sw<2,5,2>`, 128B_ATOM_64B `Sw<1,6,1>` (the
//! shared-memory base aligned to the swizzle's repeat, 1024 bytes for 128B). Recast to elements
//! of `b` bits, `M` moves by `log2(b) − 3`: for 16-bit elements 128B is `Sw<3,3,3>`.

use std::fmt::Write as _;

use super::{DataType, Request, Swizzle as Mode};
use crate::algebra::atoms;
use crate::layout::{AnyLayout, ComposedLayout, IntTuple, Layout, Swizzle};
use crate::obligation::{Error, Result};

/// The byte-address swizzle of a TMA swizzle mode (`None`: no swizzle function we model, i.e.
/// `128B_ATOM_32B_FLIP_8B`).
///
/// ```
/// use tessera::tma::{smem::byte_swizzle, Swizzle};
/// assert_eq!(byte_swizzle(Swizzle::B128).unwrap().unwrap().to_string(), "Sw<3,4,3>");
/// ```
pub fn byte_swizzle(mode: Mode) -> Result<Option<Swizzle>> {
    Ok(Some(match mode {
        Mode::None => Swizzle::new(0, 4, 3)?,
        Mode::B32 => Swizzle::new(1, 4, 3)?,
        Mode::B64 => Swizzle::new(2, 4, 3)?,
        Mode::B128 => Swizzle::new(3, 4, 3)?,
        Mode::B128Atom32B => Swizzle::new(2, 5, 2)?,
        Mode::B128Atom64B => Swizzle::new(1, 6, 1)?,
        Mode::B128Atom32BFlip8B => return Ok(None),
    }))
}

/// The element-index layout TMA writes a box with: modes in the order of `box_dims` (outermost
/// first, the last contiguous), `Sw_elem ∘ 0 ∘ (b₀,…,b_{n−1}):(p·b₁⋯b_{n−2}, …, p, 1)` where the
/// row pitch `p` is `b_{n−1}`, or the swizzle span in elements when a swizzle is set and a row is
/// narrower than it (TMA pads such rows: measured on an H200 for 16/32/64-bit elements, rows of
/// 16–64 bytes, spans 32/64/128 B, `tools/tma_swizzle_hw/`).
///
/// Pre: `dtype` is a whole number of bits that is a power of two ≥ 8 or divides 8 (the swizzle
/// recast); box dims ≥ 1; the mode has a modelled swizzle. Post: for every box coordinate `c`,
/// `R(c)` is the element offset of `c` from the start of the box in shared memory (checked
/// against the hardware on 294 boxes by `tests/gpu/tma_swizzle_hardware.rs`). `proofs/TmaBox.v`
/// transcribes it (`box_elem`, bridged): unswizzled, the offsets are one to one and inside the
/// padded box (`box_offset_injective`, `box_elements_in_smem`); the element swizzle is the byte
/// swizzle on the element's bytes (`recast`), which keeps each byte in its span row
/// (`swizzle_keeps_row`).
///
/// ```
/// use tessera::tma::{smem::box_layout, DataType, Swizzle};
/// let l = box_layout(DataType::F16, &[64, 64], Swizzle::B128).unwrap();
/// assert_eq!(l.to_string(), "Sw<3,3,3> o 0 o (64,64):(64,1)");
/// ```
pub fn box_layout(dtype: DataType, box_dims: &[u64], mode: Mode) -> Result<AnyLayout> {
    let bits = dtype.mem_bits() as i64;
    let not = |detail: String| Error::NotExpressible {
        op: "tma --smem",
        what: format!(
            "the shared-memory layout of a {} box with swizzle {}",
            dtype.name(),
            mode.name()
        ),
        detail,
    };
    let sw = byte_swizzle(mode)?
        .ok_or_else(|| not("the 128B_ATOM_32B_FLIP_8B swizzle is not modelled".into()))?;
    if bits < 1 || bits & (bits - 1) != 0 {
        return Err(not(format!(
            "{bits}-bit elements cannot recast a byte swizzle"
        )));
    }
    // A row narrower than the swizzle span is padded to the span: the pitch in elements.
    let row = *box_dims.last().unwrap_or(&1);
    let row_bits = row.saturating_mul(bits as u64);
    let pitch = i64::try_from(mode.row_pitch_bits(row_bits) / bits as u64)
        .map_err(|_| Error::overflow(format!("box dimension {row}")))?;
    let mut shape = Vec::new();
    let mut stride = vec![0i64; box_dims.len()];
    let mut acc = 1i64;
    for (k, &b) in box_dims.iter().enumerate().rev() {
        let b = i64::try_from(b).map_err(|_| Error::overflow(format!("box dimension {b}")))?;
        stride[k] = if b == 1 { 0 } else { acc };
        acc = crate::obligation::arith::mul(acc, b)?;
        if k + 1 == box_dims.len() {
            acc = acc.max(pitch);
        }
    }
    for &b in box_dims {
        shape.push(i64::try_from(b).map_err(|_| Error::overflow(format!("box dimension {b}")))?);
    }
    let inner = Layout::new(&IntTuple::flat(shape), &IntTuple::flat(stride))?;
    let m = sw.base() + 3 - i64::from(bits.trailing_zeros() as u8);
    let elem = if m >= 0 {
        Swizzle::new(sw.bits(), m, sw.shift())?
    } else {
        Swizzle::new((sw.bits() + m).max(0), 0, sw.shift())?
    };
    if elem.is_identity() {
        return Ok(inner.into());
    }
    Ok(ComposedLayout::new(elem.into(), 0, inner.into()).into())
}

/// The verdict of [`check`].
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct SmemCheck {
    /// What TMA writes (element indices, modes as the box).
    pub written: AnyLayout,
    /// The first box coordinate (as an index into the box, colexicographic over the layout's
    /// modes) where the two differ, with the two element offsets; `None` when equal.
    pub mismatch: Option<(IntTuple, i64, i64)>,
    /// Swizzle modes whose box layout equals `expected` (the right mode when it is not the
    /// requested one).
    pub modes_that_match: Vec<Mode>,
    /// The named atoms (`tile_to_shape(ATOM<T>,box)`) that equal the written layout.
    pub atoms_that_match: Vec<String>,
}

/// Checks that the box TMA writes with `mode` is exactly `expected` as a function.
///
/// Pre: `expected`'s innermost layout has one mode per box dimension with the box's extents
/// ([`Error::RankMismatch`] otherwise); at most 2^20 elements. Post: `mismatch == None` iff
/// `expected(c) == written(c)` for every box coordinate `c`; every listed mode and atom was
/// checked the same way.
///
/// ```
/// use tessera::tma::{smem::check, DataType, Swizzle};
/// let want: tessera::layout::AnyLayout =
///     tessera::notation::eval("tile_to_shape(GMMA::Layout_K_SW128_Atom<half_t>,(64,64))")
///         .unwrap().to_any_layout().unwrap();
/// assert!(check(DataType::F16, &[64, 64], Swizzle::B128, &want).unwrap().mismatch.is_none());
/// let bad = check(DataType::F16, &[64, 64], Swizzle::B64, &want).unwrap();
/// assert!(bad.mismatch.is_some());
/// assert_eq!(bad.modes_that_match, [Swizzle::B128]);
/// ```
pub fn check(
    dtype: DataType,
    box_dims: &[u64],
    mode: Mode,
    expected: &AnyLayout,
) -> Result<SmemCheck> {
    let l = expected.shape_layout("tma --smem")?;
    let dims: Vec<i64> = box_dims.iter().map(|&b| b as i64).collect();
    let ranks_ok = !l.is_leaf() && l.rank() == dims.len() || l.is_leaf() && dims.len() == 1;
    let sizes: Vec<i64> = if l.is_leaf() {
        vec![l.size()?]
    } else {
        l.modes().map(|m| m.size()).collect::<Result<_>>()?
    };
    if !ranks_ok || sizes != dims {
        return Err(Error::RankMismatch {
            op: "tma --smem",
            detail: format!(
                "the layout {expected} has mode sizes {sizes:?} but the box is {dims:?} (one mode per box dimension, outermost first)"
            ),
        });
    }
    let n = l.size()?;
    if n > 1 << 20 {
        return Err(Error::TooLarge {
            op: "tma --smem",
            what: "the box".into(),
            size: n,
            bound: 1 << 20,
        });
    }
    let written = box_layout(dtype, box_dims, mode)?;
    let mismatch = first_difference(&written, expected, &dims)?;
    let mut modes_that_match = Vec::new();
    for m in Mode::all() {
        if let Ok(w) = box_layout(dtype, box_dims, m) {
            if first_difference(&w, expected, &dims)?.is_none() {
                modes_that_match.push(m);
            }
        }
    }
    let mut atoms_that_match = Vec::new();
    if let Some(ty) = atom_type(dtype) {
        let shape = IntTuple::flat(dims.iter().copied());
        for name in atoms::atom_names()
            .iter()
            .filter(|n| n.starts_with("GMMA::") || n.contains("32B"))
        {
            let Ok(a) = atoms::atom(name, ty) else {
                continue;
            };
            let Ok(t) = crate::algebra::swizzled::by_inner(&a, "tile_to_shape", &|x| {
                crate::algebra::tile_to_shape(x, &shape, None)
            }) else {
                continue;
            };
            if first_difference(&t, &written, &dims)?.is_none() {
                atoms_that_match.push(format!("tile_to_shape({name}<{ty}>,{shape})"));
            }
        }
    }
    Ok(SmemCheck {
        written,
        mismatch,
        modes_that_match,
        atoms_that_match,
    })
}

/// The CUTLASS element type that names the atoms: the type's element ([`crate::target`]), or
/// `uint8_t` for the packed types padded to a byte; `None` for the dense 4-bit packing.
fn atom_type(dtype: DataType) -> Option<&'static str> {
    match dtype.element() {
        Some(d) => Some(d.cutlass),
        None if dtype.mem_bits() == 8 => Some(crate::target::dtype::U8.cutlass),
        None => None,
    }
}

fn first_difference(
    a: &AnyLayout,
    b: &AnyLayout,
    dims: &[i64],
) -> Result<Option<(IntTuple, i64, i64)>> {
    let n: i64 = dims.iter().product();
    let shape = IntTuple::flat(dims.iter().copied());
    for i in 0..n {
        let c = crate::layout::idx2crd(i, &shape)?;
        let c = if dims.len() == 1 {
            IntTuple::leaf(i)
        } else {
            c
        };
        let (x, y) = (a.crd2idx(&c)?, b.crd2idx(&c)?);
        if x != y {
            return Ok(Some((c, x, y)));
        }
    }
    Ok(None)
}

/// `tessera tma --smem LAYOUT`: is the box TMA writes with the request's swizzle exactly the layout
/// `text` (in the expression language)? The readable answer, and whether it is.
///
/// Pre: none. Post: `Ok((t, true))` iff [`check`] finds no mismatch; `t` names the checked swizzle
/// modes and atoms that write the box. Example: f16 box `[64, 64]` with swizzle 128B and
/// `tile_to_shape(GMMA::Layout_K_SW128_Atom<half_t>,(64,64))` gives `(_, true)`.
pub fn text(r: &Request, text: &str) -> Result<(String, bool)> {
    let want = crate::notation::eval(text)?
        .to_any_layout()
        .ok_or_else(|| Error::Type {
            op: "tma --smem".into(),
            position: 1,
            expected: "a layout or a composed layout",
            found: text.to_string(),
        })?;
    let c = check(r.dtype, &r.box_dims, r.swizzle, &want)?;
    let mut out = String::new();
    let _ = writeln!(out, "\nshared memory (--smem):");
    let _ = writeln!(out, "  TMA writes the box as {}", c.written);
    let _ = writeln!(out, "  the consumer expects  {want}");
    let ok = c.mismatch.is_none();
    match &c.mismatch {
        None => {
            let _ = writeln!(
                out,
                "  equal as functions on all {} box elements: the swizzle {} matches",
                r.box_dims.iter().product::<u64>(),
                r.swizzle.name()
            );
        }
        Some((crd, got, exp)) => {
            let _ = writeln!(
                out,
                "error[tma_smem_mismatch] at box coordinate {crd} TMA writes element {got}, the consumer reads {exp}"
            );
            if c.modes_that_match.is_empty() {
                let _ = writeln!(out, "  no TMA swizzle mode writes this layout");
            }
            for m in &c.modes_that_match {
                let _ = writeln!(out, "  suggestion (checked): --swizzle {}", m.name());
            }
        }
    }
    for a in &c.atoms_that_match {
        let _ = writeln!(out, "  atom (checked): {a} is what this descriptor writes");
    }
    Ok((out, ok))
}
