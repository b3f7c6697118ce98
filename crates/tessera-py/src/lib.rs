//! `tessera._tessera`: the native half of the `tessera` Python package (a thin shell over the
//! `tessera` crate).
//!
//! Layout objects stay native: a `Layout` holds the crate's inline [`tessera::Layout`]; Python
//! tuples are built only when `.shape`/`.stride` are asked for. Every error of the crate becomes an
//! instance of the `tessera.errors` class named by its code (see `python/tessera/errors.py`).

use pyo3::exceptions::{PyIndexError, PyTypeError};
use pyo3::prelude::*;
use pyo3::sync::GILOnceCell;
use pyo3::types::{PyList, PySlice, PyString, PyTuple};

use tessera::algebra::{self, Tiler};
use tessera::layout::{Builder, IntTuple, Layout, SliceCoord, TreeRef};
use tessera::notation::{self, Value};

mod banks;
mod domain;
mod fast;
mod linear;
mod many;
mod ragged;
mod raw;
mod swizzle;
mod tma;

use swizzle::{func_arg, wrap_any};
use tessera::algebra::swizzled::{self, Rhs};
use tessera::layout::AnyLayout;

// ------------------------------------------------------------------------------------- errors

/// A native error: the crate's error, or a code and a message (domain, TMA, pictures).
#[pyclass(module = "tessera._tessera", frozen)]
pub struct ErrorInfo {
    core: Option<tessera::Error>,
    kind: &'static str,
    code: String,
    message: String,
}

#[pymethods]
impl ErrorInfo {
    /// The stable code (`docs/errors.md`).
    #[getter]
    fn code(&self) -> &str {
        &self.code
    }
    /// Which part of the library: `layout`, `domain`, `tma`, `banks` or `picture`.
    #[getter]
    fn kind(&self) -> &str {
        self.kind
    }
    /// The message.
    #[getter]
    fn message(&self) -> &str {
        &self.message
    }
    /// The obligation with its values, e.g. `128·16 ∣ 2040`.
    #[getter]
    fn obligation(&self) -> Option<String> {
        self.core.as_ref().map(|e| e.obligation().to_string())
    }
    /// Notes: the arithmetic, witnesses.
    #[getter]
    fn notes(&self) -> Vec<String> {
        self.core.as_ref().map(|e| e.notes()).unwrap_or_default()
    }
    /// Checked suggestions `(label, expression, value)`, nearest first; computed on demand.
    fn suggestions(&self) -> Vec<(String, String, String)> {
        self.core
            .as_ref()
            .map(|e| {
                e.checked_suggestions()
                    .into_iter()
                    .map(|s| (s.label, s.expr, s.value))
                    .collect()
            })
            .unwrap_or_default()
    }
}

static FROM_NATIVE: GILOnceCell<PyObject> = GILOnceCell::new();

pub(crate) fn raise_info(py: Python<'_>, info: ErrorInfo) -> PyErr {
    let f = match FROM_NATIVE.get_or_try_init(py, || -> PyResult<PyObject> {
        Ok(py
            .import("tessera.errors")?
            .getattr("_from_native")?
            .unbind())
    }) {
        Ok(f) => f,
        Err(e) => return e,
    };
    match f.call1(py, (info,)) {
        Ok(exc) => PyErr::from_value(exc.into_bound(py)),
        Err(e) => e,
    }
}

/// The Python exception for a crate error.
pub(crate) fn raise(e: tessera::Error) -> PyErr {
    Python::with_gil(|py| {
        raise_info(
            py,
            ErrorInfo {
                kind: "layout",
                code: e.code().to_string(),
                message: e.to_string(),
                core: Some(e),
            },
        )
    })
}

/// The Python exception for a layout-algebra error known by its code and message only.
pub(crate) fn raise_coded(code: &str, message: String) -> PyErr {
    raise_kind("layout", code, message)
}

/// The Python exception for an error of one part of the library (`domain`, `tma`, `banks`,
/// `picture`), known by its code and message.
pub(crate) fn raise_kind(kind: &'static str, code: &str, message: String) -> PyErr {
    Python::with_gil(|py| {
        raise_info(
            py,
            ErrorInfo {
                kind,
                code: code.to_string(),
                message,
                core: None,
            },
        )
    })
}

