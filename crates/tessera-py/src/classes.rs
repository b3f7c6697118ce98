//! The layout classes: `tessera.Layout` (CuTe C++ notation) and `tessera.pycute.Layout`
//! (pycute's constructor and notation), native inside.

use pyo3::exceptions::{PyIndexError, PyTypeError};
use pyo3::prelude::*;
use pyo3::types::{PySlice, PyString, PyTuple};

use tessera::algebra;
use tessera::layout::{Builder, IntTuple, Layout, SliceCoord};
use tessera::notation;

use crate::convert::*;
use crate::errors::*;

pub(crate) fn getitem(l: &Layout, key: &Bound<'_, PyAny>) -> PyResult<Layout> {
    let rank = l.rank() as isize;
    if l.is_leaf() {
        let i = int_of(key)?;
        if i == 0 || i == -1 {
            return Ok(l.clone());
        }
        return Err(PyIndexError::new_err(format!(
            "mode {i} of a rank-1 layout {l}"
        )));
    }
    if let Ok(s) = key.downcast::<PySlice>() {
        let ind = s.indices(rank)?;
        let mut modes = Vec::new();
        let mut i = ind.start;
        while (ind.step > 0 && i < ind.stop) || (ind.step < 0 && i > ind.stop) {
            if let Some(m) = l.mode_at(i as usize) {
                modes.push(m);
            }
            i += ind.step;
        }
        return Ok(Layout::concat(modes.iter()));
    }
    let mut i = int_of(key)? as isize;
    if i < 0 {
        i += rank;
    }
    if i < 0 || i >= rank {
        return Err(PyIndexError::new_err(format!(
            "mode {} of a rank-{rank} layout {l}",
            int_of(key)?
        )));
    }
    Ok(l.mode_at(i as usize).expect("index checked"))
}

pub(crate) fn call(l: &Layout, args: &Bound<'_, PyTuple>, face: Face) -> PyResult<PyObject> {
    let py = args.py();
    let n = args.len();
    let crd = if n == 1 {
        args.get_item(0)?
    } else {
        args.clone().into_any()
    };
    if has_none(&crd) {
        let mut b = Builder::new();
        push_slice(&crd, &mut b, 0)?;
        let c: SliceCoord = b.finish();
        let r = tessera::layout::slice(&c, l).map_err(raise)?;
        return wrap(py, face, r);
    }
    if face == Face::Tessera {
        // tessera's face: the registry's `eval`, which refuses a coordinate out of the domain
        // (pycute's face keeps pycute's extrapolation of the last mode).
        let v = crate::to_value(&crd, 0)?;
        let r = notation::ops::apply("eval", &[notation::Value::Layout(l.clone()), v], 1)
            .map_err(raise)?;
        return crate::value_to_py(py, r);
    }
    if n == 1 && crd.is_instance_of::<pyo3::types::PyInt>() {
        let i = int_of(&crd)?;
        return Ok(l
            .eval(i)
            .map_err(raise)?
            .into_pyobject(py)?
            .into_any()
            .unbind());
    }
    let c = to_int_tuple(&crd)?;
    Ok(l.crd2idx(&c)
        .map_err(raise)?
        .into_pyobject(py)?
        .into_any()
        .unbind())
}

pub(crate) fn hash_of(l: &Layout) -> u64 {
    use std::hash::{Hash, Hasher};
    let mut h = std::collections::hash_map::DefaultHasher::new();
    l.hash(&mut h);
    h.finish()
}

/// `pycute.Layout`: pycute's constructor (`Layout(shape, stride=None)`, strides default to the
/// running product), `str`/`repr` in pycute's notation; native inside.
#[pyclass(module = "tessera.pycute", name = "Layout", frozen, sequence)]
#[repr(transparent)]
pub struct CuteLayout {
    pub(crate) l: Layout,
}

/// pycute's default stride: the running product (a size-1 mode gets the product so far).
pub(crate) fn prefix_product(shape: &IntTuple) -> PyResult<IntTuple> {
    let mut acc = 1i64;
    let mut err = None;
    let t = shape.map(|s| {
        let d = acc;
        match acc.checked_mul(s) {
            Some(v) => acc = v,
            None => err = Some(()),
        }
        d
    });
    if err.is_some() {
        return Err(raise(tessera::Error::Overflow {
            what: format!("the running product of {shape}"),
        }));
    }
    Ok(t)
}

