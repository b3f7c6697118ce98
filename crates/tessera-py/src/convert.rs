//! Conversions between Python objects and the crate's values: integers, (nested) tuples, slice
//! coordinates, layout and tiler arguments of either face, results wrapped in a face.

use pyo3::exceptions::PyIndexError;
use pyo3::prelude::*;
use pyo3::types::{PyList, PyString, PyTuple};

use tessera::algebra::swizzled::{self};
use tessera::algebra::Tiler;
use tessera::layout::AnyLayout;
use tessera::layout::{Builder, IntTuple, Layout, SliceCoord, TreeRef};
use tessera::notation;

use crate::errors::*;
use crate::fast;

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

pub(crate) fn push_tuple(o: &Bound<'_, PyAny>, b: &mut Builder<i64>, depth: usize) -> PyResult<()> {
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

pub(crate) fn push_slice(
    o: &Bound<'_, PyAny>,
    b: &mut Builder<Option<i64>>,
    depth: usize,
) -> PyResult<()> {
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

pub(crate) fn has_none(o: &Bound<'_, PyAny>) -> bool {
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

/// Which face a result takes: `tessera.Layout` (CuTe C++ notation) or `tessera.pycute.Layout`.
#[derive(Clone, Copy, PartialEq, Eq)]
pub(crate) enum Face {
    Tessera,
    PyCute,
}

/// An iterator over the top-level modes of `l`, each wrapped in `face`.
pub(crate) fn iter_modes(py: Python<'_>, l: &Layout, face: Face) -> PyResult<PyObject> {
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
