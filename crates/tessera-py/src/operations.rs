//! The algebra's operations as Python functions: the hand-written fast bindings of the common
//! ones, and every row of the library's registry (`tessera::notation::ops`) through the generic
//! [`apply`]; `eval` and `batch` of the expression language.

use pyo3::exceptions::PyTypeError;
use pyo3::prelude::*;
use pyo3::types::{PyList, PyString, PyTuple};

use tessera::algebra::swizzled::{self, Rhs};
use tessera::algebra::{self, Tiler};
use tessera::layout::AnyLayout;
use tessera::layout::{IntTuple, Layout};
use tessera::notation::{self, Value};

use crate::convert::*;
use crate::errors::*;
use crate::fast;
use crate::swizzle::{func_arg, wrap_any};

pub(crate) fn face_of(o: &Bound<'_, PyAny>) -> Face {
    if fast::kind(o) == fast::Kind::Cute {
        Face::PyCute
    } else {
        Face::Tessera
    }
}

/// The arguments of a call with an optional last one (`None` left out, as the registry's arity
/// has it).
pub(crate) fn with_opt<'a, 'py>(
    a: &'a Bound<'py, PyAny>,
    b: Option<&'a Bound<'py, PyAny>>,
) -> Vec<&'a Bound<'py, PyAny>> {
    match b {
        Some(b) if !b.is_none() => vec![a, b],
        _ => vec![a],
    }
}

