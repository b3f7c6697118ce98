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
    /// Raised in pycute's face (`tessera.pycute`): the exception is also an `AssertionError`.
    pycute: bool,
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
    /// Raised in pycute's face.
    #[getter]
    fn pycute(&self) -> bool {
        self.pycute
    }
    /// The failed call `name(args…)`, when the error records it.
    #[getter]
    fn call(&self) -> Option<String> {
        self.core
            .as_ref()
            .and_then(|e| e.failure())
            .and_then(|f| f.call.as_ref())
            .map(|c| c.to_string())
    }
    /// The failed call's arguments as Python objects, when the error records the call.
    fn call_args(&self, py: Python<'_>) -> PyResult<Option<Vec<PyObject>>> {
        let Some(call) = self
            .core
            .as_ref()
            .and_then(|e| e.failure())
            .and_then(|f| f.call.as_ref())
        else {
            return Ok(None);
        };
        call.args
            .iter()
            .map(|t| {
                tessera::notation::eval(t)
                    .map_err(raise)
                    .and_then(|v| crate::value_to_py(py, v))
            })
            .collect::<PyResult<Vec<_>>>()
            .map(Some)
    }
    /// Checked suggestions `(label, expression, value text, function, arguments, result)`,
    /// nearest first; computed on demand. The arguments are the fixed call's, as Python objects
    /// ready to pass back; the result is the value the fixed call returns.
    fn suggestions(&self, py: Python<'_>) -> PyResult<Vec<SuggestionRow>> {
        let Some(e) = self.core.as_ref() else {
            return Ok(Vec::new());
        };
        let mut out = Vec::new();
        for s in e.checked_suggestions() {
            let (name, args) = match tessera::notation::parse(&s.expr) {
                Ok(tessera::notation::Expr::Call { name, args, .. }) => {
                    let vals = args
                        .iter()
                        .map(|a| {
                            tessera::notation::eval_expr(a)
                                .map_err(raise)
                                .and_then(|v| crate::value_to_py(py, v))
                        })
                        .collect::<PyResult<Vec<_>>>()?;
                    (name, vals)
                }
                _ => (String::new(), Vec::new()),
            };
            let result = crate::eval(py, &s.expr)?;
            out.push((s.label, s.expr, s.value, name, args, result));
        }
        Ok(out)
    }
    /// The diagnostic as the CLI prints it (uncoloured): `error[CODE]: message`, the call, the
    /// obligation, the notes and one `help:` line per checked suggestion.
    fn diagnostic(&self) -> String {
        let mut out = format!("error[{}]: {}\n", self.code, self.message);
        let Some(e) = self.core.as_ref() else {
            return out;
        };
        if let Some(f) = e.failure() {
            if let Some(call) = &f.call {
                out.push_str(&format!(" --> {call}\n"));
            }
            let ob = &f.obligation;
            out.push_str(&format!("  = obligation: {}, here {ob}\n", ob.symbolic()));
            for n in e.notes() {
                out.push_str(&format!("  = note: {n}\n"));
            }
        }
        for s in e.checked_suggestions() {
            out.push_str(&format!("help: {}: {} = {}\n", s.label, s.expr, s.value));
        }
        out
    }
}

/// One checked suggestion as Python receives it.
pub(crate) type SuggestionRow = (String, String, String, String, Vec<PyObject>, PyObject);

static ERROR_CLASS: GILOnceCell<PyObject> = GILOnceCell::new();

/// `true` when `e` is a `tessera.Error`.
pub(crate) fn is_tessera_error(py: Python<'_>, e: &PyErr) -> bool {
    match ERROR_CLASS.get_or_try_init(py, || -> PyResult<PyObject> {
        Ok(py.import("tessera.errors")?.getattr("Error")?.unbind())
    }) {
        Ok(cls) => e.value(py).is_instance(cls.bind(py)).unwrap_or(false),
        Err(_) => false,
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
    raise_in(crate::Face::Tessera, e)
}

/// The Python exception for a crate error raised in `face`: in pycute's, the class is also an
/// `AssertionError` (pycute asserts where Tessera raises).
pub(crate) fn raise_in(face: crate::Face, e: tessera::Error) -> PyErr {
    Python::with_gil(|py| {
        raise_info(
            py,
            ErrorInfo {
                kind: "layout",
                code: e.code().to_string(),
                message: e.to_string(),
                core: Some(e),
                pycute: face == crate::Face::PyCute,
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
                pycute: false,
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
        pycute: false,
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
///
/// Pre: none. Post: the entry of `docs/errors.md` for a catalogued code, else None.
///
/// >>> tessera.explain("divisibility")[1]
/// 'a ∣ b (e.g. N·d ∣ M for complement1)'
/// >>> tessera.explain("no_such_code") is None
/// True
#[pyfunction]
pub(crate) fn explain(code: &str) -> Option<(&'static str, &'static str, &'static str)> {
    tessera::diagnostic::catalogue::lookup(code).map(|e| (e.title, e.obligation, e.explanation))
}

/// Every error code of the layout algebra (each has its `tessera.Error` class).
///
/// Pre: none. Post: the codes of the catalogue, each with an entry in `tessera.explain`.
///
/// >>> "divisibility" in tessera.error_codes()
/// True
#[pyfunction]
pub(crate) fn error_codes() -> Vec<&'static str> {
    tessera::obligation::catalogue::CATALOGUE
        .iter()
        .map(|e| e.code)
        .collect()
}