pub(crate) fn err_info(e: tessera::Error) -> ErrorInfo {
    ErrorInfo {
        kind: "layout",
        code: e.code().to_string(),
        message: e.to_string(),
        core: Some(e),
    }
}

fn type_error(what: &'static str, got: &Bound<'_, PyAny>) -> PyErr {
    let name = got
        .get_type()
        .name()
        .map(|n| n.to_string())
        .unwrap_or_default();
    raise(tessera::Error::Type {
        op: "python".into(),
        position: 1,
        expected: what,
        found: name,
    })
}

// ------------------------------------------------------------------------- conversions

pub(crate) fn int_of(o: &Bound<'_, PyAny>) -> PyResult<i64> {
    if o.is_instance_of::<pyo3::types::PyBool>() {
        return Err(type_error("an integer", o));
    }
    match o.extract::<i64>() {
        Ok(v) => Ok(v),
        Err(_) if o.is_instance_of::<pyo3::types::PyInt>() => {
            Err(raise(tessera::Error::Overflow {
                what: format!("the Python integer {o}"),
            }))
        }
        Err(_) => Err(type_error("an integer", o)),
    }
}

fn push_tuple(o: &Bound<'_, PyAny>, b: &mut Builder<i64>, depth: usize) -> PyResult<()> {
    if depth > 64 {
        return Err(type_error("a tuple nested at most 64 deep", o));
    }
    if let Ok(t) = o.downcast::<PyTuple>() {
        b.open();
        for x in t.iter() {
            push_tuple(&x, b, depth + 1)?;
        }
        b.close();
        Ok(())
    } else if let Ok(t) = o.downcast::<PyList>() {
        b.open();
        for x in t.iter() {
            push_tuple(&x, b, depth + 1)?;
        }
        b.close();
        Ok(())
    } else {
        b.leaf(int_of(o)?);
        Ok(())
    }
}

/// An integer or a (nested) tuple of integers.
pub(crate) fn to_int_tuple(o: &Bound<'_, PyAny>) -> PyResult<IntTuple> {
    let mut b = Builder::new();
    push_tuple(o, &mut b, 0)?;
    Ok(b.finish())
}

fn push_slice(o: &Bound<'_, PyAny>, b: &mut Builder<Option<i64>>, depth: usize) -> PyResult<()> {
    if depth > 64 {
        return Err(type_error("a coordinate", o));
    }
    if o.is_none() {
        b.leaf(None);
    } else if let Ok(t) = o.downcast::<PyTuple>() {
        b.open();
        for x in t.iter() {
            push_slice(&x, b, depth + 1)?;
        }
        b.close();
    } else {
        b.leaf(Some(int_of(o)?));
    }
    Ok(())
}

pub(crate) fn has_none_pub(o: &Bound<'_, PyAny>) -> bool {
    has_none(o)
}

pub(crate) fn slice_coord(o: &Bound<'_, PyAny>) -> PyResult<SliceCoord> {
    let mut b = Builder::new();
    push_slice(o, &mut b, 0)?;
    Ok(b.finish())
}

/// `A[i]` of a composed layout: `O ∘ off ∘ I[i]`.
pub(crate) fn getitem_any(a: &AnyLayout, key: &Bound<'_, PyAny>) -> PyResult<AnyLayout> {
    let rank = a.layout().map_or(1, |l| l.rank()) as i64;
    let mut i = int_of(key)?;
    if i < 0 {
        i += rank;
    }
    if i < 0 || i >= rank {
        return Err(PyIndexError::new_err(format!(
            "mode {} of a rank-{rank} layout",
            int_of(key)?
        )));
    }
    if rank == 1 && a.layout().is_some_and(|l| l.is_leaf()) {
        return Ok(a.clone());
    }
    swizzled::get(a, i as usize).map_err(raise)
}