/// The result of a hand-written fast binding, or, where it failed with a Tessera error, the
/// registry's answer for the same call (`apply`): an argument the fast path does not read (a
/// swizzled or composed layout, a CUTLASS atom name, a linear layout, a shape for a layout) is
/// then accepted exactly as the CLI accepts it, and a failure is the registry's, with the
/// suggestions the CLI gives for the same call. Only the error path pays for it.
pub(crate) fn or_registry(
    r: PyResult<PyObject>,
    name: &'static str,
    args: &[&Bound<'_, PyAny>],
    pycute: bool,
) -> PyResult<PyObject> {
    match r {
        Ok(v) => Ok(v),
        Err(e) => {
            let Some(py) = args.first().map(|a| a.py()) else {
                return Err(e);
            };
            if !is_tessera_error(py, &e) {
                return Err(e);
            }
            let t = PyTuple::new(py, args.iter().copied())?;
            apply(py, name, &t, pycute)
        }
    }
}

pub(crate) type Op2 = fn(&Layout, &Tiler) -> tessera::Result<Layout>;

pub(crate) fn op_tiler(
    a: &Bound<'_, PyAny>,
    b: &Bound<'_, PyAny>,
    face: Face,
    f: Op2,
) -> PyResult<PyObject> {
    let py = a.py();
    let la = layout_ref(a, face)?;
    // A layout tiler is cloned straight into the tiler (no intermediate `Result<Tiler>` move).
    let t = match fast::plain(b) {
        Some((lb, _)) => Tiler::Layout(lb.clone()),
        None => tiler_arg(b, face, 0)?,
    };
    fast::new_layout_from(py, face, f(&la, &t))
}

/// One native function per operation, used by both faces: `face` picks the result's class
/// (`tessera.pycute` passes `pycute=True`).
macro_rules! tiler_ops {
    ($($name:ident => $f:path, $doc:literal),* $(,)?) => {$(
        #[doc = $doc]
        #[pyfunction]
        #[pyo3(signature = (a, b, pycute = false))]
        pub(crate) fn $name(a: &Bound<'_, PyAny>, b: &Bound<'_, PyAny>, pycute: bool) -> PyResult<PyObject> {
            if b.is_none() {
                return Ok(a.clone().unbind());
            }
            let r = (|| {
                let ka = fast::kind(a);
                if ka.is_func() {
                    let fa = func_arg(a).expect("a swizzle or composed layout");
                    let f = if pycute { Face::PyCute } else { ka.face() };
                    let t = tiler_arg(b, f, 0)?;
                    let g = $f;
                    let r = swizzled::by_inner(&fa, stringify!($name), &|l| g(l, &t)).map_err(raise)?;
                    return wrap_any(a.py(), f, r);
                }
                let face = face(pycute, a);
                op_tiler(a, b, face, $f)
            })();
            or_registry(r, stringify!($name), &[a, b], pycute)
        }
    )*};
}

/// `composition(A, B)`: the layout `A ∘ B` (`c ↦ A(B(c))`), B a layout, an integer, a shape or a
/// by-mode tiler; swizzled and composed layouts on either side.
///
/// Pre: A ∘ B admissible (each leaf `s:d` of B makes `t ↦ A(t·d)` a layout function on `[0, s)`;
/// else `InadmissibleComposition`, where CuTe silently miscomputes). Post: `R(i) == A(B(i))` for
/// every `i` in B's domain, `size(R) == size(B)`.
///
/// >>> tessera.composition("(6,2):(8,2)", "(4,3):(3,1)")
/// Layout('((2,2),3):((24,2),8)')
#[pyfunction]
#[pyo3(signature = (a, b, pycute = false))]
pub(crate) fn composition(
    a: &Bound<'_, PyAny>,
    b: &Bound<'_, PyAny>,
    pycute: bool,
) -> PyResult<PyObject> {
    if b.is_none() {
        return Ok(a.clone().unbind());
    }
    or_registry(
        composition_fast(a, b, pycute),
        "composition",
        &[a, b],
        pycute,
    )
}

fn composition_fast(
    a: &Bound<'_, PyAny>,
    b: &Bound<'_, PyAny>,
    pycute: bool,
) -> PyResult<PyObject> {
    let (ka, kb) = (fast::kind(a), fast::kind(b));
    if !ka.is_func() && !kb.is_func() {
        let f = if pycute { Face::PyCute } else { ka.face() };
        if let Some((lb, _)) = fast::plain(b) {
            let la = layout_ref(a, f)?;
            return fast::new_layout_from(a.py(), f, algebra::composition(&la, lb));
        }
        return op_tiler(a, b, f, algebra::composition_tiler);
    }
    let fa = func_arg(a);
    let fb = func_arg(b);
    let f = if pycute || ka.face() == Face::PyCute {
        Face::PyCute
    } else {
        Face::Tessera
    };
    let any_a = match fa {
        Some(x) => x,
        None => AnyLayout::Plain(layout_arg(a, f)?),
    };
    let rhs = match fb {
        Some(x) => Rhs::Func(x),
        None => Rhs::Tiler(tiler_arg(b, f, 0)?),
    };
    wrap_any(
        a.py(),
        f,
        swizzled::composition(&any_a, &rhs).map_err(raise)?,
    )
}

tiler_ops! {
    logical_divide => algebra::logical_divide, "`logical_divide(A, tiler)`: A divided by the tiler: `(tile, rest)` per mode (CuTe's `logical_divide`); swizzled and composed layouts divide or multiply their inner layout.

Pre: the composition's obligations (`InadmissibleComposition`, `NonInjective`, `TooLarge`; for
products `NotComplementable`); a divide whose tiler does not divide A suggests its ragged form.
Post: CuTe C++'s result; `size` is kept by a divide.

>>> tessera.logical_divide(\"(4,8):(8,1)\", (2, 4))
Layout('((2,2),(4,2)):((8,16),(1,4))')",
    zipped_divide => algebra::zipped_divide, "`zipped_divide(A, tiler)`: `((tiles), (rests))`; swizzled and composed layouts divide or multiply their inner layout.

Pre: the composition's obligations (`InadmissibleComposition`, `NonInjective`, `TooLarge`; for
products `NotComplementable`); a divide whose tiler does not divide A suggests its ragged form.
Post: CuTe C++'s result; `size` is kept by a divide.

>>> tessera.zipped_divide(\"(4,8):(8,1)\", (2, 4))
Layout('((2,4),(2,2)):((8,1),(16,4))')",
    tiled_divide => algebra::tiled_divide, "`tiled_divide(A, tiler)`: `((tiles), rest0, rest1, …)`; swizzled and composed layouts divide or multiply their inner layout.

Pre: the composition's obligations (`InadmissibleComposition`, `NonInjective`, `TooLarge`; for
products `NotComplementable`); a divide whose tiler does not divide A suggests its ragged form.
Post: CuTe C++'s result; `size` is kept by a divide.

>>> tessera.tiled_divide(\"(4,8):(8,1)\", (2, 4))
Layout('((2,4),2,2):((8,1),16,4)')",
    flat_divide => algebra::flat_divide, "`flat_divide(A, tiler)`: `(tile0, tile1, …, rest0, rest1, …)`; swizzled and composed layouts divide or multiply their inner layout.

Pre: the composition's obligations (`InadmissibleComposition`, `NonInjective`, `TooLarge`; for
products `NotComplementable`); a divide whose tiler does not divide A suggests its ragged form.
Post: CuTe C++'s result; `size` is kept by a divide.

>>> tessera.flat_divide(\"(4,8):(8,1)\", (2, 4))
Layout('(2,4,2,2):(8,1,16,4)')",
    logical_product => algebra::logical_product, "`logical_product(A, tiler)`: `(A, complement(A) ∘ tiler)` (CuTe's `logical_product`); swizzled and composed layouts divide or multiply their inner layout.

Pre: the composition's obligations (`InadmissibleComposition`, `NonInjective`, `TooLarge`; for
products `NotComplementable`); a divide whose tiler does not divide A suggests its ragged form.
Post: CuTe C++'s result; `size` is kept by a divide.

>>> tessera.logical_product(\"(2,2):(1,2)\", 3)
Layout('((2,2),3):((1,2),4)')",
    zipped_product => algebra::zipped_product, "`zipped_product(A, tiler)`: the product by mode, tiles first; swizzled and composed layouts divide or multiply their inner layout.

Pre: the composition's obligations (`InadmissibleComposition`, `NonInjective`, `TooLarge`; for
products `NotComplementable`); a divide whose tiler does not divide A suggests its ragged form.
Post: CuTe C++'s result; `size` is kept by a divide.

>>> tessera.zipped_product(\"(2,2):(1,2)\", \"3:1\")
Layout('((2,2),3):((1,2),4)')",
    tiled_product => algebra::tiled_product, "`tiled_product(A, tiler)`: `((tiles), rest0, rest1, …)` of the product; swizzled and composed layouts divide or multiply their inner layout.

Pre: the composition's obligations (`InadmissibleComposition`, `NonInjective`, `TooLarge`; for
products `NotComplementable`); a divide whose tiler does not divide A suggests its ragged form.
Post: CuTe C++'s result; `size` is kept by a divide.

>>> tessera.tiled_product(\"(2,2):(1,2)\", \"3:1\")
Layout('((2,2),3):((1,2),4)')",
    flat_product => algebra::flat_product, "`flat_product(A, tiler)`: the product with every mode flat; swizzled and composed layouts divide or multiply their inner layout.

Pre: the composition's obligations (`InadmissibleComposition`, `NonInjective`, `TooLarge`; for
products `NotComplementable`); a divide whose tiler does not divide A suggests its ragged form.
Post: CuTe C++'s result; `size` is kept by a divide.

>>> tessera.flat_product(\"(2,2):(1,2)\", \"3:1\")
Layout('(2,2,3):(1,2,4)')",
}

pub(crate) fn face(pycute: bool, a: &Bound<'_, PyAny>) -> Face {
    if pycute {
        Face::PyCute
    } else {
        face_of(a)
    }
}

/// `op(A, B)` on two plain layouts, the result in `face(pycute, a)`.
pub(crate) fn layout_op2(
    a: &Bound<'_, PyAny>,
    b: &Bound<'_, PyAny>,
    pycute: bool,
    op: impl FnOnce(&Layout, &Layout) -> tessera::Result<Layout>,
) -> PyResult<PyObject> {
    let f = face(pycute, a);
    let r = op(&*layout_ref(a, f)?, &*layout_ref(b, f)?);
    fast::new_layout_from(a.py(), f, r)
}

/// `blocked_product(A, B)`: B copies of the block A, A's modes first (CuTe's `blocked_product`);
/// A a layout, a swizzled layout (the product of its inner layout) or a shape.
///
/// Pre: the products' obligations (`non_injective`, `not_complementable`, `too_large`). Post:
/// mode `i` of the result is `(A_i, B_i)`; `size == size(A)·size(B)`.
///
/// >>> tessera.blocked_product("(2,2):(1,2)", "(2,3):(1,2)")
/// Layout('((2,2),(2,3)):((1,4),(2,8))')
#[pyfunction]
#[pyo3(signature = (a, b, pycute = false))]
pub(crate) fn blocked_product(
    a: &Bound<'_, PyAny>,
    b: &Bound<'_, PyAny>,
    pycute: bool,
) -> PyResult<PyObject> {
    let r = layout_op2(a, b, pycute, algebra::blocked_product);
    or_registry(r, "blocked_product", &[a, b], pycute)
}

/// `raked_product(A, B)`: B's tiles interleaved through A (CuTe's `raked_product`).
///
/// Pre: as `blocked_product`. Post: mode `i` of the result is `(B_i, A_i)`.
///
/// >>> tessera.raked_product("(2,2):(1,2)", "(2,3):(1,2)")
/// Layout('((2,2),(3,2)):((4,1),(8,2))')
#[pyfunction]
#[pyo3(signature = (a, b, pycute = false))]
pub(crate) fn raked_product(
    a: &Bound<'_, PyAny>,
    b: &Bound<'_, PyAny>,
    pycute: bool,
) -> PyResult<PyObject> {
    let r = layout_op2(a, b, pycute, algebra::raked_product);
    or_registry(r, "raked_product", &[a, b], pycute)
}

/// `by(layout, profile)` when `profile` is a tuple, else `whole(layout)`.
pub(crate) fn with_profile(
    layout: &Bound<'_, PyAny>,
    profile: Option<&Bound<'_, PyAny>>,
    pycute: bool,
    whole: impl FnOnce(&Layout) -> tessera::Result<Layout>,
    by: impl FnOnce(&Layout, &IntTuple) -> tessera::Result<Layout>,
) -> PyResult<PyObject> {
    let f = face(pycute, layout);
    let l = layout_ref(layout, f)?;
    match profile {
        Some(p) if p.downcast::<PyTuple>().is_ok() => {
            fast::new_layout_from(layout.py(), f, by(&l, &to_int_tuple(p)?))
        }
        _ => fast::new_layout_from(layout.py(), f, whole(&l)),
    }
}

/// `coalesce(L)` or `coalesce(L, profile)`: the same function with the fewest modes (by mode
/// of `profile`); a swizzled layout coalesces its inner layout.
///
/// Pre: `profile` congruent with a prefix of L (`RankMismatch`). Post: `R(i) == L(i)` for every
/// `i`; no two adjacent modes `s0:d0, s1:d1` with `s0·d0 == d1`.
///
/// >>> tessera.coalesce("(2,(1,6)):(1,(6,2))")
/// Layout('12:1')
#[pyfunction]
#[pyo3(signature = (layout, profile = None, pycute = false))]
pub(crate) fn coalesce(
    layout: &Bound<'_, PyAny>,
    profile: Option<&Bound<'_, PyAny>>,
    pycute: bool,
) -> PyResult<PyObject> {
    let r = with_profile(
        layout,
        profile,
        pycute,
        algebra::coalesce,
        algebra::coalesce_by,
    );
    or_registry(r, "coalesce", &with_opt(layout, profile), pycute)
}

/// `filter(L)` or `filter(L, profile)`: `coalesce` with the stride-0 modes removed.
///
/// Pre: as `coalesce`. Post: no stride-0 mode; the image of L is kept.
///
/// >>> tessera.filter("(2,4,3):(1,0,2)")
/// Layout('6:1')
#[pyfunction]
#[pyo3(signature = (layout, profile = None, pycute = false))]
pub(crate) fn filter(
    layout: &Bound<'_, PyAny>,
    profile: Option<&Bound<'_, PyAny>>,
    pycute: bool,
) -> PyResult<PyObject> {
    let r = with_profile(layout, profile, pycute, algebra::filter, algebra::filter_by);
    or_registry(r, "filter", &with_opt(layout, profile), pycute)
}

/// `complement(A)` or `complement(A, cotarget)`: the layout B such that `(A, B)` covers
/// `[0, cotarget)` with no overlap (cotarget defaults to `cosize(filter(A))`); `pycute=True` gives
/// pycute's rule.
///
/// Pre: A injective (`NonInjective`); a tiling complement exists or CuTe's disjoint one is
/// returned with a `complement_holes` warning. Post: `A` and `B` take disjoint values.
///
/// >>> tessera.complement("4:2", 24)
/// Layout('(2,3):(1,8)')
#[pyfunction]
#[pyo3(signature = (layout, cotarget = None, pycute = false))]
pub(crate) fn complement(
    layout: &Bound<'_, PyAny>,
    cotarget: Option<&Bound<'_, PyAny>>,
    pycute: bool,
) -> PyResult<PyObject> {
    let r = complement_fast(layout, cotarget, pycute);
    or_registry(r, "complement", &with_opt(layout, cotarget), pycute)
}

fn complement_fast(
    layout: &Bound<'_, PyAny>,
    cotarget: Option<&Bound<'_, PyAny>>,
    pycute: bool,
) -> PyResult<PyObject> {
    let f = face(pycute, layout);
    let l = layout_ref(layout, f)?;
    let ct = match cotarget {
        Some(c) if c.is_exact_instance_of::<pyo3::types::PyInt>() => {
            Some(IntTuple::leaf(int_of(c)?))
        }
        Some(c) if !c.is_none() => Some(to_int_tuple(c)?),
        _ => None,
    };
    if f == Face::PyCute {
        // pycute's face: the one rule of `complement_pycute_into`, written into a reused
        // layout. No note can come of it (pycute's complement records none), so none is
        // collected.
        let mut out = Layout::default();
        let r =
            algebra::complement::complement_pycute_into(&l, ct.as_ref(), &mut out).map(|()| out);
        return fast::new_layout_from(layout.py(), f, r);
    }
    let (r, notes) = tessera::error::note::collect(|| match &ct {
        Some(ct) => algebra::complement(&l, ct),
        None => algebra::complement_default(&l),
    });
    if !notes.is_empty() {
        warn_notes(layout.py(), &notes)?;
    }
    fast::new_layout_from(layout.py(), f, r)
}

/// `complement_exact(A)` or `complement_exact(A, cotarget)`: the complement only where it tiles.
///
/// Pre: A injective and tractable (`NotComplementable` otherwise). Post: `(A, B)` is a bijection
/// onto `[0, cotarget)`.
///
/// >>> tessera.complement_exact("4:2", 24)
/// Layout('(2,3):(1,8)')
#[pyfunction]
#[pyo3(signature = (layout, cotarget = None))]
pub(crate) fn complement_exact(
    layout: &Bound<'_, PyAny>,
    cotarget: Option<&Bound<'_, PyAny>>,
) -> PyResult<PyObject> {
    let r = (|| {
        let f = face(false, layout);
        let l = layout_ref(layout, f)?;
        let r = match cotarget {
            Some(c) if !c.is_none() => algebra::complement_exact(&l, &to_int_tuple(c)?),
            _ => algebra::complement_exact_default(&l),
        };
        fast::new_layout_from(layout.py(), f, r)
    })();
    or_registry(r, "complement_exact", &with_opt(layout, cotarget), false)
}

/// Each note (a warning that travels with a successful result) as a Python `UserWarning`
/// `"CODE: message"`.
pub(crate) fn warn_notes(py: Python<'_>, notes: &[tessera::error::Note]) -> PyResult<()> {
    for n in notes {
        let msg = std::ffi::CString::new(format!("{}: {}", n.code, n.message))
            .unwrap_or_else(|_| c"tessera note".to_owned());
        PyErr::warn(
            py,
            &py.get_type::<pyo3::exceptions::PyUserWarning>(),
            &msg,
            1,
        )?;
    }
    Ok(())
}

/// An inverse of a plain layout (`plain`) or of a swizzle or composed layout (`func`).
pub(crate) fn inverse(
    layout: &Bound<'_, PyAny>,
    pycute: bool,
    plain: impl FnOnce(&Layout) -> tessera::Result<Layout>,
    func: impl FnOnce(&AnyLayout) -> tessera::Result<AnyLayout>,
) -> PyResult<PyObject> {
    if let Some((l, lf)) = fast::plain(layout) {
        let f = if pycute { Face::PyCute } else { lf };
        return fast::new_layout_from(layout.py(), f, plain(l));
    }
    if layout.is_none() {
        return Ok(layout.clone().unbind());
    }
    let k = fast::kind(layout);
    if k.is_func() {
        let fa = func_arg(layout).expect("a swizzle or composed layout");
        let f = if pycute { Face::PyCute } else { k.face() };
        return wrap_any(layout.py(), f, func(&fa).map_err(raise)?);
    }
    let f = face(pycute, layout);
    let r = plain(&*layout_ref(layout, f)?);
    fast::new_layout_from(layout.py(), f, r)
}

/// `right_inverse(L)`: R with `L(R(i)) == i` on R's domain (the largest contiguous one), for
/// plain, swizzled or composed layouts.
///
/// Pre: none for plain layouts (an empty domain is `1:0`). Post: `L(R(i)) == i` for every `i`.
///
/// >>> tessera.right_inverse("(4,8):(8,1)")
/// Layout('(8,4):(4,1)')
#[pyfunction]
#[pyo3(signature = (layout, pycute = false))]
pub(crate) fn right_inverse(layout: &Bound<'_, PyAny>, pycute: bool) -> PyResult<PyObject> {
    let r = inverse(
        layout,
        pycute,
        algebra::right_inverse,
        swizzled::right_inverse,
    );
    or_registry(r, "right_inverse", &[layout], pycute)
}

/// `left_inverse(L)`: R with `R(L(i)) == i` for every `i` of L's domain.
///
/// Pre: L injective (`NonInjective`), strides ≥ 0. Post: `R(L(i)) == i`.
///
/// >>> tessera.left_inverse("(4,8):(8,1)")
/// Layout('(8,4):(4,1)')
#[pyfunction]
#[pyo3(signature = (layout, pycute = false))]
pub(crate) fn left_inverse(layout: &Bound<'_, PyAny>, pycute: bool) -> PyResult<PyObject> {
    let r = inverse(
        layout,
        pycute,
        algebra::left_inverse,
        swizzled::left_inverse,
    );
    or_registry(r, "left_inverse", &[layout], pycute)
}

/// pycute's `complement(layout, max_idx=1)`: [`complement`] in the pycute face (a native
/// function, not a Python wrapper, so a call costs one crossing).
#[pyfunction(name = "_pycute_complement")]
#[pyo3(signature = (layout, max_idx = None))]
pub(crate) fn pycute_complement(
    layout: &Bound<'_, PyAny>,
    max_idx: Option<&Bound<'_, PyAny>>,
) -> PyResult<PyObject> {
    complement(layout, max_idx, true)
}

/// pycute's `right_inverse(layout)`: [`right_inverse`] in the pycute face.
#[pyfunction(name = "_pycute_right_inverse")]
pub(crate) fn pycute_right_inverse(layout: &Bound<'_, PyAny>) -> PyResult<PyObject> {
    right_inverse(layout, true)
}

/// pycute's `left_inverse(layout)`: [`left_inverse`] in the pycute face.
#[pyfunction(name = "_pycute_left_inverse")]
pub(crate) fn pycute_left_inverse(layout: &Bound<'_, PyAny>) -> PyResult<PyObject> {
    left_inverse(layout, true)
}

/// pycute's `blocked_product(A, B)`: [`blocked_product`] in the pycute face.
#[pyfunction(name = "_pycute_blocked_product")]
pub(crate) fn pycute_blocked_product(
    a: &Bound<'_, PyAny>,
    b: &Bound<'_, PyAny>,
) -> PyResult<PyObject> {
    blocked_product(a, b, true)
}

/// pycute's `raked_product(A, B)`: [`raked_product`] in the pycute face.
#[pyfunction(name = "_pycute_raked_product")]
pub(crate) fn pycute_raked_product(
    a: &Bound<'_, PyAny>,
    b: &Bound<'_, PyAny>,
) -> PyResult<PyObject> {
    raked_product(a, b, true)
}

/// pycute's `make_layout(L0, L1, ...)` or `make_layout(iterable)`, in the pycute face.
#[pyfunction(name = "_pycute_make_layout")]
#[pyo3(signature = (*layouts))]
pub(crate) fn pycute_make_layout(layouts: &Bound<'_, PyTuple>) -> PyResult<PyObject> {
    make_layout(layouts, true)
}

/// `make_layout(L0, L1, …)`, `make_layout([L0, L1, …])`, `make_layout(shape)` or
/// `make_layout(shape, stride)`: layouts as modes, or a layout from a shape (compact column-major)
/// and strides.
///
/// Pre: shapes ≥ 1, shape and stride congruent. Post: mode `i` is `L_i`.
///
/// >>> tessera.make_layout("2:1", "3:2"), tessera.make_layout((2, 3))
/// (Layout('(2,3):(1,2)'), Layout('(2,3):(1,2)'))
#[pyfunction]
#[pyo3(signature = (*layouts, pycute = false))]
pub(crate) fn make_layout(layouts: &Bound<'_, PyTuple>, pycute: bool) -> PyResult<PyObject> {
    // `make_layout(shape)`: a tuple of integers is a shape (its compact layout), as in the CLI,
    // not a list of one-mode layouts.
    if !pycute && layouts.len() == 1 {
        let x = layouts.get_item(0)?;
        if x.downcast::<PyTuple>().is_ok() && to_int_tuple(&x).is_ok() {
            return apply(layouts.py(), "make_layout", layouts, false);
        }
    }
    let r = make_layout_fast(layouts, pycute);
    let args: Vec<Bound<'_, PyAny>> = layouts.iter().collect();
    or_registry(r, "make_layout", &args.iter().collect::<Vec<_>>(), pycute)
}

fn make_layout_fast(layouts: &Bound<'_, PyTuple>, pycute: bool) -> PyResult<PyObject> {
    let py = layouts.py();
    let mut f = if pycute { Face::PyCute } else { Face::Tessera };
    let mut ls = Vec::with_capacity(layouts.len());
    if layouts.len() == 1 && native(&layouts.get_item(0)?).is_none() {
        for x in layouts.get_item(0)?.try_iter()? {
            let x = x?;
            if face_of(&x) == Face::PyCute {
                f = Face::PyCute;
            }
            ls.push(layout_arg(&x, f)?);
        }
    } else {
        for x in layouts.iter() {
            if face_of(&x) == Face::PyCute {
                f = Face::PyCute;
            }
            ls.push(layout_arg(&x, f)?);
        }
    }
    wrap(py, f, Layout::concat(ls.iter()))
}

/// `op(layout)` on a plain layout, the result in the argument's face.
pub(crate) fn unary(
    py: Python<'_>,
    layout: &Bound<'_, PyAny>,
    op: impl FnOnce(&Layout) -> tessera::Result<Layout>,
) -> PyResult<PyObject> {
    let f = face_of(layout);
    wrap(py, f, op(&layout_arg(layout, f)?).map_err(raise)?)
}

/// `upcast(L, n)`: L over elements n times wider (CuTe's `upcast<n>`); swizzled layouts too.
///
/// Pre: `n ≥ 1`; the unit-stride mode divisible by `n` (`Divisibility`). Post: the same bytes.
///
/// >>> tessera.upcast("(4,8):(1,4)", 2)
/// Layout('(2,8):(1,2)')
#[pyfunction]
pub(crate) fn upcast(layout: &Bound<'_, PyAny>, n: &Bound<'_, PyAny>) -> PyResult<PyObject> {
    let r = int_of(n).and_then(|n| unary(layout.py(), layout, |l| algebra::upcast(l, n)));
    or_registry(r, "upcast", &[layout, n], false)
}

/// `downcast(L, n)`: L over elements n times narrower (CuTe's `downcast<n>`).
///
/// Pre: `n ≥ 1`; a mode of stride 1 (`NoUnitStride`). Post: the same bytes.
///
/// >>> tessera.downcast("(4,8):(1,4)", 2)
/// Layout('(8,8):(1,8)')
#[pyfunction]
pub(crate) fn downcast(layout: &Bound<'_, PyAny>, n: &Bound<'_, PyAny>) -> PyResult<PyObject> {
    let r = int_of(n).and_then(|n| unary(layout.py(), layout, |l| algebra::downcast(l, n)));
    or_registry(r, "downcast", &[layout, n], false)
}

/// `nullspace(L)`: the layout of the coordinates L maps to 0 (its stride-0 part).
///
/// Pre: none. Post: `L(R(i)) == 0` for every `i`.
///
/// >>> tessera.nullspace("(2,4,3):(1,0,2)")
/// Layout('4:2')
#[pyfunction]
pub(crate) fn nullspace(py: Python<'_>, layout: &Bound<'_, PyAny>) -> PyResult<PyObject> {
    or_registry(
        unary(py, layout, algebra::nullspace),
        "nullspace",
        &[layout],
        false,
    )
}

/// `max_common_layout(A, B)`: the largest layout R with `A(R(i)) == B(R(i)) == i`-contiguous
/// (CuTe's `max_common_layout`, the common vectorisable part).
///
/// Pre: A and B injective on their common part. Post: R a prefix of both inverses.
///
/// >>> tessera.max_common_layout("(4,8):(1,4)", "(4,8):(1,8)")
/// Layout('4:1')
#[pyfunction]
pub(crate) fn max_common_layout(
    py: Python<'_>,
    a: &Bound<'_, PyAny>,
    b: &Bound<'_, PyAny>,
) -> PyResult<PyObject> {
    let r = (|| {
        let f = face_of(a);
        let r =
            algebra::max_common_layout(&layout_arg(a, f)?, &layout_arg(b, f)?).map_err(raise)?;
        wrap(py, f, r)
    })();
    or_registry(r, "max_common_layout", &[a, b], false)
}

/// `max_common_vector(A, B)`: the number of contiguous elements A and B agree on (the widest
/// common vector).
///
/// Pre: as `max_common_layout`. Post: `A(i) == B(i) == i` for `i <` the result.
///
/// >>> tessera.max_common_vector("(4,8):(1,4)", "(4,8):(1,8)")
/// 4
#[pyfunction]
pub(crate) fn max_common_vector(a: &Bound<'_, PyAny>, b: &Bound<'_, PyAny>) -> PyResult<PyObject> {
    let r = (|| {
        let f = face_of(a);
        let v =
            algebra::max_common_vector(&layout_arg(a, f)?, &layout_arg(b, f)?).map_err(raise)?;
        Ok(v.into_pyobject(a.py())?.into_any().unbind())
    })();
    or_registry(r, "max_common_vector", &[a, b], false)
}

/// `tile_to_shape(block, shape)` or `tile_to_shape(block, shape, order)`: the block repeated to
/// cover `shape` (CuTe's `tile_to_shape`); a swizzled atom by object, text or CUTLASS name.
///
/// Pre: each mode of `block` divides that of `shape` (`Divisibility`). Post: `product_each(shape)`
/// of the result equals `shape`.
///
/// >>> tessera.tile_to_shape("(2,2):(1,2)", (4, 4))
/// Layout('((2,2),(2,2)):((1,4),(2,8))')
#[pyfunction]
#[pyo3(signature = (block, shape, order = None))]
pub(crate) fn tile_to_shape(
    py: Python<'_>,
    block: &Bound<'_, PyAny>,
    shape: &Bound<'_, PyAny>,
    order: Option<&Bound<'_, PyAny>>,
) -> PyResult<PyObject> {
    let r = (|| {
        let f = face_of(block);
        let o = order.map(to_int_tuple).transpose()?;
        let r = algebra::tile_to_shape(&layout_arg(block, f)?, &to_int_tuple(shape)?, o.as_ref())
            .map_err(raise)?;
        wrap(py, f, r)
    })();
    let mut args = vec![block, shape];
    args.extend(order);
    or_registry(r, "tile_to_shape", &args, false)
}

/// `make_ordered_layout(shape, order)`: the compact layout whose strides grow in `order`.
///
/// Pre: `order` a permutation congruent with `shape`. Post: a bijection onto `[0, size(shape))`.
///
/// >>> tessera.make_ordered_layout((2, 3), (1, 0))
/// Layout('(2,3):(3,1)')
#[pyfunction]
pub(crate) fn make_ordered_layout(
    py: Python<'_>,
    shape: &Bound<'_, PyAny>,
    order: &Bound<'_, PyAny>,
) -> PyResult<PyObject> {
    let r = (|| {
        let r = algebra::make_ordered_layout(&to_int_tuple(shape)?, &to_int_tuple(order)?)
            .map_err(raise)?;
        wrap(py, Face::Tessera, r)
    })();
    or_registry(r, "make_ordered_layout", &[shape, order], false)
}

/// `complement1(N, d, M)`: the Complementation theorem's complement of `N:d` in `[0, M)`,
/// `(d, M/(N·d)):(1, N·d)`.
///
/// Pre: `N·d ∣ M` (`Divisibility`, with checked suggestions); positive arguments. Post:
/// `(N:d, R)` tiles `[0, M)`.
///
/// >>> tessera.complement1(4, 2, 24)
/// Layout('(2,3):(1,8)')
#[pyfunction]
pub(crate) fn complement1(
    n: &Bound<'_, PyAny>,
    d: &Bound<'_, PyAny>,
    m: &Bound<'_, PyAny>,
) -> PyResult<PyObject> {
    let py = n.py();
    let r = (|| {
        let (n, d, m) = (int_of(n)?, int_of(d)?, int_of(m)?);
        wrap(
            py,
            Face::Tessera,
            algebra::complement1(n, d, m).map_err(raise)?,
        )
    })();
    or_registry(r, "complement1", &[n, d, m], false)
}

// ----------------------------------------------------------------------- expressions

pub(crate) fn value_to_py(py: Python<'_>, v: Value) -> PyResult<PyObject> {
    value_to_py_in(py, v, Face::Tessera)
}

/// A value as a Python object, its layouts in `face`.
pub(crate) fn value_to_py_in(py: Python<'_>, v: Value, face: Face) -> PyResult<PyObject> {
    Ok(match v {
        Value::Int(i) => i.into_pyobject(py)?.into_any().unbind(),
        Value::Under => py.None(),
        Value::Layout(l) => wrap(py, face, l)?,
        Value::Swizzle(sw) => wrap_any(py, face, AnyLayout::Swizzle(sw))?,
        Value::Composed(c) => wrap_any(py, face, AnyLayout::Composed(c))?,
        Value::Text(t) => t.into_pyobject(py)?.into_any().unbind(),
        Value::Tuple(items) => {
            let xs = items
                .into_iter()
                .map(|x| value_to_py_in(py, x, face))
                .collect::<PyResult<Vec<_>>>()?;
            PyTuple::new(py, xs)?.into_any().unbind()
        }
    })
}

// ------------------------------------------------------------ the registry, generically

/// A Python argument as a value of the expression language: a layout, swizzle or composed layout
/// of either face, an integer, `None` (`_`), a tuple or list of them, or expression text.
pub(crate) fn to_value(o: &Bound<'_, PyAny>, depth: usize) -> PyResult<Value> {
    if let Some((l, _)) = fast::plain(o) {
        return Ok(Value::Layout(l.clone()));
    }
    if let Some(a) = func_arg(o) {
        return Ok(Value::from_any_layout(a));
    }
    if let Some(l) = crate::linear::linear_arg(o) {
        // A linear layout is the CuTe layout it equals (coordinates -> offset).
        return Ok(Value::from_any_layout(
            l.to_any_layout().map_err(crate::linear::lerr)?,
        ));
    }
    if o.is_none() {
        return Ok(Value::Under);
    }
    if o.is_instance_of::<pyo3::types::PyInt>() {
        return Ok(Value::Int(int_of(o)?));
    }
    if let Ok(s) = o.downcast::<PyString>() {
        return notation::eval(&s.to_cow()?).map_err(raise);
    }
    if depth < 64 {
        if let Ok(t) = o.downcast::<PyTuple>() {
            return Ok(Value::Tuple(
                t.iter()
                    .map(|x| to_value(&x, depth + 1))
                    .collect::<PyResult<_>>()?,
            ));
        }
        if let Ok(t) = o.downcast::<PyList>() {
            return Ok(Value::Tuple(
                t.iter()
                    .map(|x| to_value(&x, depth + 1))
                    .collect::<PyResult<_>>()?,
            ));
        }
    }
    Err(type_error(
        "a layout, an integer, None, a tuple or expression text",
        o,
    ))
}

/// `apply(name, *args, pycute=False)`: the operation `name` of the registry on Python arguments
/// (every kind the CLI takes; a `SymLayout` argument runs the symbolic algebra).
///
/// Pre: `name` an operation (`UnknownFunction`, with "did you mean"); the row's arity and kinds.
/// Post: what `tessera eval 'name(args)'` prints, as Python objects.
///
/// >>> tessera.apply("complement", "4:2", 24)
/// Layout('(2,3):(1,8)')
#[pyfunction]
#[pyo3(signature = (name, *args, pycute = false))]
pub(crate) fn apply(
    py: Python<'_>,
    name: &str,
    args: &Bound<'_, PyTuple>,
    pycute: bool,
) -> PyResult<PyObject> {
    if crate::symbolic::any_symbolic(args) {
        // A symbolic argument: the symbolic algebra (the CLI's `eval --assume`), with guards.
        return Ok(Py::new(py, crate::symbolic::apply_symbolic(name, args)?)?.into_any());
    }
    let vals = args
        .iter()
        .map(|a| to_value(&a, 0))
        .collect::<PyResult<Vec<_>>>()?;
    let any_pycute = args.iter().any(|a| fast::kind(&a).face() == Face::PyCute);
    let policy = notation::ops::lookup(name).map(|op| op.pycute);
    let face = match policy {
        Some(notation::ops::Face::Tessera) => Face::Tessera,
        _ if pycute || any_pycute => Face::PyCute,
        _ => Face::Tessera,
    };
    let (r, notes) = tessera::error::note::collect(|| match (policy, face, vals.as_slice()) {
        (Some(notation::ops::Face::Complement), Face::PyCute, [Value::Layout(l), rest @ ..]) => {
            let ct = match rest {
                [] => None,
                [c] => Some(c.to_int_tuple().ok_or_else(|| tessera::Error::Type {
                    op: name.to_string(),
                    position: 2,
                    expected: "an integer or a tuple of integers",
                    found: c.to_string(),
                })?),
                _ => return notation::ops::apply(name, &vals, 1),
            };
            algebra::complement::complement_pycute(l, ct.as_ref()).map(Value::Layout)
        }
        _ => notation::ops::apply(name, &vals, 1),
    });
    let v = r.map_err(|e| raise_in(face, e))?;
    warn_notes(py, &notes)?;
    value_to_py_in(py, v, face)
}

/// One registry row as Python sees it: `(name, help, arities, pycute policy, codes, argument
/// kinds, lifting to swizzled layouts, ragged form)`.
pub(crate) type Row = (
    &'static str,
    &'static str,
    Vec<usize>,
    &'static str,
    Vec<&'static str>,
    Vec<String>,
    &'static str,
    String,
);

/// `operations()`: every row of the registry: `(name, help, arities, pycute policy, codes,
/// argument kinds, lift, ragged form)`; lift is `refuse`, `inner` or `func` (how swizzled layouts are
/// taken), ragged the name of the ragged form or `""`.
///
/// Pre: none. Post: one tuple per operation, in the help's order.
///
/// >>> [r[0] for r in tessera.operations()][:3]
/// ['composition', 'complement', 'complement_exact']
#[pyfunction(name = "operations")]
pub(crate) fn operation_rows() -> Vec<Row> {
    use notation::ops::{Lift, RaggedForm};
    notation::ops::OPS
        .iter()
        .map(|op| {
            let face = match op.pycute {
                notation::ops::Face::Argument => "argument",
                notation::ops::Face::Tessera => "tessera",
                notation::ops::Face::Complement => "complement",
                notation::ops::Face::NotLayout => "not_layout",
            };
            let kinds = op.args.iter().map(|k| snake(&format!("{k:?}"))).collect();
            let lift = match op.lift {
                Lift::Refuse => "refuse",
                Lift::Inner(_) => "inner",
                Lift::Func(_) => "func",
            };
            let ragged = if op.ragged == RaggedForm::No {
                String::new()
            } else {
                format!("ragged_{}", op.name)
            };
            (
                op.name,
                op.help,
                op.arity.to_vec(),
                face,
                op.codes.to_vec(),
                kinds,
                lift,
                ragged,
            )
        })
        .collect()
}

/// `LayoutOrShape` as `layout_or_shape`.
fn snake(camel: &str) -> String {
    let mut out = String::new();
    for (i, c) in camel.chars().enumerate() {
        if c.is_ascii_uppercase() {
            if i > 0 {
                out.push('_');
            }
            out.push(c.to_ascii_lowercase());
        } else {
            out.push(c);
        }
    }
    out
}

/// An example call of each registry row with no hand-written binding, in Python: the arguments
/// (as Python source) and the same call in the expression language. The docstring shows the
/// call and its value (computed here, so it is the registry's answer); the doctests run it.
const EXAMPLES: &[(&str, &str, &str)] = &[
    (
        "coalesce_trace",
        "\"(2,(1,6)):(1,(6,2))\"",
        "coalesce_trace((2,(1,6)):(1,(6,2)))",
    ),
    ("divides", "4, 12", "divides(4,12)"),
    ("size", "\"(4,8):(8,1)\"", "size((4,8):(8,1))"),
    ("cosize", "\"(2,2):(1,4)\"", "cosize((2,2):(1,4))"),
    (
        "rank",
        "\"(2,(3,4)):(1,(2,6))\"",
        "rank((2,(3,4)):(1,(2,6)))",
    ),
    (
        "depth",
        "\"(2,(3,4)):(1,(2,6))\"",
        "depth((2,(3,4)):(1,(2,6)))",
    ),
    (
        "shape",
        "\"(2,(3,4)):(1,(2,6))\"",
        "shape((2,(3,4)):(1,(2,6)))",
    ),
    (
        "stride",
        "\"(2,(3,4)):(1,(2,6))\"",
        "stride((2,(3,4)):(1,(2,6)))",
    ),
    (
        "flatten",
        "\"(2,(3,4)):(1,(2,6))\"",
        "flatten((2,(3,4)):(1,(2,6)))",
    ),
    (
        "get",
        "\"(2,(3,4)):(1,(2,6))\", 1",
        "get((2,(3,4)):(1,(2,6)),1)",
    ),
    ("idx2crd", "7, (2, 4)", "idx2crd(7,(2,4))"),
    (
        "crd2idx",
        "(1, 2), (2, 3), (1, 2)",
        "crd2idx((1,2),(2,3),(1,2))",
    ),
    (
        "slice",
        "(1, None), \"(4,8):(8,1)\"",
        "slice((1,_),(4,8):(8,1))",
    ),
    (
        "local_tile",
        "\"(8,8):(1,8)\", (4, 4), (1, 1)",
        "local_tile((8,8):(1,8),(4,4),(1,1))",
    ),
    (
        "local_partition",
        "\"(8,8):(1,8)\", (2, 2), 3",
        "local_partition((8,8):(1,8),(2,2),3)",
    ),
    (
        "ragged_logical_divide",
        "\"(3,5):(5,1)\", \"2:1\"",
        "ragged_logical_divide((3,5):(5,1),2:1)",
    ),
    (
        "ragged_zipped_divide",
        "\"(3,5):(5,1)\", \"2:1\"",
        "ragged_zipped_divide((3,5):(5,1),2:1)",
    ),
    (
        "ragged_tiled_divide",
        "\"(3,5):(5,1)\", \"2:1\"",
        "ragged_tiled_divide((3,5):(5,1),2:1)",
    ),
    (
        "ragged_flat_divide",
        "\"(3,5):(5,1)\", \"2:1\"",
        "ragged_flat_divide((3,5):(5,1),2:1)",
    ),
    (
        "ragged_local_tile",
        "\"(9,8):(1,9)\", (4, 4), (2, 1)",
        "ragged_local_tile((9,8):(1,9),(4,4),(2,1))",
    ),
    (
        "ragged_local_partition",
        "\"(8,8):(1,8)\", (2, 2), 3",
        "ragged_local_partition((8,8):(1,8),(2,2),3)",
    ),
    ("make_swizzle", "4, 32", "make_swizzle(4,32)"),
    (
        "recast_layout",
        "\"(4,8):(1,4)\", 16, 32",
        "recast_layout((4,8):(1,4),16,32)",
    ),
];

/// The docstring of a registry row's Python function: its help, its obligations (Pre), what it
/// returns (Post) and an example with the registry's own answer.
fn registry_doc(py: Python<'_>, op: &notation::ops::Op) -> String {
    let pre = if op.codes.is_empty() {
        "the argument kinds of the row (`ArgumentType`, `Arity`)".to_string()
    } else {
        format!(
            "the obligations {} (`tessera.explain(code)`), and the row's argument kinds",
            op.codes
                .iter()
                .map(|c| format!("`{c}`"))
                .collect::<Vec<_>>()
                .join(", ")
        )
    };
    let mut doc = format!(
        "{}\n\nFrom the registry (`tessera.operations()`), with every argument kind the CLI takes; \
         pycute=True gives pycute's face.\n\nPre: {pre}.\nPost: what `tessera eval '{}(...)'` prints, \
         as Python objects.\n",
        op.help, op.name
    );
    if let Some((_, args, expr)) = EXAMPLES.iter().find(|(n, _, _)| *n == op.name) {
        let shown = notation::eval(expr)
            .ok()
            .and_then(|v| value_to_py(py, v).ok())
            .and_then(|o| o.bind(py).repr().ok().map(|r| r.to_string()));
        if let Some(out) = shown {
            doc.push_str(&format!("\n>>> tessera.{}({args})\n{out}\n", op.name));
        }
    }
    doc
}

/// Adds to the module, for every row of the registry that has no hand-written binding, a native
/// function of that name calling [`apply`] (so a new row is a Python function with no Python
/// change). Called last, once, at import.
pub(crate) fn register_registry(m: &Bound<'_, PyModule>) -> PyResult<()> {
    let py = m.py();
    for op in notation::ops::OPS {
        if m.hasattr(op.name)? {
            continue;
        }
        let name: &'static str = op.name;
        // Once per row and process: the names live as long as the module.
        let cname: &'static std::ffi::CStr = Box::leak(
            std::ffi::CString::new(name)
                .expect("a name")
                .into_boxed_c_str(),
        );
        let cdoc: &'static std::ffi::CStr = Box::leak(
            std::ffi::CString::new(registry_doc(py, op))
                .expect("a help text")
                .into_boxed_c_str(),
        );
        let f = pyo3::types::PyCFunction::new_closure(
            py,
            Some(cname),
            Some(cdoc),
            move |args: &Bound<'_, PyTuple>,
                  kwargs: Option<&Bound<'_, pyo3::types::PyDict>>|
                  -> PyResult<PyObject> {
                let pycute = match kwargs {
                    Some(k) => match k.get_item("pycute")? {
                        Some(v) if k.len() == 1 => v.is_truthy()?,
                        _ => {
                            return Err(PyTypeError::new_err(format!(
                                "{name}() takes positional arguments and pycute= only"
                            )))
                        }
                    },
                    None => false,
                };
                apply(args.py(), name, args, pycute)
            },
        )?;
        m.add(name, f)?;
    }
    Ok(())
}