#[pymethods]
impl CuteLayout {
    #[new]
    #[pyo3(signature = (_shape, _stride = None))]
    fn new(_shape: &Bound<'_, PyAny>, _stride: Option<&Bound<'_, PyAny>>) -> PyResult<Self> {
        let shape = to_int_tuple(_shape)?;
        let stride = match _stride {
            Some(d) if !d.is_none() => to_int_tuple(d)?,
            _ => prefix_product(&shape)?,
        };
        Ok(CuteLayout {
            l: Layout::new(&shape, &stride).map_err(raise)?,
        })
    }
    #[getter]
    fn shape<'py>(&self, py: Python<'py>) -> PyResult<Bound<'py, PyAny>> {
        tuple_to_py(py, self.l.shape().as_ref())
    }
    #[getter]
    fn stride<'py>(&self, py: Python<'py>) -> PyResult<Bound<'py, PyAny>> {
        tuple_to_py(py, self.l.stride().as_ref())
    }
    fn __eq__(&self, other: &Bound<'_, PyAny>) -> bool {
        native(other).is_some_and(|o| o == self.l)
    }
    fn __hash__(&self) -> u64 {
        hash_of(&self.l)
    }
    fn __len__(&self) -> usize {
        self.l.rank()
    }
    #[pyo3(signature = (*args))]
    fn __call__(&self, args: &Bound<'_, PyTuple>) -> PyResult<PyObject> {
        call(&self.l, args, Face::PyCute)
    }
    fn __getitem__(&self, py: Python<'_>, i: &Bound<'_, PyAny>) -> PyResult<PyObject> {
        wrap(py, Face::PyCute, getitem(&self.l, i)?)
    }
    fn __iter__(&self, py: Python<'_>) -> PyResult<PyObject> {
        iter_modes(py, &self.l, Face::PyCute)
    }
    fn size(&self) -> PyResult<i64> {
        self.l.size().map_err(raise)
    }
    fn cosize(&self) -> PyResult<i64> {
        self.l.cosize().map_err(raise)
    }
    fn __str__(&self) -> String {
        notation::pycute(&self.l)
    }
    fn __repr__(&self) -> String {
        let s = notation::pycute(&self.l);
        // pycute: Layout(shape,stride) with Python's tuple spelling.
        match s.split_once(':') {
            Some((a, b)) => format!("Layout({a},{b})"),
            None => format!("Layout({s})"),
        }
    }
    /// The same layout as a `tessera.Layout`.
    fn to_tessera(&self) -> TLayout {
        TLayout { l: self.l.clone() }
    }
    fn _repr_svg_(&self) -> Option<String> {
        svg_of(&self.l)
    }
}

pub(crate) fn svg_of(l: &Layout) -> Option<String> {
    tessera::render::layout_svg(l)
        .ok()
        .map(|p| tessera::render::html::fit_svg(&p.svg))
}

/// The error of `Layout(text)` for a text with runtime extents, or with `assume=`.
fn sym_hint(text: &str, names: &[String]) -> String {
    let what = if names.is_empty() {
        "facts (assume=) are about runtime extents".to_string()
    } else {
        format!("`{text}` has runtime extents ({})", names.join(", "))
    };
    format!(
        "Layout takes integer leaves, and {what}: a layout over runtime extents is a \
         tessera.SymLayout, e.g. tessera.SymLayout({text:?}, assume=[...]); its operations return \
         results with .guards, and .subs(M=4096) instantiates it (docs/symbolic.md)"
    )
}

/// `tessera.Layout`: a CuTe layout, written and printed in CuTe C++ notation.
#[pyclass(module = "tessera._tessera", name = "Layout", frozen, sequence)]
#[repr(transparent)]
pub struct TLayout {
    pub(crate) l: Layout,
}

