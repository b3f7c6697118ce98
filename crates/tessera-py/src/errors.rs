//! Errors: every error of the crate as an instance of the `tessera.errors` class named by its
//! code (`python/tessera/errors.py`), notes as Python warnings, and the catalogue (`explain`).

use pyo3::prelude::*;
use pyo3::sync::GILOnceCell;

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

pub(crate) static FROM_NATIVE: GILOnceCell<PyObject> = GILOnceCell::new();

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

pub(crate) fn type_error(what: &'static str, got: &Bound<'_, PyAny>) -> PyErr {
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

/// The catalogue entry of an error code (`tessera explain CODE`): `(title, obligation,
/// explanation)`, or `None`.
#[pyfunction]
pub(crate) fn explain(code: &str) -> Option<(&'static str, &'static str, &'static str)> {
    tessera::diagnostic::catalogue::lookup(code).map(|e| (e.title, e.obligation, e.explanation))
}

/// Every error code of the layout algebra.
#[pyfunction]
pub(crate) fn error_codes() -> Vec<&'static str> {
    tessera::obligation::catalogue::CATALOGUE
        .iter()
        .map(|e| e.code)
        .collect()
}