/// `eval(expr)`: one expression of the expression language (`tessera eval`).
///
/// Pre: the text parses (`ParseError` with the column). Post: the value as Python objects
/// (`Layout`, `ComposedLayout`, `Swizzle`, int, tuple, str).
///
/// >>> tessera.eval("composition((6,2):(8,2),(4,3):(3,1))")
/// Layout('((2,2),3):((24,2),8)')
#[pyfunction]
pub(crate) fn eval(py: Python<'_>, expr: &str) -> PyResult<PyObject> {
    let (v, notes) = py.allow_threads(|| notation::eval_noted(expr));
    let v = v.map_err(raise)?;
    warn_notes(py, &notes)?;
    value_to_py(py, v)
}

/// `batch(exprs)`: many expressions (the GIL released); each result is the value's CuTe text, or
/// its error (an instance of its `tessera.Error` class, not raised).
///
/// Pre: none. Post: one result per expression, in order.
///
/// >>> tessera.batch(["complement(4:2,24)", "complement1(4,2,7)"])
/// ['(2,3):(1,8)', Divisibility('complement1: failed to discharge N·d ∣ M: 4·2 ∣ 7 is false')]
#[pyfunction]
pub(crate) fn batch(py: Python<'_>, exprs: Vec<String>) -> PyResult<Vec<PyObject>> {
    let results: Vec<Result<String, tessera::Error>> = py.allow_threads(|| {
        exprs
            .iter()
            .map(|e| notation::eval(e).map(|v| v.to_string()))
            .collect()
    });
    results
        .into_iter()
        .map(|r| match r {
            Ok(s) => Ok(s.into_pyobject(py)?.into_any().unbind()),
            Err(e) => Ok(raise_info(py, err_info(e)).into_value(py).into_any()),
        })
        .collect()
}
