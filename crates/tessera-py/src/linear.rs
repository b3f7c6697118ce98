//! `tessera.LinearLayout` (Triton's `triton.tools.LinearLayout`, over the library's
//! `algebra::linear::LinearLayout`) and the Gluon conversions behind `tessera.triton`.

use pyo3::prelude::*;
use pyo3::types::{PyDict, PyList, PyTuple};

use tessera::algebra::gluon::{self, Gluon, GluonError};
use tessera::algebra::linear::{LinearError, LinearLayout};
use tessera::layout::AnyLayout;

use crate::swizzle::{any_arg, wrap_any};
use crate::{raise, raise_kind, wrap, Face};

pub(crate) fn lerr(e: LinearError) -> PyErr {
    raise_kind("banks", e.code(), e.to_string())
}

fn gerr(e: GluonError) -> PyErr {
    raise_kind("banks", e.code(), e.to_string())
}

/// A linear layout over F2 (Triton's `LinearLayout`): named input dimensions with one basis per
/// bit, named power-of-two output dimensions; `L(x)` is the XOR of the bases of the set bits.
#[pyclass(module = "tessera", name = "LinearLayout", frozen, eq)]
#[derive(Clone, PartialEq)]
pub struct PyLinear {
    pub(crate) l: LinearLayout,
}

/// The library value of a `tessera.LinearLayout` argument.
pub(crate) fn linear_arg(o: &Bound<'_, PyAny>) -> Option<LinearLayout> {
    o.downcast::<PyLinear>().ok().map(|p| p.get().l.clone())
}

fn pairs_to_py<'py>(py: Python<'py>, l: &LinearLayout) -> PyResult<Bound<'py, PyList>> {
    let items: Vec<Bound<'py, PyTuple>> = l
        .in_dims()
        .iter()
        .map(|d| {
            let bases: Vec<Vec<u64>> = d.bases.iter().map(|&b| l.split_out(b)).collect();
            PyTuple::new(
                py,
                [
                    d.name.clone().into_pyobject(py)?.into_any(),
                    bases.into_pyobject(py)?.into_any(),
                ],
            )
        })
        .collect::<PyResult<_>>()?;
    PyList::new(py, items)
}

#[pymethods]
impl PyLinear {
    /// `LinearLayout.from_bases(bases, out_dim_names, out_dim_sizes=None, require_surjective=True)`
    /// as Triton's: `bases` is `[(in_dim, [[entry per out dim], …]), …]`; without sizes, each
    /// output's size is the least power of two above its largest entry.
    ///
    /// Pre: sizes powers of two; entries below their sizes; with `require_surjective`, the
    /// bases span every output. Post: `from_bases(l.bases, names, sizes) == l`.
    #[staticmethod]
    #[pyo3(signature = (bases, out_dim_names, out_dim_sizes = None, require_surjective = true))]
    fn from_bases(
        bases: Vec<(String, Vec<Vec<u64>>)>,
        out_dim_names: Vec<String>,
        out_dim_sizes: Option<Vec<u64>>,
        require_surjective: bool,
    ) -> PyResult<PyLinear> {
        let sizes = match out_dim_sizes {
            Some(s) => s,
            None => (0..out_dim_names.len())
                .map(|j| {
                    let m = bases
                        .iter()
                        .flat_map(|(_, bs)| bs.iter().filter_map(move |b| b.get(j).copied()))
                        .max()
                        .unwrap_or(0);
                    if m >= 1 << 62 {
                        1 << 63
                    } else {
                        (m + 1).next_power_of_two()
                    }
                })
                .collect(),
        };
        if sizes.len() != out_dim_names.len() {
            return Err(lerr(LinearError::DimMismatch {
                op: "from_bases",
                detail: format!(
                    "{} output names but {} sizes",
                    out_dim_names.len(),
                    sizes.len()
                ),
            }));
        }
        let ins: Vec<(&str, Vec<Vec<u64>>)> =
            bases.iter().map(|(n, b)| (n.as_str(), b.clone())).collect();
        let outs: Vec<(&str, u64)> = out_dim_names
            .iter()
            .map(|s| s.as_str())
            .zip(sizes)
            .collect();
        let l = LinearLayout::new(&ins, &outs).map_err(lerr)?;
        if require_surjective && !l.is_surjective() {
            return Err(lerr(LinearError::NotInvertible {
                op: "from_bases",
                property: "surjective",
                detail: format!(
                    "rank {} < {} output bits (pass require_surjective=False)",
                    l.rank(),
                    l.total_out_bits()
                ),
            }));
        }
        Ok(PyLinear { l })
    }

