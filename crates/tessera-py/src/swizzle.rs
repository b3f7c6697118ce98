//! `Swizzle` and `ComposedLayout` (issue 11's native types), in both faces: `tessera.Swizzle`
//! (`Sw<B,M,S>`, CuTe C++ text) and `tessera.pycute.Swizzle` (`SW_B_M_S`, pycute's text).

use pyo3::prelude::*;
use pyo3::types::PyTuple;

use tessera::algebra::swizzled;
use tessera::layout::{AnyLayout, ComposedLayout, Swizzle};
use tessera::notation;

use crate::fast::{kind, Kind};
use crate::{getitem_any, has_none_pub, native, raise, slice_coord, to_int_tuple, wrap, Face};

/// Any layout-like object: a layout, a swizzle or a composed layout, of either face.
pub(crate) fn any_arg(o: &Bound<'_, PyAny>) -> Option<AnyLayout> {
    if let Some(l) = native(o) {
        return Some(AnyLayout::Plain(l));
    }
    func_arg(o)
}

/// A swizzle or a composed layout (not a plain layout), of either face.
pub(crate) fn func_arg(o: &Bound<'_, PyAny>) -> Option<AnyLayout> {
    // SAFETY (each arm): `kind` compared the exact type with the class's type object.
    match kind(o) {
        Kind::SwizzleT => Some(AnyLayout::Swizzle(
            unsafe { o.downcast_unchecked::<SwizzleT>() }.get().s,
        )),
        Kind::SwizzleP => Some(AnyLayout::Swizzle(
            unsafe { o.downcast_unchecked::<SwizzleP>() }.get().s,
        )),
        Kind::ComposedT => Some(AnyLayout::Composed(Box::new(
            unsafe { o.downcast_unchecked::<ComposedT>() }
                .get()
                .c
                .clone(),
        ))),
        Kind::ComposedP => Some(AnyLayout::Composed(Box::new(
            unsafe { o.downcast_unchecked::<ComposedP>() }
                .get()
                .c
                .clone(),
        ))),
        _ => None,
    }
}

/// A native value of any layout kind, in a face.
pub(crate) fn wrap_any(py: Python<'_>, face: Face, a: AnyLayout) -> PyResult<PyObject> {
    // Every composed result passes the chain bound before it reaches Python (no value deeper
    // than it, so no later operation recurses past it).
    let a = a.check_links("ComposedLayout").map_err(raise)?;
    Ok(match (a, face) {
        (AnyLayout::Plain(l), f) => wrap(py, f, l)?,
        (AnyLayout::Swizzle(s), Face::Tessera) => Py::new(py, SwizzleT { s })?.into_any(),
        (AnyLayout::Swizzle(s), Face::PyCute) => Py::new(py, SwizzleP { s })?.into_any(),
        (AnyLayout::Composed(c), Face::Tessera) => Py::new(py, ComposedT { c: *c })?.into_any(),
        (AnyLayout::Composed(c), Face::PyCute) => Py::new(py, ComposedP { c: *c })?.into_any(),
    })
}

fn any_or_int(o: &Bound<'_, PyAny>) -> PyResult<AnyLayout> {
    if let Some(a) = any_arg(o) {
        return Ok(a);
    }
    Ok(AnyLayout::Plain(crate::layout_arg(o, Face::PyCute)?))
}

fn call_any(a: &AnyLayout, args: &Bound<'_, PyTuple>, face: Face) -> PyResult<PyObject> {
    let py = args.py();
    let crd = if args.len() == 1 {
        args.get_item(0)?
    } else {
        args.clone().into_any()
    };
    if has_none_pub(&crd) {
        let c = slice_coord(&crd)?;
        return wrap_any(py, face, swizzled::slice(&c, a).map_err(raise)?);
    }
    if face == Face::Tessera {
        // tessera's face: the registry's `eval`, which refuses a coordinate out of the domain.
        let v = crate::to_value(&crd, 0)?;
        let r = notation::ops::apply(
            "eval",
            &[tessera::notation::Value::from_any_layout(a.clone()), v],
            1,
        )
        .map_err(raise)?;
        return crate::value_to_py(py, r);
    }
    let c = to_int_tuple(&crd)?;
    let v = match c.as_ref().leaf() {
        Some(i) => a.eval(i),
        None => a.crd2idx(&c),
    }
    .map_err(raise)?;
    Ok(v.into_pyobject(py)?.into_any().unbind())
}

/// The registry's `op` (`shape`, `rank`, `depth`) of a layout-like value, as a Python object.
pub(crate) fn measure_any(py: Python<'_>, op: &str, a: &AnyLayout) -> PyResult<PyObject> {
    let r = notation::ops::apply(
        op,
        &[tessera::notation::Value::from_any_layout(a.clone())],
        1,
    )
    .map_err(raise)?;
    crate::value_to_py(py, r)
}