#[pymethods]
impl TLayout {
    /// `Layout("(2,(2,2)):(4,(2,1))")`, `Layout(shape)` (compact column-major, as C++
    /// `make_layout(shape)`), or `Layout(shape, stride)` with Python ints and tuples.
    ///
    /// Pre: integer leaves. A text with runtime extents (`(M,K):(K,1)`), or `assume=`, is a
    /// `SymLayout`: the error says so (a constructor cannot return another class).
    #[new]
    #[pyo3(signature = (shape, stride = None, *, assume = None))]
    fn new(
        shape: &Bound<'_, PyAny>,
        stride: Option<&Bound<'_, PyAny>>,
        assume: Option<&Bound<'_, PyAny>>,
    ) -> PyResult<Self> {
        if let Ok(s) = shape.downcast::<PyString>() {
            if stride.is_some_and(|d| !d.is_none()) {
                return Err(PyTypeError::new_err(
                    "Layout(text) takes no stride: write it in the text (shape:stride)",
                ));
            }
            let text = s.to_cow()?;
            let parsed = text.parse::<Layout>();
            let names = text
                .parse::<tessera::symbolic::SymLayout>()
                .map(|l| l.names())
                .unwrap_or_default();
            if (parsed.is_err() && !names.is_empty()) || assume.is_some_and(|a| !a.is_none()) {
                return Err(PyTypeError::new_err(sym_hint(&text, &names)));
            }
            return Ok(TLayout {
                l: parsed.map_err(raise)?,
            });
        }
        if assume.is_some_and(|a| !a.is_none()) {
            return Err(PyTypeError::new_err(
                "Layout(shape, stride) takes no assume=: facts are about runtime extents, which \
                 a SymLayout holds: tessera.SymLayout(\"(M,K):(K,1)\", assume=[\"M % 128 == 0\"])",
            ));
        }
        if let Some(l) = native(shape) {
            return Ok(TLayout { l });
        }
        let sh = to_int_tuple(shape)?;
        let l = match stride {
            Some(d) if !d.is_none() => Layout::new(&sh, &to_int_tuple(d)?),
            _ => Layout::compact(&sh),
        }
        .map_err(raise)?;
        Ok(TLayout { l })
    }
    #[getter]
    fn shape<'py>(&self, py: Python<'py>) -> PyResult<Bound<'py, PyAny>> {
        tuple_to_py(py, self.l.shape().as_ref())
    }
    #[getter]
    fn stride<'py>(&self, py: Python<'py>) -> PyResult<Bound<'py, PyAny>> {
        tuple_to_py(py, self.l.stride().as_ref())
    }
    /// Number of top-level modes.
    #[getter]
    fn rank(&self) -> usize {
        self.l.rank()
    }
    /// Nesting depth (0 for an integer layout).
    #[getter]
    fn depth(&self) -> usize {
        self.l.depth()
    }
    fn __eq__(&self, other: &Bound<'_, PyAny>) -> bool {
        native(other).is_some_and(|o| o == self.l)
    }
    fn __hash__(&self) -> u64 {
        hash_of(&self.l)
    }
    fn __len__(&self) -> usize {
        self.l.rank()
    }
    #[pyo3(signature = (*args))]
    fn __call__(&self, args: &Bound<'_, PyTuple>) -> PyResult<PyObject> {
        call(&self.l, args, Face::Tessera)
    }
    fn __getitem__(&self, py: Python<'_>, i: &Bound<'_, PyAny>) -> PyResult<PyObject> {
        wrap(py, Face::Tessera, getitem(&self.l, i)?)
    }
    fn __iter__(&self, py: Python<'_>) -> PyResult<PyObject> {
        iter_modes(py, &self.l, Face::Tessera)
    }
    /// `A @ B` is `composition(A, B)`.
    fn __matmul__(&self, py: Python<'_>, b: &Bound<'_, PyAny>) -> PyResult<PyObject> {
        let t = tiler_arg(b, Face::Tessera, 0)?;
        wrap(
            py,
            Face::Tessera,
            algebra::composition_tiler(&self.l, &t).map_err(raise)?,
        )
    }
    fn size(&self) -> PyResult<i64> {
        self.l.size().map_err(raise)
    }
    fn cosize(&self) -> PyResult<i64> {
        self.l.cosize().map_err(raise)
    }
    /// The layout as a function table, `[L(0), ..., L(size-1)]` (at most 2^22 entries).
    fn values(&self) -> PyResult<Vec<i64>> {
        let n = self.l.size().map_err(raise)?;
        if n > 1 << 22 {
            return Err(raise(tessera::Error::TooLarge {
                op: "values",
                what: "the layout's domain".into(),
                size: n,
                bound: 1 << 22,
            }));
        }
        (0..n).map(|i| self.l.eval(i).map_err(raise)).collect()
    }
    fn __str__(&self) -> String {
        self.l.to_string()
    }
    fn __repr__(&self) -> String {
        format!("Layout('{}')", self.l)
    }
    /// pycute's notation, e.g. `(2, (2, 2)):(4, (1, 2))`.
    fn pycute_str(&self) -> String {
        notation::pycute(&self.l)
    }
    /// The same layout as a `tessera.pycute.Layout`.
    fn to_pycute(&self) -> CuteLayout {
        CuteLayout { l: self.l.clone() }
    }
    /// CuTe's `print_layout` (rank 2), byte-identical to C++.
    fn print_layout(&self) -> PyResult<String> {
        notation::print_layout(&self.l).map_err(raise)
    }
    /// The layout's picture (SVG): rows = mode 0, columns = mode 1.
    fn svg(&self) -> PyResult<String> {
        tessera::render::layout_svg(&self.l)
            .map(|p| p.svg)
            .map_err(|e| raise_kind("picture", e.code(), e.to_string()))
    }
    /// A thread-value layout's picture over an `m`×`n` column-major tile.
    fn tv_svg(&self, m: i64, n: i64) -> PyResult<String> {
        tessera::render::tv_svg(&self.l, m, n)
            .map(|p| p.svg)
            .map_err(|e| raise_kind("picture", e.code(), e.to_string()))
    }
    fn _repr_svg_(&self) -> Option<String> {
        svg_of(&self.l)
    }
}
