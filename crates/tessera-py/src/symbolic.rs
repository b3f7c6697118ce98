//! `tessera.SymLayout`: layouts over runtime extents (`tessera::symbolic`, docs/symbolic.md) in
//! Python. A value of the symbolic language (a layout, an expression, a coordinate or a pair)
//! with the facts it was computed under and the guards it depends on; operations go through the
//! library's `symbolic::eval` (the CLI's `eval --assume`), and `subs` instantiates it to the
//! integer algebra's value after checking the facts and the guards.

use pyo3::prelude::*;
use pyo3::types::{PyDict, PyList, PyString, PyTuple};

use tessera::symbolic::{self, Assignment, Facts, Guard, SymError, SymValue, Syntax};

use crate::{raise, raise_coded, value_to_py};

pub(crate) fn serr(e: SymError) -> PyErr {
    match e {
        SymError::Algebra(e) => raise(e),
        e => raise_coded(e.code(), e.to_string()),
    }
}

/// A symbolic value with its facts and guards.
#[pyclass(module = "tessera", name = "SymLayout", frozen)]
#[derive(Clone)]
pub struct PySym {
    value: SymValue,
    facts: Vec<String>,
    guards: Vec<Guard>,
}

fn merge(into: &mut Vec<Guard>, more: Vec<Guard>) {
    for g in more {
        if !into.iter().any(|h| h.pred == g.pred) {
            into.push(g);
        }
    }
}

/// The symbolic value of a Python argument, as text of the symbolic language.
fn arg_text(
    o: &Bound<'_, PyAny>,
    facts: &mut Vec<String>,
    guards: &mut Vec<Guard>,
) -> PyResult<String> {
    if let Ok(s) = o.downcast::<PySym>() {
        let s = s.get();
        for f in &s.facts {
            if !facts.contains(f) {
                facts.push(f.clone());
            }
        }
        merge(guards, s.guards.clone());
        return Ok(s.value.to_string());
    }
    if o.is_none() {
        return Ok("_".into());
    }
    if let Ok(t) = o.downcast::<PyTuple>() {
        let items = t
            .iter()
            .map(|x| arg_text(&x, facts, guards))
            .collect::<PyResult<Vec<_>>>()?;
        return Ok(format!("({})", items.join(",")));
    }
    if let Ok(t) = o.downcast::<PyList>() {
        let items = t
            .iter()
            .map(|x| arg_text(&x, facts, guards))
            .collect::<PyResult<Vec<_>>>()?;
        return Ok(format!("({})", items.join(",")));
    }
    if let Ok(s) = o.downcast::<PyString>() {
        return Ok(s.to_cow()?.into_owned());
    }
    Ok(o.str()?.to_cow()?.into_owned())
}

/// `true` when any argument is a `SymLayout` (the call goes to the symbolic algebra).
pub(crate) fn any_symbolic(args: &Bound<'_, PyTuple>) -> bool {
    args.iter().any(|a| a.downcast::<PySym>().is_ok())
}

/// The operation `name` on arguments of which one at least is symbolic: `symbolic::eval` of
/// the call's text under the union of the arguments' facts; the result carries their guards and
/// its own.
pub(crate) fn apply_symbolic(name: &str, args: &Bound<'_, PyTuple>) -> PyResult<PySym> {
    let mut facts = Vec::new();
    let mut guards = Vec::new();
    let texts = args
        .iter()
        .map(|a| arg_text(&a, &mut facts, &mut guards))
        .collect::<PyResult<Vec<_>>>()?;
    let text = format!("{name}({})", texts.join(","));
    let r = symbolic::eval(&text, &facts).map_err(serr)?;
    merge(&mut guards, r.guards);
    Ok(PySym {
        value: r.value,
        facts,
        guards,
    })
}