/// CuTe's `print_layout` of a layout-like value (the table `tessera show` prints).
pub(crate) fn print_layout_any(a: &AnyLayout) -> PyResult<String> {
    notation::print_layout_any(a).map_err(raise)
}

/// The picture `tessera show --svg` draws: a plain layout's grid, or a swizzled layout's grid
/// coloured by 16-byte chunk (`bytes` per element).
pub(crate) fn svg_any(a: &AnyLayout, bytes: i64) -> PyResult<String> {
    let p = match a {
        AnyLayout::Plain(l) => tessera::render::layout_svg(l),
        _ => tessera::render::layout::swizzle_svg(a, bytes),
    };
    p.map(|p| p.svg)
        .map_err(|e| crate::raise_kind("picture", e.code(), e.to_string()))
}

fn outer_cosize(a: &AnyLayout) -> PyResult<i64> {
    match a {
        AnyLayout::Swizzle(s) => Ok(s.span()),
        AnyLayout::Plain(l) => l.cosize().map_err(raise),
        AnyLayout::Composed(c) => outer_cosize(&c.outer),
    }
}

fn hash_any<T: std::hash::Hash>(x: &T) -> u64 {
    use std::hash::Hasher;
    let mut h = std::collections::hash_map::DefaultHasher::new();
    x.hash(&mut h);
    h.finish()
}

macro_rules! swizzle_class {
    ($name:ident, $pyname:literal, $module:literal, $face:expr, $str:expr, $repr:expr) => {
        /// `Swizzle(bits, base, shift)`: XOR the `bits` bits at `base + max(shift, 0)` into the
        /// ones at `base - min(shift, 0)`; obligation `bits ≥ 0`, `base ≥ 0`, `|shift| ≥ bits`.
        #[pyclass(module = $module, name = $pyname, frozen)]
        pub struct $name {
            pub(crate) s: Swizzle,
        }

        #[pymethods]
        impl $name {
            #[new]
            fn new(bits: i64, base: i64, shift: i64) -> PyResult<Self> {
                Ok($name {
                    s: Swizzle::new(bits, base, shift).map_err(raise)?,
                })
            }
            #[getter]
            fn bits(&self) -> i64 {
                self.s.bits()
            }
            #[getter]
            fn base(&self) -> i64 {
                self.s.base()
            }
            #[getter]
            fn shift(&self) -> i64 {
                self.s.shift()
            }
            #[getter]
            fn yyy_msk(&self) -> i64 {
                self.s.yyy_mask()
            }
            #[getter]
            fn zzz_msk(&self) -> i64 {
                self.s.zzz_mask()
            }
            fn __call__(&self, offset: i64) -> i64 {
                self.s.apply(offset)
            }
            fn size(&self) -> i64 {
                self.s.span()
            }
            fn cosize(&self) -> i64 {
                self.s.span()
            }
            fn __eq__(&self, other: &Bound<'_, PyAny>) -> bool {
                matches!(func_arg(other), Some(AnyLayout::Swizzle(o)) if o == self.s)
            }
            fn __hash__(&self) -> u64 {
                hash_any(&self.s)
            }
            fn __str__(&self) -> String {
                let f: fn(&Swizzle) -> String = $str;
                f(&self.s)
            }
            fn __repr__(&self) -> String {
                let f: fn(&Swizzle) -> String = $repr;
                f(&self.s)
            }
        }
    };
}

swizzle_class!(
    SwizzleT,
    "Swizzle",
    "tessera._tessera",
    Face::Tessera,
    |s| s.to_string(),
    |s| format!("Swizzle({},{},{})", s.bits(), s.base(), s.shift())
);
swizzle_class!(
    SwizzleP,
    "Swizzle",
    "tessera.pycute",
    Face::PyCute,
    |s| format!("SW_{}_{}_{}", s.bits(), s.base(), s.shift()),
    |s| format!("Swizzle({},{},{})", s.bits(), s.base(), s.shift())
);