    /// Parses the text form `register = [[0, 1]], lane = [[1, 0]] -> dim0 = 2, dim1 = 2`, or the
    /// JSON of `to_json()`.
    ///
    /// Pre: well-formed text. Post: `LinearLayout(str(l)) == l`.
    #[new]
    fn new(text: &str) -> PyResult<PyLinear> {
        Ok(PyLinear {
            l: parse_any(text).map_err(lerr)?,
        })
    }

    /// `[(in_dim, [[entry per out dim], …]), …]`, as Triton's `bases`.
    #[getter]
    fn bases<'py>(&self, py: Python<'py>) -> PyResult<Bound<'py, PyList>> {
        pairs_to_py(py, &self.l)
    }

    /// `[(out_dim, size), …]`, as Triton's `out_dims`.
    #[getter]
    fn out_dims(&self) -> Vec<(String, u64)> {
        self.l
            .out_dims()
            .iter()
            .map(|d| (d.name.clone(), 1u64 << d.bits))
            .collect()
    }

    /// `[(in_dim, size), …]`.
    #[getter]
    fn in_dims(&self) -> Vec<(String, u64)> {
        self.l
            .in_dims()
            .iter()
            .map(|d| (d.name.clone(), 1u64 << d.bases.len()))
            .collect()
    }

    /// The input dimension names (Triton's `get_in_dim_names`).
    fn get_in_dim_names(&self) -> Vec<String> {
        self.l.in_dims().iter().map(|d| d.name.clone()).collect()
    }

    /// The output dimension names (Triton's `get_out_dim_names`).
    fn get_out_dim_names(&self) -> Vec<String> {
        self.l.out_dims().iter().map(|d| d.name.clone()).collect()
    }

    /// Triton's `apply`: `{in_dim: value}` (missing ones 0) to `{out_dim: value}`.
    ///
    /// Pre: known names, values below their sizes. Post: XOR of the bases of the set bits.
    fn apply<'py>(
        &self,
        py: Python<'py>,
        inputs: &Bound<'py, PyDict>,
    ) -> PyResult<Bound<'py, PyDict>> {
        let ins: Vec<(String, u64)> = inputs
            .extract::<std::collections::BTreeMap<String, u64>>()?
            .into_iter()
            .collect();
        let r: Vec<(&str, u64)> = ins.iter().map(|(n, v)| (n.as_str(), *v)).collect();
        let out = self.l.apply(&r).map_err(lerr)?;
        let d = PyDict::new(py);
        for (n, v) in out {
            d.set_item(n, v)?;
        }
        Ok(d)
    }

    /// Triton's `compose`: `outer ∘ self` (apply self, then `outer`).
    ///
    /// Pre: self's outputs are `outer`'s inputs. Post: `r(x) = outer(self(x))`.
    fn compose(&self, outer: &PyLinear) -> PyResult<PyLinear> {
        Ok(PyLinear {
            l: self.l.compose(&outer.l).map_err(lerr)?,
        })
    }

    /// Triton's `invert`: the inverse of a bijective layout.
    ///
    /// Pre: bijective. Post: `l.compose(l.invert())` is the identity.
    fn invert(&self) -> PyResult<PyLinear> {
        Ok(PyLinear {
            l: self.l.invert().map_err(lerr)?,
        })
    }

    /// Triton's `pseudoinvert`: a right inverse of a surjective layout.
    fn pseudoinvert(&self) -> PyResult<PyLinear> {
        Ok(PyLinear {
            l: self.l.pseudo_invert().map_err(lerr)?,
        })
    }

    /// Triton's `invert_and_compose`: `C` with `outer(C(x)) == self(x)`.
    ///
    /// Pre: same outputs; self's image inside outer's. Post: `c.compose(outer) == self`.
    fn invert_and_compose(&self, outer: &PyLinear) -> PyResult<PyLinear> {
        Ok(PyLinear {
            l: self.l.invert_and_compose(&outer.l).map_err(lerr)?,
        })
    }

    /// Whether distinct inputs give distinct outputs.
    fn is_injective(&self) -> bool {
        self.l.is_injective()
    }

    /// Whether every output is reached.
    fn is_surjective(&self) -> bool {
        self.l.is_surjective()
    }

    /// Whether bijective.
    fn is_invertible(&self) -> bool {
        self.l.is_invertible()
    }

    /// Equality as functions of named dimensions (order of dimensions and size-1 dimensions
    /// ignored); `==` compares exactly.
    fn equivalent(&self, other: &PyLinear) -> bool {
        self.l.equivalent(&other.l)
    }

    /// A CuTe layout, swizzle or composed layout as a linear layout (when F2-linear: power-of-two
    /// shapes, strides whose bits never carry, offset 0); text is parsed first.
    ///
    /// Pre: as above. Post: `r.apply` equals the layout on its domain.
    #[staticmethod]
    fn from_layout(layout: &Bound<'_, PyAny>) -> PyResult<PyLinear> {
        if let Some(l) = linear_arg(layout) {
            return Ok(PyLinear { l });
        }
        let any = match any_arg(layout) {
            Some(a) => a,
            None => {
                let text: String = layout.extract()?;
                text.parse::<AnyLayout>().map_err(raise)?
            }
        };
        Ok(PyLinear {
            l: LinearLayout::from_any_layout(&any).map_err(lerr)?,
        })
    }

    /// This function as a CuTe `Layout`, or `ComposedLayout` `Sw<B,M,S> o 0 o L` when a swizzle
    /// is needed (inputs flattened in order, the first lowest; outputs flattened likewise).
    ///
    /// Pre: such a form exists. Post: evaluates as `apply` on every input.
    fn to_layout(&self, py: Python<'_>) -> PyResult<PyObject> {
        let a = self.l.to_any_layout().map_err(lerr)?;
        match a {
            AnyLayout::Plain(l) => wrap(py, Face::Tessera, l),
            other => wrap_any(py, Face::Tessera, other),
        }
    }

    /// The shape of the CuTe layout it equals (`to_layout()`).
    #[getter]
    fn shape(&self, py: Python<'_>) -> PyResult<PyObject> {
        let a = self.l.to_any_layout().map_err(lerr)?;
        crate::swizzle::measure_any(py, "shape", &a)
    }
    /// Number of top-level modes of the CuTe layout it equals.
    #[getter]
    fn rank(&self, py: Python<'_>) -> PyResult<PyObject> {
        let a = self.l.to_any_layout().map_err(lerr)?;
        crate::swizzle::measure_any(py, "rank", &a)
    }
    /// Nesting depth of the CuTe layout it equals.
    #[getter]
    fn depth(&self, py: Python<'_>) -> PyResult<PyObject> {
        let a = self.l.to_any_layout().map_err(lerr)?;
        crate::swizzle::measure_any(py, "depth", &a)
    }
    /// CuTe's `print_layout` of the CuTe layout it equals.
    fn print_layout(&self) -> PyResult<String> {
        let a = self.l.to_any_layout().map_err(lerr)?;
        crate::swizzle::print_layout_any(&a)
    }
    /// The picture of the CuTe layout it equals (`bytes` per element, for a swizzled one).
    #[pyo3(signature = (bytes = 2))]
    fn svg(&self, bytes: i64) -> PyResult<String> {
        let a = self.l.to_any_layout().map_err(lerr)?;
        crate::swizzle::svg_any(&a, bytes)
    }
    fn _repr_svg_(&self) -> Option<String> {
        let a = self.l.to_any_layout().ok()?;
        crate::swizzle::svg_any(&a, 2)
            .ok()
            .map(|s| tessera::render::html::fit_svg(&s))
    }

    /// The JSON form `{"in_dims": [...], "out_dims": [...]}`.
    fn to_json(&self) -> String {
        self.l.to_json()
    }

    fn __str__(&self) -> String {
        self.l.to_string()
    }

    fn __repr__(&self) -> String {
        format!("LinearLayout('{}')", self.l)
    }

    fn __hash__(&self) -> u64 {
        use std::hash::{Hash, Hasher};
        let mut h = std::collections::hash_map::DefaultHasher::new();
        self.l.hash(&mut h);
        h.finish()
    }
}

