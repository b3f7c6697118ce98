//! The GMMA (SM90) and UMMA (SM100) shared-memory layout atoms, by their CUTLASS names.
//!
//! CUTLASS defines each atom over *bits* (`Layout_K_SW128_Atom_Bits` is
//! `Sw<3,4,3> ∘ smem_ptr ∘ (8,1024):(1024,1)`, the swizzle acting on byte addresses) and recasts
//! it to the element type with `upcast<sizeof_bits<T>>`. Tessera's value is the layout of
//! *element indices*, what CuTe's `print_layout` shows: the inner layout upcast to elements and
//! the byte swizzle moved to element units (`M` drops by `log2(sizeof_bits<T>) − 3`), e.g.
//! `GMMA::Layout_K_SW128_Atom<half_t>` = `Sw<3,3,3> o 0 o (8,64):(64,1)`.

use crate::algebra::swizzled::compose;
use crate::algebra::upcast;
use crate::error::{Error, Result};
use crate::layout::{AnyLayout, Layout, Swizzle};

/// The atom names (without namespace): `(name, major is K, swizzle bits B, byte base M, shift S,
/// row width in bits)`.
const ATOMS: &[(&str, bool, i64, i64, i64, i64)] = &[
    ("Layout_K_INTER_Atom", true, 0, 4, 3, 128),
    ("Layout_K_SW32_Atom", true, 1, 4, 3, 256),
    ("Layout_K_SW64_Atom", true, 2, 4, 3, 512),
    ("Layout_K_SW128_Atom", true, 3, 4, 3, 1024),
    ("Layout_MN_INTER_Atom", false, 0, 4, 3, 128),
    ("Layout_MN_SW32_Atom", false, 1, 4, 3, 256),
    ("Layout_MN_SW64_Atom", false, 2, 4, 3, 512),
    ("Layout_MN_SW128_Atom", false, 3, 4, 3, 1024),
];

/// UMMA's extra atom: `Sw<2,5,2> ∘ (1024,4):(1,1024)` bits (128-byte rows of 32-byte atoms).
const UMMA_SW128_32B: (&str, i64, i64, i64) = ("Layout_MN_SW128_32B_Atom", 2, 5, 2);

/// Every atom name accepted by [`atom`] (namespace included).
pub fn atom_names() -> Vec<String> {
    let mut out = Vec::new();
    for ns in ["GMMA", "UMMA"] {
        for a in ATOMS {
            out.push(format!("{ns}::{}", a.0));
        }
    }
    out.push(format!("UMMA::{}", UMMA_SW128_32B.0));
    out
}

/// The size in bits of a CUTLASS element type name (`cutlass::`/`cute::` prefixes accepted), from
/// the one element-type table ([`crate::target::DTYPES`]).
///
/// Pre: none. Post: `Some(sizeof_bits<T>)` iff the name is a CUTLASS name in the table. Example:
/// `element_bits("half_t") == Some(16)`.
pub fn element_bits(ty: &str) -> Option<i64> {
    crate::target::Dtype::of_cutlass(ty).map(|d| i64::from(d.bits))
}

/// The element-index layout of a named atom, e.g. `atom("GMMA::Layout_K_SW128_Atom", "half_t")`.
///
/// Pre: a known atom name ([`atom_names`], with `GMMA::`/`UMMA::`/`cute::` prefixes) and element
/// type ([`crate::target::DTYPES`], by its CUTLASS name) whose size in bits is a power of two (CUTLASS's `upcast` needs one;
/// 6-bit types are refused as CuTe refuses them). Post: equal as a function to CUTLASS's atom
/// recast to elements (what `print_layout` shows); an `INTER` atom is a plain layout.
///
/// ```
/// use tessera::algebra::atoms::atom;
/// assert_eq!(atom("GMMA::Layout_K_SW128_Atom", "half_t").unwrap().to_string(),
///            "Sw<3,3,3> o 0 o (8,64):(64,1)");
/// assert_eq!(atom("UMMA::Layout_MN_SW64_Atom", "float").unwrap().to_string(),
///            "Sw<2,2,3> o 0 o (16,8):(1,16)");
/// ```
pub fn atom(name: &str, ty: &str) -> Result<AnyLayout> {
    let full = name.trim_start_matches("cute::");
    let (ns, base) = full.split_once("::").unwrap_or(("", full));
    let unknown = || Error::UnknownFunction {
        name: format!("{name}<{ty}>"),
        column: 1,
    };
    if !matches!(ns, "GMMA" | "UMMA") {
        return Err(unknown());
    }
    let bits = element_bits(ty).ok_or_else(|| Error::Type {
        op: name.to_string(),
        position: 1,
        expected: "a CUTLASS element type (half_t, bfloat16_t, float, tfloat32_t, int8_t, \
                   float_e4m3_t, int4b_t, …)",
        found: ty.to_string(),
    })?;
    let (swz, inner_bits) = if ns == "UMMA" && base == UMMA_SW128_32B.0 {
        let (_, b, m, s) = UMMA_SW128_32B;
        (
            Swizzle::new(b, m, s)?,
            Layout::new(&"(1024,4)".parse()?, &"(1,1024)".parse()?)?,
        )
    } else {
        let a = ATOMS.iter().find(|a| a.0 == base).ok_or_else(unknown)?;
        let (_, k_major, b, m, s, w) = *a;
        let l = if k_major {
            Layout::new(
                &crate::layout::IntTuple::flat([8, w]),
                &crate::layout::IntTuple::flat([w, 1]),
            )?
        } else {
            Layout::new(
                &crate::layout::IntTuple::flat([w, 8]),
                &crate::layout::IntTuple::flat([1, w]),
            )?
        };
        (Swizzle::new(b, m, s)?, l)
    };
    if bits & (bits - 1) != 0 {
        return Err(Error::NotExpressible {
            op: "atom",
            what: format!("{name}<{ty}>"),
            detail: format!(
                "sizeof_bits<{ty}> = {bits} is not a power of two: CUTLASS's upcast<{bits}> of \
                 the bit atom does not compile (the swizzle cannot be recast to {bits}-bit elements)"
            ),
        });
    }
    let inner = upcast(&inner_bits, bits)?;
    // Byte swizzle → bit swizzle (M + 3) → element swizzle (M + 3 − log2 bits).
    let m = swz.base() + 3 - i64::from(bits.trailing_zeros() as u8);
    let elem = if m >= 0 {
        Swizzle::new(swz.bits(), m, swz.shift())?
    } else {
        Swizzle::new((swz.bits() + m).max(0), 0, swz.shift())?
    };
    Ok(compose(elem.into(), 0, inner.into()))
}