fn has_none(o: &Bound<'_, PyAny>) -> bool {
    if o.is_none() {
        return true;
    }
    match o.downcast::<PyTuple>() {
        Ok(t) => t.iter().any(|x| has_none(&x)),
        Err(_) => false,
    }
}

/// A tree of integers as Python ints and tuples.
pub(crate) fn tuple_to_py<'py>(
    py: Python<'py>,
    t: TreeRef<'_, i64>,
) -> PyResult<Bound<'py, PyAny>> {
    if let Some(v) = t.leaf() {
        return Ok(v.into_pyobject(py)?.into_any());
    }
    let items = t
        .modes()
        .map(|m| tuple_to_py(py, m))
        .collect::<PyResult<Vec<_>>>()?;
    Ok(PyTuple::new(py, items)?.into_any())
}

// ---------------------------------------------------------------------------- layouts

/// Which face a result takes: `tessera.Layout` (CuTe C++ notation) or `tessera.pycute.Layout`.
#[derive(Clone, Copy, PartialEq, Eq)]
pub(crate) enum Face {
    Tessera,
    PyCute,
}

/// An iterator over the top-level modes of `l`, each wrapped in `face`.
fn iter_modes(py: Python<'_>, l: &Layout, face: Face) -> PyResult<PyObject> {
    let modes = l
        .modes()
        .map(|m| wrap(py, face, m))
        .collect::<PyResult<Vec<_>>>()?;
    Ok(PyList::new(py, modes)?
        .into_any()
        .call_method0("__iter__")?
        .unbind())
}

/// `l` as a Python layout of `face` (one copy of `l`, see `fast.rs`).
#[inline]
pub(crate) fn wrap(py: Python<'_>, face: Face, l: Layout) -> PyResult<PyObject> {
    fast::new_layout(py, face, l)
}

/// The native layout inside `o`, if `o` is a layout of either face.
pub(crate) fn native(o: &Bound<'_, PyAny>) -> Option<Layout> {
    fast::plain(o).map(|(l, _)| l.clone())
}

/// A layout argument: borrowed from a layout object, or built from an integer or text (the
/// rare case, boxed so that the common one moves two words, not a whole layout).
pub(crate) enum LayoutRef<'a> {
    Borrowed(&'a Layout),
    Owned(Box<Layout>),
}

impl std::ops::Deref for LayoutRef<'_> {
    type Target = Layout;
    #[inline]
    fn deref(&self) -> &Layout {
        match self {
            LayoutRef::Borrowed(l) => l,
            LayoutRef::Owned(l) => l,
        }
    }
}

/// A layout argument: a layout of either face (borrowed, not copied), an integer `n` (`n:1`), or
/// CuTe text (tessera face).
#[inline]
pub(crate) fn layout_ref<'a>(o: &'a Bound<'_, PyAny>, face: Face) -> PyResult<LayoutRef<'a>> {
    if let Some((l, _)) = fast::plain(o) {
        return Ok(LayoutRef::Borrowed(l));
    }
    if let Ok(s) = o.downcast::<PyString>() {
        if face == Face::Tessera {
            return Ok(LayoutRef::Owned(Box::new(
                s.to_cow()?.parse::<Layout>().map_err(raise)?,
            )));
        }
    }
    if o.is_instance_of::<pyo3::types::PyInt>() {
        let n = int_of(o)?;
        return Ok(LayoutRef::Owned(Box::new(
            Layout::mode(n, 1).map_err(raise)?,
        )));
    }
    Err(type_error("a Layout", o))
}

/// [`layout_ref`], owned.
pub(crate) fn layout_arg(o: &Bound<'_, PyAny>, face: Face) -> PyResult<Layout> {
    Ok(match layout_ref(o, face)? {
        LayoutRef::Borrowed(l) => l.clone(),
        LayoutRef::Owned(l) => *l,
    })
}