#[pymethods]
impl PySym {
    /// `SymLayout("(M,K):(K,1)", assume=["M % 128 == 0"])`: a layout (or any expression of the
    /// symbolic language, e.g. `logical_divide((M,K):(K,1),(128,64))`) under facts.
    ///
    /// Pre: the text parses; the facts are linear and consistent and name only names the text
    /// uses. Post: the value with the guards it needs (none for a bare layout).
    #[new]
    #[pyo3(signature = (text, assume = Vec::new()))]
    fn new(text: &str, assume: Vec<String>) -> PyResult<Self> {
        let r = symbolic::eval(text, &assume).map_err(serr)?;
        Ok(PySym {
            value: r.value,
            facts: assume,
            guards: r.guards,
        })
    }
    /// The guards the value depends on, in Tessera's syntax (`M % 128 == 0`).
    #[getter]
    fn guards(&self) -> Vec<String> {
        self.guards.iter().map(|g| g.pred.to_string()).collect()
    }
    /// The facts it was computed under (`assume`).
    #[getter]
    fn facts(&self) -> Vec<String> {
        self.facts.clone()
    }
    /// Whether the value is a layout (else an expression, a coordinate or a pair).
    #[getter]
    fn is_layout(&self) -> bool {
        matches!(self.value, SymValue::Layout(_))
    }
    /// The names of the runtime extents it uses, sorted.
    #[getter]
    fn names(&self) -> Vec<String> {
        let mut out = match &self.value {
            SymValue::Layout(l) => l.names(),
            _ => Facts::parse(&self.facts)
                .map(|f| f.names())
                .unwrap_or_default(),
        };
        out.sort();
        out.dedup();
        out
    }
    /// The host-side check `can_implement`: the conjunction of the guards in `lang` (`"cpp"` or
    /// `"python"`; `true`/`True` when there is none).
    #[pyo3(signature = (lang = "python"))]
    fn guard_code(&self, lang: &str) -> PyResult<String> {
        let syn = match lang {
            "cpp" | "c++" => Syntax::Cpp,
            "python" | "py" => Syntax::Python,
            other => {
                return Err(raise_coded(
                    "type_error",
                    format!("guard_code: lang must be \"cpp\" or \"python\", found {other:?}"),
                ))
            }
        };
        if self.guards.is_empty() {
            return Ok(if syn == Syntax::Python {
                "True"
            } else {
                "true"
            }
            .into());
        }
        let and = if syn == Syntax::Python {
            " and "
        } else {
            " && "
        };
        Ok(self
            .guards
            .iter()
            .map(|g| format!("({})", g.pred.render(syn)))
            .collect::<Vec<_>>()
            .join(and))
    }
    /// Instantiates every name (`subs(M=4096, K=512)`): the integer algebra's value (a `Layout`,
    /// an int or a tuple).
    ///
    /// Pre: every name has a value; the values satisfy the facts and the guards (else
    /// `refuted`, naming the first that fails). Post: for such values, exactly the integer
    /// algebra's answer for the same call.
    #[pyo3(signature = (**values))]
    fn subs(&self, py: Python<'_>, values: Option<&Bound<'_, PyDict>>) -> PyResult<PyObject> {
        let env: Assignment = match values {
            Some(d) => d.extract()?,
            None => Assignment::new(),
        };
        let facts = Facts::parse(&self.facts).map_err(serr)?;
        let show = symbolic::show_env(&env);
        if !facts.satisfied_by(&env) {
            return Err(raise_coded(
                "refuted",
                format!(
                    "subs: {show} does not satisfy the facts {}",
                    self.facts.join(", ")
                ),
            ));
        }
        for g in &self.guards {
            if !g.pred.holds(&env).map_err(serr)? {
                return Err(raise_coded(
                    "refuted",
                    format!("subs: the guard {} [{}] is false at {show}", g.pred, g.op),
                ));
            }
        }
        value_to_py(py, self.value.subs(&env).map_err(serr)?)
    }
    /// The operation `name` of the symbolic algebra on this value and `args` (other symbolic
    /// values, layouts, integers, tuples or text): `self.apply("logical_divide", (128, 64))`.
    #[pyo3(signature = (name, *args))]
    fn apply(slf: &Bound<'_, Self>, name: &str, args: &Bound<'_, PyTuple>) -> PyResult<PySym> {
        let mut all = vec![slf.clone().into_any()];
        all.extend(args.iter());
        apply_symbolic(name, &PyTuple::new(slf.py(), all)?)
    }
    fn __str__(&self) -> String {
        self.value.to_string()
    }
    fn __repr__(&self) -> String {
        if self.guards.is_empty() {
            format!("SymLayout('{}')", self.value)
        } else {
            format!("SymLayout('{}', guards={:?})", self.value, self.guards())
        }
    }
    fn __eq__(&self, other: &Bound<'_, PyAny>) -> bool {
        other
            .downcast::<PySym>()
            .is_ok_and(|o| o.get().value == self.value && o.get().guards == self.guards)
    }
}

pub fn register(m: &Bound<'_, PyModule>) -> PyResult<()> {
    m.add_class::<PySym>()
}