/// The text form or the JSON of `to_json`.
pub(crate) fn parse_any(text: &str) -> Result<LinearLayout, LinearError> {
    gluon::linear_from_text(text)
}

/// `_gluon_to_linear(text, shape=None)`: the linear layout of a Gluon constructor text over a
/// shape (the layout's own shape when it carries one).
#[pyfunction]
#[pyo3(signature = (text, shape = None))]
fn _gluon_to_linear(text: &str, shape: Option<Vec<u64>>) -> PyResult<PyLinear> {
    let g = Gluon::parse(text).map_err(gerr)?;
    let shape = match shape.or_else(|| g.own_shape()) {
        Some(s) => s,
        None => {
            return Err(gerr(GluonError::Field {
                class: g.class().into(),
                detail: "a shape is needed (the layout does not carry one)".into(),
            }))
        }
    };
    Ok(PyLinear {
        l: g.to_linear(&shape).map_err(gerr)?,
    })
}

/// `_gluon_normalize(text)`: the constructor text with every field named (Triton's repr).
#[pyfunction]
fn _gluon_normalize(text: &str) -> PyResult<String> {
    Ok(Gluon::parse(text).map_err(gerr)?.to_string())
}

/// `_gluon_from_linear(l)`: the `NVMMASharedLayout` / `SwizzledSharedLayout` constructor text
/// that gives `l`, or None.
#[pyfunction]
fn _gluon_from_linear(l: &PyLinear) -> Option<String> {
    gluon::to_gluon(&l.l)
}