/// A tiler: a layout, an integer, `None` (`_`) or a tuple of tilers.
pub(crate) fn tiler_arg(o: &Bound<'_, PyAny>, face: Face, depth: usize) -> PyResult<Tiler> {
    if o.is_none() {
        return Ok(Tiler::Under);
    }
    if let Some(l) = native(o) {
        return Ok(Tiler::Layout(l));
    }
    if depth < 64 {
        if let Ok(t) = o.downcast::<PyTuple>() {
            return Ok(Tiler::Tuple(
                t.iter()
                    .map(|x| tiler_arg(&x, face, depth + 1))
                    .collect::<PyResult<_>>()?,
            ));
        }
    }
    if o.is_instance_of::<pyo3::types::PyInt>() {
        return Ok(Tiler::Int(int_of(o)?));
    }
    if let Ok(s) = o.downcast::<PyString>() {
        if face == Face::Tessera {
            let v = notation::eval(&s.to_cow()?).map_err(raise)?;
            return v.to_tiler().ok_or_else(|| type_error("a tiler", o));
        }
    }
    Err(type_error("a tiler (Layout, int, None or tuple)", o))
}

fn getitem(l: &Layout, key: &Bound<'_, PyAny>) -> PyResult<Layout> {
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

fn call(l: &Layout, args: &Bound<'_, PyTuple>, face: Face) -> PyResult<PyObject> {
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

fn hash_of(l: &Layout) -> u64 {
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
fn prefix_product(shape: &IntTuple) -> PyResult<IntTuple> {
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

fn svg_of(l: &Layout) -> Option<String> {
    tessera::render::layout_svg(l).ok().map(|p| p.svg)
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
    #[new]
    #[pyo3(signature = (shape, stride = None))]
    fn new(shape: &Bound<'_, PyAny>, stride: Option<&Bound<'_, PyAny>>) -> PyResult<Self> {
        if let Ok(s) = shape.downcast::<PyString>() {
            if stride.is_some_and(|d| !d.is_none()) {
                return Err(PyTypeError::new_err(
                    "Layout(text) takes no stride: write it in the text (shape:stride)",
                ));
            }
            return Ok(TLayout {
                l: s.to_cow()?.parse::<Layout>().map_err(raise)?,
            });
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

// ------------------------------------------------------------------- operations (shared)

fn face_of(o: &Bound<'_, PyAny>) -> Face {
    if fast::kind(o) == fast::Kind::Cute {
        Face::PyCute
    } else {
        Face::Tessera
    }
}

pub(crate) type Op2 = fn(&Layout, &Tiler) -> tessera::Result<Layout>;

fn op_tiler(a: &Bound<'_, PyAny>, b: &Bound<'_, PyAny>, face: Face, f: Op2) -> PyResult<PyObject> {
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
    ($($name:ident => $f:path),* $(,)?) => {$(
        #[pyfunction]
        #[pyo3(signature = (a, b, pycute = false))]
        fn $name(a: &Bound<'_, PyAny>, b: &Bound<'_, PyAny>, pycute: bool) -> PyResult<PyObject> {
            if b.is_none() {
                return Ok(a.clone().unbind());
            }
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
        }
    )*};
}

/// `composition(A, B)`: A a layout, swizzle or composed layout; B a tiler, swizzle or composed.
#[pyfunction]
#[pyo3(signature = (a, b, pycute = false))]
fn composition(a: &Bound<'_, PyAny>, b: &Bound<'_, PyAny>, pycute: bool) -> PyResult<PyObject> {
    if b.is_none() {
        return Ok(a.clone().unbind());
    }
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
    logical_divide => algebra::logical_divide,
    zipped_divide => algebra::zipped_divide,
    tiled_divide => algebra::tiled_divide,
    flat_divide => algebra::flat_divide,
    logical_product => algebra::logical_product,
    zipped_product => algebra::zipped_product,
    tiled_product => algebra::tiled_product,
    flat_product => algebra::flat_product,
}

fn face(pycute: bool, a: &Bound<'_, PyAny>) -> Face {
    if pycute {
        Face::PyCute
    } else {
        face_of(a)
    }
}

/// `op(A, B)` on two plain layouts, the result in `face(pycute, a)`.
fn layout_op2(
    a: &Bound<'_, PyAny>,
    b: &Bound<'_, PyAny>,
    pycute: bool,
    op: impl FnOnce(&Layout, &Layout) -> tessera::Result<Layout>,
) -> PyResult<PyObject> {
    let f = face(pycute, a);
    let r = op(&*layout_ref(a, f)?, &*layout_ref(b, f)?);
    fast::new_layout_from(a.py(), f, r)
}

#[pyfunction]
#[pyo3(signature = (a, b, pycute = false))]
fn blocked_product(a: &Bound<'_, PyAny>, b: &Bound<'_, PyAny>, pycute: bool) -> PyResult<PyObject> {
    layout_op2(a, b, pycute, algebra::blocked_product)
}

#[pyfunction]
#[pyo3(signature = (a, b, pycute = false))]
fn raked_product(a: &Bound<'_, PyAny>, b: &Bound<'_, PyAny>, pycute: bool) -> PyResult<PyObject> {
    layout_op2(a, b, pycute, algebra::raked_product)
}

/// `by(layout, profile)` when `profile` is a tuple, else `whole(layout)`.
fn with_profile(
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

#[pyfunction]
#[pyo3(signature = (layout, profile = None, pycute = false))]
fn coalesce(
    layout: &Bound<'_, PyAny>,
    profile: Option<&Bound<'_, PyAny>>,
    pycute: bool,
) -> PyResult<PyObject> {
    with_profile(
        layout,
        profile,
        pycute,
        algebra::coalesce,
        algebra::coalesce_by,
    )
}

#[pyfunction]
#[pyo3(signature = (layout, profile = None, pycute = false))]
fn filter(
    layout: &Bound<'_, PyAny>,
    profile: Option<&Bound<'_, PyAny>>,
    pycute: bool,
) -> PyResult<PyObject> {
    with_profile(layout, profile, pycute, algebra::filter, algebra::filter_by)
}

/// `complement(A)` (cotarget `cosize(filter(A))`) or `complement(A, cotarget)`.
///
/// With `pycute=True`, an injective layout with no tiling complement gets CuTe's disjoint
/// complement (what pycute returns, checked disjoint; see `docs/differences.md`).
#[pyfunction]
#[pyo3(signature = (layout, cotarget = None, pycute = false))]
fn complement(
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
        if let Some(ct) = &ct {
            // pycute's face with a cotarget: `complement_disjoint`, whose common (tiling) case
            // is `complement_exact`, here written into a reused layout. No note can come of it
            // (a tiling complement has no holes), so none is collected.
            let mut out = Layout::default();
            let r = match algebra::complement::complement_exact_into(&l, ct, &mut out) {
                Ok(()) => Ok(out),
                Err(e) if e.code() == "not_complementable" => {
                    algebra::complement::complement_disjoint(&l, ct)
                }
                Err(e) => Err(e),
            };
            return fast::new_layout_from(layout.py(), f, r);
        }
    }
    let (r, notes) = tessera::error::note::collect(|| match &ct {
        // pycute's face: the tiling complement, else pycute's disjoint one (never C++'s).
        Some(ct) if f == Face::PyCute => algebra::complement::complement_disjoint(&l, ct),
        Some(ct) => algebra::complement(&l, ct),
        _ if f == Face::PyCute => algebra::complement_exact_default(&l).or_else(|e| {
            if e.code() == "not_complementable" {
                algebra::complement::complement_disjoint(&l, &IntTuple::leaf(1))
            } else {
                Err(e)
            }
        }),
        _ => algebra::complement_default(&l),
    });
    if !notes.is_empty() {
        warn_notes(layout.py(), &notes)?;
    }
    fast::new_layout_from(layout.py(), f, r)
}

/// `complement_exact(A)` or `complement_exact(A, cotarget)`: the complement only where it tiles
/// (raises `NotComplementable` for a layout that is not tractable).
#[pyfunction]
#[pyo3(signature = (layout, cotarget = None))]
fn complement_exact(
    layout: &Bound<'_, PyAny>,
    cotarget: Option<&Bound<'_, PyAny>>,
) -> PyResult<PyObject> {
    let f = face(false, layout);
    let l = layout_ref(layout, f)?;
    let r = match cotarget {
        Some(c) if !c.is_none() => algebra::complement_exact(&l, &to_int_tuple(c)?),
        _ => algebra::complement_exact_default(&l),
    };
    fast::new_layout_from(layout.py(), f, r)
}

/// Each note (a warning that travels with a successful result) as a Python `UserWarning`
/// `"CODE: message"`.
fn warn_notes(py: Python<'_>, notes: &[tessera::error::Note]) -> PyResult<()> {
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
fn inverse(
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

#[pyfunction]
#[pyo3(signature = (layout, pycute = false))]
fn right_inverse(layout: &Bound<'_, PyAny>, pycute: bool) -> PyResult<PyObject> {
    inverse(
        layout,
        pycute,
        algebra::right_inverse,
        swizzled::right_inverse,
    )
}

#[pyfunction]
#[pyo3(signature = (layout, pycute = false))]
fn left_inverse(layout: &Bound<'_, PyAny>, pycute: bool) -> PyResult<PyObject> {
    inverse(
        layout,
        pycute,
        algebra::left_inverse,
        swizzled::left_inverse,
    )
}

/// pycute's `complement(layout, max_idx=1)`: [`complement`] in the pycute face (a native
/// function, not a Python wrapper, so a call costs one crossing).
#[pyfunction(name = "_pycute_complement")]
#[pyo3(signature = (layout, max_idx = None))]
fn pycute_complement(
    layout: &Bound<'_, PyAny>,
    max_idx: Option<&Bound<'_, PyAny>>,
) -> PyResult<PyObject> {
    complement(layout, max_idx, true)
}

/// pycute's `right_inverse(layout)`: [`right_inverse`] in the pycute face.
#[pyfunction(name = "_pycute_right_inverse")]
fn pycute_right_inverse(layout: &Bound<'_, PyAny>) -> PyResult<PyObject> {
    right_inverse(layout, true)
}

/// pycute's `left_inverse(layout)`: [`left_inverse`] in the pycute face.
#[pyfunction(name = "_pycute_left_inverse")]
fn pycute_left_inverse(layout: &Bound<'_, PyAny>) -> PyResult<PyObject> {
    left_inverse(layout, true)
}

/// pycute's `blocked_product(A, B)`: [`blocked_product`] in the pycute face.
#[pyfunction(name = "_pycute_blocked_product")]
fn pycute_blocked_product(a: &Bound<'_, PyAny>, b: &Bound<'_, PyAny>) -> PyResult<PyObject> {
    blocked_product(a, b, true)
}

/// pycute's `raked_product(A, B)`: [`raked_product`] in the pycute face.
#[pyfunction(name = "_pycute_raked_product")]
fn pycute_raked_product(a: &Bound<'_, PyAny>, b: &Bound<'_, PyAny>) -> PyResult<PyObject> {
    raked_product(a, b, true)
}

/// pycute's `make_layout(L0, L1, ...)` or `make_layout(iterable)`, in the pycute face.
#[pyfunction(name = "_pycute_make_layout")]
#[pyo3(signature = (*layouts))]
fn pycute_make_layout(layouts: &Bound<'_, PyTuple>) -> PyResult<PyObject> {
    make_layout(layouts, true)
}

/// `make_layout(L0, L1, ...)` or `make_layout([L0, L1, ...])`: the layouts as modes.
#[pyfunction]
#[pyo3(signature = (*layouts, pycute = false))]
fn make_layout(layouts: &Bound<'_, PyTuple>, pycute: bool) -> PyResult<PyObject> {
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
fn unary(
    py: Python<'_>,
    layout: &Bound<'_, PyAny>,
    op: impl FnOnce(&Layout) -> tessera::Result<Layout>,
) -> PyResult<PyObject> {
    let f = face_of(layout);
    wrap(py, f, op(&layout_arg(layout, f)?).map_err(raise)?)
}

#[pyfunction]
fn upcast(py: Python<'_>, layout: &Bound<'_, PyAny>, n: i64) -> PyResult<PyObject> {
    unary(py, layout, |l| algebra::upcast(l, n))
}

#[pyfunction]
fn downcast(py: Python<'_>, layout: &Bound<'_, PyAny>, n: i64) -> PyResult<PyObject> {
    unary(py, layout, |l| algebra::downcast(l, n))
}

#[pyfunction]
fn nullspace(py: Python<'_>, layout: &Bound<'_, PyAny>) -> PyResult<PyObject> {
    unary(py, layout, algebra::nullspace)
}

#[pyfunction]
fn max_common_layout(
    py: Python<'_>,
    a: &Bound<'_, PyAny>,
    b: &Bound<'_, PyAny>,
) -> PyResult<PyObject> {
    let f = face_of(a);
    let r = algebra::max_common_layout(&layout_arg(a, f)?, &layout_arg(b, f)?).map_err(raise)?;
    wrap(py, f, r)
}

#[pyfunction]
fn max_common_vector(a: &Bound<'_, PyAny>, b: &Bound<'_, PyAny>) -> PyResult<i64> {
    let f = face_of(a);
    algebra::max_common_vector(&layout_arg(a, f)?, &layout_arg(b, f)?).map_err(raise)
}

#[pyfunction]
#[pyo3(signature = (block, shape, order = None))]
fn tile_to_shape(
    py: Python<'_>,
    block: &Bound<'_, PyAny>,
    shape: &Bound<'_, PyAny>,
    order: Option<&Bound<'_, PyAny>>,
) -> PyResult<PyObject> {
    let f = face_of(block);
    let o = order.map(to_int_tuple).transpose()?;
    let r = algebra::tile_to_shape(&layout_arg(block, f)?, &to_int_tuple(shape)?, o.as_ref())
        .map_err(raise)?;
    wrap(py, f, r)
}

#[pyfunction]
fn make_ordered_layout(
    py: Python<'_>,
    shape: &Bound<'_, PyAny>,
    order: &Bound<'_, PyAny>,
) -> PyResult<PyObject> {
    let r = algebra::make_ordered_layout(&to_int_tuple(shape)?, &to_int_tuple(order)?)
        .map_err(raise)?;
    wrap(py, Face::Tessera, r)
}

/// `complement1(N, d, M)`: seed III's complement of `N:d` in `[0, M)`.
#[pyfunction]
fn complement1(py: Python<'_>, n: i64, d: i64, m: i64) -> PyResult<PyObject> {
    wrap(
        py,
        Face::Tessera,
        algebra::complement1(n, d, m).map_err(raise)?,
    )
}

// ----------------------------------------------------------------------- expressions

fn value_to_py(py: Python<'_>, v: Value) -> PyResult<PyObject> {
    Ok(match v {
        Value::Int(i) => i.into_pyobject(py)?.into_any().unbind(),
        Value::Under => py.None(),
        Value::Layout(l) => wrap(py, Face::Tessera, l)?,
        Value::Swizzle(sw) => wrap_any(py, Face::Tessera, AnyLayout::Swizzle(sw))?,
        Value::Composed(c) => wrap_any(py, Face::Tessera, AnyLayout::Composed(c))?,
        Value::Text(t) => t.into_pyobject(py)?.into_any().unbind(),
        Value::Tuple(items) => {
            let xs = items
                .into_iter()
                .map(|x| value_to_py(py, x))
                .collect::<PyResult<Vec<_>>>()?;
            PyTuple::new(py, xs)?.into_any().unbind()
        }
    })
}

/// Evaluates one expression of the expression language, e.g. `composition((6,2):(8,2),(4,3):(3,1))`.
#[pyfunction]
fn eval(py: Python<'_>, expr: &str) -> PyResult<PyObject> {
    let (v, notes) = py.allow_threads(|| notation::eval_noted(expr));
    let v = v.map_err(raise)?;
    warn_notes(py, &notes)?;
    value_to_py(py, v)
}

/// Evaluates many expressions in one call (the GIL released); each result is the value's CuTe
/// text, or the error (an instance of its `tessera.Error` class, not raised).
#[pyfunction]
fn batch(py: Python<'_>, exprs: Vec<String>) -> PyResult<Vec<PyObject>> {
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

/// The catalogue entry of an error code (`tessera explain CODE`): `(title, obligation,
/// explanation)`, or `None`.
#[pyfunction]
fn explain(code: &str) -> Option<(&'static str, &'static str, &'static str)> {
    tessera::obligation::catalogue::lookup(code).map(|e| (e.title, e.obligation, e.explanation))
}

/// Every error code of the layout algebra.
#[pyfunction]
fn error_codes() -> Vec<&'static str> {
    tessera::obligation::catalogue::CATALOGUE
        .iter()
        .map(|e| e.code)
        .collect()
}

#[pymodule]
fn _tessera(m: &Bound<'_, PyModule>) -> PyResult<()> {
    m.add_class::<TLayout>()?;
    m.add("_PyCuteLayout", m.py().get_type::<CuteLayout>())?;
    m.add_class::<ErrorInfo>()?;
    m.add_function(wrap_pyfunction!(composition, m)?)?;
    m.add_function(wrap_pyfunction!(logical_divide, m)?)?;
    m.add_function(wrap_pyfunction!(zipped_divide, m)?)?;
    m.add_function(wrap_pyfunction!(tiled_divide, m)?)?;
    m.add_function(wrap_pyfunction!(flat_divide, m)?)?;
    m.add_function(wrap_pyfunction!(logical_product, m)?)?;
    m.add_function(wrap_pyfunction!(zipped_product, m)?)?;
    m.add_function(wrap_pyfunction!(tiled_product, m)?)?;
    m.add_function(wrap_pyfunction!(flat_product, m)?)?;
    m.add_function(wrap_pyfunction!(blocked_product, m)?)?;
    m.add_function(wrap_pyfunction!(raked_product, m)?)?;
    m.add_function(wrap_pyfunction!(coalesce, m)?)?;
    m.add_function(wrap_pyfunction!(filter, m)?)?;
    m.add_function(wrap_pyfunction!(complement, m)?)?;
    m.add_function(wrap_pyfunction!(complement_exact, m)?)?;
    m.add_function(wrap_pyfunction!(complement1, m)?)?;
    m.add_function(wrap_pyfunction!(right_inverse, m)?)?;
    m.add_function(wrap_pyfunction!(left_inverse, m)?)?;
    m.add_function(wrap_pyfunction!(make_layout, m)?)?;
    m.add_function(wrap_pyfunction!(pycute_complement, m)?)?;
    m.add_function(wrap_pyfunction!(pycute_right_inverse, m)?)?;
    m.add_function(wrap_pyfunction!(pycute_left_inverse, m)?)?;
    m.add_function(wrap_pyfunction!(pycute_blocked_product, m)?)?;
    m.add_function(wrap_pyfunction!(pycute_raked_product, m)?)?;
    m.add_function(wrap_pyfunction!(pycute_make_layout, m)?)?;
    m.add_function(wrap_pyfunction!(make_ordered_layout, m)?)?;
    m.add_function(wrap_pyfunction!(tile_to_shape, m)?)?;
    m.add_function(wrap_pyfunction!(upcast, m)?)?;
    m.add_function(wrap_pyfunction!(downcast, m)?)?;
    m.add_function(wrap_pyfunction!(nullspace, m)?)?;
    m.add_function(wrap_pyfunction!(max_common_layout, m)?)?;
    m.add_function(wrap_pyfunction!(max_common_vector, m)?)?;
    m.add_function(wrap_pyfunction!(eval, m)?)?;
    m.add_function(wrap_pyfunction!(batch, m)?)?;
    many::register(m)?;
    m.add_function(wrap_pyfunction!(explain, m)?)?;
    m.add_function(wrap_pyfunction!(error_codes, m)?)?;
    domain::register(m)?;
    ragged::register(m)?;
    swizzle::register(m)?;
    linear::register(m)?;
    banks::register(m)?;
    tma::register(m)?;
    fast::init(m.py())?;
    raw::register(m)?;
    Ok(())
}
