//! `tessera.Schedule`: nvFuser iteration-domain schedules (`.tsch` text), their analysis (holes,
//! minimal predicates, allocation), emitted code and pictures.

use pyo3::prelude::*;

use tessera::domain::{self, codegen::Lang, report::analyze, Schedule as Sched};

use crate::{raise_coded, raise_kind};

fn derr(e: domain::Error) -> PyErr {
    raise_kind("domain", e.code(), e.to_string())
}

fn rerr(e: tessera::render::Error) -> PyErr {
    raise_kind("picture", e.code(), e.to_string())
}

/// An iteration-domain schedule, parsed from `.tsch` text (`docs/domain.md`).
#[pyclass(module = "tessera._tessera", name = "Schedule", frozen)]
pub struct Schedule {
    s: Sched,
    source: String,
    name: String,
}

#[pymethods]
impl Schedule {
    /// Parses `.tsch` text.
    #[new]
    #[pyo3(signature = (text, name = "schedule"))]
    fn new(text: &str, name: &str) -> PyResult<Self> {
        Ok(Schedule {
            s: domain::parse(text).map_err(derr)?,
            source: text.to_string(),
            name: name.to_string(),
        })
    }
    /// Loads a `.tsch` file.
    #[staticmethod]
    fn load(path: std::path::PathBuf) -> PyResult<Self> {
        let text = std::fs::read_to_string(&path)?;
        let name = path
            .file_stem()
            .map(|s| s.to_string_lossy().into_owned())
            .unwrap_or_else(|| "schedule".into());
        Schedule::new(&text, &name)
    }
    /// The analysis as `tessera schedule` prints it.
    fn report(&self) -> PyResult<String> {
        Ok(analyze(&self.s).map_err(derr)?.render())
    }
    /// `(iterations, valid, holes)` of the loop nest, or `None` when not enumerable.
    fn counts(&self) -> PyResult<Option<(u64, u64, u64)>> {
        Ok(analyze(&self.s)
            .map_err(derr)?
            .counts
            .map(|c| (c.iterations, c.valid, c.holes)))
    }
    /// The IterDomains our minimal predicate checks (names).
    fn predicate(&self) -> PyResult<Vec<String>> {
        let r = analyze(&self.s).map_err(derr)?;
        Ok(r.names(&r.derivation.chosen))
    }
    /// The predicate as text, e.g. `I0 < 15 ∧ I2 < 6`.
    fn predicate_text(&self) -> PyResult<String> {
        let r = analyze(&self.s).map_err(derr)?;
        Ok(r.predicate_text(&r.derivation.chosen))
    }
    /// The allocation size, as text (an integer or a symbolic extent).
    fn allocation_size(&self) -> PyResult<String> {
        Ok(analyze(&self.s).map_err(derr)?.allocation.size.to_string())
    }
    /// The loop nest with our predicate, in `"python"` or `"cuda"`.
    #[pyo3(signature = (lang = "python"))]
    fn code(&self, lang: &str) -> PyResult<String> {
        let lang = match lang {
            "python" => Lang::Python,
            "cuda" => Lang::Cuda,
            other => {
                return Err(raise_coded(
                    "type_error",
                    format!("code: lang must be \"python\" or \"cuda\", found {other:?}"),
                ))
            }
        };
        let r = analyze(&self.s).map_err(derr)?;
        domain::codegen::emit(&self.s, &r.derivation.chosen, lang).map_err(derr)
    }
    /// A picture: `"dag"` (transform DAG), `"space"` (iteration space) or `"alloc"`.
    #[pyo3(signature = (kind = "dag"))]
    fn svg(&self, kind: &str) -> PyResult<String> {
        let p = match kind {
            "dag" => {
                let r = analyze(&self.s).map_err(derr)?;
                tessera::render::dag_svg(&self.s, &r.derivation.chosen)
            }
            "space" => tessera::render::space_svg(&self.s),
            "alloc" => tessera::render::alloc_svg(&self.s),
            other => {
                return Err(raise_coded(
                    "type_error",
                    format!("svg: kind must be \"dag\", \"space\" or \"alloc\", found {other:?}"),
                ))
            }
        };
        Ok(p.map_err(rerr)?.svg)
    }
    /// The self-contained HTML report (text, analysis and the three pictures).
    fn html(&self) -> PyResult<String> {
        tessera::render::html::schedule_report(&self.name, Some(&self.source), &self.s)
            .map_err(rerr)
    }
    /// The report as a notebook fragment (one `<div>`, no page CSS, pictures fit the cell).
    fn _repr_html_(&self) -> Option<String> {
        tessera::render::html::schedule_fragment(&self.name, Some(&self.source), &self.s).ok()
    }
    fn __str__(&self) -> String {
        self.s.to_string()
    }
    fn __repr__(&self) -> String {
        format!("<tessera.Schedule {}>", self.name)
    }
}

pub fn register(m: &Bound<'_, PyModule>) -> PyResult<()> {
    m.add_class::<Schedule>()
}