macro_rules! composed_class {
    ($name:ident, $module:literal, $face:expr) => {
        /// `ComposedLayout(B, offset, A)`: the function `c ↦ B(offset + A(c))` (CuTe's
        /// `B o offset o A`).
        #[pyclass(module = $module, name = "ComposedLayout", frozen, sequence)]
        pub struct $name {
            pub(crate) c: ComposedLayout,
        }

        #[pymethods]
        impl $name {
            #[new]
            fn new(
                layout_b: &Bound<'_, PyAny>,
                offset: i64,
                layout_a: &Bound<'_, PyAny>,
            ) -> PyResult<Self> {
                let (b, a) = (any_or_int(layout_b)?, any_or_int(layout_a)?);
                // The chain bound, checked before the node is built (no value deeper than it).
                tessera::layout::swizzle::check_chain_links("ComposedLayout", 1 + b.links() + a.links())
                    .map_err(raise)?;
                Ok($name {
                    c: ComposedLayout::new(b, offset, a),
                })
            }
            #[getter(layoutB)]
            fn layout_b(&self, py: Python<'_>) -> PyResult<PyObject> {
                wrap_any(py, $face, self.c.outer.clone())
            }
            #[getter]
            fn offset(&self) -> i64 {
                self.c.offset
            }
            #[getter(layoutA)]
            fn layout_a(&self, py: Python<'_>) -> PyResult<PyObject> {
                wrap_any(py, $face, self.c.inner.clone())
            }
            fn __eq__(&self, other: &Bound<'_, PyAny>) -> bool {
                matches!(func_arg(other), Some(AnyLayout::Composed(o)) if *o == self.c)
            }
            fn __hash__(&self) -> u64 {
                hash_any(&self.c)
            }
            fn __len__(&self) -> PyResult<usize> {
                Ok(self
                    .c
                    .inner
                    .layout()
                    .map_or(1, |l| l.rank()))
            }
            #[pyo3(signature = (*args))]
            fn __call__(&self, args: &Bound<'_, PyTuple>) -> PyResult<PyObject> {
                call_any(&AnyLayout::Composed(Box::new(self.c.clone())), args, $face)
            }
            fn __getitem__(&self, py: Python<'_>, i: &Bound<'_, PyAny>) -> PyResult<PyObject> {
                let a = AnyLayout::Composed(Box::new(self.c.clone()));
                wrap_any(py, $face, getitem_any(&a, i)?)
            }
            fn size(&self) -> PyResult<i64> {
                AnyLayout::Composed(Box::new(self.c.clone()))
                    .size()
                    .map_err(raise)
            }
            /// pycute: `cosize(layoutB)`; tessera: CuTe's rule, that of the innermost layout.
            fn cosize(&self) -> PyResult<i64> {
                match $face {
                    Face::PyCute => outer_cosize(&self.c.outer),
                    Face::Tessera => swizzled::cosize(&AnyLayout::Composed(Box::new(self.c.clone())))
                        .map_err(raise),
                }
            }
            /// The shape of the innermost layout (CuTe's `shape` of a composed layout).
            #[getter]
            fn shape(&self, py: Python<'_>) -> PyResult<PyObject> {
                measure_any(py, "shape", &AnyLayout::Composed(Box::new(self.c.clone())))
            }
            /// Number of top-level modes (of the innermost layout).
            #[getter]
            fn rank(&self, py: Python<'_>) -> PyResult<PyObject> {
                measure_any(py, "rank", &AnyLayout::Composed(Box::new(self.c.clone())))
            }
            /// Nesting depth (of the innermost layout).
            #[getter]
            fn depth(&self, py: Python<'_>) -> PyResult<PyObject> {
                measure_any(py, "depth", &AnyLayout::Composed(Box::new(self.c.clone())))
            }
            /// CuTe's `print_layout`: the table of `f(m, n)` (rank 1 or 2), byte-identical to C++.
            fn print_layout(&self) -> PyResult<String> {
                print_layout_any(&AnyLayout::Composed(Box::new(self.c.clone())))
            }
            /// The picture `tessera show --svg` draws: the grid coloured by each element's
            /// 16-byte chunk (`bytes` per element, default 2).
            #[pyo3(signature = (bytes = 2))]
            fn svg(&self, bytes: i64) -> PyResult<String> {
                svg_any(&AnyLayout::Composed(Box::new(self.c.clone())), bytes)
            }
            fn _repr_svg_(&self) -> Option<String> {
                svg_any(&AnyLayout::Composed(Box::new(self.c.clone())), 2)
                    .ok()
                    .map(|s| tessera::render::html::fit_svg(&s))
            }
            fn __str__(&self) -> String {
                match $face {
                    Face::PyCute => notation::pycute_any(&AnyLayout::Composed(Box::new(self.c.clone()))),
                    Face::Tessera => self.c.to_string(),
                }
            }
            fn __repr__(&self) -> String {
                match $face {
                    Face::PyCute => format!(
                        "ComposedLayout({},{},{})",
                        notation::pycute_any(&self.c.outer),
                        self.c.offset,
                        notation::pycute_any(&self.c.inner)
                    ),
                    Face::Tessera => format!("ComposedLayout('{}')", self.c),
                }
            }
        }
    };
}

composed_class!(ComposedT, "tessera._tessera", Face::Tessera);
composed_class!(ComposedP, "tessera.pycute", Face::PyCute);

pub fn register(m: &Bound<'_, PyModule>) -> PyResult<()> {
    m.add_class::<SwizzleT>()?;
    m.add_class::<ComposedT>()?;
    m.add("_PyCuteSwizzle", m.py().get_type::<SwizzleP>())?;
    m.add("_PyCuteComposedLayout", m.py().get_type::<ComposedP>())?;
    Ok(())
}