/// `_gluon_tv(l)`: the thread-value CuTe layout of a register linear layout.
#[pyfunction]
fn _gluon_tv(py: Python<'_>, l: &PyLinear) -> PyResult<PyObject> {
    wrap(py, Face::Tessera, gluon::tv_layout(&l.l).map_err(gerr)?)
}

/// `_padded_offset(pairs, offset)`: the padded address of an element offset.
#[pyfunction]
fn _padded_offset(pairs: Vec<(u64, u64)>, offset: u64) -> PyResult<u64> {
    gluon::padded_offset(&pairs, offset).ok_or_else(|| {
        gerr(GluonError::Field {
            class: "PaddedSharedLayout".into(),
            detail: format!("offset {offset} with pairs {pairs:?} overflows or has interval 0"),
        })
    })
}

pub(crate) fn register(m: &Bound<'_, PyModule>) -> PyResult<()> {
    m.add_class::<PyLinear>()?;
    m.add_function(wrap_pyfunction!(_gluon_to_linear, m)?)?;
    m.add_function(wrap_pyfunction!(_gluon_normalize, m)?)?;
    m.add_function(wrap_pyfunction!(_gluon_from_linear, m)?)?;
    m.add_function(wrap_pyfunction!(_gluon_tv, m)?)?;
    m.add_function(wrap_pyfunction!(_padded_offset, m)?)?;
    Ok(())
}
